//! The TCP sender, assembled from a [`CongestionControl`], a [`LossRecovery`], an
//! [`RtoEstimator`] and optionally the Eifel detector (DESIGN.md). It is sans-IO: the caller
//! feeds ACKs and timer expiries with the current time and pulls segments to transmit; it never
//! reads a clock or schedules events.
//!
//! The output rules follow 4.4BSD-Lite `tcp_output` (Balakrishnan97 §2.1): the usable window is
//! `min(cwnd, peer window)` limited by the send buffer; full-sized segments go at once; a short
//! segment goes only when it is a retransmission or the final piece of data with nothing
//! outstanding (Nagle; with `nagle_minshall`, Linux's rule: with no short segment
//! outstanding); one segment is timed at a time for RTT (Karn's rule: timing stops at any
//! retransmission); retransmissions the recovery part asks for go before new data; a timeout
//! goes back to `snd_una` (go-back-N). With RFC 7323 timestamps every ACK of new data is an RTT
//! sample instead. Limited transmit (RFC 3042) is a knob. With Eifel, a fast retransmit asked
//! for after a timeout already resent the segment is suppressed (Ludwig2000 §3.1.2, the late
//! third duplicate ACK; [`crate::spurious::LateDupack`]).
//!
//! By default the application has written the whole transfer before the first send (a bulk
//! source). [`Sender::with_app_limit`] and [`Sender::set_app_limit`] make the sender
//! application-limited instead: only bytes below the limit may be sent, as in a socket whose
//! writer supplies data over time (the wireless leg of the split proxy, which may send only what
//! is in its relay buffer).
//!
//! The sender also measures how long it was held back by the peer's advertised window (data
//! ready, the window full, while cwnd and the send buffer would allow more): the fixed host's
//! stall on a full relay buffer (Balakrishnan97 §B.2).

use crate::cc::{AckSample, CongestionControl};
use crate::recovery::{
    AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, SenderView, WindowOp,
};
use crate::rto::RtoEstimator;
use crate::segment::Segment;
use crate::seq::{SeqNum, SeqSpace};
use crate::spurious::Frto;
use crate::trace::{SenderEvent, SenderStats};
use engine::{SimDuration, SimTime, TraceSink};

mod config;
mod ecn;
mod eifel;
mod elsn;
mod extras;
mod frto;
mod idle;
mod loss;
mod notify;
mod output;
mod pacer;
mod parts;
mod prr;
mod rate;
mod samples;
mod send_log;
mod syn;
mod tlp;

pub use config::{Rexmt, SenderConfig};
pub use idle::IdleRestart;
use pacer::Pacer;
pub use parts::{CcPart, RecoveryPart, RtoPart, SenderParts};
use prr::PrrRun;
use rate::RateSampler;
use send_log::SendLog;
use tlp::Tlp;

