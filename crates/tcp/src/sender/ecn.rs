//! The sender's side of RFC 3168 ECN, with `SenderConfig::ecn`:
//!
//! - new data segments carry ECT(0) (§6.1.1); retransmissions do not (§6.1.5), nor do ACKs;
//! - an ACK with ECE reduces the window once per window of data (§6.1.2: "SHOULD NOT decrease
//!   the congestion window more than once per window of data"): the controller's response to
//!   a loss detected by duplicate ACKs, `FastRetransmit` with no duplicates counted, followed
//!   at once by its recovery exit (cwnd = ssthresh), without a retransmission and without a
//!   recovery phase (§6.1.2: "halves the congestion window cwnd and reduces the slow start
//!   threshold ssthresh"; CUBIC's β = 0.7 for a CUBIC sender, as Linux's `tcp_enter_cwr`);
//!   further ECEs are ignored until an ACK acknowledges data sent after the reduction (an ACK
//!   of exactly the data outstanding at the reduction may still echo an earlier mark);
//!   an ECE during loss recovery is ignored (the loss's reduction stands for it);
//! - the next new data segment after a reduction carries CWR (§6.1.2).
//!
//! RFC 8511 ABE (Alternative Backoff with ECN), with `SenderConfig::abe`: the same once-per-
//! window response, but the controller's multiplicative decrease is β_ecn instead of its loss
//! β (§3: "ssthresh to 0.8 times the FlightSize, with a lower bound of 2 * SMSS ... the TCP
//! sender also reduces the cwnd value to no more than the new ssthresh value"), through
//! `CongestionControl::on_ecn_abe`; losses keep their β. Counted in `abe_responses`.

use super::Sender;
use crate::cc::{CongestionControl as _, CongestionEvent};
use crate::recovery::{LossRecovery as _, Phase};
use crate::segment::EcnBits;

/// The sender's ECN state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct EcnState {
    /// snd_max at the last reduction: ECEs are ignored until `snd_una` passes it.
    recover: Option<u64>,
    /// CWR is due on the next new data segment.
    cwr_due: bool,
    /// RFC 8511 ABE's β_ecn in thousandths (None: RFC 3168's loss-sized response).
    abe: Option<u16>,
}

impl EcnState {
    /// The state at the start, with ABE's β_ecn if any.
    pub(super) fn new(abe: Option<u16>) -> Self {
        EcnState {
            abe,
            ..EcnState::default()
        }
    }
}

impl Sender {
    /// An ACK that acknowledges up to `ack` carried ECE.
    #[inline(never)]
    pub(super) fn on_ece(&mut self, ack: u64) {
        let Some(e) = self.ecn.as_mut() else {
            return;
        };
        self.stats.ece_acks += 1;
        if e.recover.is_some_and(|r| ack <= r)
            || !matches!(self.parts.recovery.phase(), Phase::Open)
        {
            return;
        }
        e.recover = Some(self.max);
        e.cwr_due = true;
        self.stats.ecn_responses += 1;
        let flight_bytes = (self.max - self.una.max(ack).min(self.max)).min(u64::from(u32::MAX));
        let flight_bytes = (flight_bytes as u32).max(self.cfg.mss);
        if let Some(beta) = e.abe {
            if self
                .parts
                .cc
                .on_ecn_abe(flight_bytes, self.peer_window, u32::from(beta))
            {
                self.stats.abe_responses += 1;
                return;
            }
        }
        self.parts
            .cc
            .on_congestion(CongestionEvent::FastRetransmit {
                flight_bytes,
                peer_window: self.peer_window,
                dupacks: 0,
            });
        self.parts.cc.on_recovery_exit();
    }

    /// The ECN bits of a segment about to be sent: ECT on new data; CWR on the first new data
    /// segment after a reduction.
    #[inline]
    pub(super) fn ecn_bits(&mut self, new_data: bool) -> EcnBits {
        let Some(e) = self.ecn.as_mut() else {
            return EcnBits::CLEAR;
        };
        if !new_data {
            return EcnBits::CLEAR;
        }
        EcnBits {
            ect: true,
            cwr: std::mem::take(&mut e.cwr_due),
            ..EcnBits::CLEAR
        }
    }
}
