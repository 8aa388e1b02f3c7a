//! Where the event loop drives split-connection proxies (crate::split): a proxy at a node takes
//! its flow's data from the fixed host and the mobile's ACKs out of the forwarding path, and
//! the network sends what each leg emits from that node. Kept apart from the loop.

use super::{Event, Network};
use crate::packet::{LinkTag, Packet, PacketKind, PacketRef};
use crate::split::SplitProxy;
use engine::{NodeId, SimTime};

/// A proxy and its pending wake-up.
pub(super) type ProxySlot = (SplitProxy, Option<SimTime>);

impl Network {
    /// Run `proxy` on `node` (replacing any proxy there).
    pub fn set_proxy(&mut self, node: NodeId, proxy: SplitProxy) {
        self.proxies[node.index()] = Some((proxy, None));
    }

    /// The proxies, with their nodes.
    pub fn proxies(&self) -> impl Iterator<Item = (NodeId, &SplitProxy)> {
        self.proxies
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|(p, _)| (NodeId(i as u32), p)))
    }

    /// An intact packet arrived at `node`: a proxy there absorbs its flow's data going to the
    /// mobile and the mobile's ACKs. Returns whether it absorbed the packet of `r` (which then
    /// leaves the pool; otherwise it passes on).
    pub(super) fn proxy_absorbs(&mut self, now: SimTime, node: NodeId, r: PacketRef) -> bool {
        let pkt = &self.pool[r];
        if pkt.dst == node {
            return false;
        }
        let Some((proxy, _)) = self.proxies[node.index()].as_mut() else {
            return false;
        };
        if proxy.flow() != pkt.flow {
            return false;
        }
        let fl = &self.flows[pkt.flow.index()];
        match pkt.kind() {
            PacketKind::Data if pkt.src == fl.src && pkt.dst == fl.dst => {
                proxy.on_data(now, &pkt.seg)
            }
            PacketKind::Ack if pkt.src == fl.dst && pkt.dst == fl.src => {
                proxy.on_ack(now, &pkt.seg)
            }
            _ => return false,
        }
        self.pool.release(r);
        self.pump_proxy(node, now);
        true
    }

    pub(super) fn proxy_timer(&mut self, now: SimTime, node: NodeId) {
        let Some((proxy, wake)) = self.proxies[node.index()].as_mut() else {
            return;
        };
        if *wake == Some(now) {
            *wake = None;
        }
        proxy.on_timeout(now);
        self.pump_proxy(node, now);
    }

    /// Send what both legs want to send, then schedule the proxy's next wake-up.
    fn pump_proxy(&mut self, node: NodeId, now: SimTime) {
        loop {
            let Some((proxy, _)) = self.proxies[node.index()].as_mut() else {
                return;
            };
            let flow = proxy.flow();
            let (to_source, seg) = match proxy.poll_wired(now) {
                Some(seg) => (true, seg),
                None => match proxy.poll_wireless(now) {
                    Some(seg) => (false, seg),
                    None => break,
                },
            };
            let fl = &self.flows[flow.index()];
            let r = self.pool.insert(Packet {
                uid: self.next_uid,
                flow,
                src: node,
                dst: if to_source { fl.src } else { fl.dst },
                seg,
                link: LinkTag::None,
            });
            self.next_uid += 1;
            if let Some(dropped) = self.send_from(now, node, r) {
                if !to_source {
                    if let Some((proxy, _)) = self.proxies[node.index()].as_mut() {
                        proxy.on_local_drop(now, &dropped.seg);
                    }
                }
            }
        }
        let Some((proxy, wake)) = self.proxies[node.index()].as_mut() else {
            return;
        };
        if let Some(t) = proxy.poll_timeout() {
            if wake.is_none_or(|w| t < w) {
                *wake = Some(t);
                self.queue.schedule(t.max(now), Event::ProxyTimer { node });
            }
        }
    }
}
