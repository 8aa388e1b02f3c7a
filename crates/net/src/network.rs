//! The network: nodes and links of any topology, their ports and channels, the transport endpoints of each flow,
//! and the event loop that moves packets between them. Only this loop schedules events
//! (house rule 5); endpoints are polled for what they want to send and when they want to wake.

use crate::account::{Fate, PacketAccount};
use crate::config::{HopRole, NodeConfig, NodeKind, TopologyConfig};
use crate::keys;
use crate::medium::{AnyMedium, Arrival, LinkMedia};
use crate::packet::{LinkTag, Packet, PacketKind, PacketPool, PacketRef, Proto};
use crate::port::Port;
use crate::tap::Taps;
use crate::topology::{route_table, RouteError};
use engine::Progress;
use engine::{EventQueue, FlowId, HopId, NodeId, PortId, RngStream, SimDuration, SimTime};
use tcp::{Receiver, Sender};

mod agents;
mod air;
mod elsn;
mod emulated;
mod events;
mod fingerprint;
mod flow;
mod ifq;
mod link_arq;
mod node;
mod oracle;
mod proxy;
mod taps;
mod udp;
mod web;

pub use emulated::Injected;
pub use flow::Flow;
use node::Node;
use proxy::ProxySlot;
pub use udp::UdpFlow;
pub use web::{Connector, WebFlow};

/// Events are kept small (16 bytes, a test holds it): the queue moves them on every push and
/// pop. The tag is four bytes (`repr(u32)`), so the fields after it are whole, aligned words.
/// With the compiler's one-byte tag the event was 12 bytes, and the queue's second tier moved
/// the 11 bytes after the tag as an 8- and a 4-byte copy at odd offsets through the stack:
/// loads that straddled the stores before them, a third of `pop_later`'s samples on the
/// 1000-flow dumbbell (docs/performance.md, nineteenth session).
#[derive(Clone, Copy, Debug)]
#[repr(u32)]
enum Event {
    /// A wake-up a medium asked for (crate::medium): for a shared channel, the frame on the
    /// air has been sent.
    Mac { medium: u32, tag: u32 },
    /// A frame sent on `port` reaches the far end: the packet of the handle taken apart
    /// ([`PacketRef::into_parts`]: `slot`, `kind`), with its fate on the channel.
    Arrive {
        port: PortId,
        slot: u32,
        kind: PacketKind,
        arrival: Arrival,
    },
    /// The sender of a flow asked to be woken.
    SenderTimer { flow: FlowId },
    /// The receiver of a flow asked to be woken.
    ReceiverTimer { flow: FlowId },
    /// A hold hiccup of a port ended: its medium may transmit again (Ludwig2000 §10.1).
    HoldEnd { port: PortId },
    /// The base-station agent of a node asked to be woken.
    AgentTimer { node: NodeId },
    /// The split-connection proxy of a flow on a node asked to be woken.
    ProxyTimer { node: NodeId, flow: FlowId },
    /// A flow's application starts writing (flows that start after time zero).
    FlowStart { flow: FlowId },
    /// A long-lived flow's application stops writing.
    FlowStop { flow: FlowId },
    /// The goodput measurement window opens.
    WindowStart,
    /// A UDP source's next datagram leaves.
    UdpSend { flow: FlowId },
    /// A web session's wake-up (a page or an object is requested).
    WebWake { session: u32 },
    /// Agents' link-status notifications wait in `Network::notices` (LL-ELSN).
    Notices,
    /// Headers of corrupted frames reach their receivers (LHP's header protection).
    Headers,
    /// The oldest packet a node's processing jitter holds for a port is due (crate::jitter).
    Jittered { port: PortId },
}

