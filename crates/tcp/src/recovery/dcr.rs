//! TCP-DCR, Delayed Congestion Response (Bhandarkar, Sadry, Reddy, Vaidya, IEEE TMC 2005;
//! eln-llelsn spec §4.6): the congestion response to duplicate ACKs waits one round trip, so that
//! a link layer can repair a wireless loss first.
//!
//! On the first duplicate ACK a timer of τ = the smoothed RTT starts (the spec's default; before
//! an RTT sample 200 ms). While it runs there is no fast retransmit; every duplicate clocks out
//! one new segment (the window is inflated by one segment per duplicate, from a stored value;
//! the spec: "send one new segment per arriving dupack"). A new ACK before τ ends means the hole
//! was repaired: the window goes back to the stored value and nothing else happens. When τ ends
//! (the part's own timer, or a duplicate that arrives after it) with the hole still open, the
//! base's fast retransmit and recovery run (ssthresh from the flight, which the extra segments
//! enlarged). Timeouts are the base's; DCR does not recover losses itself.
//!
//! The base is the part DCR delays: Reno's fast recovery, or the SACK sender's ([GK]: the DCR
//! paper evaluates DCR as a change to TCP-SACK, and RFC 4653, its standardised form, is
//! written over RFC 3517's SACK-based loss recovery; the spec's §4.6 does not name the base).
//! While τ runs the base sees each duplicate through [`LossRecovery::hold`] (a SACK board keeps
//! up) and starts its recovery through [`LossRecovery::respond_now`].
//!
//! Deliberate deviation: RFC 4653 (TCP-NCR) extends the duplicate threshold to a flight of
//! duplicates instead of timing one RTT; the spec asks for the DCR paper's timer.

use super::{
    AckDecision, AckInput, AckKind, LossRecovery, Phase, Retransmit, SenderView, WindowOp,
};
use crate::notice::ElnVerdict;
use engine::{SimDuration, SimTime};

/// τ before the first RTT sample.
const NO_SAMPLE_TAU: SimDuration = SimDuration::from_millis(200);

/// Where the delayed response stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delay {
    /// No duplicates outstanding.
    Idle,
    /// Duplicates since the first one; the response is due at `until`.
    Waiting { until: SimTime },
}

/// DCR over a base's recovery (Reno or SACK).
pub struct DcrRecovery {
    inner: Box<dyn LossRecovery>,
    name: &'static str,
    dupthresh: u32,
    delay: Delay,
}

impl std::fmt::Debug for DcrRecovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DcrRecovery")
            .field("base", &self.inner.name())
            .field("dupthresh", &self.dupthresh)
            .field("delay", &self.delay)
            .finish()
    }
}

impl DcrRecovery {
    /// DCR delaying `inner`'s fast retransmit (triggered with `dupthresh` duplicates); named
    /// `name` in traces ("dcr" over Reno, "dcr-sack" over SACK).
    pub fn new(inner: Box<dyn LossRecovery>, dupthresh: u32, name: &'static str) -> Self {
        DcrRecovery {
            inner,
            name,
            dupthresh: dupthresh.max(1),
            delay: Delay::Idle,
        }
    }

    /// The timer ran out with the hole open: the base's fast retransmit now.
    fn respond(&mut self, now: SimTime, view: SenderView) -> AckDecision {
        self.delay = Delay::Idle;
        self.inner.respond_now(now, view, self.dupthresh)
    }
}

