//! Linux's retransmission timer (net/ipv4/tcp_input.c `tcp_rtt_estimator`, `tcp_set_rto`;
//! include/net/tcp.h `TCP_RTO_MIN` = 200 ms, `TCP_RTO_MAX` = 120 s, `TCP_TIMEOUT_INIT` = 1 s),
//! for the `linux` profile.
//!
//! SRTT and the mean deviation follow RFC 6298's gains (1/8, 1/4), but the minimum applies to
//! the variance term: Linux keeps `rttvar` at least `tcp_rto_min`, so `RTO = SRTT + max(4·
//! RTTVAR, rto_min)`, at least SRTT + 200 ms, where RFC 6298 with a 200 ms minimum gives
//! `max(SRTT + 4·RTTVAR, 200 ms)`. Backoff doubles up to the maximum until the next sample.
//!
//! Deliberate deviation (docs/modern.md): Linux's per-round `mdev_max` bookkeeping (the
//! deviation may fall only once per round trip) is not modelled; the deviation decays per
//! sample as RFC 6298's.

use super::RtoEstimator;
use engine::{SimDuration, SimTime};

/// The Linux timer, in integer nanoseconds.
#[derive(Clone, Debug)]
pub struct LinuxRto {
    min: u64,
    max: u64,
    initial: u64,
    srtt: Option<u64>,
    rttvar: u64,
    shift: u32,
}

impl LinuxRto {
    /// A timer with the minimum of the variance term `min` (200 ms), the maximum RTO `max`
    /// (120 s) and the RTO before any sample `initial` (1 s).
    pub fn new(min: SimDuration, max: SimDuration, initial: SimDuration) -> Self {
        LinuxRto {
            min: min.as_nanos(),
            max: max.as_nanos(),
            initial: initial.as_nanos(),
            srtt: None,
            rttvar: 0,
            shift: 0,
        }
    }
}

impl RtoEstimator for LinuxRto {
    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        let r = (acked - sent).as_nanos();
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(s) => {
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
        let base = match self.srtt {
            None => self.initial,
            Some(s) => s + (4 * self.rttvar).max(self.min),
        };
        let backed = base.saturating_mul(1u64 << self.shift.min(30));
        SimDuration(backed.min(self.max))
    }

    fn backoff_shift(&self) -> u32 {
        self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: a 10 ms path. RFC 6298 with a 200 ms minimum gives max(10 + 4·5, 200) = 200
    /// ms; Linux gives 10 + max(20, 200) = 210 ms. A 100 ms path with 50 ms deviation: 100 +
    /// max(200, 200) = 300 ms either way; the first backoff doubles it.
    #[test]
    fn the_minimum_applies_to_the_variance_term() {
        let ms = SimDuration::from_millis;
        let mut r = LinuxRto::new(
            ms(200),
            SimDuration::from_secs(120),
            SimDuration::from_secs(1),
        );
        assert_eq!(r.current(), ms(1000));
        r.on_sample(SimTime(0), SimTime(10_000_000));
        assert_eq!(r.current(), ms(210));
        let mut r = LinuxRto::new(
            ms(200),
            SimDuration::from_secs(120),
            SimDuration::from_secs(1),
        );
        r.on_sample(SimTime(0), SimTime(100_000_000));
        assert_eq!(r.current(), ms(300));
        r.on_timeout();
        assert_eq!((r.current(), r.backoff_shift()), (ms(600), 1));
        for _ in 0..20 {
            r.on_timeout();
        }
        assert_eq!(r.current(), SimDuration::from_secs(120));
    }
}
