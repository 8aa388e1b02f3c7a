//! The network: nodes on a chain, their ports and channels, the transport endpoints of each flow,
//! and the event loop that moves packets between them. Only this loop schedules events
//! (house rule 5); endpoints are polled for what they want to send and when they want to wake.

use crate::agent::{Agent, AgentStats, Verdict};
use crate::config::{ChainConfig, HopRole, Medium, NodeConfig, NodeKind};
use crate::link_receiver::{LinkReceiver, LinkReceiverStats};
use crate::packet::{LinkTag, Packet, PacketKind};
use crate::port::{Channel, ChannelState, Port};
use crate::tap::{AgentRecord, TappedFrame, Taps};
use engine::{
    EventQueue, FlowId, HopId, NodeId, NullSink, PortId, RngStream, SimTime, TraceSink, VecSink,
};
use tcp::{Receiver, Sender, SenderEvent};

mod proxy;

/// Events are kept small (frames travel boxed): the queue moves them on every push and pop.
#[derive(Clone, Debug)]
enum Event {
    /// The frame on a channel has been sent completely.
    TxDone { channel: u32 },
    /// A frame reaches the far end of a port.
    Arrive {
        port: PortId,
        pkt: Box<Packet>,
        corrupted: bool,
    },
    /// The sender of a flow asked to be woken.
    SenderTimer { flow: FlowId },
    /// The receiver of a flow asked to be woken.
    ReceiverTimer { flow: FlowId },
    /// A hold hiccup of a port ended: its channel may transmit again (Ludwig2000 §10.1).
    HoldEnd { port: PortId },
    /// The base-station agent of a node asked to be woken.
    AgentTimer { node: NodeId },
    /// The split-connection proxy of a node asked to be woken.
    ProxyTimer { node: NodeId },
}

/// A transport connection: a sender on `src`, a receiver on `dst`.
pub struct Flow {
    /// Its id.
    pub id: FlowId,
    /// Node of the sender.
    pub src: NodeId,
    /// Node of the receiver.
    pub dst: NodeId,
    /// The sending endpoint.
    pub sender: Sender,
    /// The receiving endpoint.
    pub receiver: Receiver,
    sender_wake: Option<SimTime>,
    receiver_wake: Option<SimTime>,
    trace: Option<VecSink<SenderEvent>>,
    /// Where records go when tracing is off.
    null: NullSink,
}

impl Flow {
    /// The sender and the sink its trace records go to (the recorder, or nowhere).
    fn sender_and_sink(&mut self) -> (&mut Sender, &mut dyn TraceSink<SenderEvent>) {
        let sink: &mut dyn TraceSink<SenderEvent> = match self.trace.as_mut() {
            Some(t) => t,
            None => &mut self.null,
        };
        (&mut self.sender, sink)
    }

