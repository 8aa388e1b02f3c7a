//! Compile a [`ScenarioDoc`] into validated network and TCP settings. All semantic checks live
//! here, so a scenario that loads is a scenario that runs.

mod flows;
mod gsm;
mod links;
mod queue;
mod topology;
mod trace_file;
mod transport;
mod web;
mod wifi;

use flows::{flow_plan, flow_specs, spec_field};

use topology::network;
pub(crate) use topology::Net;
use transport::tcp_settings;
pub(crate) use transport::{AutotuneSettings, DelackSettings, TcpSettings, TimerSettings};

use crate::error::Error;
use crate::schema::*;
use crate::schemes::{self, AgentKind, Resolved};
use engine::{NodeId, SimDuration, SimTime};
use net::agent::arq::{ArqConfig, Persistence};
use net::agent::LinkTimerConfig;
use net::config::HopRole;
use net::traffic::UdpSourceConfig;

/// Everything a run needs besides the seed.
pub(crate) struct Built {
    /// The network and its routes.
    pub net: Net,
    /// The flows, in document order (`FlowId(i)` is `flows[i]`).
    pub flows: Vec<FlowPlan>,
    /// A chain document's single `[flow]`: results keep only the flat single-flow keys.
    pub single: bool,
    pub time_limit: SimDuration,
    /// `run.duration`: the run ends then (long-lived flows).
    pub duration: Option<SimDuration>,
    /// `run.warmup`: start of the goodput window.
    pub warmup: SimDuration,
    /// The base-station agents: where each runs and which kind, with the agents' knobs.
    pub agents: Vec<(NodeId, AgentKind)>,
    pub ll: LinkTimerConfig,
    /// `ll.snoop_style = "ns2"`: the snoop schemes run ns-2's snoop.
    pub snoop_ns2: bool,
    /// LL-ELSN's knobs (`ll.elsn`).
    pub elsn: net::agent::elsn::ElsnConfig,
    /// The link ARQ's knobs and the nodes across the wireless links of its base stations (where
    /// link receivers run), for `ll-arq`.
    pub arq: Option<(ArqConfig, Vec<NodeId>)>,
}

impl Built {
    /// The bulk TCP flows, in document order (their network ids are 0, 1, ...; web sessions'
    /// connections come after them, opened as the run goes).
    pub fn tcp_flows(&self) -> impl Iterator<Item = &FlowPlan> {
        self.flows
            .iter()
            .filter(|f| f.udp.is_none() && f.web.is_none())
    }
}

/// One flow, ready to build endpoints for.
pub(crate) struct FlowPlan {
    /// Stem of its random-stream keys: `flow0` for a chain document's flow, `flow:<name>` else.
    pub key: String,
    /// Name in results.
    pub name: String,
    pub src: NodeId,
    pub dst: NodeId,
    /// Bytes to transfer; `None` for a long-lived flow.
    pub bytes: Option<u64>,
    pub start: SimTime,
    pub stop: Option<SimTime>,
    pub tcp: TcpSettings,
    pub scheme: Resolved,
    /// The scheme as written (with modifiers).
    pub scheme_name: String,
    /// The split-connection proxy, when the scheme is a split scheme.
    pub split: Option<SplitSettings>,
    /// A UDP background source instead of a TCP connection (its `tcp` and `scheme` unused).
    pub udp: Option<UdpSourceConfig>,
    /// A web session instead of a bulk transfer (`src` the server, `dst` the client).
    pub web: Option<net::web::WebConfig>,
    /// Index of its `[[flows]]` entry (error messages name it; a template has several flows).
    pub entry: usize,
    /// The DS codepoint its packets carry (`flows[i].ds`).
    pub ds: Option<u8>,
}

/// A split-connection proxy: where it runs, its relay buffer and its wireless leg.
pub(crate) struct SplitSettings {
    /// The base station on the path that runs it.
    pub node: NodeId,
    /// Relay buffer, bytes.
    pub buffer: u32,
    /// The scheme whose parts run on the wireless leg.
    pub wireless: Resolved,
    /// TCP settings of the wireless leg (the scenario's, with the wireless scheme's modifiers).
    pub wireless_tcp: TcpSettings,
}

