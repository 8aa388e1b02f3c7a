//! The Eifel algorithm (Ludwig2000 §3.1; RFC 3522 detection, RFC 4015 response): a spurious-
//! retransmission detector with its undo, as one sender part.
//!
//! Detection (Ludwig2000 §3.1.1, RFC 3522 §3.2): at the first retransmission of an episode (by
//! timeout or fast retransmit) the sender stores the TSval it writes into it, together with
//! cwnd and ssthresh before the reduction. The first ACK that acknowledges the retransmitted
//! segment echoes a TSval; if that echo is strictly older than the stored one, the ACK was
//! sent for the original transmission and the retransmission was spurious. Equal values count
//! as not spurious.
//!
//! Response, two modes:
//! - [`EifelResponse::Dissertation`] (Ludwig2000 §3.1.2): with one retransmission of the oldest
//!   segment so far, restore cwnd and ssthresh; with exactly two, keep the halved ssthresh and
//!   set cwnd to it; with more, cwnd is one segment. In all cases resume with the next unsent
//!   segment (no go-back-N). Fast retransmits count as retransmissions (§3.1.1 footnote).
//! - [`EifelResponse::Rfc4015`]: ssthresh back to `pipe_prev = max(FlightSize, ssthresh)` taken at
//!   the retransmission, cwnd to `FlightSize + min(bytes_acked, IW)` (§3.2 steps 3-5), which
//!   avoids the burst the dissertation's restore causes (Fig 5-6); also resume with the next
//!   unsent segment after a spurious timeout.
//!
//! Late third duplicate ACK (Ludwig2000 §3.1.2, §5.4.5; spec §9 Q3): when the duplicate ACK
//! that would trigger a fast retransmit of the oldest outstanding segment arrives after a
//! timeout of the same episode has already retransmitted that segment, Eifel suppresses the
//! fast retransmit and sets the window per [`LateDupack`] (see there for the two readings of Q3
//! and for what "third" means here). RFC 3522/4015 have no such rule, so with
//! [`EifelResponse::Rfc4015`] it is off unless asked for.
//!
//! Not modelled: the RTO adaptation of RFC 4015 §3.2 (6).

mod frto;

pub use frto::{Frto, FrtoAction, FrtoUndo};

/// How the sender responds to a detected spurious retransmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EifelResponse {
    /// Ludwig2000 §3.1.2: restore cwnd and ssthresh.
    Dissertation,
    /// RFC 4015: restore ssthresh, set cwnd to the flight plus at most one initial window.
    Rfc4015,
}

/// What triggered the retransmission being judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetransmitCause {
    /// The retransmission timer.
    Timeout,
    /// The duplicate-ACK threshold.
    FastRetransmit,
}

/// What Eifel does with a late third duplicate ACK (Ludwig2000 §3.1.2 "Late 3rd DUPACK after a
/// timeout", §5.4.5; spec §9 Q3).
///
/// The rule fires on the duplicate ACK on which the sender's recovery part asks for a fast
/// retransmit of the oldest outstanding segment while a timeout of the current episode has
/// already retransmitted that segment. The sender counts duplicates as 4.4BSD does: the timeout
/// resets `t_dupacks` (`tcp_timer.c`, TCPT_REXMT), so "third" is the third duplicate after the
/// timeout, exactly the one on which an unmodified BSD sender would fast-retransmit. That is the
/// "competition between timeout-based and DUPACK-based error recovery" the rule avoids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LateDupack {
    /// Q3 reading (a), the default with the dissertation's response: suppress the fast
    /// retransmit, undo the timeout's cwnd = 1 MSS and set the fast-retransmit state instead:
    /// ssthresh as halved at the episode's first retransmission (from the saved pre-timeout
    /// window), cwnd = ssthresh. A real loss keeps its congestion response.
    #[default]
    Halve,
    /// Q3 reading (b), §5.4.5 taken literally ("restores the slow start threshold and the
    /// congestion window as if the timeout had not occurred"): suppress the fast retransmit and
    /// restore the saved pre-timeout cwnd and ssthresh.
    Restore,
    /// No rule (plain BSD): the fast retransmit goes ahead, resends the segment a second time
    /// and halves again from the timeout's window (ssthresh = 2 MSS, cwnd = ssthresh + 3 MSS).
    Off,
}

