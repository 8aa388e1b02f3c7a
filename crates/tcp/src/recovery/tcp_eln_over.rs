//! TCP-ELN's corruption response over a base recovery that repairs several holes in a window:
//! NewReno (RFC 6582) or SACK (RFC 6675 / Fall & Floyd). Buchholcz et al. put TCP-ELN on Reno
//! (eln-llelsn spec §3.4 C7); this layer is the composition the reproduction's long-bursts
//! counterfactual asks for (docs/buchholcz.md), built as [`super::ElnRecovery`] layers
//! Balakrishnan's ELN: every ACK goes to the base part first, so its `recover`, its duplicate
//! count and its scoreboard stay current, and the layer then edits the decision.
//!
//! - OPEN: a duplicate whose counter rose since `last_cc` (spec §3.3) makes the base start its
//!   recovery at once ([`LossRecovery::respond_now`]), with its congestion response taken away:
//!   cwnd is stored (spec §3.4 C6 decides whether the triggering duplicate also inflates it)
//!   and not cut. What is resent is the base's: snd_una now, later holes by NewReno's partial
//!   ACKs (RFC 6582 §3.2 (5)) or by the SACK scoreboard (RFC 6675 §5 NextSeg); C1 and C4 of
//!   the Reno machine do not apply.
//! - The corruption episode: each hole the base resends spends one unit of the counter's rise
//!   (`last_cc` moves at corruption retransmissions, C5 literal). A hole the counter does not
//!   cover was not corrupted: the congestion response runs (halving the stored window, C3), on
//!   the ACK after that retransmission because the sender pulls retransmissions after an ACK's
//!   decision. As on Reno (C2), more duplicates than the outstanding segments (counted afresh
//!   at every partial ACK) say the retransmission was lost: the congestion response, and
//!   snd_una resent once. After a congestion response the rest of the episode is the base's
//!   ordinary recovery.
//! - The episode ends when the base leaves recovery: cwnd goes back to the stored value
//!   (spec §3.3 "restore cwnd"), not to ssthresh. Timeouts are the base's; after one, where the
//!   base starts no recovery until its `recover` (RFC 6582 §4.1, RFC 6675 §5.1), a rise resends
//!   snd_una at once (TCP-ELN is OPEN after a timeout, spec §3.3) without an episode.
//!
//! Window operations inside an uncut episode: Reno inflation and NewReno's partial deflation
//! pass (they keep the number of packets in the network constant, as the paper's ELN_REC
//! inflation does); a pipe-governed SACK base keeps cwnd at the stored value and lets `pipe`
//! fall as the duplicates arrive.

use super::{
    take_forced, AckDecision, AckInput, AckKind, ElnBasis, ElnExpected, LossRecovery, LossResponse,
    Phase, Retransmit, SenderView, TcpElnConfig, WindowOp,
};
use engine::SimTime;

/// A corruption episode: the base is in recovery on a counter rise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Episode {
    /// Duplicates expected before the next cumulative ACK (C2).
    expected: u32,
    /// Duplicates seen since the episode began or the last partial ACK.
    dupacks: u32,
    /// The highest hole resent so far in the episode (holes are resent lowest first).
    resent_to: Option<u64>,
    /// The base's congestion response, held back (its inflation count).
    inflate_segments: u32,
    /// A resent hole was not covered by the counter: respond on the next ACK.
    due: bool,
    /// The congestion response ran: the base's ordinary recovery from here.
    cut: bool,
}

/// TCP-ELN over a base recovery part.
pub struct TcpElnOver {
    inner: Box<dyn LossRecovery>,
    cfg: TcpElnConfig,
    name: &'static str,
    last_cc: u32,
    seen_cc: u32,
    episode: Option<Episode>,
    /// snd_una to resend once after a lost retransmission (C2 overflow).
    pending: Option<u64>,
    episodes: u64,
}

