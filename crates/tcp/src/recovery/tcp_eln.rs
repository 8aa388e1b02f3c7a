//! TCP-ELN at the sender (Buchholcz, Gricser, Ziegler and Van Do; eln-llelsn spec §3.1-3.4):
//! Reno whose duplicate ACKs are checked against the receiver's cumulative *corruption counter*.
//!
//! - OPEN: a duplicate whose counter rose since the last corruption retransmission (by k) says
//!   k segments were lost on the last radio hop: resend the first `min(k, outstanding)` segments
//!   from snd_una (C1), store the outstanding segments (C2) and cwnd, and wait for the recovery
//!   ACK in ELN_REC; no window cut. A duplicate without a rise counts towards Reno's third.
//! - ELN_REC: each duplicate inflates cwnd by one segment while at most the stored number of
//!   them arrived; one more means the retransmission was lost, and the original congestion
//!   response runs (C3). A full recovery ACK (everything sent before the retransmission)
//!   restores the stored cwnd; a partial one is taken as congestion (C3).
//! - FR: ordinary Reno fast recovery. Timeouts are unchanged (Reno).
//!
//! The spec's ambiguities are knobs ([`TcpElnConfig`]) with its recommended resolutions as
//! defaults: C1 contiguous, C2 outstanding at the retransmission (W; W − 1 and W − 2 are knobs), C3 halving based on the stored
//! cwnd, C4 literal (a further rise inside ELN_REC or FR is ignored), C5 literal (`last_cc` moves
//! only at corruption retransmissions), C6 no inflation on the triggering duplicate. C7 (Reno
//! base) and C8 (a counter per connection) are fixed: the sender is this part, the counter the
//! receiver's.

use super::{
    seg_len, AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit,
    SenderView, WindowOp,
};
use engine::SimTime;

/// C1: which segments a corruption retransmission resends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElnResend {
    /// `min(k, outstanding)` contiguous segments from snd_una (the spec's default).
    Contiguous,
    /// Only the segment at snd_una.
    FirstOnly,
}

/// C2: how many duplicates ELN_REC expects before the recovery ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElnExpected {
    /// `(snd_max − snd_una)/MSS` at the retransmission (the spec's default).
    Outstanding,
    /// One fewer (the triggering duplicate already arrived).
    OutstandingMinusOne,
    /// Two fewer: the duplicates that can physically come, W − 2 (neither the corrupted
    /// segment nor the one whose duplicate triggered the retransmission sends another).
    OutstandingMinusTwo,
}

/// C3: what the original congestion response halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElnBasis {
    /// The stored cwnd, so the ELN_REC inflation does not leak into ssthresh (default).
    SavedCwnd,
    /// Whatever the congestion controller halves (FlightSize with RFC 5681, cwnd with Net/3).
    Controller,
}

/// The knobs of TCP-ELN's ambiguities (spec §3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpElnConfig {
    /// Reno's duplicate-ACK threshold (3).
    pub dupthresh: u32,
    /// C1.
    pub resend: ElnResend,
    /// C2.
    pub expected: ElnExpected,
    /// C3.
    pub basis: ElnBasis,
    /// C4 `eager`: a rise inside ELN_REC resends the next segment not yet resent and extends
    /// the recovery point (default off: literal).
    pub eager: bool,
    /// C5 `sync`: `last_cc` also follows the counter on new ACKs and timeouts (default off).
    pub sync: bool,
    /// C6: the triggering duplicate also inflates cwnd (default off).
    pub inflate_trigger: bool,
}

impl Default for TcpElnConfig {
    fn default() -> Self {
        TcpElnConfig {
            dupthresh: 3,
            resend: ElnResend::Contiguous,
            expected: ElnExpected::Outstanding,
            basis: ElnBasis::SavedCwnd,
            eager: false,
            sync: false,
            inflate_trigger: false,
        }
    }
}

