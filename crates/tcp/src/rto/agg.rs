//! RTO_AGG, the self-training aggressive timer of Ludwig2000 §5.4.6 (spec §3.4):
//!
//! ```text
//! CYCLE   = 3/8 · MAXCWND²                 segments sent in the last congestion-avoidance cycle
//! AGG     = AGG · (1 − k/CYCLE)             for each valid RTT sample
//! AGG     = min(AGG + (1 − AGG)/2, 1)       for each spurious timeout Eifel detects
//! RTO_AGG = AGG · RTO_E
//! ```
//!
//! The RTO converges towards the RTT until a timeout turns out spurious, then backs off
//! halfway to the Eifel timer's value: with Eifel, underestimating the RTT costs "a single
//! spurious retransmission" in the common case. k = 0.1 shrinks AGG by about 10% per cycle;
//! the dissertation's model figure (Fig 5-18) uses k = 0.05 and says more research is needed
//! to choose it. Choices the source leaves open [P]: AGG starts at 1; MAXCWND is cwnd (in
//! segments) just before the last congestion signal (a fall of ssthresh), the current cwnd
//! before the first; RTO_AGG is rounded up to the timer clock and is at least one tick.
//! AGG is kept in millionths, so the arithmetic stays in integers.

use super::{EifelRto, EifelRtoConfig, RtoEstimator};
use engine::{SimDuration, SimTime};

/// 1.0 in the millionths AGG and k are kept in.
pub const AGG_ONE: u64 = 1_000_000;

/// Knobs of RTO_AGG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggRtoConfig {
    /// The Eifel timer it scales.
    pub eifel: EifelRtoConfig,
    /// k in millionths (0 < k < 1 000 000; 0.1 = 100 000).
    pub k: u64,
}

/// The Eifel timer scaled by the self-training factor AGG.
#[derive(Clone, Debug)]
pub struct AggRto {
    inner: EifelRto,
    k: u64,
    /// AGG in millionths.
    agg: u64,
    /// MAXCWND in segments (0 until known).
    max_cwnd: u64,
    /// The last window reported, to find the cwnd before a congestion signal.
    last: Option<(u64, u32)>,
    /// MAXCWND given, not learnt from the windows (the timer model's W).
    pinned: bool,
}

impl AggRto {
    /// A fresh estimator with AGG = 1.
    pub fn new(cfg: AggRtoConfig) -> Self {
        AggRto {
            inner: EifelRto::new(cfg.eifel),
            k: cfg.k,
            agg: AGG_ONE,
            max_cwnd: 0,
            last: None,
            pinned: false,
        }
    }

    /// The same with MAXCWND fixed at `segments` (at least 1): Fig 5-18's model is "configured
    /// to a maximum of 26 (= MAXCWND) for the flow's load" (§5.4.6), where every cycle ends at
    /// the same load and no window falls to signal it.
    pub fn with_max_cwnd(mut self, segments: u32) -> Self {
        self.max_cwnd = u64::from(segments.max(1));
        self.pinned = true;
        self
    }

    /// AGG in millionths.
    pub fn agg(&self) -> u64 {
        self.agg
    }
}

