//! NewReno: stay in fast recovery on a partial ACK and resend the next hole, one per round trip.
//!
//! Two flavours:
//! - [`NewRenoFlavor::Paper`] (Balakrishnan97 §2.3): `recover = snd_max` at the fast retransmit;
//!   every partial ACK (below `recover`) resends the first unacknowledged segment at once and
//!   sets cwnd to ssthresh; duplicates keep inflating the window as in Reno; the ACK covering
//!   `recover` ends recovery as Reno's new ACK does (deflate, then grow). After a timeout it
//!   behaves as Reno does.
//!   Duplicates are counted afresh after a partial ACK (the sender's count restarts on every new
//!   ACK, as Net/3's `t_dupacks` does), so the first `dupthresh` duplicates after a partial ACK
//!   neither inflate nor start another fast retransmit: the paper says nothing of duplicates
//!   after a partial ACK, and this is what NewReno grafted onto Net/3's counter does.
//! - [`NewRenoFlavor::Rfc6582`]: partial ACKs deflate by the bytes acknowledged and add back one
//!   segment (§3.2 step 5); every duplicate ACK during fast recovery inflates cwnd by one segment
//!   (§3.2 step 4), also the first ones after a partial ACK; a full ACK sets cwnd to ssthresh
//!   (§3.2 step 6, option 2); after a timeout no fast retransmit starts until `recover` is
//!   covered (§4.1, the careful variant).
//! - [`NewRenoFlavor::Ns2`]: ns-2.35's `Agent/TCP/Newreno` as `tcl/lib/ns-default.tcl` sets it
//!   up (`partial_window_deflation_ 1`, `newreno_changes1_ 1`, :1099-1100): the window as
//!   [`NewRenoFlavor::Rfc6582`] (`tcp/tcp-newreno.cc:61-89`: partial deflation, `dupwnd_`
//!   inflation; `bug_fix_` the careful variant after a timeout), but only the first partial ACK
//!   of a recovery restarts the retransmission timer (`partialnewack_helper`,
//!   `tcp/tcp-newreno.cc:91-104`: "only reset the retransmit timer for the first partial ACK,
//!   so that, in the worst case, we don't have to wait for one packet retransmitted per RTT";
//!   `firstpartial_` is cleared when recovery ends, :241). The later ones leave it running
//!   ([`LossRecovery::keeps_timer`]), so a recovery with many holes ends in a timeout one RTO
//!   after the first partial ACK instead of repairing one hole per round trip.

use super::{
    take_forced, AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit,
    SenderView, WindowOp,
};
use engine::SimTime;

/// Which NewReno.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewRenoFlavor {
    /// As the paper describes it.
    Paper,
    /// RFC 6582.
    Rfc6582,
    /// ns-2.35's `Newreno` (RFC 6582's window; the timer restarted on the first partial ACK of
    /// a recovery only).
    Ns2,
}

/// NewReno recovery.
#[derive(Clone, Debug)]
pub struct NewRenoRecovery {
    flavor: NewRenoFlavor,
    dupthresh: u32,
    phase: Phase,
    pending: Option<u64>,
    /// A partial ACK of this recovery has been seen (ns-2's `firstpartial_`).
    partial_seen: bool,
    /// The last ACK leaves the retransmission timer as it was (a later partial ACK, `Ns2`).
    keep_timer: bool,
}

impl NewRenoRecovery {
    /// Whether a duplicate with this count inflates cwnd in fast recovery.
    fn inflates(&self, count: u32) -> bool {
        // RFC 6582 §3.2 step 4: every duplicate in fast recovery (the sender's count restarts
        // after a partial ACK); the paper flavour: only past dupthresh of its own count.
        count > self.dupthresh || self.flavor != NewRenoFlavor::Paper
    }
}

impl NewRenoRecovery {
    /// NewReno with the given flavour and duplicate-ACK threshold.
    pub fn new(flavor: NewRenoFlavor, dupthresh: u32) -> Self {
        NewRenoRecovery {
            flavor,
            dupthresh: dupthresh.max(1),
            phase: Phase::Open,
            pending: None,
            partial_seen: false,
            keep_timer: false,
        }
    }

