//! Where the sender applies F-RTO (RFC 5682, [`crate::spurious::Frto`]) when
//! [`super::SenderConfig::frto`] is set: the timeout resends only the first segment as usual;
//! the first ACK that advances `snd_una` sends up to two new segments instead of going on with
//! the go-back-N; the second decides. A spurious timeout is undone with RFC 4015's response
//! (`Frto::response`) and sending resumes after `snd_max`; a genuine one goes back to
//! `snd_una`.

use super::Sender;
use crate::recovery::Phase;
use crate::rto::RtoEstimator as _;
use crate::spurious::FrtoAction;
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

impl Sender {
    /// RFC 5682 step 1, before the timeout's own reductions (`flight`, `ssthresh` as they were).
    pub(super) fn frto_on_timeout(&mut self, flight: u32, ssthresh: u32) {
        let open = self.phase() == Phase::Open;
        let (una, max, mss) = (self.una, self.max, u64::from(self.cfg.mss));
        if let Some(f) = self.frto.as_mut() {
            f.on_timeout(open, una, max, (max - una).min(mss), flight, ssthresh);
        }
        self.frto_new = 0;
    }

    /// Steps 2 and 3 on an ACK (after the sender processed it): `dup` for a duplicate,
    /// `acked` the advance of `snd_una`.
    pub(super) fn frto_on_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        dup: bool,
        acked: u64,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        let end = self
            .written
            .min(self.una + u64::from(self.cfg.send_buffer))
            .min(self.una + u64::from(self.peer_window));
        let new_data = self.max < end;
        let (flight, mss) = (self.flight(), self.cfg.mss);
        let Some(f) = self.frto.as_mut() else {
            return;
        };
        match f.on_ack(ack, dup, acked > 0, new_data) {
            FrtoAction::None => {}
            FrtoAction::SendNew => {
                // Step 2b: no go-back-N; two new segments whatever the window.
                self.nxt = self.max;
                self.frto_new = 2;
            }
            FrtoAction::Conventional => {
                // Steps 2a and 3a: retransmit what is unacknowledged, in slow start.
                self.nxt = self.una;
                self.frto_new = 0;
            }
            FrtoAction::Spurious => {
                let u = f.response(flight, acked as u32, mss);
                self.frto_new = 0;
                self.restore_window(u.cwnd, u.ssthresh);
                self.stats.spurious_timeouts += 1;
                self.parts.rto.on_spurious_timeout();
                if trace.enabled() {
                    trace.record(now, SenderEvent::SpuriousUndo { ack: self.una });
                }
            }
        }
    }
}
