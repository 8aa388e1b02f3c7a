//! Linux's HyStart (`net/ipv4/tcp_cubic.c`, `hystart_update`; Ha and Rhee, "Taming the
//! elephants", 2008/2011): the slow-start exit the kernel's CUBIC runs (`hystart = 1`,
//! `hystart_detect = 3`), where RFC 9406's HyStart++ ([`super::hystart`]) is the IETF's.
//!
//! A round starts when an ACK passes `end_seq` (the SND.NXT of the previous round's start): the
//! round's start time, the last ACK's time and SND.NXT are noted, the round's minimum RTT and
//! its sample count restart (`bictcp_hystart_reset`). While the window is at least
//! [`LOW_WINDOW`] segments, two detectors may end slow start by setting ssthresh to the window:
//! - the **ACK train**: an ACK within [`ACK_DELTA`] of the previous one continues the train; once
//!   the train since the round's start is longer than half of (the minimum RTT + the ACK
//!   delay allowance `min(1 ms, 4 · GSO_MAX_SIZE / pacing rate)`), the window fills the path;
//! - the **delay rise**: after [`MIN_SAMPLES`] RTT samples in the round, a round minimum above
//!   the connection's minimum RTT plus `clamp(min_rtt / 8, 4 ms, 16 ms)`.
//!
//! The connection's minimum RTT (`delay_min`) comes from every RTT sample (`cubictcp_acked`).
//! A timeout (`TCP_CA_Loss`) starts HyStart afresh for the next slow start, the minimum RTT too
//! (`cubictcp_state`, `bictcp_reset`); a fast retransmit leaves it (slow start is over).
//!
//! Departures (docs/modern.md): the pacing rate of the ACK delay allowance is Linux's slow-start
//! one, `2 · cwnd / srtt` (`tcp_update_pacing_rate`), from the sender's smoothed RTT;
//! `GSO_MAX_SIZE` is 65 536 bytes (`GSO_LEGACY_MAX_SIZE`, what a TUN or veth device offers).
//! Times are the simulator's nanoseconds, not the kernel's microseconds.

use engine::{SimDuration, SimTime};

/// `hystart_low_window`: no detection below 16 segments.
pub const LOW_WINDOW: u32 = 16;
/// `hystart_ack_delta_us`: ACKs at most 2 ms apart form a train.
pub const ACK_DELTA: SimDuration = SimDuration::from_millis(2);
/// `HYSTART_MIN_SAMPLES`: RTT samples a round needs before its minimum counts.
pub const MIN_SAMPLES: u32 = 8;
/// `HYSTART_DELAY_MIN`.
pub const DELAY_MIN: SimDuration = SimDuration::from_millis(4);
/// `HYSTART_DELAY_MAX`.
pub const DELAY_MAX: SimDuration = SimDuration::from_millis(16);
/// `GSO_LEGACY_MAX_SIZE`, bytes.
const GSO_MAX_SIZE: u64 = 65_536;

/// Why the slow start ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinuxExit {
    /// The ACK train outlasted half the minimum RTT.
    AckTrain,
    /// The round's minimum RTT rose over the connection's.
    Delay,
}

/// Linux HyStart's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinuxHyStart {
    /// `end_seq`: the round ends when an ACK passes it (None before the first ACK).
    end_seq: Option<u64>,
    /// `round_start`.
    round_start: SimTime,
    /// `last_ack`: the time of the train's last ACK.
    last_ack: SimTime,
    /// `curr_rtt`: the round's minimum RTT.
    curr_rtt: Option<SimDuration>,
    /// `sample_cnt`.
    samples: u32,
    /// `delay_min`: the connection's minimum RTT.
    delay_min: Option<SimDuration>,
    /// `found`: slow start was ended (until a timeout).
    found: Option<LinuxExit>,
}

impl LinuxHyStart {
    /// Why it ended slow start, if it did.
    pub fn found(&self) -> Option<LinuxExit> {
        self.found
    }

    /// An ACK acknowledging up to stream offset `ack` at `now`, with the sender's SND.NXT, its
    /// RTT sample if it gave one, the smoothed RTT, and the window in bytes and segments of
    /// `mss`; `slow_start` when the window is below ssthresh. `Some` when slow start ends here
    /// (the caller sets ssthresh to the window).
    pub fn on_ack(
        &mut self,
        now: SimTime,
        slow_start: bool,
        (ack, snd_nxt): (u64, u64),
        (rtt, srtt): (Option<SimDuration>, SimDuration),
        (cwnd, mss): (u32, u32),
    ) -> Option<LinuxExit> {
        // cubictcp_acked: every sample lowers delay_min, slow start or not.
        let delay = rtt?.max(SimDuration::from_nanos(1));
        self.delay_min = Some(self.delay_min.map_or(delay, |d| d.min(delay)));
        if self.found.is_some() || !slow_start {
            return None;
        }
        if self.end_seq.is_none_or(|end| ack > end) {
            self.end_seq = Some(snd_nxt);
            self.round_start = now;
            self.last_ack = now;
            self.curr_rtt = None;
            self.samples = 0;
        }
        if cwnd / mss < LOW_WINDOW {
            return None;
        }
        let delay_min = self.delay_min.unwrap_or(delay);
        let exit = self
            .ack_train(now, delay_min, srtt, cwnd)
            .or_else(|| self.delay(delay, delay_min));
        self.found = exit;
        exit
    }

