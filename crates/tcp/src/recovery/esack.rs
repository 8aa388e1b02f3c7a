//! ESACK, the TCP sender LL-ELSN runs by default (eln-llelsn spec §4.3; the paper's §4 is not
//! in our excerpt, so this is the spec's [PROPOSAL] (c), which reduces to RFC 6675 SACK when no
//! ELN arrives):
//!
//! - a SACK scoreboard whose holes may be tagged *ELN-lost* by the link layer's notification;
//! - an ELN for an outstanding, unSACKed segment has it resent as soon as the window allows,
//!   with no change to cwnd or ssthresh; the tagged segment's original leaves the pipe at once;
//! - tagged holes are left out of the congestion test, so the reordering the resends cause is
//!   not taken for congestion; an untagged hole that RFC 6675 IsLost (DupThresh = 3) finds lost
//!   starts one SACK recovery (recover = snd_max; ssthresh half the flight, RFC 6675 §5 (4.2),
//!   less limited transmit's data, or half of min(flight, cwnd, peer window) under
//!   `SenderConfig::loss_of_window`, where the spec writes cwnd/2), and further losses below
//!   `recover` cut nothing more ("avoid successive shrinking of cwnd", the paper's abstract);
//! - ELNs for consecutive segments, or for a segment whose resend was lost again, count up; past
//!   `filter` of them (the spec's ELN_FILTER_K, a [GAP] with default 3) the segment is not resent
//!   and the retransmission timer probes: the link is down (the receiver disconnected, Fig. 16),
//!   and resending into it only wastes the air;
//! - a timeout is standard (cwnd one segment, ssthresh half the flight, or of the window under
//!   the window rule) and forgets the tags.
//!
//! The window always follows the pipe (RFC 6675 §4 SetPipe, tagged originals and resends known
//! lost again counted out) outside a timeout's go-back-N, so a resent segment fits into the room
//! its lost original left.

use super::scoreboard::{Scoreboard, SegmentState};
use super::{
    AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit, SenderView,
    WindowOp,
};
use crate::notice::ElnVerdict;
use engine::SimTime;
use std::cell::Cell;

/// ESACK's knobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EsackConfig {
    /// Duplicate ACKs / SACKed segments above a hole before it counts as lost (RFC 6675: 3).
    pub dupthresh: u32,
    /// Consecutive ELNs resent before the rest are filtered (spec §4.3 ELN_FILTER_K, default 3);
    /// 0 never filters (the ablation of T004-15).
    pub filter: u32,
}

impl Default for EsackConfig {
    fn default() -> Self {
        EsackConfig {
            dupthresh: 3,
            filter: 3,
        }
    }
}

/// Where an ELN-tagged segment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    /// To be resent when the window allows.
    Pending,
    /// Resent; a further ELN for it means the resend was lost too.
    Resent,
    /// Filtered: left to the retransmission timer.
    Held,
}

/// The ESACK loss-recovery part.
#[derive(Clone, Debug)]
pub struct EsackRecovery {
    cfg: EsackConfig,
    phase: Phase,
    board: Scoreboard,
    /// ELN-tagged segments by offset, ascending.
    tags: Vec<(u64, Tag)>,
    /// The first retransmission of a congestion episode, sent regardless of the window.
    forced: Option<u64>,
    /// ELNs in the current run of consecutive ones.
    consecutive: u32,
    /// The segment (offset, length) of the latest ELN.
    last_eln: Option<(u64, u32)>,
    /// Changes with every change to `tags`.
    tags_version: u64,
    /// The walk of the last [`LossRecovery::pipe`], kept while the board and the tags stay:
    /// a sender asks for the pipe before every segment it sends, and most of those questions
    /// follow only new data sent (callgrind: the walk was a third of the LL-ELSN cell's run).
    pipe_memo: Cell<Option<PipeMemo>>,
}

/// Up to how many tags the pipe comes from the board's counts with a lookup per tag
/// ([`EsackRecovery::pipe_counts`]); with more, the walk over the holes is as cheap.
const TAGS_FOR_COUNTS: usize = 16;

