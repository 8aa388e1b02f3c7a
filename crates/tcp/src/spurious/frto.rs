//! F-RTO (RFC 5682 §2.1, the basic algorithm): a spurious-timeout detector that needs no TCP
//! option, beside Eifel (which needs timestamps). After a retransmission timeout the sender
//! resends only the first unacknowledged segment and watches the next two ACKs:
//!
//! 1. On the timeout (not already in a timeout's recovery with `recover >= snd_una`, RFC 5682
//!    step 1) the detector stores `recover = snd_max` and waits.
//! 2. First ACK: a duplicate, an ACK that covers `recover` (nothing new can be learnt) or one
//!    that does not acknowledge the retransmitted segment means conventional recovery
//!    (go-back-N in slow start, step 2a). An ACK that advances `snd_una` below `recover` lets
//!    the sender send up to two new, never-sent segments instead of retransmitting (step 2b);
//!    without new data to send it is conventional recovery too.
//! 3. Second ACK: a duplicate means the timeout was genuine: conventional recovery, cwnd at
//!    most 3 segments (step 3a; slow start after the timeout leaves it at 2). An ACK that
//!    advances `snd_una` acknowledges segments that were never retransmitted: the timeout was
//!    spurious (step 3b).
//!
//! The response to a spurious timeout is RFC 4015's, as RFC 5682 §1 recommends: ssthresh back
//! to `pipe_prev = max(FlightSize, ssthresh)` taken at the timeout, cwnd = FlightSize +
//! min(bytes acknowledged, IW), and sending continues with new data.
//!
//! Deliberate deviations (docs/modern.md): the SACK-enhanced variant (§3) is not built; F-RTO
//! starts only on a timeout in the open state (not during a fast recovery, as Linux), and the
//! RTO is not adapted after a spurious timeout (RFC 4015 §3.2 (6), as for Eifel).

/// Where F-RTO stands after a timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// No timeout being judged.
    #[default]
    Idle,
    /// Step 2: waiting for the first ACK after the retransmission of `[una, una + len)`.
    First { recover: u64, una: u64, len: u64 },
    /// Step 3: new data went out; waiting for the second ACK.
    Second { recover: u64 },
}

/// What the sender does on an ACK while F-RTO judges a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrtoAction {
    /// Nothing to do (F-RTO is idle, or the ACK is neither new nor a duplicate).
    None,
    /// Conventional recovery: go back to `snd_una` and retransmit in slow start.
    Conventional,
    /// Step 2b: send up to two new segments (ignoring the window), no retransmission.
    SendNew,
    /// Step 3b: the timeout was spurious; undo with [`Frto::response`].
    Spurious,
}

/// The window an F-RTO undo sets (RFC 4015 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrtoUndo {
    /// New congestion window.
    pub cwnd: u32,
    /// New slow-start threshold.
    pub ssthresh: u32,
}

/// The F-RTO detector.
#[derive(Clone, Debug, Default)]
pub struct Frto {
    state: State,
    /// pipe_prev = max(FlightSize, ssthresh) at the timeout (RFC 4015 §3.2 step 1).
    pipe_prev: u32,
}

impl Frto {
    /// A detector.
    pub fn new() -> Self {
        Frto::default()
    }

    /// Whether a timeout is being judged.
    pub fn active(&self) -> bool {
        self.state != State::Idle
    }

    /// Step 1: the retransmission timer fired with `[una, max)` outstanding; the sender will
    /// resend the first segment, `len` bytes. `open`: no recovery ran (F-RTO starts only
    /// then); `flight` and `ssthresh` are taken before the timeout's reduction. Returns
    /// whether F-RTO judges this timeout.
    pub fn on_timeout(
        &mut self,
        open: bool,
        una: u64,
        max: u64,
        len: u64,
        flight: u32,
        ssthresh: u32,
    ) -> bool {
        self.state = if open {
            self.pipe_prev = flight.max(ssthresh);
            State::First {
                recover: max,
                una,
                len,
            }
        } else {
            State::Idle
        };
        self.active()
    }

