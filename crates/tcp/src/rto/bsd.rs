//! The 4.4BSD-Lite / Net/3 retransmission timer (Balakrishnan97 §2.1, §7.4; behaviour as
//! documented for Net/3 in Stevens & Wright, TCP/IP Illustrated Vol. 2, ch. 25).
//!
//! Everything is counted in ticks of the 500 ms slow timer, whose phase relative to the
//! connection is arbitrary (we draw it per host):
//! - an RTT sample is the number of slow ticks that passed while the segment was timed, plus one;
//! - `srtt` is kept scaled by 8 and `rttvar` scaled by 4, both in ticks; the first sample sets
//!   `srtt = rtt`, `rttvar = rtt / 2`; later ones use gains 1/8 and 1/4 with the "origin 0"
//!   adjustment (`rtt - 1`);
//! - RTO = srtt + 4·rttvar, multiplied by the backoff table {1,2,4,8,16,32,64,64,...} and clamped
//!   to [2 ticks (1 s), 128 ticks (64 s)];
//! - after more than 3 backoffs the estimate is discarded (rttvar += srtt, srtt = 0);
//! - a timer armed with n ticks fires at the n-th tick boundary after it was armed.

use super::RtoEstimator;
use engine::{SimDuration, SimTime};

/// A periodic tick clock with a phase: boundaries at `phase + k·period`, k ≥ 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickClock {
    /// Tick period.
    pub period: SimDuration,
    /// Time of the first tick; must be below `period`.
    pub phase: SimDuration,
}

impl TickClock {
    /// Number of tick boundaries at or before `t`.
    pub fn ticks_through(&self, t: SimTime) -> u64 {
        let (t, p, per) = (
            t.as_nanos(),
            self.phase.as_nanos(),
            self.period.as_nanos().max(1),
        );
        if t < p {
            0
        } else {
            (t - p) / per + 1
        }
    }
    /// Number of tick boundaries in the half-open interval (a, b].
    pub fn ticks_between(&self, a: SimTime, b: SimTime) -> u64 {
        self.ticks_through(b).saturating_sub(self.ticks_through(a))
    }
    /// Time of the n-th tick boundary strictly after `now` (n ≥ 1).
    pub fn nth_after(&self, now: SimTime, n: u64) -> SimTime {
        let k = self.ticks_through(now) + n.max(1) - 1;
        SimTime(
            self.phase
                .as_nanos()
                .saturating_add(k.saturating_mul(self.period.as_nanos())),
        )
    }
}

/// Knobs of the Net/3 timer, BSD values by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BsdRtoConfig {
    /// The slow timer (500 ms, PR_SLOWHZ = 2) and its phase.
    pub clock: TickClock,
    /// TCPTV_MIN in ticks (2 = 1 s).
    pub min_ticks: u32,
    /// TCPTV_REXMTMAX in ticks (128 = 64 s).
    pub max_ticks: u32,
    /// RTO before the first sample, in ticks (Net/3: 12 ticks = 6 s).
    pub initial_ticks: u32,
}

/// Net/3 backoff multipliers (tcp_backoff[]).
const BACKOFF: [u32; 13] = [1, 2, 4, 8, 16, 32, 64, 64, 64, 64, 64, 64, 64];
/// TCP_MAXRXTSHIFT.
const MAX_SHIFT: u32 = 12;

/// The Net/3 coarse-grained estimator.
#[derive(Clone, Debug)]
pub struct BsdRto {
    cfg: BsdRtoConfig,
    /// Smoothed RTT in ticks, scaled by 8 (0 = no estimate).
    srtt: i64,
    /// Mean deviation in ticks, scaled by 4.
    rttvar: i64,
    shift: u32,
    /// t_rxtcur: the current timeout in ticks, backoff included.
    rxtcur: u32,
}

impl BsdRto {
    /// A fresh estimator, before any sample.
    pub fn new(cfg: BsdRtoConfig) -> Self {
        let rxtcur = cfg.initial_ticks.clamp(cfg.min_ticks, cfg.max_ticks);
        BsdRto {
            cfg,
            srtt: 0,
            rttvar: 0,
            shift: 0,
            rxtcur,
        }
    }

    /// TCP_REXMTVAL: srtt + 4·rttvar in ticks (unscaled).
    fn rexmtval(&self) -> i64 {
        (self.srtt >> 3) + self.rttvar
    }

    fn rangeset(&self, ticks: i64) -> u32 {
        ticks.clamp(i64::from(self.cfg.min_ticks), i64::from(self.cfg.max_ticks)) as u32
    }

    /// The current timeout in ticks (t_rxtcur).
    pub fn rxtcur_ticks(&self) -> u32 {
        self.rxtcur
    }
}