impl Event {
    /// The queue lane of the event: a port's arrivals, due in the order they were scheduled
    /// (the port's delay is fixed and its frames start one after another).
    fn lane(&self) -> u32 {
        match *self {
            Event::Arrive { port, .. } => port.0,
            _ => engine::NO_LANE,
        }
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

/// How many slices of simulated time [`Network::run_reporting`] reports progress after.
pub const PROGRESS_SLICES: u64 = 1000;

/// A network with its flows.
pub struct Network {
    /// The nodes, with what runs on each (agent, link receiver, proxies).
    nodes: Vec<Node>,
    /// Whether a split-connection proxy runs on any node (most runs have none: the arrival
    /// path checks this first).
    proxied: bool,
    /// The port each node sends a packet through towards each destination, flat: entry
    /// `from * n + to` (one indexing and one bounds check per lookup).
    routes: Vec<Option<PortId>>,
    ports: Vec<Port>,
    /// The media (crate::medium).
    media: Vec<AnyMedium>,
    flows: Vec<Flow>,
    queue: EventQueue<Event>,
    next_uid: u64,
    /// The packets between two stages; queues, wires and hiccups hold handles on them.
    pool: PacketPool,
    /// Link-status notifications agents raised during a medium call, in order (LL-ELSN).
    notices: Vec<(NodeId, crate::agent::Notice)>,
    /// Protected headers of corrupted frames on their way to the receiver (time of arrival).
    headers: Vec<(SimTime, FlowId, tcp::Segment)>,
    /// Optional recorders (crate::tap), off unless enabled.
    taps: Taps,
    /// UDP background flows (their own id space: a packet's `flow` with `Proto::Udp`).
    udp: Vec<UdpFlow>,
    /// Web sessions (their connections are flows, opened as they go).
    web: Vec<WebFlow>,
    /// Real datagrams of the emulator that reached their destination, with the model time of
    /// their arrival, until `advance` hands them out (network/emulated.rs).
    emulated_out: Vec<(SimTime, Packet)>,
    /// A flow's transfer completed since `run` last looked (only `Receiver::on_segment`
    /// completes one), in a run that can complete: the loop asks the flows only then. One test
    /// per event (no store: callgrind).
    completion_due: bool,
    /// The flows before this one have completed (a completion is for good): the loop's look
    /// resumes here, so the looks of a run walk each flow about once in all.
    completed_before: usize,
    /// Every flow is finite and nothing else runs to the limit (set by `run`): a run that ends
    /// when the flows complete, whose completing segments set `completion_due`.
    completes: bool,
    /// Nodes' processing jitter and the packets it holds (None when no node has one).
    jitter: Option<Box<crate::jitter::Jitters>>,
    /// The access points' shared interface queues (crate::ifq; most networks have none).
    ifqs: Vec<crate::ifq::SharedIfq>,
    /// The ideal-BWE oracle's ground truth (network/oracle.rs), when a flow asks for it.
    oracle: Option<Box<oracle::AvailableRate>>,
}

impl Network {
    /// Build the topology described by `cfg`; random streams derive from `seed` and each
    /// component's key (crate::keys). Fails only on route overrides that cannot be used.
    pub fn new(cfg: &TopologyConfig, seed: u64) -> Result<Self, RouteError> {
        let routes = route_table(cfg)?;
        let mut ports = Vec::with_capacity(2 * cfg.links.len());
        let mut media: Vec<AnyMedium> = Vec::new();
        // The medium each cell's links share, created with its first link.
        let mut cell_of = vec![None; cfg.links.len()];
        for (c, cell) in cfg.cells.iter().enumerate() {
            for &l in &cell.links {
                cell_of[l] = Some(c);
            }
        }
        let mut cell_medium: Vec<Option<usize>> = vec![None; cfg.cells.len()];
        for (i, link) in cfg.links.iter().enumerate() {
            let hop = &link.hop;
            let hop_id = HopId(i as u32);
            let (a, b) = (link.a, link.b);
            let fwd = PortId(2 * i as u32);
            let rev = PortId(2 * i as u32 + 1);
            let rng = |dir: &str| RngStream::new(seed, &keys::link_errors(&link.key, dir));
            let header = |dir: &str| RngStream::new(seed, &keys::header_hits(&link.key, dir));
            let (m_f, m_r) = match cell_of[i] {
                Some(c) => {
                    let cell = &cfg.cells[c];
                    let m = *cell_medium[c].get_or_insert_with(|| {
                        media.push(AnyMedium::for_cell(cell, seed));
                        media.len() - 1
                    });
                    media[m].join_cell(cell, link, (fwd, rev), seed);
                    (m, m)
                }
                None => match AnyMedium::for_link(link, (fwd, rev), seed) {
                    LinkMedia::Both(m) => {
                        media.push(m);
                        (media.len() - 1, media.len() - 1)
                    }
                    LinkMedia::Each(f, r) => {
                        media.push(f);
                        media.push(r);
                        (media.len() - 2, media.len() - 1)
                    }
                },
            };
            ports.push(Port::new(
                (fwd, rev),
                hop_id,
                hop.role,
                (a, b),
                m_f,
                hop.forward.clone(),
                (rng("forward"), header("forward")),
            ));
            ports.push(Port::new(
                (rev, fwd),
                hop_id,
                hop.role,
                (b, a),
                m_r,
                hop.reverse.clone(),
                (rng("reverse"), header("reverse")),
            ));
            for (k, dir, d) in [(0, "forward", &hop.forward), (1, "reverse", &hop.reverse)] {
                if let Some(a) = &d.aqm {
                    let stream = RngStream::new(seed, &keys::link_aqm(&link.key, dir));
                    let port = ports.len() - 2 + k;
                    ports[port].set_aqm(crate::aqm::Aqm::new(a, d.rate_bps, stream));
                }
                if d.wlan.is_some() {
                    let stream = RngStream::new(seed, &keys::link_minstrel(&link.key, dir));
                    let port = ports.len() - 2 + k;
                    ports[port].start_minstrel(stream);
                }
                if d.wlan.as_ref().is_some_and(|w| w.shadowing_db > 0.0) {
                    // One draw per link, the same for both directions (one radio channel).
                    let z = RngStream::new(seed, &keys::link_shadowing(&link.key)).normal();
                    let port = ports.len() - 2 + k;
                    ports[port].shadow(z);
                }
            }
        }
        let ifqs = Self::shared_ifqs(cfg, &mut ports);
        let jitter = crate::jitter::Jitters::new(
            cfg.nodes
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    (n.jitter > engine::SimDuration::ZERO).then(|| {
                        crate::jitter::NodeJitter::new(
                            n.jitter,
                            RngStream::new(seed, &keys::node_jitter(i as u32)),
                        )
                    })
                })
                .collect(),
            2 * cfg.links.len(),
        );
        if let Some(j) = &jitter {
            // IP output looks for the jitter only past a port's flag (crate::port).
            for p in &mut ports {
                p.plain_offer &= !j.has(p.from.index());
            }
        }
        let mut queue = EventQueue::new();
        // A wire's arrivals are due in the order its frames were sent (crate::port): one lane
        // per port in the queue's second tier (engine's `Lanes`).
        queue.enable_lanes(ports.len(), Event::lane);
        // Wake-ups at the end of each hold, in port order then time order (deterministic).
        for p in &ports {
            for end in p.hiccups.hold_ends() {
                queue.schedule(end, Event::HoldEnd { port: p.id });
            }
        }
        Ok(Network {
            nodes: (cfg.nodes.iter().cloned().enumerate())
                .map(|(i, c)| Node::new(NodeId(i as u32), c))
                .collect(),
            proxied: false,
            routes: routes.into_iter().flatten().collect(),
            ports,
            media,
            flows: Vec::new(),
            queue,
            next_uid: 0,
            pool: PacketPool::default(),
            notices: Vec::new(),
            headers: Vec::new(),
            taps: Taps::default(),
            udp: Vec::new(),
            web: Vec::new(),
            emulated_out: Vec::new(),
            completion_due: false,
            completed_before: 0,
            completes: false,
            jitter,
            ifqs,
            oracle: None,
        })
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
        self.flows.push(Flow::new(
            (id, src, dst),
            (sender, receiver),
            (SimTime::ZERO, true),
            trace,
            None,
        ));
        id
    }

