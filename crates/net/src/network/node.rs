//! A node and what runs on it: its base-station agent (crate::agent) with the agent's pending
//! wake-up, the link receiver of a link ARQ (crate::link_receiver) and the split-connection
//! proxies (crate::split) by flow. The agent's hooks are methods of the node, called alike from
//! the IP path (network/agents.rs) and from inside a medium (network/air.rs).

use super::{Event, ProxySlot};
use crate::agent::{Agent, AgentStats, Notice, QueueFill, Reaction};
use crate::config::{HopRole, NodeConfig};
use crate::link_receiver::LinkReceiver;
use crate::packet::{Packet, PacketKind, PacketPool, PacketRef};
use crate::port::Port;
use crate::tap::Taps;
use engine::{EventQueue, FlowId, NodeId, SimTime};
use std::collections::BTreeMap;

/// A base-station agent and its pending wake-up.
pub(crate) struct AgentSlot {
    /// The agent.
    pub(crate) agent: Box<dyn Agent>,
    /// The wake-up scheduled for it, if any.
    pub(crate) wake: Option<SimTime>,
}

/// A node of the topology with what runs on it.
pub(crate) struct Node {
    /// Its id (its index in the network's nodes).
    pub(crate) id: NodeId,
    /// Name, role and processing jitter.
    pub(crate) cfg: NodeConfig,
    /// The base-station agent running here, if any.
    pub(crate) agent: Option<AgentSlot>,
    /// The link receiver of a link ARQ, if one runs here.
    pub(crate) link_receiver: Option<LinkReceiver>,
    /// Split-connection proxies here, by flow, with their pending wake-ups.
    pub(crate) proxies: BTreeMap<FlowId, ProxySlot>,
}

impl Node {
    /// Node `id` as configured, with nothing running on it yet.
    pub(crate) fn new(id: NodeId, cfg: NodeConfig) -> Self {
        Node {
            id,
            cfg,
            agent: None,
            link_receiver: None,
            proxies: BTreeMap::new(),
        }
    }

    /// Whether an agent runs here.
    #[inline(always)]
    pub(crate) fn has_agent(&self) -> bool {
        self.agent.is_some()
    }

    /// The agent's counters, if an agent runs here.
    pub(crate) fn agent_stats(&self) -> Option<AgentStats> {
        self.agent.as_ref().map(|a| a.agent.stats())
    }

    /// The agent takes `pkt` (data onto the air: `on_data`, or `on_data_queued` with the fill
    /// of the queue it goes to; an ACK off it: `on_ack`), the taps recording the call. Without
    /// an agent the packet passes on.
    pub(crate) fn react(
        &mut self,
        now: SimTime,
        pkt: Packet,
        fill: Option<QueueFill>,
        taps: &mut Taps,
    ) -> Reaction {
        let Some(AgentSlot { agent, .. }) = self.agent.as_mut() else {
            return Reaction::forward(pkt);
        };
        let before = taps.agent_before(|| agent.stats());
        let reaction = match pkt.kind() {
            PacketKind::Data => match fill {
                Some(f) => agent.on_data_queued(now, pkt, f),
                None => agent.on_data(now, pkt),
            },
            PacketKind::Ack => agent.on_ack(now, pkt),
        };
        let shown = Some((&pkt, &reaction.verdict));
        let after = || agent.stats();
        taps.agent_after((now, self.id), before, after, shown, &reaction.local);
        reaction
    }

    /// The agent's wake-up is due: its local retransmissions, the taps recording the call
    /// (`None` without an agent).
    pub(crate) fn timeout(&mut self, now: SimTime, taps: &mut Taps) -> Option<Vec<Packet>> {
        let AgentSlot { agent, wake } = self.agent.as_mut()?;
        if *wake == Some(now) {
            *wake = None;
        }
        let before = taps.agent_before(|| agent.stats());
        let local = agent.on_timeout(now);
        let after = || agent.stats();
        taps.agent_after((now, self.id), before, after, None, &local);
        Some(local)
    }

