//! The flow-adaptive part of the GSM RLP medium (Ludwig2000 §4.1, spec §3.7, §7.1 item 9): per
//! class persistency, delivery across flows out of order, and scheduling priority at the RLP
//! sender. The classes and their policies are `FlowAdaptive`'s (crate::medium::gsm::types).
//!
//! Deliberate limit: the interface queue in front of the link stays one FIFO (the network's
//! drop-tail queue), so a class scheduled first overtakes other classes' retransmissions and
//! the one frame RLP holds ready, not the packets queued before it at the interface.

use super::{FramingAir, Gsm, OnAir, Queued};
use engine::SimTime;

/// What becomes of an erased frame under the flow-adaptive link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Send it again.
    Resend,
    /// Its real-time packets are given up (discarded at the far end); no retransmission.
    GiveUp,
    /// A fully-reliable class's persistency is spent: the link resets.
    Reset,
}

impl Gsm {
    /// The packets with bytes in `[start, end)` of the stream.
    fn touching(&self, start: u64, end: u64) -> impl Iterator<Item = &Queued> {
        self.queued
            .iter()
            .filter(move |q| q.start < end && start < q.end)
    }

    /// The best (lowest) scheduling priority among the classes with bytes in `[start, end)`.
    fn best_priority(&self, start: u64, end: u64) -> Option<u8> {
        let a = self.cfg.adaptive.as_ref()?;
        self.touching(start, end)
            .map(|q| a.policy(q.class).priority)
            .min()
    }

    /// §4.1.2: the erased frame `f` is sent again while a retransmission would still come
    /// within the persistency of a class among its bytes. A frame of only real-time bytes past
    /// their bound is given up (its packets marked failed), with no reset; once the longest
    /// persistency of its fully-reliable classes is spent, the link resets.
    pub(super) fn adaptive_verdict(&mut self, f: &OnAir) -> Verdict {
        let Some(a) = self.cfg.adaptive.as_ref() else {
            return Verdict::Resend;
        };
        let age = (f.sent + self.cfg.rlp_rtt).saturating_since(f.first);
        let reliable = self
            .touching(f.start, f.end)
            .filter(|q| q.class != super::ServiceClass::RealTime)
            .map(|q| a.policy(q.class).persistency)
            .max();
        match reliable {
            Some(p) if age > p => Verdict::Reset,
            Some(_) => Verdict::Resend,
            None if age <= a.policy(super::ServiceClass::RealTime).persistency => Verdict::Resend,
            None => {
                let (s, e) = (f.start, f.end);
                for q in self.queued.iter_mut().filter(|q| q.start < e && s < q.end) {
                    self.stats.realtime_dropped += u64::from(!q.failed);
                    q.failed = true;
                }
                Verdict::GiveUp
            }
        }
    }

    /// Whether the next new frame goes before the due retransmission `lost[i]`: it carries
    /// bytes of a class scheduled before every class of the retransmission's bytes (and L2R
    /// lets new data go).
    pub(super) fn new_frame_first<A: FramingAir>(
        &mut self,
        now: SimTime,
        i: usize,
        air: &mut A,
    ) -> bool {
        if self.cfg.adaptive.is_none() || self.l2r.as_mut().is_some_and(|l| !l.xon(now)) {
            return false;
        }
        self.fill(now, air);
        if self.stream_end == self.next_new {
            return false;
        }
        let end = self.stream_end.min(self.next_new + self.payload());
        let (old_s, old_e) = (self.lost[i].start, self.lost[i].end);
        match (
            self.best_priority(self.next_new, end),
            self.best_priority(old_s, old_e),
        ) {
            (Some(new), Some(old)) => new < old,
            _ => false,
        }
    }

    /// Flow-adaptive (§4.1): a packet whose bytes have all arrived leaves although an earlier
    /// packet of another flow still waits for a retransmission, unless its class asks for
    /// in-order delivery; each flow's packets stay in order (so VJ, which does not resequence,
    /// is not upset: §4.1.2).
    pub(super) fn deliver_across_flows<A: FramingAir>(&mut self, now: SimTime, air: &mut A) {
        let Some(policies) = self.cfg.adaptive.as_ref().map(|a| a.policies) else {
            return;
        };
        let mut i = 1;
        while i < self.queued.len() {
            let q = &self.queued[i];
            let (s, e, flow) = (q.start, q.end, (q.flow, q.tcp));
            let missing = self.lost.iter().any(|l| l.start < e && s < l.end)
                || self.on_air.is_some_and(|o| o.start < e && s < o.end);
            let behind = self.queued.iter().take(i).any(|p| (p.flow, p.tcp) == flow);
            if e > self.next_new || missing || behind || policies[q.class.index()].in_order {
                i += 1;
                continue;
            }
            if let Some(q) = self.queued.remove(i) {
                self.stats.out_of_order += 1;
                self.hand(now, q, air);
            }
        }
    }
}
