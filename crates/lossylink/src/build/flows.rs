//! The flows of a scenario: `[flow]` of a chain document or each of `[[flows]]`, validated into
//! [`FlowPlan`]s (ends, size or long-lived, start and stop, TCP settings after the flow's
//! overrides, the scheme's parts, the split proxy, or a UDP source).

use super::topology::{node_id_named, Net};
use super::transport::{check_eln_knobs, check_parts, fit_profile, tcp_settings};
use super::{split_settings, FlowPlan, RunSettings};
use crate::cc::PathFacts;
use crate::error::Error;
use crate::schema::*;
use crate::schemes::{self, AgentKind};
use engine::{NodeId, SimDuration, SimTime};
use net::traffic::UdpSourceConfig;

/// A flow as written: `[flow]` of a chain document, or one of `[[flows]]`.
pub(super) struct Spec<'a> {
    /// Index of the entry in `[[flows]]` it comes from (several for a template's copies).
    pub entry: usize,
    name: String,
    from: String,
    to: String,
    scheme: &'a str,
    bytes: Option<u64>,
    start: u64,
    stop: Option<u64>,
    tcp: Option<&'a serde_json::Map<String, serde_json::Value>>,
    udp: Option<&'a UdpDoc>,
    web: Option<&'a WebDoc>,
    /// The DS codepoint of its packets.
    ds: Option<u8>,
    /// Whether the flow names its own scheme.
    own_scheme: bool,
}

/// Most copies one `[[flows]]` template makes.
const MAX_COPIES: u32 = 10_000;

pub(super) fn flow_specs(doc: &ScenarioDoc) -> Result<Vec<Spec<'_>>, Error> {
    match (&doc.flow, doc.flows.is_empty()) {
        (Some(_), false) => Err(Error::invalid(
            "flows",
            "give either one [flow] or a list of [[flows]], not both",
        )),
        (None, true) => Err(Error::invalid(
            "flows",
            "missing: a scenario needs a [flow] (from, to, bytes) or at least one [[flows]]",
        )),
        (Some(f), true) => Ok(vec![Spec {
            entry: 0,
            name: "flow0".into(),
            from: f.from.clone(),
            to: f.to.clone(),
            scheme: &doc.scheme,
            bytes: Some(f.bytes.0),
            start: 0,
            stop: None,
            tcp: None,
            udp: None,
            web: None,
            ds: None,
            own_scheme: false,
        }]),
        (None, false) => {
            let mut out: Vec<Spec> = Vec::with_capacity(doc.flows.len());
            // The names taken so far: a look-up each, not a walk over `out` (quadratic in the
            // flows: 1000 web sessions' 2000 flows cost 3.6 M instructions per build).
            let mut names = std::collections::BTreeSet::new();
            for (i, f) in doc.flows.iter().enumerate() {
                let copies = match f.copies {
                    None => None,
                    Some(n) if (1..=MAX_COPIES).contains(&n) => Some(n),
                    Some(n) => {
                        return Err(Error::invalid(
                            format!("flows[{i}].copies"),
                            format!("{n} is outside 1..={MAX_COPIES}"),
                        ))
                    }
                };
                if f.stagger.is_some() && copies.is_none() {
                    return Err(Error::invalid(
                        format!("flows[{i}].stagger"),
                        "only a template (`copies`) staggers its copies' starts",
                    ));
                }
                let base = f.name.clone().unwrap_or_else(|| format!("flow{i}"));
                let start = f.start.map_or(0, |s| s.0);
                for k in 1..=copies.unwrap_or(1) {
                    // A template's copy k: `{i}` replaced by k (a plain name gets `-k`).
                    let sub = |t: &str| match copies {
                        None => t.to_string(),
                        Some(_) => t.replace("{i}", &k.to_string()),
                    };
                    let name = match copies {
                        Some(_) if !base.contains("{i}") => format!("{base}-{k}"),
                        _ => sub(&base),
                    };
                    if name.is_empty() || !names.insert(name.clone()) {
                        return Err(Error::invalid(
                            format!("flows[{i}].name"),
                            format!("'{name}' is empty or used twice; flow names must be unique"),
                        ));
                    }
                    let offset = f
                        .stagger
                        .map_or(0, |d| d.0.saturating_mul(u64::from(k - 1)));
                    out.push(Spec {
                        entry: i,
                        name,
                        from: sub(&f.from),
                        to: sub(&f.to),
                        scheme: f.scheme.as_deref().unwrap_or(&doc.scheme),
                        bytes: f.bytes.map(|b| b.0),
                        start: start.saturating_add(offset),
                        stop: f.stop.map(|s| s.0),
                        tcp: Some(&f.tcp),
                        udp: f.udp.as_ref(),
                        web: f.web.as_ref(),
                        ds: f.ds,
                        own_scheme: f.scheme.is_some(),
                    });
                }
            }
            Ok(out)
        }
    }
}

