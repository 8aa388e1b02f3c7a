//! LL-ELSN's notifications at the sender (eln-llelsn spec §4.1-4.3): an ELN goes to the loss-
//! recovery part (ESACK resends the segment without a window cut; other parts leave it unheeded),
//! an ERSN restarts the retransmission timer while the named segment is outstanding
//! (`ersn_action = restart_rto`, the spec's default in §4.2 (c)); with `tcp.ersn_restart =
//! "oldest"` only while it is the oldest outstanding one, the segment the timer guards (the
//! other reading: otherwise a stream of ERSNs for later segments can hold the timer off for
//! ever, docs/llelsn.md).

use super::Sender;
use crate::notice::{ElnVerdict, LinkNotice, NoticeKind};
use crate::recovery::LossRecovery as _;
use crate::rto::RtoEstimator as _;
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

impl Sender {
    /// A link-status notification about one of this sender's segments arrived at `now`.
    pub fn on_link_notice(
        &mut self,
        now: SimTime,
        notice: LinkNotice,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        let off = self.space.offset(notice.seq, self.una);
        match notice.kind {
            NoticeKind::Eln => {
                self.stats.elns_received += 1;
                let view = self.view();
                match self.parts.recovery.on_eln(now, off, view) {
                    ElnVerdict::Filtered => self.stats.elns_filtered += 1,
                    ElnVerdict::Resend | ElnVerdict::Stale | ElnVerdict::Unheeded => {}
                }
            }
            NoticeKind::Ersn => {
                self.stats.ersns_received += 1;
                // §4.2 (c): "On ERSN for a segment that is currently outstanding, the sender
                // restarts its RTO timer."
                if self.parts.recovery.heeds_notices()
                    && off >= self.una
                    && off < self.max
                    && (!self.cfg.ersn_oldest_only || off == self.una)
                    && self.rexmt_at.is_some()
                {
                    self.rexmt_at = Some(self.parts.rto.deadline(now));
                    self.stats.ersn_timer_restarts += 1;
                }
            }
        }
        self.sample_window(now, trace);
    }
}
