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
//!
//! RTO_AGG (§5.4.6, Fig 5-18: "the model configured to a maximum of 26 (= MAXCWND) for the
//! flow's load, a timer granularity of 1 ms, and a factor k of 0.05") is [`super::AggRto`] with
//! MAXCWND pinned to W. AGG learns only from spurious timeouts, so with
//! [`ModelTimeouts::Eifel`] the model acts on its effective timeouts as an Eifel sender with the
//! precise REXMT_E does: the timer of the oldest outstanding segment, armed at its send time
//! plus the RTO after the previous ACK (§5.4.5), fires if that is before the segment's ACK; the
//! estimator backs off and the retransmission re-arms the timer with the backed-off RTO (Karn
//! and Partridge; §2.2.2), which may fire again. Nothing is lost in the model, so every such
//! timeout is spurious: the ACK of the original echoes its timestamp, Eifel detects the timeout
//! on that first ACK (§5.2.2), the sample is valid and clears the backoff, and AGG moves halfway
//! back to 1. Eifel restores the window (§5.2.2), so the flow goes on as before: "in the common
//! case, the only penalty is a single spurious retransmission" (§5.4.6). With
//! [`ModelTimeouts::Shown`] (Figs 5-8 to 5-14) the effective timeouts are only computed.

use super::{
    AggRto, AggRtoConfig, BsdRto, BsdRtoConfig, EifelRto, EifelRtoConfig, RtoEstimator, Sampling,
    TickClock, AGG_ONE,
};
use engine::{SimDuration, SimTime};
use std::fmt;

/// Which estimator the model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelTimer {
    /// RTO_L: TCP-Lite's (Net/3's) estimator on a tick clock.
    Lite,
    /// RTO_E: the Eifel retransmission timer.
    Eifel,
    /// RTO_AGG: the Eifel timer times AGG (§5.4.6), MAXCWND = W; `k` in millionths
    /// (0 < k < 1 000 000).
    Agg {
        /// k in millionths (0.05 = 50 000).
        k: u64,
    },
}

/// What the model does when an effective timeout falls before the ACK it waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelTimeouts {
    /// Computed and shown (`rexmt_*`), never acted on (Figs 5-8 to 5-14).
    Shown,
    /// The precise REXMT_E fires, backs off and re-arms; Eifel detects the timeout spurious on
    /// the original's ACK (needs every ACK timed: timestamps). For RTO_E and RTO_AGG.
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
    /// Whether effective timeouts are acted on.
    pub timeouts: ModelTimeouts,
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
    /// Timeouts that fired for the acknowledged segment before this ACK (all spurious: nothing
    /// is lost in the model); 0 unless timeouts are acted on.
    pub timeouts: u32,
    /// When the first of them fired.
    pub timeout_at: Option<SimTime>,
    /// AGG after this ACK, in millionths (1 000 000 for RTO_L and RTO_E).
    pub agg: u64,
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

/// The estimator the model runs, AGG readable.
enum Estimator {
    Dyn(Box<dyn RtoEstimator>),
    Agg(AggRto),
}

impl Estimator {
    fn get(&mut self) -> &mut dyn RtoEstimator {
        match self {
            Estimator::Dyn(e) => e.as_mut(),
            Estimator::Agg(e) => e,
        }
    }

    fn agg(&self) -> u64 {
        match self {
            Estimator::Dyn(_) => AGG_ONE,
            Estimator::Agg(e) => e.agg(),
        }
    }
}

fn eifel_config(cfg: &ModelConfig) -> EifelRtoConfig {
    EifelRtoConfig {
        granularity: cfg.tick,
        max: SimDuration(u64::MAX / 4),
        initial: SimDuration::from_secs(6),
        sampling: match cfg.sampling {
            ModelSampling::EveryAck => Sampling::EveryAck,
            ModelSampling::OncePerRtt => Sampling::OncePerRtt,
        },
    }
}

fn estimator(cfg: &ModelConfig) -> Estimator {
    Estimator::Dyn(match cfg.timer {
        ModelTimer::Agg { k } => {
            let agg = AggRto::new(AggRtoConfig {
                eifel: eifel_config(cfg),
                k,
            });
            return Estimator::Agg(agg.with_max_cwnd(cfg.w));
        }
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
        ModelTimer::Eifel => Box::new(EifelRto::new(eifel_config(cfg))),
    })
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
    if let ModelTimer::Agg { k } = cfg.timer {
        if k == 0 || k >= AGG_ONE {
            return bad("k", "must be between 0 and 1 (0 < k < 1, §5.4.6)");
        }
    }
    if cfg.timeouts == ModelTimeouts::Eifel {
        if cfg.timer == ModelTimer::Lite {
            return bad(
                "timeouts",
                "eifel needs the eifel or agg timer (an Eifel sender tells a timeout spurious)",
            );
        }
        if cfg.sampling != ModelSampling::EveryAck {
            return bad(
                "timeouts",
                "eifel needs every-ack sampling (Eifel's detection reads the timestamps)",
            );
        }
    }
    let segs = segments(cfg);
    let mut owned = estimator(cfg);
    let mut rows = Vec::with_capacity(segs.len());
    // BSD's t_rtt: the ACK time of the timed segment; a segment sent at or after it is timed.
    let mut timer_free_at = SimTime::ZERO;
    // The previous ACK: where the timer of the next oldest segment was last re-armed.
    let mut prev_ack: Option<SimTime> = None;
    for (i, &(at, rtt, cycle, load)) in segs.iter().enumerate() {
        let est = owned.get();
        let sent = SimTime(at.as_nanos().saturating_sub(rtt.as_nanos()));
        let sampled = match cfg.sampling {
            ModelSampling::EveryAck => true,
            ModelSampling::OncePerRtt => sent >= timer_free_at,
        };
        let rto_prev = est.current();
        let (mut timeouts, mut timeout_at) = (0u32, None);
        if cfg.timeouts == ModelTimeouts::Eifel {
            // REXMT_E of this segment: its send time plus the RTO, re-armed at the last ACK
            // (§5.4.5); fired at once if that has passed.
            let mut deadline = est.deadline_for(sent, prev_ack.unwrap_or(sent));
            // At most BSD's 12 backoffs (TCP_MAXRXTSHIFT), the estimators' own cap.
            while deadline < at && timeouts < 12 {
                est.on_timeout();
                timeouts += 1;
                timeout_at.get_or_insert(deadline);
                // The retransmission re-arms the timer with the backed-off RTO.
                deadline = est.deadline(deadline);
            }
        }
        if sampled {
            est.observe_window(load, cfg.w / 2, 1);
            est.on_sample(sent, at);
            timer_free_at = at;
        }
        if timeouts > 0 {
            // The ACK echoes the original's timestamp: Eifel calls the timeout spurious on
            // this first ACK, after the sample, as the sender does (§5.2.2, §5.4.6).
            est.on_spurious_timeout();
        }
        prev_ack = Some(at);
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
        let rto = est.current();
        rows.push(ModelRow {
            at,
            cycle,
            load,
            rtt,
            sampled,
            rto_prev,
            rto,
            rexmt_restart: restart,
            rexmt_precise: precise,
            timeouts,
            timeout_at,
            agg: owned.agg(),
        });
    }
    Ok(rows)
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