/// The field path of `key` of flow `i`: `flow.<key>` for a chain document's flow (and the
/// document's `scheme`), `flows[i].<key>` else.
pub(super) fn spec_field(single: bool, i: usize, key: &str) -> String {
    match (single, key) {
        (true, "scheme") => "scheme".into(),
        (true, _) => format!("flow.{key}"),
        (false, _) => format!("flows[{i}].{key}"),
    }
}

pub(super) fn flow_plan(
    doc: &ScenarioDoc,
    net: &Net,
    spec: &Spec<'_>,
    run: &RunSettings,
) -> Result<FlowPlan, Error> {
    let single = doc.flow.is_some();
    let i = spec.entry;
    let field = |k: &str| spec_field(single, i, k);
    let scheme = schemes::lookup(spec.scheme).map_err(|e| {
        if single {
            e
        } else {
            Error::invalid(field("scheme"), e.to_string())
        }
    })?;
    let host = |k: &str, name: &str| -> Result<NodeId, Error> {
        let id = node_id_named(doc, name, || field(k))?;
        if doc.nodes[id.index()].kind != NodeKindDoc::Host {
            let hosts: Vec<&str> = doc
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKindDoc::Host)
                .map(|n| n.name.as_str())
                .collect();
            return Err(Error::invalid(
                field(k),
                format!(
                    "'{name}' is not a host of this scenario (hosts: {})",
                    hosts.join(", ")
                ),
            ));
        }
        Ok(id)
    };
    let src = host("from", &spec.from)?;
    let dst = host("to", &spec.to)?;
    if src == dst {
        return Err(Error::invalid(
            field("to"),
            "must differ from the flow's `from`",
        ));
    }
    if net.path(src, dst).is_empty() || net.path(dst, src).is_empty() {
        return Err(Error::invalid(
            field("to"),
            format!(
                "no route between '{}' and '{}': the nodes are not connected",
                spec.from, spec.to
            ),
        ));
    }
    let udp = match spec.udp {
        None => None,
        Some(u) => Some(udp_source(u, spec, &field)?),
    };
    if let Some(u) = &udp {
        let first = net.direction(net.path(src, dst)[0]).1;
        udp_within_reach(u, first.rate_bps, first.framing_bytes, &field("udp.rate"))?;
    }
    let web = match spec.web {
        None => None,
        Some(_) if udp.is_some() => {
            return Err(Error::invalid(
                field("web"),
                "a flow is a UDP source or a web session, not both",
            ))
        }
        Some(_) if spec.bytes.is_some() => {
            return Err(Error::invalid(
                field("bytes"),
                "a web session draws its objects' sizes; leave `bytes` out",
            ))
        }
        Some(_) if run.duration.is_none() => {
            return Err(Error::invalid(
                field("web"),
                "a web session runs until `stop` or the end of the run: set run.duration",
            ))
        }
        Some(w) => Some(super::web::web_config(w, &field)?),
    };
    if udp.is_some() && run.duration.is_none() {
        return Err(Error::invalid(
            field("udp"),
            "a UDP source sends until the end of the run: set run.duration",
        ));
    }
    match spec.bytes {
        Some(0) => return Err(Error::invalid(field("bytes"), "must be at least 1 byte")),
        None if run.duration.is_none() && udp.is_none() => {
            return Err(Error::invalid(
                field("bytes"),
                "missing: a flow without bytes is long-lived and needs run.duration",
            ))
        }
        _ => {}
    }
    let start = SimTime(spec.start);
    if let Some(d) = run.duration {
        if spec.start >= d.as_nanos() {
            return Err(Error::invalid(
                field("start"),
                "must be before run.duration",
            ));
        }
    }
    let stop = match spec.stop {
        None => None,
        Some(_) if spec.bytes.is_some() && udp.is_none() && web.is_none() => {
            return Err(Error::invalid(
                field("stop"),
                "only a long-lived flow (no `bytes`) has a stop time",
            ))
        }
        Some(t) if t <= spec.start => {
            return Err(Error::invalid(
                field("stop"),
                "must be after the flow's start",
            ))
        }
        Some(t) => Some(SimTime(t)),
    };
    let tcp_doc = match spec.tcp {
        Some(over) if !over.is_empty() => flow_tcp(&doc.tcp, over, &field("tcp"))?,
        _ => doc.tcp.clone(),
    };
    let mut tcp = tcp_settings(&tcp_doc, scheme.mods)?;
    tcp.cc.fit_path(|| {
        let (there, back) = (net.path(src, dst), net.path(dst, src));
        let delays = there.iter().chain(back.iter());
        Some(PathFacts {
            slowest_bps: there.iter().map(|&p| net.direction(p).1.rate_bps).min(),
            propagation_rtt: delays.fold(SimDuration::ZERO, |d, &p| d + net.direction(p).1.delay),
        })
    })?;
    fit_profile(&mut tcp, scheme.def, &tcp_doc, scheme.mods);
    check_parts(&tcp, scheme.def, &field("scheme"))?;
    // The knob's table: the flow's own `tcp` where it sets `eln`, else the scenario's.
    let eln_from_flow = spec.tcp.is_some_and(|o| o.contains_key("eln"));
    let tcp_field = if eln_from_flow {
        field("tcp")
    } else {
        "tcp".into()
    };
    check_eln_knobs(&tcp_doc, scheme.def, &tcp_field)?;
    let split = match scheme.def.agent {
        AgentKind::Split if web.is_some() => {
            return Err(Error::invalid(
                field("scheme"),
                format!(
                    "'{}' is a split-connection scheme; web sessions run end to end only",
                    spec.scheme
                ),
            ))
        }
        AgentKind::Split => Some(split_settings(
            doc,
            net,
            &tcp_doc,
            scheme,
            (src, dst),
            spec.scheme,
        )?),
        _ => None,
    };
    Ok(FlowPlan {
        key: if single {
            "flow0".into()
        } else {
            format!("flow:{}", spec.name)
        },
        name: spec.name.clone(),
        src,
        dst,
        bytes: spec.bytes,
        start,
        stop,
        tcp,
        scheme,
        scheme_name: match spec.udp {
            Some(UdpDoc::Cbr { .. }) => "udp-cbr".into(),
            Some(UdpDoc::Pareto { .. }) => "udp-pareto".into(),
            None => spec.scheme.to_string(),
        },
        split,
        udp,
        web,
        entry: spec.entry,
        ds: spec.ds,
    })
}

