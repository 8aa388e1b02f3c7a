//! The link ARQ (crate::agent::arq, crate::link_receiver): link headers added as frames go on
//! the air, link data frames handed to the receiving node's link receiver, link ACK frames to
//! the sending node's agent. Kept apart from the loop.

use super::{Fate, Network};
use crate::link_receiver::{LinkReceiver, LinkReceiverStats};
use crate::packet::{LinkTag, Packet};
use engine::{NodeId, PortId, SimTime};

impl Network {
    /// Run a link receiver on `node` (the far end of the wireless hop).
    pub fn set_link_receiver(&mut self, node: NodeId, rx: LinkReceiver) {
        self.nodes[node.index()].link_receiver = Some(rx);
    }

    /// Counters of every link receiver, summed.
    pub fn link_receiver_stats(&self) -> LinkReceiverStats {
        let mut s = LinkReceiverStats::default();
        for r in self.nodes.iter().filter_map(|n| n.link_receiver.as_ref()) {
            s.add(&r.stats());
        }
        s
    }

    /// An intact frame arrived through `port`: a link ACK goes to the agent of the node that
    /// sent the data (its retransmissions to the head of the queue), a link data frame to the
    /// link receiver here (which releases packets to `receive` and queues a link ACK on the
    /// reverse direction of the same link, the port's `peer`, updating one already waiting
    /// there). Returns any other packet untouched.
    pub(super) fn link_intercept(
        &mut self,
        now: SimTime,
        port: PortId,
        pkt: Packet,
    ) -> Option<Packet> {
        let node = self.ports[port.index()].to;
        match pkt.link {
            LinkTag::None => Some(pkt),
            LinkTag::Ack(_) => {
                if let Some(local) = self.nodes[node.index()].link_ack(now, &pkt) {
                    self.inject_local(now, node, local);
                    self.pump_agent(node, now);
                }
                // The link layer it was addressed to consumed it.
                self.pool.retire(Fate::LinkAbsorbed);
                None
            }
            LinkTag::Data { .. } => {
                let Some(rx) = self.nodes[node.index()].link_receiver.as_mut() else {
                    let mut pkt = pkt;
                    pkt.link = LinkTag::None;
                    return Some(pkt);
                };
                let out = rx.on_frame(pkt);
                if out.discarded {
                    self.pool.retire(Fate::LinkAbsorbed);
                }
                if let Some(ack) = out.ack {
                    let from = self.ports[port.index()].from;
                    let ack = Packet {
                        uid: self.next_uid,
                        flow: pkt.flow,
                        src: node,
                        dst: from,
                        seg: tcp::Segment {
                            len: 0,
                            opts: Default::default(),
                            ..pkt.seg
                        },
                        link: LinkTag::Ack(ack),
                        proto: pkt.proto,
                    };
                    self.next_uid += 1;
                    let ack = self.pool.insert(ack);
                    let peer = self.ports[port.index()].peer;
                    let back = &mut self.ports[peer.index()];
                    if back.enqueue_link_ack(ack, &mut self.pool) {
                        let m = back.medium;
                        self.kick(now, m, peer);
                    }
                }
                for p in out.deliver {
                    if let Some(p) = self.agent_intercept(now, port, p) {
                        let r = self.pool.insert(p);
                        self.receive(now, node, r);
                    }
                }
                None
            }
        }
    }
}