pub(crate) fn build(doc: &ScenarioDoc) -> Result<Built, Error> {
    let mut net = network(doc)?;
    let run = run_settings(doc)?;
    let single = doc.flow.is_some();
    let specs = flow_specs(doc)?;
    let mut flows = Vec::with_capacity(specs.len());
    for spec in &specs {
        flows.push(flow_plan(doc, &net, spec, &run)?);
    }
    gsm::mark_flows(&mut net.topology.links, &flows)?;
    if !flows.iter().any(|f| f.udp.is_none()) {
        return Err(Error::invalid(
            "flows",
            "every flow is a UDP source; a scenario needs at least one TCP flow",
        ));
    }
    let mut agents: Vec<(NodeId, AgentKind)> = Vec::new();
    let mut owner: Vec<(NodeId, usize)> = Vec::new();
    for (i, f) in flows.iter().enumerate() {
        if f.udp.is_some() {
            continue;
        }
        let kind = f.scheme.def.agent;
        if matches!(kind, AgentKind::None | AgentKind::Split) {
            continue;
        }
        let field = spec_field(single, f.entry, "scheme");
        let mut on_path: Vec<NodeId> = net
            .transit(f.src, f.dst)
            .into_iter()
            .filter(|&n| net.is_base_station(n))
            .collect();
        // LL-ELSN runs in the MAC that sends the data: on a sending station too (the uplink,
        // eln-llelsn spec §4.1 (c)). So does snoop, "by symmetric operation" (spec §4.4 (a)):
        // at a sending station it caches the station's own segments and answers the duplicate
        // ACKs that come back over the air.
        if matches!(kind, AgentKind::Elsn | AgentKind::Snoop)
            && sends_over_wireless(&net, f.src, f.dst)
        {
            on_path.insert(0, f.src);
        }
        if on_path.is_empty() {
            return Err(Error::invalid(field, no_base_station(doc, &f.scheme_name)));
        }
        // LL-ELSN's notices come from the 802.11 MAC's retries (eln-llelsn spec §4.1).
        if kind == AgentKind::Elsn && !net.path(f.src, f.dst).into_iter().any(|p| net.is_dcf(p)) {
            return Err(Error::invalid(
                field,
                format!(
                    "'{}' needs an 802.11 DCF on the flow's path (a cell with dcf = {{...}} or a medium = \"dcf\" hop); its MAC's retries are the notices",
                    f.scheme_name
                ),
            ));
        }
        for n in on_path {
            match agents.iter().position(|&(m, _)| m == n) {
                None => {
                    agents.push((n, kind));
                    owner.push((n, i));
                }
                Some(k) if agents[k].1 == kind => {}
                Some(k) => {
                    let other = flows[owner[k].1].entry;
                    return Err(Error::invalid(
                        field,
                        format!(
                            "'{}' needs a different base-station agent at '{}' than flows[{other}] ('{}'); one agent kind per base station",
                            f.scheme_name,
                            doc.nodes[n.index()].name,
                            flows[other].scheme_name
                        ),
                    ));
                }
            }
        }
    }
    // A late-dupack rule or a burst pacer needs Eifel on some sender (a proxy's leg counts).
    for f in flows.iter().filter(|f| f.udp.is_none()) {
        let eifel_somewhere = f.tcp.eifel.is_some()
            || f.split
                .as_ref()
                .is_some_and(|s| s.wireless_tcp.eifel.is_some());
        eifel_rules(doc, eifel_somewhere)?;
    }
    tcp_eln_rules(&net, &flows, single, doc)?;
    let arq = if agents.iter().any(|&(_, k)| k == AgentKind::Arq) {
        Some((arq_settings(&doc.ll.arq)?, link_receivers(&net, &agents)))
    } else {
        None
    };
    let ll = if agents.is_empty() {
        LinkTimerConfig::default()
    } else {
        ll_settings(&doc.ll)?
    };
    Ok(Built {
        net,
        flows,
        single,
        time_limit: run.time_limit,
        duration: run.duration,
        warmup: run.warmup,
        agents,
        ll,
        snoop_ns2: doc.ll.snoop_style == Some(SnoopStyleDoc::Ns2),
        elsn: elsn_settings(&doc.ll.elsn),
        arq,
    })
}

/// Whether the first hop from `src` towards `dst` is a wireless one.
fn sends_over_wireless(net: &Net, src: NodeId, dst: NodeId) -> bool {
    net.path(src, dst)
        .first()
        .is_some_and(|&p| net.direction(p).0.role == net::config::HopRole::Wireless)
}

/// LL-ELSN's knobs (`ll.elsn`); every value the schema admits is valid.
fn elsn_settings(d: &crate::schema::ElsnDoc) -> net::agent::elsn::ElsnConfig {
    net::agent::elsn::ElsnConfig {
        ersn: d.ersn.unwrap_or(true),
        path: match d.path {
            None | Some(crate::schema::ElsnPathDoc::Control) => {
                net::agent::NoticePath::ControlPacket
            }
            Some(crate::schema::ElsnPathDoc::Oracle) => net::agent::NoticePath::Oracle,
        },
    }
}

/// The validated `[run]` section.
struct RunSettings {
    time_limit: SimDuration,
    duration: Option<SimDuration>,
    warmup: SimDuration,
}