    /// `flow`'s sender is told its available rate before every ACK it receives: `capacity`
    /// bytes per second less the other flows' arrival rate over the last `window`
    /// (network/oracle.rs; the ideal-BWE oracle, eln-llelsn spec §4.13 (c)).
    pub fn ask_available_rate(&mut self, flow: FlowId, capacity: u64, window: SimDuration) {
        self.oracle
            .get_or_insert_with(Default::default)
            .ask(flow, capacity, window);
    }

    /// When `flow`'s application starts and (long-lived flows) stops writing, and whether it
    /// has a finite number of bytes; a flow added without this starts at time zero, finite.
    pub fn time_flow(&mut self, flow: FlowId, start: SimTime, stop: Option<SimTime>, finite: bool) {
        let f = &mut self.flows[flow.index()];
        f.start = start;
        f.stop = stop;
        f.finite = finite;
    }

    /// Open the goodput measurement window at `at` (each flow notes what it has delivered).
    pub fn open_window_at(&mut self, at: SimTime) {
        if at > SimTime::ZERO {
            self.queue.schedule(at, Event::WindowStart);
        }
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
    /// Node `id`'s configuration.
    pub fn node(&self, id: NodeId) -> &NodeConfig {
        &self.nodes[id.index()].cfg
    }
    /// The ports (link `i` from `a` to `b` is port `2i`, from `b` to `a` port `2i + 1`).
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }
    /// The flows.
    pub fn flows(&self) -> &[Flow] {
        &self.flows
    }
    /// Where every packet went so far: each packet the network created in exactly one bucket
    /// (crate::account).
    pub fn packet_account(&self) -> PacketAccount {
        let held: u64 = self
            .nodes
            .iter()
            .filter_map(|n| n.link_receiver.as_ref())
            .map(|r| r.holding())
            .sum();
        PacketAccount::new(
            self.next_uid,
            self.pool.fates(),
            self.pool.len() as u64 + held,
        )
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.queue.events_processed()
    }
    /// Whether the node sending on `port` is a base station.
    pub fn port_at_base_station(&self, port: &Port) -> bool {
        self.nodes[port.from.index()].cfg.kind == NodeKind::BaseStation
    }
    /// Ports of wireless hops.
    pub fn wireless_ports(&self) -> impl Iterator<Item = &Port> {
        self.ports.iter().filter(|p| p.role == HopRole::Wireless)
    }