    fn ack_train(
        &mut self,
        now: SimTime,
        delay_min: SimDuration,
        srtt: SimDuration,
        cwnd: u32,
    ) -> Option<LinuxExit> {
        if now.saturating_since(self.last_ack) > ACK_DELTA {
            return None;
        }
        self.last_ack = now;
        // hystart_ack_delay: min(1 ms, 4 · GSO_MAX_SIZE / sk_pacing_rate); in slow start the
        // pacing rate is 2 · cwnd / srtt (tcp_update_pacing_rate, 200 %).
        let allowance = match srtt.as_nanos() {
            0 => 0,
            s => {
                let rate_per_s = 2 * u64::from(cwnd) * 1_000_000_000 / s;
                (4 * GSO_MAX_SIZE * 1_000_000_000)
                    .checked_div(rate_per_s)
                    .unwrap_or(u64::MAX)
                    .min(1_000_000)
            }
        };
        // Not paced (SK_PACING_NONE): half of it.
        let threshold = (delay_min.as_nanos() + allowance) / 2;
        (now.saturating_since(self.round_start).as_nanos() > threshold)
            .then_some(LinuxExit::AckTrain)
    }

    fn delay(&mut self, delay: SimDuration, delay_min: SimDuration) -> Option<LinuxExit> {
        let curr = self.curr_rtt.map_or(delay, |c| c.min(delay));
        self.curr_rtt = Some(curr);
        if self.samples < MIN_SAMPLES {
            self.samples += 1;
            return None;
        }
        let thresh = SimDuration::from_nanos(delay_min.as_nanos() / 8).clamp(DELAY_MIN, DELAY_MAX);
        (curr.as_nanos() > delay_min.as_nanos() + thresh.as_nanos()).then_some(LinuxExit::Delay)
    }

    /// A timeout (`TCP_CA_Loss`): the next slow start runs HyStart afresh, and the minimum RTT
    /// is learnt again (`cubictcp_state` calls `bictcp_reset`, whose `memset` zeroes
    /// `delay_min` with the rest of the state before `unused`, then `bictcp_hystart_reset`).
    pub fn on_timeout(&mut self) {
        *self = LinuxHyStart::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    fn d(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    /// The ACK train: a round starts at 100 ms (ACK past end_seq 0) with a 20 ms minimum RTT
    /// and an allowance of min(1 ms, 4·65536 B / (2·20 000 B / 20 ms)) = 1 ms; ACKs 1 ms apart
    /// keep the train going, and the first ACK more than (20 + 1)/2 = 10.5 ms after the round's
    /// start (at 111 ms) ends slow start. Below 16 segments nothing is detected.
    #[test]
    fn the_ack_train_ends_slow_start_after_half_the_minimum_rtt() {
        let mut h = LinuxHyStart::default();
        let ack = |h: &mut LinuxHyStart, t: u64, cwnd: u32| {
            h.on_ack(ms(t), true, (t, 1_000), (Some(d(20)), d(20)), (cwnd, MSS))
        };
        assert_eq!(ack(&mut h, 100, 20_000), None);
        for t in 101..=110 {
            assert_eq!(ack(&mut h, t, 20_000), None, "{t} ms");
        }
        assert_eq!(ack(&mut h, 111, 20_000), Some(LinuxExit::AckTrain));
        assert_eq!(h.found(), Some(LinuxExit::AckTrain));
        // A gap of more than 2 ms breaks the train; 15 segments are below the low window.
        let mut g = LinuxHyStart::default();
        assert_eq!(ack(&mut g, 100, 20_000), None);
        assert_eq!(ack(&mut g, 103, 20_000), None);
        assert_eq!(ack(&mut g, 112, 20_000), None, "the train broke at 103 ms");
        let mut small = LinuxHyStart::default();
        for t in 100..=130 {
            assert_eq!(ack(&mut small, t, 15_000), None);
        }
    }

    /// The delay rise: ACKs 5 ms apart (no train); with a minimum of 40 ms the threshold is
    /// clamp(5 ms, 4, 16) = 5 ms, so after the round's 8 samples a minimum of 46 ms ends slow
    /// start and one of 44 ms does not. A timeout starts it afresh and forgets the minimum RTT.
    #[test]
    fn a_delay_rise_over_the_minimum_ends_slow_start_and_a_timeout_rearms_it() {
        let run = |rtt: u64| {
            let mut h = LinuxHyStart::default();
            // The first ACK sets the minimum (40 ms) in a round of its own (SND.NXT 1).
            let first = h.on_ack(ms(0), true, (1, 1), (Some(d(40)), d(40)), (20_000, MSS));
            assert_eq!(first, None);
            let mut out = None;
            for i in 1..=9 {
                out = out.or(h.on_ack(
                    ms(5 * i),
                    true,
                    (1 + i, 100),
                    (Some(d(rtt)), d(40)),
                    (20_000, MSS),
                ));
            }
            (out, h)
        };
        assert_eq!(run(44).0, None);
        let (out, mut h) = run(46);
        assert_eq!(out, Some(LinuxExit::Delay));
        h.on_timeout();
        assert_eq!(h.found(), None);
        assert_eq!(h.delay_min, None);
    }
}
