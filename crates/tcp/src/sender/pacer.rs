//! A burst pacer for the Eifel response (Ludwig2000 §5.2.2, spec §3.1.2 and §3.1.4, knob
//! `eifel.burst_pacer = pace_over_srtt` [P]). Restoring cwnd after a spurious fast retransmit
//! lets "an undesirable packet burst" out at once (Fig 5-6); the dissertation calls pacing it
//! an orthogonal problem: "Ideally, the Eifel algorithm should be complemented with some form
//! of a 'burst pacer'".
//!
//! This one releases the window the restore gave back one segment at a time, evenly over one
//! smoothed RTT: of the `n` segments the restore would have sent at once, `n − k` are withheld
//! from the usable window until the `k`-th release. The ACK clock runs as usual meanwhile, so
//! sends it allows are not held back and no second burst builds up behind the pacer.

use engine::{SimDuration, SimTime};

/// The release of a restored window, one segment every `interval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pacer {
    start: SimTime,
    interval: SimDuration,
    /// Segments of the burst.
    burst: u32,
    /// Segments released so far (the first at `start`).
    released: u32,
    mss: u32,
}

impl Pacer {
    /// Spread a burst of `segments` over `srtt` from `now` (one released at once); `None` when
    /// there is nothing to spread (one segment, or no RTT estimate yet).
    pub(crate) fn over(now: SimTime, srtt: SimDuration, segments: u32, mss: u32) -> Option<Pacer> {
        if segments <= 1 || srtt.as_nanos() == 0 {
            return None;
        }
        Some(Pacer {
            start: now,
            interval: SimDuration(srtt.as_nanos() / u64::from(segments)),
            burst: segments,
            released: 1,
            mss,
        })
    }

    /// Release what is due at `now`; `false` once the whole burst is released.
    pub(crate) fn advance(&mut self, now: SimTime) -> bool {
        let elapsed = (now - self.start).as_nanos() / self.interval.as_nanos().max(1);
        let due = 1 + u32::try_from(elapsed).unwrap_or(u32::MAX);
        self.released = self.released.max(due.min(self.burst));
        self.released < self.burst
    }

    /// Bytes of the usable window still withheld.
    pub(crate) fn withheld(&self) -> u32 {
        (self.burst - self.released) * self.mss
    }

    /// When the next segment is released.
    pub(crate) fn next(&self) -> SimTime {
        self.start + self.interval.saturating_mul(u64::from(self.released))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_released_one_segment_per_interval_over_one_srtt() {
        let ms = |m: u64| SimTime(m * 1_000_000);
        let mut p = Pacer::over(ms(100), SimDuration::from_millis(40), 4, 1000).unwrap();
        assert_eq!((p.withheld(), p.next()), (3000, ms(110)), "one at once");
        assert!(p.advance(ms(109)));
        assert_eq!(p.withheld(), 3000);
        assert!(p.advance(ms(110)));
        assert_eq!((p.withheld(), p.next()), (2000, ms(120)));
        // A late wake-up releases everything due since.
        assert!(!p.advance(ms(135)));
        assert_eq!(p.withheld(), 0);
        assert!(Pacer::over(ms(0), SimDuration::from_millis(40), 1, 1000).is_none());
        assert!(Pacer::over(ms(0), SimDuration(0), 5, 1000).is_none());
    }
}
