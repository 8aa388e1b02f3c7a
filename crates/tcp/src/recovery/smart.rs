//! SMART at the end-to-end sender (Balakrishnan97 §2.4, E2E-SMART; Keshav & Morgan).
//!
//! Each ACK carries the cumulative ACK and the start of the data segment that triggered it. The
//! sender keeps a bitmask of delivered segments (the shared [`Scoreboard`]) and, with no
//! tolerance for reordering, takes every unset segment below the highest set bit as lost. It
//! resends such a segment at once, regardless of the window, on the first ACK that shows the gap
//! ("retransmits on the first dupack that carries loss information", §B.1), and again only if it
//! was not resent within the last round trip. Lost retransmissions are not detected otherwise:
//! the coarse timeout recovers them (§2.4, "falls back to the coarse timeout").
//!
//! "Within the last round trip" is measured on one of two clocks ([`SmartClock`]; the spec leaves
//! it open, §2.4 "a knob"). The paper's SMART lived in BSD/OS 2.1, whose TCP had no clock but the
//! 500 ms slow timer and the 200 ms fast timer and kept its smoothed RTT in whole slow ticks
//! (Net/3 `t_srtt`): with [`SmartClock::Ticks`] a segment goes again only once more slow-timer
//! boundaries have passed since its last resend than the smoothed RTT holds (`ticks > srtt`, so on
//! a LAN, whose RTT is 0 ticks, one boundary: a lost retransmission waits for the next tick, up to
//! 500 ms, and a timeout may come first, as the paper says SMART's sometimes do). With
//! [`SmartClock::Fine`] the rule uses the sender's fine-grained smoothed RTT (`AckInput::srtt`;
//! before any RTT sample, which the handshake normally provides, [`NO_SAMPLE_RTT`]).
//!
//! Congestion response ([INFERRED] default of §2.4): ssthresh = cwnd/2 and cwnd = ssthresh once
//! per loss episode; the episode lasts until the cumulative ACK reaches `recover` (snd_max when
//! the first gap was seen). During the episode new data is gated by `pipe` = outstanding −
//! delivered − lost + resent, not by `snd_nxt − snd_una`: after the halving `snd_nxt − snd_una`
//! stays above cwnd until every hole is repaired, so the sender would fall silent for a round
//! trip per episode (Reno's window inflation exists to avoid just that); the bitmask tells
//! exactly which packets have left the network, so the conservation rule can use it.
//!
//! After a timeout the sender goes back to `snd_una` (Reno, §2.1) and skips segments the bitmask
//! shows delivered (a SMART receiver never reneges on them); the gaps are left to the go-back-N
//! until everything sent before the timeout is acknowledged, so no segment goes out twice.

use super::scoreboard::Scoreboard;
use super::{
    AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit, SenderView,
    WindowOp,
};
use crate::rto::TickClock;
use engine::{SimDuration, SimTime};

/// The clock of the once-per-round-trip resend rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmartClock {
    /// The sender's fine-grained smoothed RTT (a modern stack).
    Fine,
    /// Whole slow-timer ticks against the estimator's smoothed RTT in ticks (a BSD stack; the
    /// clock is the sender's slow timer, phase included).
    Ticks(TickClock),
}

/// The round trip assumed by the once-per-RTT rule before the sender has an RTT sample: between
/// the LAN's (about 10 ms) and the WAN's (about 100 ms) round trips, well below the 1 s minimum
/// of the BSD timer.
pub const NO_SAMPLE_RTT: SimDuration = SimDuration::from_millis(100);

/// SMART loss recovery.
#[derive(Clone, Debug)]
pub struct SmartRecovery {
    phase: Phase,
    board: Scoreboard,
    rtt: SimDuration,
    clock: SmartClock,
    srtt_ticks: u32,
}

impl SmartRecovery {
    /// SMART for segments of `mss` bytes.
    pub fn new(mss: u32) -> Self {
        SmartRecovery {
            phase: Phase::Open,
            board: Scoreboard::new(mss),
            rtt: NO_SAMPLE_RTT,
            clock: SmartClock::Fine,
            srtt_ticks: 0,
        }
    }

    /// The same on another clock for the once-per-RTT rule.
    pub fn with_clock(mut self, clock: SmartClock) -> Self {
        self.clock = clock;
        self
    }

