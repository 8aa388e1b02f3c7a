//! HyStart++ (RFC 9406): leaving slow start on a rise of the round's minimum RTT, through
//! Conservative Slow Start (CSS), before the first loss.
//!
//! A round ends when the ACK covers `windowEnd`, the SND.NXT of the round's start (§4.2). Each
//! ACK's RTT sample lowers `currentRoundMinRTT` and counts. In slow start, once a round has
//! `N_RTT_SAMPLE` samples and both the last and the current round have a minimum, a current
//! minimum at least `lastRoundMinRTT + RttThresh` (`RttThresh = clamp(lastRoundMinRTT /
//! MIN_RTT_DIVISOR, MIN_RTT_THRESH, MAX_RTT_THRESH)`) starts CSS with
//! `cssBaselineMinRtt = currentRoundMinRTT`. In CSS the window grows by a quarter of slow
//! start's increase (`CSS_GROWTH_DIVISOR`); a round minimum below the baseline (after
//! `N_RTT_SAMPLE` samples) goes back to slow start (the delay rise was spurious); after
//! `CSS_ROUNDS` rounds the controller sets ssthresh = cwnd and enters congestion avoidance.
//! A loss (or an ECN response) ends HyStart++ for the connection: RFC 9406 §4.2 recommends it
//! for the initial slow start only.
//!
//! Deliberate deviations (docs/modern.md):
//! - The increase per ACK is the controller's own slow-start increase (RFC 3465 byte counting
//!   with L = 2 segments), within RFC 9406's `min(N, L·SMSS)` with L = 8 for a non-paced
//!   sender; CSS divides it by `CSS_GROWTH_DIVISOR` (integer bytes).
//! - The round in which CSS starts counts as its first round (as quiche does): CSS ends at the
//!   `CSS_ROUNDS`-th round boundary after it started.
//! - RTT samples are the sender's: one per ACK of new data with timestamps, one per round trip
//!   (the timed segment, Karn) without, which never reaches `N_RTT_SAMPLE` in a round: turn
//!   timestamps on with HyStart++.

use engine::SimDuration;

/// RFC 9406 §4.3: MIN_RTT_THRESH = 4 ms.
pub const MIN_RTT_THRESH: SimDuration = SimDuration::from_millis(4);
/// RFC 9406 §4.3: MAX_RTT_THRESH = 16 ms.
pub const MAX_RTT_THRESH: SimDuration = SimDuration::from_millis(16);
/// RFC 9406 §4.3: MIN_RTT_DIVISOR = 8.
pub const MIN_RTT_DIVISOR: u64 = 8;
/// RFC 9406 §4.3: N_RTT_SAMPLE = 8.
pub const N_RTT_SAMPLE: u32 = 8;
/// RFC 9406 §4.3: CSS_GROWTH_DIVISOR = 4.
pub const CSS_GROWTH_DIVISOR: u32 = 4;
/// RFC 9406 §4.3: CSS_ROUNDS = 5.
pub const CSS_ROUNDS: u32 = 5;

/// Whether CUBIC's slow start runs HyStart++ (`tcp.hystart`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hystart {
    /// Plain slow start until a loss or ssthresh.
    #[default]
    Off,
    /// HyStart++ (RFC 9406).
    Rfc9406,
    /// Linux's HyStart (`tcp_cubic.c`: ACK train and delay rise; `hystart_linux.rs`).
    Linux,
}

/// Where HyStart++ is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HsPhase {
    /// Standard slow start, watching the round minimum RTT.
    SlowStart,
    /// Conservative Slow Start since a delay rise over `baseline`, `rounds` boundaries so far.
    Css {
        /// `cssBaselineMinRtt`.
        baseline: SimDuration,
        /// Round boundaries passed in CSS.
        rounds: u32,
    },
    /// Left for good: CSS ended in congestion avoidance, or a loss came.
    Done,
}

/// What the controller does with this ACK's slow-start increase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HsStep {
    /// Grow by the slow-start increase divided by `divisor` (1 in slow start, 4 in CSS).
    Grow {
        /// The increase's divisor.
        divisor: u32,
    },
    /// CSS_ROUNDS are complete: ssthresh = cwnd, congestion avoidance from this ACK on.
    EnterAvoidance,
    /// HyStart++ is over; plain rules.
    Plain,
}

