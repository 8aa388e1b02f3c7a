//! Build a network from a scenario and a seed, run it, and compute the metrics.

use crate::capture::{Capture, CaptureFlow, CaptureNames};
use crate::error::Error;
use crate::flow_metrics::FlowResults;
use crate::metrics::Metrics;
use crate::run_endpoints::{endpoints, isns, wireless_leg};
use crate::scenario::Scenario;
use crate::schema::ErrorDoc;
use crate::schemes::AgentKind;
use crate::trace::{base_station_table, merge_flow_tables, sender_tables, Trace};
use engine::{RngStream, SimTime};
use net::agent::arq::LinkArq;
use net::agent::eln_bs::ElnMarker;
use net::agent::ll::{LinkLayer, Mode};
use net::agent::smart::SmartLinkLayer;
use net::agent::Agent;
use net::config::HopRole;
use net::link_receiver::LinkReceiver;
use net::split::SplitProxy;
use net::traffic::UdpSource;
use net::{keys, Network, Outcome};

/// What to record besides the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Record the sender's typed trace and the base-station agents' trace.
    pub trace: bool,
    /// Record every frame put on a link, for pcap files ([`Capture`]).
    pub pcap: bool,
    /// Compute the event-order fingerprint ([`RunResult::fingerprint`]).
    pub fingerprint: bool,
}

impl RunOptions {
    /// Traces on, no capture.
    pub fn traced() -> Self {
        RunOptions {
            trace: true,
            ..RunOptions::default()
        }
    }
}

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// The metrics.
    pub metrics: Metrics,
    /// Traces, if asked for.
    pub trace: Option<Trace>,
    /// The frames on every link, if asked for (`RunOptions::pcap`).
    pub capture: Option<Capture>,
    /// Per-flow and per-link results with aggregates, for `[[flows]]` documents (a chain
    /// document's flat metrics are its one flow's).
    pub flows: Option<FlowResults>,
    /// The event-order fingerprint, if asked for (`RunOptions::fingerprint`): a hash over the
    /// time, kind and target of every event in the order handled (net's network/fingerprint.rs).
    pub fingerprint: Option<u64>,
}

fn error_every(s: &Scenario) -> u64 {
    let Some(hop) = s
        .doc
        .hops
        .iter()
        .chain(&s.doc.links)
        .find(|h| h.role == crate::schema::RoleDoc::Wireless)
    else {
        return 0;
    };
    match hop.forward.error.as_ref().or(hop.error.as_ref()) {
        Some(ErrorDoc::Exponential { every: Some(e), .. }) => e.0,
        Some(ErrorDoc::Burst { every, .. }) => every.0,
        Some(ErrorDoc::Exponential { ber: Some(b), .. }) if *b > 0.0 => {
            (1.0 / (8.0 * b)).round() as u64
        }
        _ => 0,
    }
}

fn pct(num: u64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        100.0 * num as f64 / den as f64
    }
}

/// Run `scenario` with master seed `seed`.
pub fn run(scenario: &Scenario, seed: u64, opts: &RunOptions) -> Result<RunResult, Error> {
    run_reporting(scenario, seed, opts, None)
}