    /// The sender's trace, if tracing was asked for.
    pub fn sender_trace(&self) -> Option<&VecSink<SenderEvent>> {
        self.trace.as_ref()
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every flow delivered all its bytes; the time of the last delivery.
    Completed(SimTime),
    /// The time limit passed first.
    TimeLimit(SimTime),
    /// Nothing left to do before completion (a stalled topology).
    Stalled(SimTime),
}

/// A base-station agent and its pending wake-up.
type AgentSlot = (Box<dyn Agent>, Option<SimTime>);

/// A chain network with its flows.
pub struct Network {
    nodes: Vec<NodeConfig>,
    routes: Vec<Vec<Option<PortId>>>,
    ports: Vec<Port>,
    channels: Vec<Channel>,
    flows: Vec<Flow>,
    queue: EventQueue<Event>,
    next_uid: u64,
    /// Base-station agents by node index, with their pending wake-up.
    agents: Vec<Option<AgentSlot>>,
    /// Split-connection proxies by node index, with their pending wake-up.
    proxies: Vec<Option<proxy::ProxySlot>>,
    /// Link receivers of a link ARQ by node index (empty when none runs).
    link_receivers: Vec<Option<LinkReceiver>>,
    /// Optional recorders (crate::tap), off unless enabled.
    taps: Taps,
}

impl Network {
    /// Build the chain described by `cfg`; random streams derive from `seed`.
    pub fn new(cfg: &ChainConfig, seed: u64) -> Self {
        let n = cfg.nodes.len();
        let mut ports = Vec::with_capacity(2 * cfg.hops.len());
        let mut channels = Vec::new();
        for (i, hop) in cfg.hops.iter().enumerate() {
            let hop_id = HopId(i as u32);
            let (a, b) = (NodeId(i as u32), NodeId(i as u32 + 1));
            let fwd = PortId(2 * i as u32);
            let rev = PortId(2 * i as u32 + 1);
            let rng = |dir: &str| RngStream::new(seed, &format!("hop{i}/{dir}/errors"));
            let (ch_f, ch_r) = match hop.medium {
                Medium::FullDuplex => {
                    channels.push(Channel {
                        ports: vec![fwd],
                        contention: None,
                        state: ChannelState::Idle,
                        next: 0,
                    });
                    channels.push(Channel {
                        ports: vec![rev],
                        contention: None,
                        state: ChannelState::Idle,
                        next: 0,
                    });
                    (channels.len() - 2, channels.len() - 1)
                }
                Medium::HalfDuplex { contention } => {
                    let crng = RngStream::new(seed, &format!("hop{i}/contention"));
                    channels.push(Channel {
                        ports: vec![fwd, rev],
                        contention: Some((contention, crng)),
                        state: ChannelState::Idle,
                        next: 0,
                    });
                    (channels.len() - 1, channels.len() - 1)
                }
            };
            ports.push(Port::new(
                fwd,
                hop_id,
                hop.role,
                (a, b),
                ch_f,
                hop.forward.clone(),
                rng("forward"),
            ));
            ports.push(Port::new(
                rev,
                hop_id,
                hop.role,
                (b, a),
                ch_r,
                hop.reverse.clone(),
                rng("reverse"),
            ));
        }
        // Static routes on a chain: right through the forward port, left through the reverse one.
        let routes = (0..n)
            .map(|at| {
                (0..n)
                    .map(|dst| match dst.cmp(&at) {
                        std::cmp::Ordering::Greater => Some(PortId(2 * at as u32)),
                        std::cmp::Ordering::Less => Some(PortId(2 * (at as u32 - 1) + 1)),
                        std::cmp::Ordering::Equal => None,
                    })
                    .collect()
            })
            .collect();
        let mut queue = EventQueue::new();
        // Wake-ups at the end of each hold, in port order then time order (deterministic).
        for p in &ports {
            for end in p.hiccups.hold_ends() {
                queue.schedule(end, Event::HoldEnd { port: p.id });
            }
        }
        Network {
            nodes: cfg.nodes.clone(),
            routes,
            ports,
            channels,
            flows: Vec::new(),
            queue,
            next_uid: 0,
            agents: (0..n).map(|_| None).collect(),
            proxies: (0..n).map(|_| None).collect(),
            link_receivers: Vec::new(),
            taps: Taps::default(),
        }
    }

    /// Add a flow from `src` to `dst` with ready-made endpoints; `trace` records the sender.
    pub fn add_flow(
        &mut self,
        src: NodeId,
        dst: NodeId,
        sender: Sender,
        receiver: Receiver,
        trace: bool,
    ) -> FlowId {
        let id = FlowId(self.flows.len() as u32);
        self.flows.push(Flow {
            id,
            src,
            dst,
            sender,
            receiver,
            sender_wake: None,
            receiver_wake: None,
            trace: trace.then(VecSink::default),
            null: NullSink,
        });
        id
    }