    /// Whether a fast retransmission waits to go out (`next_retransmission` would return it).
    #[inline(always)]
    pub(crate) fn has_forced(&self) -> bool {
        self.pending.is_some()
    }
}

impl LossRecovery for NewRenoRecovery {
    fn name(&self) -> &'static str {
        match self.flavor {
            NewRenoFlavor::Paper => "newreno",
            NewRenoFlavor::Rfc6582 => "newreno-rfc6582",
            NewRenoFlavor::Ns2 => "newreno-ns2",
        }
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        self.keep_timer = false;
        match (ack.kind, self.phase) {
            (AckKind::Dup { count }, Phase::Recovery { .. }) if self.inflates(count) => {
                AckDecision::window(WindowOp::Inflate)
            }
            // RFC 6582 §4.1: no new recovery for losses of data sent before the timeout.
            (AckKind::Dup { .. }, Phase::Loss { .. }) if self.flavor != NewRenoFlavor::Paper => {
                AckDecision::window(WindowOp::Keep)
            }
            (AckKind::Dup { count }, Phase::Open | Phase::Loss { .. })
                if count == self.dupthresh =>
            {
                self.phase = Phase::Recovery {
                    recover: view.snd_max,
                };
                self.pending = Some(view.snd_una);
                self.partial_seen = false;
                AckDecision {
                    congestion: Some(LossResponse::FastRetransmit {
                        inflate_segments: count,
                    }),
                    window: WindowOp::Keep,
                }
            }
            (AckKind::Dup { .. }, _) => AckDecision::window(WindowOp::Keep),
            (AckKind::New { acked }, Phase::Recovery { recover }) => {
                if ack.ack >= recover {
                    self.phase = Phase::Open;
                    self.pending = None;
                    AckDecision::window(match self.flavor {
                        NewRenoFlavor::Paper => WindowOp::ExitRecovery,
                        NewRenoFlavor::Rfc6582 | NewRenoFlavor::Ns2 => WindowOp::DeflateToSsthresh,
                    })
                } else {
                    // Balakrishnan97 §2.3 (3) / RFC 6582 §3.2 (5): resend the next hole now.
                    self.pending = Some(ack.ack);
                    // ns-2: only the first partial ACK of the recovery restarts the timer.
                    self.keep_timer = self.flavor == NewRenoFlavor::Ns2 && self.partial_seen;
                    self.partial_seen = true;
                    AckDecision::window(match self.flavor {
                        NewRenoFlavor::Paper => WindowOp::DeflateToSsthresh,
                        NewRenoFlavor::Rfc6582 | NewRenoFlavor::Ns2 => {
                            WindowOp::PartialDeflate { acked }
                        }
                    })
                }
            }
            (AckKind::New { .. }, Phase::Loss { recover }) => {
                if ack.ack >= recover {
                    self.phase = Phase::Open;
                }
                AckDecision::window(WindowOp::Grow)
            }
            (AckKind::New { .. }, Phase::Open) => AckDecision::window(WindowOp::Grow),
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.pending = None;
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
    }