impl TcpElnOver {
    /// The layer over `inner` with TCP-ELN's knobs (C2, C3, C5, C6 are read; C1 and C4 are the
    /// base's); `name` names the sender in traces.
    pub fn new(inner: Box<dyn LossRecovery>, cfg: TcpElnConfig, name: &'static str) -> Self {
        TcpElnOver {
            inner,
            cfg: TcpElnConfig {
                dupthresh: cfg.dupthresh.max(1),
                ..cfg
            },
            name,
            last_cc: 0,
            seen_cc: 0,
            episode: None,
            pending: None,
            episodes: 0,
        }
    }

    /// Corruption episodes so far.
    pub fn episodes(&self) -> u64 {
        self.episodes
    }

    /// C2: the duplicates expected with `outstanding` segments in flight.
    fn expected(&self, view: SenderView) -> u32 {
        let mss = u64::from(view.mss.max(1));
        let out = view.snd_max.saturating_sub(view.snd_una).div_ceil(mss);
        let out = u32::try_from(out).unwrap_or(u32::MAX);
        match self.cfg.expected {
            ElnExpected::Outstanding => out,
            ElnExpected::OutstandingMinusOne => out.saturating_sub(1),
            ElnExpected::OutstandingMinusTwo => out.saturating_sub(2),
        }
    }

    /// The held-back congestion response, now (C3: from the stored window by default).
    fn respond(&self, e: &mut Episode) -> AckDecision {
        e.cut = true;
        e.due = false;
        AckDecision {
            congestion: Some(LossResponse::FastRetransmit {
                inflate_segments: e.inflate_segments,
            }),
            window: match self.cfg.basis {
                ElnBasis::SavedCwnd => WindowOp::Restore,
                ElnBasis::Controller => WindowOp::Keep,
            },
        }
    }

    /// Open, a rise on a duplicate: the base's recovery without its cut.
    fn begin(&mut self, ack: &AckInput<'_>, view: SenderView, d: AckDecision) -> AckDecision {
        let entered = if matches!(self.inner.phase(), Phase::Recovery { .. }) {
            d
        } else {
            self.inner.respond_now(ack.now, view, self.cfg.dupthresh)
        };
        if !matches!(self.inner.phase(), Phase::Recovery { .. }) {
            // The base refuses a recovery here: after a timeout it waits for `recover` (RFC 6582
            // §4.1, RFC 6675 §5.1), lest the go-back-N's duplicates start one. A rise is no such
            // duplicate: TCP-ELN is OPEN after a timeout (spec §3.3) and resends the corrupted
            // segment at once, spending the rise; the window is the timeout's.
            if matches!(self.inner.phase(), Phase::Loss { .. }) {
                self.pending = Some(view.snd_una);
                self.last_cc = self.last_cc.wrapping_add(1);
                self.episodes += 1;
            }
            return entered;
        }
        let inflate_segments = match entered.congestion.or(d.congestion) {
            Some(LossResponse::FastRetransmit { inflate_segments }) => inflate_segments,
            None => 0,
        };
        self.episode = Some(Episode {
            expected: self.expected(view),
            dupacks: 0,
            resent_to: None,
            inflate_segments,
            due: false,
            cut: false,
        });
        self.episodes += 1;
        AckDecision::window(WindowOp::Save {
            inflate: self.cfg.inflate_trigger,
        })
    }

