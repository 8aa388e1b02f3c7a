//! Marks on an ACK that speak of the network rather than of the byte stream: TCP-Jersey's
//! congestion warning (eln-llelsn spec §4.8) goes to the congestion controller, HACK's NACK and
//! LHP's loss notification (§4.11-4.12) to the recovery part.

use super::Sender;
use crate::cc::CongestionControl as _;
use crate::recovery::LossRecovery as _;
use crate::segment::Segment;
use engine::SimTime;

impl Sender {
    /// Hand an ACK's marks to the parts; `ack` is its cumulative acknowledgment as an offset.
    /// Returns true when the ACK has been dealt with: a NACK that acknowledges nothing new is
    /// the receiver's notification, not a duplicate ACK (Balan et al., HACK), so it neither
    /// counts towards the duplicate threshold nor reaches the recovery part as an ACK.
    #[inline(never)]
    pub(super) fn on_marks(&mut self, now: SimTime, seg: &Segment, ack: u64) -> bool {
        if seg.opts.cw {
            self.parts.cc.on_congestion_warning(now);
        }
        let Some(n) = seg.opts.nack else {
            return false;
        };
        let off = self.space.offset(n, self.una);
        let view = self.view();
        self.parts.recovery.on_nack(now, off, view);
        if ack > self.una {
            return false;
        }
        self.update_window(seg.wnd);
        true
    }
}