/// A bulk-transfer TCP sender of `total` bytes.
pub struct Sender {
    cfg: SenderConfig,
    parts: SenderParts,
    space: SeqSpace,
    total: u64,
    /// Bytes the application has written so far (the stream offset sending may not pass).
    written: u64,
    /// Since when the peer's window has held back ready data, if it does now.
    stall_since: Option<SimTime>,
    /// Stream offsets: oldest unacked, next to send, highest sent.
    una: u64,
    nxt: u64,
    max: u64,
    /// End of the last short new segment sent (Linux's `snd_sml`, for Minshall's Nagle).
    sml: u64,
    peer_window: u32,
    max_peer_window: u32,
    dupacks: u32,
    rexmt_at: Option<SimTime>,
    /// The timed segment: its start offset and send time (t_rtseq, t_rtt).
    timing: Option<(u64, SimTime)>,
    /// Extra bytes limited transmit lets beyond the window.
    lt_allow: u32,
    /// `snd_max` when limited transmit first let data go in this run of duplicates: what was
    /// sent from there beyond `snd_una` + cwnd, up to the fast retransmit, was limited
    /// transmit's, which the loss response leaves out of FlightSize (RFC 5681 §3.2 (2); RFC
    /// 6675 §5 (4.2)).
    lt_from: Option<u64>,
    /// cwnd stored by a recovery part (`WindowOp::Save`, TCP-ELN).
    saved_cwnd: u32,
    /// A fine smoothed RTT (ns) for once-per-RTT rules, independent of the timer's estimate.
    srtt_fine: Option<u64>,
    /// The estimator's smoothed RTT in slow-timer ticks, refreshed with every sample.
    srtt_ticks: u32,
    /// Pacing of the burst after an Eifel restore, while it lasts.
    pacer: Option<Pacer>,
    /// Send times of outstanding segments (kept only for [`Rexmt::Precise`]).
    send_log: SendLog,
    /// PRR's state during a fast recovery (only with [`SenderConfig::prr`]).
    prr: Option<PrrRun>,
    /// The SACKed bytes after the previous ACK (PRR's ΔSACKd).
    prr_sacked: Option<u64>,
    /// The recovery part wants every send and has a timer (asked once: RACK).
    track_sends: bool,
    /// Any of today's parts is on (PRR, TLP, F-RTO, a part that tracks sends): the one check
    /// the hot paths make for them, so that a sender without them does no more work.
    extras: bool,
    /// Tail loss probe state (only with [`SenderConfig::tlp`]).
    tlp: Option<Tlp>,
    /// F-RTO (only with [`SenderConfig::frto`]).
    frto: Option<Frto>,
    /// New segments F-RTO lets out beyond the window (RFC 5682 step 2b).
    frto_new: u32,
    /// Delivery-rate samples and pacing, for a controller that wants them (BBR).
    rate: Option<Box<RateSampler>>,
    /// TS.Recent: the latest TSval from the peer, echoed in our segments.
    ts_recent: u32,
    /// What our data segments acknowledge: the peer's next sequence number (its ISN + 1; the
    /// peer sends no data in a one-way transfer).
    peer_seq: SeqNum,
    stats: SenderStats,
    /// The opening handshake while it runs.
    syn: Option<syn::Syn>,
    /// RFC 3168 ECN (only with [`SenderConfig::ecn`]).
    ecn: Option<ecn::EcnState>,
    /// The window field of every data segment (the send buffer, scaled if the connection
    /// scales windows): computed once, not per segment.
    data_wnd: u32,
    /// When data last left (kept only with [`SenderConfig::idle_restart`]).
    last_sent: Option<SimTime>,
}

impl Sender {
    /// A sender whose first data byte has sequence number `space.base`.
    pub fn new(cfg: SenderConfig, parts: SenderParts, space: SeqSpace, total: u64) -> Self {
        let track_sends = parts.recovery.tracks_sends();
        let rate = parts.cc.wants_rate_samples().then(Box::default);
        let extras = track_sends
            || cfg.prr.is_some()
            || cfg.tlp
            || cfg.frto
            || rate.is_some()
            || cfg.idle_restart.is_some();
        Sender {
            track_sends,
            extras,
            tlp: cfg.tlp.then(Tlp::default),
            frto: cfg.frto.then(Frto::new),
            frto_new: 0,
            rate,
            cfg,
            parts,
            space,
            total,
            written: total,
            stall_since: None,
            una: 0,
            nxt: 0,
            max: 0,
            sml: 0,
            peer_window: cfg.initial_peer_window,
            max_peer_window: cfg.initial_peer_window,
            dupacks: 0,
            rexmt_at: None,
            timing: None,
            lt_allow: 0,
            lt_from: None,
            saved_cwnd: 0,
            srtt_fine: None,
            srtt_ticks: 0,
            pacer: None,
            send_log: SendLog::default(),
            prr: None,
            prr_sacked: None,
            ts_recent: 0,
            peer_seq: SeqNum(0),
            stats: SenderStats::default(),
            syn: cfg.syn.then(syn::Syn::new),
            ecn: cfg.ecn.then(|| ecn::EcnState::new(cfg.abe)),
            data_wnd: match cfg.window_shift {
                None => cfg.send_buffer.min(65535),
                shift => crate::wscale::advertise(u64::from(cfg.send_buffer), shift),
            },
            last_sent: None,
        }
    }

    /// Set the sequence number our segments acknowledge (the peer's ISN + 1).
    pub fn set_peer_seq(&mut self, peer_seq: SeqNum) {
        self.peer_seq = peer_seq;
    }