    /// The nodes.
    pub fn nodes(&self) -> &[NodeConfig] {
        &self.nodes
    }
    /// The ports (hop `i` forward is port `2i`, reverse `2i + 1`).
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }
    /// The flows.
    pub fn flows(&self) -> &[Flow] {
        &self.flows
    }
    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.queue.events_processed()
    }
    /// Whether the node sending on `port` is a base station.
    pub fn port_at_base_station(&self, port: &Port) -> bool {
        self.nodes[port.from.index()].kind == NodeKind::BaseStation
    }
    /// Ports of wireless hops.
    pub fn wireless_ports(&self) -> impl Iterator<Item = &Port> {
        self.ports.iter().filter(|p| p.role == HopRole::Wireless)
    }

    /// Run until every flow has delivered all its data, or until `limit`.
    pub fn run(&mut self, limit: SimTime) -> Outcome {
        for f in 0..self.flows.len() {
            self.pump_sender(f, SimTime::ZERO);
        }
        loop {
            if self
                .flows
                .iter()
                .all(|f| f.receiver.complete_at().is_some())
            {
                let end = self
                    .flows
                    .iter()
                    .filter_map(|f| f.receiver.complete_at())
                    .max()
                    .unwrap_or(SimTime::ZERO);
                return Outcome::Completed(end);
            }
            let Some(next) = self.queue.peek_time() else {
                return Outcome::Stalled(self.queue.now());
            };
            if next > limit {
                return Outcome::TimeLimit(limit);
            }
            let Some((now, ev)) = self.queue.pop() else {
                return Outcome::Stalled(self.queue.now());
            };
            self.handle(now, ev);
        }
    }

    fn handle(&mut self, now: SimTime, ev: Event) {
        match ev {
            Event::TxDone { channel } => self.tx_done(now, channel as usize),
            Event::Arrive {
                port,
                pkt,
                corrupted,
            } => {
                let to = self.ports[port.index()].to;
                let pkt = *pkt;
                if !corrupted {
                    let Some(pkt) = self.link_intercept(now, port, pkt) else {
                        return;
                    };
                    let pkt = self.proxy_intercept(now, to, pkt);
                    if let Some(pkt) = pkt.and_then(|p| self.agent_intercept(now, port, p)) {
                        self.receive(now, to, pkt);
                    }
                } else if pkt.dst == to && pkt.seg.is_data() {
                    // The ELN oracle: the receiving host learns which segment the link corrupted
                    // (Balakrishnan97 §2.6); receivers without ELN ignore it.
                    self.flows[pkt.flow.index()].receiver.on_corrupted(&pkt.seg);
                }
            }
            Event::SenderTimer { flow } => {
                let f = flow.index();
                if self.flows[f].sender_wake == Some(now) {
                    self.flows[f].sender_wake = None;
                }
                let fl = &mut self.flows[f];
                let (sender, sink) = fl.sender_and_sink();
                sender.on_timeout(now, sink);
                self.pump_sender(f, now);
            }
            Event::ReceiverTimer { flow } => {
                let f = flow.index();
                if self.flows[f].receiver_wake == Some(now) {
                    self.flows[f].receiver_wake = None;
                }
                self.flows[f].receiver.on_timeout(now);
                self.pump_receiver(f, now);
            }
            Event::HoldEnd { port } => {
                let ch = self.ports[port.index()].channel;
                if self.channels[ch].state == ChannelState::Idle {
                    self.start(now, ch);
                }
            }
            Event::AgentTimer { node } => self.agent_timer(now, node),
            Event::ProxyTimer { node } => self.proxy_timer(now, node),
        }
    }

    /// A packet arrives intact at `node`: deliver it locally or forward it.
    fn receive(&mut self, now: SimTime, node: NodeId, pkt: Packet) {
        if pkt.dst != node {
            self.send_from(now, node, pkt);
            return;
        }
        let f = pkt.flow.index();
        match pkt.kind() {
            PacketKind::Data => {
                self.flows[f].receiver.on_segment(now, &pkt.seg);
                self.pump_receiver(f, now);
            }
            PacketKind::Ack => {
                let fl = &mut self.flows[f];
                let (sender, sink) = fl.sender_and_sink();
                sender.on_ack(now, &pkt.seg, sink);
                self.pump_sender(f, now);
            }
        }
    }

    fn pump_sender(&mut self, f: usize, now: SimTime) {
        loop {
            let fl = &mut self.flows[f];
            let (sender, sink) = fl.sender_and_sink();
            let seg = sender.poll_transmit(now, sink);
            let Some(seg) = seg else { break };
            let pkt = Packet {
                uid: self.next_uid,
                flow: fl.id,
                src: fl.src,
                dst: fl.dst,
                seg,
                link: LinkTag::None,
            };
            self.next_uid += 1;
            self.send_from(now, pkt.src, pkt);
        }
        let fl = &mut self.flows[f];
        if let Some(t) = fl.sender.poll_timeout() {
            if fl.sender_wake.is_none_or(|w| t < w) {
                fl.sender_wake = Some(t);
                self.queue
                    .schedule(t.max(now), Event::SenderTimer { flow: fl.id });
            }
        }
    }

    fn pump_receiver(&mut self, f: usize, now: SimTime) {
        while let Some(seg) = self.flows[f].receiver.poll_transmit(now) {
            let fl = &self.flows[f];
            let pkt = Packet {
                uid: self.next_uid,
                flow: fl.id,
                src: fl.dst,
                dst: fl.src,
                seg,
                link: LinkTag::None,
            };
            self.next_uid += 1;
            self.send_from(now, pkt.src, pkt);
        }
        let fl = &mut self.flows[f];
        if let Some(t) = fl.receiver.poll_timeout() {
            if fl.receiver_wake.is_none_or(|w| t < w) {
                fl.receiver_wake = Some(t);
                self.queue
                    .schedule(t.max(now), Event::ReceiverTimer { flow: fl.id });
            }
        }
    }

    /// Hand `pkt` to the port `node` routes it through.
    fn send_from(&mut self, now: SimTime, node: NodeId, pkt: Packet) {
        let Some(port) = self.routes[node.index()][pkt.dst.index()] else {
            return;
        };
        let p = &mut self.ports[port.index()];
        if p.enqueue(pkt) {
            let ch = p.channel;
            if self.channels[ch].state == ChannelState::Idle {
                self.start(now, ch);
            }
        }
    }

    /// Start the next frame on an idle channel, serving its ports in turn.
    fn start(&mut self, now: SimTime, ch: usize) {
        let n = self.channels[ch].ports.len();
        for k in 0..n {
            let idx = (self.channels[ch].next + k) % n;
            let port = self.channels[ch].ports[idx];
            let Some(pkt) = self.ports[port.index()].next_frame(now) else {
                continue;
            };
            let pkt = self.agent_transmit(now, port, pkt);
            let p = &mut self.ports[port.index()];
            let wait = self.channels[ch].contention_wait();
            let airtime = wait + p.airtime(&pkt);
            let corrupted = p.transmit(&pkt, airtime);
            self.taps.frame(now, port, &pkt, corrupted);
            let c = &mut self.channels[ch];
            c.state = ChannelState::Busy {
                port,
                pkt: Box::new(pkt),
                corrupted,
            };
            c.next = (idx + 1) % n;
            self.queue
                .schedule(now + airtime, Event::TxDone { channel: ch as u32 });
            return;
        }
    }

    fn tx_done(&mut self, now: SimTime, ch: usize) {
        if let ChannelState::Busy {
            port,
            pkt,
            corrupted,
        } = std::mem::replace(&mut self.channels[ch].state, ChannelState::Idle)
        {
            self.agent_sent(now, port, &pkt);
            let delay = self.ports[port.index()].delay();
            self.queue.schedule(
                now + delay,
                Event::Arrive {
                    port,
                    pkt,
                    corrupted,
                },
            );
        }
        self.start(now, ch);
    }
}

