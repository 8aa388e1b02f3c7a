//! Links of a scenario: the settings of a hop or link and of each of its directions (rate,
//! delay, queue, framing, error model, hiccups), validated into [`net::config`] types.

use crate::error::Error;
use crate::schema::*;
use engine::{SimDuration, SimTime};
use net::config::{Contention, DirectionConfig, Exposure, Hiccup, HopConfig, HopRole, Medium};
use net::delivery::DeliveryTrace;
use net::{BurstSpacing, ErrorModelConfig, HiccupStage};

pub(super) fn per_frame(p: &PerFrameDoc) -> SimDuration {
    match p {
        PerFrameDoc::Total(d) => SimDuration(d.0),
        PerFrameDoc::Parts(parts) => {
            SimDuration(parts.values().map(|d| d.0).fold(0u64, u64::saturating_add))
        }
    }
}

pub(super) fn error_model(field: &str, e: &ErrorDoc) -> Result<ErrorModelConfig, Error> {
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
        ErrorDoc::Burst { every, .. } if every.0 == 0 => {
            return Err(Error::invalid(
                format!("{field}.every"),
                "0 bytes is not allowed: the mean gap between bursts must be at least 1 byte",
            ))
        }
        ErrorDoc::Burst {
            every,
            length,
            spacing,
        } => ErrorModelConfig::Burst {
            mean_gap_bits: every.0 as f64 * 8.0,
            length: *length,
            spacing: match spacing {
                None | Some(BurstSpacingDoc::Exponential) => BurstSpacing::Exponential,
                Some(BurstSpacingDoc::Fixed) => BurstSpacing::Fixed,
            },
        },
        ErrorDoc::Bernoulli { p } => {
            return Err(Error::invalid(
                format!("{field}.p"),
                format!("{p} is outside [0, 1]"),
            ))
        }
        ErrorDoc::Gilbert {
            p_gb,
            p_bb,
            mean_error_rate,
            mean_burst,
            loss_good,
            loss_bad,
            slot,
        } => match (
            gilbert(
                field,
                (*p_gb, *p_bb),
                (*mean_error_rate, *mean_burst),
                (*loss_good, *loss_bad),
            )?,
            slot,
        ) {
            (
                ErrorModelConfig::Gilbert {
                    p_gb,
                    p_bb,
                    loss_good,
                    loss_bad,
                    ..
                },
                Some(d),
            ) => {
                if d.0 == 0 {
                    return Err(Error::invalid(
                        format!("{field}.slot"),
                        "must be greater than zero",
                    ));
                }
                ErrorModelConfig::Gilbert {
                    p_gb,
                    p_bb,
                    loss_good,
                    loss_bad,
                    slot: Some(SimDuration(d.0)),
                }
            }
            (cfg, _) => cfg,
        },
        ErrorDoc::Trace { file, slot, repeat } => {
            let text = super::trace_file::read_trace(
                &format!("{field}.file"),
                file,
                super::trace_file::max_trace_bytes(),
            )?;
            let trace = net::medium::gsm::BlockTrace::parse(&text)
                .map_err(|e| Error::invalid(format!("{field}.file"), format!("{file}: {e}")))?;
            if slot.is_some_and(|s| s.0 == 0) {
                return Err(Error::invalid(
                    format!("{field}.slot"),
                    "must be greater than zero (leave it out for one entry per frame)",
                ));
            }
            ErrorModelConfig::Trace {
                erased: trace.erased().into(),
                slot: slot.map(|s| SimDuration(s.0)),
                looped: repeat.unwrap_or(true),
            }
        }
        ErrorDoc::Fer { fer, reference } => {
            if !(fer.is_finite() && (0.0..1.0).contains(fer)) {
                return Err(Error::invalid(
                    format!("{field}.fer"),
                    format!("{fer} is outside [0, 1)"),
                ));
            }
            if reference.0 == 0 {
                return Err(Error::invalid(
                    format!("{field}.reference"),
                    "must be at least 1 byte (the frame length the fer is given for)",
                ));
            }
            if *fer == 0.0 {
                ErrorModelConfig::None
            } else {
                ErrorModelConfig::Fer {
                    fer: *fer,
                    reference_bits: reference.0.saturating_mul(8),
                }
            }
        }
    })
}

