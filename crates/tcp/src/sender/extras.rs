//! Where the sender calls today's parts (docs/modern.md): PRR (`prr.rs`), the tail
//! loss probe (`tlp.rs`), F-RTO (`frto.rs`) and a recovery part that tracks every send and has
//! its own timer (RACK). The hot paths call these hooks only behind one flag, `extras`, set
//! when the sender is built, so a sender without any of them does the work it did before they
//! existed; the hooks are kept out of line for the same reason.

use super::rate::AckContext;
use super::tlp::Tlp;
use super::Sender;
use crate::cc::CongestionControl as _;
use crate::recovery::LossRecovery as _;
use crate::recovery::LossResponse;
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

impl Sender {
    /// What a model-based congestion controller (BBR) believes, if the sender has one.
    pub fn model(&self) -> Option<crate::cc::ModelState> {
        self.parts.cc.model()
    }

    /// The pacing rate in bytes per second, if the congestion controller paces.
    pub fn pacing_rate(&self) -> Option<u64> {
        self.parts.cc.pacing_rate()
    }

    /// Whether retransmitting the oldest outstanding segment re-arms the retransmission timer
    /// (`SenderConfig::rearm_on_head_retransmit`): not while RACK's reordering timer is
    /// pending (Linux `tcp_xmit_retransmit_queue`: `icsk_pending != ICSK_TIME_REO_TIMEOUT`).
    #[inline(never)]
    pub(super) fn head_rearm(&self) -> bool {
        self.cfg.rearm_on_head_retransmit
            && !(self.track_sends && self.parts.recovery.poll_timeout().is_some())
    }

    /// The earliest of today's timers: the recovery part's and the probe timer.
    #[inline(never)]
    pub(super) fn extras_poll_timeout(&self) -> Option<SimTime> {
        let part = if self.track_sends {
            self.parts.recovery.poll_timeout()
        } else {
            None
        };
        let pto = self.tlp.as_ref().and_then(|t| t.pto_at);
        let pace = self
            .rate
            .as_ref()
            .filter(|r| r.pace_wait)
            .map(|r| r.pace_next);
        [part, pto, pace].into_iter().flatten().min()
    }

    /// An ACK that is neither new nor a counted duplicate (a window update, or a duplicate
    /// with nothing outstanding): it may still end a probe episode (RFC 8985 §7.4).
    #[inline(never)]
    pub(super) fn extras_other_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        pure_dup: bool,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        if self.tlp.is_some() {
            self.tlp_on_ack(now, ack, pure_dup, trace);
        }
    }

    /// After an ACK was processed: the probe episode (RFC 8985 §7.4), PRR, F-RTO, the probe
    /// timer. `(ack, acked)`: the cumulative ACK and the advance of `snd_una`; `dup`: a
    /// duplicate; `pure_dup`: one without SACK blocks; `started`: it started a recovery.
    #[inline(never)]
    pub(super) fn extras_after_ack(
        &mut self,
        now: SimTime,
        (ack, acked): (u64, u64),
        (dup, pure_dup): (bool, bool),
        started: bool,
        sack: &[(u64, u64)],
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        if self.tlp.is_some() {
            self.tlp_on_ack(now, ack, pure_dup, trace);
        }
        if self.rate.is_some() {
            // A delivery-rate sample for the controller, after the ACK's window operations.
            let cx = AckContext {
                in_flight: self
                    .parts
                    .recovery
                    .pipe(self.view())
                    .unwrap_or(self.max - self.una),
                loss: started,
                phase: self.phase(),
            };
            if let Some(r) = self.rate.as_mut() {
                let rs = r.on_ack(now, ack, sack, cx);
                self.parts.cc.on_rate_sample(&rs);
            }
        }
        self.prr_on_ack(acked, dup, started);
        if self.frto.is_some() {
            self.frto_on_ack(now, ack, dup, acked, trace);
        }
        if !dup && self.tlp.is_some() {
            // RFC 8985 §7.2: an ACK that advances snd_una (re)starts the probe timer.
            self.tlp_arm(now);
        }
    }

    /// A fast recovery started: no probe while it runs (RFC 8985 §7.2).
    #[inline(never)]
    pub(super) fn extras_recovery_started(&mut self) {
        if let Some(t) = self.tlp.as_mut() {
            t.pto_at = None;
        }
    }

    /// A timer may have expired: the recovery part's (RACK's reordering timer), then the probe
    /// timer. Returns whether a probe is due, which takes the retransmission timer's place.
    #[inline(never)]
    pub(super) fn extras_timeout(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> bool {
        if self.track_sends && self.parts.recovery.poll_timeout().is_some_and(|t| t <= now) {
            // RFC 8985 §6.3: losses the reordering timer marks outside recovery start one.
            let before = (self.cwnd(), self.ssthresh());
            let d = self.parts.recovery.on_timer(now, self.view());
            if let Some(LossResponse::FastRetransmit { inflate_segments }) = d.congestion {
                self.on_fast_retransmit(now, before, inflate_segments, trace);
                self.prr_on_ack(0, false, true);
                self.sample_window(now, trace);
            }
        }
        self.tlp.is_some() && self.tlp_fire(now, trace)
    }

    /// The retransmission timer fired (before its reductions: `flight` and `ssthresh` as they
    /// were): F-RTO's step 1; PRR and the probe episode end.
    #[inline(never)]
    pub(super) fn extras_rto(&mut self, flight: u32, ssthresh: u32) {
        if self.frto.is_some() {
            self.frto_on_timeout(flight, ssthresh);
        }
        self.prr = None;
        if let Some(t) = self.tlp.as_mut() {
            *t = Tlp::default();
        }
    }

    /// `[off, off + len)` left (`new_data`: it extends `snd_max`; `idle`: nothing was in
    /// flight before it).
    #[inline(never)]
    pub(super) fn extras_on_sent(
        &mut self,
        now: SimTime,
        (off, len): (u64, u32),
        new_data: bool,
        idle: bool,
    ) {
        if self.cfg.idle_restart.is_some() {
            self.last_sent = Some(now);
        }
        if let Some(r) = self.rate.as_mut() {
            r.on_sent(now, off, off + u64::from(len), idle);
            if let Some(rate) = self.parts.cc.pacing_rate() {
                r.paced(now, len, rate);
            }
        }
        if self.track_sends {
            self.parts.recovery.on_sent(now, off, len);
        }
        if self.prr.is_some() {
            self.prr_on_sent(u64::from(len));
        }
        if new_data {
            self.frto_new = self.frto_new.saturating_sub(1);
            if self.tlp.is_some() {
                // RFC 8985 §7.2: (re)start the probe timer after new data.
                self.tlp_arm(now);
            }
        }
    }
}