    /// An ACK inside an episode, after the base saw it.
    fn within(
        &mut self,
        mut e: Episode,
        ack: &AckInput<'_>,
        view: SenderView,
        d: AckDecision,
    ) -> AckDecision {
        let in_recovery = matches!(self.inner.phase(), Phase::Recovery { .. });
        if e.cut {
            if in_recovery {
                self.episode = Some(e);
            }
            return d;
        }
        if !in_recovery {
            self.pending = None;
            if e.due {
                // The last hole resent was not corrupted: halve the stored window, no inflation
                // left to add at the end of the recovery.
                e.inflate_segments = 0;
                return self.respond(&mut e);
            }
            // The base's full ACK: the stored window (spec §3.3 "restore cwnd").
            return AckDecision::window(WindowOp::Restore);
        }
        let mut out = AckDecision::window(match d.window {
            WindowOp::DeflateToSsthresh | WindowOp::ExitRecovery => WindowOp::Restore,
            w => w,
        });
        match ack.kind {
            AckKind::Dup { .. } => {
                e.dupacks += 1;
                if e.dupacks > e.expected {
                    // C2/C3: the retransmission was lost.
                    self.pending = Some(view.snd_una);
                    out = self.respond(&mut e);
                }
            }
            AckKind::New { .. } => {
                // A partial ACK: the duplicates are counted afresh (the new data's).
                e.dupacks = 0;
                e.expected = self.expected(SenderView {
                    snd_una: ack.ack,
                    ..view
                });
            }
        }
        if e.due && !e.cut {
            out = self.respond(&mut e);
        }
        self.episode = Some(e);
        out
    }
}

