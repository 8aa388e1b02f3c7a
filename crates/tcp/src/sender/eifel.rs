//! Where the sender applies the Eifel algorithm (crate::spurious, Ludwig2000 §3.1): the
//! undo after a spurious retransmission, with the optional burst pacer, and the late third
//! duplicate ACK after a timeout (Q3).

use super::{Pacer, Sender};
use crate::cc::CongestionControl as _;
use crate::recovery::LossRecovery as _;
use crate::rto::RtoEstimator as _;
use crate::segment::Segment;
use crate::spurious::{Eifel, RetransmitCause};
use crate::trace::SenderEvent;
use engine::{SimDuration, SimTime, TraceSink};

impl Sender {
    /// Ludwig2000 §3.1.2 (spec §3.1.4): the first ACK covering the retransmission of this
    /// episode tells Eifel whether it was spurious; if so, restore the saved window (and, with
    /// [`super::SenderConfig::burst_pacer`], spread the burst the restore releases over one
    /// smoothed RTT) and resume with the next unsent segment.
    pub(super) fn eifel_on_new_ack(
        &mut self,
        now: SimTime,
        seg: &Segment,
        acked: u64,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        if let Some(eifel) = self.parts.eifel.as_mut() {
            let undo = eifel.on_new_ack(
                seg.opts.ts.map(|t| t.ecr),
                self.parts.cc.ssthresh(),
                (self.max - self.una) as u32,
                acked as u32,
                self.cfg.mss,
            );
            if let Some(u) = undo {
                self.restore_window(u.cwnd, u.ssthresh);
                if self.cfg.burst_pacer {
                    let usable = self.parts.cc.cwnd().min(self.peer_window);
                    let burst = usable.saturating_sub(self.flight()) / self.cfg.mss;
                    let srtt = SimDuration(self.srtt_fine.unwrap_or(0));
                    self.pacer = Pacer::over(now, srtt, burst, self.cfg.mss);
                }
                match u.cause {
                    RetransmitCause::Timeout => {
                        self.stats.spurious_timeouts += 1;
                        self.parts.rto.on_spurious_timeout();
                    }
                    RetransmitCause::FastRetransmit => self.stats.spurious_fast_retransmits += 1,
                }
                if trace.enabled() {
                    trace.record(now, SenderEvent::SpuriousUndo { ack: self.una });
                }
            }
        }
    }

    /// Ludwig2000 §3.1.2 "Late 3rd DUPACK after a timeout" (§5.4.5; spec §9 Q3): the
    /// recovery part has just asked for a fast retransmit of the oldest outstanding segment on
    /// a duplicate ACK. If a timeout of this episode already retransmitted that segment, Eifel
    /// suppresses it: no retransmission and no second reduction; the window becomes the one
    /// the `LateDupack` policy gives (Q3 (a) halve: ssthresh from the saved pre-timeout window,
    /// cwnd = ssthresh; (b) restore: the saved cwnd and ssthresh; off: plain BSD, the fast
    /// retransmit goes ahead). Duplicates count from the timeout, as BSD's `t_dupacks` does.
    /// "As if the timeout had not occurred" also undoes its go-back-N ([P], as the Eifel
    /// response does in all cases, §3.1.2): the duplicates show that later segments arrived,
    /// so sending resumes with the next unsent segment. Returns whether it suppressed.
    pub(super) fn suppress_late_fast_retransmit(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> bool {
        let Some(w) = self
            .parts
            .eifel
            .as_ref()
            .and_then(Eifel::suppress_fast_retransmit)
        else {
            return false;
        };
        // Take back the fast recovery the part entered and its pending retransmission.
        self.restore_window(w.cwnd, w.ssthresh);
        self.stats.suppressed_fast_retransmits += 1;
        if trace.enabled() {
            trace.record(now, SenderEvent::SuppressedFastRetransmit { seq: self.una });
        }
        true
    }

    /// Set the window Eifel decided on, take back the recovery part's episode (`on_undo`) and
    /// resume with the next unsent segment: no go-back-N (Ludwig2000 §3.1.2).
    pub(super) fn restore_window(&mut self, cwnd: u32, ssthresh: u32) {
        self.parts.cc.undo(cwnd, ssthresh);
        self.parts.recovery.on_undo();
        self.prr = None;
        self.nxt = self.max;
    }
}
