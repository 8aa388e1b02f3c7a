//! Loss recovery: one decision, "what is lost, what to resend, and how the window reacts to
//! duplicate and new ACKs".
//!
//! The sender classifies each ACK (new data or duplicate) and hands the recovery part an
//! [`AckInput`] of plain values; the part answers with an [`AckDecision`] the sender carries out
//! (respond to congestion, inflate or deflate the window). Retransmissions are pulled: before
//! sending new data, the sender asks [`LossRecovery::next_retransmission`] for a segment to
//! resend. Sequence positions are stream offsets (bytes since the first data byte).

mod dcr;
mod eln;
mod esack;
mod hack;
mod newreno;
mod prr;
mod rack;
mod rack_board;
mod reno;
mod sack;
pub mod scoreboard;
mod smart;
mod tcp_eln;
mod tcp_eln_over;
mod tsorted;

pub use dcr::DcrRecovery;
pub use eln::ElnRecovery;
pub use esack::{EsackConfig, EsackRecovery};
pub use hack::{HackMode, HackRecovery, ListDupacks};
pub use newreno::{NewRenoFlavor, NewRenoRecovery};
pub use prr::{Prr, PrrBound};
pub use rack::RackRecovery;
pub use reno::{ExitRetraction, RenoRecovery};
pub use sack::{SackFlavor, SackRecovery};
pub use scoreboard::Scoreboard;
pub use smart::{SmartClock, SmartRecovery, NO_SAMPLE_RTT};
pub use tcp_eln::{ElnBasis, ElnExpected, ElnResend, TcpElnConfig, TcpElnRecovery};
pub use tcp_eln_over::TcpElnOver;

use crate::notice::ElnVerdict;
use engine::{SimDuration, SimTime};

/// The recovery phase of a sender (house rule 6: the state carries its data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No loss being repaired.
    Open,
    /// Fast recovery, entered when `recover` was the highest offset sent.
    Recovery {
        /// snd_max at the fast retransmit.
        recover: u64,
    },
    /// Repairing after a retransmission timeout, until `recover` is acknowledged.
    Loss {
        /// snd_max when the timer fired.
        recover: u64,
    },
}

/// What the sender knows when it consults the recovery part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderView {
    /// Oldest unacknowledged offset.
    pub snd_una: u64,
    /// Next offset to send.
    pub snd_nxt: u64,
    /// Highest offset sent, plus one.
    pub snd_max: u64,
    /// Maximum segment size.
    pub mss: u32,
}

/// How the sender classified an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckKind {
    /// It acknowledged `acked` new bytes.
    New {
        /// Newly acknowledged bytes.
        acked: u64,
    },
    /// The `count`-th consecutive duplicate ACK (RFC 5681 §2 definition).
    Dup {
        /// Consecutive duplicates so far, this one included.
        count: u32,
    },
}

/// One ACK, as values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckInput<'a> {
    /// Arrival time.
    pub now: SimTime,
    /// New or duplicate.
    pub kind: AckKind,
    /// Cumulative acknowledgment (offset).
    pub ack: u64,
    /// SACK blocks as `[left, right)` offsets, most recent first (RFC 2018).
    pub sack: &'a [(u64, u64)],
    /// SMART: offset of the data segment that triggered this ACK.
    pub smart: Option<u64>,
    /// ELN: the segment at `ack` was lost to corruption.
    pub eln: bool,
    /// TCP-ELN: the receiver's corruption counter, if the ACK carries it.
    pub cc: Option<u32>,
    /// The sender's smoothed round-trip estimate (for once-per-RTT rules).
    pub srtt: SimDuration,
    /// The same in whole slow-timer ticks, for stacks whose only clocks are ticks (0 on a
    /// fine-grained estimator; see [`crate::rto::RtoEstimator::srtt_ticks`]).
    pub srtt_ticks: u32,
}

/// A congestion response the recovery part asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossResponse {
    /// A fast retransmit: halve (ssthresh), then set cwnd to ssthresh plus `inflate_segments`
    /// segments (3 for Reno's inflation by the duplicates seen, 0 for pipe-based recovery).
    FastRetransmit {
        /// Segments added back after halving.
        inflate_segments: u32,
    },
}

