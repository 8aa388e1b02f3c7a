//! CUBIC congestion control (RFC 9438), with its Reno-friendly region (§4.3).
//!
//! After a congestion event the window follows `W_cubic(t) = C·(t − K)^3 + W_max` (§4.2, eq. 1)
//! with `K = cbrt((W_max − cwnd_epoch)/C)` (eq. 2), `C = 0.4` segments/s³ and
//! `β_cubic = 0.7` (§4.6); `t` runs from the start of the congestion-avoidance epoch (the first
//! ACK that grows the window after the event). Each ACK moves cwnd towards the target
//! `W_cubic(t + RTT)`, clamped to `[cwnd, 1.5·cwnd]` (§4.2), by `(target − cwnd)/cwnd` segments
//! per segment acknowledged. The Reno-friendly estimate `W_est` starts at `cwnd_epoch` and grows
//! by `α_cubic = 3(1 − β)/(1 + β)` segments per window acknowledged, switching to `α = 1` once it
//! reaches the window before the reduction (§4.3; [`RenoFriendly::Rfc9438`]); Linux's
//! `tcp_cubic.c` (`bictcp_update`, `tcp_friendliness`) keeps `α_cubic` throughout, the RFC 8312
//! rule ([`RenoFriendly::Linux`], the `linux` profile's). While `W_cubic < W_est`, cwnd follows
//! `W_est` (RFC 9438); Linux's cwnd moves towards the larger of the curve's target and `W_est`
//! in whole segments, whichever region it is in (`bictcp_update`'s smaller `cnt`).
//! The first congestion-avoidance stage after a retransmission timeout starts at K = 0 with
//! `W_max` the window it starts with (RFC 9438 §4.8, as RFC 8312 §4.7 had it; likewise after a
//! slow start that ends without a loss, §4.10, where no `W_max` exists yet).
//! Linux's curve differs from the RFC's in three more places, all in `tcp_cubic.c`: it aims at
//! `W_cubic(t + delay_min)`, the connection's minimum RTT (`bictcp_update`; `cubictcp_acked`
//! takes every RTT sample but those of the first second of an epoch), not `t + SRTT`; a
//! retransmission timeout forgets the plateau and the minimum RTT at once (`cubictcp_state` on
//! `TCP_CA_Loss` calls `bictcp_reset`, which zeroes `last_max_cwnd` and `delay_min`), so the
//! next epoch starts at K = 0 from the window it has, and a second timeout before it compares
//! with no plateau; and an undo restores only cwnd and ssthresh (`undo_cwnd` is
//! `tcp_reno_undo_cwnd`), not the plateau.
//! Fast convergence (§4.7) lowers `W_max` to `cwnd·(1 + β)/2` when a loss comes before the
//! previous `W_max` was regained. Undo after a spurious retransmission restores the saved
//! `W_max` (§4.9).
//!
//! Deliberate deviations, all documented in `docs/modern.md`:
//! - Integer arithmetic for determinism: windows in bytes, times in ns, `K` by an integer cube
//!   root (the RFC's formulas in floating point would depend on the platform's `cbrt`).
//! - `ssthresh = max(β·cwnd, 2·MSS)` from cwnd, not FlightSize (the RFC allows either; Linux
//!   uses cwnd).
//! - Slow start adds the bytes acknowledged, at most two segments per ACK (RFC 3465 with L = 2);
//!   HyStart++ (RFC 9406, `hystart.rs`), which the RFC makes optional, only when asked for
//!   ([`CubicCc::with_hystart`]).
//! - During fast recovery the recovery part drives cwnd as for Reno (inflation on dupacks,
//!   deflation to ssthresh on exit); RFC 9438 leaves recovery to the loss-recovery algorithm.

use super::hystart::{HsPhase, HsStep, HyStart};
use super::hystart_linux::{LinuxExit, LinuxHyStart};
use super::{AckSample, CongestionControl, CongestionEvent};
use engine::{SimDuration, SimTime};