/// [`run`], writing how far it has come into `progress` (simulated time reached, events
/// processed) for a display on another thread; the run is the same.
pub fn run_reporting(
    scenario: &Scenario,
    seed: u64,
    opts: &RunOptions,
    progress: Option<&engine::Progress>,
) -> Result<RunResult, Error> {
    // The wall-time metric is the only clock read; it never influences the simulation.
    let wall = std::time::Instant::now();
    let b = scenario.build()?;
    let mut network =
        Network::new(&b.net.topology, seed).map_err(|e| Error::invalid("routes", e.to_string()))?;
    for f in &b.flows {
        if let Some(cfg) = f.udp {
            let rng = RngStream::new(seed, &keys::udp_source(&f.key));
            let source = UdpSource::new(cfg, f.start, rng);
            network.add_udp_flow(f.src, f.dst, source, f.stop);
            continue;
        }
        if let Some(cfg) = f.web {
            crate::run_web::add_web_session(&mut network, f, cfg, &b.net, seed);
            continue;
        }
        let (sender, receiver) = endpoints(f, &b.net, seed);
        let id = match &f.split {
            None => network.add_flow(f.src, f.dst, sender, receiver, opts.trace),
            Some(s) => {
                let (wl_sender, mobile) = wireless_leg(f, s, &b.net, seed);
                let id = network.add_flow(f.src, f.dst, sender, mobile, opts.trace);
                let wired = receiver.reading_on_demand();
                let proxy = SplitProxy::new(id, wired, wl_sender, u64::from(s.buffer), opts.trace);
                network.set_proxy(s.node, proxy);
                id
            }
        };
        network.time_flow(id, f.start, f.stop, f.bytes.is_some());
        if let crate::cc::CcKind::IdealBwe {
            rate_bps: Some(capacity),
            rtt: Some(window),
            live: true,
        } = f.tcp.cc
        {
            // The oracle's ground truth (net's network/oracle.rs): the capacity in bytes per
            // second less the other flows' rate over the last round trip.
            network.ask_available_rate(id, capacity / 8, window);
        }
    }
    network.open_window_at(SimTime::ZERO + b.warmup);
    if opts.trace {
        network.enable_agent_trace();
        network.enable_medium_logs();
        network.enable_receiver_trace();
    }
    if opts.pcap {
        network.enable_frame_tap();
    }
    if opts.fingerprint {
        network.enable_fingerprint();
    }
    let mut has_agent = false;
    for &(n, kind) in &b.agents {
        let cfg = b.ll;
        let agent: Box<dyn Agent> = match kind {
            AgentKind::None | AgentKind::Split => continue,
            AgentKind::Ll => Box::new(LinkLayer::new(Mode::Plain, cfg)),
            AgentKind::Snoop if b.snoop_ns2 => Box::new(net::agent::ns2_snoop::Ns2Snoop::new()),
            AgentKind::Snoop => Box::new(LinkLayer::new(Mode::Snoop, cfg)),
            AgentKind::Smart => Box::new(SmartLinkLayer::new(false, cfg)),
            AgentKind::SmartTcpAware => Box::new(SmartLinkLayer::new(true, cfg)),
            AgentKind::ElnBs => Box::new(ElnMarker::new()),
            AgentKind::Elsn => Box::new(net::agent::elsn::Elsn::new(b.elsn)),
            AgentKind::Arq => match &b.arq {
                Some((arq, _)) => Box::new(LinkArq::new(*arq)),
                None => continue,
            },
        };
        network.set_agent(n, agent);
        has_agent = true;
    }
    if let Some((arq, receivers)) = &b.arq {
        for &n in receivers {
            network.set_link_receiver(n, LinkReceiver::new(arq.in_order, arq.ack_bytes));
        }
    }
    let limit = SimTime::ZERO + b.duration.unwrap_or(b.time_limit);
    let run_end = match (network.run_reporting(limit, progress), b.duration) {
        (Outcome::Completed(t), _) => t,
        // A fixed-length run ends at its duration whatever the flows are doing.
        (Outcome::TimeLimit(_) | Outcome::Stalled(_), Some(d)) => SimTime::ZERO + d,
        (Outcome::TimeLimit(_) | Outcome::Stalled(_), None) => {
            let (i, f) = network
                .flows()
                .iter()
                .enumerate()
                .find(|(_, f)| f.receiver.complete_at().is_none())
                .unwrap_or((0, &network.flows()[0]));
            let plan = b.tcp_flows().nth(i);
            let total = plan.and_then(|p| p.bytes).unwrap_or(0);
            let which = match plan {
                Some(p) if !b.single => format!("flow '{}'", p.name),
                _ => "transfer".to_string(),
            };
            return Err(Error::Simulation {
                message: format!(
                    "seed {seed}: {which} not complete within run.time_limit ({}): {} of {} bytes delivered",
                    crate::units::format_duration(b.time_limit.as_nanos()),
                    f.receiver.delivered(),
                    total
                ),
            });
        }
    };
    // The flat metrics are the first bulk TCP flow's, or else the first connection that carried
    // objects of the first web session.
    let first_web = || {
        let (plan, w) = b
            .flows
            .iter()
            .filter(|f| f.web.is_some())
            .zip(network.web_flows())
            .next()?;
        let conn = w
            .connections
            .iter()
            .find(|c| network.flows()[c.index()].src == w.server)?;
        Some((plan, &network.flows()[conn.index()]))
    };
    let Some((plan, flow)) = b
        .tcp_flows()
        .next()
        .zip(network.flows().first())
        .or_else(first_web)
    else {
        return Err(Error::invalid(
            "flows",
            "a scenario needs at least one TCP flow (bulk, or a web session that opened a connection)",
        ));
    };
    let s = flow.sender.stats();
    let agents = network.agent_stats();
    let proxy = network.proxies().next().map(|(_, p)| p);
    let link_rx = network.link_receiver_stats();
    // A long-lived flow's "transfer" is what it delivered. The rates count what was delivered:
    // a finite flow the run ended before it completed delivered less than its transfer.
    let bytes = plan.bytes.unwrap_or_else(|| flow.receiver.delivered());
    let delivered = match flow.receiver.complete_at() {
        Some(_) => bytes,
        None => flow.receiver.delivered().min(bytes),
    };
    let end = flow.receiver.complete_at().unwrap_or(run_end);
    let first = s.first_send.unwrap_or(SimTime::ZERO);
    let duration = end.saturating_since(first).as_secs_f64();
    // Ports carrying the flow's data, in path order.
    let path = b.net.path(plan.src, plan.dst);
    let first_of = |role: HopRole| {
        path.iter()
            .map(|p| &network.ports()[p.index()])
            .find(|p| p.role == role)
    };
    let wired = first_of(HopRole::Wired).map_or(0, |p| p.stats.data_payload_bytes);
    let wireless_port = first_of(HopRole::Wireless);
    let wireless = wireless_port.map_or(0, |p| p.stats.data_payload_bytes);
    let ports = network.ports();
    let wl_frames: u64 = network.wireless_ports().map(|p| p.stats.data_frames).sum();
    let wl_corrupt: u64 = network
        .wireless_ports()
        .map(|p| p.stats.corrupted_data)
        .sum();
    let metrics = Metrics {
        scheme: plan.scheme_name.clone(),
        preset: scenario.doc.name.clone(),
        seed,
        error_every_bytes: error_every(scenario),
        buffer_bytes: u64::from(plan.tcp.buffer),
        transfer_bytes: bytes,
        throughput_mbps: if duration > 0.0 {
            delivered as f64 * 8.0 / duration / 1e6
        } else {
            0.0
        },
        wired_goodput_pct: pct(delivered, wired),
        wireless_goodput_pct: pct(delivered, wireless),
        completion_s: end.as_secs_f64(),
        sender_timeouts: s.timeouts,
        sender_fast_retransmits: s.fast_retransmits,
        sender_retransmitted_bytes: s.retransmitted_bytes,
        local_retransmissions: agents.local_retransmissions,
        bs_queue_drops: ports
            .iter()
            .filter(|p| network.port_at_base_station(p))
            .map(|p| p.stats.queue_drops)
            .sum(),
        corrupted_data_frames: ports.iter().map(|p| p.stats.corrupted_data).sum(),
        corrupted_ack_frames: ports.iter().map(|p| p.stats.corrupted_acks).sum(),
        events: network.events_processed(),
        wall_s: wall.elapsed().as_secs_f64(),
        profile: format!("{:?}", scenario.doc.tcp.profile).to_lowercase(),
        wireless_data_frames: wl_frames,
        wireless_data_per_pct: pct(wl_corrupt, wl_frames),
        sender_segments: s.segments_sent,
        sender_dupacks: s.dupacks_received,
        receiver_acks: flow.receiver.stats().acks_sent,
        queue_drops: ports.iter().map(|p| p.stats.queue_drops).sum(),
        first_send_s: first.as_secs_f64(),
        sender_retransmitted_segments: s.retransmitted_segments,
        sender_local_drops: s.local_drops,
        hiccup_intercepted: ports.iter().map(|p| p.stats.intercepted).sum(),
        hiccup_expired: ports.iter().map(|p| p.stats.hiccup_expired).sum(),
        sender_spurious_timeouts: s.spurious_timeouts,
        sender_spurious_fast_retransmits: s.spurious_fast_retransmits,
        sender_timeouts_after_arrival: flow.timeouts_after_arrival,
        receiver_duplicate_segments: flow.receiver.stats().duplicate_segments,
        receiver_eln_acks: flow.receiver.stats().eln_acks_sent,
        bs_dupacks_suppressed: agents.dupacks_suppressed,
        bs_dupacks_forwarded_uncached: agents.dupacks_forwarded_uncached,
        bs_dupack_retransmissions: agents.dupack_retransmissions,
        bs_timer_retransmissions: agents.timer_retransmissions,
        bs_partial_ack_retransmissions: agents.partial_ack_retransmissions,
        bs_eln_marks: agents.eln_marked,
        source_stalled_s: s.peer_window_stalled_ns as f64 * 1e-9,
        source_longest_stall_s: s.longest_peer_window_stall_ns as f64 * 1e-9,
        wired_bytes_sent: proxy.map_or(0, |_| s.bytes_sent),
        wired_retransmissions: proxy.map_or(0, |_| s.retransmitted_segments),
        wired_timeouts: proxy.map_or(0, |_| s.timeouts),
        wireless_bytes_sent: proxy.map_or(0, |p| p.wireless().stats().bytes_sent),
        wireless_retransmissions: proxy.map_or(0, |p| p.wireless().stats().retransmitted_segments),
        wireless_timeouts: proxy.map_or(0, |p| p.wireless().stats().timeouts),
        wireless_fast_retransmits: proxy.map_or(0, |p| p.wireless().stats().fast_retransmits),
        relay_max_bytes: proxy.map_or(0, |p| p.max_occupancy()),
        link_ack_frames: ports.iter().map(|p| p.stats.link_ack_frames).sum(),
        corrupted_link_ack_frames: ports.iter().map(|p| p.stats.corrupted_link_acks).sum(),
        link_frames_given_up: agents.link_frames_given_up,
        link_frames_held: link_rx.held,
        link_duplicate_frames: link_rx.duplicates,
        sender_suppressed_fast_retransmits: s.suppressed_fast_retransmits,
        sender_tlp_probes: s.tlp_probes,
        elsn_elns_sent: agents.elns_sent,
        elsn_ersns_sent: agents.ersns_sent,
        sender_elns: s.elns_received,
        sender_elns_filtered: s.elns_filtered,
        sender_ersn_restarts: s.ersn_timer_restarts,
        gsm: crate::run_gsm::gsm_metrics(
            &network,
            &plan.tcp,
            flow.receiver.stats().duplicate_segments,
        ),
        ecn: plan
            .tcp
            .ecn
            .then(|| crate::metrics::EcnMetrics::of(s, flow.receiver.stats())),
    };
    let trace = opts.trace.then(|| {
        // Each flow's receiver: segments accepted and ACKs sent, in its data sequence space.
        let received = |id: engine::FlowId, p: &crate::build::FlowPlan| {
            let (space, _) = isns(seed, &keys::flow_isn(&p.key));
            let records = network.receiver_trace().unwrap_or_default();
            crate::trace::receiver_table(records, id, space)
        };
        let mut tables = if b.single {
            let mut t = flow
                .sender_trace()
                .map(|t| sender_tables(&t.records, ""))
                .unwrap_or_default();
            t.extend(b.tcp_flows().next().map(|p| received(flow.id, p)));
            t
        } else {
            // Every TCP flow's sender and receiver, one table each kind with a `flow` column.
            let mut all = Vec::new();
            for (f, p) in network.flows().iter().zip(b.tcp_flows()) {
                if let Some(t) = f.sender_trace() {
                    merge_flow_tables(&mut all, &p.name, sender_tables(&t.records, ""));
                }
                merge_flow_tables(&mut all, &p.name, vec![received(f.id, p)]);
            }
            all
        };
        // The wireless leg of a split connection: `sender_wireless` / `events_wireless`.
        if let Some(t) = proxy.and_then(|p| p.wireless_trace()) {
            tables.extend(sender_tables(&t.records, "_wireless"));
        }
        if has_agent {
            // The flow's data sequence space: the same named stream `endpoints` drew it from.
            let (space, _) = isns(seed, &keys::flow_isn(&plan.key));
            tables.push(base_station_table(
                network.agent_trace().unwrap_or_default(),
                space,
            ));
        }
        if let Some(t) = crate::trace::rlp_table(&network) {
            tables.push(t);
        }
        Trace { tables }
    });
    let capture = opts
        .pcap
        .then(|| Capture::from_network(&network, capture_names(&b)))
        .flatten();
    let per_flow = (!b.single).then(|| FlowResults::new(&network, &b, run_end));
    Ok(RunResult {
        metrics,
        trace,
        capture,
        flows: per_flow,
        fingerprint: network.fingerprint(),
    })
}

/// The names a capture's index gives the hops, nodes and flows of `b`.
fn capture_names(b: &crate::build::Built) -> CaptureNames {
    let (mut tcp, mut udp) = (0u32, 0usize);
    let flows = b
        .flows
        .iter()
        .filter(|f| f.web.is_none())
        .map(|f| {
            let (id, u) = if f.udp.is_some() {
                udp += 1;
                (0, Some(udp - 1))
            } else {
                tcp += 1;
                (tcp - 1, None)
            };
            CaptureFlow {
                name: f.name.clone(),
                src: f.src,
                dst: f.dst,
                id,
                udp: u,
            }
        })
        .collect();
    CaptureNames {
        hops: b
            .net
            .topology
            .links
            .iter()
            .map(|l| l.hop.name.clone())
            .collect(),
        nodes: b
            .net
            .topology
            .nodes
            .iter()
            .map(|n| n.name.clone())
            .collect(),
        flows,
    }
}