impl LossRecovery for TcpElnOver {
    fn name(&self) -> &'static str {
        self.name
    }

    fn phase(&self) -> Phase {
        self.inner.phase()
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        let cc = ack.cc.unwrap_or(self.seen_cc);
        if cc.wrapping_sub(self.seen_cc) < u32::MAX / 2 {
            self.seen_cc = cc;
        }
        let d = self.inner.on_ack(ack, view);
        if matches!(ack.kind, AckKind::New { .. }) {
            self.pending = None;
        }
        if let Some(e) = self.episode.take() {
            return self.within(e, ack, view, d);
        }
        let rise = self.seen_cc.wrapping_sub(self.last_cc);
        let rise = if rise > u32::MAX / 2 { 0 } else { rise };
        match ack.kind {
            // Spec §3.3: corruption indicated on a duplicate, outside a congestion recovery of
            // the base (a rise inside one waits, C4 literal); the base may have started its
            // recovery on this very duplicate.
            AckKind::Dup { .. }
                if rise > 0
                    && (d.congestion.is_some()
                        || !matches!(self.inner.phase(), Phase::Recovery { .. })) =>
            {
                self.begin(ack, view, d)
            }
            AckKind::New { .. } if self.cfg.sync => {
                self.last_cc = self.seen_cc;
                d
            }
            _ => d,
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.episode = None;
        self.pending = None;
        if self.cfg.sync {
            self.last_cc = self.seen_cc;
        }
        self.inner.on_timeout(view);
    }

    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        if let Some(r) = take_forced(&mut self.pending, view) {
            return Some(r);
        }
        let r = self.inner.next_retransmission(now, view, budget)?;
        if let Some(e) = self.episode.as_mut().filter(|e| !e.cut) {
            if e.resent_to.is_none_or(|to| r.off > to) {
                e.resent_to = Some(r.off);
                let credit = self.seen_cc.wrapping_sub(self.last_cc);
                if credit > 0 && credit < u32::MAX / 2 {
                    // A corruption retransmission: the counter's rise is spent by one (C5).
                    self.last_cc = self.last_cc.wrapping_add(1);
                } else {
                    e.due = true;
                }
            }
        }
        Some(r)
    }

    fn next_fallback(&mut self, now: SimTime, view: SenderView, budget: u64) -> Option<Retransmit> {
        // RFC 6675 NextSeg (3)/(4) resend what is not known lost: not a hole to account.
        self.inner.next_fallback(now, view, budget)
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        self.inner.pipe(view)
    }

    fn new_ack_is_duplicate(&self) -> bool {
        self.inner.new_ack_is_duplicate()
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.inner.is_sacked(off)
    }

    fn sacked_bytes(&self) -> Option<u64> {
        self.inner.sacked_bytes()
    }

    fn on_undo(&mut self) {
        self.episode = None;
        self.pending = None;
        self.inner.on_undo();
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::super::{NewRenoFlavor, NewRenoRecovery, SackFlavor, SackRecovery};
    use super::*;

    const MSS: u64 = 1400;

    fn cc(a: AckInput<'static>, cc: u32) -> AckInput<'static> {
        AckInput { cc: Some(cc), ..a }
    }

    fn over_newreno() -> TcpElnOver {
        let base = NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3);
        TcpElnOver::new(Box::new(base), TcpElnConfig::default(), "tcp-eln-newreno")
    }

    fn pull(r: &mut TcpElnOver, v: SenderView) -> Vec<u64> {
        std::iter::from_fn(|| r.next_retransmission(SimTime::ZERO, v, 10 * MSS))
            .map(|x| x.off)
            .collect()
    }

    /// Two corrupted segments (0 and 5) of ten: the rise resends 0 without a cut, NewReno's
    /// partial ACK resends 5, still without a cut because the counter covers it, and the full
    /// ACK restores the stored window.
    #[test]
    fn two_corrupted_holes_over_newreno_are_repaired_without_a_cut() {
        let mut r = over_newreno();
        let v = view(0, 10 * MSS);
        let d = r.on_ack(&cc(dup(1, 0), 1), v);
        assert_eq!(
            (d.congestion, d.window),
            (None, WindowOp::Save { inflate: false })
        );
        assert_eq!(pull(&mut r, v), [0]);
        for c in 2..=8 {
            let d = r.on_ack(&cc(dup(c, 0), if c >= 5 { 2 } else { 1 }), v);
            assert_eq!(
                (d.congestion, d.window),
                (None, WindowOp::Inflate),
                "dup {c}"
            );
        }
        let d = r.on_ack(&cc(new_ack(5 * MSS, 5 * MSS), 2), v);
        assert_eq!(d.congestion, None, "partial ACK of a corrupted hole");
        assert_eq!(d.window, WindowOp::PartialDeflate { acked: 5 * MSS });
        let v5 = view(5 * MSS, 12 * MSS);
        assert_eq!(pull(&mut r, v5), [5 * MSS]);
        let d = r.on_ack(&cc(dup(1, 5 * MSS), 2), v5);
        assert_eq!(d.congestion, None);
        let d = r.on_ack(&cc(new_ack(12 * MSS, 7 * MSS), 2), v5);
        assert_eq!((d.congestion, d.window), (None, WindowOp::Restore));
        assert_eq!(r.phase(), Phase::Open);
        assert_eq!(r.episodes(), 1);
    }

    /// The same window with only segment 0 corrupted: the second hole is congestion, and the
    /// ACK after its retransmission halves the stored window.
    #[test]
    fn a_hole_the_counter_does_not_cover_is_congestion() {
        let mut r = over_newreno();
        let v = view(0, 10 * MSS);
        r.on_ack(&cc(dup(1, 0), 1), v);
        assert_eq!(pull(&mut r, v), [0]);
        let d = r.on_ack(&cc(new_ack(5 * MSS, 5 * MSS), 1), v);
        assert_eq!(d.congestion, None);
        let v5 = view(5 * MSS, 12 * MSS);
        assert_eq!(pull(&mut r, v5), [5 * MSS]);
        let d = r.on_ack(&cc(dup(1, 5 * MSS), 1), v5);
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 3
            })
        );
        assert_eq!(d.window, WindowOp::Restore, "C3: from the stored window");
        // From here the base's recovery: its full ACK deflates to ssthresh.
        let d = r.on_ack(&cc(new_ack(12 * MSS, 7 * MSS), 1), v5);
        assert_eq!(d.window, WindowOp::DeflateToSsthresh);
    }

    /// More duplicates than segments outstanding: the retransmission was lost (C2).
    #[test]
    fn a_lost_retransmission_is_congestion_and_resends_snd_una() {
        let mut r = over_newreno();
        let v = view(0, 3 * MSS);
        r.on_ack(&cc(dup(1, 0), 1), v);
        assert_eq!(pull(&mut r, v), [0]);
        for c in 2..=4 {
            assert_eq!(r.on_ack(&cc(dup(c, 0), 1), v).congestion, None);
        }
        assert!(r.on_ack(&cc(dup(5, 0), 1), v).congestion.is_some());
        assert_eq!(pull(&mut r, v), [0]);
    }

    /// After a timeout RFC 6582 starts no recovery until `recover` (§4.1); a rise still resends
    /// snd_una at once, without an episode, and only once per unit of the rise.
    #[test]
    fn after_a_timeout_a_rise_resends_snd_una_although_the_base_waits() {
        let mut r = over_newreno();
        let v = view(0, 10 * MSS);
        r.on_timeout(v);
        let v2 = view(2 * MSS, 10 * MSS);
        let d = r.on_ack(&cc(dup(1, 2 * MSS), 1), v2);
        assert_eq!((d.congestion, d.window), (None, WindowOp::Keep));
        assert_eq!(pull(&mut r, v2), [2 * MSS]);
        assert_eq!(r.episodes(), 1);
        assert!(matches!(r.phase(), Phase::Loss { .. }));
        r.on_ack(&cc(dup(2, 2 * MSS), 1), v2);
        assert_eq!(pull(&mut r, v2), Vec::<u64>::new(), "the rise is spent");
    }

    /// No rise: the base's own recovery, cut included.
    #[test]
    fn duplicates_without_a_rise_are_the_bases() {
        let mut r = over_newreno();
        let v = view(0, 10 * MSS);
        r.on_ack(&dup(1, 0), v);
        r.on_ack(&dup(2, 0), v);
        assert!(r.on_ack(&dup(3, 0), v).congestion.is_some());
        assert_eq!(r.episodes(), 0);
    }

    /// Over SACK: the rise enters the base's recovery at once without a cut; the SACK board
    /// finds the second corrupted hole, and the exit restores the stored window.
    #[test]
    fn over_sack_the_board_finds_the_second_hole_without_a_cut() {
        let base = SackRecovery::new(SackFlavor::Rfc6675, 1400, 3);
        let mut r = TcpElnOver::new(Box::new(base), TcpElnConfig::default(), "tcp-eln-sack");
        let v = view(0, 10 * MSS);
        static B1: [(u64, u64); 1] = [(MSS, 2 * MSS)];
        let d = r.on_ack(
            &cc(
                AckInput {
                    sack: &B1,
                    ..dup(1, 0)
                },
                1,
            ),
            v,
        );
        assert_eq!(
            (d.congestion, d.window),
            (None, WindowOp::Save { inflate: false })
        );
        assert!(matches!(r.phase(), Phase::Recovery { .. }));
        assert_eq!(pull(&mut r, v), [0]);
        // Segments 1-4 and 6-9 arrive, 5 corrupted (counter 2): the board marks 5 lost.
        static B2: [(u64, u64); 2] = [(6 * MSS, 10 * MSS), (MSS, 5 * MSS)];
        let d = r.on_ack(
            &cc(
                AckInput {
                    sack: &B2,
                    ..dup(2, 0)
                },
                2,
            ),
            v,
        );
        assert_eq!(d.congestion, None);
        assert_eq!(pull(&mut r, v), [5 * MSS]);
        static B3: [(u64, u64); 1] = [(6 * MSS, 10 * MSS)];
        let d = r.on_ack(
            &cc(
                AckInput {
                    sack: &B3,
                    ..new_ack(5 * MSS, 5 * MSS)
                },
                2,
            ),
            v,
        );
        assert_eq!(d.congestion, None, "the second hole was corrupted");
        let d = r.on_ack(&cc(new_ack(10 * MSS, 5 * MSS), 2), view(5 * MSS, 10 * MSS));
        assert_eq!((d.congestion, d.window), (None, WindowOp::Restore));
    }
}
