//! Reno fast retransmit and fast recovery as in 4.4BSD-Lite (Balakrishnan97 §2.1).
//!
//! Fast retransmit on the `dupthresh`-th (3rd) duplicate ACK; further duplicates inflate the
//! window; the first ACK of new data ends recovery, even a partial one (that is what NewReno
//! changes). After a timeout the sender goes back to `snd_una` (go-back-N) and the phase is
//! `Loss` until everything sent before the timeout is acknowledged.
//!
//! The ACK that ends recovery pulls cwnd back to ssthresh. [`ExitRetraction::Net3`] does so as
//! Net/3's `tcp_input.c` does, only when more than `tcprexmtthresh` duplicates arrived
//! (`t_dupacks > tcprexmtthresh && snd_cwnd > snd_ssthresh`): after exactly three, the window
//! stays at ssthresh + 3 segments and grows from there. [`ExitRetraction::Always`] retracts on
//! every exit (RFC 5681 §3.2 step 6; lossylink's earlier rule).
//!
//! [`RenoRecovery::with_bugfix`] adds ns-2's `bugFix_` (`Agent/TCP set bugFix_ true`,
//! tcl/lib/ns-default.tcl:954 in ns-2.35; `RenoTcpAgent::dupack_action`, tcp/tcp-reno.cc:171-212,
//! and `timeout`, :219-225): a fast retransmit sets `recover_ = maxseq_`, a timeout too, and the
//! `numdupacks_`-th duplicate starts another only once the cumulative ACK has passed it
//! (`highest_ack_ > recover_`), "to avoid problems with multiple fast retransmits in one window
//! of data": a second loss in the window waits for the timer instead of halving again. Net/3
//! has no such guard (one fast recovery per loss, several per window).

use super::{
    take_forced, AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit,
    SenderView, WindowOp,
};
use engine::SimTime;

/// When the ACK that ends fast recovery pulls cwnd back to ssthresh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExitRetraction {
    /// Always (RFC 5681 §3.2 step 6).
    #[default]
    Always,
    /// Only after more than `dupthresh` duplicates (Net/3 `tcp_input.c`).
    Net3,
}

/// Reno recovery.
#[derive(Clone, Debug)]
pub struct RenoRecovery {
    dupthresh: u32,
    retraction: ExitRetraction,
    /// Duplicates seen in the current episode (Net/3 `t_dupacks`).
    dups: u32,
    phase: Phase,
    /// The fast retransmission waiting to go out.
    pending: Option<u64>,
    /// ns-2's `bugFix_`: no fast retransmit until the ACK passes [`Self::guard`].
    bugfix: bool,
    /// ns-2's `recover_` in bytes: `snd_max` at the last fast retransmit or timeout (none yet:
    /// ns-2's `recover_ = 0` with `bugfix_ss_` lets the first one go, tcp-reno.cc:175-177).
    guard: Option<u64>,
}

impl RenoRecovery {
    /// Reno with the given duplicate-ACK threshold (tcprexmtthresh, 3).
    pub fn new(dupthresh: u32) -> Self {
        RenoRecovery {
            dupthresh: dupthresh.max(1),
            retraction: ExitRetraction::Always,
            dups: 0,
            phase: Phase::Open,
            pending: None,
            bugfix: false,
            guard: None,
        }
    }

    /// The same with ns-2's `bugFix_` (module docs): at most one fast retransmit per window.
    pub fn with_bugfix(mut self, bugfix: bool) -> Self {
        self.bugfix = bugfix;
        self
    }

    /// The same with the given exit rule.
    pub fn with_retraction(mut self, retraction: ExitRetraction) -> Self {
        self.retraction = retraction;
        self
    }

    /// Whether a fast retransmission waits to go out (`next_retransmission` would return it).
    #[inline(always)]
    pub(crate) fn has_forced(&self) -> bool {
        self.pending.is_some()
    }
}

impl LossRecovery for RenoRecovery {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        if let AckKind::Dup { count } = ack.kind {
            self.dups = count;
        }
        match ack.kind {
            // ns-2 tcp-reno.cc:173-177, 199-206: `highest_ack_ > recover_` (the ACK covers a
            // segment sent after `maxseq_` of the last fast retransmit or timeout), else nothing.
            AckKind::Dup { count }
                if count == self.dupthresh
                    && self.bugfix
                    && self.guard.is_some_and(|g| ack.ack <= g) =>
            {
                AckDecision::window(WindowOp::Keep)
            }
            AckKind::Dup { count } if count == self.dupthresh => {
                self.phase = Phase::Recovery {
                    recover: view.snd_max,
                };
                // tcp-reno.cc:211: recover_ = maxseq_.
                self.guard = Some(view.snd_max);
                self.pending = Some(view.snd_una);
                AckDecision {
                    congestion: Some(LossResponse::FastRetransmit {
                        inflate_segments: count,
                    }),
                    window: WindowOp::Keep,
                }
            }
            AckKind::Dup { count }
                if count > self.dupthresh && matches!(self.phase, Phase::Recovery { .. }) =>
            {
                AckDecision::window(WindowOp::Inflate)
            }
            AckKind::Dup { .. } => AckDecision::window(WindowOp::Keep),
            AckKind::New { .. } => {
                self.pending = None;
                let dups = std::mem::take(&mut self.dups);
                match self.phase {
                    // Net/3 tcp_input.c: retract only if t_dupacks > tcprexmtthresh.
                    Phase::Recovery { .. }
                        if self.retraction == ExitRetraction::Net3 && dups <= self.dupthresh =>
                    {
                        self.phase = Phase::Open;
                        AckDecision::window(WindowOp::Grow)
                    }
                    Phase::Recovery { .. } => {
                        self.phase = Phase::Open;
                        AckDecision::window(WindowOp::ExitRecovery)
                    }
                    Phase::Loss { recover } => {
                        if ack.ack >= recover {
                            self.phase = Phase::Open;
                        }
                        AckDecision::window(WindowOp::Grow)
                    }
                    Phase::Open => AckDecision::window(WindowOp::Grow),
                }
            }
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.pending = None;
        self.dups = 0;
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
        // tcp-reno.cc:224: `if (bug_fix_) recover_ = maxseq_`.
        self.guard = Some(view.snd_max);
    }

