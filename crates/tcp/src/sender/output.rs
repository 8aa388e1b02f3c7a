//! The output path of the [`Sender`] (4.4BSD-Lite `tcp_output`, Balakrishnan97 §2.1): what
//! may be sent now, the Nagle and silly-window rules, the peer-window stall clock, and building
//! a segment with its counters, RTT timing (Karn) and the retransmission timer.

use super::{Rexmt, Sender};
use crate::cc::CongestionControl as _;
use crate::recovery::LossRecovery as _;
use crate::rto::RtoEstimator as _;
use crate::segment::{SegOptions, Segment, Timestamps};
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

impl Sender {
    /// The next segment to transmit now, if the window and the send rules allow one.
    pub fn poll_transmit(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        if self.syn.is_some() {
            return self.syn_transmit(now, trace);
        }
        if let Some(p) = self.pacer.as_mut() {
            if !p.advance(now) {
                self.pacer = None;
            }
        }
        let seg = self.next_segment(now, trace);
        let blocked = seg.is_none() && self.peer_window_blocked();
        match (blocked, self.stall_since) {
            (true, None) => self.stall_since = Some(now),
            (false, Some(since)) => {
                let d = (now - since).as_nanos();
                self.stats.peer_window_stalled_ns += d;
                self.stats.longest_peer_window_stall_ns =
                    self.stats.longest_peer_window_stall_ns.max(d);
                self.stall_since = None;
            }
            _ => {}
        }
        seg
    }

    /// Whether data is ready to go but the peer's advertised window leaves room for less than
    /// a segment of it (full, or too small to use under sender silly-window avoidance), while
    /// cwnd and the send buffer would allow more: the sender waits for the receiver's
    /// application.
    fn peer_window_blocked(&self) -> bool {
        let ready = self
            .written
            .min(self.una + u64::from(self.cfg.send_buffer))
            .saturating_sub(self.nxt);
        let own_limit = self.parts.cc.cwnd().min(self.cfg.send_buffer);
        let peer_room = (self.una + u64::from(self.peer_window)).saturating_sub(self.nxt);
        let own_room = (self.una + u64::from(own_limit)).saturating_sub(self.nxt);
        ready > 0 && peer_room < ready.min(u64::from(self.cfg.mss)) && own_room > peer_room
    }

    fn next_segment(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        if self.extras {
            return self.next_segment_today(now, trace);
        }
        let view = self.view();
        let window = self.usable_window();
        let pipe = self.parts.recovery.pipe(view);
        let in_flight = pipe.unwrap_or(self.nxt - self.una);
        let budget = window.saturating_sub(in_flight);
        if let Some(r) = self.parts.recovery.next_retransmission(now, view, budget) {
            return Some(self.emit::<false>(now, r.off, r.len, trace));
        }
        self.send_new::<false>(now, (window, pipe, budget), None, trace)
    }

    /// `next_segment` with today's parts (`today.rs`): the tail loss probe goes first; during
    /// a PRR recovery sndcnt decides instead of cwnd − pipe (RFC 6937); F-RTO's new segments
    /// go regardless of the window (RFC 5682 step 2b).
    #[inline(never)]
    fn next_segment_today(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        if let Some(r) = self.rate.as_mut() {
            // Pacing (BBR): nothing leaves before the pacing time of the previous segment.
            r.pace_wait = self.parts.cc.pacing_rate().is_some() && now < r.pace_next;
            if r.pace_wait {
                return None;
            }
        }
        if self.tlp.as_ref().is_some_and(|t| t.probe) {
            return Some(self.tlp_probe(now, trace));
        }
        let prr = self.prr.as_ref().map(|r| r.allowance);
        let view = self.view();
        let window = self.usable_window();
        let pipe = self.parts.recovery.pipe(view);
        let in_flight = pipe.unwrap_or(self.nxt - self.una);
        let budget = prr.unwrap_or_else(|| window.saturating_sub(in_flight));
        if let Some(r) = self.parts.recovery.next_retransmission(now, view, budget) {
            return Some(self.emit::<true>(now, r.off, r.len, trace));
        }
        let frto = u64::from(self.frto_new * self.cfg.mss);
        let extra = Some((prr, frto));
        let seg = self.send_new::<true>(now, (window, pipe, budget), extra, trace);
        if seg.is_none() && self.written.saturating_sub(self.nxt) < u64::from(self.cfg.mss) {
            // Nothing (or less than a segment) left to send with the window open: the sender is
            // application-limited (draft-cheng-iccrg-delivery-rate-estimation §3.4).
            let in_flight = pipe.unwrap_or(self.nxt - self.una);
            if in_flight < u64::from(self.parts.cc.cwnd()) {
                if let Some(r) = self.rate.as_mut() {
                    r.mark_app_limited(in_flight);
                }
            }
        }
        seg
    }