fn run_settings(doc: &ScenarioDoc) -> Result<RunSettings, Error> {
    if doc.run.time_limit.0 == 0 {
        return Err(Error::invalid(
            "run.time_limit",
            "must be greater than zero",
        ));
    }
    let duration = doc.run.duration.map(|d| SimDuration(d.0));
    if let Some(d) = duration {
        if d.as_nanos() == 0 {
            return Err(Error::invalid("run.duration", "must be greater than zero"));
        }
        if d.as_nanos() > doc.run.time_limit.0 {
            return Err(Error::invalid(
                "run.duration",
                "must not exceed run.time_limit (raise the limit too)",
            ));
        }
    }
    let warmup = SimDuration(doc.run.warmup.map_or(0, |w| w.0));
    if let Some(d) = duration {
        if warmup >= d {
            return Err(Error::invalid("run.warmup", "must end before run.duration"));
        }
    }
    Ok(RunSettings {
        time_limit: SimDuration(doc.run.time_limit.0),
        duration,
        warmup,
    })
}

fn no_base_station(doc: &ScenarioDoc, scheme: &str) -> String {
    if doc.nodes.iter().any(|n| n.kind == NodeKindDoc::BaseStation) {
        format!("'{scheme}' runs an agent at the base station, but no base station lies on the flow's path")
    } else {
        format!(
            "'{scheme}' runs an agent at the base station, but no node has kind = \"base-station\""
        )
    }
}

fn eifel_rules(doc: &ScenarioDoc, eifel_somewhere: bool) -> Result<(), Error> {
    if matches!(
        doc.tcp.eifel_late_dupack,
        Some(LateDupackDoc::Halve | LateDupackDoc::Restore)
    ) && !eifel_somewhere
    {
        return Err(Error::invalid(
            "tcp.eifel_late_dupack",
            "is an Eifel rule, but Eifel is off; turn it on (tcp.eifel = \"dissertation\" or \"rfc4015\", or the +eifel modifier) or use \"off\"",
        ));
    }
    if doc.tcp.eifel_burst_pacer == Some(BurstPacerDoc::Srtt) && !eifel_somewhere {
        return Err(Error::invalid(
            "tcp.eifel_burst_pacer",
            "paces the burst after an Eifel restore, but Eifel is off; turn it on (tcp.eifel = \"dissertation\" or \"rfc4015\", or the +eifel modifier) or use \"off\"",
        ));
    }
    Ok(())
}

fn split_settings(
    doc: &ScenarioDoc,
    net: &Net,
    tcp_doc: &TcpDoc,
    scheme: Resolved,
    (src, dst): (NodeId, NodeId),
    scheme_name: &str,
) -> Result<SplitSettings, Error> {
    // The base station nearest to the receiver: the one in front of its wireless hop.
    let Some(node) = net
        .transit(src, dst)
        .into_iter()
        .rev()
        .find(|&n| net.is_base_station(n))
    else {
        return Err(Error::invalid(
            "scheme",
            format!(
                "'{scheme_name}' splits the connection at a base station, but none lies between flow.from and flow.to",
            ),
        ));
    };
    let buffer = doc.split.buffer.map_or(65536, |b| b.0);
    let mss = u64::from(tcp_doc.mss);
    if buffer < 2 * mss || buffer > 1 << 30 {
        return Err(Error::invalid(
            "split.buffer",
            format!("{buffer} bytes is outside 2 * tcp.mss ..= 1GiB"),
        ));
    }
    let wireless = match doc.split.wireless_scheme.as_deref() {
        None => scheme,
        Some(name) => {
            let r = schemes::lookup(name)
                .map_err(|e| Error::invalid("split.wireless_scheme", e.to_string()))?;
            if r.def.agent != AgentKind::None {
                return Err(Error::invalid(
                    "split.wireless_scheme",
                    format!(
                        "'{name}' is a {} scheme; the wireless leg runs an end-to-end scheme (e2e, e2e-newreno, e2e-smart, e2e-ietf-sack, ...)",
                        r.def.info.family
                    ),
                ));
            }
            // Modifiers on the split scheme's name apply to both legs; a second profile or
            // controller is refused as in a name.
            let mods = r
                .mods
                .merge(scheme.mods)
                .map_err(|message| Error::invalid("scheme", message))?;
            Resolved { def: r.def, mods }
        }
    };
    let mut wireless_tcp = tcp_settings(tcp_doc, wireless.mods)?;
    // The wireless leg has no path of the flow's to measure.
    wireless_tcp.cc.fit_path(|| None)?;
    transport::fit_profile(&mut wireless_tcp, wireless.def, tcp_doc, wireless.mods);
    transport::check_parts(&wireless_tcp, wireless.def, "split.wireless_scheme")?;
    Ok(SplitSettings {
        node,
        buffer: buffer as u32,
        wireless,
        wireless_tcp,
    })
}

