//! Where the sender applies Proportional Rate Reduction (RFC 6937, [`crate::recovery::Prr`])
//! when [`super::SenderConfig::prr`] is set: it starts a PRR run when the recovery part enters
//! fast recovery, feeds it `DeliveredData` and the pipe on every ACK of the recovery, and lets
//! the answer (`sndcnt`) gate sending in place of `cwnd − pipe`. Every segment sent during the
//! recovery, the forced fast retransmit included, counts in `prr_out`.
//!
//! `DeliveredData` (RFC 6937 §3.1) is the change of `snd.una` plus the change of the bytes the
//! recovery part's scoreboard holds as SACKed. A part without a scoreboard (NewReno) gets the
//! RFC's estimate instead: one segment per duplicate ACK, and an ACK of new data counts only
//! what it acknowledges beyond the duplicates already counted; its pipe is the flight minus
//! the duplicates of the episode not yet covered by the cumulative ACK (the segments they
//! stand for have left the network; Linux counts them the same way for a sender without
//! SACK).

use super::Sender;
use crate::cc::CongestionControl as _;
use crate::recovery::LossRecovery as _;
use crate::recovery::{Phase, Prr};

/// PRR during one fast recovery.
#[derive(Clone, Copy, Debug)]
pub(super) struct PrrRun {
    prr: Prr,
    /// Bytes that may still be sent in response to the latest ACK (sndcnt less what was sent).
    pub(super) allowance: u64,
    /// Without SACK: bytes the duplicates counted as delivered, not yet acknowledged.
    dup_credit: u64,
}

impl Sender {
    /// After an ACK was processed: start, feed or end the PRR run. `acked` is the advance of
    /// `snd.una`, `dup` whether the ACK was a duplicate, `started` whether it started a fast
    /// recovery.
    pub(super) fn prr_on_ack(&mut self, acked: u64, dup: bool, started: bool) {
        let Some(bound) = self.cfg.prr else {
            return;
        };
        // ΔSACKd: the SACKed bytes now against those after the previous ACK.
        let sacked_after = self.parts.recovery.sacked_bytes();
        let sacked_before = std::mem::replace(&mut self.prr_sacked, sacked_after);
        if !matches!(self.phase(), Phase::Recovery { .. }) {
            // RFC 6937 §3.1: recovery is over (the controller's exit rule set cwnd = ssthresh).
            self.prr = None;
            return;
        }
        let mss = u64::from(self.cfg.mss);
        if started || self.prr.is_none() {
            // RFC 6937 §3.1 initialisation: ssthresh as the controller set it, RecoverFS =
            // snd.nxt − snd.una.
            self.prr = Some(PrrRun {
                prr: Prr::start(
                    bound,
                    self.cfg.mss,
                    self.parts.cc.ssthresh(),
                    self.max - self.una,
                ),
                allowance: 0,
                // Without SACK, the duplicates before this ACK count in the pipe estimate (RFC
                // 6937 §3.1: each stands for one segment that left the network).
                dup_credit: u64::from(self.dupacks.saturating_sub(u32::from(dup))) * mss,
            });
        }
        let flight = self.max - self.una;
        let view = self.view();
        let pipe = self.parts.recovery.pipe(view);
        let Some(run) = self.prr.as_mut() else {
            return;
        };
        let delivered = match (sacked_before, sacked_after) {
            // Δsnd.una + ΔSACKd (SACKed bytes the cumulative ACK covered leave the count).
            (Some(before), Some(after)) => (acked + after).saturating_sub(before),
            // Without SACK (RFC 6937 §3.1): one segment per duplicate; new data beyond the
            // duplicates already counted.
            _ if dup => {
                run.dup_credit += mss;
                mss
            }
            _ => {
                let d = acked.saturating_sub(run.dup_credit);
                run.dup_credit = run.dup_credit.saturating_sub(acked);
                d
            }
        };
        let pipe = pipe.unwrap_or_else(|| flight.saturating_sub(run.dup_credit));
        run.allowance = run.prr.on_ack(delivered, pipe);
    }

    /// `bytes` left during a PRR recovery: count them in prr_out and spend the allowance.
    pub(super) fn prr_on_sent(&mut self, bytes: u64) {
        if let Some(run) = self.prr.as_mut() {
            run.prr.on_sent(bytes);
            run.allowance = run.allowance.saturating_sub(bytes);
        }
    }
}