/// What happens to the congestion window on this ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowOp {
    /// Nothing.
    Keep,
    /// Normal growth (slow start or congestion avoidance).
    Grow,
    /// Reno inflation by one segment (a further duplicate during fast recovery).
    Inflate,
    /// Leaving fast recovery: deflate to ssthresh, then grow for this ACK (4.4BSD-Lite).
    ExitRecovery,
    /// A partial ACK inside recovery: set cwnd to ssthresh (Balakrishnan97 §2.3 default).
    DeflateToSsthresh,
    /// Store cwnd (TCP-ELN's corruption retransmission), or with `inflate` also inflate it by
    /// one segment after storing (spec §3.4 C6).
    Save {
        /// Inflate after storing.
        inflate: bool,
    },
    /// Set cwnd back to the stored value, ssthresh unchanged (TCP-ELN's recovery ACK). With a
    /// congestion response on the same ACK it is applied first, so the response halves it.
    Restore,
    /// A partial ACK inside recovery, RFC 6582 §3.2 (3): deflate by the bytes acknowledged,
    /// add back one segment if at least one was acknowledged.
    PartialDeflate {
        /// Newly acknowledged bytes.
        acked: u64,
    },
}

/// The answer to an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckDecision {
    /// Respond to congestion now, if set.
    pub congestion: Option<LossResponse>,
    /// The window operation.
    pub window: WindowOp,
}

impl AckDecision {
    /// No response, the given window operation.
    pub fn window(window: WindowOp) -> Self {
        AckDecision {
            congestion: None,
            window,
        }
    }
}

/// A segment the recovery part wants resent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retransmit {
    /// Offset of the first byte.
    pub off: u64,
    /// Bytes.
    pub len: u32,
    /// Sent regardless of the window (the BSD fast retransmit sends one segment at once).
    pub forced: bool,
}

