//! The Eifel retransmission timer (Ludwig2000 §3.3, [LS99]; the order of operations of the
//! spec's §10.2).
//!
//! One gain serves both estimators and scales with the load, so that their memory is about one
//! round trip: `GAIN = 1/FLIGHT` when every segment is acknowledged and timed, `2/FLIGHT` with
//! delayed ACKs, `1/3` with one sample per round trip (no timestamps), where
//! `FLIGHT = max(ssthresh, cwnd/2) + 1` in segments (a lower bound of the load). RTTVAR moves only
//! when the RTT rises (no spike when it falls, §5.4.1) and falls with `GAIN²` (the "shock
//! absorber", §5.4.3). `RTO = max(SRTT + RTTVAR/GAIN, MIN)` with `MIN` at least two clock ticks
//! and at least the latest sample (§5.4.4). The first sample sets SRTT = R, RTTVAR = R/2 (the
//! dissertation leaves initialisation open; this is the BSD rule [P]). Backoff doubles up to the
//! maximum.
//!
//! The last line of the dissertation's RTO equation is lost in the source and reconstructed as
//! above ([R] in the spec). The precise REXMT of §5.4.5 is the sender's `Rexmt::Precise`, for
//! any estimator; RTO_AGG (§5.4.6) is [`super::AggRto`], which wraps this one.

use super::RtoEstimator;
use engine::{SimDuration, SimTime};

/// How often the estimator gets a sample (the dissertation's "RTT sampling rate").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Timestamps and an ACK for every segment: gain 1/FLIGHT.
    EveryAck,
    /// Timestamps and delayed ACKs (one ACK per two segments): gain 2/FLIGHT.
    DelayedAck,
    /// One timed segment per round trip (no timestamps): gain 1/3.
    OncePerRtt,
}

/// Knobs of the Eifel timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EifelRtoConfig {
    /// Timer clock granularity; RTOs are rounded up to it, and the minimum is two ticks.
    pub granularity: SimDuration,
    /// Upper bound on the RTO.
    pub max: SimDuration,
    /// RTO before the first sample.
    pub initial: SimDuration,
    /// The sampling rate, which picks the gain.
    pub sampling: Sampling,
}

/// The Eifel estimator, in integer nanoseconds; gains are exact fractions.
#[derive(Clone, Debug)]
pub struct EifelRto {
    cfg: EifelRtoConfig,
    srtt: Option<i64>,
    rttvar: i64,
    last_sample: i64,
    /// FLIGHT in segments, from the latest window the sender reported.
    flight: i64,
    rto: u64,
    shift: u32,
}

impl EifelRto {
    /// A fresh estimator.
    pub fn new(cfg: EifelRtoConfig) -> Self {
        EifelRto {
            cfg,
            srtt: None,
            rttvar: 0,
            last_sample: 0,
            flight: 2,
            rto: cfg.initial.as_nanos(),
            shift: 0,
        }
    }

    /// GAIN as numerator/denominator.
    fn gain(&self) -> (i64, i64) {
        match self.cfg.sampling {
            Sampling::EveryAck => (1, self.flight),
            Sampling::DelayedAck => (2.min(self.flight), self.flight),
            Sampling::OncePerRtt => (1, 3),
        }
    }

    /// The timer clock's tick in nanoseconds (at least 1).
    pub(super) fn tick(&self) -> u64 {
        self.cfg.granularity.as_nanos().max(1)
    }
}

impl RtoEstimator for EifelRto {
    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        let r = (acked - sent).as_nanos() as i64;
        self.last_sample = r;
        let (num, den) = self.gain();
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(srtt) => {
                let delta = r - srtt;
                self.srtt = Some(srtt + delta * num / den);
                if delta >= 0 {
                    let d = delta - self.rttvar;
                    // Shock absorber: a falling variation moves with GAIN².
                    let step = if d >= 0 {
                        d * num / den
                    } else {
                        d * num * num / (den * den)
                    };
                    self.rttvar += step;
                }
            }
        }
        let srtt = self.srtt.unwrap_or(r);
        let raw = srtt + self.rttvar * den / num;
        let floor = (2 * self.tick()).max(self.last_sample as u64);
        let rto = (raw.max(0) as u64).max(floor);
        // Round up to the timer clock.
        self.rto = rto.div_ceil(self.tick()) * self.tick();
        self.shift = 0;
    }

    fn on_timeout(&mut self) {
        self.shift = (self.shift + 1).min(12);
    }

    fn deadline(&self, now: SimTime) -> SimTime {
        now + self.current()
    }

    fn current(&self) -> SimDuration {
        let backed = self.rto.saturating_mul(1 << self.shift);
        SimDuration(backed.min(self.cfg.max.as_nanos()))
    }

    fn backoff_shift(&self) -> u32 {
        self.shift
    }

    fn observe_window(&mut self, cwnd: u32, ssthresh: u32, mss: u32) {
        let mss = mss.max(1);
        self.flight = i64::from((ssthresh / mss).max(cwnd / mss / 2)) + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(sampling: Sampling) -> EifelRto {
        EifelRto::new(EifelRtoConfig {
            granularity: SimDuration::from_millis(1),
            max: SimDuration::from_secs(64),
            initial: SimDuration::from_secs(3),
            sampling,
        })
    }

    fn sample(e: &mut EifelRto, ms: u64) {
        e.on_sample(SimTime::ZERO, SimTime(ms * 1_000_000));
    }

    #[test]
    fn falling_rtt_never_raises_the_rto() {
        // Ludwig2000 §5.4.1 (RT6): no RTO increase on a negative DELTA, unlike TCP-Lite.
        let mut e = est(Sampling::EveryAck);
        e.observe_window(10 * 1000, 10 * 1000, 1000);
        for ms in [400, 420, 440, 460, 480, 500] {
            sample(&mut e, ms);
        }
        let mut before = e.current();
        for ms in [300, 250, 200, 200, 200] {
            sample(&mut e, ms);
            assert!(e.current() <= before, "RTO rose on a falling RTT");
            before = e.current();
        }
    }

    #[test]
    fn sudden_rise_after_a_constant_rtt_gives_the_new_rtt() {
        // §5.4.2: after a long constant RTT (RTTVAR ~ 0), RTO_E = SRTT_E + DELTA_E: the updated
        // SRTT (100 + 50/5 = 110) plus the whole rise (RTTVAR = 50/5, times 1/GAIN = 5): 160 ms,
        // just above the new RTT.
        let mut e = est(Sampling::EveryAck);
        e.observe_window(4 * 1000, 4 * 1000, 1000); // FLIGHT = 5, GAIN = 1/5
        for _ in 0..200 {
            sample(&mut e, 100);
        }
        sample(&mut e, 150);
        let rto = e.current().as_nanos() as f64 / 1e6;
        assert!((159.0..=161.0).contains(&rto), "RTO {rto} ms");
    }

    #[test]
    fn minimum_is_two_ticks_and_the_latest_sample_and_backoff_doubles() {
        let mut e = est(Sampling::OncePerRtt);
        for _ in 0..50 {
            sample(&mut e, 1);
        }
        assert_eq!(e.current(), SimDuration::from_millis(2));
        sample(&mut e, 40);
        assert!(e.current() >= SimDuration::from_millis(40));
        let base = e.current();
        e.on_timeout();
        assert_eq!(e.current(), base.saturating_mul(2));
    }
}
