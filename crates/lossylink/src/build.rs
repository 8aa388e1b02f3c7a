//! Compile a [`ScenarioDoc`] into validated network and TCP settings. All semantic checks live
//! here, so a scenario that loads is a scenario that runs.

mod transport;

use transport::tcp_settings;
pub(crate) use transport::{DelackSettings, TcpSettings, TimerSettings};

use crate::error::Error;
use crate::schema::*;
use crate::schemes::{self, AgentKind, Resolved};
use engine::{NodeId, SimDuration, SimTime};
use net::agent::arq::{ArqConfig, Persistence};
use net::agent::LinkTimerConfig;
use net::config::{
    ChainConfig, Contention, DirectionConfig, Exposure, Hiccup, HopConfig, HopRole, Medium,
    NodeConfig, NodeKind,
};
use net::{ErrorModelConfig, HiccupStage};

/// Everything a run needs besides the seed.
pub(crate) struct Built {
    pub chain: ChainConfig,
    pub src: NodeId,
    pub dst: NodeId,
    pub bytes: u64,
    pub tcp: TcpSettings,
    pub scheme: Resolved,
    pub time_limit: SimDuration,
    /// Base-station nodes and the agent knobs, when the scheme runs an agent.
    pub agent: Option<(Vec<NodeId>, LinkTimerConfig)>,
    /// The split-connection proxy, when the scheme is a split scheme.
    pub split: Option<SplitSettings>,
    /// The link ARQ's knobs and the nodes across the wireless hops of the base stations (where
    /// link receivers run), for `ll-arq`.
    pub arq: Option<(ArqConfig, Vec<NodeId>)>,
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
    let scheme = schemes::lookup(&doc.scheme)?;
    if doc.nodes.len() < 2 {
        return Err(Error::invalid(
            "nodes",
            "a scenario needs at least two nodes",
        ));
    }
    if doc.hops.len() + 1 != doc.nodes.len() {
        return Err(Error::invalid(
            "hops",
            format!(
                "a chain of {} nodes needs {} hops, found {}",
                doc.nodes.len(),
                doc.nodes.len() - 1,
                doc.hops.len()
            ),
        ));
    }
    let mut nodes = Vec::with_capacity(doc.nodes.len());
    for (i, n) in doc.nodes.iter().enumerate() {
        if n.name.is_empty() {
            return Err(Error::invalid(
                format!("nodes[{i}].name"),
                "must not be empty",
            ));
        }
        if doc.nodes[..i].iter().any(|m| m.name == n.name) {
            return Err(Error::invalid(
                format!("nodes[{i}].name"),
                format!("'{}' is used twice; node names must be unique", n.name),
            ));
        }
        let kind = match n.kind {
            NodeKindDoc::Host => NodeKind::Host,
            NodeKindDoc::Router => NodeKind::Router,
            NodeKindDoc::BaseStation => NodeKind::BaseStation,
        };
        nodes.push(NodeConfig {
            name: n.name.clone(),
            kind,
        });
    }
    let host = |field: &str, name: &str| -> Result<NodeId, Error> {
        let names = doc
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKindDoc::Host)
            .map(|n| n.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        doc.nodes
            .iter()
            .position(|n| n.name == name && n.kind == NodeKindDoc::Host)
            .map(|i| NodeId(i as u32))
            .ok_or_else(|| {
                Error::invalid(
                    field,
                    format!("'{name}' is not a host of this scenario (hosts: {names})"),
                )
            })
    };
    let src = host("flow.from", &doc.flow.from)?;
    let dst = host("flow.to", &doc.flow.to)?;
    if src == dst {
        return Err(Error::invalid("flow.to", "must differ from flow.from"));
    }
    if doc.flow.bytes.0 == 0 {
        return Err(Error::invalid("flow.bytes", "must be at least 1 byte"));
    }
    let hops = doc
        .hops
        .iter()
        .enumerate()
        .map(|(i, h)| hop(i, h))
        .collect::<Result<Vec<_>, _>>()?;
    let tcp = tcp_settings(&doc.tcp, scheme.mods)?;
    if doc.run.time_limit.0 == 0 {
        return Err(Error::invalid(
            "run.time_limit",
            "must be greater than zero",
        ));
    }
    let agent = match scheme.def.agent {
        AgentKind::None | AgentKind::Split => None,
        _ => Some((base_stations(doc)?, ll_settings(&doc.ll)?)),
    };
    let split = match scheme.def.agent {
        AgentKind::Split => Some(split_settings(doc, scheme, src, dst)?),
        _ => None,
    };
    // A late-dupack rule needs Eifel on some sender (the split proxy's leg counts).
    let eifel_somewhere = tcp.eifel.is_some()
        || split
            .as_ref()
            .is_some_and(|s| s.wireless_tcp.eifel.is_some());
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
    let arq = match scheme.def.agent {
        AgentKind::Arq => Some((arq_settings(&doc.ll.arq)?, link_receivers(doc))),
        _ => None,
    };
    Ok(Built {
        agent,
        split,
        arq,
        chain: ChainConfig { nodes, hops },
        src,
        dst,
        bytes: doc.flow.bytes.0,
        tcp,
        scheme,
        time_limit: SimDuration(doc.run.time_limit.0),
    })
}

