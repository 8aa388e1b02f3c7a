//! A SACK sender over RFC 2018 blocks (Balakrishnan97 §2.5, E2E-IETF-SACK), on the shared
//! [`Scoreboard`]. The paper names no sender algorithm beyond "appropriate congestion control
//! actions" (its reference [4]); two flavours are offered (`tcp.sack_sender`):
//!
//! - [`SackFlavor::FallFloyd`] (default), Fall & Floyd 1996 "Sack1" as the spec's §2.5 default
//!   describes it: recovery starts on the 3rd duplicate ACK only (the IETF SACK sender waits for
//!   three dupacks to tolerate reordering, Balakrishnan97 §B.1/§B.4); ssthresh = cwnd/2 once per
//!   episode and cwnd = ssthresh (no Reno inflation); `recover = snd_max`; sending is gated by
//!   `pipe < cwnd` where `pipe` = outstanding − SACKed − holes presumed lost + retransmitted, a
//!   hole being presumed lost once a higher segment is SACKed or once it has been resent; holes
//!   are resent before new data; recovery ends when the ACK reaches `recover`. Fall & Floyd keep
//!   `pipe` as a counter that a duplicate ACK decrements by one and a partial ACK by two (the
//!   resent segment and the original it replaced). Here `pipe` is recomputed from the board, which
//!   counts the same packets: the original leaves the count when it is presumed lost, the
//!   retransmission when the partial ACK covers it.
//! - [`SackFlavor::Rfc6675`]: RFC 6675 IsLost (DupThresh discontiguous SACKed runs or more than
//!   (DupThresh − 1)·SMSS SACKed bytes above), pipe (§4 SetPipe) and all four NextSeg rules;
//!   recovery also starts when IsLost(snd_una) holds before the third duplicate (§5 (2)). Rule
//!   (2), new data, is the sender's own path; when it cannot send (nothing buffered beyond
//!   HighData, or the peer's window is full) the sender asks [`LossRecovery::next_fallback`],
//!   which is rule (3) (resend the first unSACKed, not yet resent segment below the highest
//!   SACKed byte although IsLost does not hold) and rule (4) (once per recovery, the rescue
//!   retransmission of the highest unSACKed segment, which does not move HighRxt).
//!   After a timeout the board is kept (SACKed bits stay, retransmission marks go): RFC 6675
//!   §5.1 has Update() go on after an RTO so that the go-back-N resends only what the receiver
//!   lacks. RFC 2018 §8 clears the bits in case the receiver reneged; lossylink's receiver never
//!   reneges (it keeps every out-of-order segment it SACKed).
//! - [`SackFlavor::Rfc6675Basic`]: RFC 6675 as lossylink first had it, for ablation
//!   (`tcp.sack_sender = "rfc6675-basic"`): NextSeg rule (1) only, board cleared at a timeout.
//!
//! Both: the first retransmission of an episode goes regardless of the window (RFC 6675 §5
//! (4.3), Fall & Floyd); a timeout clears the board (RFC 2018 §8 "turn off all of the SACKed
//! bits", as ns-2's Sack1 does; not [`SackFlavor::Rfc6675`], above) and, as in ns-2 with its `bugfix` and RFC 6675 §5.1, no recovery
//! starts until everything sent before the timeout is acknowledged.

use super::scoreboard::Scoreboard;
use super::{
    AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit, SenderView,
    WindowOp,
};
use engine::SimTime;

/// Which SACK sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SackFlavor {
    /// Fall & Floyd 1996 "Sack1" pipe-based recovery.
    #[default]
    FallFloyd,
    /// RFC 6675 (IsLost, NextSeg rules (1)-(4), SetPipe).
    Rfc6675,
    /// RFC 6675 with NextSeg rule (1) only (no rules (3) and (4)): lossylink's earlier rule.
    Rfc6675Basic,
}

/// SACK-based loss recovery.
#[derive(Clone, Debug)]
pub struct SackRecovery {
    flavor: SackFlavor,
    dupthresh: u32,
    phase: Phase,
    board: Scoreboard,
    /// The episode's first retransmission, sent regardless of the window.
    forced: Option<u64>,
    /// RFC 6675 RescueRxt: whether this recovery episode already used NextSeg rule (4).
    rescued: bool,
    /// The last ACK of new data SACKed new octets outside recovery (RFC 6675 §2 duplicate).
    sack_dup: bool,
}

