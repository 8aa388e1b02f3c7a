//! TCP-Jersey (Xu, Tian, Ansari, IEEE JSAC 22(4), 2004; eln-llelsn spec §4.8): Reno's growth,
//! with an available-bandwidth estimator (ABE) at the sender setting the window after a loss.
//!
//! - ABE, a time-sliding-window rate estimator over the ACK stream:
//!   `R_n = (RTT·R_{n−1} + L_n) / ((t_n − t_{n−1}) + RTT)`, with `L_n` the bytes the n-th ACK
//!   newly delivered (cumulatively or selectively; 0 for a plain duplicate), `t_n` its arrival
//!   and `RTT` this part's smoothed RTT (gain 1/8 over the sender's per-ACK samples). The
//!   first ACK starts the window with `R_0 = 0`.
//! - The optimum window `ownd = R·RTT_min` bytes (`rcontrol()`: `ssthresh = max(ownd, 2 MSS)`,
//!   `cwnd = min(cwnd, ssthresh)`).
//! - An ACK carrying a congestion warning (CW, the router's mark echoed by the receiver) runs
//!   `rcontrol()`.
//! - Three duplicates: fast retransmit and Reno's fast recovery; if a CW arrived within the
//!   last smoothed RTT the loss is congestion and `rcontrol()` sets the window; without one it
//!   is taken for a wireless loss, and [`JerseyUnmarked`] says what follows (the knob
//!   `tcp.jersey_unmarked_loss`). A timeout: `ssthresh = max(ownd, 2 MSS)`, `cwnd = 1 MSS`.
//!   Before the first RTT sample the responses are Reno's.
//!
//! Deliberate deviations: `ownd` uses the minimum RTT (the paper's "RTT", spec §4.8; the
//! minimum keeps queueing out of the window, as Westwood's rule does). The default for an
//! unmarked loss, [`JerseyUnmarked::Ownd`], is the rate-based window (`rcontrol()`) rather
//! than the spec's retransmission without a window change ([`JerseyUnmarked::Keep`]), because
//! routers mark CW only where a link direction asks for it (`cw_mark`, off by default): with
//! `Keep` and no marks a congestion loss would never reduce the window.

use super::{bdp_bytes, bwe_response, AckSample, CongestionControl, CongestionEvent, RateSample};
use super::{RenoCc, RenoFlavor};
use engine::{SimDuration, SimTime};

/// What an unmarked three-duplicate loss does to the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JerseyUnmarked {
    /// `rcontrol()`: the window from the bandwidth estimate (the default).
    Ownd,
    /// The loss is wireless: retransmit only, cwnd and ssthresh kept (spec §4.8 (b); needs
    /// routers that mark CW, or congestion never cuts the window).
    Keep,
}

/// TCP-Jersey's congestion control.
#[derive(Clone, Debug)]
pub struct JerseyCc {
    reno: RenoCc,
    mss: u32,
    unmarked: JerseyUnmarked,
    /// ABE, bytes per second.
    abe: f64,
    /// Arrival of the previous ACK (None before the first).
    last: Option<SimTime>,
    srtt: Option<SimDuration>,
    rtt_min: Option<SimDuration>,
    /// The last ACK seen (the controller's clock for the CW window).
    now: SimTime,
    /// When the latest congestion warning arrived.
    cw_at: Option<SimTime>,
}

impl JerseyCc {
    /// TCP-Jersey over RFC 5681 Reno growth, for segments of `mss` bytes.
    pub fn new(unmarked: JerseyUnmarked, mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        JerseyCc {
            reno: RenoCc::new(RenoFlavor::Rfc5681, mss, initial_cwnd, max_cwnd),
            mss,
            unmarked,
            abe: 0.0,
            last: None,
            srtt: None,
            rtt_min: None,
            now: SimTime::ZERO,
            cw_at: None,
        }
    }

    /// The ABE in bytes per second.
    pub fn abe(&self) -> f64 {
        self.abe
    }

    /// `ownd` in bytes (at least two segments), once an RTT sample exists.
    pub fn ownd(&self) -> Option<u32> {
        Some(bdp_bytes(self.abe, self.rtt_min?, self.mss))
    }

    /// `rcontrol()`: ssthresh = ownd, cwnd = min(cwnd, ownd).
    fn rcontrol(&mut self) {
        if let Some(o) = self.ownd() {
            let c = self.reno.cwnd().min(o);
            self.reno.undo(c, o);
        }
    }

    /// Whether a congestion warning arrived within the last smoothed RTT.
    fn marked(&self) -> bool {
        let window = self.srtt.unwrap_or(SimDuration::ZERO);
        self.cw_at.is_some_and(|t| t + window >= self.now)
    }
}

