//! TCP Westwood+ (Grieco & Mascolo, ACM CCR 2004; Mascolo et al., MobiCom 2001; eln-llelsn spec
//! §4.5): Reno's window growth, but after a congestion episode ssthresh is set to the estimated
//! bandwidth times the minimum RTT instead of half the flight, so a random (wireless) loss does
//! not halve a window the path can carry.
//!
//! - Bandwidth samples, one per round trip (Westwood+, against Westwood's per-ACK samples and
//!   their ACK-compression over-estimate): `b_k = D_k / Δ_k`, the bytes acknowledged (cumulatively
//!   or selectively) over an interval of at least one smoothed RTT.
//! - Filter, [`WestwoodFilter`]: `Tustin` (the default, the spec's [PROPOSAL]: ns-3's
//!   `TcpWestwoodPlus`, `BWE_k = 0.9·BWE_{k−1} + 0.1·(b_k + b_{k−1})/2`) or `Linux`
//!   (`tcp_westwood.c`: two cascaded 7/8 EWMAs, a sample once more than max(RTT, 50 ms) passed).
//! - Three duplicate ACKs: `ssthresh = max(2·MSS, BWE·RTT_min)`; `cwnd = min(cwnd, ssthresh)`,
//!   then Reno's fast recovery (plus the duplicates). A timeout: the same ssthresh, `cwnd = 1 MSS`.
//!   Before the first sample the response is Reno's.
//!
//! RTT samples and delivered bytes come from the sender's per-ACK rate samples
//! ([`RateSample`]); the smoothed RTT is this part's own (gain 1/8 over those samples).
//! Deliberate deviation: Linux also counts each duplicate ACK as one delivered segment; we count
//! what the SACK scoreboard reports (`acked_sacked`), and without SACK nothing until the
//! cumulative ACK, as ns-3 does.

use super::{AckSample, CongestionControl, CongestionEvent, RateSample, RenoCc, RenoFlavor};
use engine::{SimDuration, SimTime};

/// The bandwidth filter of Westwood+.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WestwoodFilter {
    /// ns-3's Tustin filter over per-RTT samples (the default).
    Tustin,
    /// Linux's two cascaded EWMAs (gain 7/8), a sample after max(RTT, 50 ms).
    Linux,
}

/// Westwood+ congestion control.
#[derive(Clone, Debug)]
pub struct WestwoodCc {
    reno: RenoCc,
    mss: u32,
    filter: WestwoodFilter,
    /// Bandwidth estimate, bytes per second (None before the first sample).
    bwe: Option<f64>,
    /// The previous raw sample (Tustin) or the first EWMA (Linux).
    prev: f64,
    /// Bytes acknowledged since `since`.
    acked: u64,
    since: Option<SimTime>,
    rtt_min: Option<SimDuration>,
    srtt: Option<SimDuration>,
}

impl WestwoodCc {
    /// Westwood+ over RFC 5681 Reno growth, for segments of `mss` bytes.
    pub fn new(filter: WestwoodFilter, mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        WestwoodCc {
            reno: RenoCc::new(RenoFlavor::Rfc5681, mss, initial_cwnd, max_cwnd),
            mss,
            filter,
            bwe: None,
            prev: 0.0,
            acked: 0,
            since: None,
            rtt_min: None,
            srtt: None,
        }
    }

    /// The bandwidth estimate in bytes per second, once there is one.
    pub fn bwe(&self) -> Option<f64> {
        self.bwe
    }

    /// The smallest RTT seen.
    pub fn rtt_min(&self) -> Option<SimDuration> {
        self.rtt_min
    }

    /// `max(2·MSS, BWE·RTT_min)` in bytes, once both are known.
    pub fn bwe_ssthresh(&self) -> Option<u32> {
        let (b, r) = (self.bwe?, self.rtt_min?);
        let bytes = b * r.as_nanos() as f64 * 1e-9;
        Some((bytes.min(f64::from(u32::MAX)) as u32).max(2 * self.mss))
    }

    /// One bandwidth sample `b` (bytes/s) into the filter.
    fn sample(&mut self, b: f64) {
        self.bwe = Some(match (self.filter, self.bwe) {
            (_, None) => {
                self.prev = b;
                b
            }
            (WestwoodFilter::Tustin, Some(old)) => {
                let est = 0.9 * old + 0.1 * (b + self.prev) / 2.0;
                self.prev = b;
                est
            }
            (WestwoodFilter::Linux, Some(old)) => {
                self.prev = (7.0 * self.prev + b) / 8.0;
                (7.0 * old + self.prev) / 8.0
            }
        });
    }
}