pub(super) fn direction(
    field: &str,
    h: &HopDoc,
    d: &DirectionDoc,
) -> Result<DirectionConfig, Error> {
    let delivery =
        match d.delivery.as_ref().or(h.delivery.as_ref()) {
            None => None,
            Some(path) => {
                let text = super::trace_file::read_trace(
                    &format!("{field}.delivery"),
                    path,
                    super::trace_file::max_trace_bytes(),
                )?;
                Some(DeliveryTrace::parse(&text).map_err(|e| {
                    Error::invalid(format!("{field}.delivery"), format!("{path}: {e}"))
                })?)
            }
        };
    // With a delivery trace the rate only estimates the idle round trip: its mean by default.
    let rate = match (d.rate.or(h.rate), &delivery) {
        (Some(r), _) => r,
        (None, Some(t)) => crate::units::Rate(t.mean_rate_bps().max(1)),
        (None, None) => {
            return Err(Error::invalid(
                format!("{field}.rate"),
                "missing: give `rate` on the hop or on this direction (e.g. \"2Mbps\")",
            ))
        }
    };
    if rate.0 == 0 {
        return Err(Error::invalid(
            format!("{field}.rate"),
            "must be greater than zero",
        ));
    }
    let qdoc = d.queue.as_ref().or(h.queue.as_ref());
    let (queue, aqm) = super::queue::discipline(&format!("{field}.queue"), qdoc, rate.0)?;
    if aqm.is_some() {
        let clash = if !d.hiccups.is_empty() {
            Some("hiccups")
        } else if d.cw_mark.or(h.cw_mark).is_some() {
            Some("cw_mark")
        } else {
            None
        };
        if let Some(other) = clash {
            return Err(Error::invalid(
                format!("{field}.queue"),
                format!("a queue discipline other than droptail cannot be combined with {other}"),
            ));
        }
    }
    let cw_mark = d.cw_mark.or(h.cw_mark);
    if cw_mark == Some(0) {
        return Err(Error::invalid(
            format!("{field}.cw_mark"),
            "must be at least 1 packet (leave it out for no marking)",
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
        aqm,
        phy: None,
        wlan: None,
        host_queue: d.host_queue.or(h.host_queue).unwrap_or(true),
        framing_bytes: d.framing.or(h.framing).unwrap_or(0),
        cw_mark,
        per_frame: d
            .per_frame
            .as_ref()
            .or(h.per_frame.as_ref())
            .map_or(SimDuration::ZERO, per_frame),
        exposure,
        error,
        hiccups: hiccups(field, &d.hiccups)?,
        delivery,
        blocks: match &d.blocks {
            Some(b) => super::gsm::blocks(field, Some(b))?,
            // The hop-level table is named as the user wrote it.
            None => super::gsm::blocks(
                field.rsplit_once('.').map_or(field, |(hop, _)| hop),
                h.blocks.as_ref(),
            )?,
        },
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

pub(super) fn hop(field: &str, h: &HopDoc) -> Result<HopConfig, Error> {
    let medium = match (h.medium, &h.contention) {
        (MediumDoc::FullDuplex, None) => Medium::FullDuplex,
        (MediumDoc::FullDuplex, Some(_)) => {
            return Err(Error::invalid(
                format!("{field}.contention"),
                "only a half-duplex medium has contention",
            ))
        }
        (MediumDoc::HalfDuplex, c) => Medium::HalfDuplex {
            contention: contention(c.as_ref(), &format!("{field}.contention"))?,
        },
        (MediumDoc::GsmCsd, Some(_)) => {
            return Err(Error::invalid(
                format!("{field}.contention"),
                "only a half-duplex medium has contention",
            ))
        }
        (MediumDoc::GsmCsd, None) => {
            let mut g = super::gsm::gsm(field, h.gsm.as_ref())?;
            // The hop's one-way delay (interleaving): what RFC 2507's header request takes.
            g.delay = SimDuration(h.delay.map_or(0, |x| x.0));
            Medium::Gsm(g)
        }
        (MediumDoc::Dcf, Some(_)) => {
            return Err(Error::invalid(
                format!("{field}.contention"),
                "a dcf hop draws its own backoff (dcf.cw_min, dcf.slot); leave contention out",
            ))
        }
        (MediumDoc::Dcf, None) => {
            for (at, rate) in [
                ("rate", h.rate),
                ("forward.rate", h.forward.rate),
                ("reverse.rate", h.reverse.rate),
            ] {
                if let Some(r) = rate {
                    super::wifi::dcf_rate(r.0, &format!("{field}.{at}"))?;
                }
            }
            let d = h.dcf.clone().unwrap_or_default();
            super::wifi::hop_knobs(&d, &format!("{field}.dcf"))?;
            Medium::Dcf(super::wifi::dcf_config(&d, &format!("{field}.dcf"))?)
        }
    };
    if h.dcf.is_some() && h.medium != MediumDoc::Dcf {
        return Err(Error::invalid(
            format!("{field}.dcf"),
            "belongs to a medium = \"dcf\" hop (or a [[cells]] entry)",
        ));
    }
    if h.medium != MediumDoc::GsmCsd {
        super::gsm::not_gsm(field, h)?;
    }
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

/// The channel-access wait of a shared medium (none when not given); `field` names it in errors.
pub(super) fn contention(c: Option<&ContentionDoc>, field: &str) -> Result<Contention, Error> {
    Ok(match c {
        None => Contention::Fixed(SimDuration::ZERO),
        Some(c) if c.slot.0 == 0 => {
            return Err(Error::invalid(
                format!("{field}.slot"),
                "must be greater than zero (leave contention out for none)",
            ))
        }
        Some(c) if c.draw == DrawDoc::Mean => {
            Contention::Fixed(SimDuration(c.slot.0.saturating_mul(u64::from(c.cw)) / 2))
        }
        Some(c) => Contention::Uniform {
            slot: SimDuration(c.slot.0),
            cw: c.cw,
        },
    })
}

type Pair = (Option<f64>, Option<f64>);

/// A Gilbert–Elliott chain from either its transition probabilities or its mean error rate and
/// mean burst length (eln-llelsn spec §5.2), with the loss probability of each state.
fn gilbert(
    field: &str,
    (p_gb, p_bb): Pair,
    (rate, burst): Pair,
    (loss_good, loss_bad): Pair,
) -> Result<ErrorModelConfig, Error> {
    let prob = |name: &str, v: f64| -> Result<f64, Error> {
        if v.is_finite() && (0.0..=1.0).contains(&v) {
            Ok(v)
        } else {
            Err(Error::invalid(
                format!("{field}.{name}"),
                format!("{v} is outside [0, 1]"),
            ))
        }
    };
    let loss_good = prob("loss_good", loss_good.unwrap_or(0.0))?;
    let loss_bad = prob("loss_bad", loss_bad.unwrap_or(1.0))?;
    let (p_gb, p_bb) =
        match (p_gb, p_bb, rate, burst) {
            (Some(_), Some(1.0), None, None) => {
                return Err(Error::invalid(
                    format!("{field}.p_bb"),
                    "1 makes the bad state absorbing (the chain never leaves it); allowed: [0, 1)",
                ))
            }
            (Some(gb), Some(bb), None, None) => (prob("p_gb", gb)?, prob("p_bb", bb)?),
            (None, None, Some(r), Some(b)) => {
                if !(r.is_finite() && r > 0.0 && r < 1.0) {
                    return Err(Error::invalid(
                        format!("{field}.mean_error_rate"),
                        format!("{r} is outside (0, 1)"),
                    ));
                }
                if !(b.is_finite() && b >= 1.0) {
                    return Err(Error::invalid(
                        format!("{field}.mean_burst"),
                        format!("{b} frames is below 1"),
                    ));
                }
                match ErrorModelConfig::gilbert_from_rate(r, b) {
                    ErrorModelConfig::Gilbert { p_gb, p_bb, .. } if p_gb <= 1.0 => (p_gb, p_bb),
                    _ => {
                        return Err(Error::invalid(
                            format!("{field}.mean_error_rate"),
                            format!("{r} with mean_burst {b} needs P(Good -> Bad) above 1"),
                        ))
                    }
                }
            }
            _ => return Err(Error::invalid(
                field,
                "the gilbert model needs either p_gb and p_bb, or mean_error_rate and mean_burst",
            )),
        };
    Ok(ErrorModelConfig::Gilbert {
        p_gb,
        p_bb,
        loss_good,
        loss_bad,
        slot: None,
    })
}
