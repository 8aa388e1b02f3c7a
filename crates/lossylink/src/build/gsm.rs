//! `medium = "gsm-csd"` hops into the GSM link's configuration (crate `net::medium::gsm`), with
//! every knob validated and named in its error.

use crate::error::Error;
use crate::schema::{AdaptiveDoc, BlocksDoc, FadesDoc, GsmDoc, HandoverDoc, HopDoc};
use engine::SimDuration;
use engine::SimTime;
use net::config::BlockSource;
use net::medium::gsm::erasure::BLOCKS_PER_SECOND;
use net::medium::gsm::{BlockTrace, Clustered, DeepFades, Profile};
use net::medium::{FlowAdaptive, GsmConfig, Handover, Handovers, L2rConfig, ServiceClass};
use std::sync::Arc;

/// The RLP link of a GSM hop (`{field}.gsm`).
pub(super) fn gsm(field: &str, d: Option<&GsmDoc>) -> Result<GsmConfig, Error> {
    let d = d.cloned().unwrap_or_default();
    let f = |k: &str| format!("{field}.gsm.{k}");
    let mut cfg = GsmConfig::default();
    if d.reliable == Some(true) && d.n2.is_some() {
        return Err(Error::invalid(
            f("n2"),
            "a reliable link never resets; give n2 or reliable = true, not both",
        ));
    }
    cfg.n2 = match (d.reliable, d.n2) {
        (Some(true), _) => None,
        (_, Some(0)) => return Err(Error::invalid(f("n2"), "must be at least 1")),
        (_, Some(n)) => Some(n),
        (_, None) => Some(6),
    };
    if let Some(r) = d.rlp_rtt {
        if r.0 < cfg.block.as_nanos() {
            return Err(Error::invalid(
                f("rlp_rtt"),
                "must be at least one radio block (20ms)",
            ));
        }
        cfg.rlp_rtt = SimDuration(r.0);
    }
    if let Some(a) = &d.adaptive {
        if d.n2.is_some() || d.reliable.is_some() {
            return Err(Error::invalid(
                f("adaptive"),
                "sets the persistency per class; leave n2 and reliable out",
            ));
        }
        cfg.adaptive = Some(adaptive(&f("adaptive"), a, cfg.rlp_rtt)?);
    }
    cfg.handovers = handovers(field, d.handovers.as_deref().unwrap_or_default())?;
    cfg.vj = d.vj.unwrap_or(false);
    match (d.hc.as_deref(), d.vj) {
        (None, _) => {}
        (Some(_), Some(_)) => {
            return Err(Error::invalid(
                f("hc"),
                "chooses the header compression; leave vj out",
            ))
        }
        (Some("vj"), None) => cfg.vj = true,
        (Some("rfc2507"), None) => (cfg.vj, cfg.twice) = (true, true),
        (Some(other), None) => {
            return Err(Error::invalid(
                f("hc"),
                format!("unknown header compression '{other}' (allowed: vj, rfc2507)"),
            ))
        }
    }
    if let Some(r) = d.hc_header_request {
        if r && !cfg.twice {
            return Err(Error::invalid(
                f("hc_header_request"),
                "belongs to RFC 2507 header compression (hc = \"rfc2507\")",
            ));
        }
        cfg.header_request = r;
    }
    cfg.link_reset = match d.reset.as_deref() {
        None | Some("link") => true,
        Some("direction") => false,
        Some(other) => {
            return Err(Error::invalid(
                f("reset"),
                format!("unknown reset '{other}' (allowed: link, direction)"),
            ))
        }
    };
    cfg.ppp_overhead = d.ppp.unwrap_or(7);
    if let Some(l) = &d.l2r {
        let rate = l.rate.unwrap_or(960);
        let peak = (1_000_000_000 * u64::from(cfg.frame_bytes - cfg.overhead)
            / cfg.block.as_nanos().max(1)) as u32;
        if rate == 0 || rate >= peak {
            return Err(Error::invalid(
                f("l2r.rate"),
                format!("{rate} B/s is outside 1..{peak} (the link's peak user rate)"),
            ));
        }
        let lo = l.gap_min.map_or(950_000_000, |x| x.0);
        let hi = l.gap_max.map_or(1_300_000_000, |x| x.0);
        if lo == 0 || lo > hi {
            return Err(Error::invalid(
                f("l2r.gap_min"),
                "must be positive and not above gap_max",
            ));
        }
        cfg.l2r = Some(L2rConfig {
            rate,
            gap_min: SimDuration(lo),
            gap_max: SimDuration(hi),
            draw: l.draw.unwrap_or(0),
        });
    }
    Ok(cfg)
}