    /// Whether a round trip has passed since a resend at `at`, on this sender's clock.
    fn round_trip_since(&self, at: SimTime, now: SimTime) -> bool {
        match self.clock {
            SmartClock::Fine => now >= at + self.rtt,
            SmartClock::Ticks(c) => c.ticks_between(at, now) > u64::from(self.srtt_ticks),
        }
    }

    /// The bitmask (for tests and traces).
    pub fn board(&self) -> &Scoreboard {
        &self.board
    }
}

impl LossRecovery for SmartRecovery {
    fn name(&self) -> &'static str {
        "smart"
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        self.rtt = if ack.srtt == SimDuration::ZERO {
            NO_SAMPLE_RTT
        } else {
            ack.srtt
        };
        self.srtt_ticks = ack.srtt_ticks;
        self.board.update(view.snd_una, view.snd_max);
        self.board.on_cum_ack(ack.ack);
        if let Some(t) = ack.smart {
            self.board.on_smart_trigger(t);
        }
        let mut window = match (ack.kind, self.phase) {
            (AckKind::Dup { .. }, _) => WindowOp::Keep,
            (AckKind::New { .. }, Phase::Recovery { recover }) if ack.ack >= recover => {
                self.phase = Phase::Open;
                WindowOp::DeflateToSsthresh
            }
            // A partial ACK: cwnd stays at ssthresh; pipe falls.
            (AckKind::New { .. }, Phase::Recovery { .. }) => WindowOp::Keep,
            (AckKind::New { .. }, Phase::Loss { recover }) => {
                if ack.ack >= recover {
                    self.phase = Phase::Open;
                }
                WindowOp::Grow
            }
            (AckKind::New { .. }, Phase::Open) => WindowOp::Grow,
        };
        let mut congestion = None;
        if self.phase == Phase::Open && self.board.has_hole() {
            // A gap: a new loss episode, one halving (§2.4 [INFERRED] once per window).
            self.phase = Phase::Recovery {
                recover: view.snd_max,
            };
            congestion = Some(LossResponse::FastRetransmit {
                inflate_segments: 0,
            });
            window = WindowOp::Keep;
        }
        AckDecision { congestion, window }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.board.clear_retransmitted();
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
    }

    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        _budget: u64,
    ) -> Option<Retransmit> {
        if !matches!(self.phase, Phase::Recovery { .. }) {
            return None;
        }
        self.board.update(view.snd_una, view.snd_max);
        let highest = self.board.highest_sacked_end()?;
        // §2.4: every unset segment below the highest set bit is lost; resend it unless it was
        // resent within the last round trip.
        let seg = self.board.unsacked().find(|s| {
            s.off < highest && s.rexmit_at.is_none_or(|t| self.round_trip_since(t, now))
        })?;
        self.board.mark_retransmitted(seg.off, now);
        Some(Retransmit {
            off: seg.off,
            len: seg.len,
            forced: true,
        })
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        if !matches!(self.phase, Phase::Recovery { .. }) {
            return None;
        }
        let highest = self.board.highest_sacked_end().unwrap_or(0);
        // Every unset segment below the highest delivered one is lost (§2.4).
        Some(self.board.pipe(view.snd_max, 0, |s, _| s.off < highest))
    }

    fn is_sacked(&self, off: u64) -> bool {
        self.board.is_sacked(off)
    }

    fn on_undo(&mut self) {
        self.phase = Phase::Open;
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::tests::{dup, new_ack, view};
    use super::*;

    const MSS: u64 = 1400;

    fn sm(count: u32, trigger: u64, now_ms: u64) -> AckInput<'static> {
        AckInput {
            smart: Some(trigger),
            now: SimTime(now_ms * 1_000_000),
            srtt: SimDuration::from_millis(10),
            ..dup(count, 0)
        }
    }

    #[test]
    fn first_gap_resends_every_hole_at_once_and_halves_once() {
        let mut r = SmartRecovery::new(1400);
        let v = view(0, 5 * MSS);
        let d = r.on_ack(&sm(1, 2 * MSS, 0), v);
        assert_eq!(
            d.congestion,
            Some(LossResponse::FastRetransmit {
                inflate_segments: 0
            }),
            "the first dupack with a gap"
        );
        let now = SimTime::ZERO;
        let a = r.next_retransmission(now, v, 0).unwrap();
        let b = r.next_retransmission(now, v, 0).unwrap();
        assert_eq!((a.off, a.forced, b.off, b.forced), (0, true, MSS, true));
        assert_eq!(r.next_retransmission(now, v, 0), None);
        // Two more dupacks: no second halving, no resend within the round trip.
        assert_eq!(r.on_ack(&sm(2, 3 * MSS, 1), v).congestion, None);
        assert_eq!(r.on_ack(&sm(3, 4 * MSS, 2), v).congestion, None);
        assert_eq!(r.next_retransmission(SimTime(2_000_000), v, 0), None);
        // Delivered 3, lost 2 (both resent): pipe = 2 resent segments.
        assert_eq!(r.pipe(v), Some(2 * MSS));
        // A round trip later the still-missing segment goes again.
        r.on_ack(&sm(4, 4 * MSS, 11), v);
        assert_eq!(
            r.next_retransmission(SimTime(11_000_000), v, 0)
                .map(|x| x.off),
            Some(0)
        );
        let d = r.on_ack(&new_ack(5 * MSS, 5 * MSS), v);
        assert_eq!(d.window, WindowOp::DeflateToSsthresh);
        assert_eq!(r.phase(), Phase::Open);
    }

    #[test]
    fn no_gap_no_action_and_timeout_leaves_holes_to_go_back_n() {
        let mut r = SmartRecovery::new(1400);
        let v = view(0, 4 * MSS);
        let d = r.on_ack(
            &AckInput {
                smart: Some(0),
                ..new_ack(MSS, MSS)
            },
            v,
        );
        assert_eq!((d.congestion, d.window), (None, WindowOp::Grow));
        r.on_timeout(view(MSS, 4 * MSS));
        assert!(r
            .on_ack(&sm(1, 3 * MSS, 0), view(MSS, 4 * MSS))
            .congestion
            .is_none());
        assert!(r.is_sacked(3 * MSS), "go-back-N skips it");
        assert_eq!(
            r.next_retransmission(SimTime::ZERO, view(MSS, 4 * MSS), 0),
            None
        );
    }

    #[test]
    fn tick_clock_resends_only_after_more_ticks_than_the_smoothed_rtt() {
        // BSD/OS: 500 ms slow ticks at 100 ms + k·500 ms; a LAN RTT is 0 ticks (srtt_ticks 0).
        let clock = TickClock {
            period: SimDuration::from_millis(500),
            phase: SimDuration::from_millis(100),
        };
        let mut r = SmartRecovery::new(1400).with_clock(SmartClock::Ticks(clock));
        let v = view(0, 5 * MSS);
        let at = |ms: u64| AckInput {
            srtt_ticks: 0,
            ..sm(2, 4 * MSS, ms)
        };
        r.on_ack(&at(10), v);
        let first: Vec<u64> = std::iter::from_fn(|| {
            r.next_retransmission(SimTime(10_000_000), v, 0)
                .map(|x| x.off)
        })
        .collect();
        assert_eq!(first, [0, MSS, 2 * MSS, 3 * MSS], "every hole at once");
        // 80 ms later (8 fine RTTs): the fine clock would resend; no tick has passed.
        r.on_ack(&at(90), v);
        assert_eq!(r.next_retransmission(SimTime(90_000_000), v, 0), None);
        // The tick at 100 ms: one boundary > 0 ticks of srtt.
        r.on_ack(&at(100), v);
        let second: Vec<u64> = std::iter::from_fn(|| {
            r.next_retransmission(SimTime(100_000_000), v, 0)
                .map(|x| x.off)
        })
        .collect();
        assert_eq!(second, [0, MSS, 2 * MSS, 3 * MSS]);
        // With a smoothed RTT of 1 tick, two boundaries must pass: not at 600 ms, at 1100 ms.
        let at1 = |ms: u64| AckInput {
            srtt_ticks: 1,
            ..sm(3, 4 * MSS, ms)
        };
        r.on_ack(&at1(600), v);
        assert_eq!(r.next_retransmission(SimTime(600_000_000), v, 0), None);
        r.on_ack(&at1(1100), v);
        assert_eq!(
            r.next_retransmission(SimTime(1_100_000_000), v, 0)
                .map(|x| x.off),
            Some(0)
        );
        // The fine clock on the same inputs resends 10 ms after the first resend.
        let mut f = SmartRecovery::new(1400);
        f.on_ack(&at(10), v);
        assert!(f.next_retransmission(SimTime(10_000_000), v, 0).is_some());
        f.on_ack(&at(20), v);
        assert_eq!(
            f.next_retransmission(SimTime(20_000_000), v, 0)
                .map(|x| x.off),
            Some(0)
        );
    }
}
