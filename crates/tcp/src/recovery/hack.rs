//! HACK, HACK-fixed and LHP's packet list (eln-llelsn spec §4.11-4.12), as a layer over another
//! recovery part: the sender acts on the receiver's notifications naming a segment that arrived
//! with an intact header and a corrupted payload.
//!
//! - TCP HACK (Balan et al., IEEE INFOCOM 2001; spec §4.12 (b)): the notified segment is resent
//!   at once, without a congestion response; the duplicate ACKs the later segments produce
//!   still count towards the inner part's threshold (the weakness 004 describes: "congestion
//!   control can be invoked by following duplicate ACKs").
//! - HACK-fixed (spec §4.12 (c) [PROPOSAL], 004 does not define it): duplicates whose
//!   cumulative ACK is a notified hole are the notified loss's echo and are not passed to the
//!   inner part at all, so they neither count towards its threshold nor inflate the window.
//! - LHP's packet list (Gao, Diggavi, Muthukrishnan, ICC 2003; spec §4.11 (c) [PROPOSAL]): the
//!   notified segments form the list, resent at once and kept out of the duplicate count, which
//!   is HACK-fixed's rule; the scheme puts it over Reno, whose recovery has no `recover` guard,
//!   so losses not on the list run one fast recovery each (004's "multiple fast recoveries").
//!
//! The notifications ride ACKs (the receiver sends one per corrupted arrival), so a lost ACK
//! loses one. A hole stays notified until the cumulative ACK passes it.
//!
//! Whether a notified hole's duplicates still clock out new data is a reading the source leaves
//! open (spec §4.11 (c) says only "retransmits listed segments immediately and excludes them
//! from the dupack count"), so it is a setting, [`ListDupacks`]: `Frozen` (the default) keeps
//! the window, and the sender sends nothing beyond snd_una + cwnd until the resend is
//! acknowledged; `Clocking` takes each such duplicate as a segment that left the network and
//! lets one new segment out for it, without a congestion response (RFC 3042 §2's idea of
//! sending on duplicates; RFC 5681 §3.2 step 4's inflation by one segment per duplicate),
//! still without counting it towards the inner part's threshold.
//!
//! With LL-ELSN as the detector (the study's Fig. 14, spec §5.4.2: "LL-ELSN with HACK,
//! HACK-fixed, LHP"), [`HackRecovery::with_notices`] makes the link layer's ELN a notification
//! like the receiver's NACK: the same segment list, the same rules.

use super::{seg_len, AckDecision, AckInput, AckKind, LossRecovery, Phase, Retransmit};
use super::{SenderView, WindowOp};
use crate::notice::ElnVerdict;
use engine::SimTime;

/// Which duplicates reach the inner part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HackMode {
    /// All of them (TCP HACK).
    Plain,
    /// None whose cumulative ACK is a notified hole (HACK-fixed, LHP's packet list).
    Fixed,
}

/// Whether the duplicates kept out of the count (whose cumulative ACK is a notified hole) let
/// new data out (`tcp.lhp_list_dupacks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ListDupacks {
    /// They keep the window: nothing new goes until the resend is acknowledged.
    #[default]
    Frozen,
    /// Each lets one new segment out: the flight the sender counts is less one segment per such
    /// duplicate since the last ACK of new data (RFC 3042 §2, RFC 5681 §3.2 step 4), which is
    /// the window inflated by one segment per duplicate and deflated when the cumulative ACK
    /// moves.
    Clocking,
}

/// The notification layer over an inner recovery part.
pub struct HackRecovery {
    inner: Box<dyn LossRecovery>,
    mode: HackMode,
    name: &'static str,
    /// Notified segments to resend, oldest first.
    pending: Vec<u64>,
    /// Notified holes not yet cumulatively acknowledged.
    holes: Vec<u64>,
    /// Whether LL-ELSN's ELNs notify too (and an ERSN restarts the timer).
    notices: bool,
    /// What the duplicates kept out of the count do to the sending.
    list_dupacks: ListDupacks,
    /// Duplicates kept out of the count since the last ACK of new data (`Clocking` only).
    released: u64,
}

impl HackRecovery {
    /// The layer over `inner`; `name` names the scheme's sender in traces.
    pub fn new(inner: Box<dyn LossRecovery>, mode: HackMode, name: &'static str) -> Self {
        HackRecovery {
            inner,
            mode,
            name,
            pending: Vec::new(),
            holes: Vec::new(),
            notices: false,
            list_dupacks: ListDupacks::Frozen,
            released: 0,
        }
    }