/// A retransmission of the oldest outstanding segment, as the sender saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retransmission {
    /// What triggered it.
    pub cause: RetransmitCause,
    /// The TSval written into it.
    pub tsval: u32,
    /// Congestion window before the congestion response.
    pub cwnd: u32,
    /// Slow-start threshold before the congestion response.
    pub ssthresh: u32,
    /// Slow-start threshold after the congestion response (the halving).
    pub halved_ssthresh: u32,
    /// Bytes in flight.
    pub flight: u32,
}

/// The window the sender sets instead of a suppressed fast retransmit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateDupackWindow {
    /// New congestion window.
    pub cwnd: u32,
    /// New slow-start threshold.
    pub ssthresh: u32,
}

/// The undo the sender applies after a spurious retransmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// New congestion window.
    pub cwnd: u32,
    /// New slow-start threshold.
    pub ssthresh: u32,
    /// What the spurious retransmission was.
    pub cause: RetransmitCause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    /// An episode is being judged.
    Armed {
        ts_first_rexmit: u32,
        saved_cwnd: u32,
        saved_ssthresh: u32,
        /// ssthresh right after the first retransmission's congestion response.
        halved_ssthresh: u32,
        pipe_prev: u32,
        cause: RetransmitCause,
        /// Timeouts that retransmitted the oldest segment in this episode.
        timeouts: u32,
    },
}

/// The Eifel detector and response.
#[derive(Clone, Debug)]
pub struct Eifel {
    response: EifelResponse,
    late_dupack: LateDupack,
    state: State,
    /// Retransmissions of the oldest outstanding segment (t_rxtshift, counting fast retransmits).
    rxtshift: u32,
}

impl Eifel {
    /// A detector with the given response. The late-duplicate-ACK rule is
    /// [`LateDupack::Halve`] with the dissertation's response (its default reading of Q3) and
    /// [`LateDupack::Off`] with RFC 4015's (which has no such rule).
    pub fn new(response: EifelResponse) -> Self {
        Eifel {
            response,
            late_dupack: match response {
                EifelResponse::Dissertation => LateDupack::Halve,
                EifelResponse::Rfc4015 => LateDupack::Off,
            },
            state: State::Idle,
            rxtshift: 0,
        }
    }

    /// The same detector with the late-duplicate-ACK rule `policy`.
    pub fn with_late_dupack(mut self, policy: LateDupack) -> Self {
        self.late_dupack = policy;
        self
    }

    /// The late-duplicate-ACK rule in force.
    pub fn late_dupack(&self) -> LateDupack {
        self.late_dupack
    }

    /// The oldest outstanding segment was retransmitted (call after the congestion response,
    /// so that `r.halved_ssthresh` is known). The first retransmission of an episode arms the
    /// detector and saves the window (Ludwig2000 §3.1.2 "At the first retransmission").
    pub fn on_retransmit_oldest(&mut self, r: Retransmission) {
        self.rxtshift += 1;
        let timeout = u32::from(r.cause == RetransmitCause::Timeout);
        match &mut self.state {
            State::Idle => {
                self.state = State::Armed {
                    ts_first_rexmit: r.tsval,
                    saved_cwnd: r.cwnd,
                    saved_ssthresh: r.ssthresh,
                    halved_ssthresh: r.halved_ssthresh,
                    pipe_prev: r.flight.max(r.ssthresh),
                    cause: r.cause,
                    timeouts: timeout,
                };
            }
            State::Armed { timeouts, .. } => *timeouts += timeout,
        }
    }

    /// The recovery part asks for a fast retransmit of the oldest outstanding segment. If a
    /// timeout of this episode has already retransmitted it and the rule is on, Eifel
    /// suppresses the fast retransmit (no retransmission, no second reduction) and returns the
    /// window to set instead (Ludwig2000 §3.1.2, §5.4.5; spec §9 Q3). `None`: let it happen.
    ///
    /// A suppressed fast retransmit sends nothing, so it does not count in `t_rxtshift` (the
    /// spec's pseudo-code §3.1.4 increments before it suppresses; then a timeout later found
    /// spurious would be answered by halving instead of restoring, for one retransmission).
    pub fn suppress_fast_retransmit(&self) -> Option<LateDupackWindow> {
        let State::Armed {
            saved_cwnd,
            saved_ssthresh,
            halved_ssthresh,
            timeouts,
            ..
        } = self.state
        else {
            return None;
        };
        if timeouts == 0 {
            return None;
        }
        match self.late_dupack {
            // Q3 (a): the fast-retransmit state the timeout pre-empted, after its recovery.
            LateDupack::Halve => Some(LateDupackWindow {
                cwnd: halved_ssthresh,
                ssthresh: halved_ssthresh,
            }),
            // Q3 (b): "as if the timeout had not occurred", literally.
            LateDupack::Restore => Some(LateDupackWindow {
                cwnd: saved_cwnd,
                ssthresh: saved_ssthresh,
            }),
            LateDupack::Off => None,
        }
    }

