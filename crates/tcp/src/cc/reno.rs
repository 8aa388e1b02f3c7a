//! Reno AIMD in two flavours (Balakrishnan97 §2.1; RFC 5681).
//!
//! - [`RenoFlavor::Net3`]: 4.4BSD-Lite. Slow start while `cwnd <= ssthresh` (+1 MSS per ACK);
//!   congestion avoidance adds `MSS·MSS/cwnd + MSS/8` per ACK (the `+MSS/8` term is a Net/3
//!   artefact, a knob); on loss `ssthresh = max(2, min(cwnd, wnd)/2/MSS)·MSS`, in whole segments;
//!   cwnd is capped at 65535 (no window scaling).
//! - [`RenoFlavor::Rfc5681`]: slow start while `cwnd < ssthresh`; congestion avoidance
//!   `cwnd += max(1, MSS·MSS/cwnd)` (RFC 5681 eq. 3); on loss `ssthresh = max(FlightSize/2,
//!   2·MSS)` (eq. 4).
//!
//! Both: fast retransmit sets `cwnd = ssthresh + dupacks·MSS`, each further dupack inflates by one
//! MSS, the ACK that ends recovery deflates to `ssthresh`; a timeout sets `cwnd = 1 MSS`; a local
//! drop (`tcp_quench`, Ludwig2000 §2.3) sets `cwnd = 1 MSS` and keeps ssthresh.

use super::{AckSample, CongestionControl, CongestionEvent};

/// Which Reno.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenoFlavor {
    /// 4.4BSD-Lite / Net/3.
    Net3 {
        /// Add MSS/8 per ACK in congestion avoidance.
        extra_mss_over_8: bool,
    },
    /// RFC 5681.
    Rfc5681,
}

/// Reno congestion control.
#[derive(Clone, Debug)]
pub struct RenoCc {
    flavor: RenoFlavor,
    mss: u32,
    cwnd: u32,
    ssthresh: u32,
    max_cwnd: u32,
}

impl RenoCc {
    /// A controller starting at `initial_cwnd` bytes with an unbounded ssthresh.
    pub fn new(flavor: RenoFlavor, mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        RenoCc {
            flavor,
            mss,
            cwnd: initial_cwnd.min(max_cwnd),
            ssthresh: max_cwnd,
            max_cwnd,
        }
    }

    fn loss_threshold(&self, flight: u32, peer_window: u32) -> u32 {
        match self.flavor {
            RenoFlavor::Net3 { .. } => {
                let win = self.cwnd.min(peer_window) / 2 / self.mss;
                win.max(2) * self.mss
            }
            RenoFlavor::Rfc5681 => (flight / 2).max(2 * self.mss),
        }
    }
}