/// Base-station agents: where the event loop hands packets to them and applies their answers
/// (crate::agent). Kept apart from the loop above.
impl Network {
    /// Run `agent` on base-station `node` (replacing any agent there).
    pub fn set_agent(&mut self, node: NodeId, agent: Box<dyn Agent>) {
        self.agents[node.index()] = Some((agent, None));
    }

    /// Counters of every agent, summed.
    pub fn agent_stats(&self) -> AgentStats {
        let mut s = AgentStats::default();
        for (a, _) in self.agents.iter().flatten() {
            s.add(&a.stats());
        }
        s
    }

    /// An intact packet arrived through `port` at a node: if an agent runs there and the packet
    /// is data going onto a wireless hop, or an ACK coming from one, the agent decides. Returns
    /// the packet to pass on, if any.
    fn agent_intercept(&mut self, now: SimTime, port: PortId, pkt: Packet) -> Option<Packet> {
        let p = &self.ports[port.index()];
        let node = p.to;
        if pkt.dst == node || self.agents[node.index()].is_none() {
            return Some(pkt);
        }
        let out = self.routes[node.index()][pkt.dst.index()]?;
        let from_wireless = p.role == HopRole::Wireless;
        let to_wireless = self.ports[out.index()].role == HopRole::Wireless;
        let (agent, _) = self.agents[node.index()].as_mut()?;
        let before = self.taps.agent_before(|| agent.stats());
        let reaction = match pkt.kind() {
            PacketKind::Data if to_wireless && !from_wireless => agent.on_data(now, pkt),
            PacketKind::Ack if from_wireless && !to_wireless => agent.on_ack(now, pkt),
            _ => return Some(pkt),
        };
        let shown = Some((&pkt, &reaction.verdict));
        let after = || agent.stats();
        self.taps
            .agent_after((now, node), before, after, shown, &reaction.local);
        self.inject_local(now, node, reaction.local);
        self.pump_agent(node, now);
        match reaction.verdict {
            Verdict::Forward(p) => Some(p),
            Verdict::Absorb => None,
        }
    }