impl LossRecovery for DcrRecovery {
    fn name(&self) -> &'static str {
        self.name
    }

    fn phase(&self) -> Phase {
        self.inner.phase()
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        let open = self.inner.phase() == Phase::Open;
        match (ack.kind, self.delay) {
            (AckKind::Dup { .. }, Delay::Idle) if open => {
                let tau = if ack.srtt == SimDuration::ZERO {
                    NO_SAMPLE_TAU
                } else {
                    ack.srtt
                };
                self.delay = Delay::Waiting {
                    until: ack.now + tau,
                };
                self.inner.hold(ack, view);
                AckDecision::window(WindowOp::Save { inflate: true })
            }
            (AckKind::Dup { .. }, Delay::Waiting { until }) if ack.now >= until => {
                self.inner.hold(ack, view);
                self.respond(ack.now, view)
            }
            (AckKind::Dup { .. }, Delay::Waiting { .. }) => {
                self.inner.hold(ack, view);
                AckDecision::window(WindowOp::Inflate)
            }
            (AckKind::New { .. }, Delay::Waiting { .. }) => {
                // Repaired within τ: no congestion response; the window as it was.
                self.delay = Delay::Idle;
                let _ = self.inner.on_ack(ack, view);
                AckDecision::window(WindowOp::Restore)
            }
            // In the recovery the timer started: every further duplicate inflates (the sender's
            // own count may still be below the threshold when the timer fired first).
            (AckKind::Dup { count }, _)
                if count <= self.dupthresh
                    && matches!(self.inner.phase(), Phase::Recovery { .. }) =>
            {
                let more = AckInput {
                    kind: AckKind::Dup {
                        count: self.dupthresh + 1,
                    },
                    ..*ack
                };
                self.inner.on_ack(&more, view)
            }
            _ => self.inner.on_ack(ack, view),
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.delay = Delay::Idle;
        self.inner.on_timeout(view);
    }

    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        self.inner.next_retransmission(now, view, budget)
    }

    fn new_ack_is_duplicate(&self) -> bool {
        self.inner.new_ack_is_duplicate()
    }

    fn next_fallback(&mut self, now: SimTime, view: SenderView, budget: u64) -> Option<Retransmit> {
        self.inner.next_fallback(now, view, budget)
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        self.inner.pipe(view)
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.inner.is_sacked(off)
    }

    fn on_eln(&mut self, now: SimTime, off: u64, view: SenderView) -> ElnVerdict {
        self.inner.on_eln(now, off, view)
    }

    fn on_undo(&mut self) {
        self.delay = Delay::Idle;
        self.inner.on_undo();
    }

    fn sacked_bytes(&self) -> Option<u64> {
        self.inner.sacked_bytes()
    }

    fn tracks_sends(&self) -> bool {
        // For its own timer (τ); sends themselves are not needed.
        true
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        match self.delay {
            Delay::Waiting { until } => Some(until),
            Delay::Idle => None,
        }
    }

    fn on_timer(&mut self, now: SimTime, view: SenderView) -> AckDecision {
        match self.delay {
            Delay::Waiting { until } if now >= until && self.inner.phase() == Phase::Open => {
                self.respond(now, view)
            }
            _ => AckDecision::window(WindowOp::Keep),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::super::{LossResponse, RenoRecovery, SackFlavor, SackRecovery};
    use super::*;

    fn at(ms: u64, a: AckInput<'static>) -> AckInput<'static> {
        AckInput {
            now: SimTime(ms * 1_000_000),
            srtt: SimDuration::from_millis(100),
            ..a
        }
    }

    #[test]
    fn duplicates_wait_one_rtt_then_reno_responds() {
        let mut r = DcrRecovery::new(Box::new(RenoRecovery::new(3)), 3, "dcr");
        let v = view(0, 10_000);
        // First duplicate at 10 ms: the window is stored and inflated, τ ends at 110 ms.
        let d = r.on_ack(&at(10, dup(1, 0)), v);
        assert_eq!(d.window, WindowOp::Save { inflate: true });
        assert_eq!(r.poll_timeout(), Some(SimTime(110_000_000)));
        // The third and fourth: no fast retransmit, one more segment each.
        for (t, c) in [(11, 2), (12, 3), (13, 4)] {
            let d = r.on_ack(&at(t, dup(c, 0)), v);
            assert_eq!((d.congestion, d.window), (None, WindowOp::Inflate));
        }
        assert_eq!(r.phase(), Phase::Open);
        // τ ends: Reno's fast retransmit of snd_una.
        let d = r.on_timer(SimTime(110_000_000), v);
        assert!(matches!(
            d.congestion,
            Some(LossResponse::FastRetransmit { .. })
        ));
        assert!(matches!(r.phase(), Phase::Recovery { .. }));
        let rx = r.next_retransmission(SimTime(110_000_000), v, 0);
        assert_eq!(rx.map(|x| x.off), Some(0));
        // A later duplicate inflates; it does not start another recovery.
        let d = r.on_ack(&at(120, dup(5, 0)), v);
        assert_eq!((d.congestion, d.window), (None, WindowOp::Inflate));
    }

    #[test]
    fn a_timer_that_fires_after_two_duplicates_responds_once() {
        let mut r = DcrRecovery::new(Box::new(RenoRecovery::new(3)), 3, "dcr");
        let v = view(0, 10_000);
        r.on_ack(&at(10, dup(1, 0)), v);
        r.on_ack(&at(20, dup(2, 0)), v);
        assert!(r.on_timer(SimTime(110_000_000), v).congestion.is_some());
        // The sender's third duplicate: an inflation, not a second halving.
        let d = r.on_ack(&at(130, dup(3, 0)), v);
        assert_eq!((d.congestion, d.window), (None, WindowOp::Inflate));
    }

    #[test]
    fn a_hole_repaired_within_one_rtt_costs_no_response() {
        let mut r = DcrRecovery::new(Box::new(RenoRecovery::new(3)), 3, "dcr");
        let v = view(0, 10_000);
        r.on_ack(&at(10, dup(1, 0)), v);
        r.on_ack(&at(12, dup(2, 0)), v);
        r.on_ack(&at(14, dup(3, 0)), v);
        // The link layer's repair arrives at 50 ms: a new ACK; back to the stored window.
        let d = r.on_ack(&at(50, new_ack(5000, 5000)), v);
        assert_eq!((d.congestion, d.window), (None, WindowOp::Restore));
        assert_eq!(r.poll_timeout(), None);
        assert_eq!(r.phase(), Phase::Open);
        // A duplicate that arrives after τ (no timer event in between) responds at once.
        r.on_ack(&at(200, dup(1, 5000)), view(5000, 10_000));
        let d = r.on_ack(&at(301, dup(2, 5000)), view(5000, 10_000));
        assert!(d.congestion.is_some());
    }

    #[test]
    fn over_sack_the_board_follows_the_wait_and_two_holes_are_resent_in_one_recovery() {
        const MSS: u64 = 1400;
        let mut r = DcrRecovery::new(
            Box::new(SackRecovery::new(SackFlavor::Rfc6675, 1400, 3)),
            3,
            "dcr-sack",
        );
        // Segments 0 and 2 of 0..8 lost; 1, 3, 4, ... arrive (one SACK block each time).
        let v = view(0, 8 * MSS);
        static B1: [(u64, u64); 1] = [(MSS, 2 * MSS)];
        static B2: [(u64, u64); 2] = [(3 * MSS, 4 * MSS), (MSS, 2 * MSS)];
        static B3: [(u64, u64); 2] = [(3 * MSS, 5 * MSS), (MSS, 2 * MSS)];
        static B4: [(u64, u64); 2] = [(3 * MSS, 6 * MSS), (MSS, 2 * MSS)];
        let d = r.on_ack(
            &at(
                10,
                AckInput {
                    sack: &B1,
                    ..dup(1, 0)
                },
            ),
            v,
        );
        assert_eq!(d.window, WindowOp::Save { inflate: true });
        // Three runs SACKed above segment 0 by 12 ms: RFC 6675 would start recovery here; DCR
        // holds it, and every duplicate clocks out one new segment instead.
        for (t, c, b) in [(11, 2, &B2[..]), (12, 3, &B3[..]), (13, 4, &B4[..])] {
            let d = r.on_ack(
                &at(
                    t,
                    AckInput {
                        sack: b,
                        ..dup(c, 0)
                    },
                ),
                v,
            );
            assert_eq!((d.congestion, d.window), (None, WindowOp::Inflate));
        }
        assert_eq!((r.phase(), r.pipe(v)), (Phase::Open, None));
        // τ ends at 110 ms: SACK's recovery (no inflation), from the board the wait built up.
        let d = r.on_timer(SimTime(110_000_000), v);
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 0
            })
        );
        assert_eq!(r.name(), "dcr-sack");
        let now = SimTime(110_000_000);
        let first = r.next_retransmission(now, v, 0).unwrap();
        assert_eq!((first.off, first.forced), (0, true));
        // Segment 2 is lost too (3 segments SACKed above it): resent in the same episode.
        let second = r.next_retransmission(now, v, 10 * MSS).unwrap();
        assert_eq!((second.off, second.forced), (2 * MSS, false));
        // The partial ACK for segment 0 keeps the recovery; one halving for both holes.
        let d = r.on_ack(&at(160, new_ack(2 * MSS, 2 * MSS)), view(0, 8 * MSS));
        assert_eq!((d.congestion, d.window), (None, WindowOp::Keep));
        assert!(matches!(r.phase(), Phase::Recovery { .. }));
    }
}