    fn keeps_timer(&self) -> bool {
        self.keep_timer
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
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::*;

    fn enter(r: &mut NewRenoRecovery) {
        for c in 1..=3 {
            r.on_ack(&dup(c, 0), view(0, 7000));
        }
        assert!(r
            .next_retransmission(SimTime::ZERO, view(0, 7000), 0)
            .is_some());
    }

    #[test]
    fn partial_ack_stays_in_recovery_and_resends_the_next_hole() {
        let mut r = NewRenoRecovery::new(NewRenoFlavor::Paper, 3);
        enter(&mut r);
        let d = r.on_ack(&new_ack(1400, 1400), view(0, 7000));
        assert_eq!(d.window, WindowOp::DeflateToSsthresh);
        assert_eq!(d.congestion, None, "no second halving in the same window");
        assert_eq!(r.phase(), Phase::Recovery { recover: 7000 });
        let rx = r.next_retransmission(SimTime::ZERO, view(1400, 7000), 0);
        assert_eq!(rx.map(|x| (x.off, x.forced)), Some((1400, true)));
        // The full ACK ends recovery.
        let d = r.on_ack(&new_ack(7000, 5600), view(1400, 7000));
        assert_eq!(d.window, WindowOp::ExitRecovery);
        assert_eq!(r.phase(), Phase::Open);
    }

    #[test]
    fn rfc6582_deflates_partially_and_waits_out_a_timeout() {
        let mut r = NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3);
        enter(&mut r);
        let d = r.on_ack(&new_ack(2800, 2800), view(0, 7000));
        assert_eq!(d.window, WindowOp::PartialDeflate { acked: 2800 });
        r.on_timeout(view(2800, 9800));
        for c in 1..=3 {
            assert_eq!(r.on_ack(&dup(c, 2800), view(2800, 9800)).congestion, None);
        }
        assert_eq!(r.phase(), Phase::Loss { recover: 9800 });
    }

    #[test]
    fn after_a_partial_ack_rfc6582_inflates_on_every_duplicate_and_the_paper_waits() {
        for (flavor, first_three) in [
            (NewRenoFlavor::Rfc6582, WindowOp::Inflate),
            (NewRenoFlavor::Paper, WindowOp::Keep),
        ] {
            let mut r = NewRenoRecovery::new(flavor, 3);
            enter(&mut r);
            r.on_ack(&new_ack(1400, 1400), view(0, 7000));
            let v = view(1400, 7000);
            for c in 1..=3 {
                let d = r.on_ack(&dup(c, 1400), v);
                assert_eq!(
                    (d.window, d.congestion),
                    (first_three, None),
                    "{flavor:?} {c}"
                );
            }
            assert_eq!(r.on_ack(&dup(4, 1400), v).window, WindowOp::Inflate);
            assert_eq!(r.phase(), Phase::Recovery { recover: 7000 });
        }
    }

    #[test]
    fn ns2_keeps_the_timer_on_every_partial_ack_but_the_first_of_a_recovery() {
        // ns-2.35 tcp-newreno.cc:91-104 (newreno_changes1_ 1).
        let mut r = NewRenoRecovery::new(NewRenoFlavor::Ns2, 3);
        enter(&mut r);
        assert!(!r.keeps_timer(), "the fast retransmit restarts it");
        let d = r.on_ack(&new_ack(1400, 1400), view(0, 7000));
        assert_eq!(d.window, WindowOp::PartialDeflate { acked: 1400 });
        assert!(!r.keeps_timer(), "the first partial ACK restarts the timer");
        r.on_ack(&new_ack(2800, 1400), view(1400, 7000));
        assert!(r.keeps_timer(), "the second leaves it");
        r.on_ack(&new_ack(4200, 1400), view(2800, 7000));
        assert!(r.keeps_timer(), "and the third");
        let d = r.on_ack(&new_ack(7000, 2800), view(4200, 7000));
        assert_eq!(d.window, WindowOp::DeflateToSsthresh);
        assert!(!r.keeps_timer(), "the full ACK restarts (or stops) it");
        // A new recovery: its first partial ACK restarts the timer again.
        for c in 1..=3 {
            r.on_ack(&dup(c, 7000), view(7000, 14000));
        }
        r.on_ack(&new_ack(8400, 1400), view(7000, 14000));
        assert!(!r.keeps_timer());
        // RFC 6582's flavour restarts it on every partial ACK (RFC 6298 (5.3)).
        let mut r = NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3);
        enter(&mut r);
        r.on_ack(&new_ack(1400, 1400), view(0, 7000));
        r.on_ack(&new_ack(2800, 1400), view(1400, 7000));
        assert!(!r.keeps_timer());
    }
}
