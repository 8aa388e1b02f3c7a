//! ns-2.35's retransmission timer (`Agent/TCP`, `tcp/tcp.cc`; defaults from
//! `tcl/lib/ns-default.tcl`), the estimator of the simulator the LL-ELSN study ran.
//!
//! Everything the estimator keeps is counted in ticks of `tcpTick_` (10 ms by default,
//! ns-default.tcl:967), in ns-2's fixed point:
//! - an RTT sample is a whole number of ticks, at least one (tcp.cc:579-588): with the timestamp
//!   option the measured time rounded to the nearest tick (`int(tao / tcp_tick_ + 0.5)`),
//!   without it the tick boundaries of a clock with the agent's random `boot_time_` phase
//!   crossed between the send and the ACK (`int((tao + tickoff) / tcp_tick_)`, `tickoff` the
//!   send time's offset into its tick: the number of boundaries in (send, ack]);
//! - `t_srtt_` is kept scaled by 8 (`T_SRTT_BITS 3`) and `t_rttvar_` by 4 (`T_RTTVAR_BITS 2`);
//!   the first sample sets srtt = rtt, rttvar = rtt / 2; later ones add `delta = rtt - srtt` to
//!   the scaled srtt and `|delta| - rttvar` to the scaled rttvar, each floored at 1
//!   (tcp.cc:597-610; ns-default.tcl:977-978);
//! - `t_rtxcur_ = ((rttvar << (rttvar_exp_ + 1)) + srtt) >> 3` whole ticks, srtt + 4·rttvar
//!   truncated (`rttvar_exp_ 2`, tcp.cc:616-617, ns-default.tcl:979); before any sample it is
//!   `rtxcur_init_` (3 s, tcp.cc:536, ns-default.tcl:976);
//! - the timeout (`rtt_timeout`, rfc2988_ true, tcp.cc:543-549): `minrto_ · backoff` while
//!   `t_rtxcur_` is below `minrto_`, else `t_rtxcur_ · backoff`; at most `maxrto_` (:557-558);
//!   at least two ticks (:560-568);
//! - a timeout doubles `t_backoff_` while it is below 64 or the timeout below `maxrto_`
//!   (:624-625); past 8 the srtt is folded into rttvar and cleared (:629-637), so the next
//!   sample starts afresh; a sample ends the backoff (:1403-1414, the timed segment's ACK).
//!
//! The timer itself is not tick-aligned: ns-2 reschedules it `rtt_timeout()` seconds after it
//! is armed (`set_rtx_timer`, tcp.cc:992). Deliberate deviations: with timestamps ns-2
//! (`ts_resetRTO_ false`, ns-default.tcl:962) ends the backoff only on the timed segment's ACK
//! (tcp.cc:1396-1416), here every sample does ([`RtoEstimator::on_sample`]'s contract); ns-2
//! keeps `delta` in a `short` (tcp.cc:598), which would wrap past 32 767 ticks (327 s at 10 ms),
//! a round trip no link here reaches.

use super::{RtoEstimator, TickClock};
use engine::{SimDuration, SimTime};

/// Knobs of ns-2's timer; [`Ns2RtoConfig::ns2`] gives ns-2.35's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ns2RtoConfig {
    /// `tcpTick_` as the period, and the tick boundaries' phase (ns-2 draws `boot_time_`
    /// uniformly in one tick per agent, tcp.cc:481).
    pub clock: TickClock,
    /// `minrto_` (0.2 s, ns-default.tcl:971).
    pub min: SimDuration,
    /// `maxrto_` (60 s, ns-default.tcl:969).
    pub max: SimDuration,
    /// `rtxcur_init_`, the timeout before any sample (3 s, ns-default.tcl:976).
    pub initial: SimDuration,
    /// `timestamps_` (ns-default.tcl:961): samples rounded to the nearest tick instead of
    /// counted in tick boundaries.
    pub timestamps: bool,
}

impl Ns2RtoConfig {
    /// ns-2.35's defaults with the tick clock `clock` and the timestamp option `timestamps`.
    pub fn ns2(clock: TickClock, timestamps: bool) -> Self {
        Ns2RtoConfig {
            clock,
            min: SimDuration::from_millis(200),
            max: SimDuration::from_secs(60),
            initial: SimDuration::from_secs(3),
            timestamps,
        }
    }
}