fn base_stations(doc: &ScenarioDoc) -> Result<Vec<NodeId>, Error> {
    let bs: Vec<NodeId> = (0..doc.nodes.len())
        .filter(|&i| doc.nodes[i].kind == NodeKindDoc::BaseStation)
        .map(|i| NodeId(i as u32))
        .collect();
    if bs.is_empty() {
        return Err(Error::invalid(
            "scheme",
            format!(
                "'{}' runs an agent at the base station, but no node has kind = \"base-station\"",
                doc.scheme
            ),
        ));
    }
    Ok(bs)
}

fn split_settings(
    doc: &ScenarioDoc,
    scheme: Resolved,
    src: NodeId,
    dst: NodeId,
) -> Result<SplitSettings, Error> {
    let (lo, hi) = (src.0.min(dst.0), src.0.max(dst.0));
    // The base station nearest to the receiver: the one in front of its wireless hop.
    let mut on_path: Vec<NodeId> = base_stations(doc)?
        .into_iter()
        .filter(|n| lo < n.0 && n.0 < hi)
        .collect();
    if src > dst {
        on_path.reverse();
    }
    let Some(&node) = on_path.last() else {
        return Err(Error::invalid(
            "scheme",
            format!(
                "'{}' splits the connection at a base station, but none lies between flow.from and flow.to",
                doc.scheme
            ),
        ));
    };
    let buffer = doc.split.buffer.map_or(65536, |b| b.0);
    let mss = u64::from(doc.tcp.mss);
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
            let mut mods = r.mods;
            // Modifiers on the split scheme's name apply to both legs.
            mods.modern |= scheme.mods.modern;
            mods.eifel |= scheme.mods.eifel;
            mods.limited_transmit |= scheme.mods.limited_transmit;
            Resolved { def: r.def, mods }
        }
    };
    let wireless_tcp = tcp_settings(&doc.tcp, wireless.mods)?;
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

/// The nodes across the wireless hops of the base stations.
fn link_receivers(doc: &ScenarioDoc) -> Vec<NodeId> {
    let bs = |i: usize| doc.nodes[i].kind == NodeKindDoc::BaseStation;
    let mut out = Vec::new();
    for (i, h) in doc.hops.iter().enumerate() {
        if h.role != RoleDoc::Wireless {
            continue;
        }
        if bs(i) {
            out.push(NodeId(i as u32 + 1));
        }
        if bs(i + 1) {
            out.push(NodeId(i as u32));
        }
    }
    out
}

fn per_frame(p: &PerFrameDoc) -> SimDuration {
    match p {
        PerFrameDoc::Total(d) => SimDuration(d.0),
        PerFrameDoc::Parts(parts) => {
            SimDuration(parts.values().map(|d| d.0).fold(0u64, u64::saturating_add))
        }
    }
}