/// A flow's UDP source, validated; a UDP flow has no `bytes`, `scheme` or `tcp` of its own.
fn udp_source(
    u: &UdpDoc,
    spec: &Spec<'_>,
    field: &dyn Fn(&str) -> String,
) -> Result<UdpSourceConfig, Error> {
    if spec.bytes.is_some() {
        return Err(Error::invalid(
            field("bytes"),
            "a UDP source sends until `stop` or the end of the run; leave `bytes` out",
        ));
    }
    if spec.own_scheme || spec.tcp.is_some_and(|t| !t.is_empty()) {
        return Err(Error::invalid(
            field("udp"),
            "a UDP source has no TCP scheme or [tcp] settings; leave `scheme` and `tcp` out",
        ));
    }
    let size = |s: &crate::units::Size| -> Result<u32, Error> {
        match u32::try_from(s.0) {
            Ok(v) if (1..=65507).contains(&v) => Ok(v),
            _ => Err(Error::invalid(
                field("udp.size"),
                format!("{} bytes is outside 1..=65507 (a UDP payload)", s.0),
            )),
        }
    };
    let rate = |r: &crate::units::Rate| -> Result<u64, Error> {
        if r.0 == 0 {
            return Err(Error::invalid(
                field("udp.rate"),
                "must be greater than zero",
            ));
        }
        Ok(r.0)
    };
    Ok(match u {
        UdpDoc::Cbr { rate: r, size: s } => UdpSourceConfig::Cbr {
            rate_bps: rate(r)?,
            size: size(s)?,
        },
        UdpDoc::Pareto {
            rate: r,
            on,
            off,
            shape,
            size: s,
        } => {
            if !(shape.is_finite() && *shape > 1.0) {
                return Err(Error::invalid(
                    field("udp.shape"),
                    format!(
                        "{shape} must exceed 1 (the mean of a Pareto period is finite only then)"
                    ),
                ));
            }
            for (k, d) in [("on", on), ("off", off)] {
                if d.0 == 0 {
                    return Err(Error::invalid(
                        field(&format!("udp.{k}")),
                        "must be greater than zero",
                    ));
                }
            }
            UdpSourceConfig::Pareto {
                rate_bps: rate(r)?,
                mean_on: SimDuration(on.0),
                mean_off: SimDuration(off.0),
                shape: *shape,
                size: size(s)?,
            }
        }
    })
}