    fn next_retransmission(
        &mut self,
        _now: SimTime,
        view: SenderView,
        _budget: u64,
    ) -> Option<Retransmit> {
        take_forced(&mut self.pending, view)
    }

    fn on_undo(&mut self) {
        self.pending = None;
        self.phase = Phase::Open;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine::SimDuration;

    pub(crate) fn view(una: u64, max: u64) -> SenderView {
        SenderView {
            snd_una: una,
            snd_nxt: max,
            snd_max: max,
            mss: 1400,
        }
    }

    pub(crate) fn dup(count: u32, ack: u64) -> AckInput<'static> {
        AckInput {
            now: SimTime::ZERO,
            kind: AckKind::Dup { count },
            ack,
            sack: &[],
            smart: None,
            eln: false,
            cc: None,
            srtt: SimDuration::from_millis(100),
            srtt_ticks: 0,
        }
    }

    pub(crate) fn new_ack(ack: u64, acked: u64) -> AckInput<'static> {
        AckInput {
            kind: AckKind::New { acked },
            ..dup(0, ack)
        }
    }

    #[test]
    fn third_dupack_retransmits_and_partial_ack_exits() {
        let mut r = RenoRecovery::new(3);
        let v = view(0, 7000);
        assert_eq!(r.on_ack(&dup(1, 0), v).congestion, None);
        assert_eq!(r.on_ack(&dup(2, 0), v).congestion, None);
        let d = r.on_ack(&dup(3, 0), v);
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 3
            })
        );
        assert_eq!(r.phase(), Phase::Recovery { recover: 7000 });
        assert_eq!(
            r.next_retransmission(SimTime::ZERO, v, 0),
            Some(Retransmit {
                off: 0,
                len: 1400,
                forced: true
            })
        );
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 0), None);
        assert_eq!(r.on_ack(&dup(4, 0), v).window, WindowOp::Inflate);
        // A partial ACK (below recover) still ends Reno's recovery.
        assert_eq!(
            r.on_ack(&new_ack(1400, 1400), v).window,
            WindowOp::ExitRecovery
        );
        assert_eq!(r.phase(), Phase::Open);
    }

    #[test]
    fn net3_retracts_only_after_more_than_three_duplicates() {
        for (retraction, dups, exit) in [
            (ExitRetraction::Net3, 3, WindowOp::Grow),
            (ExitRetraction::Net3, 4, WindowOp::ExitRecovery),
            (ExitRetraction::Always, 3, WindowOp::ExitRecovery),
        ] {
            let mut r = RenoRecovery::new(3).with_retraction(retraction);
            let v = view(0, 7000);
            for c in 1..=dups {
                r.on_ack(&dup(c, 0), v);
            }
            assert!(matches!(r.phase(), Phase::Recovery { .. }));
            let d = r.on_ack(&new_ack(7000, 7000), v);
            assert_eq!(d.window, exit, "{retraction:?} after {dups}");
            assert_eq!(r.phase(), Phase::Open);
        }
    }

    #[test]
    fn ns2_bugfix_allows_one_fast_retransmit_per_window() {
        // Two holes in a window sent up to 7000: Net/3 halves for each, ns-2's bugFix_ only for
        // the first; the second waits for the timer, and after it for an ACK past 9800.
        for (bugfix, second) in [(false, true), (true, false)] {
            let mut r = RenoRecovery::new(3).with_bugfix(bugfix);
            let v = view(0, 7000);
            for c in 1..=3 {
                r.on_ack(&dup(c, 0), v);
            }
            assert!(matches!(r.phase(), Phase::Recovery { recover: 7000 }));
            r.on_ack(&new_ack(2800, 2800), view(2800, 8400));
            let fr = (1..=3)
                .map(|c| r.on_ack(&dup(c, 2800), view(2800, 8400)).congestion)
                .last()
                .flatten();
            assert_eq!(fr.is_some(), second, "bugfix {bugfix}");
        }
        let mut r = RenoRecovery::new(3).with_bugfix(true);
        r.on_timeout(view(2800, 9800));
        // The ACK of 9800 itself is not past recover_ (ns-2's highest_ack_ > recover_).
        r.on_ack(&new_ack(9800, 7000), view(9800, 12600));
        let after = |r: &mut RenoRecovery, ack| {
            (1..=3)
                .map(|c| r.on_ack(&dup(c, ack), view(ack, 14000)).congestion)
                .last()
                .flatten()
        };
        assert_eq!(after(&mut r, 9800), None);
        r.on_ack(&new_ack(11200, 1400), view(11200, 14000));
        assert!(after(&mut r, 11200).is_some());
    }

    #[test]
    fn timeout_phase_lasts_until_recover_is_acked() {
        let mut r = RenoRecovery::new(3);
        r.on_timeout(view(0, 4200));
        assert_eq!(
            r.on_ack(&new_ack(1400, 1400), view(0, 4200)).window,
            WindowOp::Grow
        );
        assert_eq!(r.phase(), Phase::Loss { recover: 4200 });
        r.on_ack(&new_ack(4200, 2800), view(1400, 4200));
        assert_eq!(r.phase(), Phase::Open);
    }
}