/// β_cubic = 0.7 as a fraction of ten (RFC 9438 §4.6).
const BETA_NUM: u64 = 7;
const BETA_DEN: u64 = 10;
/// C = 0.4 segments/s³ (RFC 9438 §5).
const C_NUM: u128 = 4;
const C_DEN: u128 = 10;
/// Nanoseconds per second, cubed.
const NS3: u128 = 1_000_000_000u128 * 1_000_000_000 * 1_000_000_000;
/// |t − K| is clamped to one minute so that the cube times C·MSS fits in 128 bits; by then the
/// target is clamped to 1.5·cwnd anyway.
const MAX_SPAN_NS: i128 = 60_000_000_000;
/// Fixed-point scale of `W_est` (bytes × 1024), so sub-byte growth per ACK is not lost.
const EST_SCALE: u64 = 1024;

/// The state of one congestion-avoidance epoch (RFC 9438 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Epoch {
    /// When it started.
    start: SimTime,
    /// K in ns.
    k_ns: u64,
    /// The Reno-friendly estimate, bytes × [`EST_SCALE`].
    w_est: u64,
}

/// CUBIC's state: the window, the plateau it aims at, and the current epoch if one runs.
#[derive(Clone, Debug)]
pub struct CubicCc {
    /// Which α the Reno-friendly estimate grows by.
    friendly: RenoFriendly,
    mss: u32,
    cwnd: u32,
    ssthresh: u32,
    max_cwnd: u32,
    /// W_max in bytes: the window before the last reduction (after fast convergence).
    w_max: u32,
    /// The plateau the last reduction set (W_max after fast convergence), which the next
    /// reduction's fast convergence compares with under Linux's rule (`last_max_cwnd`, not
    /// raised when an epoch starts above it); 0 before the first reduction and, under Linux's
    /// rule, after a timeout.
    w_last_max: u32,
    /// cwnd before the last reduction (cwnd_prior, §4.3).
    cwnd_prior: u32,
    /// W_max and `w_last_max` before the last reduction, restored by an undo (RFC 9438 §4.9).
    saved_w_max: u32,
    saved_w_last_max: u32,
    /// The next congestion-avoidance stage is the first after a timeout (RFC 9438 §4.8): it
    /// starts at K = 0 with `W_max` the window it starts with. Set by a timeout under RFC
    /// 9438's rule (Linux forgets the plateau at once instead), cleared by that stage's start
    /// and by a later reduction; restored by an undo with `W_max` (§4.9).
    after_timeout: bool,
    saved_after_timeout: bool,
    /// Linux's `delay_min` (`tcp_cubic.c` `cubictcp_acked`): the least RTT sample, those of the
    /// first second of an epoch left out; `None` until a sample and after a timeout. Read only
    /// under [`RenoFriendly::Linux`].
    delay_min: Option<SimDuration>,
    epoch: Option<Epoch>,
    /// Remainder of the per-ACK growth division, so slow growth near the plateau is not lost.
    carry: u64,
    /// HyStart++ in the initial slow start (RFC 9406), if on.
    hystart: Option<HyStart>,
    /// Linux's HyStart instead (`tcp_cubic.c`), if on.
    linux_hystart: Option<LinuxHyStart>,
}

/// How the Reno-friendly estimate `W_est` grows (§4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenoFriendly {
    /// RFC 9438 §4.3: `α_cubic = 3(1 − β)/(1 + β)` until `W_est` reaches `cwnd_prior`, then 1.
    Rfc9438,
    /// Linux's `tcp_cubic.c` (RFC 8312 §4.2): one `α` throughout, one segment of `tcp_cwnd` per
    /// `cwnd · beta_scale / 8` segments acknowledged with the integer `beta_scale` = 8(1024 +
    /// 717)/3/(1024 − 717) = 15: `α` = 8/15 (RFC 9438's 9/17 rounded the kernel's way). With
    /// it, the rest of `bictcp_update`'s `cnt`: before the first reduction (`last_max_cwnd ==
    /// 0`) at least a segment per 20 acknowledged, 5 % a round trip.
    Linux,
}

