//! "Ideal BWE" (eln-llelsn spec §4.13, the oracle of the LL-ELSN study's friendliness test,
//! "the ideal BWE scheme which knows the exact available bandwidth and RTT"): Westwood's rule
//! with the ground truth in place of an estimate. After three duplicates
//! `ssthresh = max(2 MSS, rate·RTT)`, `cwnd = min(cwnd, ssthresh)` (plus Reno's inflation); after
//! a timeout the same ssthresh and `cwnd = 1 MSS`; Reno's growth.
//!
//! The oracle is a clean input: `rate` (bytes per second) and `rtt` are given when the part is
//! built (the scenario's `tcp.ideal_bwe_rate`, by default the slowest link on the flow's path,
//! and `tcp.ideal_bwe_rtt`), never measured by the sender. With `tcp.ideal_bwe_available =
//! "live"` the network hands it the spec's [PROPOSAL] (§4.13 (c)) on every ACK, the
//! bottleneck's capacity minus the other flows' rate over the last RTT
//! ([`CongestionControl::on_available_rate`], measured by `net::network::oracle`), and the
//! latest value is the rate of the next congestion event. Without a configured RTT the
//! smallest RTT sample stands in for the propagation RTT.

use super::{bdp_bytes, bwe_response, AckSample, CongestionControl, CongestionEvent, RateSample};
use super::{RenoCc, RenoFlavor};
use engine::SimDuration;

/// The ideal-BWE oracle sender.
#[derive(Clone, Debug)]
pub struct IdealBweCc {
    reno: RenoCc,
    mss: u32,
    /// The available rate, bytes per second.
    rate: u64,
    /// The true round trip, if given.
    rtt: Option<SimDuration>,
    rtt_min: Option<SimDuration>,
}

impl IdealBweCc {
    /// The oracle with the available `rate` (bytes/s) and, if known, the round-trip `rtt`.
    pub fn new(
        rate: u64,
        rtt: Option<SimDuration>,
        mss: u32,
        initial_cwnd: u32,
        max_cwnd: u32,
    ) -> Self {
        IdealBweCc {
            reno: RenoCc::new(RenoFlavor::Rfc5681, mss, initial_cwnd, max_cwnd),
            mss,
            rate,
            rtt,
            rtt_min: None,
        }
    }

    /// `max(2·MSS, rate·RTT)` in bytes, once an RTT is known.
    pub fn bwe_ssthresh(&self) -> Option<u32> {
        let rtt = self.rtt.or(self.rtt_min)?;
        Some(bdp_bytes(self.rate as f64, rtt, self.mss))
    }
}

impl CongestionControl for IdealBweCc {
    super::reno_window_delegates!();
    fn name(&self) -> &'static str {
        "ideal-bwe"
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
        // Only for the minimum RTT, when no RTT was given.
        self.rtt.is_none()
    }
    fn on_available_rate(&mut self, bytes_per_s: u64) {
        self.rate = bytes_per_s;
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        if let Some(r) = rs.rtt {
            self.rtt_min = Some(self.rtt_min.map_or(r, |m| m.min(r)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    #[test]
    fn the_given_rate_times_the_given_rtt() {
        // 1.5 Mb/s = 187 500 B/s over 80 ms: 15 000 bytes.
        let mut c = IdealBweCc::new(
            187_500,
            Some(SimDuration::from_millis(80)),
            MSS,
            40 * MSS,
            1 << 30,
        );
        assert_eq!(c.bwe_ssthresh(), Some(15_000));
        assert!(!c.wants_rate_samples());
        c.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 40 * MSS,
            peer_window: 1 << 30,
            dupacks: 3,
        });
        assert_eq!((c.ssthresh(), c.cwnd()), (15_000, 18_000));
        // A tiny rate still leaves two segments.
        let c = IdealBweCc::new(1, Some(SimDuration::from_millis(80)), MSS, MSS, 1 << 30);
        assert_eq!(c.bwe_ssthresh(), Some(2 * MSS));
        // The network's live ground truth replaces the rate: 375 000 B/s over 80 ms.
        let mut live = IdealBweCc::new(
            187_500,
            Some(SimDuration::from_millis(80)),
            MSS,
            40 * MSS,
            1 << 30,
        );
        live.on_available_rate(375_000);
        assert_eq!(live.bwe_ssthresh(), Some(30_000));
        live.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 40 * MSS,
            peer_window: 1 << 30,
            dupacks: 3,
        });
        assert_eq!(live.ssthresh(), 30_000);
        // Without a given RTT: Reno until a sample.
        let c = IdealBweCc::new(187_500, None, MSS, MSS, 1 << 30);
        assert_eq!(c.bwe_ssthresh(), None);
    }
}
