//! Base-station agents (crate::agent): where the event loop hands packets to them and applies
//! their answers. Kept apart from the loop.

use super::{AgentSlot, Event, Fate, Network};
use crate::agent::{Agent, AgentStats, QueueFill, Verdict};
use crate::config::HopRole;
use crate::packet::{Packet, PacketKind};
use crate::packet::{PacketPool, PacketRef};
use crate::port::Port;
use engine::EventQueue;
use engine::{NodeId, PortId, SimTime};

impl Network {
    /// Run `agent` on base-station `node` (replacing any agent there).
    pub fn set_agent(&mut self, node: NodeId, agent: Box<dyn Agent>) {
        self.agents[node.index()] = Some((agent, None));
        for p in &mut self.ports {
            p.agent_from |= p.from == node;
            p.intercept_to |= p.to == node;
        }
    }

    /// Counters of every agent, summed.
    pub fn agent_stats(&self) -> AgentStats {
        let mut s = AgentStats::default();
        for (a, _) in self.agents.iter().flatten() {
            s.add(&a.stats());
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
            && self.agents[node.index()].is_some()
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
        if self.agents[node.index()].is_none() {
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

    /// The agent on `node` takes `pkt` (data onto the air: `on_data`; an ACK off it: `on_ack`);
    /// its local resends go out, its timer is rescheduled and the taps record the call.
    /// Returns the packet to pass on, if any.
    fn agent_react(&mut self, now: SimTime, node: NodeId, pkt: Packet) -> Option<Packet> {
        let fill = match pkt.kind() {
            PacketKind::Data => self.route(node, pkt.dst).map(|out| {
                let p = &self.ports[out.index()];
                QueueFill {
                    len: p.queue.len(),
                    limit: p.cfg.queue_packets as usize,
                }
            }),
            PacketKind::Ack => None,
        };
        let Some((agent, _)) = self.agents[node.index()].as_mut() else {
            return Some(pkt);
        };
        let before = self.taps.agent_before(|| agent.stats());
        let reaction = match pkt.kind() {
            PacketKind::Data => match fill {
                Some(f) => agent.on_data_queued(now, pkt, f),
                None => agent.on_data(now, pkt),
            },
            PacketKind::Ack => agent.on_ack(now, pkt),
        };
        let shown = Some((&pkt, &reaction.verdict));
        let after = || agent.stats();
        self.taps
            .agent_after((now, node), before, after, shown, &reaction.local);
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
        let tail = self.agents[node.index()]
            .as_ref()
            .is_some_and(|(a, _)| a.local_at_tail());
        if tail {
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
            let p = &mut self.ports[port.index()];
            p.enqueue_front(now, r, &self.pool);
            let m = p.medium;
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
            let p = &mut self.ports[port.index()];
            if !p.enqueue(r) {
                self.pool.release(r, Fate::QueueDrop);
                continue;
            }
            let m = p.medium;
            self.kick(now, m, port);
        }
    }

    pub(super) fn agent_timer(&mut self, now: SimTime, node: NodeId) {
        let Some((agent, wake)) = self.agents[node.index()].as_mut() else {
            return;
        };
        if *wake == Some(now) {
            *wake = None;
        }
        let before = self.taps.agent_before(|| agent.stats());
        let local = agent.on_timeout(now);
        let after = || agent.stats();
        self.taps
            .agent_after((now, node), before, after, None, &local);
        self.inject_local(now, node, local);
        self.pump_agent(node, now);
    }

    /// Schedule the agent's wake-up if it wants one earlier than the one pending.
    pub(super) fn pump_agent(&mut self, node: NodeId, now: SimTime) {
        pump_agent(&mut self.agents, &mut self.queue, node, now);
    }
}

/// Schedule the wake-up of the agent on `node` if it wants one earlier than the one pending.
pub(super) fn pump_agent(
    agents: &mut [Option<AgentSlot>],
    queue: &mut EventQueue<Event>,
    node: NodeId,
    now: SimTime,
) {
    let Some((agent, wake)) = agents[node.index()].as_mut() else {
        return;
    };
    if let Some(t) = agent.poll_timeout() {
        if wake.is_none_or(|w| t < w) {
            *wake = Some(t);
            queue.schedule(t.max(now), Event::AgentTimer { node });
        }
    }
}

/// A frame left `port` (the newest on its wire): tell the agent of the sending node about its
/// data frames (the agents time link round trips from it).
#[inline(always)]
pub(super) fn agent_sent(
    ports: &[Port],
    pool: &PacketPool,
    agents: &mut [Option<AgentSlot>],
    queue: &mut EventQueue<Event>,
    now: SimTime,
    port: PortId,
) {
    // Most nodes have no agent: a flag of the port, checked inline.
    if ports[port.index()].agent_from {
        agent_sent_slow(ports, pool, agents, queue, now, port);
    }
}

/// [`agent_sent`] at a port whose sending node runs an agent.
#[inline(never)]
fn agent_sent_slow(
    ports: &[Port],
    pool: &PacketPool,
    agents: &mut [Option<AgentSlot>],
    queue: &mut EventQueue<Event>,
    now: SimTime,
    port: PortId,
) {
    let p = &ports[port.index()];
    let Some((agent, _)) = agents[p.from.index()].as_mut() else {
        return;
    };
    let Some(&(r, _)) = p.wire.back() else {
        return;
    };
    let pkt = &pool[r];
    if p.role != HopRole::Wireless || pkt.kind() != PacketKind::Data || !pkt.is_tcp_segment() {
        return;
    }
    agent.on_sent(now, pkt);
    pump_agent(agents, queue, p.from, now);
}

/// A data frame of `port`'s node starts on a wireless hop: its agent may add a link header (to
/// the packet of `r`, in place; the link ARQ, crate::agent::arq).
#[inline(always)]
pub(super) fn agent_transmit(
    ports: &[Port],
    pool: &mut PacketPool,
    agents: &mut [Option<AgentSlot>],
    now: SimTime,
    port: PortId,
    r: PacketRef,
) {
    if ports[port.index()].agent_from {
        agent_transmit_slow(ports, pool, agents, now, port, r);
    }
}

/// [`agent_transmit`] at a port whose sending node runs an agent.
#[inline(never)]
fn agent_transmit_slow(
    ports: &[Port],
    pool: &mut PacketPool,
    agents: &mut [Option<AgentSlot>],
    now: SimTime,
    port: PortId,
    r: PacketRef,
) {
    let p = &ports[port.index()];
    let Some((agent, _)) = agents[p.from.index()].as_mut() else {
        return;
    };
    let pkt = &pool[r];
    if p.role != HopRole::Wireless
        || pkt.kind() != PacketKind::Data
        || pkt.is_link_ack()
        || !pkt.is_tcp_segment()
    {
        return;
    }
    let pkt = agent.on_transmit(now, *pkt);
    pool.update(r, |p| *p = pkt);
}