/// `T_SRTT_BITS` (ns-default.tcl:977).
const SRTT_BITS: u32 = 3;
/// `T_RTTVAR_BITS` (ns-default.tcl:978).
const RTTVAR_BITS: u32 = 2;
/// `rttvar_exp_` (ns-default.tcl:979): the RTO is srtt + 2^2 · rttvar.
const RTTVAR_EXP: u32 = 2;
/// `rttvar_init_` 12 s (ns-default.tcl:975); `srtt_init_` is 0 (:974), so the first sample
/// overwrites it (tcp.cc:607-610) and it shows only in the state before any sample.
const RTTVAR_INIT: SimDuration = SimDuration(12_000_000_000);

/// ns-2's estimator, in integer ticks and nanoseconds.
#[derive(Clone, Debug)]
pub struct Ns2Rto {
    cfg: Ns2RtoConfig,
    /// `t_srtt_`: ticks scaled by 8 (0: no estimate).
    srtt: i64,
    /// `t_rttvar_`: ticks scaled by 4.
    rttvar: i64,
    /// `t_rtxcur_` in nanoseconds: whole ticks after a sample, `rtxcur_init_` before.
    rtxcur: u64,
    /// `t_backoff_`: 1, 2, 4, ...
    backoff: u64,
}

impl Ns2Rto {
    /// A fresh estimator (`rtt_init`, tcp.cc:531-538, `srtt_init_ 0`).
    pub fn new(cfg: Ns2RtoConfig) -> Self {
        let tick = cfg.clock.period.as_nanos().max(1);
        Ns2Rto {
            cfg,
            srtt: 0,
            rttvar: ((RTTVAR_INIT.as_nanos() / tick) as i64) << RTTVAR_BITS,
            rtxcur: cfg.initial.as_nanos(),
            backoff: 1,
        }
    }

    fn tick(&self) -> u64 {
        self.cfg.clock.period.as_nanos().max(1)
    }

    /// `t_rtt_` for a segment sent at `sent` and acknowledged at `acked` (tcp.cc:579-588).
    pub fn sample_ticks(&self, sent: SimTime, acked: SimTime) -> i64 {
        let ticks = if self.cfg.timestamps {
            // tcp.cc:580: int(tao / tcp_tick_ + 0.5).
            let tao = (acked - sent).as_nanos();
            (tao + self.tick() / 2) / self.tick()
        } else {
            // tcp.cc:582-585: the boundaries of the boot-time clock in (sent, acked].
            self.cfg.clock.ticks_between(sent, acked)
        };
        // tcp.cc:587-588.
        (ticks as i64).max(1)
    }

    /// The smoothed RTT in ticks scaled by 8 and the deviation in ticks scaled by 4
    /// (`t_srtt_`, `t_rttvar_`).
    pub fn scaled(&self) -> (i64, i64) {
        (self.srtt, self.rttvar)
    }

    /// `t_backoff_`.
    pub fn backoff(&self) -> u64 {
        self.backoff
    }

    /// `rtt_timeout()` (tcp.cc:540-572) with `use_rtt_` 0 (one-way TCP never sets it).
    fn timeout(&self) -> u64 {
        let min = self.cfg.min.as_nanos();
        // :546-549, RFC 2988's order: the floor before the backoff.
        let base = if self.rtxcur < min { min } else { self.rtxcur };
        let t = base.saturating_mul(self.backoff);
        // :557-558, then :560-568.
        t.min(self.cfg.max.as_nanos()).max(2 * self.tick())
    }
}