/// `{field}` (a hop's `gsm.adaptive`): the classes' policies and codepoints (Ludwig2000
/// §4.1.2), the dissertation's defaults where left out. `persistency` and `realtime_bound` set
/// the fully-reliable classes' and the real-time class's persistency; a class's own
/// `persistency` overrides them.
fn adaptive(field: &str, a: &AdaptiveDoc, rlp_rtt: SimDuration) -> Result<FlowAdaptive, Error> {
    let mut out = FlowAdaptive::default();
    let dur = |d: Option<crate::units::Dur>| d.map(|x| SimDuration(x.0));
    let reliable = dur(a.persistency);
    let realtime = dur(a.realtime_bound);
    let classes = a.classes.clone().unwrap_or_default();
    let docs = [classes.bulk, classes.interactive, classes.realtime];
    let mut codepoints: Vec<(u8, ServiceClass)> = Vec::new();
    for (class, doc) in ServiceClass::ALL.into_iter().zip(docs) {
        let doc = doc.unwrap_or_default();
        let g = |k: &str| format!("{field}.classes.{}.{k}", class.name());
        let p = &mut out.policies[class.index()];
        let fallback = match class {
            ServiceClass::RealTime => realtime,
            _ => reliable,
        };
        if let Some(x) = dur(doc.persistency).or(fallback) {
            p.persistency = x;
        }
        if class != ServiceClass::RealTime && p.persistency < rlp_rtt {
            let key = match doc.persistency {
                Some(_) => g("persistency"),
                None => format!("{field}.persistency"),
            };
            return Err(Error::invalid(key, "must be at least one RLP round trip"));
        }
        p.in_order = doc.in_order.unwrap_or(p.in_order);
        p.priority = doc.priority.unwrap_or(p.priority);
        let ds = match doc.ds {
            Some(list) => list,
            None => out
                .codepoints
                .iter()
                .filter(|c| c.1 == class)
                .map(|c| c.0)
                .collect(),
        };
        for d in ds {
            if d > 63 {
                return Err(Error::invalid(g("ds"), format!("{d} is outside 0..=63")));
            }
            if let Some(other) = codepoints.iter().find(|c| c.0 == d) {
                return Err(Error::invalid(
                    g("ds"),
                    format!("{d} is already the codepoint of {}", other.1.name()),
                ));
            }
            codepoints.push((d, class));
        }
    }
    out.codepoints = codepoints.into();
    Ok(out)
}

/// The DS codepoints of the flows (`flows[i].ds`) onto every flow-adaptive GSM link, by the
/// ids the run will give the flows: TCP flows and UDP sources each numbered in order. Web
/// sessions open their connections as they go, so marks and web sessions do not mix.
pub(super) fn mark_flows(
    links: &mut [::net::config::LinkConfig],
    flows: &[crate::build::FlowPlan],
) -> Result<(), Error> {
    if let Some(f) = flows.iter().find(|f| f.ds.is_some_and(|d| d > 63)) {
        return Err(Error::invalid(
            format!("flows[{}].ds", f.entry),
            format!("{} is outside 0..=63", f.ds.unwrap_or_default()),
        ));
    }
    let Some(first) = flows.iter().find(|f| f.ds.is_some()) else {
        return Ok(());
    };
    if flows.iter().any(|f| f.web.is_some()) {
        return Err(Error::invalid(
            format!("flows[{}].ds", first.entry),
            "not in a scenario with web sessions (their connections are numbered as they open)",
        ));
    }
    let (mut tcp, mut udp) = (0u32, 0u32);
    let mut marks = Vec::new();
    for f in flows {
        let is_tcp = f.udp.is_none();
        let n = if is_tcp { &mut tcp } else { &mut udp };
        if let Some(ds) = f.ds {
            marks.push((engine::FlowId(*n), is_tcp, ds));
        }
        *n += 1;
    }
    let marks: Arc<[(engine::FlowId, bool, u8)]> = marks.into();
    for link in links {
        if let ::net::config::Medium::Gsm(g) = &mut link.hop.medium {
            if let Some(a) = g.adaptive.as_mut() {
                a.marks = marks.clone();
            }
        }
    }
    Ok(())
}

