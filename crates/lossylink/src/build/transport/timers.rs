//! The retransmission timer's and the delayed ACK's settings of `[tcp]` (crate::build::transport):
//! the timer of each profile, ns-2.35's, RTO_AGG's factor, Net/3's tick counts.

use crate::error::Error;
use crate::schema::*;
use engine::SimDuration;
use tcp::rto::{AggRtoConfig, EifelRtoConfig, AGG_ONE};

/// Retransmission-timer settings after profile defaults and overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimerSettings {
    /// Net/3 coarse ticks.
    Bsd {
        tick: SimDuration,
        min_ticks: u32,
        max_ticks: u32,
        initial_ticks: u32,
    },
    /// RFC 6298 fine clock.
    Fine {
        min: SimDuration,
        max: SimDuration,
        initial: SimDuration,
    },
    /// Linux's timer: the minimum on the variance term (the `linux` profile).
    Linux {
        min: SimDuration,
        max: SimDuration,
        initial: SimDuration,
    },
    /// The Eifel timer on the timestamp clock.
    Eifel(EifelRtoConfig),
    /// RTO_AGG: the Eifel timer scaled by a self-training factor.
    Agg(AggRtoConfig),
    /// ns-2.35's timer: samples in ticks of `tick` (`tcpTick_`), `minrto_`, `maxrto_`,
    /// `rtxcur_init_`.
    Ns2 {
        tick: SimDuration,
        min: SimDuration,
        max: SimDuration,
        initial: SimDuration,
    },
}

/// Delayed-ACK settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DelackSettings {
    Tick(SimDuration),
    Deadline(SimDuration),
    Off,
    /// Linux's quick-ack mode and adaptive ACK timeout, capped at this.
    Linux(SimDuration),
}

/// RTO_AGG's k in millionths: 0 < k < 1, at most six decimals (nothing is rounded).
pub(super) fn agg_k(k: Option<f64>) -> Result<u64, Error> {
    let k = k.unwrap_or(0.1);
    let ppm = k * AGG_ONE as f64;
    if !(k > 0.0 && k < 1.0) || (ppm - ppm.round()).abs() > 1e-6 {
        return Err(Error::invalid(
            "tcp.rto_agg_k",
            format!(
                "must be a number between 0 and 1 (exclusive) with at most six decimals, not {k}"
            ),
        ));
    }
    Ok(ppm.round() as u64)
}

pub(super) fn ticks(
    field: &str,
    d: Option<crate::units::Dur>,
    tick: u64,
    default: u32,
) -> Result<u32, Error> {
    match d {
        None => Ok(default),
        Some(d) if d.0 > 0 && d.0 % tick == 0 && d.0 / tick <= u64::from(u32::MAX) => {
            Ok((d.0 / tick) as u32)
        }
        Some(_) => Err(Error::invalid(
            field,
            format!(
                "with the bsd profile this must be a positive multiple of tcp.slow_tick ({})",
                crate::units::format_duration(tick)
            ),
        )),
    }
}

/// `tcp.rto = "ns2"`: ns-2.35's `tcpTick_` 0.01, `minrto_` 0.2, `maxrto_` 60 and
/// `rtxcur_init_` 3.0 (tcl/lib/ns-default.tcl:967-976) unless `[tcp]` gives them.
pub(super) fn ns2_timers(t: &TcpDoc) -> Result<TimerSettings, Error> {
    let or = |d: Option<crate::units::Dur>, ms: u64| {
        d.map_or(SimDuration::from_millis(ms), |d| SimDuration(d.0))
    };
    let (tick, min) = (or(t.tcp_tick, 10), or(t.min_rto, 200));
    let (max, initial) = (or(t.max_rto, 60_000), or(t.initial_rto, 3_000));
    if tick.as_nanos() == 0 {
        return Err(Error::invalid("tcp.tcp_tick", "must be greater than zero"));
    }
    if min.as_nanos() == 0 || min > max {
        return Err(Error::invalid(
            "tcp.min_rto",
            "must be positive and not exceed tcp.max_rto",
        ));
    }
    Ok(TimerSettings::Ns2 {
        tick,
        min,
        max,
        initial,
    })
}
