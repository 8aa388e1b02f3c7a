//! A burst pacer for the Eifel response (Ludwig2000 §5.2.2, spec §3.1.2 and §3.1.4, knob
//! `eifel.burst_pacer = pace_over_srtt` [P]). Restoring cwnd after a spurious fast retransmit
//! lets "an undesirable packet burst" out at once (Fig 5-6); the dissertation calls pacing it
//! an orthogonal problem: "Ideally, the Eifel algorithm should be complemented with some form
//! of a 'burst pacer'". This one spreads the segments the restore released evenly over one
//! smoothed round-trip time.

use engine::{SimDuration, SimTime};

/// Pacing of the next `left` transmissions, one every `interval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pacer {
    next: SimTime,
    interval: SimDuration,
    left: u32,
}

impl Pacer {
    /// Pace a burst of `segments` over `srtt` from `now` (the first goes at once); `None` when
    /// there is nothing to spread (one segment, or no RTT estimate yet).
    pub(crate) fn over(now: SimTime, srtt: SimDuration, segments: u32) -> Option<Pacer> {
        if segments <= 1 || srtt.as_nanos() == 0 {
            return None;
        }
        Some(Pacer {
            next: now,
            interval: SimDuration(srtt.as_nanos() / u64::from(segments)),
            left: segments,
        })
    }

    /// When the next transmission may go.
    pub(crate) fn next(&self) -> SimTime {
        self.next
    }

    /// Whether a transmission may go at `now`.
    pub(crate) fn ready(&self, now: SimTime) -> bool {
        now >= self.next
    }

    /// A transmission went at `now`; `false` once the burst is spread.
    pub(crate) fn sent(&mut self, now: SimTime) -> bool {
        self.left = self.left.saturating_sub(1);
        self.next = now + self.interval;
        self.left > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_spread_evenly_over_one_srtt() {
        let ms = |m: u64| SimTime(m * 1_000_000);
        let mut p = Pacer::over(ms(100), SimDuration::from_millis(40), 4).unwrap();
        let mut times = Vec::new();
        let mut now = ms(100);
        loop {
            assert!(p.ready(now));
            times.push(now);
            if !p.sent(now) {
                break;
            }
            assert!(!p.ready(now), "not twice at once");
            now = p.next();
        }
        assert_eq!(times, vec![ms(100), ms(110), ms(120), ms(130)]);
        assert!(Pacer::over(ms(0), SimDuration::from_millis(40), 1).is_none());
        assert!(Pacer::over(ms(0), SimDuration(0), 5).is_none());
    }
}
