//! Retransmission timeout estimators: one decision, "when does a retransmission timer armed
//! now fire".
//!
//! - [`BsdRto`]: 4.4BSD-Lite (Net/3) coarse timers, 500 ms slow-timer ticks (Balakrishnan97 §2.1).
//! - [`Rfc6298Rto`]: the fine-grained estimator of RFC 6298 with a configurable minimum.
//! - [`EifelRto`]: the Eifel retransmission timer of Ludwig2000 §3.3.
//! - [`AggRto`]: the Eifel timer scaled by the self-training factor of RTO_AGG (§3.4).
//! - [`LinuxRto`]: Linux's timer, its minimum on the variance term (the `linux` profile).
//! - [`Ns2Rto`]: ns-2.35's `Agent/TCP` timer: samples in `tcpTick_` ticks, fixed-point srtt and
//!   rttvar, RFC 2988's minimum before the backoff (the LL-ELSN study's simulator).
//! - [`model`]: the steady-state spreadsheet model of Ludwig2000 §3.4.2 that drives RTO_L and
//!   RTO_E with the round trips of a congestion-avoidance sawtooth (S10).

mod agg;
mod bsd;
mod eifel;
mod linux;
pub mod model;
mod ns2;
mod rfc6298;

pub use agg::{AggRto, AggRtoConfig, AGG_ONE};
pub use bsd::{BsdRto, BsdRtoConfig, TickClock};
pub use eifel::{EifelRto, EifelRtoConfig, Sampling};
pub use linux::LinuxRto;
pub use ns2::{Ns2Rto, Ns2RtoConfig};
pub use rfc6298::{Rfc6298Config, Rfc6298Rto};

use engine::{SimDuration, SimTime};

/// Decides when the retransmission timer fires.
pub trait RtoEstimator: Send {
    /// A valid round-trip sample (Karn's rule already applied by the caller): the timed segment
    /// left at `sent` and its acknowledgment arrived at `acked`. Clears any backoff.
    fn on_sample(&mut self, sent: SimTime, acked: SimTime);
    /// The timer expired: back off (exponentially, per Karn and Partridge).
    fn on_timeout(&mut self);
    /// Eifel found the last timeout spurious (only RTO_AGG learns from it).
    fn on_spurious_timeout(&mut self) {}
    /// The instant at which a timer armed at `now` expires, given the current backoff.
    fn deadline(&self, now: SimTime) -> SimTime;
    /// The instant at which the timer of a segment sent at `sent`, re-armed at `now`, expires:
    /// the RTO minus the segment's age, and `now` if that has passed (the precise REXMT of
    /// Ludwig2000 §5.4.5).
    fn deadline_for(&self, sent: SimTime, now: SimTime) -> SimTime {
        self.deadline(sent).max(now)
    }
    /// The current timeout value (for traces).
    fn current(&self) -> SimDuration;
    /// Number of consecutive backoffs.
    fn backoff_shift(&self) -> u32;
    /// The sender's window before a sample (estimators whose gains follow the load use it).
    fn observe_window(&mut self, _cwnd: u32, _ssthresh: u32, _mss: u32) {}
    /// The smoothed RTT in whole slow-timer ticks (Net/3's `t_srtt >> TCP_RTT_SHIFT`), for the
    /// once-per-RTT rules of a stack whose only clocks are ticks; 0 for fine-grained estimators.
    fn srtt_ticks(&self) -> u32 {
        0
    }
}
