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
//! Not modelled: the late third duplicate ACK rule of §3.1.2 (Q3 of the spec), and the RTO
//! adaptation of RFC 4015 §3.2 (6).

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
        pipe_prev: u32,
        cause: RetransmitCause,
    },
}

/// The Eifel detector and response.
#[derive(Clone, Debug)]
pub struct Eifel {
    response: EifelResponse,
    state: State,
    /// Retransmissions of the oldest outstanding segment (t_rxtshift, counting fast retransmits).
    rxtshift: u32,
}

impl Eifel {
    /// A detector with the given response.
    pub fn new(response: EifelResponse) -> Self {
        Eifel {
            response,
            state: State::Idle,
            rxtshift: 0,
        }
    }

    /// The oldest outstanding segment is being retransmitted with TSval `tsval`; `cwnd`,
    /// `ssthresh` and `flight` are the values before the congestion response.
    pub fn on_retransmit_oldest(
        &mut self,
        cause: RetransmitCause,
        tsval: u32,
        cwnd: u32,
        ssthresh: u32,
        flight: u32,
    ) {
        self.rxtshift += 1;
        if self.state == State::Idle {
            self.state = State::Armed {
                ts_first_rexmit: tsval,
                saved_cwnd: cwnd,
                saved_ssthresh: ssthresh,
                pipe_prev: flight.max(ssthresh),
                cause,
            };
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

    #[test]
    fn older_echo_is_spurious_and_restores() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(RetransmitCause::Timeout, 500, 18 * 460, 65535, 18 * 460);
        let u = e.on_new_ack(Some(430), 9 * 460, 0, 460, 460).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (18 * 460, 65535));
        assert_eq!(u.cause, RetransmitCause::Timeout);
        // The episode is over: the next ACK judges nothing.
        assert_eq!(e.on_new_ack(Some(1), 0, 0, 0, 460), None);
    }

    #[test]
    fn equal_or_newer_echo_is_genuine() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(RetransmitCause::FastRetransmit, 500, 8000, 65535, 8000);
        assert_eq!(e.on_new_ack(Some(500), 4000, 0, 1400, 1400), None);
        e.on_retransmit_oldest(RetransmitCause::FastRetransmit, 600, 8000, 65535, 8000);
        assert_eq!(e.on_new_ack(Some(601), 4000, 0, 1400, 1400), None);
    }

    #[test]
    fn more_retransmissions_make_the_sender_more_conservative() {
        let mut e = Eifel::new(EifelResponse::Dissertation);
        e.on_retransmit_oldest(RetransmitCause::Timeout, 500, 8000, 65535, 8000);
        e.on_retransmit_oldest(RetransmitCause::Timeout, 900, 1400, 4200, 8000);
        let u = e.on_new_ack(Some(100), 2800, 0, 1400, 1400).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (2800, 2800));
        for t in [500, 900, 1300] {
            e.on_retransmit_oldest(RetransmitCause::Timeout, t, 8000, 65535, 8000);
        }
        let u = e.on_new_ack(Some(100), 2800, 0, 1400, 1400).unwrap();
        assert_eq!((u.cwnd, u.ssthresh), (1400, 2800));
    }

    #[test]
    fn rfc4015_restores_ssthresh_and_limits_the_burst() {
        let mut e = Eifel::new(EifelResponse::Rfc4015);
        e.on_retransmit_oldest(RetransmitCause::Timeout, 500, 20_000, 30_000, 18_000);
        let u = e.on_new_ack(Some(400), 9000, 5000, 14_000, 1400).unwrap();
        assert_eq!(u.ssthresh, 30_000);
        assert_eq!(u.cwnd, 5000 + 4380);
    }
}
