//! The TCP sender, assembled from a [`CongestionControl`], a [`LossRecovery`] and an
//! [`RtoEstimator`] (DESIGN.md). It is sans-IO: the caller feeds ACKs and timer expiries with the
//! current time and pulls segments to transmit; it never reads a clock or schedules events.
//!
//! The output rules follow 4.4BSD-Lite `tcp_output` (Balakrishnan97 §2.1): the usable window is
//! `min(cwnd, peer window)` limited by the send buffer; full-sized segments go at once; a short
//! segment goes only when it is a retransmission or the final piece of data with nothing
//! outstanding (Nagle); one segment is timed at a time for RTT (Karn's rule: timing stops at any
//! retransmission); a fast retransmit resends `snd_una` regardless of the window; a timeout goes
//! back to `snd_una` (go-back-N).

use crate::cc::{AckSample, CongestionControl, CongestionEvent};
use crate::recovery::{DupAckAction, LossRecovery, NewAckAction, Phase, SenderView};
use crate::rto::RtoEstimator;
use crate::segment::Segment;
use crate::seq::{SeqNum, SeqSpace};
use crate::trace::{SenderEvent, SenderStats};
use engine::{SimTime, TraceSink};

/// Fixed knobs of a sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderConfig {
    /// Maximum segment size (payload bytes).
    pub mss: u32,
    /// Send socket buffer in bytes: bounds unacknowledged plus unsent data.
    pub send_buffer: u32,
    /// Window the peer is assumed to advertise before its first ACK.
    pub initial_peer_window: u32,
}

/// The parts a sender is built from.
pub struct SenderParts {
    /// How much may be in flight.
    pub cc: Box<dyn CongestionControl>,
    /// What is lost and how to react to ACKs.
    pub recovery: Box<dyn LossRecovery>,
    /// When to time out.
    pub rto: Box<dyn RtoEstimator>,
}

/// A bulk-transfer TCP sender of `total` bytes.
pub struct Sender {
    cfg: SenderConfig,
    parts: SenderParts,
    space: SeqSpace,
    total: u64,
    /// Stream offsets: oldest unacked, next to send, highest sent.
    una: u64,
    nxt: u64,
    max: u64,
    peer_window: u32,
    max_peer_window: u32,
    dupacks: u32,
    rexmt_at: Option<SimTime>,
    /// The timed segment: its start offset and send time (t_rtseq, t_rtt).
    timing: Option<(u64, SimTime)>,
    /// A fast retransmission waiting to go out.
    fast_rexmit: bool,
    /// What our data segments acknowledge: the peer's next sequence number (its ISN + 1; the
    /// peer sends no data in a one-way transfer).
    peer_seq: SeqNum,
    stats: SenderStats,
}

impl Sender {
    /// A sender whose first data byte has sequence number `space.base`.
    pub fn new(cfg: SenderConfig, parts: SenderParts, space: SeqSpace, total: u64) -> Self {
        Sender {
            cfg,
            parts,
            space,
            total,
            una: 0,
            nxt: 0,
            max: 0,
            peer_window: cfg.initial_peer_window,
            max_peer_window: cfg.initial_peer_window,
            dupacks: 0,
            rexmt_at: None,
            timing: None,
            fast_rexmit: false,
            peer_seq: SeqNum(0),
            stats: SenderStats::default(),
        }
    }

    /// Set the sequence number our segments acknowledge (the peer's ISN + 1).
    pub fn set_peer_seq(&mut self, peer_seq: SeqNum) {
        self.peer_seq = peer_seq;
    }

    /// Seed the RTT estimator with the handshake's round trip, as a BSD stack times its SYN.
    pub fn seed_rtt(&mut self, sent: SimTime, acked: SimTime) {
        self.parts.rto.on_sample(sent, acked);
    }

