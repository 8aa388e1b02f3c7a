//! ESACK, the TCP sender LL-ELSN runs by default (eln-llelsn spec §4.3; the paper's §4 is not
//! in our excerpt, so this is the spec's [PROPOSAL] (c), which reduces to RFC 6675 SACK when no
//! ELN arrives):
//!
//! - a SACK scoreboard whose holes may be tagged *ELN-lost* by the link layer's notification;
//! - an ELN for an outstanding, unSACKed segment has it resent as soon as the window allows,
//!   with no change to cwnd or ssthresh; the tagged segment's original leaves the pipe at once;
//! - tagged holes are left out of the congestion test, so the reordering the resends cause is
//!   not taken for congestion; an untagged hole that RFC 6675 IsLost (DupThresh = 3) finds lost
//!   starts one SACK recovery (ssthresh = cwnd/2, recover = snd_max), and further losses below
//!   `recover` cut nothing more ("avoid successive shrinking of cwnd", the paper's abstract);
//! - ELNs for consecutive segments, or for a segment whose resend was lost again, count up; past
//!   `filter` of them (the spec's ELN_FILTER_K, a [GAP] with default 3) the segment is not resent
//!   and the retransmission timer probes: the link is down (the receiver disconnected, Fig. 16),
//!   and resending into it only wastes the air;
//! - a timeout is standard (cwnd one segment, ssthresh half the flight) and forgets the tags.
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
        }
    }

    fn tag(&self, off: u64) -> Option<Tag> {
        self.tags
            .binary_search_by_key(&off, |&(o, _)| o)
            .ok()
            .map(|i| self.tags[i].1)
    }

    fn set_tag(&mut self, off: u64, tag: Tag) {
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
            .segments()
            .take_while(|s| s.off < high)
            .find(|s| !s.sacked && s.rexmit_at.is_none() && self.tag(s.off).is_none())?;
        self.is_lost_given(self.board.sacked_above(lowest.off))
            .then_some(lowest)
    }

    /// Forget tags of segments that left the board or were selectively acknowledged.
    fn prune(&mut self) {
        let una = self.board.snd_una();
        let board = &self.board;
        self.tags
            .retain(|&(off, _)| off >= una && off < board.snd_max() && !board.is_sacked(off));
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
        let Some(seg) = self
            .board
            .segments()
            .find(|s| s.off <= off && off < s.off + u64::from(s.len))
        else {
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
        // RFC 6675 §5.1: the SACKed bits stay, the retransmission marks go.
        self.board.clear_retransmitted();
        self.tags.clear();
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
            let seg = self.board.segments().find(|s| s.off == off);
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
            Some(off) => self.board.segments().find(|s| s.off == off),
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
        let mut pipe = view.snd_max.saturating_sub(self.board.snd_max());
        // From the top down, IsLost's counts and the tags gathered on the way (the sum is the
        // same).
        let mut tag_of = self.tags_down();
        for (s, above) in self.board.segments_down_with_sacked_above() {
            if s.sacked {
                continue;
            }
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
        Some(pipe)
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
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::*;

    const MSS: u64 = 1400;

    fn esack() -> EsackRecovery {
        EsackRecovery::new(EsackConfig::default(), 1400)
    }

    /// The congestion hole as RFC 6675 words it: the first candidate whose own scan of the
    /// board above it finds it lost.
    fn hole_by_scans(r: &EsackRecovery) -> Option<SegmentState> {
        let high = r.board.highest_sacked_end()?;
        r.board
            .segments()
            .take_while(|s| s.off < high)
            .filter(|s| !s.sacked && s.rexmit_at.is_none() && r.tag(s.off).is_none())
            .find(|s| r.is_lost_given(r.board.sacked_above(s.off)))
    }

    proptest::proptest! {
        /// The congestion hole from its lowest candidate and the walk down the tags answer as
        /// a scan of the board above each candidate and a search of the tags do, on random
        /// boards (SACKed segments, resent ones, tags of each kind).
        #[test]
        fn one_pass_answers_match_the_scans(
            segs in 1u64..40,
            sacked in proptest::collection::vec(proptest::bool::ANY, 40),
            resent in proptest::collection::vec(0u8..8, 40),
            tagged in proptest::collection::vec(0u8..6, 40),
        ) {
            let mut r = esack();
            r.board.update(0, segs * MSS - 300);
            for i in 0..segs {
                if sacked[i as usize] {
                    r.board.on_sack_blocks(&[(i * MSS, ((i + 1) * MSS).min(segs * MSS - 300))]);
                }
                if resent[i as usize] == 0 {
                    r.board.mark_retransmitted(i * MSS, SimTime(5));
                }
                let tag = [Tag::Pending, Tag::Resent, Tag::Held].get(tagged[i as usize] as usize);
                if let Some(&t) = tag {
                    r.set_tag(i * MSS, t);
                }
            }
            proptest::prop_assert_eq!(r.congestion_hole(), hole_by_scans(&r));
            let mut down = r.tags_down();
            for off in (0..segs * MSS).rev().step_by(350) {
                proptest::prop_assert_eq!(down(off), r.tag(off));
            }
        }
    }

    fn sdup(count: u32, blocks: &'static [(u64, u64)]) -> AckInput<'static> {
        AckInput {
            sack: blocks,
            ..dup(count, 0)
        }
    }

    #[test]
    fn an_eln_resends_without_a_cut_and_its_reordering_is_no_congestion() {
        let mut r = esack();
        let v = view(0, 8 * MSS);
        // Segment 0 was dropped by the MAC; the ELN arrives before any duplicate.
        assert_eq!(r.on_eln(SimTime::ZERO, 0, v), ElnVerdict::Resend);
        // Its original left the pipe: 7 segments in flight.
        assert_eq!(r.pipe(v), Some(7 * MSS));
        let rx = r.next_retransmission(SimTime::ZERO, v, MSS).unwrap();
        assert_eq!((rx.off, rx.len, rx.forced), (0, 1400, false));
        assert_eq!(r.pipe(v), Some(8 * MSS));
        // Segments 1..=5 arrive before the resend: five duplicates, SACKing them; no recovery.
        let blocks: [&'static [(u64, u64)]; 5] = [
            &[(MSS, 2 * MSS)],
            &[(MSS, 3 * MSS)],
            &[(MSS, 4 * MSS)],
            &[(MSS, 5 * MSS)],
            &[(MSS, 6 * MSS)],
        ];
        for (i, b) in blocks.iter().enumerate() {
            let d = r.on_ack(&sdup(i as u32 + 1, b), v);
            assert_eq!(d.congestion, None, "duplicate {}", i + 1);
        }
        assert_eq!(r.phase(), Phase::Open);
        // The resend arrives: the cumulative ACK jumps, the window grows.
        let d = r.on_ack(&new_ack(6 * MSS, 6 * MSS), view(6 * MSS, 8 * MSS));
        assert_eq!(d.window, WindowOp::Grow);
    }

    #[test]
    fn an_untagged_hole_found_lost_starts_one_recovery() {
        let mut r = esack();
        let v = view(0, 10 * MSS);
        // Segment 2 is ELN-lost, segment 5 was lost to congestion (no ELN).
        r.on_eln(SimTime::ZERO, 2 * MSS, v);
        assert!(r.next_retransmission(SimTime::ZERO, v, MSS).is_some());
        // 0, 1 delivered: new ACK to 2; then 3, 4 SACKed: no IsLost for 5 yet.
        let v2 = view(2 * MSS, 10 * MSS);
        assert_eq!(
            r.on_ack(&new_ack(2 * MSS, 2 * MSS), v2).window,
            WindowOp::Grow
        );
        let d = r.on_ack(
            &AckInput {
                sack: &[(3 * MSS, 5 * MSS)],
                ..dup(1, 2 * MSS)
            },
            v2,
        );
        assert_eq!(d.congestion, None);
        // 6, 7, 8 SACKed above segment 5: IsLost(5), one recovery with the hole forced.
        let d = r.on_ack(
            &AckInput {
                sack: &[(6 * MSS, 9 * MSS), (3 * MSS, 5 * MSS)],
                ..dup(2, 2 * MSS)
            },
            v2,
        );
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 0
            })
        );
        let rx = r.next_retransmission(SimTime::ZERO, v2, 0).unwrap();
        assert_eq!((rx.off, rx.forced), (5 * MSS, true));
        // A further duplicate inside the episode cuts nothing more.
        let d = r.on_ack(
            &AckInput {
                sack: &[(6 * MSS, 10 * MSS), (3 * MSS, 5 * MSS)],
                ..dup(3, 2 * MSS)
            },
            v2,
        );
        assert_eq!(d.congestion, None);
    }

    #[test]
    fn consecutive_elns_past_the_filter_are_left_to_the_timer() {
        let mut r = esack();
        let v = view(0, 6 * MSS);
        let t = SimTime::ZERO;
        assert_eq!(r.on_eln(t, 0, v), ElnVerdict::Resend);
        assert_eq!(r.on_eln(t, MSS, v), ElnVerdict::Resend);
        assert_eq!(r.on_eln(t, 2 * MSS, v), ElnVerdict::Resend);
        // The fourth consecutive one: filtered, not resent, its original out of the pipe.
        assert_eq!(r.on_eln(t, 3 * MSS, v), ElnVerdict::Filtered);
        let mut sent = Vec::new();
        while let Some(rx) = r.next_retransmission(t, v, 10 * MSS) {
            sent.push(rx.off / MSS);
        }
        assert_eq!(sent, vec![0, 1, 2]);
        // A resend lost again continues the run: filtered too.
        assert_eq!(r.on_eln(t, 0, v), ElnVerdict::Filtered);
        // A timeout forgets the run; a lone ELN is resent again.
        r.on_timeout(v);
        r.on_ack(&new_ack(MSS, MSS), view(MSS, 6 * MSS));
        assert_eq!(r.on_eln(t, 4 * MSS, view(MSS, 6 * MSS)), ElnVerdict::Resend);
    }

    #[test]
    fn without_the_filter_every_eln_is_resent() {
        let mut r = EsackRecovery::new(
            EsackConfig {
                filter: 0,
                ..EsackConfig::default()
            },
            1400,
        );
        let v = view(0, 6 * MSS);
        for k in 0..6 {
            assert_eq!(r.on_eln(SimTime::ZERO, k * MSS, v), ElnVerdict::Resend);
        }
    }

    #[test]
    fn stale_elns_are_ignored() {
        let mut r = esack();
        let v = view(2 * MSS, 6 * MSS);
        r.on_ack(&new_ack(2 * MSS, 2 * MSS), v);
        assert_eq!(r.on_eln(SimTime::ZERO, MSS, v), ElnVerdict::Stale);
        assert_eq!(r.on_eln(SimTime::ZERO, 6 * MSS, v), ElnVerdict::Stale);
        r.on_ack(
            &AckInput {
                sack: &[(3 * MSS, 4 * MSS)],
                ..dup(1, 2 * MSS)
            },
            v,
        );
        assert_eq!(r.on_eln(SimTime::ZERO, 3 * MSS, v), ElnVerdict::Stale);
    }
}