/// The round's RTT bookkeeping (RFC 9406 §4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Round {
    /// `windowEnd` (a stream offset); None before the first ACK.
    window_end: Option<u64>,
    /// `lastRoundMinRTT` (None: infinity).
    last_min: Option<SimDuration>,
    /// `currentRoundMinRTT` (None: infinity).
    cur_min: Option<SimDuration>,
    /// `rttSampleCount`.
    samples: u32,
}

/// HyStart++'s state (RFC 9406 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HyStart {
    phase: HsPhase,
    round: Round,
}

impl Default for HyStart {
    fn default() -> Self {
        HyStart {
            phase: HsPhase::SlowStart,
            round: Round::default(),
        }
    }
}

/// `RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR, MAX_RTT_THRESH))`.
pub fn rtt_thresh(last_round_min: SimDuration) -> SimDuration {
    SimDuration::from_nanos(last_round_min.as_nanos() / MIN_RTT_DIVISOR)
        .clamp(MIN_RTT_THRESH, MAX_RTT_THRESH)
}

impl HyStart {
    /// Its phase.
    pub fn phase(&self) -> HsPhase {
        self.phase
    }

    /// An ACK in slow start that acknowledges up to stream offset `ack`, with the sender's
    /// SND.NXT and this ACK's RTT sample if it gave one.
    pub fn on_ack(&mut self, ack: u64, snd_nxt: u64, rtt: Option<SimDuration>) -> HsStep {
        if self.phase == HsPhase::Done {
            return HsStep::Plain;
        }
        let r = &mut self.round;
        match r.window_end {
            None => r.window_end = Some(snd_nxt),
            // §4.2: "When windowEnd is ACKed, the current round ends and windowEnd is set to
            // SND.NXT"; at the start of each round the minima shift and the count restarts.
            Some(end) if ack >= end => {
                r.window_end = Some(snd_nxt);
                r.last_min = r.cur_min;
                r.cur_min = None;
                r.samples = 0;
                if let HsPhase::Css { baseline, rounds } = self.phase {
                    // §4.2: after CSS_ROUNDS rounds in CSS, ssthresh = cwnd.
                    if rounds + 1 >= CSS_ROUNDS {
                        self.phase = HsPhase::Done;
                        return HsStep::EnterAvoidance;
                    }
                    self.phase = HsPhase::Css {
                        baseline,
                        rounds: rounds + 1,
                    };
                }
            }
            Some(_) => {}
        }
        let divisor = match self.phase {
            HsPhase::Css { .. } => CSS_GROWTH_DIVISOR,
            _ => 1,
        };
        if let Some(rtt) = rtt {
            r.cur_min = Some(r.cur_min.map_or(rtt, |m| m.min(rtt)));
            r.samples += 1;
        }
        if r.samples >= N_RTT_SAMPLE {
            match (self.phase, r.cur_min, r.last_min) {
                // §4.2 slow start: the delay-increase test.
                (HsPhase::SlowStart, Some(cur), Some(last)) if cur >= last + rtt_thresh(last) => {
                    self.phase = HsPhase::Css {
                        baseline: cur,
                        rounds: 0,
                    };
                }
                // §4.2 CSS: the rise was spurious, back to slow start.
                (HsPhase::Css { baseline, .. }, Some(cur), _) if cur < baseline => {
                    self.phase = HsPhase::SlowStart;
                }
                _ => {}
            }
        }
        HsStep::Grow { divisor }
    }