    /// An ACK arrived: `ack` is its cumulative acknowledgment, `dup` whether it is a duplicate
    /// (RFC 5681 §2), `new_data` whether the sender has a never-sent segment it may send.
    pub fn on_ack(&mut self, ack: u64, dup: bool, advances: bool, new_data: bool) -> FrtoAction {
        match self.state {
            State::Idle => FrtoAction::None,
            State::First { recover, una, len } => {
                if !dup && !advances {
                    return FrtoAction::None;
                }
                // Step 2a: a duplicate, an ACK covering recover, or one short of the resent
                // segment.
                if dup || ack >= recover || ack < una + len || !new_data {
                    self.state = State::Idle;
                    return FrtoAction::Conventional;
                }
                // Step 2b.
                self.state = State::Second { recover };
                FrtoAction::SendNew
            }
            State::Second { .. } => {
                if dup {
                    // Step 3a.
                    self.state = State::Idle;
                    FrtoAction::Conventional
                } else if advances {
                    // Step 3b.
                    self.state = State::Idle;
                    FrtoAction::Spurious
                } else {
                    FrtoAction::None
                }
            }
        }
    }

    /// RFC 4015 §3.2 steps 3-5 after a spurious timeout: `flight` bytes outstanding now,
    /// `acked` bytes acknowledged by the ACK that showed it, segments of `mss` bytes.
    pub fn response(&self, flight: u32, acked: u32, mss: u32) -> FrtoUndo {
        // RFC 3390 initial window.
        let iw = (4 * mss).min((2 * mss).max(4380));
        FrtoUndo {
            cwnd: flight + acked.min(iw),
            ssthresh: self.pipe_prev,
        }
    }

    /// Forget the episode.
    pub fn reset(&mut self) {
        self.state = State::Idle;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: u64 = 1000;

    /// By hand: 10 segments outstanding ([0, 10000)), cwnd 10 000, ssthresh 64 000 before the
    /// timeout. The first segment is resent. The first ACK (2000) acknowledges it and more, below
    /// recover = 10 000: two new segments go out (step 2b). The second ACK (4000) advances
    /// snd_una again: spurious (step 3b). Response: ssthresh = pipe_prev = max(10 000, 64 000),
    /// cwnd = FlightSize (12 000 − 4000 = 8000 with the two new segments) + min(2000, IW =
    /// min(4·1000, max(2·1000, 4380)) = 4000) = 10 000.
    #[test]
    fn two_advancing_acks_after_the_timeout_show_it_spurious() {
        let mut f = Frto::new();
        assert!(f.on_timeout(true, 0, 10 * M, M, 10_000, 64_000));
        assert_eq!(f.on_ack(2 * M, false, true, true), FrtoAction::SendNew);
        assert_eq!(f.on_ack(4 * M, false, true, true), FrtoAction::Spurious);
        assert!(!f.active());
        let u = f.response(8000, 2000, 1000);
        assert_eq!((u.cwnd, u.ssthresh), (10_000, 64_000));
    }

    /// A genuine loss: after the new segments, the receiver still misses data and answers with
    /// a duplicate (step 3a).
    #[test]
    fn a_duplicate_after_the_new_segments_means_a_real_loss() {
        let mut f = Frto::new();
        f.on_timeout(true, 0, 10 * M, M, 10_000, 64_000);
        assert_eq!(f.on_ack(M, false, true, true), FrtoAction::SendNew);
        // A window update that is neither new nor a duplicate changes nothing.
        assert_eq!(f.on_ack(M, false, false, true), FrtoAction::None);
        assert_eq!(f.on_ack(M, true, false, true), FrtoAction::Conventional);
    }

    /// Step 2a: a duplicate first, an ACK of everything up to recover, an ACK short of the
    /// resent segment, or no new data to send: conventional recovery at once.
    #[test]
    fn step_2a_falls_back_to_conventional_recovery() {
        for (ack, dup, new_data) in [
            (0, true, true),
            (10 * M, false, true),
            (M / 2, false, true),
            (2 * M, false, false),
        ] {
            let mut f = Frto::new();
            f.on_timeout(true, 0, 10 * M, M, 10_000, 64_000);
            let advances = !dup;
            assert_eq!(
                f.on_ack(ack, dup, advances, new_data),
                FrtoAction::Conventional,
                "{ack} {dup} {new_data}"
            );
        }
        // Step 1: not entered from a recovery.
        let mut f = Frto::new();
        assert!(!f.on_timeout(false, 0, 10 * M, M, 10_000, 64_000));
        assert_eq!(f.on_ack(2 * M, false, true, true), FrtoAction::None);
    }
}