/// Decides loss detection and recovery.
pub trait LossRecovery: Send {
    /// Short name for traces.
    fn name(&self) -> &'static str;
    /// The current phase.
    fn phase(&self) -> Phase;
    /// An ACK arrived (new data or a duplicate).
    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision;
    /// The retransmission timer fired; the sender goes back to `snd_una` afterwards.
    fn on_timeout(&mut self, view: SenderView);
    /// A segment to resend now, if any. `budget` is how many bytes the window allows in flight
    /// beyond what is already there; a part returns a non-forced segment only if it fits. The
    /// part records a returned segment as sent.
    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit>;
    /// RFC 6675 §2: whether the ACK of new data just given to [`LossRecovery::on_ack`] is also
    /// a duplicate acknowledgment, because it SACKs octets not SACKed before (asked only for
    /// ACKs that carry SACK blocks, outside recovery). RFC 5681's definition, the default: no.
    fn new_ack_is_duplicate(&self) -> bool {
        false
    }
    /// Whether the ACK of new data just given to [`LossRecovery::on_ack`] leaves the
    /// retransmission timer running as it was instead of restarting it (RFC 6298 (5.3), the
    /// default: it restarts). ns-2.35's NewReno with `newreno_changes1_` restarts it on the
    /// first partial ACK of a recovery only ([`NewRenoFlavor::Ns2`]).
    fn keeps_timer(&self) -> bool {
        false
    }
    /// A segment to resend when the sender has no new data it may send (nothing buffered beyond
    /// the highest byte sent, or the peer's window is full) and `budget` leaves room: RFC 6675
    /// NextSeg rules (3) and (4). The part records a returned segment as sent.
    fn next_fallback(
        &mut self,
        _now: SimTime,
        _view: SenderView,
        _budget: u64,
    ) -> Option<Retransmit> {
        None
    }
    /// Bytes the part estimates are in the network, when it gates sending itself (RFC 6675
    /// "pipe"); `None` means the sender uses `snd_nxt - snd_una`.
    fn pipe(&self, _view: SenderView) -> Option<u64> {
        None
    }
    /// Whether the segment starting at `off` is known to have arrived (selectively
    /// acknowledged), so the sender skips it when sending from `snd_nxt`.
    fn is_sacked(&self, _off: u64) -> bool {
        false
    }
    /// LL-ELSN's link layer reports the segment at `off` lost on the wireless hop (eln-llelsn
    /// spec §4.1). Only ESACK acts on it; the default leaves it unheeded.
    fn on_eln(&mut self, _now: SimTime, _off: u64, _view: SenderView) -> ElnVerdict {
        ElnVerdict::Unheeded
    }
    /// Whether the sender understands LL-ELSN's notifications (ESACK): only then does an
    /// ERSN restart its timer. Default: no (a Reno sender behind an LL-ELSN base station).
    fn heeds_notices(&self) -> bool {
        false
    }
    /// A spurious retransmission was detected and the window restored: leave recovery.
    fn on_undo(&mut self) {}
    /// Bytes above `snd_una` the part knows to be selectively acknowledged, if it keeps a
    /// SACK scoreboard (PRR's `DeliveredData`, RFC 6937 §3.1); `None` without one.
    fn sacked_bytes(&self) -> Option<u64> {
        None
    }
    /// Whether the part wants [`LossRecovery::on_sent`] for every segment and has a timer of
    /// its own ([`LossRecovery::poll_timeout`]); asked once, when the sender is built, so that
    /// parts without either cost nothing per segment (RACK, RFC 8985).
    fn tracks_sends(&self) -> bool {
        false
    }
    /// `[off, off + len)` left the sender at `now` (a new segment or a retransmission); only
    /// called when [`LossRecovery::tracks_sends`] is true.
    fn on_sent(&mut self, _now: SimTime, _off: u64, _len: u32) {}
    /// When the part's own timer expires (RACK's reordering timer), if it runs.
    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }
    /// The receiver named the segment at `off` as received with a corrupted payload and an
    /// intact header (HACK's NACK, LHP's notification; eln-llelsn spec §4.11-4.12), on an ACK
    /// that the sender then does not count as a duplicate. The default ignores it.
    fn on_nack(&mut self, _now: SimTime, _off: u64, _view: SenderView) {}
    /// The part's timer may have expired; the answer is carried out like an ACK's.
    fn on_timer(&mut self, _now: SimTime, _view: SenderView) -> AckDecision {
        AckDecision::window(WindowOp::Keep)
    }
    /// A wrapper (TCP-DCR, eln-llelsn spec §4.6) holds the response to this duplicate ACK back:
    /// record what the ACK reports (a SACK scoreboard) without deciding anything. Default:
    /// nothing to record (Reno counts duplicates in the sender).
    fn hold(&mut self, _ack: &AckInput<'_>, _view: SenderView) {}
    /// A wrapper's delay ran out with the hole at `snd_una` still open: start the fast
    /// retransmit and recovery now. Default: the part sees a `dupthresh`-th duplicate of
    /// `snd_una` (Reno's trigger).
    fn respond_now(&mut self, now: SimTime, view: SenderView, dupthresh: u32) -> AckDecision {
        let dup = AckInput {
            now,
            kind: AckKind::Dup { count: dupthresh },
            ack: view.snd_una,
            sack: &[],
            smart: None,
            eln: false,
            cc: None,
            srtt: SimDuration::ZERO,
            srtt_ticks: 0,
        };
        self.on_ack(&dup, view)
    }
}

/// The forced retransmission of the segment waiting in `pending` (the BSD fast retransmit sends
/// one segment at once, whatever the window), emptying the slot.
pub(crate) fn take_forced(pending: &mut Option<u64>, view: SenderView) -> Option<Retransmit> {
    let off = pending.take()?;
    let len = seg_len(off, view);
    (len > 0).then_some(Retransmit {
        off,
        len,
        forced: true,
    })
}

/// Length of the segment at `off`: one MSS, or what is left below `snd_max`.
pub(crate) fn seg_len(off: u64, view: SenderView) -> u32 {
    view.snd_max.saturating_sub(off).min(u64::from(view.mss)) as u32
}
