//! The steady-state "spreadsheet" model of Ludwig2000 §3.4.2 ([Lud99a]; spec §3.13.1), which
//! the dissertation uses to study the retransmission timers (Figs 5-8, 5-9, 5-11, 5-13, 5-14):
//! a network-limited bulk flow in congestion avoidance over a non-shared bottleneck of fixed
//! bandwidth, every extra segment of load one more packet in the bottleneck queue.
//!
//! Rows are ACK arrivals, one bottleneck service time `s` apart. A cycle has one flight per load
//! `L = W/2 ..= W` (one segment more per round trip), each of `L` segments whose round trip is
//! `L·s`; at the end of a cycle congestion is signalled explicitly, the load halves and the
//! sender is silent for half a round trip, so the next cycle's first flight again has the round
//! trip `(W/2)·s` (the queue has drained). The estimators are the simulator's own
//! ([`super::BsdRto`] for RTO_L, [`super::EifelRto`] for RTO_E), fed as the sender feeds them:
//! every ACK a sample (timestamps, sampling rate 1, the dissertation's assumption), or one timed
//! segment per round trip (the first segment sent after the previous timed one was
//! acknowledged, BSD's `t_rtt`). The window the Eifel gain reads is cwnd = L, ssthresh = W/2
//! segments.
//!
//! Each row reports RTO(i−1) (the value that covered the acknowledged segment), RTO(i) and the
//! effective timeout of the segment that is then the oldest outstanding: REXMT restarted on
//! the ACK with the full RTO (TCP-Lite, §5.3.3) and REXMT_E = RTO − its age (§5.4.5), both
//! measured from that segment's send time. The RTO is shown as computed, without BSD's 64 s
//! ceiling (the dissertation's model has none).

use super::{BsdRto, BsdRtoConfig, EifelRto, EifelRtoConfig, RtoEstimator, Sampling, TickClock};
use engine::{SimDuration, SimTime};
use std::fmt;

/// Which estimator the model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelTimer {
    /// RTO_L: TCP-Lite's (Net/3's) estimator on a tick clock.
    Lite,
    /// RTO_E: the Eifel retransmission timer.
    Eifel,
}

/// How many segments are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelSampling {
    /// Every ACK gives a sample (timestamps; the model's assumption).
    EveryAck,
    /// One timed segment per round trip (no timestamps).
    OncePerRtt,
}

/// The model's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelConfig {
    /// W: the load (segments) at the end of a cycle; even, at least 4.
    pub w: u32,
    /// The bottleneck's service time of one segment.
    pub service: SimDuration,
    /// The timer granularity (one tick).
    pub tick: SimDuration,
    /// Number of congestion-avoidance cycles.
    pub cycles: u32,
    /// RTO_L or RTO_E.
    pub timer: ModelTimer,
    /// Sampling rate.
    pub sampling: ModelSampling,
}

/// A parameter the model cannot run with, naming the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// The parameter.
    pub field: &'static str,
    /// What it must be.
    pub why: &'static str,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.why)
    }
}

impl std::error::Error for ModelError {}

/// One ACK arrival (a spreadsheet row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelRow {
    /// When the ACK arrives.
    pub at: SimTime,
    /// Cycle index, from 0.
    pub cycle: u32,
    /// The load of the flight the acknowledged segment belongs to (segments).
    pub load: u32,
    /// RTT(i): the acknowledged segment's round trip.
    pub rtt: SimDuration,
    /// Whether the estimator took this round trip as a sample.
    pub sampled: bool,
    /// RTO(i−1): the timeout before this ACK (the one covering the segment).
    pub rto_prev: SimDuration,
    /// RTO(i): the timeout after this ACK.
    pub rto: SimDuration,
    /// The effective timeout of the next oldest outstanding segment, from its send time, with
    /// REXMT restarted on this ACK (TCP-Lite's REXMT_L); zero on the last row.
    pub rexmt_restart: SimDuration,
    /// The same with the precise REXMT_E (RTO minus the segment's age); zero on the last row.
    pub rexmt_precise: SimDuration,
}