fn ll_settings(d: &LlDoc) -> Result<LinkTimerConfig, Error> {
    let def = LinkTimerConfig::default();
    let dupthresh = d.dupthresh.unwrap_or(def.dupthresh);
    if dupthresh == 0 {
        return Err(Error::invalid("ll.dupthresh", "must be at least 1"));
    }
    let min_rto = d.min_rto.map_or(def.min_rto, |x| SimDuration(x.0));
    if min_rto.as_nanos() == 0 {
        return Err(Error::invalid("ll.min_rto", "must be greater than zero"));
    }
    Ok(LinkTimerConfig {
        min_rto,
        tick: d.tick.map_or(def.tick, |x| SimDuration(x.0)),
        dupthresh,
    })
}

fn arq_settings(d: &ArqDoc) -> Result<ArqConfig, Error> {
    let def = ArqConfig::default();
    let persistence = match &d.max_retransmissions {
        None => def.persistence,
        Some(PersistenceDoc::Limit(n)) => Persistence::Limit(*n),
        Some(PersistenceDoc::Word(w)) if w == "persistent" => Persistence::Persistent,
        Some(PersistenceDoc::Word(w)) => {
            return Err(Error::invalid(
                "ll.arq.max_retransmissions",
                format!(
                    "'{w}' is neither a number of retransmissions (0, 1, ...) nor \"persistent\""
                ),
            ))
        }
    };
    let ack_bytes = d.ack_size.unwrap_or(def.ack_bytes);
    if ack_bytes == 0 {
        return Err(Error::invalid("ll.arq.ack_size", "must be at least 1 byte"));
    }
    let min_rto = d.min_rto.map_or(def.min_rto, |x| SimDuration(x.0));
    if min_rto.as_nanos() == 0 {
        return Err(Error::invalid(
            "ll.arq.min_rto",
            "must be greater than zero",
        ));
    }
    Ok(ArqConfig {
        persistence,
        min_rto,
        in_order: d.in_order.unwrap_or(def.in_order),
        ack_bytes,
    })
}

/// The nodes across the wireless links of the base stations that run the link ARQ.
fn link_receivers(net: &Net, agents: &[(NodeId, AgentKind)]) -> Vec<NodeId> {
    let arq = |n: NodeId| agents.iter().any(|&(m, k)| m == n && k == AgentKind::Arq);
    let mut out = Vec::new();
    for l in &net.topology.links {
        if l.hop.role != HopRole::Wireless {
            continue;
        }
        if arq(l.a) && !out.contains(&l.b) {
            out.push(l.b);
        }
        if arq(l.b) && !out.contains(&l.a) {
            out.push(l.a);
        }
    }
    out
}

/// TCP-ELN's applicability (eln-llelsn spec §3.5) as errors: its receiver counts only what the
/// last hop towards it corrupts, so a path whose errors all lie elsewhere gets nothing from it;
/// and `single-conn` attribution needs the receiving host to have no other connection.
fn tcp_eln_rules(
    net: &Net,
    flows: &[FlowPlan],
    single: bool,
    doc: &ScenarioDoc,
) -> Result<(), Error> {
    use crate::schemes::RecoveryKind;
    use net::ErrorModelConfig;
    for f in flows
        .iter()
        .filter(|f| f.udp.is_none() && matches!(f.scheme.def.recovery, RecoveryKind::TcpEln { .. }))
    {
        let field = spec_field(single, f.entry, "scheme");
        let host = &doc.nodes[f.dst.index()].name;
        let path = net.path(f.src, f.dst);
        let lossy = |p: &engine::PortId| net.direction(*p).1.error != ErrorModelConfig::None;
        if let Some((last, inner)) = path.split_last() {
            if !lossy(last) && inner.iter().any(lossy) {
                return Err(Error::invalid(
                    field,
                    format!(
                        "tcp-eln's receiver sees only corruption on the last hop towards '{host}', which has no error model while other links of the path have one; put the errors on that hop or choose another scheme"
                    ),
                ));
            }
        }
        let others = flows
            .iter()
            .filter(|g| g.udp.is_none() && g.dst == f.dst)
            .count();
        if f.tcp.eln_single_conn && (others > 1 || f.web.is_some()) {
            return Err(Error::invalid(
                spec_field(single, f.entry, "tcp"),
                format!(
                    "eln.ident = \"single-conn\" needs '{host}' to have one connection, and it has more (use ident = \"oracle\")"
                ),
            ));
        }
    }
    Ok(())
}