    /// Run until every flow has delivered all its data, or until `limit`.
    /// A run with long-lived flows never completes: it ends at `limit`.
    pub fn run(&mut self, limit: SimTime) -> Outcome {
        self.run_reporting(limit, None)
    }

    /// [`Network::run`], writing the simulated time reached and the events processed into
    /// `progress` after each of [`PROGRESS_SLICES`] slices of simulated time up to `limit`. The
    /// slices only bound the queue's pops (nothing per event): the events, their order and the
    /// outcome are those of `run`.
    pub fn run_reporting(&mut self, limit: SimTime, progress: Option<&Progress>) -> Outcome {
        for f in 0..self.flows.len() {
            let (start, stop, id) = (self.flows[f].start, self.flows[f].stop, self.flows[f].id);
            // Flows that start at zero are pumped at once (no event: chain runs keep their
            // event counts), later ones when their start event pops.
            if start == SimTime::ZERO {
                self.pump_sender(f, SimTime::ZERO);
            } else {
                self.queue.schedule(start, Event::FlowStart { flow: id });
            }
            if let Some(t) = stop {
                self.queue.schedule(t, Event::FlowStop { flow: id });
            }
        }
        for u in 0..self.udp.len() {
            let at = self.udp[u].source.next_departure();
            if self.udp[u].stop.is_none_or(|stop| at < stop) {
                self.queue.schedule(
                    at,
                    Event::UdpSend {
                        flow: FlowId(u as u32),
                    },
                );
            }
        }
        self.start_web();
        // UDP sources and web sessions run to the limit too (they are long-lived).
        let all_finite =
            self.flows.iter().all(|f| f.finite) && self.udp.is_empty() && self.web.is_empty();
        self.completes = all_finite;
        self.completion_due = all_finite;
        let slice = progress.map_or(0, |p| {
            p.set_limit(limit);
            (limit.0 / PROGRESS_SLICES).max(1)
        });
        let mut until = if slice == 0 {
            limit
        } else {
            SimTime(slice.min(limit.0))
        };
        loop {
            match self.run_slice(until) {
                SliceEnd::Completed(end) => return self.ended(Outcome::Completed(end)),
                SliceEnd::Stalled => return self.ended(Outcome::Stalled(self.queue.now())),
                SliceEnd::Reached if until < limit => {
                    if let Some(p) = progress {
                        p.update(until, self.queue.events_processed());
                    }
                    until = SimTime(until.0.saturating_add(slice).min(limit.0));
                }
                SliceEnd::Reached => return self.ended(Outcome::TimeLimit(limit)),
            }
        }
    }

    /// The event loop up to `until`: why it stopped. Its own function, called once per
    /// progress slice, so that the loop holds only what it held before the slices (the limit):
    /// with the slices' state beside it, the inlined handlers spilled more registers
    /// (callgrind, the reference run: +3.1 M instructions).
    #[inline(never)]
    fn run_slice(&mut self, until: SimTime) -> SliceEnd {
        loop {
            if self.completion_due {
                self.completion_due = false;
                if let Some(end) = self.all_complete() {
                    return SliceEnd::Completed(end);
                }
            }
            let Some((now, ev)) = self.queue.pop_not_after(until) else {
                if self.queue.is_empty() {
                    return SliceEnd::Stalled;
                }
                return SliceEnd::Reached;
            };
            self.handle(now, ev);
        }
    }

    /// Move the completion mark past the flows that have completed; if every flow has, the
    /// time of the last delivery.
    #[cold]
    #[inline(never)]
    fn all_complete(&mut self) -> Option<SimTime> {
        let flows = &self.flows;
        let mut k = self.completed_before;
        while flows
            .get(k)
            .is_some_and(|f| f.receiver.complete_at().is_some())
        {
            k += 1;
        }
        self.completed_before = k;
        (k == flows.len()).then(|| {
            flows
                .iter()
                .filter_map(|f| f.receiver.complete_at())
                .max()
                .unwrap_or(SimTime::ZERO)
        })
    }
}

/// Why [`Network::run_slice`] stopped.
enum SliceEnd {
    /// Every flow delivered all its data (the last at this time).
    Completed(SimTime),
    /// Nothing waits.
    Stalled,
    /// The next event is after the slice's end.
    Reached,
}

impl Network {
    /// `outcome`, checked in debug builds: every packet created is in one bucket of the
    /// account (DESIGN.md rule 11), so every test run checks it.
    fn ended(&self, outcome: Outcome) -> Outcome {
        debug_assert!(
            self.packet_account().balances(),
            "unbalanced packet account: {:?}",
            self.packet_account()
        );
        outcome
    }
}