/// A [`EsackRecovery::pipe_walk`] and what it was computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PipeMemo {
    board: u64,
    tags: u64,
    /// The board's snd_max then.
    high: u64,
    /// The walk's sum over the board's segments.
    sum: u64,
}

impl EsackRecovery {
    /// An ESACK sender for segments of `mss` bytes.
    pub fn new(cfg: EsackConfig, mss: u32) -> Self {
        EsackRecovery {
            cfg: EsackConfig {
                dupthresh: cfg.dupthresh.max(1),
                ..cfg
            },
            phase: Phase::Open,
            board: Scoreboard::new(mss),
            tags: Vec::new(),
            forced: None,
            consecutive: 0,
            last_eln: None,
            tags_version: 0,
            pipe_memo: Cell::new(None),
        }
    }

    fn tag(&self, off: u64) -> Option<Tag> {
        self.tags
            .binary_search_by_key(&off, |&(o, _)| o)
            .ok()
            .map(|i| self.tags[i].1)
    }

    fn set_tag(&mut self, off: u64, tag: Tag) {
        self.tags_version += 1;
        match self.tags.binary_search_by_key(&off, |&(o, _)| o) {
            Ok(i) => self.tags[i].1 = tag,
            Err(i) => self.tags.insert(i, (off, tag)),
        }
    }

    /// RFC 6675 §4 IsLost for an untagged hole, given the SACKed bytes and runs above it
    /// ([`Scoreboard::sacked_above`]).
    fn is_lost_given(&self, (bytes, runs): (u64, u32)) -> bool {
        let mss = u64::from(self.board.mss());
        runs >= self.cfg.dupthresh || bytes > u64::from(self.cfg.dupthresh - 1) * mss
    }

    /// The tags of offsets asked for from the top down (each no higher than the one before),
    /// found by one walk down the sorted tags instead of a search each: the answers of
    /// [`EsackRecovery::tag`].
    fn tags_down(&self) -> impl FnMut(u64) -> Option<Tag> + '_ {
        let mut rest = &self.tags[..];
        move |off| {
            while let Some((&(o, t), below)) = rest.split_last() {
                if o <= off {
                    return (o == off).then_some(t);
                }
                rest = below;
            }
            None
        }
    }

    /// The lowest untagged, unSACKed segment that IsLost finds lost and that was not resent.
    /// IsLost only weakens going up: a segment has at least the SACKed bytes and runs above it
    /// that any higher segment has. So if any candidate is lost the lowest one is: one scan of
    /// the board above it decides, instead of one scan above each candidate until one is lost.
    fn congestion_hole(&self) -> Option<SegmentState> {
        let high = self.board.highest_sacked_end()?;
        let lowest = self
            .board
            .unsacked()
            .take_while(|s| s.off < high)
            .find(|s| s.rexmit_at.is_none() && self.tag(s.off).is_none())?;
        self.is_lost_given(self.board.sacked_above(lowest.off))
            .then_some(lowest)
    }

    /// Forget tags of segments that left the board or were selectively acknowledged.
    fn prune(&mut self) {
        let una = self.board.snd_una();
        let board = &self.board;
        let before = self.tags.len();
        self.tags
            .retain(|&(off, _)| off >= una && off < board.snd_max() && !board.is_sacked(off));
        if self.tags.len() != before {
            self.tags_version += 1;
        }
    }

    /// RFC 6675 SetPipe's sum over the board's segments (the bytes sent beyond the board are
    /// added by [`LossRecovery::pipe`]): each unSACKed segment counts unless it is tagged or
    /// IsLost finds it lost, and its resend counts unless an ELN reported the resend lost too.
    fn pipe_walk(&self) -> u64 {
        let mut pipe = 0;
        // From the top down, IsLost's counts and the tags gathered on the way (the sum is the
        // same).
        let mut tag_of = self.tags_down();
        for (s, above) in self.board.unsacked_down_with_sacked_above() {
            let tag = tag_of(s.off);
            // The original is out of the network once tagged or found lost.
            if tag.is_none() && !self.is_lost_given(above) {
                pipe += u64::from(s.len);
            }
            // The resend, unless an ELN reported it lost too.
            if s.rexmit_at.is_some() && !matches!(tag, Some(Tag::Pending | Tag::Held)) {
                pipe += u64::from(s.len);
            }
        }
        pipe
    }

    /// [`EsackRecovery::pipe_walk`]'s sum from the board's counts: RFC 6675 SetPipe over the
    /// holes ([`Scoreboard::pipe_rfc6675`], which finds the lost ones a few runs from the top
    /// instead of a walk over every hole), less what the tags take out of it: a tagged hole's
    /// original where IsLost kept it, and its resend where an ELN reported that lost too. A
    /// stalled LL-ELSN run keeps tens of unSACKed segments at the top of its flight, asked
    /// about on every ACK (callgrind: the walk was a fifth of the run, docs/performance.md).
    fn pipe_counts(&self) -> u64 {
        let (b, d) = (&self.board, self.cfg.dupthresh);
        let mut pipe = b.pipe_rfc6675(b.snd_max(), b.snd_una(), d);
        for &(off, tag) in &self.tags {
            // The walk asks for the tag at each hole's own offset.
            let Some(s) = b.segment_at(off).filter(|s| s.off == off && !s.sacked) else {
                continue;
            };
            let len = u64::from(s.len);
            if !b.is_lost_rfc6675(off, d) {
                pipe -= len;
            }
            if s.rexmit_at.is_some() && matches!(tag, Tag::Pending | Tag::Held) {
                pipe -= len;
            }
        }
        pipe
    }

    fn resend(&mut self, now: SimTime, s: SegmentState, forced: bool) -> Retransmit {
        self.board.mark_retransmitted(s.off, now);
        if self.tag(s.off) == Some(Tag::Pending) {
            self.set_tag(s.off, Tag::Resent);
        }
        Retransmit {
            off: s.off,
            len: s.len,
            forced,
        }
    }
}