    /// The first ACK of new data after the retransmission arrived, echoing `tsecr` (None when
    /// it carried no timestamp). `ssthresh_now`, `flight` and `acked` describe the sender after
    /// the ACK; `mss` is the segment size. Returns the undo if the retransmission was spurious.
    pub fn on_new_ack(
        &mut self,
        tsecr: Option<u32>,
        ssthresh_now: u32,
        flight: u32,
        acked: u32,
        mss: u32,
    ) -> Option<Undo> {
        let shift = std::mem::take(&mut self.rxtshift);
        let State::Armed {
            ts_first_rexmit,
            saved_cwnd,
            saved_ssthresh,
            pipe_prev,
            cause,
            ..
        } = std::mem::replace(&mut self.state, State::Idle)
        else {
            return None;
        };
        // RFC 3522 §3.2: strictly older echo ⇒ the ACK was for the original transmission.
        let tsecr = tsecr?;
        if tsecr >= ts_first_rexmit || tsecr == 0 {
            return None;
        }
        let (cwnd, ssthresh) = match self.response {
            EifelResponse::Dissertation => match shift {
                0 | 1 => (saved_cwnd, saved_ssthresh),
                2 => (ssthresh_now, ssthresh_now),
                _ => (mss, ssthresh_now),
            },
            EifelResponse::Rfc4015 => {
                // RFC 3390 initial window.
                let iw = (4 * mss).min((2 * mss).max(4380));
                (flight + acked.min(iw), pipe_prev)
            }
        };
        Some(Undo {
            cwnd,
            ssthresh,
            cause,
        })
    }