fn error_model(field: &str, e: &ErrorDoc) -> Result<ErrorModelConfig, Error> {
    Ok(match e {
        ErrorDoc::None => ErrorModelConfig::None,
        ErrorDoc::Exponential { every, ber } => match (every, ber) {
            (Some(_), Some(_)) => {
                return Err(Error::invalid(
                    field,
                    "give either `every` or `ber`, not both",
                ))
            }
            (None, None) => {
                return Err(Error::invalid(
                    field,
                    "the exponential model needs `every` (bytes between errors) or `ber`",
                ))
            }
            (Some(every), None) if every.0 == 0 => ErrorModelConfig::None,
            (Some(every), None) => ErrorModelConfig::Exponential {
                mean_gap_bits: every.0 as f64 * 8.0,
            },
            (None, Some(ber)) if *ber == 0.0 => ErrorModelConfig::None,
            (None, Some(ber)) if ber.is_finite() && *ber > 0.0 && *ber < 1.0 => {
                ErrorModelConfig::Exponential {
                    mean_gap_bits: 1.0 / ber,
                }
            }
            (None, Some(ber)) => {
                return Err(Error::invalid(
                    format!("{field}.ber"),
                    format!("{ber} is outside [0, 1)"),
                ))
            }
        },
        ErrorDoc::Bernoulli { p } if p.is_finite() && (0.0..=1.0).contains(p) => {
            if *p == 0.0 {
                ErrorModelConfig::None
            } else {
                ErrorModelConfig::Bernoulli { p: *p }
            }
        }
        ErrorDoc::Burst { length: 0, .. } => {
            return Err(Error::invalid(
                format!("{field}.length"),
                "a burst is at least 1 frame",
            ))
        }
        ErrorDoc::Burst { every, .. } if every.0 == 0 => ErrorModelConfig::None,
        ErrorDoc::Burst { every, length } => ErrorModelConfig::Burst {
            mean_gap_bits: every.0 as f64 * 8.0,
            length: *length,
        },
        ErrorDoc::Bernoulli { p } => {
            return Err(Error::invalid(
                format!("{field}.p"),
                format!("{p} is outside [0, 1]"),
            ))
        }
    })
}

fn direction(field: &str, h: &HopDoc, d: &DirectionDoc) -> Result<DirectionConfig, Error> {
    let rate = d.rate.or(h.rate).ok_or_else(|| {
        Error::invalid(
            format!("{field}.rate"),
            "missing: give `rate` on the hop or on this direction (e.g. \"2Mbps\")",
        )
    })?;
    if rate.0 == 0 {
        return Err(Error::invalid(
            format!("{field}.rate"),
            "must be greater than zero",
        ));
    }
    let queue = d.queue.or(h.queue).unwrap_or(50);
    if queue == 0 {
        return Err(Error::invalid(
            format!("{field}.queue"),
            "must be at least 1 packet",
        ));
    }
    let exposure = match d.exposure.or(h.exposure).unwrap_or(ExposureDoc::Frame) {
        ExposureDoc::Payload => Exposure::Payload,
        ExposureDoc::Ip => Exposure::Ip,
        ExposureDoc::Frame => Exposure::Frame,
    };
    let error = match d.error.as_ref().or(h.error.as_ref()) {
        Some(e) => error_model(&format!("{field}.error"), e)?,
        None => ErrorModelConfig::None,
    };
    Ok(DirectionConfig {
        rate_bps: rate.0,
        delay: SimDuration(d.delay.or(h.delay).map_or(0, |x| x.0)),
        queue_packets: queue,
        host_queue: d.host_queue.or(h.host_queue).unwrap_or(true),
        framing_bytes: d.framing.or(h.framing).unwrap_or(0),
        per_frame: d
            .per_frame
            .as_ref()
            .or(h.per_frame.as_ref())
            .map_or(SimDuration::ZERO, per_frame),
        exposure,
        error,
        hiccups: hiccups(field, &d.hiccups)?,
    })
}