impl CongestionControl for RenoCc {
    fn name(&self) -> &'static str {
        match self.flavor {
            RenoFlavor::Net3 { .. } => "reno-net3",
            RenoFlavor::Rfc5681 => "reno-rfc5681",
        }
    }

    fn cwnd(&self) -> u32 {
        self.cwnd
    }

    fn ssthresh(&self) -> u32 {
        self.ssthresh
    }

    fn on_ack(&mut self, _ack: AckSample) {
        let mss = self.mss;
        let incr = match self.flavor {
            RenoFlavor::Net3 { extra_mss_over_8 } => {
                if self.cwnd > self.ssthresh {
                    mss * mss / self.cwnd.max(1) + if extra_mss_over_8 { mss / 8 } else { 0 }
                } else {
                    mss
                }
            }
            RenoFlavor::Rfc5681 => {
                if self.cwnd < self.ssthresh {
                    mss
                } else {
                    (mss * mss / self.cwnd.max(1)).max(1)
                }
            }
        };
        self.cwnd = self.cwnd.saturating_add(incr).min(self.max_cwnd);
    }

    fn on_congestion(&mut self, event: CongestionEvent) {
        match event {
            CongestionEvent::FastRetransmit {
                flight_bytes,
                peer_window,
                dupacks,
            } => {
                self.ssthresh = self.loss_threshold(flight_bytes, peer_window);
                self.cwnd = (self.ssthresh + dupacks * self.mss).min(self.max_cwnd);
            }
            CongestionEvent::Timeout {
                flight_bytes,
                peer_window,
            } => {
                self.ssthresh = self.loss_threshold(flight_bytes, peer_window);
                self.cwnd = self.mss;
            }
            CongestionEvent::LocalDrop => self.cwnd = self.mss,
        }
    }

    fn on_recovery_dupack(&mut self) {
        self.cwnd = self.cwnd.saturating_add(self.mss).min(self.max_cwnd);
    }

    fn on_recovery_exit(&mut self) {
        self.cwnd = self.cwnd.min(self.ssthresh);
    }

    fn on_partial_ack(&mut self, acked: u32) {
        self.cwnd = self.cwnd.saturating_sub(acked);
        if acked >= self.mss {
            self.cwnd += self.mss;
        }
        self.cwnd = self.cwnd.max(self.mss);
    }

    fn undo(&mut self, cwnd: u32, ssthresh: u32) {
        self.cwnd = cwnd.clamp(self.mss, self.max_cwnd);
        self.ssthresh = ssthresh.max(2 * self.mss);
    }

    fn on_ecn_abe(&mut self, flight_bytes: u32, peer_window: u32, beta_ecn: u32) -> bool {
        // RFC 8511 §3: ssthresh = max(FlightSize · β_ecn, 2·SMSS), cwnd no more than it. The
        // Net/3 flavour takes its loss rule's window (min(cwnd, wnd)) in whole segments.
        self.ssthresh = match self.flavor {
            RenoFlavor::Net3 { .. } => {
                let t = super::abe_threshold(self.cwnd.min(peer_window), beta_ecn, self.mss);
                t / self.mss * self.mss
            }
            RenoFlavor::Rfc5681 => super::abe_threshold(flight_bytes, beta_ecn, self.mss),
        };
        self.cwnd = self.cwnd.min(self.ssthresh);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1400;

    fn ack() -> AckSample {
        AckSample {
            acked_bytes: MSS,
            flight_bytes: 10 * MSS,
            now: engine::SimTime(0),
            srtt: engine::SimDuration(0),
            rtt: None,
            ack: 0,
            snd_nxt: 0,
        }
    }

    #[test]
    fn a_local_drop_collapses_cwnd_and_keeps_ssthresh() {
        // tcp_quench (Ludwig2000 §2.3): cwnd = 1 MSS, ssthresh untouched, so slow start follows.
        let mut cc = RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 65535);
        let before = cc.ssthresh();
        cc.on_congestion(CongestionEvent::LocalDrop);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (MSS, before));
        cc.on_ack(ack());
        assert_eq!(cc.cwnd(), 2 * MSS, "slow start after the quench");
    }

    /// RFC 8511 §3 on the bare controller: an ECN response with β_ecn = 0.8 sets ssthresh to
    /// 0.8 × FlightSize (a loss: 0.5 ×), at least 2·MSS, and cwnd to no more than it.
    #[test]
    fn an_abe_response_uses_beta_ecn_of_the_flight() {
        let mut cc = RenoCc::new(RenoFlavor::Rfc5681, MSS, 24 * MSS, 1 << 30);
        assert!(cc.on_ecn_abe(20 * MSS, 1 << 20, crate::cc::BETA_ECN_RENO));
        assert_eq!((cc.ssthresh(), cc.cwnd()), (16 * MSS, 16 * MSS));
        let mut floor = RenoCc::new(RenoFlavor::Rfc5681, MSS, 2 * MSS, 1 << 30);
        floor.on_ecn_abe(2 * MSS, 1 << 20, crate::cc::BETA_ECN_RENO);
        assert_eq!(floor.ssthresh(), 2 * MSS, "2·SMSS floor");
        // A cwnd already below the new ssthresh stays (\"no more than\").
        let mut low = RenoCc::new(RenoFlavor::Rfc5681, MSS, 5 * MSS, 1 << 30);
        low.on_ecn_abe(10 * MSS, 1 << 20, crate::cc::BETA_ECN_RENO);
        assert_eq!((low.ssthresh(), low.cwnd()), (8 * MSS, 5 * MSS));
        // Net/3: min(cwnd, wnd) in whole segments: 0.8 × 16 = 12.8 → 12 segments.
        let mut net3 = RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: true,
            },
            MSS,
            16 * MSS,
            65535,
        );
        net3.on_ecn_abe(16 * MSS, 1 << 20, crate::cc::BETA_ECN_RENO);
        assert_eq!(net3.ssthresh(), 12 * MSS);
    }

    #[test]
    fn net3_slow_start_then_avoidance_with_extra_term() {
        let mut cc = RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: true,
            },
            MSS,
            MSS,
            65535,
        );
        cc.on_ack(ack());
        assert_eq!(cc.cwnd(), 2 * MSS);
        cc.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 2 * MSS,
            peer_window: 32768,
        });
        // min(2800, 32768)/2/1400 = 1 → at least 2 segments.
        assert_eq!(cc.ssthresh(), 2 * MSS);
        assert_eq!(cc.cwnd(), MSS);
        cc.on_ack(ack()); // 1400 <= 2800: slow start
        cc.on_ack(ack()); // 2800 <= 2800: still slow start (Net/3 uses <=)
        assert_eq!(cc.cwnd(), 3 * MSS);
        cc.on_ack(ack()); // avoidance: 1400·1400/4200 + 175 = 466 + 175
        assert_eq!(cc.cwnd(), 3 * MSS + 466 + 175);
    }

    #[test]
    fn fast_recovery_inflates_and_deflates() {
        let mut cc = RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: true,
            },
            MSS,
            16 * MSS,
            65535,
        );
        cc.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 16 * MSS,
            peer_window: 32768,
            dupacks: 3,
        });
        assert_eq!(cc.ssthresh(), 8 * MSS);
        assert_eq!(cc.cwnd(), 11 * MSS);
        cc.on_recovery_dupack();
        assert_eq!(cc.cwnd(), 12 * MSS);
        cc.on_recovery_exit();
        assert_eq!(cc.cwnd(), 8 * MSS);
    }

    #[test]
    fn rfc5681_uses_flight_size_and_no_extra_term() {
        let mut cc = RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 1 << 30);
        cc.on_congestion(CongestionEvent::FastRetransmit {
            flight_bytes: 7 * MSS,
            peer_window: 1 << 20,
            dupacks: 3,
        });
        assert_eq!(cc.ssthresh(), 7 * MSS / 2);
        cc.on_recovery_exit();
        assert_eq!(cc.cwnd(), 7 * MSS / 2);
        let before = cc.cwnd();
        cc.on_ack(ack());
        assert_eq!(cc.cwnd(), before + MSS * MSS / before);
    }
}
