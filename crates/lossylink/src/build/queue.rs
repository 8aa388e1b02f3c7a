//! A direction's `queue` ([`QueueDoc`]) validated into the drop-tail capacity and, for the
//! other disciplines, a `net::aqm::AqmConfig`.

use crate::error::Error;
use crate::schema::{DisciplineDoc, QueueDoc};
use engine::SimDuration;
use net::aqm::codel::CodelConfig;
use net::aqm::fq_codel::FqCodelConfig;
use net::aqm::red::RedConfig;
use net::aqm::AqmConfig;

fn packets(field: &str, p: Option<u32>, default: u32) -> Result<u32, Error> {
    match p.unwrap_or(default) {
        0 => Err(Error::invalid(
            format!("{field}.packets"),
            "must be at least 1 packet",
        )),
        n => Ok(n),
    }
}

fn dur(field: &str, d: Option<crate::units::Dur>, default: u64) -> Result<SimDuration, Error> {
    match d.map_or(default, |d| d.0) {
        0 => Err(Error::invalid(field, "must be greater than zero")),
        n => Ok(SimDuration(n)),
    }
}

fn codel(
    field: &str,
    (target, interval): (Option<crate::units::Dur>, Option<crate::units::Dur>),
    limit: u32,
    ecn: bool,
) -> Result<CodelConfig, Error> {
    Ok(CodelConfig {
        target: dur(&format!("{field}.target"), target, 5_000_000)?,
        interval: dur(&format!("{field}.interval"), interval, 100_000_000)?,
        limit,
        ecn,
        ..CodelConfig::default()
    })
}

/// The drop-tail capacity in packets (the drop-tail FIFO's, or the discipline's limit) and the
/// discipline if it is not drop-tail.
pub(super) fn discipline(
    field: &str,
    q: Option<&QueueDoc>,
    _rate_bps: u64,
) -> Result<(u32, Option<AqmConfig>), Error> {
    let d = match q {
        None => return Ok((50, None)),
        Some(QueueDoc::Packets(0)) => {
            return Err(Error::invalid(field, "must be at least 1 packet"))
        }
        Some(QueueDoc::Packets(n)) => return Ok((*n, None)),
        Some(QueueDoc::Discipline(d)) => d,
    };
    Ok(match d {
        DisciplineDoc::Droptail { packets: p } => (packets(field, *p, 50)?, None),
        DisciplineDoc::Red {
            packets: p,
            min_th,
            max_th,
            w_q,
            max_p,
            gentle,
            ecn,
        } => {
            let limit = packets(field, *p, 50)?;
            let d = RedConfig::ns2(limit);
            let c = RedConfig {
                min_th: min_th.unwrap_or(d.min_th),
                max_th: max_th.unwrap_or(d.max_th),
                w_q: w_q.unwrap_or(d.w_q),
                max_p: max_p.unwrap_or(d.max_p),
                gentle: gentle.unwrap_or(d.gentle),
                ecn: ecn.unwrap_or(d.ecn),
                ..d
            };
            if !(c.min_th >= 0.0 && c.min_th < c.max_th && c.max_th.is_finite()) {
                return Err(Error::invalid(
                    format!("{field}.min_th"),
                    format!(
                        "need 0 <= min_th < max_th, not {} and {}",
                        c.min_th, c.max_th
                    ),
                ));
            }
            if !(c.w_q > 0.0 && c.w_q <= 1.0) {
                return Err(Error::invalid(format!("{field}.w_q"), "must be in (0, 1]"));
            }
            if !(c.max_p > 0.0 && c.max_p <= 1.0) {
                return Err(Error::invalid(
                    format!("{field}.max_p"),
                    "must be in (0, 1]",
                ));
            }
            (limit, Some(AqmConfig::Red(c)))
        }
        DisciplineDoc::Codel {
            packets: p,
            target,
            interval,
            ecn,
        } => {
            let limit = packets(field, *p, 1000)?;
            let c = codel(field, (*target, *interval), limit, ecn.unwrap_or(false))?;
            (limit, Some(AqmConfig::Codel(c)))
        }
        DisciplineDoc::FqCodel {
            packets: p,
            flows,
            quantum,
            memory_limit,
            target,
            interval,
            ecn,
        } => {
            let limit = packets(field, *p, 10240)?;
            let d = FqCodelConfig::default();
            let flows = flows.unwrap_or(d.flows);
            if !(1..=65536).contains(&flows) {
                return Err(Error::invalid(
                    format!("{field}.flows"),
                    "must be in 1..=65536",
                ));
            }
            let quantum = quantum.map_or(u64::from(d.quantum), |q| q.0);
            if !(64..=65536).contains(&quantum) {
                return Err(Error::invalid(
                    format!("{field}.quantum"),
                    "must be 64 to 65536 bytes",
                ));
            }
            let c = FqCodelConfig {
                flows,
                quantum: quantum as u32,
                limit,
                memory_limit: memory_limit.map_or(d.memory_limit, |m| m.0).max(1),
                codel: codel(field, (*target, *interval), limit, ecn.unwrap_or(true))?,
            };
            (limit, Some(AqmConfig::FqCodel(c)))
        }
    })
}