/// Integer cube root: the largest `r` with `r³ <= v`.
fn icbrt(v: u128) -> u64 {
    if v == 0 {
        return 0;
    }
    // 2^43 cubed exceeds 2^128, so the root lies below 2^43.
    let (mut lo, mut hi) = (0u64, 1u64 << 43);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let m = u128::from(mid);
        match m.checked_mul(m).and_then(|x| x.checked_mul(m)) {
            Some(c) if c <= v => lo = mid,
            _ => hi = mid - 1,
        }
    }
    lo
}

impl CubicCc {
    /// A controller starting at `initial_cwnd` bytes with an unbounded ssthresh.
    pub fn new(mss: u32, initial_cwnd: u32, max_cwnd: u32) -> Self {
        CubicCc {
            friendly: RenoFriendly::Rfc9438,
            mss,
            cwnd: initial_cwnd.min(max_cwnd),
            ssthresh: max_cwnd,
            max_cwnd,
            w_max: 0,
            w_last_max: 0,
            cwnd_prior: 0,
            saved_w_max: 0,
            saved_w_last_max: 0,
            after_timeout: false,
            saved_after_timeout: false,
            delay_min: None,
            epoch: None,
            carry: 0,
            hystart: None,
            linux_hystart: None,
        }
    }

    /// The same controller with the Reno-friendly estimate growing as `friendly` says.
    pub fn with_reno_friendly(mut self, friendly: RenoFriendly) -> Self {
        self.friendly = friendly;
        self
    }

    /// The same controller with HyStart++ (RFC 9406) in its initial slow start.
    pub fn with_hystart(mut self) -> Self {
        self.hystart = Some(HyStart::default());
        self
    }

    /// The same controller with Linux's HyStart (`tcp_cubic.c`) in its slow starts.
    pub fn with_linux_hystart(mut self) -> Self {
        self.linux_hystart = Some(LinuxHyStart::default());
        self
    }

    /// Why Linux's HyStart ended the slow start, if it runs and did.
    pub fn linux_hystart_exit(&self) -> Option<LinuxExit> {
        self.linux_hystart.and_then(|h| h.found())
    }

    /// Where HyStart++ is, if it runs.
    pub fn hystart_phase(&self) -> Option<HsPhase> {
        self.hystart.map(|h| h.phase())
    }

    /// K of the current epoch in ns (RFC 9438 eq. 2), if an epoch runs.
    pub fn k(&self) -> Option<u64> {
        self.epoch.map(|e| e.k_ns)
    }

    /// W_max in bytes.
    pub fn w_max(&self) -> u32 {
        self.w_max
    }

    /// K = cbrt((W_max − cwnd_epoch)/C) in ns, with windows in bytes: K³·C·MSS = W_max − cwnd.
    fn k_ns(&self, cwnd_epoch: u32) -> u64 {
        let diff = u128::from(self.w_max.saturating_sub(cwnd_epoch));
        icbrt(diff * NS3 * C_DEN / (C_NUM * u128::from(self.mss)))
    }

    /// W_cubic(t) in bytes (eq. 1), `t` in ns since the epoch start.
    fn w_cubic(&self, t_ns: u64, k_ns: u64) -> u64 {
        let d = (i128::from(t_ns) - i128::from(k_ns)).clamp(-MAX_SPAN_NS, MAX_SPAN_NS);
        let cube = d * d * d;
        let delta = cube * (C_NUM as i128) * i128::from(self.mss) / (C_DEN as i128 * NS3 as i128);
        (i128::from(self.w_max) + delta).max(0) as u64
    }

