//! RFC 6298 retransmission timer with a fine clock (the `modern` profile).
//!
//! RTO = SRTT + max(G, 4·RTTVAR) (RFC 6298 §2.3), clamped to [min, max]; the first sample sets
//! SRTT = R, RTTVAR = R/2 (§2.2); backoff doubles the RTO (§5.5) until a new sample (§5.7 with
//! Karn's rule). Deliberate deviation: the minimum is a knob (Linux uses 200 ms, the RFC 1 s).

use super::RtoEstimator;
use engine::{SimDuration, SimTime};

/// Knobs of the RFC 6298 timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rfc6298Config {
    /// Lower bound on the RTO.
    pub min: SimDuration,
    /// Upper bound on the RTO (RFC 6298 §2.5: at least 60 s).
    pub max: SimDuration,
    /// RTO before the first sample (RFC 6298 §2.1: 1 s).
    pub initial: SimDuration,
    /// Clock granularity G.
    pub granularity: SimDuration,
}

/// The RFC 6298 estimator, in integer nanoseconds.
#[derive(Clone, Debug)]
pub struct Rfc6298Rto {
    cfg: Rfc6298Config,
    srtt: Option<u64>,
    rttvar: u64,
    shift: u32,
}

impl Rfc6298Rto {
    /// A fresh estimator.
    pub fn new(cfg: Rfc6298Config) -> Self {
        Rfc6298Rto {
            cfg,
            srtt: None,
            rttvar: 0,
            shift: 0,
        }
    }

    fn base(&self) -> u64 {
        match self.srtt {
            None => self.cfg.initial.as_nanos(),
            Some(s) => s + self.cfg.granularity.as_nanos().max(4 * self.rttvar),
        }
    }
}

impl RtoEstimator for Rfc6298Rto {
    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        let r = (acked - sent).as_nanos();
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(s) => {
                // RFC 6298 §2.3 with alpha = 1/8, beta = 1/4.
                self.rttvar = (3 * self.rttvar + s.abs_diff(r)) / 4;
                self.srtt = Some((7 * s + r) / 8);
            }
        }
        self.shift = 0;
    }

    fn on_timeout(&mut self) {
        self.shift = (self.shift + 1).min(30);
    }

    fn deadline(&self, now: SimTime) -> SimTime {
        now + self.current()
    }

    fn current(&self) -> SimDuration {
        let rto = self
            .base()
            .clamp(self.cfg.min.as_nanos(), self.cfg.max.as_nanos());
        let backed = rto.saturating_mul(1u64 << self.shift.min(30));
        SimDuration(backed.min(self.cfg.max.as_nanos()))
    }

    fn backoff_shift(&self) -> u32 {
        self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> Rfc6298Config {
        Rfc6298Config {
            min: SimDuration::from_millis(200),
            max: SimDuration::from_secs(60),
            initial: SimDuration::from_secs(1),
            granularity: SimDuration::from_millis(1),
        }
    }

    #[test]
    fn first_sample_and_minimum() {
        let mut r = Rfc6298Rto::new(cfg());
        assert_eq!(r.current(), SimDuration::from_secs(1));
        r.on_sample(SimTime(0), SimTime(100_000_000));
        // 100 ms + 4 · 50 ms = 300 ms.
        assert_eq!(r.current(), SimDuration::from_millis(300));
        r.on_sample(SimTime(0), SimTime(100_000_000));
        // rttvar = 3/4 · 50 = 37.5 ms; 100 + 150 = 250 ms.
        assert_eq!(r.current(), SimDuration::from_millis(250));
        let mut lan = Rfc6298Rto::new(cfg());
        lan.on_sample(SimTime(0), SimTime(10_000_000));
        assert_eq!(
            lan.current(),
            SimDuration::from_millis(200),
            "clamped to the minimum"
        );
    }

    #[test]
    fn backoff_doubles_up_to_max() {
        let mut r = Rfc6298Rto::new(cfg());
        r.on_sample(SimTime(0), SimTime(100_000_000));
        r.on_timeout();
        assert_eq!(r.current(), SimDuration::from_millis(600));
        for _ in 0..20 {
            r.on_timeout();
        }
        assert_eq!(r.current(), SimDuration::from_secs(60));
        assert_eq!(
            r.deadline(SimTime(5)),
            SimTime(5) + SimDuration::from_secs(60)
        );
    }
}