impl SackRecovery {
    /// A SACK sender with the given flavour, segment size and duplicate-ACK threshold (3).
    pub fn new(flavor: SackFlavor, mss: u32, dupthresh: u32) -> Self {
        SackRecovery {
            flavor,
            dupthresh: dupthresh.max(1),
            phase: Phase::Open,
            board: Scoreboard::new(mss),
            forced: None,
            rescued: false,
            sack_dup: false,
        }
    }

    /// The scoreboard (for tests and traces).
    pub fn board(&self) -> &Scoreboard {
        &self.board
    }

    /// Bring the board up to date with an ACK; returns what it newly SACKed (as the board counts).
    fn observe(&mut self, ack: &AckInput<'_>, view: SenderView) -> u32 {
        self.board.update(view.snd_una, view.snd_max);
        self.board.on_cum_ack(ack.ack);
        self.board.on_sack_blocks(ack.sack)
    }

    /// RFC 6675 §4 IsLost, or for Fall-Floyd "a higher segment was SACKed".
    fn is_lost(&self, off: u64, highest: Option<u64>) -> bool {
        match self.flavor {
            SackFlavor::FallFloyd => self.is_lost_with(off, highest, || (0, 0)),
            SackFlavor::Rfc6675 | SackFlavor::Rfc6675Basic => {
                self.board.is_lost_rfc6675(off, self.dupthresh)
            }
        }
    }

    /// [`SackRecovery::is_lost`] given how to get `sacked_above(off)` if it is needed.
    fn is_lost_with(
        &self,
        off: u64,
        highest: Option<u64>,
        sacked_above: impl FnOnce() -> (u64, u32),
    ) -> bool {
        match self.flavor {
            SackFlavor::FallFloyd => highest.is_some_and(|h| off < h),
            SackFlavor::Rfc6675 | SackFlavor::Rfc6675Basic => {
                let (bytes, runs) = sacked_above();
                let mss = u64::from(self.board.mss());
                runs >= self.dupthresh || bytes > u64::from(self.dupthresh - 1) * mss
            }
        }
    }

    fn enter(&mut self, view: SenderView) -> AckDecision {
        self.phase = Phase::Recovery {
            recover: view.snd_max,
        };
        self.forced = Some(view.snd_una);
        // RFC 6675 §5 (4): RescueRxt is undefined at the start of an episode.
        self.rescued = false;
        AckDecision {
            // Halve once; cwnd = ssthresh (pipe-based, no inflation).
            congestion: Some(LossResponse::FastRetransmit {
                inflate_segments: 0,
            }),
            window: WindowOp::Keep,
        }
    }
}