    /// Counters so far.
    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }

    /// Whether every byte has been acknowledged.
    pub fn is_done(&self) -> bool {
        self.una >= self.total
    }

    /// Current congestion window in bytes.
    pub fn cwnd(&self) -> u32 {
        self.parts.cc.cwnd()
    }

    /// Current slow-start threshold in bytes.
    pub fn ssthresh(&self) -> u32 {
        self.parts.cc.ssthresh()
    }

    /// The loss-recovery phase.
    pub fn phase(&self) -> Phase {
        self.parts.recovery.phase()
    }

    /// Oldest unacknowledged stream offset.
    pub fn snd_una(&self) -> u64 {
        self.una
    }

    /// The instant of the next timer expiry, if a timer runs.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.rexmt_at
    }

    fn view(&self) -> SenderView {
        SenderView {
            snd_una: self.space.seq(self.una),
            snd_max: self.space.seq(self.max),
        }
    }

    fn flight(&self) -> u32 {
        (self.max - self.una).min(u64::from(u32::MAX)) as u32
    }

    fn sample_window(&self, now: SimTime, trace: &mut dyn TraceSink<SenderEvent>) {
        if trace.enabled() {
            trace.record(
                now,
                SenderEvent::Window {
                    cwnd: self.cwnd(),
                    ssthresh: self.ssthresh(),
                    snd_una: self.una,
                    snd_nxt: self.nxt,
                    rto_ns: self.parts.rto.current().as_nanos(),
                    phase: self.phase(),
                },
            );
        }
    }

    /// Process an acknowledgment from the receiver.
    pub fn on_ack(&mut self, now: SimTime, seg: &Segment, trace: &mut dyn TraceSink<SenderEvent>) {
        let ack = self.space.offset(seg.ack, self.una);
        if ack > self.max {
            // Acknowledges data never sent: ignore (tcp_input "dropafterack").
            return;
        }
        if ack <= self.una {
            // RFC 5681 §2 / Net/3: a duplicate ACK carries no data, acknowledges snd_una, does not
            // change the window, and arrives while data is outstanding and the timer runs.
            let is_dup = seg.len == 0
                && seg.wnd == self.peer_window
                && ack == self.una
                && self.max > self.una
                && self.rexmt_at.is_some();
            if !is_dup {
                self.dupacks = 0;
                self.update_window(seg.wnd);
                return;
            }
            self.dupacks += 1;
            self.stats.dupacks_received += 1;
            match self.parts.recovery.on_dupack(self.dupacks, self.view()) {
                DupAckAction::Ignore => {}
                DupAckAction::FastRetransmit => self.fast_retransmit(now, trace),
                DupAckAction::Inflate => self.parts.cc.on_recovery_dupack(),
            }
            self.sample_window(now, trace);
            return;
        }

        // New data acknowledged.
        let acked = (ack - self.una) as u32;
        let flight_before = self.flight();
        if self.parts.recovery.on_new_ack(seg.ack, self.view()) == NewAckAction::ExitRecovery {
            self.parts.cc.on_recovery_exit();
        }
        self.dupacks = 0;
        if let Some((timed, sent)) = self.timing {
            if ack > timed {
                self.parts.rto.on_sample(sent, now);
                self.timing = None;
            }
        }
        self.rexmt_at = if ack >= self.max {
            None
        } else {
            Some(self.parts.rto.deadline(now))
        };
        self.parts.cc.on_ack(AckSample {
            acked_bytes: acked,
            flight_bytes: flight_before,
        });
        self.una = ack;
        if self.nxt < self.una {
            self.nxt = self.una;
        }
        self.update_window(seg.wnd);
        if trace.enabled() {
            trace.record(now, SenderEvent::Acked { ack: self.una });
        }
        self.sample_window(now, trace);
    }

    fn update_window(&mut self, wnd: u32) {
        self.peer_window = wnd;
        self.max_peer_window = self.max_peer_window.max(wnd);
    }

    fn fast_retransmit(&mut self, now: SimTime, trace: &mut dyn TraceSink<SenderEvent>) {
        self.stats.fast_retransmits += 1;
        self.parts
            .cc
            .on_congestion(CongestionEvent::FastRetransmit {
                flight_bytes: self.flight(),
                peer_window: self.peer_window,
                dupacks: self.dupacks,
            });
        // Net/3: the retransmit timer and RTT timing are cancelled, then re-armed by the output.
        self.rexmt_at = None;
        self.timing = None;
        self.fast_rexmit = true;
        if trace.enabled() {
            trace.record(now, SenderEvent::FastRetransmit { seq: self.una });
        }
    }

    /// The retransmission timer may have expired; `now` is the current time.
    pub fn on_timeout(&mut self, now: SimTime, trace: &mut dyn TraceSink<SenderEvent>) {
        match self.rexmt_at {
            Some(at) if at <= now => {}
            _ => return,
        }
        self.stats.timeouts += 1;
        self.parts.rto.on_timeout();
        self.parts.cc.on_congestion(CongestionEvent::Timeout {
            flight_bytes: self.flight(),
            peer_window: self.peer_window,
        });
        self.parts.recovery.on_timeout(self.view());
        self.nxt = self.una;
        self.dupacks = 0;
        self.timing = None;
        self.fast_rexmit = false;
        self.rexmt_at = Some(self.parts.rto.deadline(now));
        if trace.enabled() {
            trace.record(
                now,
                SenderEvent::Timeout {
                    seq: self.una,
                    backoff: self.parts.rto.backoff_shift(),
                },
            );
        }
        self.sample_window(now, trace);
    }

    /// The next segment to transmit now, if the window and the send rules allow one.
    pub fn poll_transmit(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        if self.fast_rexmit {
            self.fast_rexmit = false;
            let len = (self.max - self.una).min(u64::from(self.cfg.mss)) as u32;
            if len > 0 {
                return Some(self.emit(now, self.una, len, trace));
            }
        }
        let window = u64::from(self.parts.cc.cwnd().min(self.peer_window));
        let buffered_end = self.total.min(self.una + u64::from(self.cfg.send_buffer));
        let usable_end = buffered_end.min(self.una + window);
        if self.nxt >= usable_end {
            return None;
        }
        let len = (usable_end - self.nxt).min(u64::from(self.cfg.mss)) as u32;
        let full = len == self.cfg.mss;
        let retransmission = self.nxt < self.max;
        // Nagle: the final short segment waits until nothing is outstanding.
        let last_piece = self.nxt + u64::from(len) == self.total && self.max == self.una;
        let half_window = len >= self.max_peer_window / 2;
        if !(full || retransmission || last_piece || half_window) {
            return None;
        }
        let seg = self.emit(now, self.nxt, len, trace);
        self.nxt += u64::from(len);
        Some(seg)
    }

    /// Build the segment for `[off, off+len)`, update counters, timing and the timer.
    fn emit(
        &mut self,
        now: SimTime,
        off: u64,
        len: u32,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Segment {
        let end = off + u64::from(len);
        let rexmit_bytes = self.max.min(end).saturating_sub(off);
        if rexmit_bytes > 0 {
            self.stats.retransmitted_segments += 1;
            self.stats.retransmitted_bytes += rexmit_bytes;
        }
        if end > self.max {
            if self.timing.is_none() && off >= self.max {
                self.timing = Some((off, now));
            }
            self.max = end;
        }
        if self.stats.first_send.is_none() {
            self.stats.first_send = Some(now);
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += u64::from(len);
        if self.rexmt_at.is_none() {
            self.rexmt_at = Some(self.parts.rto.deadline(now));
        }
        if trace.enabled() {
            trace.record(
                now,
                SenderEvent::Sent {
                    seq: off,
                    len,
                    retransmission: rexmit_bytes > 0,
                },
            );
        }
        Segment {
            seq: self.space.seq(off),
            ack: self.peer_seq,
            len,
            wnd: self.cfg.send_buffer.min(65535),
            ack_flag: true,
        }
    }
}
