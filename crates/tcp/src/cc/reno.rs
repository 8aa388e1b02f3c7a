//! Reno AIMD in two flavours (Balakrishnan97 §2.1; RFC 5681).
//!
//! - [`RenoFlavor::Net3`]: 4.4BSD-Lite. Slow start while `cwnd <= ssthresh` (+1 MSS per ACK);
//!   congestion avoidance adds `MSS·MSS/cwnd + MSS/8` per ACK (the `+MSS/8` term is a Net/3
//!   artefact, a knob); on loss `ssthresh = max(2, min(cwnd, wnd)/2/MSS)·MSS`, in whole segments;
//!   cwnd is capped at 65535 (no window scaling).
//! - [`RenoFlavor::Rfc5681`]: slow start while `cwnd < ssthresh`; congestion avoidance
//!   `cwnd += max(1, MSS·MSS/cwnd)` (RFC 5681 eq. 3); on loss `ssthresh = max(FlightSize/2,
//!   2·MSS)` (eq. 4).
//! - [`RenoFlavor::Linux`]: Linux's `tcp_reno_cong_avoid` (net/ipv4/tcp_cong.c). Growth counts
//!   segments acknowledged, not ACKs: slow start adds what an ACK acknowledged up to ssthresh
//!   (`tcp_slow_start`), the rest goes to congestion avoidance, which adds one segment each time
//!   a window's worth of segments has been acknowledged (`tcp_cong_avoid_ai`, the counter
//!   `snd_cwnd_cnt` kept here in bytes); behind delayed ACKs the window so grows one segment per
//!   round trip where RFC 5681's per-ACK rule grows half of one. On loss `ssthresh =
//!   max(cwnd/2, 2)` segments of the window, not the flight (`tcp_reno_ssthresh`); the counter
//!   restarts at every reduction (`tcp_init_cwnd_reduction`, `tcp_enter_loss`).
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
    /// Linux's `reno` module (`tcp_reno_cong_avoid`, `tcp_reno_ssthresh`).
    Linux,
}

/// Reno congestion control.
#[derive(Clone, Debug)]
pub struct RenoCc {
    flavor: RenoFlavor,
    mss: u32,
    cwnd: u32,
    ssthresh: u32,
    max_cwnd: u32,
    /// Bytes acknowledged in congestion avoidance since the window last grew (the Linux
    /// flavour's `snd_cwnd_cnt`, in bytes).
    acked_in_ca: u32,
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
            acked_in_ca: 0,
        }
    }

    /// The same with ssthresh starting at `ssthresh` bytes (ns-2's `ssthresh_`, a route's
    /// cached `ssthresh` on Linux): at or below the initial window, the sender starts in
    /// congestion avoidance.
    pub fn with_initial_ssthresh(mut self, ssthresh: u32) -> Self {
        self.ssthresh = ssthresh.max(2 * self.mss);
        self
    }

    fn loss_threshold(&self, flight: u32, peer_window: u32) -> u32 {
        match self.flavor {
            RenoFlavor::Net3 { .. } => {
                let win = self.cwnd.min(peer_window) / 2 / self.mss;
                win.max(2) * self.mss
            }
            RenoFlavor::Rfc5681 => (flight / 2).max(2 * self.mss),
            // tcp_reno_ssthresh: max(snd_cwnd >> 1, 2), in segments.
            RenoFlavor::Linux => (self.cwnd / self.mss / 2).max(2) * self.mss,
        }
    }

    /// Linux's growth for an ACK of `acked` bytes: `tcp_slow_start` up to ssthresh, the rest
    /// through `tcp_cong_avoid_ai` with the window `w` in whole segments.
    fn linux_growth(&mut self, acked: u32) {
        let mut acked = acked;
        if self.cwnd < self.ssthresh {
            let grown = self.cwnd.saturating_add(acked).min(self.ssthresh);
            acked -= grown - self.cwnd;
            self.cwnd = grown;
            if acked == 0 {
                return;
            }
        }
        let w = (self.cwnd / self.mss).max(1) * self.mss;
        if self.acked_in_ca >= w {
            self.acked_in_ca = 0;
            self.cwnd = self.cwnd.saturating_add(self.mss);
        }
        self.acked_in_ca = self.acked_in_ca.saturating_add(acked);
        if self.acked_in_ca >= w {
            let segments = self.acked_in_ca / w;
            self.acked_in_ca -= segments * w;
            self.cwnd = self.cwnd.saturating_add(segments * self.mss);
        }
    }
}