impl RtoEstimator for AggRto {
    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        self.inner.on_sample(sent, acked);
        // AGG · (1 − k/CYCLE) with CYCLE = 3/8 · MAXCWND² = 3·MAXCWND²/8.
        let m = u128::from(self.max_cwnd.max(1));
        let cut = u128::from(self.agg) * u128::from(self.k) * 8 / (u128::from(AGG_ONE) * 3 * m * m);
        self.agg = self.agg.saturating_sub(cut as u64).max(1);
    }

    fn on_timeout(&mut self) {
        self.inner.on_timeout();
    }

    fn on_spurious_timeout(&mut self) {
        self.agg = (self.agg + (AGG_ONE - self.agg) / 2).min(AGG_ONE);
    }

    fn deadline(&self, now: SimTime) -> SimTime {
        now + self.current()
    }

    fn current(&self) -> SimDuration {
        let scaled = u128::from(self.inner.current().as_nanos()) * u128::from(self.agg)
            / u128::from(AGG_ONE);
        let tick = self.inner.tick();
        let rounded = (scaled as u64).div_ceil(tick) * tick;
        SimDuration(rounded.max(tick))
    }

    fn backoff_shift(&self) -> u32 {
        self.inner.backoff_shift()
    }

    fn observe_window(&mut self, cwnd: u32, ssthresh: u32, mss: u32) {
        self.inner.observe_window(cwnd, ssthresh, mss);
        let segs = u64::from(cwnd / mss.max(1));
        match self.last {
            _ if self.pinned => {}
            Some((before, old)) if ssthresh < old => self.max_cwnd = before,
            _ if self.max_cwnd == 0 => self.max_cwnd = segs,
            _ => {}
        }
        self.last = Some((segs, ssthresh));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rto::Sampling;

    fn est(k: u64) -> AggRto {
        AggRto::new(AggRtoConfig {
            eifel: EifelRtoConfig {
                granularity: SimDuration::from_millis(1),
                max: SimDuration::from_secs(64),
                initial: SimDuration::from_secs(3),
                sampling: Sampling::EveryAck,
            },
            k,
        })
    }

    fn ms(m: u64) -> SimTime {
        SimTime(m * 1_000_000)
    }

    #[test]
    fn agg_decays_by_k_per_cycle_and_jumps_halfway_back_on_a_spurious_timeout() {
        // MAXCWND = 4 segments: CYCLE = 3/8 · 16 = 6 samples; k = 0.3 → 5% per sample.
        let mut r = est(300_000);
        r.observe_window(4 * 1000, 65535, 1000);
        r.on_sample(ms(0), ms(100));
        assert_eq!(r.agg(), 950_000);
        r.on_sample(ms(100), ms(200));
        assert_eq!(r.agg(), 902_500);
        // RTO_AGG = AGG · RTO_E, on the 1 ms clock.
        let e = r.inner.current().as_nanos();
        assert_eq!(
            r.current().as_nanos(),
            (e * 902_500 / AGG_ONE).div_ceil(1_000_000) * 1_000_000
        );
        r.on_spurious_timeout();
        assert_eq!(r.agg(), 951_250);
    }

    #[test]
    fn maxcwnd_is_the_window_before_the_last_congestion_signal() {
        let mut r = est(100_000);
        r.observe_window(10_000, 65535, 1000);
        assert_eq!(r.max_cwnd, 10, "before any signal: the current cwnd");
        r.observe_window(20_000, 65535, 1000);
        r.observe_window(10_000, 10_000, 1000); // halved: the signal came after cwnd 20
        assert_eq!(r.max_cwnd, 20);
        r.observe_window(15_000, 10_000, 1000);
        assert_eq!(r.max_cwnd, 20, "growth alone is no signal");
    }

    #[test]
    fn a_pinned_maxcwnd_ignores_the_windows() {
        // MAXCWND 26: CYCLE = 3/8 · 676 = 253.5 samples; k = 0.05 takes 0.05/253.5 a sample.
        let mut r = est(50_000).with_max_cwnd(26);
        r.observe_window(13_000, 13_000, 1000);
        r.observe_window(26_000, 13_000, 1000);
        r.observe_window(13_000, 6_500, 1000);
        assert_eq!(r.max_cwnd, 26);
        r.on_sample(ms(0), ms(100));
        assert_eq!(
            r.agg(),
            AGG_ONE - 50_000 * 8 * AGG_ONE / (3 * 676 * AGG_ONE)
        );
    }

    #[test]
    fn the_rto_never_falls_below_one_tick() {
        let mut r = est(999_999);
        r.observe_window(1000, 65535, 1000);
        for i in 0..200 {
            r.on_sample(ms(i), ms(i + 1));
        }
        assert!(r.current() >= SimDuration::from_millis(1));
        assert!(r.agg() >= 1);
    }
}