impl LossRecovery for SackRecovery {
    fn name(&self) -> &'static str {
        match self.flavor {
            SackFlavor::FallFloyd => "sack-fall-floyd",
            SackFlavor::Rfc6675 => "sack-rfc6675",
            SackFlavor::Rfc6675Basic => "sack-rfc6675-basic",
        }
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        let newly_sacked = self.observe(ack, view);
        // RFC 6675 §2: an ACK carrying a SACK block for octets not SACKed before is a duplicate
        // acknowledgment "even if it ... moves the cumulative acknowledgment point".
        self.sack_dup = self.flavor == SackFlavor::Rfc6675
            && newly_sacked > 0
            && matches!(ack.kind, AckKind::New { .. })
            && self.phase == Phase::Open;
        match (ack.kind, self.phase) {
            (AckKind::Dup { count }, Phase::Open) => {
                let lost_una = self.flavor != SackFlavor::FallFloyd
                    && self.is_lost(view.snd_una, self.board.highest_sacked_end());
                if count >= self.dupthresh || lost_una {
                    self.enter(view)
                } else {
                    AckDecision::window(WindowOp::Keep)
                }
            }
            // No Reno inflation: pipe tracks what left the network.
            (AckKind::Dup { .. }, _) => AckDecision::window(WindowOp::Keep),
            (AckKind::New { .. }, Phase::Recovery { recover }) => {
                if ack.ack >= recover {
                    // Fall & Floyd / RFC 6675 §5: recovery ends; cwnd stays at ssthresh.
                    self.phase = Phase::Open;
                    self.forced = None;
                    AckDecision::window(WindowOp::DeflateToSsthresh)
                } else {
                    // Partial ACK: the window stays at ssthresh; pipe falls.
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

    fn on_timeout(&mut self, view: SenderView) {
        // What was sent since the last ACK, first: a short top segment it grew is not SACKed
        // (Scoreboard::update), and the go-back-N must not skip it.
        self.board.update(view.snd_una, view.snd_max);
        if self.flavor == SackFlavor::Rfc6675 {
            // RFC 6675 §5.1: keep using what the receiver reported; resend the rest.
            self.board.clear_retransmitted();
        } else {
            // RFC 2018 §8; ns-2 Sack1.
            self.board.clear();
        }
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
        if !matches!(self.phase, Phase::Recovery { .. }) {
            self.forced = None;
            return None;
        }
        self.board.update(view.snd_una, view.snd_max);
        if let Some(off) = self.forced.take() {
            if let Some(s) = self.board.segment_at(off).filter(|s| !s.sacked) {
                self.board.mark_retransmitted(s.off, now);
                return Some(Retransmit {
                    off: s.off,
                    len: s.len,
                    forced: true,
                });
            }
        }
        // Fall & Floyd: holes first, lowest first; RFC 6675 NextSeg (1).
        let highest = self.board.highest_sacked_end();
        // IsLost only weakens going up (a segment has at least the SACKed bytes and runs above
        // it that any higher one has; Fall-Floyd's test is "below the highest SACK"), so if any
        // candidate is lost the lowest is: one question instead of one per candidate, each a
        // count over the board above it.
        let seg = self
            .board
            .lowest_unresent()
            .filter(|s| self.is_lost(s.off, highest))?;
        if u64::from(seg.len) > budget {
            return None;
        }
        self.board.mark_retransmitted(seg.off, now);
        Some(Retransmit {
            off: seg.off,
            len: seg.len,
            forced: false,
        })
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        if !matches!(self.phase, Phase::Recovery { .. }) {
            return None;
        }
        Some(match self.flavor {
            // A resent hole's original has left the network (Fall & Floyd).
            SackFlavor::FallFloyd => {
                let highest = self.board.highest_sacked_end();
                self.board.pipe(view.snd_max, view.snd_una, |s, above| {
                    s.rexmit_at.is_some() || self.is_lost_with(s.off, highest, || above)
                })
            }
            // IsLost's lost holes are the lowest ones: counted, not walked.
            SackFlavor::Rfc6675 | SackFlavor::Rfc6675Basic => {
                self.board
                    .pipe_rfc6675(view.snd_max, view.snd_una, self.dupthresh)
            }
        })
    }

    fn new_ack_is_duplicate(&self) -> bool {
        self.sack_dup
    }

    fn next_fallback(&mut self, now: SimTime, view: SenderView, budget: u64) -> Option<Retransmit> {
        if self.flavor != SackFlavor::Rfc6675 || !matches!(self.phase, Phase::Recovery { .. }) {
            return None;
        }
        self.board.update(view.snd_una, view.snd_max);
        let highest = self.board.highest_sacked_end();
        // RFC 6675 §4 NextSeg (3): the first unSACKed segment above HighRxt (here: not yet
        // resent) and below the highest SACKed byte, IsLost (1.c) not required.
        let s3 = highest.and_then(|h| self.board.lowest_unresent().filter(|s| s.off < h));
        if let Some(s) = s3 {
            if u64::from(s.len) > budget {
                return None;
            }
            // §5 (C.3): HighRxt moves; SetPipe counts the segment twice.
            self.board.mark_retransmitted(s.off, now);
            return Some(Retransmit {
                off: s.off,
                len: s.len,
                forced: false,
            });
        }
        // NextSeg (4): one rescue retransmission per episode (HighACK > RescueRxt), the segment
        // holding the highest outstanding unSACKed byte; HighRxt is not updated.
        if self.rescued {
            return None;
        }
        let last = self.board.unsacked().next_back()?;
        if u64::from(last.len) > budget {
            return None;
        }
        self.rescued = true;
        Some(Retransmit {
            off: last.off,
            len: last.len,
            forced: false,
        })
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.board.is_sacked(off)
    }

    fn hold(&mut self, ack: &AckInput<'_>, view: SenderView) {
        // TCP-DCR over SACK: the board follows every ACK while the response waits.
        self.observe(ack, view);
    }

    fn respond_now(&mut self, _now: SimTime, view: SenderView, _dupthresh: u32) -> AckDecision {
        if self.phase != Phase::Open {
            return AckDecision::window(WindowOp::Keep);
        }
        self.board.update(view.snd_una, view.snd_max);
        self.enter(view)
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

    fn sdup(count: u32, blocks: &'static [(u64, u64)]) -> AckInput<'static> {
        AckInput {
            sack: blocks,
            ..dup(count, 0)
        }
    }

    #[test]
    fn fall_floyd_waits_for_three_dupacks_then_resends_holes_by_pipe() {
        let mut r = SackRecovery::new(SackFlavor::FallFloyd, 1400, 3);
        let v = view(0, 7 * MSS);
        // Segments 0 and 1 lost; 2, 3, 4 arrive.
        assert_eq!(
            r.on_ack(&sdup(1, &[(2 * MSS, 3 * MSS)]), v).congestion,
            None
        );
        assert_eq!(
            r.on_ack(&sdup(2, &[(2 * MSS, 4 * MSS)]), v).congestion,
            None
        );
        assert_eq!(r.pipe(v), None, "not gated by pipe outside recovery");
        let d = r.on_ack(&sdup(3, &[(2 * MSS, 5 * MSS)]), v);
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 0
            })
        );
        assert_eq!(r.phase(), Phase::Recovery { recover: 7 * MSS });
        // Outstanding 7, SACKed 3, lost 2: pipe = 2 segments (5 and 6).
        assert_eq!(r.pipe(v), Some(2 * MSS));
        let first = r.next_retransmission(SimTime::ZERO, v, 0).unwrap();
        assert_eq!((first.off, first.forced), (0, true));
        assert_eq!(r.pipe(v), Some(3 * MSS));
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 0), None, "no room");
        let second = r.next_retransmission(SimTime::ZERO, v, MSS).unwrap();
        assert_eq!((second.off, second.forced), (MSS, false));
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 9 * MSS), None);
        assert_eq!(r.pipe(v), Some(4 * MSS));
        // Partial ACK for the first hole: its retransmission has left the pipe.
        let d = r.on_ack(&new_ack(MSS, MSS), v);
        assert_eq!((d.congestion, d.window), (None, WindowOp::Keep));
        assert_eq!(r.pipe(view(MSS, 7 * MSS)), Some(3 * MSS));
        let d = r.on_ack(&new_ack(7 * MSS, 6 * MSS), view(MSS, 7 * MSS));
        assert_eq!(d.window, WindowOp::DeflateToSsthresh);
        assert_eq!(r.phase(), Phase::Open);
    }

    #[test]
    fn rfc6675_enters_on_is_lost_before_the_third_dupack() {
        let mut r = SackRecovery::new(SackFlavor::Rfc6675, 1400, 3);
        let v = view(0, 8 * MSS);
        // One duplicate ACK reporting three discontiguous SACKed runs above snd_una.
        static B: [(u64, u64); 3] = [(5 * MSS, 6 * MSS), (3 * MSS, 4 * MSS), (MSS, 2 * MSS)];
        let d = r.on_ack(&sdup(1, &B), v);
        assert!(d.congestion.is_some());
        // IsLost(0) holds (3 runs above); above 2·MSS there are 2 runs and 2 segments, not more
        // than 2·SMSS: not lost. So only segment 0 is resent.
        let a = r.next_retransmission(SimTime::ZERO, v, 10 * MSS).unwrap();
        assert_eq!((a.off, a.forced), (0, true));
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 10 * MSS), None);
    }

    #[test]
    fn a_new_ack_with_new_sack_blocks_is_a_duplicate_for_rfc6675_only() {
        // RFC 6675 §2: the ACK of segment 0 also SACKs segment 2 (1 is missing).
        static B: [(u64, u64); 1] = [(2 * MSS, 3 * MSS)];
        let a = AckInput {
            sack: &B,
            ..new_ack(MSS, MSS)
        };
        for (flavor, dup) in [
            (SackFlavor::Rfc6675, true),
            (SackFlavor::Rfc6675Basic, false),
            (SackFlavor::FallFloyd, false),
        ] {
            let mut r = SackRecovery::new(flavor, 1400, 3);
            r.on_ack(&a, view(0, 5 * MSS));
            assert_eq!(r.new_ack_is_duplicate(), dup, "{flavor:?}");
            // The same blocks again: nothing new is SACKed, so no duplicate.
            r.on_ack(
                &AckInput {
                    sack: &B,
                    ..new_ack(MSS, 0)
                },
                view(MSS, 5 * MSS),
            );
            assert!(!r.new_ack_is_duplicate(), "{flavor:?}");
        }
        // In recovery it is a partial ACK, not a duplicate.
        let mut r = SackRecovery::new(SackFlavor::Rfc6675, 1400, 3);
        for c in 1..=3 {
            r.on_ack(&sdup(c, &[(3 * MSS, 4 * MSS)]), view(0, 5 * MSS));
        }
        assert!(matches!(r.phase(), Phase::Recovery { .. }));
        r.on_ack(&a, view(0, 5 * MSS));
        assert!(!r.new_ack_is_duplicate());
    }

    #[test]
    fn timeout_clears_the_board_and_blocks_recovery_until_recover() {
        let mut r = SackRecovery::new(SackFlavor::FallFloyd, 1400, 3);
        let v = view(0, 5 * MSS);
        r.on_ack(&sdup(1, &[(2 * MSS, 3 * MSS)]), v);
        assert!(r.is_sacked(2 * MSS));
        r.on_timeout(v);
        assert!(!r.is_sacked(2 * MSS));
        for c in 1..=4 {
            assert_eq!(
                r.on_ack(&sdup(c, &[(2 * MSS, 3 * MSS)]), v).congestion,
                None
            );
        }
        assert_eq!(r.phase(), Phase::Loss { recover: 5 * MSS });
        r.on_ack(&new_ack(5 * MSS, 5 * MSS), v);
        assert_eq!(r.phase(), Phase::Open);
    }

    #[test]
    fn rfc6675_keeps_sacked_bits_across_a_timeout_and_basic_clears_them() {
        for (flavor, kept) in [
            (SackFlavor::Rfc6675, true),
            (SackFlavor::Rfc6675Basic, false),
        ] {
            let mut r = SackRecovery::new(flavor, 1400, 3);
            let v = view(0, 5 * MSS);
            r.on_ack(&sdup(1, &[(2 * MSS, 3 * MSS)]), v);
            r.on_timeout(v);
            assert_eq!(r.is_sacked(2 * MSS), kept, "{flavor:?}");
            assert_eq!(r.phase(), Phase::Loss { recover: 5 * MSS });
            // Update() goes on in the Loss phase either way (§5.1).
            r.on_ack(&sdup(2, &[(3 * MSS, 4 * MSS)]), v);
            assert!(r.is_sacked(3 * MSS));
            assert_eq!(r.phase(), Phase::Loss { recover: 5 * MSS });
        }
    }

    #[test]
    fn rfc6675_fallback_rules_3_then_4_and_rule1_flavour_has_none() {
        for flavor in [SackFlavor::Rfc6675, SackFlavor::Rfc6675Basic] {
            let mut r = SackRecovery::new(flavor, 1400, 3);
            let v = view(0, 5 * MSS);
            // 0 and 3 lost: IsLost(0) (three SACKed above), IsLost(3) not (one above).
            r.on_ack(&sdup(1, &[(MSS, 2 * MSS)]), v);
            r.on_ack(&sdup(2, &[(MSS, 3 * MSS)]), v);
            r.on_ack(&sdup(3, &[(4 * MSS, 5 * MSS), (MSS, 3 * MSS)]), v);
            assert!(r.next_retransmission(SimTime::ZERO, v, 0).is_some());
            assert_eq!(r.next_retransmission(SimTime::ZERO, v, 9 * MSS), None);
            if flavor == SackFlavor::Rfc6675Basic {
                assert_eq!(r.next_fallback(SimTime::ZERO, v, 9 * MSS), None);
                continue;
            }
            assert_eq!(r.next_fallback(SimTime::ZERO, v, MSS - 1), None, "no room");
            // Rule (3): segment 3, counted twice in pipe afterwards (SetPipe (a) and (b)).
            let before = r.pipe(v).unwrap();
            let s3 = r.next_fallback(SimTime::ZERO, v, 9 * MSS).unwrap();
            assert_eq!((s3.off, s3.forced), (3 * MSS, false));
            assert_eq!(r.pipe(v), Some(before + MSS));
            // Rule (4): no candidate for (3) left, so the highest unSACKed segment, once.
            let s4 = r.next_fallback(SimTime::ZERO, v, 9 * MSS).unwrap();
            assert_eq!(s4.off, 3 * MSS);
            assert_eq!(r.next_fallback(SimTime::ZERO, v, 9 * MSS), None, "once");
            // A new episode may rescue again.
            r.on_ack(&new_ack(5 * MSS, 5 * MSS), view(0, 5 * MSS));
            assert_eq!(r.phase(), Phase::Open);
            assert_eq!(
                r.next_fallback(SimTime::ZERO, v, 9 * MSS),
                None,
                "not in recovery"
            );
        }
    }
}
