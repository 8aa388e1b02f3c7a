//! TCP-DCR, Delayed Congestion Response (Bhandarkar, Sadry, Reddy, Vaidya, IEEE TMC 2005;
//! eln-llelsn spec §4.6): the congestion response to duplicate ACKs waits one round trip, so that
//! a link layer can repair a wireless loss first.
//!
//! On the first duplicate ACK a timer of τ = the smoothed RTT starts (the spec's default; before
//! an RTT sample 200 ms). While it runs there is no fast retransmit; every duplicate clocks out
//! one new segment (the window is inflated by one segment per duplicate, from a stored value;
//! the spec: "send one new segment per arriving dupack"). A new ACK before τ ends means the hole
//! was repaired: the window goes back to the stored value and nothing else happens. When τ ends
//! (the part's own timer, or a duplicate that arrives after it) with the hole still open, Reno's
//! fast retransmit and fast recovery run (ssthresh from the flight, which the extra segments
//! enlarged). Timeouts are Reno's; DCR does not recover losses itself.
//!
//! Deliberate deviation: RFC 4653 (TCP-NCR) extends the duplicate threshold to a flight of
//! duplicates instead of timing one RTT; the spec asks for the DCR paper's timer.

use super::{
    AckDecision, AckInput, AckKind, LossRecovery, Phase, RenoRecovery, Retransmit, SenderView,
    WindowOp,
};
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

/// DCR over Reno's recovery.
#[derive(Clone, Debug)]
pub struct DcrRecovery {
    inner: RenoRecovery,
    dupthresh: u32,
    delay: Delay,
}

impl DcrRecovery {
    /// DCR delaying `inner`'s fast retransmit (triggered with `dupthresh` duplicates).
    pub fn new(inner: RenoRecovery, dupthresh: u32) -> Self {
        DcrRecovery {
            inner,
            dupthresh: dupthresh.max(1),
            delay: Delay::Idle,
        }
    }

    /// The timer ran out with the hole open: Reno's fast retransmit now.
    fn respond(&mut self, now: SimTime, view: SenderView) -> AckDecision {
        self.delay = Delay::Idle;
        let dup = AckInput {
            now,
            kind: AckKind::Dup {
                count: self.dupthresh,
            },
            ack: view.snd_una,
            sack: &[],
            smart: None,
            eln: false,
            cc: None,
            srtt: SimDuration::ZERO,
            srtt_ticks: 0,
        };
        self.inner.on_ack(&dup, view)
    }
}

impl LossRecovery for DcrRecovery {
    fn name(&self) -> &'static str {
        "dcr"
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
                AckDecision::window(WindowOp::Save { inflate: true })
            }
            (AckKind::Dup { .. }, Delay::Waiting { until }) if ack.now >= until => {
                self.respond(ack.now, view)
            }
            (AckKind::Dup { .. }, Delay::Waiting { .. }) => AckDecision::window(WindowOp::Inflate),
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

    fn on_undo(&mut self) {
        self.delay = Delay::Idle;
        self.inner.on_undo();
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
    use super::super::LossResponse;
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
        let mut r = DcrRecovery::new(RenoRecovery::new(3), 3);
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
        let mut r = DcrRecovery::new(RenoRecovery::new(3), 3);
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
        let mut r = DcrRecovery::new(RenoRecovery::new(3), 3);
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
}
