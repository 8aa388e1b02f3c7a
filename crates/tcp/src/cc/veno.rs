//! TCP Veno (Fu & Liew, IEEE JSAC 21(2), 2003; eln-llelsn spec §4.7, checked against Linux
//! `tcp_veno.c`): Reno, with the backlog Vegas would estimate deciding whether a loss was
//! congestive.
//!
//! `N = cwnd · (RTT − BaseRTT) / RTT` segments are queued in the network (BaseRTT the smallest
//! RTT seen, RTT the latest sample). With `N < β` (3 segments) the connection is in the
//! non-congestive state: a fast retransmit takes the loss for a random one and cuts the window
//! by a fifth (`ssthresh = max(4/5 · cwnd, 2 MSS)`), and congestion avoidance grows as Reno's.
//! With `N ≥ β` a fast retransmit halves as Reno's does and congestion avoidance grows by one
//! segment every two round trips (Reno's increase on every other ACK). Slow start and timeouts
//! are Reno's; until the first RTT sample Veno is Reno.
//!
//! Deliberate deviation: we take RTT as the latest sample (the sender's per-ACK rate samples,
//! [`RateSample`]) and compute N on every ACK. Linux's `tcp_veno_cong_avoid` takes the least
//! sample since its previous call (its "min RTT within the last RTT" is reset at the end of
//! every call, so on a cwnd-limited path it is the current ACK's), and returns before computing
//! N, and without growing cwnd, while the connection is not cwnd-limited
//! (`tcp_is_cwnd_limited`); here cwnd grows and N follows it on a receiver-limited path
//! (docs/modern.md).

use super::{AckSample, CongestionControl, CongestionEvent, RateSample, RenoCc, RenoFlavor};
use engine::SimDuration;

/// Veno's backlog threshold β in segments (the paper's and Linux's default).
pub const VENO_BETA: u32 = 3;

/// Veno congestion control.
#[derive(Clone, Debug)]
pub struct VenoCc {
    reno: RenoCc,
    mss: u32,
    base_rtt: Option<SimDuration>,
    rtt: Option<SimDuration>,
    /// In the congestive state congestion avoidance grows on every other ACK only.
    skip: bool,
}

impl VenoCc {
    /// Veno over RFC 5681 Reno, for segments of `mss` bytes.
    pub fn new(mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        VenoCc {
            reno: RenoCc::new(RenoFlavor::Rfc5681, mss, initial_cwnd, max_cwnd),
            mss,
            base_rtt: None,
            rtt: None,
            skip: false,
        }
    }

    /// The backlog estimate N in segments, in millisegments (None before an RTT sample).
    pub fn backlog_milli(&self) -> Option<u64> {
        let (base, rtt) = (self.base_rtt?, self.rtt?);
        let cwnd_milli = u64::from(self.reno.cwnd()) * 1000 / u64::from(self.mss.max(1));
        let extra = rtt.as_nanos().saturating_sub(base.as_nanos());
        Some(cwnd_milli * extra / rtt.as_nanos().max(1))
    }

    /// Whether the connection is in the non-congestive state (N < β).
    fn random_loss(&self) -> bool {
        self.backlog_milli()
            .is_some_and(|n| n < u64::from(VENO_BETA) * 1000)
    }
}

impl CongestionControl for VenoCc {
    super::reno_window_delegates!();
    fn name(&self) -> &'static str {
        "veno"
    }
    fn on_ack(&mut self, ack: AckSample) {
        let avoidance = self.reno.cwnd() >= self.reno.ssthresh();
        if avoidance && self.backlog_milli().is_some() && !self.random_loss() {
            // Congestive state: Reno's increase on every other ACK.
            self.skip = !self.skip;
            if self.skip {
                return;
            }
        }
        self.reno.on_ack(ack);
    }
    fn on_congestion(&mut self, event: CongestionEvent) {
        let (before, random) = (self.reno.cwnd(), self.random_loss());
        self.reno.on_congestion(event);
        if let (CongestionEvent::FastRetransmit { dupacks, .. }, true) = (event, random) {
            // A random loss: cut by a fifth instead of a half.
            let s = (before / 5 * 4).max(2 * self.mss);
            self.reno.undo(s + dupacks * self.mss, s);
        }
    }
    fn wants_rate_samples(&self) -> bool {
        true
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        if let Some(r) = rs.rtt {
            self.base_rtt = Some(self.base_rtt.map_or(r, |b| b.min(r)));
            self.rtt = Some(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::test_kit::{sample, three_dupacks, MSS};
    use engine::SimTime;

    /// A sample of a packet whose round trip was `ms`, delivering nothing.
    fn rtt(ms: u64) -> RateSample {
        sample(SimTime::ZERO, 0, SimDuration::from_millis(ms))
    }

    #[test]
    fn a_small_backlog_cuts_by_a_fifth_a_large_one_halves() {
        // cwnd 20 segments, BaseRTT 100 ms, RTT 110 ms: N = 20 · 10/110 = 1.818 < 3.
        let mut v = VenoCc::new(MSS, 20 * MSS, 1 << 30);
        v.on_rate_sample(&rtt(100));
        v.on_rate_sample(&rtt(110));
        assert_eq!(v.backlog_milli(), Some(1818));
        three_dupacks(&mut v);
        assert_eq!((v.ssthresh(), v.cwnd()), (16 * MSS, 19 * MSS));
        // cwnd 20, RTT 150 ms: N = 20 · 50/150 = 6.67 >= 3: Reno's halving.
        let mut v = VenoCc::new(MSS, 20 * MSS, 1 << 30);
        v.on_rate_sample(&rtt(100));
        v.on_rate_sample(&rtt(150));
        assert_eq!(v.backlog_milli(), Some(6666));
        three_dupacks(&mut v);
        assert_eq!((v.ssthresh(), v.cwnd()), (10 * MSS, 13 * MSS));
        // Before any RTT sample: Reno.
        let mut v = VenoCc::new(MSS, 20 * MSS, 1 << 30);
        three_dupacks(&mut v);
        assert_eq!(v.ssthresh(), 10 * MSS);
    }

    #[test]
    fn congestive_state_grows_on_every_other_ack() {
        let ack = AckSample {
            acked_bytes: MSS,
            flight_bytes: 20 * MSS,
            now: SimTime::ZERO,
            srtt: SimDuration::from_millis(100),
            rtt: None,
            ack: 0,
            snd_nxt: 0,
        };
        let grow = |rtt_ms: u64| {
            let mut v = VenoCc::new(MSS, 20 * MSS, 1 << 30);
            v.undo(20 * MSS, 20 * MSS); // congestion avoidance
            v.on_rate_sample(&rtt(100));
            v.on_rate_sample(&rtt(rtt_ms));
            for _ in 0..20 {
                v.on_ack(ack);
            }
            v.cwnd() - 20 * MSS
        };
        let calm = grow(101);
        let congested = grow(200);
        assert!(calm >= 900, "about one segment per window: {calm}");
        assert!(
            congested * 2 <= calm + 50 && congested > 0,
            "{congested} vs {calm}"
        );
    }
}