    /// A loss or an ECN response: HyStart++ is over for this connection (§4.2).
    pub fn on_congestion(&mut self) {
        self.phase = HsPhase::Done;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(m: u64) -> SimDuration {
        SimDuration::from_millis(m)
    }

    /// One round: ACKs of `start`, `start + 1`, ... `start + n - 1` (1-byte segments for
    /// brevity), each with RTT `rtt`, SND.NXT at `start + n`, where the next round begins.
    /// The first ACK (`start`, the previous round's windowEnd) starts the round.
    fn round(hs: &mut HyStart, start: u64, n: u64, rtt: SimDuration) -> Vec<HsStep> {
        (start..start + n)
            .map(|a| hs.on_ack(a, start + n, Some(rtt)))
            .collect()
    }

    #[test]
    fn the_rtt_threshold_is_an_eighth_clamped_to_4_and_16_ms() {
        assert_eq!(rtt_thresh(ms(10)), ms(4)); // 1.25 ms → 4
        assert_eq!(rtt_thresh(ms(32)), ms(4));
        assert_eq!(rtt_thresh(ms(80)), ms(10));
        assert_eq!(rtt_thresh(ms(128)), ms(16));
        assert_eq!(rtt_thresh(ms(400)), ms(16)); // 50 ms → 16
    }

    /// Rounds by windowEnd: the first ACK sets windowEnd = SND.NXT (10); ACKs below it stay in
    /// round 0; the ACK reaching 10 starts round 1 with windowEnd = the SND.NXT then (30).
    #[test]
    fn rounds_end_when_window_end_is_acknowledged() {
        let mut hs = HyStart::default();
        hs.on_ack(1, 10, Some(ms(100)));
        assert_eq!(hs.round.window_end, Some(10));
        for a in 2..10 {
            hs.on_ack(a, 10 + 2 * a, Some(ms(100 - a)));
        }
        assert_eq!((hs.round.samples, hs.round.cur_min), (9, Some(ms(91))));
        hs.on_ack(10, 30, Some(ms(120)));
        assert_eq!(hs.round.window_end, Some(30));
        assert_eq!(hs.round.last_min, Some(ms(91)));
        assert_eq!((hs.round.samples, hs.round.cur_min), (1, Some(ms(120))));
    }

    /// A 100 ms round, then a round whose minimum is 112 ms: RttThresh = 12.5 ms, not yet; the
    /// next at 127 ms (threshold 112/8 = 14 ms: 127 >= 126) enters CSS on its eighth sample (not
    /// before), with baseline 127 ms, and the growth from the next ACK on is a quarter.
    #[test]
    fn a_delay_rise_over_the_threshold_enters_css_on_the_eighth_sample() {
        let mut hs = HyStart::default();
        round(&mut hs, 1, 9, ms(100));
        let steps = round(&mut hs, 10, 20, ms(112));
        assert!(steps.iter().all(|s| *s == HsStep::Grow { divisor: 1 }));
        assert_eq!(hs.phase(), HsPhase::SlowStart, "12 ms < 100 + 12.5");
        let steps = round(&mut hs, 30, 40, ms(127));
        assert_eq!(steps[6], HsStep::Grow { divisor: 1 });
        assert_eq!(
            hs.phase(),
            HsPhase::Css {
                baseline: ms(127),
                rounds: 0
            }
        );
        assert_eq!(
            steps[7],
            HsStep::Grow { divisor: 1 },
            "the eighth grows as slow start"
        );
        assert_eq!(steps[8], HsStep::Grow { divisor: 4 });
    }

    /// CSS: a round minimum back below the baseline resumes slow start; otherwise CSS_ROUNDS
    /// round boundaries later ssthresh = cwnd (EnterAvoidance), then plain rules.
    #[test]
    fn css_resumes_slow_start_or_ends_after_five_rounds() {
        let enter = || {
            let mut hs = HyStart::default();
            round(&mut hs, 1, 9, ms(20));
            round(&mut hs, 10, 20, ms(30)); // 30 >= 20 + max(2.5, 4): CSS, baseline 30
            assert_eq!(
                hs.phase(),
                HsPhase::Css {
                    baseline: ms(30),
                    rounds: 0
                }
            );
            hs
        };
        let mut hs = enter();
        let steps = round(&mut hs, 30, 10, ms(29));
        assert_eq!(steps[..8], [HsStep::Grow { divisor: 4 }; 8]);
        assert_eq!(hs.phase(), HsPhase::SlowStart, "29 ms < baseline 30 ms");
        let mut hs = enter();
        let mut start = 30;
        for k in 1..CSS_ROUNDS {
            let steps = round(&mut hs, start, 10, ms(40));
            assert_eq!(steps[0], HsStep::Grow { divisor: 4 });
            assert_eq!(
                hs.phase(),
                HsPhase::Css {
                    baseline: ms(30),
                    rounds: k
                }
            );
            start += 10;
        }
        assert_eq!(
            hs.on_ack(start + 1, start + 10, Some(ms(40))),
            HsStep::EnterAvoidance
        );
        assert_eq!(hs.phase(), HsPhase::Done);
        assert_eq!(hs.on_ack(start + 2, start + 10, None), HsStep::Plain);
    }

    #[test]
    fn a_loss_ends_hystart_and_fewer_than_eight_samples_never_decide() {
        let mut hs = HyStart::default();
        round(&mut hs, 1, 9, ms(20));
        round(&mut hs, 10, 7, ms(90));
        assert_eq!(hs.phase(), HsPhase::SlowStart, "7 samples");
        hs.on_congestion();
        assert_eq!(hs.on_ack(20, 40, Some(ms(90))), HsStep::Plain);
    }
}