/// How many times its first link's packet rate a UDP source may offer: an overload is an
/// experiment (an unresponsive flow against a queue discipline), three orders of magnitude are
/// a slip of a unit, whose packets the run would spend its time creating and dropping.
const UDP_OVERLOAD_MAX: u128 = 1000;

/// A UDP source's packet rate (`rate` of `size`-byte payloads; its ON rate for Pareto) at most
/// [`UDP_OVERLOAD_MAX`] times what its first link sends of such datagrams (IPv4 and UDP
/// headers, 28 bytes, and the link's framing on each).
fn udp_within_reach(
    u: &UdpSourceConfig,
    link_bps: u64,
    framing: u32,
    field: &str,
) -> Result<(), Error> {
    let (rate, size) = match *u {
        UdpSourceConfig::Cbr { rate_bps, size }
        | UdpSourceConfig::Pareto { rate_bps, size, .. } => (rate_bps, size),
    };
    // Packets per second, compared without division: rate / (8 size) against
    // UDP_OVERLOAD_MAX x link / (8 (size + 28 + framing)).
    let on_wire = u128::from(size) + 28 + u128::from(framing);
    if u128::from(rate) * on_wire <= UDP_OVERLOAD_MAX * u128::from(link_bps) * u128::from(size) {
        return Ok(());
    }
    let pps = |bps: u64, bytes: u128| u128::from(bps) / (8 * bytes).max(1);
    Err(Error::invalid(
        field,
        format!(
            "{} of {size}-byte datagrams is {} packets/s, over {UDP_OVERLOAD_MAX} x the {} packets/s \
             its first link ({}) sends",
            crate::units::format_rate(rate),
            pps(rate, u128::from(size)),
            pps(link_bps, on_wire),
            crate::units::format_rate(link_bps),
        ),
    ))
}

/// The document's `[tcp]` with a flow's overrides on top, validated like `[tcp]` itself.
fn flow_tcp(
    base: &TcpDoc,
    over: &serde_json::Map<String, serde_json::Value>,
    field: &str,
) -> Result<TcpDoc, Error> {
    let mut v = serde_json::to_value(base).map_err(|e| Error::invalid(field, e.to_string()))?;
    if let Some(obj) = v.as_object_mut() {
        for (k, x) in over {
            obj.insert(k.clone(), x.clone());
        }
    }
    serde_json::from_value(v).map_err(|e| Error::invalid(field, e.to_string()))
}