    /// Put local retransmissions at the head of the queue they route through, in order.
    fn inject_local(&mut self, now: SimTime, node: NodeId, local: Vec<Packet>) {
        for mut pkt in local.into_iter().rev() {
            let Some(port) = self.routes[node.index()][pkt.dst.index()] else {
                continue;
            };
            pkt.uid = self.next_uid;
            self.next_uid += 1;
            let p = &mut self.ports[port.index()];
            p.enqueue_front(pkt);
            let ch = p.channel;
            if self.channels[ch].state == ChannelState::Idle {
                self.start(now, ch);
            }
        }
    }

    /// A frame left `port`: tell the agent of the sending node about its data frames.
    fn agent_sent(&mut self, now: SimTime, port: PortId, pkt: &Packet) {
        let p = &self.ports[port.index()];
        if p.role != HopRole::Wireless || pkt.kind() != PacketKind::Data {
            return;
        }
        if let Some((agent, _)) = self.agents[p.from.index()].as_mut() {
            agent.on_sent(now, pkt);
            self.pump_agent(p.from, now);
        }
    }

    fn agent_timer(&mut self, now: SimTime, node: NodeId) {
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
    fn pump_agent(&mut self, node: NodeId, now: SimTime) {
        let Some((agent, wake)) = self.agents[node.index()].as_mut() else {
            return;
        };
        if let Some(t) = agent.poll_timeout() {
            if wake.is_none_or(|w| t < w) {
                *wake = Some(t);
                self.queue.schedule(t.max(now), Event::AgentTimer { node });
            }
        }
    }
}

/// The link ARQ (crate::agent::arq, crate::link_receiver): link headers added as frames go on the
/// air, link data frames handed to the receiving node's link receiver, link ACK frames to the
/// sending node's agent. Kept apart from the loop above.
impl Network {
    /// Run a link receiver on `node` (the far end of the wireless hop).
    pub fn set_link_receiver(&mut self, node: NodeId, rx: LinkReceiver) {
        let i = node.index();
        if self.link_receivers.len() <= i {
            self.link_receivers.resize_with(i + 1, || None);
        }
        self.link_receivers[i] = Some(rx);
    }