    /// Let the duplicates kept out of the count clock out new data, or not.
    pub fn with_list_dupacks(mut self, rule: ListDupacks) -> Self {
        self.list_dupacks = rule;
        self
    }

    /// Take LL-ELSN's notifications as well (an ELN is handled as a NACK).
    pub fn with_notices(mut self, on: bool) -> Self {
        self.notices = on;
        self
    }

    /// Put the segment at `off` on the list; false if it is not outstanding.
    fn notify(&mut self, off: u64, view: SenderView) -> bool {
        if off < view.snd_una || off >= view.snd_max {
            return false;
        }
        if !self.pending.contains(&off) {
            self.pending.push(off);
        }
        if !self.holes.contains(&off) {
            self.holes.push(off);
        }
        true
    }
}

impl LossRecovery for HackRecovery {
    fn name(&self) -> &'static str {
        self.name
    }

    fn phase(&self) -> Phase {
        self.inner.phase()
    }

    fn on_nack(&mut self, _now: SimTime, off: u64, view: SenderView) {
        self.notify(off, view);
    }

    fn on_eln(&mut self, _now: SimTime, off: u64, view: SenderView) -> ElnVerdict {
        if !self.notices {
            ElnVerdict::Unheeded
        } else if self.notify(off, view) {
            ElnVerdict::Resend
        } else {
            ElnVerdict::Stale
        }
    }

    fn heeds_notices(&self) -> bool {
        self.notices
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        match ack.kind {
            AckKind::Dup { .. }
                if self.mode == HackMode::Fixed && self.holes.contains(&ack.ack) =>
            {
                if self.list_dupacks == ListDupacks::Clocking {
                    // A segment above the hole left the network (RFC 3042 §2).
                    self.released += 1;
                }
                AckDecision::window(WindowOp::Keep)
            }
            AckKind::Dup { .. } => self.inner.on_ack(ack, view),
            AckKind::New { .. } => {
                // The cumulative ACK moved: the inflation is over (RFC 5681 §3.2 step 6).
                self.released = 0;
                self.holes.retain(|&h| h >= ack.ack);
                self.pending.retain(|&p| p >= ack.ack);
                self.inner.on_ack(ack, view)
            }
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        // Go-back-N resends everything from snd_una anyway.
        self.pending.clear();
        self.released = 0;
        self.inner.on_timeout(view);
    }

    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        while !self.pending.is_empty() {
            let off = self.pending.remove(0);
            let len = seg_len(off, view);
            if off >= view.snd_una && len > 0 {
                return Some(Retransmit {
                    off,
                    len,
                    forced: true,
                });
            }
        }
        self.inner.next_retransmission(now, view, budget)
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        if self.released == 0 {
            return self.inner.pipe(view);
        }
        // `Clocking`: the sender sends while pipe < window, so each released duplicate opens
        // one segment beyond snd_una + cwnd. This replaces limited transmit's allowance while
        // it lasts (RFC 3042 §2: one segment per duplicate, two at most), which is no larger
        // unless the hole was named after its first duplicates.
        let flight = self.inner.pipe(view).unwrap_or(view.snd_nxt - view.snd_una);
        Some(flight.saturating_sub(self.released * u64::from(view.mss)))
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.inner.is_sacked(off)
    }

    fn on_undo(&mut self) {
        self.inner.on_undo();
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::super::RenoRecovery;
    use super::*;

    fn layer(mode: HackMode) -> HackRecovery {
        HackRecovery::new(Box::new(RenoRecovery::new(3)), mode, "hack")
    }

    #[test]
    fn a_notified_segment_is_resent_at_once_without_a_response() {
        let mut r = layer(HackMode::Plain);
        let v = view(0, 10_000);
        r.on_nack(SimTime::ZERO, 2000, v);
        let rx = r.next_retransmission(SimTime::ZERO, v, 0).unwrap();
        assert_eq!((rx.off, rx.forced), (2000, true));
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 0), None);
        assert_eq!(r.phase(), Phase::Open);
        // Outside the window: ignored.
        r.on_nack(SimTime::ZERO, 20_000, v);
        assert_eq!(r.next_retransmission(SimTime::ZERO, v, 0), None);
    }

    #[test]
    fn plain_hack_counts_the_holes_duplicates_fixed_does_not() {
        let v = view(2000, 10_000);
        let mut plain = layer(HackMode::Plain);
        plain.on_nack(SimTime::ZERO, 2000, v);
        plain.next_retransmission(SimTime::ZERO, v, 0);
        plain.on_ack(&dup(1, 2000), v);
        plain.on_ack(&dup(2, 2000), v);
        let d = plain.on_ack(&dup(3, 2000), v);
        assert!(d.congestion.is_some(), "HACK: the third duplicate halves");
        let mut fixed = layer(HackMode::Fixed);
        fixed.on_nack(SimTime::ZERO, 2000, v);
        fixed.next_retransmission(SimTime::ZERO, v, 0);
        for c in 1..=5 {
            let d = fixed.on_ack(&dup(c, 2000), v);
            assert_eq!((d.congestion, d.window), (None, WindowOp::Keep));
        }
        assert_eq!(fixed.phase(), Phase::Open);
        // The repair is acknowledged; duplicates at a hole nobody notified count again.
        fixed.on_ack(&new_ack(6000, 4000), view(6000, 10_000));
        let v = view(6000, 10_000);
        fixed.on_ack(&dup(1, 6000), v);
        fixed.on_ack(&dup(2, 6000), v);
        assert!(fixed.on_ack(&dup(3, 6000), v).congestion.is_some());
    }

    #[test]
    fn with_notices_an_eln_is_a_nack_and_without_it_is_unheeded() {
        let v = view(2000, 10_000);
        let mut plain = layer(HackMode::Fixed);
        assert!(!plain.heeds_notices());
        assert_eq!(plain.on_eln(SimTime::ZERO, 4000, v), ElnVerdict::Unheeded);
        assert_eq!(plain.next_retransmission(SimTime::ZERO, v, 0), None);
        let mut lhp = layer(HackMode::Fixed).with_notices(true);
        assert!(lhp.heeds_notices());
        assert_eq!(lhp.on_eln(SimTime::ZERO, 4000, v), ElnVerdict::Resend);
        assert_eq!(lhp.on_eln(SimTime::ZERO, 1000, v), ElnVerdict::Stale);
        let rx = lhp.next_retransmission(SimTime::ZERO, v, 0).unwrap();
        assert_eq!((rx.off, rx.forced), (4000, true));
        // The ELN'd hole's duplicates are kept out of the count, as a NACKed one's.
        let v = view(4000, 10_000);
        lhp.on_ack(&new_ack(4000, 2000), v);
        for c in 1..=4 {
            let d = lhp.on_ack(&dup(c, 4000), v);
            assert_eq!((d.congestion, d.window), (None, WindowOp::Keep));
        }
    }

    #[test]
    fn clocking_lets_one_segment_out_per_listed_duplicate_frozen_none() {
        // view(): 1400-byte segments; the hole at 2800 is snd_una, 14 000 bytes in flight.
        let v = view(2800, 16_800);
        let mss = 1400;
        let mut frozen = layer(HackMode::Fixed).with_notices(true);
        let mut clocking = layer(HackMode::Fixed)
            .with_notices(true)
            .with_list_dupacks(ListDupacks::Clocking);
        for r in [&mut frozen, &mut clocking] {
            assert_eq!(r.on_eln(SimTime::ZERO, 2800, v), ElnVerdict::Resend);
            r.next_retransmission(SimTime::ZERO, v, 0);
            assert_eq!(
                r.pipe(v),
                None,
                "no duplicate yet: the sender counts its flight"
            );
        }
        for c in 1..=5 {
            for r in [&mut frozen, &mut clocking] {
                let d = r.on_ack(&dup(c, 2800), v);
                assert_eq!((d.congestion, d.window), (None, WindowOp::Keep));
                assert_eq!(
                    r.phase(),
                    Phase::Open,
                    "neither counts towards the threshold"
                );
            }
            assert_eq!(frozen.pipe(v), None);
            assert_eq!(clocking.pipe(v), Some(14_000 - u64::from(c) * mss));
        }
        // The resend is acknowledged: the flight counts in full again.
        let v = view(16_800, 16_800);
        clocking.on_ack(&new_ack(16_800, 14_000), v);
        assert_eq!(clocking.pipe(v), None);
        // Duplicates at a hole nobody notified go to the inner part and release nothing.
        let v = view(16_800, 22_400);
        clocking.on_ack(&dup(1, 16_800), v);
        clocking.on_ack(&dup(2, 16_800), v);
        assert!(clocking.on_ack(&dup(3, 16_800), v).congestion.is_some());
        assert_eq!(clocking.pipe(v), None);
    }
}
