//! TIBET, Time Intervals based Bandwidth Estimation Technique (Capone, Fratta, Martignon,
//! IEEE TMC 3(2), 2004; eln-llelsn spec §4.10): a Westwood-style sender whose bandwidth
//! estimate low-pass filters the packet lengths and the inter-arrival times separately and
//! divides them:
//!
//! ```text
//! avg_len = α·avg_len + (1−α)·L_k          (bytes the k-th ACK newly delivered)
//! avg_int = α·avg_int + (1−α)·(t_k − t_{k−1})
//! BWE     = avg_len / avg_int
//! ```
//!
//! with α = 0.99 (the spec's "close to 1", marked (verify): the knob `tcp.tibet_alpha`). Both
//! averages start at zero, so their ratio is unbiased from the first interval (each carries the
//! same factor 1 − α^k). Three duplicates: `ssthresh = max(2 MSS, BWE·RTT_min)`,
//! `cwnd = min(cwnd, ssthresh)` (plus Reno's inflation); a timeout: the same ssthresh,
//! `cwnd = 1 MSS`; Reno's growth, and Reno's responses before the first estimate.
//!
//! Samples are the ACKs that deliver data (cumulatively or selectively); a plain duplicate
//! neither adds a length nor closes an interval. Deliberate deviation: the later time-constant
//! filter (`α_k = exp(−Δ_k/T)`) is not built.
//!
//! [`TibetCc::with_max_gap`] caps each inter-arrival time the interval filter takes (off by
//! default; not TIBET's: a counterfactual of the LL-ELSN reproduction, docs/llelsn.md
//! "tibet-idle-gap"): the filter then no longer counts a timeout's idle wait in full.

use super::{bdp_bytes, bwe_response, AckSample, CongestionControl, CongestionEvent, RateSample};
use super::{RenoCc, RenoFlavor};
use engine::{SimDuration, SimTime};

/// One in α's fixed-point scale (α is given in millionths).
pub const TIBET_ALPHA_ONE: u32 = 1_000_000;

/// TIBET congestion control.
#[derive(Clone, Debug)]
pub struct TibetCc {
    reno: RenoCc,
    mss: u32,
    alpha: f64,
    avg_len: f64,
    /// Seconds.
    avg_int: f64,
    last: Option<SimTime>,
    rtt_min: Option<SimDuration>,
    /// The longest inter-arrival time the interval filter takes (none: every gap in full).
    max_gap: Option<SimDuration>,
}

impl TibetCc {
    /// TIBET with the filter gain `alpha_ppm` millionths, over RFC 5681 Reno growth.
    pub fn new(alpha_ppm: u32, mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        TibetCc {
            reno: RenoCc::new(RenoFlavor::Rfc5681, mss, initial_cwnd, max_cwnd),
            mss,
            alpha: f64::from(alpha_ppm.min(TIBET_ALPHA_ONE)) / f64::from(TIBET_ALPHA_ONE),
            avg_len: 0.0,
            avg_int: 0.0,
            last: None,
            rtt_min: None,
            max_gap: None,
        }
    }

    /// The same sender whose interval filter takes each inter-arrival time capped at `cap`
    /// (a counterfactual, not the published estimator: a timeout's idle wait then counts as
    /// at most `cap`).
    pub fn with_max_gap(mut self, cap: SimDuration) -> Self {
        self.max_gap = Some(cap);
        self
    }

    /// The bandwidth estimate in bytes per second, once an interval was seen.
    pub fn bwe(&self) -> Option<f64> {
        (self.avg_int > 0.0).then(|| self.avg_len / self.avg_int)
    }

    /// `max(2·MSS, BWE·RTT_min)` in bytes, once both are known.
    pub fn bwe_ssthresh(&self) -> Option<u32> {
        Some(bdp_bytes(self.bwe()?, self.rtt_min?, self.mss))
    }
}