    /// Seed the RTT estimator with the handshake's round trip, as a BSD stack times its SYN.
    pub fn seed_rtt(&mut self, sent: SimTime, acked: SimTime) {
        self.parts.rto.on_sample(sent, acked);
        self.fine_sample(sent, acked);
    }

    /// The same sender, application-limited from the start: the application has written only
    /// the first `written` bytes (e.g. 0). Raise the limit with [`Sender::set_app_limit`].
    pub fn with_app_limit(mut self, written: u64) -> Self {
        self.written = written.min(self.total);
        self
    }

    /// The application has written the first `written` bytes of the stream (capped at the
    /// transfer size); only those may be sent. The limit only grows: a value below the current
    /// one is ignored. Call [`Sender::poll_transmit`] afterwards, as after any other input.
    pub fn set_app_limit(&mut self, written: u64) {
        self.written = self.written.max(written.min(self.total));
    }

    /// Ground truth from the network: the flow's available rate now, in bytes per second, for
    /// a controller that takes it (the ideal-BWE oracle, eln-llelsn spec §4.13 (c)).
    pub fn set_available_rate(&mut self, bytes_per_s: u64) {
        self.parts.cc.on_available_rate(bytes_per_s);
    }

    /// The application closes the stream after what has been sent so far (a long-lived flow's
    /// stop time): no new data follows, what is in flight is still delivered and repaired.
    pub fn close_after_sent(&mut self) {
        self.total = self.total.min(self.max.max(self.una));
        self.written = self.written.min(self.total);
    }

