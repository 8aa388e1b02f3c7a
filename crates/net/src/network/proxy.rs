//! Where the event loop drives split-connection proxies (crate::split), one per (node, flow): a
//! proxy at a node takes its flow's data from the fixed host and the mobile's ACKs out of the forwarding path, and
//! the network sends what each leg emits from that node. Kept apart from the loop.

use super::{Event, Fate, Network};
use crate::packet::{LinkTag, Packet, PacketKind, PacketRef, Proto};
use crate::split::SplitProxy;
use engine::{FlowId, NodeId, SimTime};

/// A proxy and its pending wake-up.
pub(super) type ProxySlot = (SplitProxy, Option<SimTime>);

impl Network {
    /// Run `proxy` on `node` for its flow (replacing any proxy of that flow there).
    pub fn set_proxy(&mut self, node: NodeId, proxy: SplitProxy) {
        self.nodes[node.index()]
            .proxies
            .insert(proxy.flow(), (proxy, None));
        self.proxied = true;
        // An arrival anywhere may meet a proxy now (crate::port's `intercept_to`).
        for p in &mut self.ports {
            p.intercept_to = true;
        }
    }

    /// The proxies, with their nodes, in (node, flow) order.
    pub fn proxies(&self) -> impl Iterator<Item = (NodeId, &SplitProxy)> {
        self.nodes
            .iter()
            .flat_map(|n| n.proxies.values().map(move |(p, _)| (n.id, p)))
    }

    /// An intact packet arrived at `node`: a proxy there absorbs its flow's data going to the
    /// mobile and the mobile's ACKs. Returns whether it absorbed the packet of `r` (which then
    /// leaves the pool; otherwise it passes on).
    pub(super) fn proxy_absorbs(&mut self, now: SimTime, node: NodeId, r: PacketRef) -> bool {
        let pkt = &self.pool[r];
        if pkt.dst == node || !self.proxied || !pkt.is_tcp() {
            return false;
        }
        let Some((proxy, _)) = self.nodes[node.index()].proxies.get_mut(&pkt.flow) else {
            return false;
        };
        let flow = pkt.flow;
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
        self.pool.release(r, Fate::ProxyAbsorbed);
        self.pump_proxy(node, flow, now);
        true
    }

    /// The wake-up of the proxy of `flow` on `node` is due. Out of line, like `agent_timer`.
    #[inline(never)]
    pub(super) fn proxy_timer(&mut self, now: SimTime, node: NodeId, flow: FlowId) {
        let Some((proxy, wake)) = self.nodes[node.index()].proxies.get_mut(&flow) else {
            return;
        };
        if *wake == Some(now) {
            *wake = None;
        }
        proxy.on_timeout(now);
        self.pump_proxy(node, flow, now);
    }

    /// Send what both legs want to send, then schedule the proxy's next wake-up.
    fn pump_proxy(&mut self, node: NodeId, flow: FlowId, now: SimTime) {
        loop {
            let Some((proxy, _)) = self.nodes[node.index()].proxies.get_mut(&flow) else {
                return;
            };
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
                proto: Proto::Tcp,
            });
            self.next_uid += 1;
            if let Some(dropped) = self.send_from(now, node, r) {
                if !to_source {
                    if let Some((proxy, _)) = self.nodes[node.index()].proxies.get_mut(&flow) {
                        proxy.on_local_drop(now, &dropped.seg);
                    }
                }
            }
        }
        let Some((proxy, wake)) = self.nodes[node.index()].proxies.get_mut(&flow) else {
            return;
        };
        if let Some(t) = proxy.poll_timeout() {
            if wake.is_none_or(|w| t < w) {
                *wake = Some(t);
                self.queue
                    .schedule(t.max(now), Event::ProxyTimer { node, flow });
            }
        }
    }
}