/// Where the sender is (spec §3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No recovery (duplicates without a counter rise count towards Reno's threshold through
    /// the sender's own count, exactly as Reno's do).
    Open,
    /// Waiting for the recovery ACK of a corruption retransmission.
    ElnRec {
        /// Duplicates expected before it (C2).
        expected: u32,
        /// snd_max at the retransmission: "full" recovery.
        recover: u64,
        /// Duplicates seen in this state.
        dupacks: u32,
        /// Next offset an eager retransmission would resend (C4).
        next_resend: u64,
    },
    /// Reno fast recovery.
    Fr { recover: u64 },
    /// After a timeout, until `recover` is acknowledged (Reno); duplicates are handled as in
    /// OPEN (spec §3.3: "state = OPEN" after the timeout; Reno's phase for the new ACKs).
    Loss { recover: u64 },
}

/// TCP-ELN's loss recovery.
#[derive(Clone, Debug)]
pub struct TcpElnRecovery {
    cfg: TcpElnConfig,
    state: State,
    last_cc: u32,
    /// The highest counter seen on any ACK (for C5 `sync` on a timeout).
    seen_cc: u32,
    /// Segments to resend at once: `[from, to)`.
    resend: Option<(u64, u64)>,
    /// Corruption retransmissions (episodes) so far.
    episodes: u64,
}

impl TcpElnRecovery {
    /// TCP-ELN with the given knobs.
    pub fn new(cfg: TcpElnConfig) -> Self {
        TcpElnRecovery {
            cfg: TcpElnConfig {
                dupthresh: cfg.dupthresh.max(1),
                ..cfg
            },
            state: State::Open,
            last_cc: 0,
            seen_cc: 0,
            resend: None,
            episodes: 0,
        }
    }

    /// Corruption retransmission episodes so far.
    pub fn episodes(&self) -> u64 {
        self.episodes
    }

    /// Reno's fast retransmit of snd_una: the congestion response, with cwnd first set back to
    /// `saved` when the halving is based on the stored window (C3).
    fn congestion(&mut self, view: SenderView, from_saved: bool) -> AckDecision {
        self.state = State::Fr {
            recover: view.snd_max,
        };
        self.resend = Some((view.snd_una, view.snd_una + 1));
        let window = match (self.cfg.basis, from_saved) {
            (ElnBasis::SavedCwnd, true) => WindowOp::Restore,
            _ => WindowOp::Keep,
        };
        AckDecision {
            congestion: Some(LossResponse::FastRetransmit {
                inflate_segments: self.cfg.dupthresh,
            }),
            window,
        }
    }

    fn on_dup(
        &mut self,
        ack: &AckInput<'_>,
        view: SenderView,
        rise: u32,
        count: u32,
    ) -> AckDecision {
        let mss = u64::from(view.mss.max(1));
        let outstanding = view.snd_max.saturating_sub(view.snd_una).div_ceil(mss);
        match self.state {
            State::Open | State::Loss { .. } => {
                if rise > 0 {
                    // Spec §3.3: corruption indicated, on any duplicate (the first included).
                    let n = match self.cfg.resend {
                        ElnResend::Contiguous => u64::from(rise).min(outstanding).max(1),
                        ElnResend::FirstOnly => 1,
                    };
                    let out = u32::try_from(outstanding).unwrap_or(u32::MAX);
                    let expected = match self.cfg.expected {
                        ElnExpected::Outstanding => out,
                        ElnExpected::OutstandingMinusOne => out.saturating_sub(1),
                        ElnExpected::OutstandingMinusTwo => out.saturating_sub(2),
                    };
                    self.resend = Some((view.snd_una, view.snd_una + n * mss));
                    self.state = State::ElnRec {
                        expected,
                        recover: view.snd_max,
                        dupacks: 0,
                        next_resend: view.snd_una + n * mss,
                    };
                    self.last_cc = ack.cc.unwrap_or(self.last_cc);
                    self.episodes += 1;
                    return AckDecision::window(WindowOp::Save {
                        inflate: self.cfg.inflate_trigger,
                    });
                }
                // No rise: Reno's rule on the sender's consecutive count (so that a connection
                // without corruption is Reno's exactly, T002-1).
                if count == self.cfg.dupthresh {
                    return self.congestion(view, false);
                }
                AckDecision::window(WindowOp::Keep)
            }
            State::ElnRec {
                expected,
                recover,
                dupacks,
                next_resend,
            } => {
                let dupacks = dupacks + 1;
                if dupacks > expected {
                    // The retransmission was lost: the original congestion response (C3).
                    return self.congestion(view, true);
                }
                let mut next = next_resend;
                let mut until = recover;
                if self.cfg.eager && rise > 0 && next < view.snd_max {
                    // C4 eager: resend the next segment not yet resent, extend the recovery.
                    self.resend = Some((next, next + mss));
                    next += mss;
                    until = view.snd_max;
                    self.last_cc = ack.cc.unwrap_or(self.last_cc);
                }
                self.state = State::ElnRec {
                    expected,
                    recover: until,
                    dupacks,
                    next_resend: next,
                };
                AckDecision::window(WindowOp::Inflate)
            }
            // Reno's inflation (its count passed the threshold when FR began).
            State::Fr { .. } => AckDecision::window(WindowOp::Inflate),
        }
    }
}

