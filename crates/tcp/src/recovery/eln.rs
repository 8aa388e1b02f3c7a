//! Explicit Loss Notification at the sender (Balakrishnan97 §2.6-2.7), as a layer over any
//! other recovery part.
//!
//! Duplicate ACKs that carry the ELN mark say the segment at the cumulative ACK was lost to
//! corruption, not congestion. This layer passes every ACK to the inner part (so its scoreboard
//! and phase stay current) and then:
//! - strips the congestion response the inner part asks for on an ELN-marked duplicate, and the
//!   window inflation and deflation of the recovery episode that follows ("retransmissions
//!   without invoking the associated congestion-control procedures", §2.6): cwnd and ssthresh
//!   stay as they were;
//! - with a threshold below the inner one (E2E-ELN-RXMT: 1, §2.7), resends the marked segment on
//!   that duplicate itself;
//! - resends a given segment for ELN at most once per round trip (§2.7, [INFERRED] default), so
//!   the inner part's fast retransmit on the 3rd duplicate does not repeat the ELN one.
//!
//! Timeouts are left alone: the paper's ELN carries only cumulative information, so several
//! wireless losses in one window still end in a coarse timeout (§2.6, "timeouts sometimes occur").

use super::take_forced;
use super::{
    AckDecision, AckInput, AckKind, LossRecovery, Phase, Retransmit, SenderView, WindowOp,
};
use engine::{SimDuration, SimTime};

/// ELN over an inner recovery part.
pub struct ElnRecovery {
    inner: Box<dyn LossRecovery>,
    dupthresh: u32,
    /// The current recovery episode was started by an ELN-marked loss.
    eln_episode: bool,
    pending: Option<u64>,
    /// The last segment resent for ELN and when.
    last: Option<(u64, SimTime)>,
    srtt: SimDuration,
}

impl ElnRecovery {
    /// ELN with the given ELN duplicate-ACK threshold (3: E2E-ELN; 1: E2E-ELN-RXMT).
    pub fn new(inner: Box<dyn LossRecovery>, dupthresh: u32) -> Self {
        ElnRecovery {
            inner,
            dupthresh: dupthresh.max(1),
            eln_episode: false,
            pending: None,
            last: None,
            srtt: SimDuration::ZERO,
        }
    }

    fn recently_resent(&self, off: u64, now: SimTime) -> bool {
        matches!(self.last, Some((o, t)) if o == off && now < t + self.srtt)
    }
}

impl LossRecovery for ElnRecovery {
    fn name(&self) -> &'static str {
        "eln"
    }

    fn phase(&self) -> Phase {
        self.inner.phase()
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        self.srtt = ack.srtt;
        let mut d = self.inner.on_ack(ack, view);
        if let AckKind::Dup { count } = ack.kind {
            if ack.eln {
                if d.congestion.take().is_some() {
                    self.eln_episode = true;
                }
                if count == self.dupthresh && !self.recently_resent(view.snd_una, ack.now) {
                    self.pending = Some(view.snd_una);
                }
            }
        }
        if self.eln_episode {
            d.window = match d.window {
                WindowOp::ExitRecovery | WindowOp::Grow => WindowOp::Grow,
                WindowOp::Keep
                | WindowOp::Inflate
                | WindowOp::DeflateToSsthresh
                | WindowOp::PartialDeflate { .. }
                | WindowOp::Save { .. }
                | WindowOp::Restore => WindowOp::Keep,
            };
            if !matches!(self.inner.phase(), Phase::Recovery { .. }) {
                self.eln_episode = false;
            }
        }
        if matches!(ack.kind, AckKind::New { .. }) {
            self.pending = None;
        }
        d
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.eln_episode = false;
        self.pending = None;
        self.inner.on_timeout(view);
    }

    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        if let Some(r) = take_forced(&mut self.pending, view) {
            self.last = Some((r.off, now));
            return Some(r);
        }
        loop {
            let r = self.inner.next_retransmission(now, view, budget)?;
            if self.eln_episode && self.recently_resent(r.off, now) {
                continue;
            }
            if self.eln_episode {
                self.last = Some((r.off, now));
            }
            return Some(r);
        }
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        self.inner.pipe(view)
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.inner.is_sacked(off)
    }

    fn on_undo(&mut self) {
        self.eln_episode = false;
        self.pending = None;
        self.inner.on_undo();
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::super::RenoRecovery;
    use super::*;

    fn eln(count: u32) -> AckInput<'static> {
        AckInput {
            eln: true,
            ..dup(count, 0)
        }
    }

    #[test]
    fn eln_third_dupack_resends_without_congestion_response() {
        let mut r = ElnRecovery::new(Box::new(RenoRecovery::new(3)), 3);
        let v = view(0, 7000);
        for c in 1..=2 {
            assert_eq!(r.on_ack(&eln(c), v).congestion, None);
        }
        let d = r.on_ack(&eln(3), v);
        assert_eq!(d.congestion, None);
        let rx = r.next_retransmission(SimTime::ZERO, v, 0).unwrap();
        assert_eq!((rx.off, rx.forced), (0, true));
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 0), None);
        assert_eq!(r.on_ack(&eln(4), v).window, WindowOp::Keep, "no inflation");
        assert_eq!(
            r.on_ack(&new_ack(7000, 7000), v).window,
            WindowOp::Grow,
            "no deflation"
        );
    }

    #[test]
    fn eln_rxmt_resends_on_first_and_not_again_on_third() {
        let mut r = ElnRecovery::new(Box::new(RenoRecovery::new(3)), 1);
        let v = view(0, 7000);
        r.on_ack(&eln(1), v);
        assert_eq!(
            r.next_retransmission(SimTime::ZERO, v, 0).map(|x| x.off),
            Some(0)
        );
        r.on_ack(&eln(2), v);
        let d = r.on_ack(&eln(3), v);
        assert_eq!(d.congestion, None);
        assert_eq!(
            r.next_retransmission(SimTime::ZERO, v, 0),
            None,
            "once per RTT"
        );
    }

    #[test]
    fn unmarked_dupacks_still_halve() {
        let mut r = ElnRecovery::new(Box::new(RenoRecovery::new(3)), 1);
        let v = view(0, 7000);
        for c in 1..=2 {
            r.on_ack(&dup(c, 0), v);
        }
        assert!(r.on_ack(&dup(3, 0), v).congestion.is_some());
        assert_eq!(r.on_ack(&dup(4, 0), v).window, WindowOp::Inflate);
    }
}
