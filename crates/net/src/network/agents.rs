//! Base-station agents (crate::agent) on the IP path: where the event loop hands packets to the
//! agent of a node (network/node.rs holds it and its hooks) and applies its answers. Kept apart
//! from the loop.

use super::node::AgentSlot;
use super::{Fate, Network};
use crate::agent::{Agent, AgentStats, Verdict};
use crate::config::HopRole;
use crate::packet::{Packet, PacketKind};
use engine::{NodeId, PortId, SimTime};

impl Network {
    /// Run `agent` on base-station `node` (replacing any agent there).
    pub fn set_agent(&mut self, node: NodeId, agent: Box<dyn Agent>) {
        self.nodes[node.index()].agent = Some(AgentSlot { agent, wake: None });
        for p in &mut self.ports {
            p.agent_from |= p.from == node;
            p.intercept_to |= p.to == node;
        }
    }

    /// Counters of every agent, summed.
    pub fn agent_stats(&self) -> AgentStats {
        let mut s = AgentStats::default();
        for a in self.nodes.iter().filter_map(|n| n.agent_stats()) {
            s.add(&a);
        }
        s
    }

    /// Whether an agent runs at the node `port` leads to and `pkt` passes through that node
    /// (the packets [`Network::agent_intercept`] may hand to it). Checked first so that the
    /// packets no agent sees are not moved through it.
    pub(super) fn agent_at(&self, port: PortId, pkt: &Packet) -> bool {
        let p = &self.ports[port.index()];
        let node = p.to;
        pkt.is_tcp_segment()
            && self.nodes[node.index()].has_agent()
            && (pkt.dst != node || (p.role == HopRole::Wireless && pkt.kind() == PacketKind::Ack))
    }

    /// An intact packet arrived through `port` at a node: if an agent runs there and the packet
    /// is data going onto a wireless hop, or an ACK coming from one, the agent decides. Returns
    /// the packet to pass on, if any (a packet not passed on is counted in the account).
    pub(super) fn agent_intercept(
        &mut self,
        now: SimTime,
        port: PortId,
        pkt: Packet,
    ) -> Option<Packet> {
        let p = &self.ports[port.index()];
        let node = p.to;
        if !self.nodes[node.index()].has_agent() {
            return Some(pkt);
        }
        let from_wireless = p.role == HopRole::Wireless;
        // An ACK for the node's own sender (an agent on a sending station) counts as leaving
        // the air: it goes on to the local TCP.
        let to_wireless = if pkt.dst != node {
            let Some(out) = self.route(node, pkt.dst) else {
                self.pool.retire(Fate::Unroutable);
                return None;
            };
            self.ports[out.index()].role == HopRole::Wireless
        } else if from_wireless && pkt.kind() == PacketKind::Ack {
            false
        } else {
            return Some(pkt);
        };
        match pkt.kind() {
            PacketKind::Data if to_wireless && !from_wireless => self.agent_react(now, node, pkt),
            PacketKind::Ack if from_wireless && !to_wireless => self.agent_react(now, node, pkt),
            _ => Some(pkt),
        }
    }

    /// The agent on `node` takes `pkt` ([`super::node::Node::react`]); its local resends go
    /// out and its timer is rescheduled. Returns the packet to pass on, if any.
    fn agent_react(&mut self, now: SimTime, node: NodeId, pkt: Packet) -> Option<Packet> {
        let fill = match pkt.kind() {
            PacketKind::Data => self.route(node, pkt.dst).map(|out| self.queue_fill(out)),
            PacketKind::Ack => None,
        };
        let n = &mut self.nodes[node.index()];
        if !n.has_agent() {
            return Some(pkt);
        }
        let reaction = n.react(now, pkt, fill, &mut self.taps);
        self.inject_local(now, node, reaction.local);
        self.pump_agent(node, now);
        match reaction.verdict {
            Verdict::Forward(p) => Some(p),
            Verdict::Absorb => {
                self.pool.retire(Fate::AgentAbsorbed);
                None
            }
        }
    }

    /// A segment the TCP sender on `node` is about to send: if an agent runs there (snoop on a
    /// sending station) and the segment goes out over a wireless hop, the agent sees it first,
    /// as a base station sees data from the wired side. Returns the packet to send, if any.
    pub(super) fn agent_outgoing(
        &mut self,
        now: SimTime,
        node: NodeId,
        pkt: Packet,
    ) -> Option<Packet> {
        let Some(out) = self.route(node, pkt.dst) else {
            return Some(pkt);
        };
        if self.ports[out.index()].role != HopRole::Wireless || pkt.kind() != PacketKind::Data {
            return Some(pkt);
        }
        self.agent_react(now, node, pkt)
    }

    /// Put local retransmissions at the head of the queue they route through, in order (at
    /// its tail, dropped when it is full, for an agent that asks so: ns-2's snoop).
    pub(super) fn inject_local(&mut self, now: SimTime, node: NodeId, local: Vec<Packet>) {
        if self.nodes[node.index()].local_at_tail() {
            self.inject_local_tail(now, node, local);
            return;
        }
        for mut pkt in local.into_iter().rev() {
            let Some(port) = self.route(node, pkt.dst) else {
                continue;
            };
            pkt.uid = self.next_uid;
            self.next_uid += 1;
            let r = self.pool.insert(pkt);
            self.enqueue_at(now, port, r, true);
            let m = self.ports[port.index()].medium;
            self.kick(now, m, port);
        }
    }

    /// [`Network::inject_local`] at the tail of the queue: a full queue drops the resend (ns-2's
    /// `LLSnoop::sendDown` hands it to the interface queue like any packet).
    fn inject_local_tail(&mut self, now: SimTime, node: NodeId, local: Vec<Packet>) {
        for mut pkt in local {
            let Some(port) = self.route(node, pkt.dst) else {
                continue;
            };
            pkt.uid = self.next_uid;
            self.next_uid += 1;
            let r = self.pool.insert(pkt);
            if !self.enqueue_at(now, port, r, false) {
                self.pool.release(r, Fate::QueueDrop);
                continue;
            }
            let m = self.ports[port.index()].medium;
            self.kick(now, m, port);
        }
    }

    /// The wake-up of the agent on `node` is due. Out of line: the event loop's `handle` stays
    /// small (callgrind: inlined there, it cost the reference run 0.3 % of its instructions).
    #[inline(never)]
    pub(super) fn agent_timer(&mut self, now: SimTime, node: NodeId) {
        let Some(local) = self.nodes[node.index()].timeout(now, &mut self.taps) else {
            return;
        };
        self.inject_local(now, node, local);
        self.pump_agent(node, now);
    }

    /// Schedule the wake-up of the agent on `node` if it wants one earlier than the one
    /// pending.
    pub(super) fn pump_agent(&mut self, node: NodeId, now: SimTime) {
        self.nodes[node.index()].pump_agent(now, &mut self.queue);
    }
}