    /// Forget the episode (e.g. the detector cannot judge it).
    pub fn reset(&mut self) {
        self.state = State::Idle;
        self.rxtshift = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A retransmission whose congestion response halved `cwnd`.
    fn rx(
        cause: RetransmitCause,
        tsval: u32,
        cwnd: u32,
        ssthresh: u32,
        flight: u32,
    ) -> Retransmission {
        Retransmission {
            cause,
            tsval,
            cwnd,
            ssthresh,
            halved_ssthresh: cwnd / 2,
            flight,
        }
    }

    #[test]
    fn older_echo_is_spurious_and_restores() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 500, 18 * 460, 65535, 18 * 460));
        let u = e.on_new_ack(Some(430), 9 * 460, 0, 460, 460).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (18 * 460, 65535));
        assert_eq!(u.cause, RetransmitCause::Timeout);
        // The episode is over: the next ACK judges nothing.
        assert_eq!(e.on_new_ack(Some(1), 0, 0, 0, 460), None);
    }

    #[test]
    fn equal_or_newer_echo_is_genuine() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(rx(RetransmitCause::FastRetransmit, 500, 8000, 65535, 8000));
        assert_eq!(e.on_new_ack(Some(500), 4000, 0, 1400, 1400), None);
        e.on_retransmit_oldest(rx(RetransmitCause::FastRetransmit, 600, 8000, 65535, 8000));
        assert_eq!(e.on_new_ack(Some(601), 4000, 0, 1400, 1400), None);
    }

    #[test]
    fn more_retransmissions_make_the_sender_more_conservative() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 500, 8000, 65535, 8000));
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 900, 1400, 4200, 8000));
        let u = e.on_new_ack(Some(100), 2800, 0, 1400, 1400).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (2800, 2800));
        for t in [500, 900, 1300] {
            e.on_retransmit_oldest(rx(RetransmitCause::Timeout, t, 8000, 65535, 8000));
        }
        let u = e.on_new_ack(Some(100), 2800, 0, 1400, 1400).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (1400, 2800));
    }

    #[test]
    fn rfc4015_restores_ssthresh_and_limits_the_burst() {
        let mut e = Eifel::new(EifelResponse::Rfc4015);
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 500, 20_000, 30_000, 18_000));
        let u = e.on_new_ack(Some(400), 9000, 5000, 14_000, 1400).unwrap();
        assert_eq!(u.ssthresh, 30_000);
        assert_eq!(u.cwnd, 5000 + 4380);
    }

    /// Ludwig2000 §3.1.2 / Q3: after a timeout of 18 segments (ssthresh halved to 9), the
    /// late third duplicate ACK is suppressed; the window depends on the reading.
    #[test]
    fn late_third_dupack_after_a_timeout_is_suppressed_per_policy() {
        let (mss, saved) = (460, 18 * 460);
        let timeout = Retransmission {
            halved_ssthresh: 9 * mss,
            ..rx(RetransmitCause::Timeout, 100, saved, 65535, saved)
        };
        let window = |policy| {
            let mut e = Eifel::new(EifelResponse::Dissertation).with_late_dupack(policy);
            e.on_retransmit_oldest(timeout);
            e.suppress_fast_retransmit()
        };
        assert_eq!(
            window(LateDupack::Halve),
            Some(LateDupackWindow {
                cwnd: 9 * mss,
                ssthresh: 9 * mss
            })
        );
        assert_eq!(
            window(LateDupack::Restore),
            Some(LateDupackWindow {
                cwnd: saved,
                ssthresh: 65535
            })
        );
        assert_eq!(
            window(LateDupack::Off),
            None,
            "plain BSD: the fast retransmit goes"
        );
    }

    #[test]
    fn no_suppression_without_a_timeout_in_the_episode() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        // Idle: an ordinary fast retransmit.
        assert_eq!(e.suppress_fast_retransmit(), None);
        // An episode opened by a fast retransmit has no timeout to compete with.
        e.on_retransmit_oldest(rx(RetransmitCause::FastRetransmit, 100, 8000, 65535, 8000));
        assert_eq!(e.suppress_fast_retransmit(), None);
        // A timeout after it (the fast retransmission was lost too) does.
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 300, 1400, 4000, 8000));
        assert_eq!(
            e.suppress_fast_retransmit(),
            Some(LateDupackWindow {
                cwnd: 4000,
                ssthresh: 4000
            }),
            "the episode's first halving, not the timeout's"
        );
        // The next ACK of new data ends the episode.
        assert_eq!(e.on_new_ack(Some(300), 2800, 0, 1400, 1400), None);
        assert_eq!(e.suppress_fast_retransmit(), None);
    }

    #[test]
    fn backed_off_timeouts_keep_the_first_halving() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(Retransmission {
            halved_ssthresh: 5000,
            ..rx(RetransmitCause::Timeout, 100, 10_000, 65535, 10_000)
        });
        // The second timeout halves from cwnd = 1 MSS: ssthresh 2 MSS.
        e.on_retransmit_oldest(Retransmission {
            halved_ssthresh: 2800,
            ..rx(RetransmitCause::Timeout, 300, 1400, 5000, 10_000)
        });
        let w = e.suppress_fast_retransmit().unwrap();
        assert_eq!((w.cwnd, w.ssthresh), (5000, 5000));
        let e = e.with_late_dupack(LateDupack::Restore);
        let w = e.suppress_fast_retransmit().unwrap();
        assert_eq!((w.cwnd, w.ssthresh), (10_000, 65535));
    }

    #[test]
    fn the_rule_defaults_follow_the_response() {
        assert_eq!(
            Eifel::new(EifelResponse::Dissertation).late_dupack(),
            LateDupack::Halve
        );
        assert_eq!(
            Eifel::new(EifelResponse::Rfc4015).late_dupack(),
            LateDupack::Off
        );
        let mut e = Eifel::new(EifelResponse::Rfc4015);
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 100, 8000, 65535, 8000));
        assert_eq!(e.suppress_fast_retransmit(), None);
        let e = e.with_late_dupack(LateDupack::Halve);
        assert!(e.suppress_fast_retransmit().is_some());
    }

    #[test]
    fn a_suppressed_fast_retransmit_is_no_retransmission() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(rx(RetransmitCause::Timeout, 500, 8000, 65535, 8000));
        assert!(e.suppress_fast_retransmit().is_some());
        // The timeout turns out spurious after all: one retransmission, full restore.
        let u = e.on_new_ack(Some(400), 4000, 8000, 1400, 1400).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (8000, 65535));
        assert_eq!(u.cause, RetransmitCause::Timeout);
    }
}
