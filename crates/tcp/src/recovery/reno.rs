//! Reno fast retransmit and fast recovery as in 4.4BSD-Lite (Balakrishnan97 §2.1).
//!
//! Fast retransmit on the `dupthresh`-th (3rd) duplicate ACK; further duplicates inflate the
//! window; the first ACK of new data ends recovery, even a partial one (that is what NewReno
//! changes). After a timeout the sender goes back to `snd_una` (go-back-N) and the phase is
//! `Loss` until everything sent before the timeout is acknowledged.

use super::{
    take_forced, AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit,
    SenderView, WindowOp,
};
use engine::SimTime;

/// Reno recovery.
#[derive(Clone, Debug)]
pub struct RenoRecovery {
    dupthresh: u32,
    phase: Phase,
    /// The fast retransmission waiting to go out.
    pending: Option<u64>,
}

impl RenoRecovery {
    /// Reno with the given duplicate-ACK threshold (tcprexmtthresh, 3).
    pub fn new(dupthresh: u32) -> Self {
        RenoRecovery {
            dupthresh: dupthresh.max(1),
            phase: Phase::Open,
            pending: None,
        }
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
        match ack.kind {
            AckKind::Dup { count } if count == self.dupthresh => {
                self.phase = Phase::Recovery {
                    recover: view.snd_max,
                };
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
                match self.phase {
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
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
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
