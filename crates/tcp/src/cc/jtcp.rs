//! JTCP, jitter-based TCP (Wu & Chen, IEEE JSAC 22(4), 2004; eln-llelsn spec §4.9): the jitter
//! ratio of consecutive packets tells a congestion loss from a wireless one.
//!
//! `Jr_i = ((R_i − R_{i−1}) − (S_i − S_{i−1})) / (S_i − S_{i−1})` for send times `S` and
//! receive times `R`; the mean over the last `k` samples is compared with `1/cwnd` (cwnd in
//! segments: one more packet queued per window). Three duplicates with a mean above it: the
//! queue is building, a congestion loss, Reno's response. At or below it: a wireless loss, the
//! fast retransmit and Reno's recovery without a window reduction (ssthresh = the window
//! before, so the recovery ends at it). Timeouts and growth are Reno's, as is every loss until
//! a sample exists.
//!
//! Deliberate deviations, each marked (verify) or [GAP] in the spec: `k` is the knob
//! `tcp.jtcp_samples` (8; the spec gives no value); the receive time `R_i` is taken as the
//! ACK's arrival at the sender and the send time `S_i` as that arrival minus the packet's RTT
//! sample (the sender's per-ACK rate samples), so no timestamp option is needed: a constant
//! reverse path cancels in the differences, a queue on it counts as forward jitter. JTCP's use
//! of the ratio to moderate growth and the timeout response is not built.

use super::{AckSample, CongestionControl, CongestionEvent, RateSample, RenoCc, RenoFlavor};
use engine::SimTime;
use std::collections::VecDeque;

/// JTCP congestion control.
#[derive(Clone, Debug)]
pub struct JtcpCc {
    reno: RenoCc,
    mss: u32,
    k: usize,
    ratios: VecDeque<f64>,
    /// (arrival, send time) of the previous sample.
    prev: Option<(SimTime, SimTime)>,
}

impl JtcpCc {
    /// JTCP averaging the last `k` jitter ratios, over RFC 5681 Reno.
    pub fn new(k: u32, mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        JtcpCc {
            reno: RenoCc::new(RenoFlavor::Rfc5681, mss, initial_cwnd, max_cwnd),
            mss,
            k: k.max(1) as usize,
            ratios: VecDeque::new(),
            prev: None,
        }
    }

    /// The mean jitter ratio over the last k samples (None before one).
    pub fn mean_ratio(&self) -> Option<f64> {
        (!self.ratios.is_empty())
            .then(|| self.ratios.iter().sum::<f64>() / self.ratios.len() as f64)
    }

    /// Whether a loss now is judged a congestion loss (mean ratio above 1/cwnd).
    pub fn congestive(&self) -> bool {
        let cwnd = f64::from(self.reno.cwnd()) / f64::from(self.mss.max(1));
        self.mean_ratio().is_none_or(|m| m > 1.0 / cwnd.max(1.0))
    }
}

impl CongestionControl for JtcpCc {
    super::reno_window_delegates!();
    fn name(&self) -> &'static str {
        "jtcp"
    }
    fn on_ack(&mut self, ack: AckSample) {
        self.reno.on_ack(ack);
    }
    fn on_congestion(&mut self, event: CongestionEvent) {
        let before = self.reno.cwnd();
        let congestive = self.congestive();
        self.reno.on_congestion(event);
        if let (CongestionEvent::FastRetransmit { dupacks, .. }, false) = (event, congestive) {
            let s = before.max(2 * self.mss);
            self.reno.undo(before + dupacks * self.mss, s);
        }
    }
    fn wants_rate_samples(&self) -> bool {
        true
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        let Some(rtt) = rs.rtt else {
            return;
        };
        let sent = SimTime(rs.now.as_nanos().saturating_sub(rtt.as_nanos()));
        if let Some((arrived0, sent0)) = self.prev {
            if sent > sent0 {
                let ds = (sent.as_nanos() - sent0.as_nanos()) as f64;
                let dr = rs.now.as_nanos() as f64 - arrived0.as_nanos() as f64;
                self.ratios.push_back((dr - ds) / ds);
                if self.ratios.len() > self.k {
                    self.ratios.pop_front();
                }
            }
        }
        if self.prev.is_none_or(|(_, s0)| sent > s0) {
            self.prev = Some((rs.now, sent));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::test_kit::{sample, three_dupacks, MSS};
    use engine::SimDuration;

    /// An ACK arriving at `t_us` for a packet whose RTT was `rtt_us`.
    fn rs(t_us: u64, rtt_us: u64) -> RateSample {
        sample(
            SimTime(t_us * 1000),
            u64::from(MSS),
            SimDuration(rtt_us * 1000),
        )
    }

    #[test]
    fn jitter_ratios_by_hand_and_the_one_over_cwnd_threshold() {
        let mut j = JtcpCc::new(2, MSS, 10 * MSS, 1 << 30);
        // Sent at 0, 10, 20, 30 ms; RTTs 100, 100, 104, 100 ms.
        j.on_rate_sample(&rs(100_000, 100_000));
        assert_eq!(j.mean_ratio(), None);
        // Jr = ((110 − 100) − (10 − 0))/10 = 0.
        j.on_rate_sample(&rs(110_000, 100_000));
        assert_eq!(j.mean_ratio(), Some(0.0));
        // Jr = ((124 − 110) − 10)/10 = 0.4; mean of the last two = 0.2 > 1/10.
        j.on_rate_sample(&rs(124_000, 104_000));
        assert!((j.mean_ratio().unwrap() - 0.2).abs() < 1e-12);
        assert!(j.congestive());
        three_dupacks(&mut j);
        assert_eq!(j.ssthresh(), 5 * MSS, "congestion: Reno halves");
        // Jr = ((130 − 124) − 10)/10 = −0.4; mean (0.4 − 0.4)/2 = 0 <= 1/cwnd: wireless.
        let mut j = JtcpCc::new(2, MSS, 10 * MSS, 1 << 30);
        for (t, r) in [(100, 100), (110, 100), (124, 104), (130, 100)] {
            j.on_rate_sample(&rs(t * 1000, r * 1000));
        }
        assert!((j.mean_ratio().unwrap()).abs() < 1e-12);
        assert!(!j.congestive());
        three_dupacks(&mut j);
        assert_eq!((j.ssthresh(), j.cwnd()), (10 * MSS, 13 * MSS));
        // No sample: Reno.
        let mut j = JtcpCc::new(2, MSS, 10 * MSS, 1 << 30);
        three_dupacks(&mut j);
        assert_eq!(j.ssthresh(), 5 * MSS);
    }
}
