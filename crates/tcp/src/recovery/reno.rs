//! Reno fast retransmit and fast recovery as in 4.4BSD-Lite (Balakrishnan97 §2.1).
//!
//! Fast retransmit on the `dupthresh`-th (3rd) duplicate ACK; further duplicates inflate the
//! window; the first ACK of new data ends recovery, even a partial one (that is what NewReno
//! changes). After a timeout the sender goes back to `snd_una` (go-back-N) and the phase is
//! `Loss` until everything sent before the timeout is acknowledged.

use super::{DupAckAction, LossRecovery, NewAckAction, Phase, SenderView};
use crate::seq::SeqNum;

/// Reno recovery.
#[derive(Clone, Debug)]
pub struct RenoRecovery {
    dupthresh: u32,
    phase: Phase,
}

impl RenoRecovery {
    /// Reno with the given duplicate-ACK threshold (tcprexmtthresh, 3).
    pub fn new(dupthresh: u32) -> Self {
        RenoRecovery {
            dupthresh: dupthresh.max(1),
            phase: Phase::Open,
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

    fn on_dupack(&mut self, count: u32, view: SenderView) -> DupAckAction {
        if count == self.dupthresh {
            self.phase = Phase::Recovery {
                recover: view.snd_max,
            };
            DupAckAction::FastRetransmit
        } else if count > self.dupthresh && matches!(self.phase, Phase::Recovery { .. }) {
            DupAckAction::Inflate
        } else {
            DupAckAction::Ignore
        }
    }

    fn on_new_ack(&mut self, ack: SeqNum, _view: SenderView) -> NewAckAction {
        match self.phase {
            Phase::Recovery { .. } => {
                self.phase = Phase::Open;
                NewAckAction::ExitRecovery
            }
            Phase::Loss { recover } => {
                if ack.ge(recover) {
                    self.phase = Phase::Open;
                }
                NewAckAction::Continue
            }
            Phase::Open => NewAckAction::Continue,
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(una: u32, max: u32) -> SenderView {
        SenderView {
            snd_una: SeqNum(una),
            snd_max: SeqNum(max),
        }
    }

    #[test]
    fn third_dupack_retransmits_and_partial_ack_exits() {
        let mut r = RenoRecovery::new(3);
        assert_eq!(r.on_dupack(1, view(0, 7000)), DupAckAction::Ignore);
        assert_eq!(r.on_dupack(2, view(0, 7000)), DupAckAction::Ignore);
        assert_eq!(r.on_dupack(3, view(0, 7000)), DupAckAction::FastRetransmit);
        assert_eq!(
            r.phase(),
            Phase::Recovery {
                recover: SeqNum(7000)
            }
        );
        assert_eq!(r.on_dupack(4, view(0, 7000)), DupAckAction::Inflate);
        // A partial ACK (below recover) still ends Reno's recovery.
        assert_eq!(
            r.on_new_ack(SeqNum(1400), view(0, 7000)),
            NewAckAction::ExitRecovery
        );
        assert_eq!(r.phase(), Phase::Open);
    }

    #[test]
    fn timeout_phase_lasts_until_recover_is_acked() {
        let mut r = RenoRecovery::new(3);
        r.on_timeout(view(0, 4200));
        assert_eq!(
            r.on_new_ack(SeqNum(1400), view(0, 4200)),
            NewAckAction::Continue
        );
        assert_eq!(
            r.phase(),
            Phase::Loss {
                recover: SeqNum(4200)
            }
        );
        r.on_new_ack(SeqNum(4200), view(1400, 4200));
        assert_eq!(r.phase(), Phase::Open);
    }
}