    /// The reduction shared by fast retransmit and timeout (§4.6, §4.7), with β_cubic.
    fn reduce(&mut self) {
        self.reduce_by(BETA_NUM * 1000 / BETA_DEN);
    }

    /// §4.6's reduction with the multiplicative decrease `beta` in thousandths (β_cubic, or
    /// RFC 8511's β_ecn); fast convergence (§4.7) keeps β_cubic's plateau rule.
    fn reduce_by(&mut self, beta: u64) {
        self.saved_w_max = self.w_max;
        self.saved_w_last_max = self.w_last_max;
        self.saved_after_timeout = std::mem::take(&mut self.after_timeout);
        self.cwnd_prior = self.cwnd;
        // §4.7 fast convergence: "if cwnd < W_max", the plateau as it stands (RFC 9438);
        // Linux compares with the plateau its last reduction set (`cubictcp_recalc_ssthresh`'s
        // `last_max_cwnd`), which an epoch starting above it does not raise.
        let plateau = match self.friendly {
            RenoFriendly::Rfc9438 => self.w_max,
            RenoFriendly::Linux => self.w_last_max,
        };
        self.w_max = if self.cwnd < plateau {
            (u64::from(self.cwnd) * (BETA_DEN + BETA_NUM) / (2 * BETA_DEN)) as u32
        } else {
            self.cwnd
        };
        self.w_last_max = self.w_max;
        let reduced = (u64::from(self.cwnd) * beta / 1000) as u32;
        self.ssthresh = reduced.max(2 * self.mss);
        self.epoch = None;
        self.carry = 0;
    }

    fn avoidance(&mut self, ack: AckSample) {
        let mss = u64::from(self.mss);
        let cwnd = u64::from(self.cwnd.max(1));
        let epoch = match self.epoch {
            Some(e) => e,
            None => {
                // §4.2: a new epoch starts. The first after a timeout (§4.8) and one with no
                // W_max yet (no loss so far, §4.10) take the current window as the plateau, so
                // K = 0. Linux's `bictcp_update` takes the plateau from `last_max_cwnd` at
                // every epoch start, or cwnd when that is no larger (a timeout zeroed it).
                if self.friendly == RenoFriendly::Linux {
                    self.w_max = self.w_last_max;
                }
                if std::mem::take(&mut self.after_timeout) || self.w_max < self.cwnd {
                    self.w_max = self.cwnd;
                }
                let e = Epoch {
                    start: ack.now,
                    k_ns: self.k_ns(self.cwnd),
                    w_est: cwnd * EST_SCALE,
                };
                self.epoch = Some(e);
                e
            }
        };
        let t = ack.now.as_nanos().saturating_sub(epoch.start.as_nanos());
        // tcp_cubic.c `bictcp_update`: while no reduction has set `last_max_cwnd`, `cnt` is at
        // most 20 ("increase cwnd 5% per RTT"): at least a segment per 20 acknowledged, however
        // flat the curve from K = 0 (RFC 9438 has no such floor).
        let floor = match self.friendly {
            RenoFriendly::Linux if self.w_last_max == 0 => cwnd + cwnd / 20,
            _ => cwnd,
        };
        // §4.2 aims a round trip ahead, at SRTT; Linux at `delay_min` (`bictcp_update`).
        let ahead = match self.friendly {
            RenoFriendly::Rfc9438 => ack.srtt,
            RenoFriendly::Linux => self.delay_min.unwrap_or(SimDuration::ZERO),
        };
        let target = self
            .w_cubic(t.saturating_add(ahead.as_nanos()), epoch.k_ns)
            .clamp(cwnd, cwnd * 3 / 2)
            .max(floor);
        // §4.3 Reno-friendly estimate: α_cubic = 3(1−β)/(1+β) = 9/17 until W_est reaches
        // cwnd_prior, then 1 (RFC 9438); Linux's 8/15 throughout.
        let acked = u64::from(ack.acked_bytes);
        let reached = epoch.w_est >= u64::from(self.cwnd_prior) * EST_SCALE;
        let (a_num, a_den) = match self.friendly {
            RenoFriendly::Rfc9438 if reached => (1, 1),
            RenoFriendly::Rfc9438 => (3 * (BETA_DEN - BETA_NUM), BETA_DEN + BETA_NUM),
            // bictcp_update: tcp_cwnd + 1 per (cwnd · 15) >> 3 segments acknowledged.
            RenoFriendly::Linux => (8, 15),
        };
        let w_est = epoch.w_est + a_num * acked * mss * EST_SCALE / (a_den * cwnd);
        self.epoch = Some(Epoch { w_est, ..epoch });
        let goal = match self.friendly {
            // tcp_cubic.c `bictcp_update`: `cnt` is the curve's (cwnd/(bic_target − cwnd), or
            // the 5 % floor's 20), lowered to `max_cnt = cwnd/(tcp_cwnd − cwnd)` when the
            // estimate `tcp_cwnd`, in whole segments, is above cwnd, and at least 2;
            // `tcp_cong_avoid_ai` adds a segment per `cnt` acknowledged. The smaller `cnt`
            // wins, so cwnd moves towards the larger of the curve's target and the estimate,
            // trailing the estimate by about a round trip; neither rule stops the other.
            RenoFriendly::Linux => {
                let tcp_cwnd = w_est / EST_SCALE / mss * mss;
                target.max(tcp_cwnd).min(cwnd * 3 / 2)
            }
            // RFC 9438 §4.3: in the Reno-friendly region (W_cubic(t) < W_est) cwnd = W_est.
            RenoFriendly::Rfc9438 if self.w_cubic(t, epoch.k_ns) < w_est / EST_SCALE => {
                self.cwnd = (w_est / EST_SCALE).max(cwnd).min(u64::from(self.max_cwnd)) as u32;
                return;
            }
            RenoFriendly::Rfc9438 => target,
        };
        // §4.4/4.5: (goal − cwnd)/cwnd segments per segment acknowledged.
        let total = self.carry + (goal - cwnd) * acked;
        self.carry = total % cwnd;
        let next = cwnd + total / cwnd;
        self.cwnd = next.min(u64::from(self.max_cwnd)) as u32;
    }
}