/// Validate the hiccups of one direction (Ludwig2000 §10.1).
fn hiccups(field: &str, list: &[HiccupDoc]) -> Result<Vec<Hiccup>, Error> {
    list.iter()
        .enumerate()
        .map(|(k, h)| match *h {
            HiccupDoc::Hold {
                at,
                duration,
                stage,
                expire,
            } => {
                match (stage, expire) {
                    (StageDoc::Link, Some(_)) => {
                        return Err(Error::invalid(
                            format!("{field}.hiccups[{k}].expire"),
                            "only an IP-stage hold can expire packets: add stage = \"ip\"",
                        ))
                    }
                    (_, Some(x)) if x.0 == 0 => {
                        return Err(Error::invalid(
                            format!("{field}.hiccups[{k}].expire"),
                            "must be greater than zero (leave it out to keep every packet)",
                        ))
                    }
                    _ => {}
                }
                if duration.0 == 0 {
                    return Err(Error::invalid(
                        format!("{field}.hiccups[{k}].duration"),
                        "must be greater than zero",
                    ));
                }
                if at.0.checked_add(duration.0).is_none() {
                    return Err(Error::invalid(
                        format!("{field}.hiccups[{k}].duration"),
                        "at + duration is beyond the end of simulated time",
                    ));
                }
                Ok(Hiccup::Hold {
                    at: SimTime(at.0),
                    duration: SimDuration(duration.0),
                    stage: hiccup_stage(stage),
                    expire: expire.map(|x| SimDuration(x.0)),
                })
            }
            HiccupDoc::Reorder { at, length, stage } => {
                if length == 0 {
                    return Err(Error::invalid(
                        format!("{field}.hiccups[{k}].length"),
                        "must be at least 1 packet",
                    ));
                }
                Ok(Hiccup::Reorder {
                    at: SimTime(at.0),
                    length,
                    stage: hiccup_stage(stage),
                })
            }
        })
        .collect()
}

fn hiccup_stage(s: StageDoc) -> HiccupStage {
    match s {
        StageDoc::Link => HiccupStage::Link,
        StageDoc::Ip => HiccupStage::Ip,
    }
}

fn hop(i: usize, h: &HopDoc) -> Result<HopConfig, Error> {
    let field = format!("hops[{i}]");
    let medium = match (h.medium, &h.contention) {
        (MediumDoc::FullDuplex, None) => Medium::FullDuplex,
        (MediumDoc::FullDuplex, Some(_)) => {
            return Err(Error::invalid(
                format!("{field}.contention"),
                "only a half-duplex medium has contention",
            ))
        }
        (MediumDoc::HalfDuplex, c) => Medium::HalfDuplex {
            contention: match c {
                None => Contention::Fixed(SimDuration::ZERO),
                Some(c) if c.draw == DrawDoc::Mean => {
                    Contention::Fixed(SimDuration(c.slot.0.saturating_mul(u64::from(c.cw)) / 2))
                }
                Some(c) => Contention::Uniform {
                    slot: SimDuration(c.slot.0),
                    cw: c.cw,
                },
            },
        },
    };
    Ok(HopConfig {
        name: h.name.clone(),
        role: match h.role {
            RoleDoc::Wired => HopRole::Wired,
            RoleDoc::Wireless => HopRole::Wireless,
        },
        medium,
        forward: direction(&format!("{field}.forward"), h, &h.forward)?,
        reverse: direction(&format!("{field}.reverse"), h, &h.reverse)?,
    })
}

/// Idle round trip of a 40-byte packet from `src` to `dst` and back (no queueing), used to seed
/// the RTT estimator as the SYN exchange would.
pub(crate) fn idle_rtt(chain: &ChainConfig, src: NodeId, dst: NodeId) -> SimDuration {
    let (lo, hi) = (src.index().min(dst.index()), src.index().max(dst.index()));
    let frame = |d: &DirectionConfig, m: &Medium| {
        let wait = match m {
            Medium::HalfDuplex {
                contention: Contention::Fixed(w),
            } => *w,
            Medium::HalfDuplex {
                contention: Contention::Uniform { slot, cw },
            } => slot.saturating_mul(u64::from(*cw) / 2),
            Medium::FullDuplex => SimDuration::ZERO,
        };
        wait + d.per_frame
            + SimDuration::for_bits(u64::from(40 + d.framing_bytes) * 8, d.rate_bps)
            + d.delay
    };
    chain.hops[lo..hi].iter().fold(SimDuration::ZERO, |acc, h| {
        acc + frame(&h.forward, &h.medium) + frame(&h.reverse, &h.medium)
    })
}