impl CongestionControl for JerseyCc {
    super::reno_window_delegates!();
    fn name(&self) -> &'static str {
        "jersey"
    }
    fn on_ack(&mut self, ack: AckSample) {
        self.reno.on_ack(ack);
    }
    fn on_congestion(&mut self, event: CongestionEvent) {
        let before = (self.reno.cwnd(), self.reno.ssthresh());
        self.reno.on_congestion(event);
        let Some(ownd) = self.ownd() else {
            return;
        };
        match (event, self.marked(), self.unmarked) {
            (CongestionEvent::FastRetransmit { dupacks, .. }, false, JerseyUnmarked::Keep) => {
                // A wireless loss: the retransmission only (Reno's inflation on top).
                let s = before.0.max(2 * self.mss);
                self.reno.undo(before.0 + dupacks * self.mss, s);
            }
            _ => bwe_response(&mut self.reno, event, before.0, ownd, self.mss),
        }
    }
    fn on_congestion_warning(&mut self, now: SimTime) {
        self.cw_at = Some(now);
        self.now = self.now.max(now);
        self.rcontrol();
    }
    fn wants_rate_samples(&self) -> bool {
        true
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        self.now = rs.now;
        if let Some(r) = rs.rtt {
            self.rtt_min = Some(self.rtt_min.map_or(r, |m| m.min(r)));
            self.srtt = Some(
                self.srtt
                    .map_or(r, |s| SimDuration((7 * s.as_nanos() + r.as_nanos()) / 8)),
            );
        }
        let Some(rtt) = self.srtt else {
            return;
        };
        let rtt_s = rtt.as_nanos() as f64 * 1e-9;
        if let Some(last) = self.last {
            let gap = rs.now.saturating_since(last).as_nanos() as f64 * 1e-9;
            // Jersey (4): R_n = (RTT·R_{n−1} + L_n) / ((t_n − t_{n−1}) + RTT).
            self.abe = (rtt_s * self.abe + rs.acked_sacked as f64) / (gap + rtt_s);
        }
        self.last = Some(rs.now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::test_kit::{sample_ms, three_dupacks, MSS};

    #[test]
    fn abe_by_hand_and_the_window_from_it() {
        let mut j = JerseyCc::new(JerseyUnmarked::Ownd, MSS, 40 * MSS, 1 << 30);
        // RTT 100 ms throughout. The first ACK (t = 0) starts the window: R stays 0.
        j.on_rate_sample(&sample_ms(0, 1000, 100));
        assert_eq!(j.abe(), 0.0);
        // t = 10 ms, 1000 bytes: R = (0.1·0 + 1000)/(0.01 + 0.1) = 9090.909...
        j.on_rate_sample(&sample_ms(10, 1000, 100));
        assert!((j.abe() - 1000.0 / 0.11).abs() < 1e-6);
        // t = 20 ms, 2000 bytes: R = (0.1·9090.909 + 2000)/0.11 = 26 446.28...
        j.on_rate_sample(&sample_ms(20, 2000, 100));
        let r2 = (0.1 * (1000.0 / 0.11) + 2000.0) / 0.11;
        assert!((j.abe() - r2).abs() < 1e-6);
        // A plain duplicate (no bytes) 30 ms later decays it: R = 0.1·R/(0.03 + 0.1).
        j.on_rate_sample(&sample_ms(50, 0, 100));
        let r3 = 0.1 * r2 / 0.13;
        assert!((j.abe() - r3).abs() < 1e-6);
        // ownd = R · RTT_min = 20 343.3 B/s · 0.1 s = 2034 bytes.
        assert_eq!(j.ownd(), Some((r3 * 0.1) as u32));
        assert_eq!(j.ownd(), Some(2034));
        // Three unmarked duplicates with cwnd 40 segments: the rate-based window, plus three.
        three_dupacks(&mut j);
        assert_eq!((j.ssthresh(), j.cwnd()), (2034, 2034 + 3 * MSS));
        // A timeout: ownd, one segment.
        j.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 0,
            peer_window: 1 << 30,
        });
        assert_eq!((j.ssthresh(), j.cwnd()), (2034, MSS));
    }

    #[test]
    fn keep_retransmits_only_unless_a_warning_marked_the_loss() {
        let build = || {
            let mut j = JerseyCc::new(JerseyUnmarked::Keep, MSS, 20 * MSS, 1 << 30);
            // 10 kB per 100 ms: about 100 kB/s, ownd about 10 segments.
            for k in 0..=20 {
                j.on_rate_sample(&sample_ms(10 * k, 1000, 100));
            }
            j
        };
        let mut j = build();
        three_dupacks(&mut j);
        assert_eq!((j.ssthresh(), j.cwnd()), (20 * MSS, 23 * MSS), "wireless");
        // A CW at 200 ms (the last ACK's time): rcontrol at once, and the loss is congestion.
        let mut j = build();
        let ownd = j.ownd().unwrap();
        assert!(ownd < 20 * MSS, "{ownd}");
        j.on_congestion_warning(SimTime(200_000_000));
        assert_eq!((j.ssthresh(), j.cwnd()), (ownd, ownd));
        j.undo(20 * MSS, 20 * MSS);
        three_dupacks(&mut j);
        assert_eq!((j.ssthresh(), j.cwnd()), (ownd, ownd + 3 * MSS));
        // Before any RTT sample: Reno's halving.
        let mut j = JerseyCc::new(JerseyUnmarked::Keep, MSS, 20 * MSS, 1 << 30);
        three_dupacks(&mut j);
        assert_eq!(j.ssthresh(), 10 * MSS);
    }
}