impl CongestionControl for WestwoodCc {
    super::reno_window_delegates!();
    fn name(&self) -> &'static str {
        "westwood+"
    }
    fn on_ack(&mut self, ack: AckSample) {
        self.reno.on_ack(ack);
    }
    fn on_congestion(&mut self, event: CongestionEvent) {
        let before = self.reno.cwnd();
        self.reno.on_congestion(event);
        let Some(s) = self.bwe_ssthresh() else {
            return;
        };
        match event {
            CongestionEvent::FastRetransmit { dupacks, .. } => {
                self.reno.undo(before.min(s) + dupacks * self.mss, s);
            }
            CongestionEvent::Timeout { .. } => self.reno.undo(self.mss, s),
            CongestionEvent::LocalDrop => {}
        }
    }
    fn wants_rate_samples(&self) -> bool {
        true
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        if let Some(r) = rs.rtt {
            self.rtt_min = Some(self.rtt_min.map_or(r, |m| m.min(r)));
            self.srtt = Some(
                self.srtt
                    .map_or(r, |s| SimDuration((7 * s.as_nanos() + r.as_nanos()) / 8)),
            );
        }
        let since = *self.since.get_or_insert(rs.now);
        self.acked += rs.acked_sacked;
        let Some(srtt) = self.srtt else {
            return;
        };
        let interval = match self.filter {
            WestwoodFilter::Tustin => srtt,
            WestwoodFilter::Linux => srtt.max(SimDuration::from_millis(50)),
        };
        let elapsed = rs.now.saturating_since(since);
        if elapsed >= interval && elapsed.as_nanos() > 0 {
            let b = self.acked as f64 / (elapsed.as_nanos() as f64 * 1e-9);
            self.sample(b);
            self.acked = 0;
            self.since = Some(rs.now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::test_kit::{sample_ms, MSS};

    #[test]
    fn tustin_filter_by_hand_and_ssthresh_from_bwe_times_rtt_min() {
        let mut w = WestwoodCc::new(WestwoodFilter::Tustin, MSS, 10 * MSS, 1 << 30);
        // RTT 100 ms throughout; 10 000 bytes acknowledged per 100 ms: 100 kB/s.
        w.on_rate_sample(&sample_ms(0, 0, 100));
        for k in 1..=10 {
            w.on_rate_sample(&sample_ms(100 * k, 10_000, 100));
        }
        // The first sample initialises the filter, then (b + b)/2 = b keeps it at b.
        assert!((w.bwe().unwrap() - 100_000.0).abs() < 1e-6);
        // A step to 200 kB/s: BWE = 0.9·100k + 0.1·(200k + 100k)/2 = 105 000, then
        // 0.9·105 000 + 0.1·200 000 = 114 500.
        w.on_rate_sample(&sample_ms(1100, 20_000, 100));
        assert!((w.bwe().unwrap() - 105_000.0).abs() < 1e-6);
        w.on_rate_sample(&sample_ms(1200, 20_000, 100));
        assert!((w.bwe().unwrap() - 114_500.0).abs() < 1e-6);
        // ssthresh = BWE · RTT_min = 114 500 B/s · 0.1 s = 11 450 bytes.
        assert_eq!(w.bwe_ssthresh(), Some(11_450));
        // Three duplicates with a 40-segment window: ssthresh from the estimate, cwnd to it
        // plus the three duplicates; Reno would have halved to 20 segments.
        w.undo(40 * MSS, 64 * MSS);
        w.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 40 * MSS,
            peer_window: 1 << 30,
            dupacks: 3,
        });
        assert_eq!((w.ssthresh(), w.cwnd()), (11_450, 11_450 + 3 * MSS));
        // A timeout: the same ssthresh, one segment.
        w.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 10 * MSS,
            peer_window: 1 << 30,
        });
        assert_eq!((w.ssthresh(), w.cwnd()), (11_450, MSS));
    }

    #[test]
    fn linux_filter_cascades_two_ewmas_and_reno_answers_before_a_sample() {
        let mut w = WestwoodCc::new(WestwoodFilter::Linux, MSS, 10 * MSS, 1 << 30);
        // No estimate yet: Reno's halving.
        w.undo(20 * MSS, 64 * MSS);
        w.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 20 * MSS,
            peer_window: 1 << 30,
            dupacks: 3,
        });
        assert_eq!(w.ssthresh(), 10 * MSS);
        // RTT 20 ms, so a sample every max(20, 50) = 50 ms: 5000 bytes per 50 ms = 100 kB/s.
        w.on_rate_sample(&sample_ms(0, 0, 20));
        w.on_rate_sample(&sample_ms(20, 2000, 20));
        assert!(w.bwe().is_none(), "less than 50 ms");
        w.on_rate_sample(&sample_ms(50, 3000, 20));
        assert!((w.bwe().unwrap() - 100_000.0).abs() < 1e-6);
        // Next 50 ms at 200 kB/s: ns = (7·100k + 200k)/8 = 112 500; est = (7·100k + 112 500)/8.
        w.on_rate_sample(&sample_ms(100, 10_000, 20));
        assert!((w.bwe().unwrap() - 101_562.5).abs() < 1e-6);
    }
}