    /// Bytes the application has written so far (the transfer size for a bulk sender).
    pub fn app_limit(&self) -> u64 {
        self.written
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

    /// Next stream offset to send.
    pub fn snd_nxt(&self) -> u64 {
        self.nxt
    }

    /// The instant of the next timer expiry, if a timer runs.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        if let Some(at) = self.syn_deadline() {
            return at;
        }
        let mut at = self.rexmt_at;
        let mut earliest = |t: Option<SimTime>| {
            if let Some(t) = t {
                at = Some(at.map_or(t, |a| a.min(t)));
            }
        };
        earliest(self.pacer.map(|p| p.next()));
        if self.extras {
            earliest(self.extras_poll_timeout());
        }
        at
    }

    fn view(&self) -> SenderView {
        SenderView {
            snd_una: self.una,
            snd_nxt: self.nxt,
            snd_max: self.max,
            mss: self.cfg.mss,
        }
    }

    fn flight(&self) -> u32 {
        (self.max - self.una).min(u64::from(u32::MAX)) as u32
    }

    fn tsval(&self, now: SimTime) -> u32 {
        match self.cfg.timestamps {
            // Ticks since time zero, plus one so that zero never appears as a TSval.
            Some(g) => (now.as_nanos() / g.as_nanos().max(1)) as u32 + 1,
            None => 0,
        }
    }

    /// Process an acknowledgment from the receiver.
    pub fn on_ack(&mut self, now: SimTime, seg: &Segment, trace: &mut dyn TraceSink<SenderEvent>) {
        if self.syn.is_some() || seg.opts.syn.is_some() {
            // The handshake, or a late SYN-ACK (for a resent SYN) after it: no ACK of data.
            return self.syn_ack(now, seg, trace);
        }
        let ack = self.space.offset(seg.ack, self.una);
        if ack > self.max {
            // Acknowledges data never sent: ignore (tcp_input "dropafterack").
            return;
        }
        if let Some(ts) = seg.opts.ts {
            self.ts_recent = ts.val;
        }
        if (seg.opts.cw || seg.opts.nack.is_some()) && self.on_marks(now, seg, ack) {
            return;
        }
        if seg.opts.ecn.ece {
            self.on_ece(ack);
        }
        let mut sack = [(0u64, 0u64); crate::segment::MAX_SACK_BLOCKS];
        let mut n = 0;
        for &(l, r) in seg.opts.sack.as_slice() {
            sack[n] = (
                self.space.offset(l, self.una),
                self.space.offset(r, self.una),
            );
            n += 1;
        }
        let mut input = AckInput {
            now,
            kind: AckKind::Dup { count: 0 },
            ack,
            sack: &sack[..n],
            smart: seg.opts.smart.map(|s| self.space.offset(s, self.una)),
            eln: seg.opts.eln,
            cc: seg.opts.cc,
            srtt: SimDuration(self.srtt_fine.unwrap_or(0)),
            srtt_ticks: self.srtt_ticks,
        };
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
                if self.extras {
                    self.extras_other_ack(now, ack, seg.len == 0 && n == 0, trace);
                }
                return;
            }
            self.dupacks += 1;
            self.stats.dupacks_received += 1;
            input.kind = AckKind::Dup {
                count: self.dupacks,
            };
            let cwnd_before = self.cwnd();
            let ssthresh_before = self.ssthresh();
            let d = self.parts.recovery.on_ack(&input, self.view());
            match d.window {
                // RFC 6937: PRR replaces Reno's inflation.
                WindowOp::Inflate if self.cfg.prr.is_some() => {}
                WindowOp::Inflate => self.parts.cc.on_recovery_dupack(),
                WindowOp::Save { inflate } => {
                    self.saved_cwnd = self.parts.cc.cwnd();
                    if inflate {
                        self.parts.cc.on_recovery_dupack();
                    }
                }
                WindowOp::Restore => self.restore_cwnd(),
                _ => {}
            }
            let started = d.congestion.is_some();
            if let Some(LossResponse::FastRetransmit { inflate_segments }) = d.congestion {
                if !self.suppress_late_fast_retransmit(now, trace) {
                    let before = (cwnd_before, ssthresh_before);
                    self.on_fast_retransmit(now, before, inflate_segments, trace);
                }
            } else if self.cfg.limited_transmit && self.dupacks <= 2 && self.phase() == Phase::Open
            {
                // RFC 3042 §2: one new segment per duplicate, at most cwnd + 2 segments.
                self.lt_allow = self.dupacks * self.cfg.mss;
                self.lt_from.get_or_insert(self.max);
            }
            if self.extras {
                let sack = &sack[..n];
                self.extras_after_ack(now, (ack, 0), (true, n == 0), started, sack, trace);
            }
            self.sample_window(now, trace);
            return;
        }

        // New data acknowledged.
        let acked = ack - self.una;
        let flight_before = self.flight();
        input.kind = AckKind::New { acked };
        self.dupacks = 0;
        self.clear_limited_transmit();
        let ts_sample = self
            .cfg
            .timestamps
            .zip(seg.opts.ts)
            .filter(|(_, t)| t.ecr != 0);
        let mut sampled = None;
        if let Some((g, t)) = ts_sample {
            // RFC 7323 §4.1: every ACK of new data gives a sample from the echoed timestamp.
            let sent = SimTime(u64::from(t.ecr - 1) * g.as_nanos());
            self.observe_load();
            self.parts.rto.on_sample(sent, now);
            self.fine_sample(sent, now);
            self.timing = None;
            sampled = Some(sent);
        } else if let Some((timed, sent)) = self.timing {
            if ack > timed {
                self.observe_load();
                self.parts.rto.on_sample(sent, now);
                self.fine_sample(sent, now);
                self.timing = None;
                sampled = Some(sent);
            }
        }
        let running = self.rexmt_at;
        self.rexmt_at = if ack >= self.max {
            None
        } else if self.cfg.rexmt == Rexmt::Precise {
            self.send_log.acked(ack);
            let sent = self.send_log.oldest().unwrap_or(now);
            Some(self.parts.rto.deadline_for(sent, now))
        } else {
            Some(self.parts.rto.deadline(now))
        };
        if let Some(sent) = sampled {
            self.record_rtt_sample(now, sent, trace);
        }
        let before = (self.cwnd(), self.ssthresh());
        let d = self.parts.recovery.on_ack(&input, self.view());
        if running.is_some() && ack < self.max && self.parts.recovery.keeps_timer() {
            // ns-2.35 tcp-newreno.cc:91-104 (`newreno_changes1_`): a later partial ACK of the
            // same recovery leaves the timer where the first one set it.
            self.rexmt_at = running;
        }
        self.una = ack;
        if self.nxt < self.una {
            self.nxt = self.una;
        }
        if d.window == WindowOp::Restore {
            // Before a congestion response on the same ACK, which then halves it (TCP-ELN).
            self.restore_cwnd();
        }
        // A part that sees losses in selective information (SMART) may respond on any ACK.
        if let Some(LossResponse::FastRetransmit { inflate_segments }) = d.congestion {
            self.on_fast_retransmit(now, before, inflate_segments, trace);
        }
        let rtt = sampled.map(|sent| now.saturating_since(sent));
        self.apply_new(now, d, (acked, rtt), flight_before);
        self.update_window(seg.wnd);
        // RFC 6675 §5 (1)-(2): an ACK of new data that SACKs new octets outside recovery is
        // also the first duplicate (DupAcks reset, then counted); asked only of SACK ACKs.
        if n > 0 && self.max > self.una && self.parts.recovery.new_ack_is_duplicate() {
            self.dupacks = 1;
            let dup = AckInput {
                kind: AckKind::Dup { count: 1 },
                ..input
            };
            let before = (self.cwnd(), self.ssthresh());
            let d = self.parts.recovery.on_ack(&dup, self.view());
            if let Some(LossResponse::FastRetransmit { inflate_segments }) = d.congestion {
                self.on_fast_retransmit(now, before, inflate_segments, trace);
            } else if self.cfg.limited_transmit {
                // RFC 3042 §2 (RFC 6675 §5 (2.3)): one new segment for this duplicate.
                self.lt_allow = self.cfg.mss;
                self.lt_from = Some(self.max);
            }
        }
        self.eifel_on_new_ack(now, seg, acked, trace);
        if self.extras {
            let started = d.congestion.is_some();
            let sack = &sack[..n];
            self.extras_after_ack(now, (ack, acked), (false, false), started, sack, trace);
        }
        if trace.enabled() {
            trace.record(now, SenderEvent::Acked { ack: self.una });
        }
        self.sample_window(now, trace);
    }

    /// Carry out the window part of a decision on an ACK of new data.
    /// `rtt`: the ACK's RTT sample, if it gave one.
    fn apply_new(
        &mut self,
        now: SimTime,
        d: AckDecision,
        (acked, rtt): (u64, Option<SimDuration>),
        flight_before: u32,
    ) {
        let sample = AckSample {
            acked_bytes: acked.min(u64::from(u32::MAX)) as u32,
            flight_bytes: flight_before,
            now,
            srtt: SimDuration(self.srtt_fine.unwrap_or(0)),
            rtt,
            ack: self.una,
            snd_nxt: self.nxt,
        };
        match d.window {
            WindowOp::Keep | WindowOp::Inflate | WindowOp::Save { .. } | WindowOp::Restore => {}
            WindowOp::Grow => self.parts.cc.on_ack(sample),
            WindowOp::ExitRecovery => {
                self.parts.cc.on_recovery_exit();
                self.parts.cc.on_ack(sample);
            }
            WindowOp::DeflateToSsthresh => self.parts.cc.on_recovery_exit(),
            // RFC 6937: PRR replaces RFC 6582's partial deflation.
            WindowOp::PartialDeflate { .. } if self.cfg.prr.is_some() => {}
            WindowOp::PartialDeflate { acked } => {
                self.parts
                    .cc
                    .on_partial_ack(acked.min(u64::from(u32::MAX)) as u32);
            }
        }
    }

    /// Set cwnd back to the value stored by `WindowOp::Save`, ssthresh unchanged (TCP-ELN's
    /// recovery ACK).
    fn restore_cwnd(&mut self) {
        let ssthresh = self.parts.cc.ssthresh();
        self.parts.cc.undo(self.saved_cwnd, ssthresh);
    }

    /// Report the window to the RTO estimator before a sample, bounded by the peer's window:
    /// the Eifel timer's FLIGHT = max(ssthresh, cwnd/2) + 1 is meant as a lower bound of the
    /// load (Ludwig2000 §5.4.2), and the load never exceeds the advertised window, whereas
    /// the initial ssthresh (64 KB) and a cwnd grown past the window do.
    fn observe_load(&mut self) {
        let w = self.peer_window.max(self.cfg.mss);
        let (c, ss) = (self.parts.cc.cwnd().min(w), self.parts.cc.ssthresh().min(w));
        self.parts.rto.observe_window(c, ss, self.cfg.mss);
    }

    fn update_window(&mut self, wnd: u32) {
        self.peer_window = wnd;
        self.max_peer_window = self.max_peer_window.max(wnd);
    }
}