impl RtoEstimator for Ns2Rto {
    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        let rtt = self.sample_ticks(sent, acked);
        if self.srtt != 0 {
            // tcp.cc:599-606: a1 = 7/8 a0 + 1/8 m, var1 = 3/4 var0 + 1/4 |d|, in fixed point.
            let mut delta = rtt - (self.srtt >> SRTT_BITS);
            self.srtt += delta;
            if self.srtt <= 0 {
                self.srtt = 1;
            }
            delta = delta.abs() - (self.rttvar >> RTTVAR_BITS);
            self.rttvar += delta;
            if self.rttvar <= 0 {
                self.rttvar = 1;
            }
        } else {
            // tcp.cc:608-609.
            self.srtt = rtt << SRTT_BITS;
            self.rttvar = rtt << (RTTVAR_BITS - 1);
        }
        // tcp.cc:616-617: whole ticks of srtt + 4·rttvar.
        let ticks =
            ((self.rttvar << (RTTVAR_EXP + (SRTT_BITS - RTTVAR_BITS))) + self.srtt) >> SRTT_BITS;
        self.rtxcur = (ticks.max(0) as u64).saturating_mul(self.tick());
        // tcp.cc:1403-1414: the timed segment's ACK ends the backoff.
        self.backoff = 1;
    }

    fn on_timeout(&mut self) {
        // tcp.cc:624-625 (rfc2988_ true).
        if self.backoff < 64 || self.timeout() < self.cfg.max.as_nanos() {
            self.backoff = self.backoff.saturating_mul(2);
        }
        // tcp.cc:629-637.
        if self.backoff > 8 {
            self.rttvar += self.srtt >> SRTT_BITS;
            self.srtt = 0;
        }
    }

    fn deadline(&self, now: SimTime) -> SimTime {
        // tcp.cc:992: rtx_timer_.resched(rtt_timeout()), not tick-aligned.
        now + SimDuration(self.timeout())
    }

    fn current(&self) -> SimDuration {
        SimDuration(self.timeout())
    }

    fn backoff_shift(&self) -> u32 {
        self.backoff.trailing_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: SimDuration = SimDuration(10_000_000);

    fn ms(m: u64) -> SimTime {
        SimTime(m * 1_000_000)
    }

    fn us(u: u64) -> SimTime {
        SimTime(u * 1_000)
    }

    /// Ticks at 3, 13, 23, ... ms (ns-2's `boot_time_` 7 ms).
    fn rto(timestamps: bool) -> Ns2Rto {
        Ns2Rto::new(Ns2RtoConfig::ns2(
            TickClock {
                period: TICK,
                phase: SimDuration::from_millis(3),
            },
            timestamps,
        ))
    }

    #[test]
    fn before_any_sample_rtxcur_init_and_rttvar_init() {
        let r = rto(false);
        // rtt_init: t_srtt_ = int(0 / 0.01) << 3 = 0, t_rttvar_ = int(12 / 0.01) << 2 = 4800,
        // t_rtxcur_ = 3.0.
        assert_eq!(r.scaled(), (0, 4800));
        assert_eq!(r.current(), SimDuration::from_secs(3));
        assert_eq!(r.deadline(ms(5)), ms(3005));
    }

    #[test]
    fn samples_are_tick_boundaries_without_timestamps_and_rounded_with_them() {
        let plain = rto(false);
        let ts = rto(true);
        // 45 ms from 1 ms: boundaries at 3, 13, 23, 33, 43 ms: 5 ticks; 4.5 rounds to 5.
        assert_eq!(plain.sample_ticks(ms(1), ms(46)), 5);
        assert_eq!(ts.sample_ticks(ms(1), ms(46)), 5);
        // 45 ms from 4 ms: boundaries 13, 23, 33, 43: 4 ticks; the timestamp still rounds to 5.
        assert_eq!(plain.sample_ticks(ms(4), ms(49)), 4);
        assert_eq!(ts.sample_ticks(ms(4), ms(49)), 5);
        // 44.9 ms rounds down to 4 with timestamps.
        assert_eq!(ts.sample_ticks(ms(4), us(48_900)), 4);
        // Under one tick: crossing no boundary, or rounding to 0, still counts 1 (tcp.cc:587).
        assert_eq!(plain.sample_ticks(ms(4), ms(12)), 1);
        assert_eq!(ts.sample_ticks(ms(4), ms(6)), 1);
        // Ending exactly on a boundary counts it: (3, 13] holds 13.
        assert_eq!(plain.sample_ticks(ms(3), ms(13)), 1);
    }

    /// Hand-computed from tcp.cc:597-617 (T_SRTT_BITS 3, T_RTTVAR_BITS 2, rttvar_exp_ 2).
    #[test]
    fn srtt_rttvar_and_rto_in_ns2_fixed_point() {
        let mut r = rto(true);
        // 105 ms -> t_rtt 11 (10.5 rounds up): srtt = 88, rttvar = 22;
        // rtxcur = ((22 << 3) + 88) >> 3 = 264 >> 3 = 33 ticks = 330 ms.
        r.on_sample(ms(0), ms(105));
        assert_eq!(r.scaled(), (88, 22));
        assert_eq!(r.current(), SimDuration::from_millis(330));
        // 60 ms -> 6: delta = 6 - 11 = -5, srtt = 83; |delta| - (22 >> 2) = 5 - 5 = 0,
        // rttvar = 22; rtxcur = (176 + 83) >> 3 = 259 >> 3 = 32 ticks.
        r.on_sample(ms(1000), ms(1060));
        assert_eq!(r.scaled(), (83, 22));
        assert_eq!(r.current(), SimDuration::from_millis(320));
        // 200 ms -> 20: delta = 20 - 10 = 10, srtt = 93; 10 - 5 = 5, rttvar = 27;
        // rtxcur = (216 + 93) >> 3 = 309 >> 3 = 38 ticks.
        r.on_sample(ms(2000), ms(2200));
        assert_eq!(r.scaled(), (93, 27));
        assert_eq!(r.current(), SimDuration::from_millis(380));
    }

    #[test]
    fn a_steady_rtt_keeps_three_quarters_of_a_tick_of_deviation() {
        // A constant 250 ms (25 boundaries whatever the phase): rttvar decays by rttvar >> 2
        // per sample until 3 >> 2 = 0 stops it, so RTO = 25 + (3 << 3 >> 3) = 28 ticks, where
        // RFC 6298's continuous estimator tends to the RTT itself (plus its 1 ms clock).
        let mut r = rto(false);
        for i in 0..60 {
            r.on_sample(ms(1000 * i + 1), ms(1000 * i + 251));
        }
        assert_eq!(r.scaled(), (200, 3));
        assert_eq!(r.current(), SimDuration::from_millis(280));
    }

    #[test]
    fn the_minimum_comes_before_the_backoff_and_the_maximum_after() {
        let mut r = rto(true);
        // 45 ms -> 5 ticks (4.5 rounds up): srtt 40, rttvar 10, rtxcur (80 + 40) >> 3 = 15
        // ticks = 150 ms, below minrto_ 0.2: the timeout is 200 ms.
        r.on_sample(ms(0), ms(45));
        assert_eq!(r.current(), SimDuration::from_millis(200));
        // Backoff 2, 4: minrto_ · backoff (tcp.cc:547), not max(150 · backoff, 200).
        r.on_timeout();
        assert_eq!(
            (r.backoff(), r.current()),
            (2, SimDuration::from_millis(400))
        );
        r.on_timeout();
        assert_eq!(r.current(), SimDuration::from_millis(800));
        r.on_timeout();
        assert_eq!((r.backoff(), r.scaled()), (8, (40, 10)), "not past 8 yet");
        // Backoff 16: srtt folded into rttvar (10 + 40 >> 3 = 15) and cleared.
        r.on_timeout();
        assert_eq!((r.backoff(), r.scaled()), (16, (0, 15)));
        assert_eq!(r.current(), SimDuration::from_millis(3200));
        // 64 · 0.2 = 12.8 s, 128 · 0.2 = 25.6 s, 256 · 0.2 = 51.2 s, 512 · 0.2 clamped to 60 s;
        // then the timeout is no longer below maxrto_ and the backoff stops at 512.
        for _ in 0..10 {
            r.on_timeout();
        }
        assert_eq!((r.backoff(), r.backoff_shift()), (512, 9));
        assert_eq!(r.current(), SimDuration::from_secs(60));
        // The next sample starts afresh (srtt was cleared) and ends the backoff: 30 ms -> 3
        // ticks, srtt 24, rttvar 6, rtxcur (48 + 24) >> 3 = 9 ticks, under the minimum.
        r.on_sample(ms(100_000), ms(100_030));
        assert_eq!((r.backoff(), r.scaled()), (1, (24, 6)));
        assert_eq!(r.current(), SimDuration::from_millis(200));
    }

    #[test]
    fn never_below_two_ticks() {
        // tcp.cc:560-568 with a 1 s tick: a 100 ms rtxcur_init_ and a 500 ms minrto_ give 2 s.
        let mut r = Ns2Rto::new(Ns2RtoConfig {
            clock: TickClock {
                period: SimDuration::from_secs(1),
                phase: SimDuration(0),
            },
            min: SimDuration::from_millis(500),
            max: SimDuration::from_secs(60),
            initial: SimDuration::from_millis(100),
            timestamps: true,
        });
        assert_eq!(
            r.current(),
            SimDuration::from_secs(2),
            "rtxcur_init_ below 2 ticks"
        );
        r.on_sample(ms(0), ms(10));
        // 1 tick: srtt 8, rttvar 2, rtxcur (16 + 8) >> 3 = 3 ticks = 3 s.
        assert_eq!(r.current(), SimDuration::from_secs(3));
    }
}