/// The segments of the model in ACK order: (ACK time, RTT, cycle, load).
fn segments(cfg: &ModelConfig) -> Vec<(SimTime, SimDuration, u32, u32)> {
    let s = cfg.service;
    let half = cfg.w / 2;
    let mut t = SimTime::ZERO + s.saturating_mul(u64::from(half));
    let mut out = Vec::new();
    for cycle in 0..cfg.cycles {
        for load in half..=cfg.w {
            for _ in 0..load {
                out.push((t, s.saturating_mul(u64::from(load)), cycle, load));
                t += s;
            }
        }
    }
    out
}

fn estimator(cfg: &ModelConfig) -> Box<dyn RtoEstimator> {
    match cfg.timer {
        ModelTimer::Lite => Box::new(BsdRto::new(BsdRtoConfig {
            clock: TickClock {
                period: cfg.tick,
                phase: SimDuration::ZERO,
            },
            min_ticks: 2,
            // As computed: no ceiling (see the module documentation).
            max_ticks: u32::MAX,
            initial_ticks: 12,
        })),
        ModelTimer::Eifel => Box::new(EifelRto::new(EifelRtoConfig {
            granularity: cfg.tick,
            max: SimDuration(u64::MAX / 4),
            initial: SimDuration::from_secs(6),
            sampling: match cfg.sampling {
                ModelSampling::EveryAck => Sampling::EveryAck,
                ModelSampling::OncePerRtt => Sampling::OncePerRtt,
            },
        })),
    }
}

/// Run the model: one row per ACK.
pub fn run(cfg: &ModelConfig) -> Result<Vec<ModelRow>, ModelError> {
    let bad = |field, why| Err(ModelError { field, why });
    if cfg.w < 4 || !cfg.w.is_multiple_of(2) || cfg.w > 10_000 {
        return bad("w", "must be an even number of segments from 4 to 10000");
    }
    if cfg.service.as_nanos() == 0 {
        return bad("service", "must be greater than zero");
    }
    if cfg.tick.as_nanos() == 0 {
        return bad("tick", "must be greater than zero");
    }
    if cfg.cycles == 0 || cfg.cycles > 1000 {
        return bad("cycles", "must be from 1 to 1000");
    }
    let segs = segments(cfg);
    let mut est = estimator(cfg);
    let mut rows = Vec::with_capacity(segs.len());
    // BSD's t_rtt: the ACK time of the timed segment; a segment sent at or after it is timed.
    let mut timer_free_at = SimTime::ZERO;
    for (i, &(at, rtt, cycle, load)) in segs.iter().enumerate() {
        let sent = SimTime(at.as_nanos().saturating_sub(rtt.as_nanos()));
        let sampled = match cfg.sampling {
            ModelSampling::EveryAck => true,
            ModelSampling::OncePerRtt => sent >= timer_free_at,
        };
        let rto_prev = est.current();
        if sampled {
            est.observe_window(load, cfg.w / 2, 1);
            est.on_sample(sent, at);
            timer_free_at = at;
        }
        let (restart, precise) = match segs.get(i + 1) {
            Some(&(next_at, next_rtt, _, _)) => {
                let next_sent = SimTime(next_at.as_nanos().saturating_sub(next_rtt.as_nanos()));
                (
                    est.deadline(at).saturating_since(next_sent),
                    est.deadline_for(next_sent, at).saturating_since(next_sent),
                )
            }
            None => (SimDuration::ZERO, SimDuration::ZERO),
        };
        rows.push(ModelRow {
            at,
            cycle,
            load,
            rtt,
            sampled,
            rto_prev,
            rto: est.current(),
            rexmt_restart: restart,
            rexmt_precise: precise,
        });
    }
    Ok(rows)
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