impl CongestionControl for RenoCc {
    fn name(&self) -> &'static str {
        match self.flavor {
            RenoFlavor::Net3 { .. } => "reno-net3",
            RenoFlavor::Rfc5681 => "reno-rfc5681",
            RenoFlavor::Linux => "reno-linux",
        }
    }

    fn cwnd(&self) -> u32 {
        self.cwnd
    }

    fn ssthresh(&self) -> u32 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: AckSample) {
        let mss = self.mss;
        let incr = match self.flavor {
            RenoFlavor::Linux => {
                self.linux_growth(ack.acked_bytes);
                self.cwnd = self.cwnd.min(self.max_cwnd);
                return;
            }
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
        self.acked_in_ca = 0;
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
            // Linux's reno has no ABE of its own; RFC 8511 §3 on the window it cuts from.
            RenoFlavor::Linux => super::abe_threshold(self.cwnd, beta_ecn, self.mss),
        };
        self.acked_in_ca = 0;
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

    fn ack_of(segments: u32) -> AckSample {
        AckSample {
            acked_bytes: segments * MSS,
            ..ack()
        }
    }

    /// Linux's `tcp_cong_avoid_ai`: one segment per window's worth of segments acknowledged,
    /// whatever the ACKs carry; RFC 5681's per-ACK rule grows half as fast behind ACKs of two
    /// segments.
    #[test]
    fn linux_reno_grows_per_segment_acknowledged() {
        let in_ca = |flavor, flight| {
            let mut cc = RenoCc::new(flavor, MSS, 10 * MSS, 1 << 30);
            cc.on_congestion(CongestionEvent::FastRetransmit {
                flight_bytes: flight * MSS,
                peer_window: 1 << 30,
                dupacks: 0,
            });
            cc.on_recovery_exit();
            cc
        };
        // tcp_reno_ssthresh halves the window (10 segments), RFC 5681 the flight.
        assert_eq!(in_ca(RenoFlavor::Linux, 20).ssthresh(), 5 * MSS);
        assert_eq!(in_ca(RenoFlavor::Rfc5681, 20).ssthresh(), 10 * MSS);
        let mut linux = in_ca(RenoFlavor::Linux, 10);
        assert_eq!((linux.cwnd(), linux.ssthresh()), (5 * MSS, 5 * MSS));
        // Each ACK acknowledges 2 segments; the window grows when the count reaches it.
        let want = [5, 5, 6, 6, 6, 7, 7, 7, 8, 8];
        for (i, w) in want.into_iter().enumerate() {
            linux.on_ack(ack_of(2));
            assert_eq!(linux.cwnd(), w * MSS, "after ACK {}", i + 1);
        }
        let mut rfc = in_ca(RenoFlavor::Rfc5681, 10);
        assert_eq!(rfc.cwnd(), 5 * MSS);
        for _ in 0..10 {
            rfc.on_ack(ack_of(2));
        }
        assert!(rfc.cwnd() < 7 * MSS, "per ACK: {}", rfc.cwnd());
    }

    /// `tcp_slow_start`: an ACK that carries the window past ssthresh stops it there and the
    /// rest of what it acknowledged counts towards congestion avoidance; a reduction restarts
    /// the count.
    #[test]
    fn linux_reno_carries_the_slow_start_rest_and_restarts_at_a_loss() {
        let mut cc = RenoCc::new(RenoFlavor::Linux, MSS, 4 * MSS, 1 << 30);
        cc.ssthresh = 5 * MSS;
        cc.on_ack(ack_of(3));
        assert_eq!((cc.cwnd(), cc.acked_in_ca), (5 * MSS, 2 * MSS));
        cc.on_ack(ack_of(3));
        assert_eq!(
            (cc.cwnd(), cc.acked_in_ca),
            (6 * MSS, 0),
            "5 acknowledged in CA"
        );
        cc.on_ack(ack_of(4));
        assert_eq!(cc.acked_in_ca, 4 * MSS);
        cc.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 6 * MSS,
            peer_window: 1 << 30,
        });
        assert_eq!(
            (cc.cwnd(), cc.ssthresh(), cc.acked_in_ca),
            (MSS, 3 * MSS, 0)
        );
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
