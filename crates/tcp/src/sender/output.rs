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
        if self.is_plain() {
            // What `next_segment` comes to for a plain sender (see `is_plain`): new data or the
            // go-back-N from snd_nxt, within the window and the send rules.
            let window_end = self.una + self.usable_window() + u64::from(self.lt_allow);
            let usable_end = self.new_data_end().min(window_end);
            let seg = self.send_from_nxt::<false>(now, usable_end, trace);
            let blocked = seg.is_none() && self.peer_window_blocked();
            self.track_stall(now, blocked);
            return seg;
        }
        self.poll_transmit_full(now, trace)
    }

    /// [`Sender::poll_transmit`] for any sender.
    #[inline(never)]
    fn poll_transmit_full(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        if self.syn.is_some() {
            return self.syn_transmit(now, trace);
        }
        if self.cfg.idle_restart.is_some() {
            self.idle_restart_check(now, trace);
        }
        if let Some(p) = self.pacer.as_mut() {
            if !p.advance(now) {
                self.pacer = None;
            }
        }
        let seg = self.next_segment(now, trace);
        let blocked = seg.is_none() && self.peer_window_blocked();
        self.track_stall(now, blocked);
        seg
    }

    /// Whether the sender is plain now, so that [`Sender::poll_transmit`] may skip the general
    /// path exactly: the handshake is over, none of today's parts run (`extras`), no Eifel
    /// burst pacer runs (its release changes state and withholds window), and the recovery
    /// part is the built-in Reno or NewReno with no forced retransmission waiting
    /// (`RecoveryPart::has_no_forced`: its `next_retransmission` and `next_fallback` return
    /// `None` and change nothing, its pipe is `None` and nothing is SACKed). `next_segment`
    /// then finds no retransmission and `send_new` sends from snd_nxt up to
    /// [`Sender::new_data_end`], its fallback (RFC 6675 NextSeg (3)-(4)) sending nothing.
    #[inline(always)]
    pub(crate) fn is_plain(&self) -> bool {
        self.syn.is_none()
            && !self.extras
            && self.pacer.is_none()
            && self.parts.recovery.has_no_forced()
    }

    /// Run the peer-window stall clock: `blocked` is [`Sender::peer_window_blocked`] when the
    /// poll sent nothing, `false` when it sent a segment.
    #[inline(always)]
    fn track_stall(&mut self, now: SimTime, blocked: bool) {
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
    }

    /// Whether data is ready to go but the peer's advertised window leaves room for less than
    /// a segment of it (full, or too small to use under sender silly-window avoidance), while
    /// cwnd and the send buffer would allow more: the sender waits for the receiver's
    /// application.
    #[inline(always)]
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
            return self.next_segment_extras(now, trace);
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

    /// `next_segment` with today's parts (`extras.rs`): the tail loss probe goes first; during
    /// a PRR recovery sndcnt decides instead of cwnd − pipe (RFC 6937); F-RTO's new segments
    /// go regardless of the window (RFC 5682 step 2b).
    #[inline(never)]
    fn next_segment_extras(
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
    fn send_new<const EXTRAS: bool>(
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
        let new_end = self.new_data_end();
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
        if self.nxt >= new_end {
            // RFC 6675 NextSeg (2) cannot send new data: rules (3) and (4).
            let view = self.view();
            let r = self.parts.recovery.next_fallback(now, view, budget)?;
            return Some(self.emit::<EXTRAS>(now, r.off, r.len, trace));
        }
        self.send_from_nxt::<EXTRAS>(now, new_end.min(window_end), trace)
    }

    /// Where new data must stop: the end of what the application wrote within the send buffer,
    /// and the peer's advertised window.
    #[inline(always)]
    fn new_data_end(&self) -> u64 {
        let buffered_end = self.written.min(self.una + u64::from(self.cfg.send_buffer));
        let peer_end = self.una + u64::from(self.peer_window);
        buffered_end.min(peer_end)
    }

    /// The segment from snd_nxt up to `usable_end` at most, if the send rules let it go now;
    /// snd_nxt moves past it.
    #[inline(always)]
    fn send_from_nxt<const EXTRAS: bool>(
        &mut self,
        now: SimTime,
        usable_end: u64,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        if self.nxt >= usable_end {
            return None;
        }
        let len = (usable_end - self.nxt).min(u64::from(self.cfg.mss)) as u32;
        let full = len == self.cfg.mss;
        let retransmission = self.nxt < self.max;
        // Nagle: a short segment that empties the send buffer goes only when nothing is
        // outstanding (tcp_output: idle and len + off >= sb_cc); with Minshall's modification
        // (Linux tcp_nagle_check, tcp_minshall_check) when no short segment sent earlier is
        // unacknowledged.
        let idle = self.max == self.una;
        let short_out = self.sml > self.una && self.sml <= self.nxt;
        let last_piece = self.nxt + u64::from(len) == self.written
            && (idle || (self.cfg.nagle_minshall && !short_out));
        let half_window = len >= self.max_peer_window / 2;
        if !(full || retransmission || last_piece || half_window) {
            return None;
        }
        let seg = self.emit::<EXTRAS>(now, self.nxt, len, trace);
        self.nxt += u64::from(len);
        if !full && !retransmission {
            // tcp_minshall_update.
            self.sml = self.nxt;
        }
        Some(seg)
    }

    /// Build the segment for `[off, off+len)`, update counters, timing and the timer;
    /// `EXTRAS`: today's parts run (the sender's `extras`), and see the segment.
    // Inlined into its callers (callgrind: its call and frame cost ~2 % of the reference run).
    #[inline(always)]
    pub(super) fn emit<const EXTRAS: bool>(
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
        let idle = EXTRAS && self.max == self.una;
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
        // Started when it is not running; with Linux's rule also restarted when the head goes again.
        if self.rexmt_at.is_none() || (rexmit_bytes > 0 && off == self.una && self.head_rearm()) {
            self.rexmt_at = Some(self.parts.rto.deadline(now));
        }
        if EXTRAS {
            self.extras_on_sent(now, (off, len), new_data, idle);
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
            wnd: self.data_wnd,
            ack_flag: true,
            opts: SegOptions {
                ts,
                wnd_shift: self.cfg.window_shift.unwrap_or(0),
                ecn: self.ecn_bits(rexmit_bytes == 0),
                ..SegOptions::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::{RenoCc, RenoFlavor};
    use crate::recovery::{NewRenoFlavor, NewRenoRecovery, RenoRecovery};
    use crate::rto::{BsdRto, BsdRtoConfig};
    use crate::spurious::{Eifel, EifelResponse};
    use crate::tests::bsd_reno::{ms, slow_clock, BASE};
    use crate::tests::net::{Log, Path, Poll};
    use crate::{
        DelayedAck, Receiver, ReceiverConfig, RecoveryPart, Sender, SenderConfig, SenderParts,
        SenderStats, SeqNum, SeqSpace,
    };
    use engine::{SimDuration, SimTime};

    const MSS: u32 = 1000;
    const SPACE: SeqSpace = SeqSpace { base: BASE };

    /// One lossy transfer: the sender's counters and state at the end, and what was logged.
    type Outcome = (SenderStats, u64, u64, Vec<(SimTime, Log)>);

    /// A Reno or NewReno transfer of 120.4 segments (a short last piece, so Nagle decides)
    /// through a 1 ms-per-segment bottleneck with losses of first transmissions, lost
    /// retransmissions (timeouts, go-back-N), a window the receiver holds small for a while
    /// (peer-window stalls), limited transmit and, with `eifel`, timestamps, the Eifel
    /// response and its burst pacer after spurious timeouts (an ACK path that stalls).
    fn transfer(newreno: bool, eifel: bool, poll: Poll) -> Outcome {
        let recovery: RecoveryPart = if newreno {
            NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3).into()
        } else {
            RenoRecovery::new(3).into()
        };
        let parts = SenderParts {
            cc: RenoCc::new(
                RenoFlavor::Net3 {
                    extra_mss_over_8: true,
                },
                MSS,
                2 * MSS,
                65535,
            )
            .into(),
            recovery,
            rto: BsdRto::new(BsdRtoConfig {
                clock: slow_clock(),
                min_ticks: 2,
                max_ticks: 128,
                initial_ticks: 6,
            })
            .into(),
            eifel: eifel.then(|| Eifel::new(EifelResponse::Dissertation)),
        };
        let ts = eifel.then_some(SimDuration::from_millis(10));
        let cfg = SenderConfig {
            limited_transmit: true,
            timestamps: ts,
            burst_pacer: eifel,
            ..SenderConfig::new(MSS, 16384)
        };
        let total = 120 * u64::from(MSS) + 400;
        let mut s = Sender::new(cfg, parts, SPACE, total);
        s.seed_rtt(ms(0), ms(40));
        let rcfg = ReceiverConfig {
            timestamps: ts,
            ..ReceiverConfig::new(MSS, 16384, DelayedAck::Off)
        };
        let r = Receiver::new(rcfg, SPACE, total, SeqNum(7));
        let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(20));
        p.ps_per_byte = 1_000_000;
        p.queue_limit = 12;
        p.drop = Box::new(|_, off, n| {
            let seg = off / u64::from(MSS);
            (n == 1 && seg % 17 == 5 && seg < 70) || (seg == 40 && n <= 2)
        });
        p.poll = poll;
        // The receiver's application lags at first: a small window for a while.
        p.ack_window = Some(3500);
        p.run_until(ms(300));
        p.ack_window = None;
        let mut t = ms(300);
        while p.sender.snd_una() < 80 * u64::from(MSS) {
            t += SimDuration::from_millis(1);
            p.run_until(t);
        }
        // The ACK path stalls longer than the timeout with nothing lost: a spurious timeout.
        p.ack_hold = Some((p.now, p.now + SimDuration::from_millis(2500)));
        p.run_until(ms(60_000));
        let s = &p.sender;
        (*s.stats(), s.snd_una(), s.snd_nxt(), p.log)
    }

    /// The plain sender's shortcut in `poll_transmit` sends what the general path sends, at
    /// the same times, with the same counters (the stall clock included), and changes nothing
    /// else: two runs of each transfer, one through each path, are the same.
    #[test]
    fn the_plain_shortcut_is_the_general_path() {
        for (newreno, eifel) in [(false, false), (true, false), (false, true), (true, true)] {
            let shortcut = transfer(newreno, eifel, |s, now, t| s.poll_transmit(now, t));
            let general = transfer(newreno, eifel, |s, now, t| s.poll_transmit_full(now, t));
            assert_eq!(shortcut, general, "newreno {newreno}, eifel {eifel}");
            let (stats, una, ..) = shortcut;
            assert_eq!(una, 120 * u64::from(MSS) + 400, "the transfer completes");
            assert!(stats.timeouts > 0 && stats.fast_retransmits > 0);
            assert!(stats.peer_window_stalled_ns > 0);
            assert_eq!(stats.spurious_timeouts > 0, eifel, "Eifel's response runs");
        }
    }
}