impl CongestionControl for TibetCc {
    super::reno_window_delegates!();
    fn name(&self) -> &'static str {
        "tibet"
    }
    fn on_ack(&mut self, ack: AckSample) {
        self.reno.on_ack(ack);
    }
    fn on_congestion(&mut self, event: CongestionEvent) {
        let before = self.reno.cwnd();
        self.reno.on_congestion(event);
        if let Some(s) = self.bwe_ssthresh() {
            bwe_response(&mut self.reno, event, before, s, self.mss);
        }
    }
    fn wants_rate_samples(&self) -> bool {
        true
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        if let Some(r) = rs.rtt {
            self.rtt_min = Some(self.rtt_min.map_or(r, |m| m.min(r)));
        }
        if rs.acked_sacked == 0 {
            return;
        }
        if let Some(last) = self.last {
            let mut gap = rs.now.saturating_since(last);
            if let Some(cap) = self.max_gap {
                gap = gap.min(cap);
            }
            let gap = gap.as_nanos() as f64 * 1e-9;
            let a = self.alpha;
            self.avg_len = a * self.avg_len + (1.0 - a) * rs.acked_sacked as f64;
            self.avg_int = a * self.avg_int + (1.0 - a) * gap;
        }
        self.last = Some(rs.now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::test_kit::{sample_ms, MSS};

    #[test]
    fn two_filters_by_hand_then_westwoods_rule() {
        // α = 0.5 to keep the numbers short.
        let mut t = TibetCc::new(500_000, MSS, 30 * MSS, 1 << 30);
        t.on_rate_sample(&sample_ms(0, 1000, 50));
        assert_eq!(t.bwe(), None, "no interval yet");
        // 10 ms, 1000 B: len = 500, int = 0.005 s: 100 kB/s.
        t.on_rate_sample(&sample_ms(10, 1000, 50));
        assert!((t.bwe().unwrap() - 100_000.0).abs() < 1e-6);
        // 30 ms, 2000 B: len = 0.5·500 + 0.5·2000 = 1250, int = 0.5·0.005 + 0.5·0.02 = 0.0125.
        t.on_rate_sample(&sample_ms(30, 2000, 40));
        assert!((t.bwe().unwrap() - 100_000.0).abs() < 1e-6);
        // 35 ms, 3000 B: len = 625 + 1500 = 2125, int = 0.00625 + 0.0025 = 0.00875.
        t.on_rate_sample(&sample_ms(35, 3000, 60));
        let bwe = 2125.0 / 0.00875;
        assert!((t.bwe().unwrap() - bwe).abs() < 1e-6);
        // A duplicate with nothing delivered changes nothing.
        t.on_rate_sample(&sample_ms(36, 0, 60));
        assert!((t.bwe().unwrap() - bwe).abs() < 1e-6);
        // ssthresh = 242 857 B/s · 40 ms (RTT_min) = 9714 bytes.
        assert_eq!(t.bwe_ssthresh(), Some(9714));
        t.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 30 * MSS,
            peer_window: 1 << 30,
            dupacks: 3,
        });
        assert_eq!((t.ssthresh(), t.cwnd()), (9714, 9714 + 3 * MSS));
        t.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 0,
            peer_window: 1 << 30,
        });
        assert_eq!((t.ssthresh(), t.cwnd()), (9714, MSS));
    }

    #[test]
    fn a_capped_gap_counts_an_idle_wait_as_the_cap_only() {
        // α = 0.5; 1000 B every 10 ms, then 1000 B after a 1 s idle wait (a timeout's).
        let feed = |t: &mut TibetCc| {
            t.on_rate_sample(&sample_ms(0, 1000, 50));
            t.on_rate_sample(&sample_ms(10, 1000, 50));
            t.on_rate_sample(&sample_ms(1010, 1000, 50));
            t.bwe().unwrap()
        };
        // Uncapped: len = 750, int = 0.5·0.005 + 0.5·1.0 = 0.5025 s.
        let full = feed(&mut TibetCc::new(500_000, MSS, 30 * MSS, 1 << 30));
        assert!((full - 750.0 / 0.5025).abs() < 1e-6);
        // Capped at 100 ms: int = 0.0025 + 0.05 = 0.0525 s.
        let cap = SimDuration::from_millis(100);
        let capped = feed(&mut TibetCc::new(500_000, MSS, 30 * MSS, 1 << 30).with_max_gap(cap));
        assert!((capped - 750.0 / 0.0525).abs() < 1e-6);
        // A gap below the cap is taken in full: the cap changes nothing at 10 ms.
        let mut t = TibetCc::new(500_000, MSS, 30 * MSS, 1 << 30).with_max_gap(cap);
        t.on_rate_sample(&sample_ms(0, 1000, 50));
        t.on_rate_sample(&sample_ms(10, 1000, 50));
        assert!((t.bwe().unwrap() - 100_000.0).abs() < 1e-6);
    }
}
