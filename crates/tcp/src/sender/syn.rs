//! The connection's opening SYN, when the sender is built with `SenderConfig::syn`
//! (Ludwig2000 §4.2.2, spec S5: "a second connection's SYN will likely time out" behind a
//! loaded link queue). The SYN occupies the sequence number just below the first data byte,
//! carries the MSS option (and timestamps when they are on) and is timed like a segment:
//! armed with the estimator's RTO (Net/3: 6 s before any sample), backed off on each expiry
//! (tcp_backoff: 6, 12, 24 s ...) and resent. Its SYN-ACK ends the handshake; the round trip
//! is a sample unless the SYN was resent (Karn), as Net/3 times its SYN with `t_rtt`. Until
//! then no data is sent. Without `syn` the connection is open at start (the default).

use super::Sender;
use crate::rto::RtoEstimator as _;
use crate::segment::{SegOptions, Segment, Timestamps};
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

/// The handshake's state while the SYN is unanswered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Syn {
    /// When the SYN was last sent.
    sent: Option<SimTime>,
    /// When its timer expires.
    deadline: Option<SimTime>,
    /// Whether it was resent (no RTT sample then).
    resent: bool,
    /// A SYN is due (first, or after a timeout).
    due: bool,
}

impl Syn {
    pub(super) fn new() -> Self {
        Syn {
            due: true,
            ..Syn::default()
        }
    }
}

impl Sender {
    /// While the handshake runs: the SYN, if one is due.
    pub(super) fn syn_transmit(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Option<Segment> {
        let tsval = self.tsval(now);
        let syn = self.syn.as_mut()?;
        if !syn.due {
            return None;
        }
        syn.due = false;
        let retransmission = syn.sent.is_some();
        syn.sent = Some(now);
        syn.deadline = Some(self.parts.rto.deadline(now));
        if trace.enabled() {
            trace.record(now, SenderEvent::Syn { retransmission });
        }
        Some(Segment {
            // One below the first data byte: plus(2^32 - 1) wraps to minus one.
            seq: self.space.seq(0).plus(u32::MAX),
            ack: self.peer_seq,
            len: 0,
            wnd: self.cfg.send_buffer.min(65535),
            ack_flag: false,
            opts: SegOptions {
                ts: self
                    .cfg
                    .timestamps
                    .map(|_| Timestamps { val: tsval, ecr: 0 }),
                syn: Some(self.cfg.mss.min(65535) as u16),
                // RFC 7323 §2.2: the option on the SYN; its window field is never scaled.
                wscale: self.cfg.window_shift,
                ..SegOptions::default()
            },
        })
    }

    /// The SYN's timer, while the handshake runs.
    pub(super) fn syn_deadline(&self) -> Option<Option<SimTime>> {
        self.syn.map(|s| s.deadline)
    }

    /// A timer expiry during the handshake: back off and resend the SYN.
    pub(super) fn syn_timeout(&mut self, now: SimTime, trace: &mut dyn TraceSink<SenderEvent>) {
        let Some(syn) = self.syn.as_mut() else {
            return;
        };
        match syn.deadline {
            Some(at) if at <= now => {}
            _ => return,
        }
        syn.deadline = None;
        syn.due = true;
        syn.resent = true;
        self.stats.syn_timeouts += 1;
        self.parts.rto.on_timeout();
        if trace.enabled() {
            trace.record(
                now,
                SenderEvent::SynTimeout {
                    backoff: self.parts.rto.backoff_shift(),
                },
            );
        }
    }

    /// A segment from the peer during the handshake: a SYN-ACK opens the connection.
    pub(super) fn syn_ack(
        &mut self,
        now: SimTime,
        seg: &Segment,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        let Some(syn) = self.syn else {
            return;
        };
        if !(seg.opts.syn.is_some() && seg.ack_flag) {
            return;
        }
        if let (Some(sent), false) = (syn.sent, syn.resent) {
            // Net/3 times the SYN (t_rtt): a sample unless it was resent (Karn).
            self.parts.rto.on_sample(sent, now);
            self.fine_sample(sent, now);
        }
        if let Some(ts) = seg.opts.ts {
            self.ts_recent = ts.val;
        }
        self.peer_window = seg.wnd;
        self.syn = None;
        self.stats.connect_ns = now.as_nanos();
        if trace.enabled() {
            trace.record(now, SenderEvent::Established);
        }
    }
}