impl CongestionControl for CubicCc {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn cwnd(&self) -> u32 {
        self.cwnd
    }

    fn ssthresh(&self) -> u32 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: AckSample) {
        // tcp_cubic.c `cubictcp_acked`, which runs before `cong_avoid`: every RTT sample lowers
        // `delay_min`, except in the first second of an epoch.
        if self.friendly == RenoFriendly::Linux {
            if let Some(rtt) = ack.rtt {
                let settling = self.epoch.is_some_and(|e| {
                    ack.now.as_nanos().saturating_sub(e.start.as_nanos()) < 1_000_000_000
                });
                if !settling {
                    self.delay_min = Some(self.delay_min.map_or(rtt, |d| d.min(rtt)));
                }
            }
        }
        if let Some(h) = self.linux_hystart.as_mut() {
            let slow_start = self.cwnd < self.ssthresh;
            let exit = h.on_ack(
                ack.now,
                slow_start,
                (ack.ack, ack.snd_nxt),
                (ack.rtt, ack.srtt),
                (self.cwnd, self.mss),
            );
            if exit.is_some() {
                // hystart_update: ssthresh = cwnd; cong_avoid then runs congestion avoidance.
                self.ssthresh = self.cwnd;
                return self.avoidance(ack);
            }
        }
        if self.cwnd < self.ssthresh {
            // RFC 5681 slow start, byte counting with L = 2 (RFC 3465).
            let mut incr = ack.acked_bytes.min(2 * self.mss);
            if let Some(hs) = self.hystart.as_mut() {
                match hs.on_ack(ack.ack, ack.snd_nxt, ack.rtt) {
                    // RFC 9406 §4.2: CSS grows by 1/CSS_GROWTH_DIVISOR of slow start.
                    HsStep::Grow { divisor } => incr /= divisor,
                    // RFC 9406 §4.2: after CSS_ROUNDS, ssthresh = cwnd, congestion avoidance.
                    HsStep::EnterAvoidance => {
                        self.ssthresh = self.cwnd;
                        return self.avoidance(ack);
                    }
                    HsStep::Plain => {}
                }
            }
            self.cwnd = self.cwnd.saturating_add(incr).min(self.max_cwnd);
        } else {
            self.avoidance(ack);
        }
    }

    fn on_congestion(&mut self, event: CongestionEvent) {
        // RFC 9406 §4.2: a loss ends HyStart++; only the initial slow start uses it.
        if let Some(hs) = self.hystart.as_mut() {
            hs.on_congestion();
        }
        match event {
            CongestionEvent::FastRetransmit { dupacks, .. } => {
                self.reduce();
                self.cwnd = (self.ssthresh + dupacks * self.mss).min(self.max_cwnd);
            }
            CongestionEvent::Timeout { .. } => {
                // §4.8: the reduction, then one segment and slow start (with Linux's HyStart
                // afresh: cubictcp_state on TCP_CA_Loss).
                if let Some(h) = self.linux_hystart.as_mut() {
                    h.on_timeout();
                }
                self.reduce();
                self.cwnd = self.mss;
                match self.friendly {
                    // The first congestion avoidance after it starts at K = 0 from its window
                    // (§4.8); until then W_max stands, for a second reduction's §4.7.
                    RenoFriendly::Rfc9438 => self.after_timeout = true,
                    RenoFriendly::Linux => {
                        // cubictcp_state(TCP_CA_Loss): bictcp_reset after the ssthresh above.
                        self.w_max = 0;
                        self.w_last_max = 0;
                        self.delay_min = None;
                    }
                }
            }
            CongestionEvent::LocalDrop => {
                self.cwnd = self.mss;
                self.epoch = None;
            }
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
        // §4.9: restore the window and W_max of before the spurious reduction; Linux restores
        // the window only (`tcp_reno_undo_cwnd`).
        self.cwnd = cwnd.clamp(self.mss, self.max_cwnd);
        self.ssthresh = ssthresh.max(2 * self.mss);
        if self.friendly == RenoFriendly::Rfc9438 {
            self.w_max = self.saved_w_max;
            self.w_last_max = self.saved_w_last_max;
            self.after_timeout = self.saved_after_timeout;
        }
        self.epoch = None;
        self.carry = 0;
    }

    fn on_ecn_abe(&mut self, _flight_bytes: u32, _peer_window: u32, beta_ecn: u32) -> bool {
        // RFC 8511 §3 with CUBIC's window (RFC 9438 §4.6 reduces cwnd, not FlightSize): the
        // reduction with β_ecn, then cwnd = ssthresh at once (no recovery phase). An ECE ends
        // HyStart++ as a loss does (RFC 9406 §4.2).
        if let Some(hs) = self.hystart.as_mut() {
            hs.on_congestion();
        }
        self.reduce_by(u64::from(beta_ecn));
        self.cwnd = self.cwnd.min(self.ssthresh);
        true
    }

    fn on_idle_restart(&mut self, cwnd: u32, ssthresh: u32) {
        // RFC 5681 §4.1 restart: W_max is kept; the next congestion-avoidance ACK starts a new
        // epoch (Linux's bictcp_cwnd_event moves the epoch on by the idle time instead).
        self.cwnd = cwnd.clamp(self.mss, self.max_cwnd);
        self.ssthresh = ssthresh.max(2 * self.mss);
        self.epoch = None;
        self.carry = 0;
    }
}

#[cfg(test)]
#[path = "cubic_tests.rs"]
mod tests;