    /// min(cwnd, peer window), less what the Eifel burst pacer withholds.
    #[inline(always)]
    fn usable_window(&self) -> u64 {
        let withheld = self.pacer.map_or(0, |p| p.withheld());
        u64::from(
            self.parts
                .cc
                .cwnd()
                .min(self.peer_window)
                .saturating_sub(withheld),
        )
    }

    /// New data (or the go-back-N) from `snd_nxt`, within `window` given the recovery part's
    /// `pipe` (and, when no new data may go, RFC 6675's NextSeg rules (3) and (4) within
    /// `budget`); `today`: PRR's allowance and F-RTO's bytes beyond the window, if today's
    /// parts run.
    #[inline(always)]
    fn send_new<const TODAY: bool>(
        &mut self,
        now: SimTime,
        (window, pipe, budget): (u64, Option<u64>, u64),
        today: Option<(Option<u64>, u64)>,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        // Skip data the receiver already holds (selectively acknowledged) when going back.
        while self.nxt < self.max && self.parts.recovery.is_sacked(self.nxt) {
            self.nxt = (self.nxt + u64::from(self.cfg.mss)).min(self.max);
        }
        let buffered_end = self.written.min(self.una + u64::from(self.cfg.send_buffer));
        let peer_end = self.una + u64::from(self.peer_window);
        let mut window_end = match pipe {
            // RFC 6675 §5: send while pipe < cwnd, within the peer's window.
            Some(p) => self.nxt + window.saturating_sub(p),
            None => self.una + window + u64::from(self.lt_allow),
        };
        if let Some((prr, frto)) = today {
            if let Some(allowance) = prr {
                window_end = self.nxt + allowance;
            }
            window_end = window_end.max(self.nxt + frto);
        }
        let usable_end = buffered_end.min(window_end).min(peer_end);
        if self.nxt >= buffered_end.min(peer_end) {
            // RFC 6675 NextSeg (2) cannot send new data: rules (3) and (4).
            let view = self.view();
            let r = self.parts.recovery.next_fallback(now, view, budget)?;
            return Some(self.emit::<TODAY>(now, r.off, r.len, trace));
        }
        if self.nxt >= usable_end {
            return None;
        }
        let len = (usable_end - self.nxt).min(u64::from(self.cfg.mss)) as u32;
        let full = len == self.cfg.mss;
        let retransmission = self.nxt < self.max;
        // Nagle: a short segment that empties the send buffer goes only when nothing is
        // outstanding (tcp_output: idle and len + off >= sb_cc).
        let last_piece = self.nxt + u64::from(len) == self.written && self.max == self.una;
        let half_window = len >= self.max_peer_window / 2;
        if !(full || retransmission || last_piece || half_window) {
            return None;
        }
        let seg = self.emit::<TODAY>(now, self.nxt, len, trace);
        self.nxt += u64::from(len);
        Some(seg)
    }

    /// Build the segment for `[off, off+len)`, update counters, timing and the timer;
    /// `TODAY`: today's parts run (the sender's `extras`), and see the segment.
    // Inlined into its callers (callgrind: its call and frame cost ~2 % of the reference run).
    #[inline(always)]
    pub(super) fn emit<const TODAY: bool>(
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
            // Karn: a retransmission ends the current RTT measurement.
            if matches!(self.timing, Some((t, _)) if t >= off && t < end) {
                self.timing = None;
            }
        }
        let new_data = end > self.max;
        let idle = TODAY && self.max == self.una;
        if new_data {
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
        if self.cfg.rexmt == Rexmt::Precise {
            self.send_log.sent(off, end, now);
        }
        if self.rexmt_at.is_none() {
            self.rexmt_at = Some(self.parts.rto.deadline(now));
        }
        if TODAY {
            self.today_on_sent(now, (off, len), new_data, idle);
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
        let ts = self.cfg.timestamps.map(|_| Timestamps {
            val: self.tsval(now),
            ecr: self.ts_recent,
        });
        Segment {
            seq: self.space.seq(off),
            ack: self.peer_seq,
            len,
            wnd: self.cfg.send_buffer.min(65535),
            ack_flag: true,
            opts: SegOptions {
                ts,
                ..SegOptions::default()
            },
        }
    }
}
