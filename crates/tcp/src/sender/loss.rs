//! The sender's answers to loss: the fast retransmit's congestion response, a drop in the
//! host's own interface queue and the retransmission timer's expiry (split from `mod.rs`).

use super::Sender;
use crate::cc::{CongestionControl, CongestionEvent};
use crate::recovery::LossRecovery;
use crate::rto::RtoEstimator;
use crate::segment::Segment;
use crate::spurious::{Retransmission, RetransmitCause};
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

impl Sender {
    /// The flight the loss response halves: the whole flight (RFC 5681 eq. 4), or with
    /// [`SenderConfig::loss_of_window`](super::SenderConfig::loss_of_window) no more than the
    /// window, `min(flight, cwnd, peer window)` (ns-2's `slowdown` halves `windowd()`,
    /// tcp/tcp.cc:1252-1290: limited transmit's segments beyond cwnd do not count, RFC 5681
    /// §3.2 (2)). Read before the response changes cwnd.
    fn loss_flight(&self) -> u32 {
        let flight = self.flight();
        if self.cfg.loss_of_window {
            flight.min(self.parts.cc.cwnd().min(self.peer_window))
        } else {
            flight
        }
    }

    /// [`Sender::loss_flight`] at a fast retransmit: without the window rule, the data limited
    /// transmit sent in this run of duplicates is left out (RFC 5681 §3.2 (2): "When [RFC3042]
    /// is in use, additional data sent in limited transmit MUST NOT be included in this
    /// calculation"; RFC 6675 §5 (4.2) repeats it). The window rule already leaves it out.
    fn fast_retransmit_flight(&self) -> u32 {
        let flight = self.loss_flight();
        match self.lt_from {
            Some(from) if !self.cfg.loss_of_window => {
                // What went beyond cwnd since then (RFC 3042 §2: limited transmit sends while
                // the flight stays within cwnd + 2 segments); what a window that grew on the
                // duplicate's new data let go is the window's own. A limited-transmit segment
                // that starts inside a cwnd that is no multiple of the MSS counts only with its
                // part beyond it, so ssthresh can stay up to half a segment above the RFC's.
                let window_end = self.una + u64::from(self.parts.cc.cwnd());
                let beyond = self.max.saturating_sub(from.max(window_end));
                flight.saturating_sub(u32::try_from(beyond).unwrap_or(u32::MAX))
            }
            _ => flight,
        }
    }

    /// The run of duplicates is over (a new ACK, a timeout): limited transmit lets nothing more
    /// go, and what it sent no longer counts at a fast retransmit.
    #[inline]
    pub(super) fn clear_limited_transmit(&mut self) {
        self.lt_allow = 0;
        self.lt_from = None;
    }

    pub(super) fn on_fast_retransmit(
        &mut self,
        now: SimTime,
        (cwnd_before, ssthresh_before): (u32, u32),
        inflate_segments: u32,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        self.stats.fast_retransmits += 1;
        let flight = self.fast_retransmit_flight();
        let tsval = self.tsval(now);
        self.parts
            .cc
            .on_congestion(CongestionEvent::FastRetransmit {
                flight_bytes: flight,
                peer_window: self.peer_window,
                dupacks: inflate_segments,
            });
        if let Some(e) = self.parts.eifel.as_mut() {
            e.on_retransmit_oldest(Retransmission {
                cause: RetransmitCause::FastRetransmit,
                tsval,
                cwnd: cwnd_before,
                ssthresh: ssthresh_before,
                halved_ssthresh: self.parts.cc.ssthresh(),
                flight,
            });
        }
        // Net/3: the retransmit timer and RTT timing are cancelled, then re-armed by the output.
        self.rexmt_at = None;
        self.timing = None;
        self.pacer = None;
        if self.extras {
            self.extras_recovery_started();
        }
        if trace.enabled() {
            trace.record(now, SenderEvent::FastRetransmit { seq: self.una });
        }
    }

    /// The host's own interface queue dropped `seg`, the segment just taken from
    /// [`Sender::poll_transmit`] (ENOBUFS from `ip_output`). The segment counts as sent and is
    /// recovered like any loss; with [`SenderConfig::quench`] the window collapses to one
    /// segment, ssthresh unchanged (4.4BSD `tcp_quench`, Ludwig2000 §2.3, T10).
    pub fn on_local_drop(
        &mut self,
        now: SimTime,
        seg: &Segment,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        self.stats.local_drops += 1;
        if self.cfg.quench {
            self.parts.cc.on_congestion(CongestionEvent::LocalDrop);
        }
        if trace.enabled() {
            let seq = self.space.offset(seg.seq, self.nxt);
            trace.record(now, SenderEvent::LocalDrop { seq });
        }
        self.sample_window(now, trace);
    }

    /// A timer may have expired (retransmission, the recovery part's, the tail loss probe);
    /// `now` is the current time.
    pub fn on_timeout(&mut self, now: SimTime, trace: &mut dyn TraceSink<SenderEvent>) {
        if self.syn.is_some() {
            return self.syn_timeout(now, trace);
        }
        if self.extras && self.extras_timeout(now, trace) {
            return;
        }
        match self.rexmt_at {
            Some(at) if at <= now => {}
            _ => return,
        }
        self.stats.timeouts += 1;
        let (tsval, flight) = (self.tsval(now), self.flight());
        let (cwnd, ssthresh) = (self.parts.cc.cwnd(), self.parts.cc.ssthresh());
        if self.extras {
            self.extras_rto(flight, ssthresh);
        }
        self.parts.rto.on_timeout();
        self.parts.cc.on_congestion(CongestionEvent::Timeout {
            flight_bytes: self.loss_flight(),
            peer_window: self.peer_window,
        });
        if let Some(e) = self.parts.eifel.as_mut() {
            e.on_retransmit_oldest(Retransmission {
                cause: RetransmitCause::Timeout,
                tsval,
                cwnd,
                ssthresh,
                halved_ssthresh: self.parts.cc.ssthresh(),
                flight,
            });
        }
        self.parts.recovery.on_timeout(self.view());
        self.nxt = self.una;
        self.dupacks = 0;
        self.clear_limited_transmit();
        self.timing = None;
        self.pacer = None;
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
}