/// `{field}.gsm.handovers`: any number, each longer than zero, in time order, none starting
/// before the previous one ended (Ludwig2000 §2.4.2; spec S13).
fn handovers(field: &str, list: &[HandoverDoc]) -> Result<Handovers, Error> {
    let f = |i: usize, k: &str| format!("{field}.gsm.handovers[{i}].{k}");
    let mut out = Vec::with_capacity(list.len());
    for (i, h) in list.iter().enumerate() {
        if h.duration.0 == 0 {
            return Err(Error::invalid(
                f(i, "duration"),
                "must be greater than zero",
            ));
        }
        out.push(Handover {
            at: SimTime(h.at.0),
            duration: SimDuration(h.duration.0),
            lossless: h.lossless.unwrap_or(true),
        });
    }
    Handovers::new(out).map_err(|i| {
        let end = list[i - 1].at.0 + list[i - 1].duration.0;
        Error::invalid(
            f(i, "at"),
            format!(
                "must not be before the end of handovers[{}] ({}); give them in time order without overlaps",
                i - 1,
                crate::units::format_duration(end)
            ),
        )
    })
}

/// The GSM knobs belong to `gsm-csd` hops only.
pub(super) fn not_gsm(field: &str, h: &HopDoc) -> Result<(), Error> {
    let blocks = h.blocks.is_some() || h.forward.blocks.is_some() || h.reverse.blocks.is_some();
    match (h.gsm.is_some(), blocks) {
        (true, _) => Err(Error::invalid(
            format!("{field}.gsm"),
            "belongs to a medium = \"gsm-csd\" hop",
        )),
        (_, true) => Err(Error::invalid(
            format!("{field}.blocks"),
            "block erasures belong to a medium = \"gsm-csd\" hop (use error for other links)",
        )),
        _ => Ok(()),
    }
}

/// `{field}` (a profile's `fades`): deep fades of `length` (whole 20 ms blocks, 20 ms to
/// 10 min) starting `per_hour` times an hour of trace (above 0, at most 3600).
fn fades(field: &str, d: &FadesDoc) -> Result<DeepFades, Error> {
    if !(d.per_hour > 0.0 && d.per_hour <= 3600.0) {
        return Err(Error::invalid(
            format!("{field}.per_hour"),
            format!("{} is outside (0, 3600] fades an hour", d.per_hour),
        ));
    }
    let block = 1_000_000_000 / u64::from(BLOCKS_PER_SECOND);
    let len = d.length.0;
    if len == 0 || !len.is_multiple_of(block) || len > 600_000_000_000 {
        return Err(Error::invalid(
            format!("{field}.length"),
            "must be whole 20 ms radio blocks, from 20ms to 10min",
        ));
    }
    Ok(DeepFades {
        per_hour: d.per_hour,
        blocks: (len / block) as u32,
    })
}

/// A direction's block-erasure channel (`{field}.blocks`).
pub(super) fn blocks(
    field: &str,
    b: Option<&BlocksDoc>,
) -> Result<Option<Box<BlockSource>>, Error> {
    let Some(b) = b else {
        return Ok(None);
    };
    let f = |k: &str| format!("{field}.blocks.{k}");
    match (&b.profile, &b.file) {
        (Some(_), Some(_)) | (None, None) => Err(Error::invalid(
            format!("{field}.blocks"),
            "give either profile or file",
        )),
        (Some(p), None) => {
            let (profile, clustering) = match (Profile::named(p), Clustered::named(p)) {
                (Some(profile), _) => (profile, None),
                (None, Some(c)) => (c.profile, Some(c.clustering)),
                (None, None) => {
                    return Err(Error::invalid(
                        f("profile"),
                        format!(
                            "'{p}' is none of {}, nor a clustered {}",
                            Profile::NAMES.join(", "),
                            Clustered::SYNTAX
                        ),
                    ))
                }
            };
            let minutes = b.minutes.unwrap_or(60);
            if !(1..=1440).contains(&minutes) {
                return Err(Error::invalid(f("minutes"), "must be within 1..=1440"));
            }
            let fades = match &b.fades {
                None => None,
                Some(d) => Some(fades(&f("fades"), d)?),
            };
            Ok(Some(Box::new(BlockSource::Profile {
                profile,
                minutes: minutes as usize,
                draw: b.draw.unwrap_or(0),
                fades,
                clustering,
            })))
        }
        (None, Some(path)) => {
            if let Some(k) = [
                ("minutes", b.minutes.is_some()),
                ("draw", b.draw.is_some()),
                ("fades", b.fades.is_some()),
            ]
            .iter()
            .find(|x| x.1)
            .map(|x| x.0)
            {
                return Err(Error::invalid(
                    f(k),
                    "belongs to a synthetic profile, not a trace file",
                ));
            }
            let text = super::trace_file::read_trace(
                &f("file"),
                path,
                super::trace_file::max_trace_bytes(),
            )?;
            let t = BlockTrace::parse(&text)
                .map_err(|e| Error::invalid(f("file"), format!("{path}: {e}")))?;
            Ok(Some(Box::new(BlockSource::Trace(Arc::new(t)))))
        }
    }
}