    /// A link ACK of the link ARQ reached this node: the agent's retransmissions (`None`
    /// without an agent).
    pub(crate) fn link_ack(&mut self, now: SimTime, pkt: &Packet) -> Option<Vec<Packet>> {
        Some(self.agent.as_mut()?.agent.on_link_ack(now, pkt))
    }

    /// Whether the agent wants its local retransmissions at the tail of the queue (ns-2's
    /// snoop), not at its head.
    pub(crate) fn local_at_tail(&self) -> bool {
        self.agent.as_ref().is_some_and(|a| a.agent.local_at_tail())
    }

    /// Schedule the agent's wake-up if it wants one earlier than the one pending.
    pub(crate) fn pump_agent(&mut self, now: SimTime, queue: &mut EventQueue<Event>) {
        let Some(AgentSlot { agent, wake }) = self.agent.as_mut() else {
            return;
        };
        if let Some(t) = agent.poll_timeout() {
            if wake.is_none_or(|w| t < w) {
                *wake = Some(t);
                queue.schedule(t.max(now), Event::AgentTimer { node: self.id });
            }
        }
    }

    /// The frame of `r` left port `p` of this node (sent completely): the agent sees its data
    /// frames on a wireless hop leave (it times link round trips from them). Out of line: the
    /// caller checks the port's `agent_from` flag first (most nodes run no agent).
    #[inline(never)]
    pub(crate) fn sent(
        &mut self,
        now: SimTime,
        p: &Port,
        r: PacketRef,
        pool: &PacketPool,
        queue: &mut EventQueue<Event>,
    ) {
        let Some(AgentSlot { agent, .. }) = self.agent.as_mut() else {
            return;
        };
        let pkt = &pool[r];
        if p.role != HopRole::Wireless || pkt.kind() != PacketKind::Data || !pkt.is_tcp_segment() {
            return;
        }
        agent.on_sent(now, pkt);
        self.pump_agent(now, queue);
    }

    /// A data frame of this node starts on port `p`: on a wireless hop the agent may add a link
    /// header (to the packet of `r`, in place; the link ARQ, crate::agent::arq). Out of line,
    /// like [`Node::sent`].
    #[inline(never)]
    pub(crate) fn transmit(&mut self, now: SimTime, p: &Port, pool: &mut PacketPool, r: PacketRef) {
        let Some(AgentSlot { agent, .. }) = self.agent.as_mut() else {
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

    /// The MAC of port `p` gave the frame of `r` up after its last retry: the agent sees it
    /// (and, for a data frame on a wireless hop, sees it leave, as a corrupted frame would
    /// have); returns the notification it raises, if any. The caller pumps the agent after
    /// raising it.
    pub(crate) fn mac_drop(
        &mut self,
        now: SimTime,
        p: &Port,
        pool: &PacketPool,
        r: PacketRef,
    ) -> Option<Notice> {
        let AgentSlot { agent, .. } = self.agent.as_mut()?;
        let pkt = &pool[r];
        // The frame was on the air, as a corrupted one would have been: the agents that cache
        // and time their data frames (snoop, LL) see it leave, or they would wait for a frame
        // that never went and absorb the duplicates it causes.
        if p.role == HopRole::Wireless && pkt.kind() == PacketKind::Data && pkt.is_tcp_segment() {
            agent.on_sent(now, pkt);
        }
        agent.on_mac_drop(now, pkt)
    }

    /// A frame of this node (the packet of `r`) starts its first MAC retry: the agent's
    /// cross-layer hook; returns the notification it raises, if any.
    pub(crate) fn first_retry(
        &mut self,
        now: SimTime,
        pool: &PacketPool,
        r: PacketRef,
    ) -> Option<Notice> {
        let AgentSlot { agent, .. } = self.agent.as_mut()?;
        agent.on_first_retry(now, &pool[r])
    }
}