impl RtoEstimator for BsdRto {
    fn srtt_ticks(&self) -> u32 {
        // srtt is scaled by 8; 0 before any sample.
        (self.srtt.max(0) >> 3) as u32
    }

    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        // t_rtt starts at 1 when the segment is sent and counts slow ticks.
        let rtt = 1 + self.cfg.clock.ticks_between(sent, acked) as i64;
        if self.srtt != 0 {
            // Net/3 tcp_xmit_timer: "adjust rtt to origin 0".
            let mut delta = rtt - 1 - (self.srtt >> 3);
            self.srtt += delta;
            if self.srtt <= 0 {
                self.srtt = 1;
            }
            if delta < 0 {
                delta = -delta;
            }
            delta -= self.rttvar >> 2;
            self.rttvar += delta;
            if self.rttvar <= 0 {
                self.rttvar = 1;
            }
        } else {
            self.srtt = rtt << 3;
            self.rttvar = rtt << 1;
        }
        self.shift = 0;
        self.rxtcur = self.rangeset(self.rexmtval());
    }

    fn on_timeout(&mut self) {
        self.shift = (self.shift + 1).min(MAX_SHIFT);
        if self.shift > MAX_SHIFT / 4 {
            // Net/3: after several backoffs the estimate is probably wrong; keep only variance.
            self.rttvar += self.srtt >> 3;
            self.srtt = 0;
        }
        let base = if self.srtt == 0 && self.rttvar == 0 {
            i64::from(self.cfg.initial_ticks)
        } else {
            self.rexmtval()
        };
        self.rxtcur = self.rangeset(base * i64::from(BACKOFF[self.shift as usize]));
    }

    fn deadline(&self, now: SimTime) -> SimTime {
        self.cfg.clock.nth_after(now, u64::from(self.rxtcur))
    }

    /// On the heartbeat: REXMT = RTO − age in ticks; if nothing is left, the next tick.
    fn deadline_for(&self, sent: SimTime, now: SimTime) -> SimTime {
        let at = self.cfg.clock.nth_after(sent, u64::from(self.rxtcur));
        if at > now {
            at
        } else {
            self.cfg.clock.nth_after(now, 1)
        }
    }

    fn current(&self) -> SimDuration {
        self.cfg.clock.period.saturating_mul(u64::from(self.rxtcur))
    }

    fn backoff_shift(&self) -> u32 {
        self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> BsdRtoConfig {
        BsdRtoConfig {
            clock: TickClock {
                period: SimDuration::from_millis(500),
                phase: SimDuration::from_millis(100),
            },
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        }
    }

    #[test]
    fn the_precise_deadline_subtracts_the_age_and_never_lies_in_the_past() {
        let r = BsdRto::new(cfg());
        // initial_ticks = 12: 12 ticks after a send at 300 ms (ticks at 100 + k·500 ms).
        let ms = |m: u64| SimTime(m * 1_000_000);
        assert_eq!(r.deadline_for(ms(300), ms(700)), ms(6100));
        assert_eq!(r.deadline(ms(700)), ms(6600), "restart: from the re-arm");
        // Older than the RTO: the next tick after now.
        assert_eq!(r.deadline_for(ms(300), ms(7000)), ms(7100));
    }

    #[test]
    fn tick_clock_counts_boundaries() {
        let c = cfg().clock;
        let ms = |m: u64| SimTime(m * 1_000_000);
        assert_eq!(c.ticks_between(ms(0), ms(99)), 0);
        assert_eq!(c.ticks_between(ms(0), ms(100)), 1);
        assert_eq!(c.ticks_between(ms(100), ms(600)), 1);
        assert_eq!(c.nth_after(ms(100), 1), ms(600));
        assert_eq!(c.nth_after(ms(0), 3), ms(1100));
    }

    #[test]
    fn lan_rtt_gives_one_and_a_half_second_rto() {
        // A 10 ms RTT that crosses no tick gives t_rtt = 1: srtt = 8 (1 tick), rttvar = 2.
        let mut r = BsdRto::new(cfg());
        let ms = |m: u64| SimTime(m * 1_000_000);
        r.on_sample(ms(200), ms(210));
        assert_eq!(r.rxtcur_ticks(), 3);
        // Many more 1-tick samples: srtt decays to 7 (0 ticks), rttvar to 3 → still 3 ticks
        // (REXMTVAL = 0 + 3), i.e. 1.0-1.5 s after arming, the well-known BSD LAN behaviour.
        for i in 0..50 {
            r.on_sample(ms(1000 * i + 200), ms(1000 * i + 210));
        }
        assert_eq!(r.rxtcur_ticks(), 3);
        // Armed at 210 ms: ticks at 600, 1100, 1600 → fires at 1.6 s.
        assert_eq!(r.deadline(ms(210)), ms(1600));
    }

    #[test]
    fn backoff_doubles_then_forgets_srtt() {
        let ms = |m: u64| SimTime(m * 1_000_000);
        let mut r = BsdRto::new(cfg());
        r.on_sample(ms(200), ms(210));
        let base = r.rxtcur_ticks();
        r.on_timeout();
        assert_eq!(r.rxtcur_ticks(), base * 2);
        r.on_timeout();
        assert_eq!(r.rxtcur_ticks(), base * 4);
        for _ in 0..20 {
            r.on_timeout();
        }
        assert_eq!(r.rxtcur_ticks(), 128, "clamped at 64 s");
        assert_eq!(r.backoff_shift(), 12);
        r.on_sample(ms(100_000), ms(100_010));
        assert_eq!(r.backoff_shift(), 0);
    }
}