impl LossRecovery for TcpElnRecovery {
    fn name(&self) -> &'static str {
        "tcp-eln"
    }

    fn phase(&self) -> Phase {
        match self.state {
            State::Open => Phase::Open,
            State::ElnRec { recover, .. } | State::Fr { recover } => Phase::Recovery { recover },
            State::Loss { recover } => Phase::Loss { recover },
        }
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        let cc = ack.cc.unwrap_or(self.last_cc);
        if cc.wrapping_sub(self.seen_cc) < u32::MAX / 2 {
            self.seen_cc = cc;
        }
        let rise = cc.wrapping_sub(self.last_cc);
        // A counter that went back (wrapped past 2^31 or a stale ACK) is no rise.
        let rise = if rise > u32::MAX / 2 { 0 } else { rise };
        match ack.kind {
            AckKind::Dup { count } => self.on_dup(ack, view, rise, count),
            AckKind::New { .. } => {
                if self.cfg.sync && rise > 0 {
                    self.last_cc = cc;
                }
                match self.state {
                    State::Open => AckDecision::window(WindowOp::Grow),
                    State::ElnRec { recover, .. } => {
                        self.resend = None;
                        if ack.ack >= recover {
                            // Full recovery ACK: the stored window, no halving.
                            self.state = State::Open;
                            AckDecision::window(WindowOp::Restore)
                        } else {
                            // Partial: taken as congestion (C3), on the next hole.
                            let after = SenderView {
                                snd_una: ack.ack,
                                ..view
                            };
                            self.congestion(after, true)
                        }
                    }
                    State::Fr { .. } => {
                        self.resend = None;
                        self.state = State::Open;
                        AckDecision::window(WindowOp::ExitRecovery)
                    }
                    State::Loss { recover } => {
                        if ack.ack >= recover {
                            self.state = State::Open;
                        }
                        AckDecision::window(WindowOp::Grow)
                    }
                }
            }
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.resend = None;
        if self.cfg.sync {
            // C5 sync: a loss recovered by the timer leaves no rise behind to misread later.
            self.last_cc = self.seen_cc;
        }
        self.state = State::Loss {
            recover: view.snd_max,
        };
    }

    fn next_retransmission(
        &mut self,
        _now: SimTime,
        view: SenderView,
        _budget: u64,
    ) -> Option<Retransmit> {
        let (from, to) = self.resend?;
        let len = seg_len(from, view);
        let next = from + u64::from(len);
        self.resend = (len > 0 && next < to).then_some((next, to));
        (len > 0).then_some(Retransmit {
            off: from,
            len,
            forced: true,
        })
    }

    fn on_undo(&mut self) {
        self.resend = None;
        self.state = State::Open;
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::*;

    const MSS: u64 = 1400;

    fn cc_dup(count: u32, cc: u32) -> AckInput<'static> {
        AckInput {
            cc: Some(cc),
            ..dup(count, 0)
        }
    }

    fn eln(cfg: TcpElnConfig) -> TcpElnRecovery {
        TcpElnRecovery::new(cfg)
    }

    #[test]
    fn a_rise_on_the_first_duplicate_resends_min_k_outstanding_without_a_cut() {
        let mut r = eln(TcpElnConfig::default());
        let v = view(0, 5 * MSS); // cwnd 10 segments
        let d = r.on_ack(&cc_dup(1, 3), v);
        assert_eq!(
            (d.congestion, d.window),
            (None, WindowOp::Save { inflate: false })
        );
        // k = 3: segments 0, 1, 2, forced.
        let offs: Vec<u64> = std::iter::from_fn(|| r.next_retransmission(SimTime::ZERO, v, 0))
            .map(|x| {
                assert!(x.forced);
                x.off
            })
            .collect();
        assert_eq!(offs, [0, MSS, 2 * MSS]);
        assert!(matches!(r.phase(), Phase::Recovery { recover } if recover == 5 * MSS));
        assert_eq!(r.episodes(), 1);
        // C1 first-only resends one.
        let mut f = eln(TcpElnConfig {
            resend: ElnResend::FirstOnly,
            ..TcpElnConfig::default()
        });
        f.on_ack(&cc_dup(1, 3), v);
        assert_eq!(
            f.next_retransmission(SimTime::ZERO, v, 0).map(|x| x.off),
            Some(0)
        );
        assert_eq!(f.next_retransmission(SimTime::ZERO, v, 0), None);
    }

    #[test]
    fn eln_rec_inflates_up_to_the_expected_then_responds_from_the_stored_window() {
        let mut r = eln(TcpElnConfig::default());
        let v = view(0, 3 * MSS);
        r.on_ack(&cc_dup(1, 1), v);
        // Expected 3 duplicates after the trigger: each inflates.
        for c in 2..=4 {
            assert_eq!(r.on_ack(&cc_dup(c, 1), v).window, WindowOp::Inflate);
        }
        let d = r.on_ack(&cc_dup(5, 1), v);
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 3
            })
        );
        assert_eq!(d.window, WindowOp::Restore);
        // C2 outstanding-minus-one: one duplicate fewer.
        let mut m = eln(TcpElnConfig {
            expected: ElnExpected::OutstandingMinusOne,
            ..TcpElnConfig::default()
        });
        m.on_ack(&cc_dup(1, 1), v);
        m.on_ack(&cc_dup(2, 1), v);
        m.on_ack(&cc_dup(3, 1), v);
        assert!(m.on_ack(&cc_dup(4, 1), v).congestion.is_some());
        // C2 outstanding-minus-two: W − 2 = 1 duplicate after the trigger, the second responds.
        let mut two = eln(TcpElnConfig {
            expected: ElnExpected::OutstandingMinusTwo,
            ..TcpElnConfig::default()
        });
        two.on_ack(&cc_dup(1, 1), v);
        assert_eq!(two.on_ack(&cc_dup(2, 1), v).window, WindowOp::Inflate);
        assert!(two.on_ack(&cc_dup(3, 1), v).congestion.is_some());
        // C3 controller basis: no restore before the response.
        let mut c = eln(TcpElnConfig {
            basis: ElnBasis::Controller,
            ..TcpElnConfig::default()
        });
        c.on_ack(&cc_dup(1, 1), view(0, MSS));
        c.on_ack(&cc_dup(2, 1), view(0, MSS));
        let d = c.on_ack(&cc_dup(3, 1), view(0, MSS));
        assert_eq!((d.congestion.is_some(), d.window), (true, WindowOp::Keep));
    }

    #[test]
    fn recovery_acks_restore_or_respond_and_plain_duplicates_are_reno() {
        let v = view(0, 4 * MSS);
        let mut r = eln(TcpElnConfig::default());
        r.on_ack(&cc_dup(1, 1), v);
        let d = r.on_ack(&new_ack(4 * MSS, 4 * MSS), v);
        assert_eq!(d.window, WindowOp::Restore);
        assert_eq!(r.phase(), Phase::Open);
        let mut p = eln(TcpElnConfig::default());
        p.on_ack(&cc_dup(1, 1), v);
        let d = p.on_ack(&new_ack(2 * MSS, 2 * MSS), v);
        assert!(d.congestion.is_some(), "partial recovery ACK");
        assert_eq!(
            p.next_retransmission(SimTime::ZERO, view(2 * MSS, 4 * MSS), 0)
                .map(|x| x.off),
            Some(2 * MSS)
        );
        // No rise: Reno's third duplicate, inflation, exit.
        let mut q = eln(TcpElnConfig::default());
        assert_eq!(q.on_ack(&dup(1, 0), v).congestion, None);
        assert_eq!(q.on_ack(&dup(2, 0), v).congestion, None);
        assert!(q.on_ack(&dup(3, 0), v).congestion.is_some());
        assert_eq!(q.on_ack(&dup(4, 0), v).window, WindowOp::Inflate);
        assert_eq!(
            q.on_ack(&new_ack(4 * MSS, 4 * MSS), v).window,
            WindowOp::ExitRecovery
        );
    }

    #[test]
    fn the_counter_moves_last_cc_literally_or_in_sync() {
        let v = view(0, 4 * MSS);
        // Literal (C5): a rise seen only on a new ACK stays pending and triggers later.
        let mut lit = eln(TcpElnConfig::default());
        lit.on_ack(
            &AckInput {
                cc: Some(1),
                ..new_ack(MSS, MSS)
            },
            v,
        );
        assert_eq!(
            lit.on_ack(&cc_dup(1, 1), v).window,
            WindowOp::Save { inflate: false }
        );
        assert_eq!(lit.episodes(), 1, "the old rise is read as corruption");
        // Sync: the new ACK takes the counter along; the duplicate is plain Reno.
        let mut syn = eln(TcpElnConfig {
            sync: true,
            ..TcpElnConfig::default()
        });
        syn.on_ack(
            &AckInput {
                cc: Some(1),
                ..new_ack(MSS, MSS)
            },
            v,
        );
        syn.on_ack(&cc_dup(1, 1), v);
        assert_eq!(syn.episodes(), 0);
        // ... and on a timeout.
        let mut t = eln(TcpElnConfig {
            sync: true,
            ..TcpElnConfig::default()
        });
        t.on_ack(&cc_dup(1, 1), v);
        t.on_ack(&cc_dup(2, 2), v);
        t.on_timeout(v);
        t.on_ack(&new_ack(4 * MSS, 4 * MSS), v);
        t.on_ack(&cc_dup(1, 2), view(4 * MSS, 6 * MSS));
        assert_eq!(t.episodes(), 1);
    }

    #[test]
    fn eager_resends_the_next_segment_on_a_rise_in_recovery() {
        let v = view(0, 6 * MSS);
        let mut r = eln(TcpElnConfig {
            eager: true,
            ..TcpElnConfig::default()
        });
        r.on_ack(&cc_dup(1, 1), v);
        r.next_retransmission(SimTime::ZERO, v, 0);
        r.on_ack(&cc_dup(2, 2), v);
        assert_eq!(
            r.next_retransmission(SimTime::ZERO, v, 0).map(|x| x.off),
            Some(MSS)
        );
        // Literal ignores it.
        let mut l = eln(TcpElnConfig::default());
        l.on_ack(&cc_dup(1, 1), v);
        l.next_retransmission(SimTime::ZERO, v, 0);
        l.on_ack(&cc_dup(2, 2), v);
        assert_eq!(l.next_retransmission(SimTime::ZERO, v, 0), None);
    }
}