    /// Counters of every link receiver, summed.
    pub fn link_receiver_stats(&self) -> LinkReceiverStats {
        let mut s = LinkReceiverStats::default();
        for r in self.link_receivers.iter().flatten() {
            s.add(&r.stats());
        }
        s
    }

    /// A data frame of `port`'s node starts on a wireless hop: its agent may add a link header.
    fn agent_transmit(&mut self, now: SimTime, port: PortId, pkt: Packet) -> Packet {
        let p = &self.ports[port.index()];
        if p.role != HopRole::Wireless || pkt.kind() != PacketKind::Data || pkt.is_link_ack() {
            return pkt;
        }
        match self.agents[p.from.index()].as_mut() {
            Some((agent, _)) => agent.on_transmit(now, pkt),
            None => pkt,
        }
    }

    /// An intact frame arrived through `port`: a link ACK goes to the agent of the node that
    /// sent the data (its retransmissions to the head of the queue), a link data frame to the
    /// link receiver here (which releases packets to `receive` and queues a link ACK on the
    /// reverse direction of the same hop, port `2i + 1` for `2i` and vice versa, updating one
    /// already waiting there). Returns any other packet untouched.
    fn link_intercept(&mut self, now: SimTime, port: PortId, pkt: Packet) -> Option<Packet> {
        let node = self.ports[port.index()].to;
        match pkt.link {
            LinkTag::None => Some(pkt),
            LinkTag::Ack(_) => {
                if let Some((agent, _)) = self.agents[node.index()].as_mut() {
                    let local = agent.on_link_ack(now, &pkt);
                    self.inject_local(now, node, local);
                    self.pump_agent(node, now);
                }
                None
            }
            LinkTag::Data { .. } => {
                let Some(Some(rx)) = self.link_receivers.get_mut(node.index()) else {
                    let mut pkt = pkt;
                    pkt.link = LinkTag::None;
                    return Some(pkt);
                };
                let out = rx.on_frame(pkt);
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
                    };
                    self.next_uid += 1;
                    let back = &mut self.ports[port.index() ^ 1];
                    if back.enqueue_link_ack(ack) {
                        let ch = back.channel;
                        if self.channels[ch].state == ChannelState::Idle {
                            self.start(now, ch);
                        }
                    }
                }
                for p in out.deliver {
                    if let Some(p) = self.agent_intercept(now, port, p) {
                        self.receive(now, node, p);
                    }
                }
                None
            }
        }
    }
}

/// Optional recorders (crate::tap): the per-frame link tap and the agent trace.
impl Network {
    /// Record every frame whose transmission starts, from now on (for packet captures).
    pub fn enable_frame_tap(&mut self) {
        self.taps.frames.get_or_insert_with(Vec::new);
    }

    /// Record what base-station agents do (local retransmissions, suppressed dupacks).
    pub fn enable_agent_trace(&mut self) {
        self.taps.agent.get_or_insert_with(Vec::new);
    }

    /// The frames recorded by the link tap, in start order (`None` if it is off).
    pub fn tapped_frames(&self) -> Option<&[TappedFrame]> {
        self.taps.frames.as_deref()
    }

    /// The agent trace, in time order (`None` if it is off).
    pub fn agent_trace(&self) -> Option<&[AgentRecord]> {
        self.taps.agent.as_deref()
    }
}
