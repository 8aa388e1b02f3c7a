//! Slow-start restart after idle (RFC 5681 §4.1; Linux `tcp_slow_start_after_idle`).
//!
//! RFC 5681 §4.1: "if the TCP has not sent data in an interval exceeding the retransmission
//! timeout", it SHOULD set cwnd to no more than the restart window `RW = min(IW, cwnd)` before
//! it sends again. Linux (net/ipv4/tcp_output.c `tcp_cwnd_restart`, called from
//! `tcp_slow_start_after_idle_check` in include/net/tcp.h when nothing is in flight and the
//! last data left more than `icsk_rto` ago) follows RFC 2861 §3 instead: ssthresh becomes
//! `max(ssthresh, 3/4·cwnd)` (`tcp_current_ssthresh`) and cwnd is halved once per RTO of idle
//! time beyond the first, never below RW. Controllers that pace and model the path (BBR) keep
//! their own idle handling, as Linux skips the check for a `cong_control` module.
//!
//! Deliberate deviation: windows are bytes, so Linux's halving of a packet count becomes a
//! halving of bytes (not rounded to whole segments).

use super::Sender;
use crate::cc::CongestionControl as _;
use crate::rto::RtoEstimator as _;
use crate::trace::SenderEvent;
use engine::{SimDuration, SimTime, TraceSink};

/// Which restart rule a sender applies after an idle period longer than the RTO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleRestart {
    /// RFC 5681 §4.1: cwnd = RW = min(IW, cwnd) bytes; ssthresh unchanged.
    Rfc5681 {
        /// The initial window IW in bytes.
        iw: u32,
    },
    /// Linux `tcp_cwnd_restart` (RFC 2861 §3): ssthresh = max(ssthresh, 3/4·cwnd), cwnd halved
    /// per RTO idle beyond the first, not below RW.
    Linux {
        /// The initial window IW in bytes.
        iw: u32,
    },
}

impl IdleRestart {
    /// The `(cwnd, ssthresh)` to restart with after `idle` without sending, or None when the
    /// idle time does not exceed `rto` (no restart).
    pub fn restart(
        self,
        cwnd: u32,
        ssthresh: u32,
        idle: SimDuration,
        rto: SimDuration,
    ) -> Option<(u32, u32)> {
        // RFC 5681 §4.1 / tcp_slow_start_after_idle_check: `delta > icsk_rto`.
        if idle <= rto {
            return None;
        }
        match self {
            IdleRestart::Rfc5681 { iw } => Some((cwnd.min(iw), ssthresh)),
            IdleRestart::Linux { iw } => {
                // tcp_current_ssthresh outside recovery: max(ssthresh, (cwnd>>1) + (cwnd>>2)).
                let ssthresh = ssthresh.max((cwnd >> 1) + (cwnd >> 2));
                let rw = iw.min(cwnd);
                let (mut w, mut delta) = (cwnd, idle.as_nanos());
                let rto = rto.as_nanos().max(1);
                // while ((delta -= icsk_rto) > 0 && cwnd > restart_cwnd) cwnd >>= 1;
                while delta > rto && w > rw {
                    delta -= rto;
                    w >>= 1;
                }
                Some((w.max(rw), ssthresh))
            }
        }
    }
}

impl Sender {
    /// Before sending: nothing in flight, data ready, and the last data left more than one RTO
    /// ago: restart from the restart window (RFC 5681 §4.1; Linux `tcp_cwnd_restart`).
    pub(super) fn idle_restart_check(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        let (Some(rule), Some(last)) = (self.cfg.idle_restart, self.last_sent) else {
            return;
        };
        // tcp_slow_start_after_idle_check: `packets_out` zero, no `cong_control` module (BBR).
        let ready = self.nxt < self.written.min(self.total);
        if self.max != self.una || !ready || self.rate.is_some() {
            return;
        }
        let idle = now.saturating_since(last);
        let (cwnd, ssthresh) = (self.parts.cc.cwnd(), self.parts.cc.ssthresh());
        if let Some((c, s)) = rule.restart(cwnd, ssthresh, idle, self.parts.rto.current()) {
            self.parts.cc.on_idle_restart(c, s);
            // The restart is done: a poll that sends nothing now does not restart again.
            self.last_sent = Some(now);
            self.sample_window(now, trace);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;
    const RTO: SimDuration = SimDuration::from_millis(300);

    #[test]
    fn no_restart_within_one_rto() {
        let r = IdleRestart::Rfc5681 { iw: 4 * MSS };
        assert_eq!(r.restart(40 * MSS, 20 * MSS, RTO, RTO), None);
        let l = IdleRestart::Linux { iw: 10 * MSS };
        assert_eq!(l.restart(40 * MSS, 20 * MSS, RTO, RTO), None);
    }

    /// RFC 5681 §4.1: RW = min(IW, cwnd), ssthresh untouched.
    #[test]
    fn rfc5681_restarts_at_the_restart_window() {
        let r = IdleRestart::Rfc5681 { iw: 4 * MSS };
        let just = RTO + SimDuration::from_nanos(1);
        assert_eq!(
            r.restart(40 * MSS, 20 * MSS, just, RTO),
            Some((4 * MSS, 20 * MSS))
        );
        // A window already below IW stays.
        assert_eq!(
            r.restart(3 * MSS, 2 * MSS, just, RTO),
            Some((3 * MSS, 2 * MSS))
        );
    }

    /// Linux: 80 segments, IW 10. Idle 1.5 RTO: one halving (40), ssthresh 3/4·80 = 60;
    /// idle 2.5 RTO: 20; 3.5 RTO: 10 = RW; 10 RTO: still RW.
    #[test]
    fn linux_halves_per_rto_down_to_the_restart_window() {
        let l = IdleRestart::Linux { iw: 10 * MSS };
        let idle = |tenths: u64| SimDuration::from_millis(30 * tenths);
        assert_eq!(
            l.restart(80 * MSS, 20 * MSS, idle(15), RTO),
            Some((40 * MSS, 60 * MSS))
        );
        assert_eq!(
            l.restart(80 * MSS, 20 * MSS, idle(25), RTO),
            Some((20 * MSS, 60 * MSS))
        );
        assert_eq!(
            l.restart(80 * MSS, 20 * MSS, idle(35), RTO),
            Some((10 * MSS, 60 * MSS))
        );
        assert_eq!(
            l.restart(80 * MSS, 20 * MSS, idle(100), RTO),
            Some((10 * MSS, 60 * MSS))
        );
        // Exactly two RTOs: delta - rto = rto > 0 → one halving, then delta - rto = 0 stops.
        assert_eq!(
            l.restart(80 * MSS, 90 * MSS, idle(20), RTO),
            Some((40 * MSS, 90 * MSS))
        );
    }
}