impl LossRecovery for EsackRecovery {
    fn name(&self) -> &'static str {
        "esack"
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        self.board.update(view.snd_una, view.snd_max);
        self.board.on_cum_ack(ack.ack);
        self.board.on_sack_blocks(ack.sack);
        self.prune();
        match (ack.kind, self.phase) {
            (AckKind::Dup { count }, Phase::Open) => {
                // The duplicates count only when the hole at snd_una is not ELN-tagged.
                let una_untagged = self.tag(view.snd_una).is_none();
                let by_count = count >= self.cfg.dupthresh
                    && una_untagged
                    && !self.board.is_sacked(view.snd_una);
                let hole = self.congestion_hole().map(|s| s.off);
                match hole.or(by_count.then_some(view.snd_una)) {
                    Some(off) => {
                        self.phase = Phase::Recovery {
                            recover: view.snd_max,
                        };
                        self.forced = Some(off);
                        AckDecision {
                            congestion: Some(LossResponse::FastRetransmit {
                                inflate_segments: 0,
                            }),
                            window: WindowOp::Keep,
                        }
                    }
                    None => AckDecision::window(WindowOp::Keep),
                }
            }
            (AckKind::Dup { .. }, _) => AckDecision::window(WindowOp::Keep),
            (AckKind::New { .. }, Phase::Recovery { recover }) => {
                if ack.ack >= recover {
                    self.phase = Phase::Open;
                    self.forced = None;
                    AckDecision::window(WindowOp::DeflateToSsthresh)
                } else {
                    AckDecision::window(WindowOp::Keep)
                }
            }
            (AckKind::New { .. }, Phase::Loss { recover }) => {
                if ack.ack >= recover {
                    self.phase = Phase::Open;
                }
                AckDecision::window(WindowOp::Grow)
            }
            (AckKind::New { .. }, Phase::Open) => AckDecision::window(WindowOp::Grow),
        }
    }

    fn heeds_notices(&self) -> bool {
        true
    }

    fn on_eln(&mut self, _now: SimTime, off: u64, view: SenderView) -> ElnVerdict {
        self.board.update(view.snd_una, view.snd_max);
        let Some(seg) = self.board.segment_at(off) else {
            return ElnVerdict::Stale;
        };
        if seg.sacked {
            return ElnVerdict::Stale;
        }
        match self.tag(seg.off) {
            // Already queued, or already left to the timer.
            Some(Tag::Pending) => return ElnVerdict::Resend,
            Some(Tag::Held) => return ElnVerdict::Filtered,
            // The resend was lost as well.
            Some(Tag::Resent) => self.consecutive += 1,
            None => {
                let follows = self
                    .last_eln
                    .is_some_and(|(o, l)| o + u64::from(l) == seg.off);
                self.consecutive = if follows { self.consecutive + 1 } else { 1 };
            }
        }
        self.last_eln = Some((seg.off, seg.len));
        if self.cfg.filter != 0 && self.consecutive > self.cfg.filter {
            self.set_tag(seg.off, Tag::Held);
            ElnVerdict::Filtered
        } else {
            self.set_tag(seg.off, Tag::Pending);
            ElnVerdict::Resend
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        // What was sent since the last ACK, first: a short top segment it grew is not SACKed
        // (Scoreboard::update), and the go-back-N must not skip it.
        self.board.update(view.snd_una, view.snd_max);
        // RFC 6675 §5.1: the SACKed bits stay, the retransmission marks go.
        self.board.clear_retransmitted();
        self.tags.clear();
        self.tags_version += 1;
        self.consecutive = 0;
        self.last_eln = None;
        self.forced = None;
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
    }

    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        if matches!(self.phase, Phase::Loss { .. }) {
            return None;
        }
        self.board.update(view.snd_una, view.snd_max);
        self.prune();
        if let Some(off) = self.forced.take() {
            let seg = self.board.segment_at(off).filter(|s| s.off == off);
            if let Some(s) = seg.filter(|s| !s.sacked) {
                return Some(self.resend(now, s, true));
            }
        }
        // ELN-tagged segments first, lowest first, within the window.
        let pending = self
            .tags
            .iter()
            .find(|&&(_, t)| t == Tag::Pending)
            .map(|&(o, _)| o);
        let seg = match pending {
            Some(off) => self.board.segment_at(off).filter(|s| s.off == off),
            None if matches!(self.phase, Phase::Recovery { .. }) => self.congestion_hole(),
            None => None,
        }?;
        if u64::from(seg.len) > budget {
            return None;
        }
        Some(self.resend(now, seg, false))
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        if matches!(self.phase, Phase::Loss { .. }) {
            return None;
        }
        let (board, high) = (self.board.version(), self.board.snd_max());
        let beyond = view.snd_max.saturating_sub(high);
        if self.tags.is_empty() && self.board.is_plain() {
            // Nothing SACKed, resent or tagged: every byte on the board is in the network.
            return Some(beyond + (high - self.board.snd_una()));
        }
        let sum = match self.pipe_memo.get() {
            // Unchanged but for new data sent from a segment boundary, which adds its bytes
            // to the sum (fresh segments on top: Scoreboard::version).
            Some(m) if m.board == board && m.tags == self.tags_version => m.sum + (high - m.high),
            _ => {
                let sum = if self.tags.len() <= TAGS_FOR_COUNTS {
                    self.pipe_counts()
                } else {
                    self.pipe_walk()
                };
                self.pipe_memo.set(Some(PipeMemo {
                    board,
                    tags: self.tags_version,
                    high,
                    sum,
                }));
                sum
            }
        };
        Some(beyond + sum)
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.board.is_sacked(off)
    }

    fn on_undo(&mut self) {
        self.forced = None;
        self.phase = Phase::Open;
    }

    fn sacked_bytes(&self) -> Option<u64> {
        Some(self.board.sacked_bytes())
    }
}

#[cfg(test)]
#[path = "esack_tests.rs"]
mod tests;
