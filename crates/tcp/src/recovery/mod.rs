//! Loss recovery: one decision, "what is lost and what happens on duplicate and new ACKs".
//!
//! The sender classifies each ACK (new, duplicate, old) and asks the recovery part what to do;
//! the answer is a value ([`DupAckAction`], [`NewAckAction`]) that the sender carries out.

mod reno;

pub use reno::RenoRecovery;

use crate::seq::SeqNum;

/// The recovery phase of a sender (house rule 6: the state carries its data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No loss being repaired.
    Open,
    /// Fast recovery, entered when `recover` was the highest sequence sent.
    Recovery {
        /// snd_max at the fast retransmit.
        recover: SeqNum,
    },
    /// Repairing after a retransmission timeout, until `recover` is acknowledged.
    Loss {
        /// snd_max when the timer fired.
        recover: SeqNum,
    },
}

/// What the sender knows when it consults the recovery part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderView {
    /// Oldest unacknowledged sequence number.
    pub snd_una: SeqNum,
    /// Highest sequence number sent, plus one.
    pub snd_max: SeqNum,
}

/// Answer to a duplicate ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAckAction {
    /// Nothing to do.
    Ignore,
    /// Retransmit `snd_una` and respond to congestion.
    FastRetransmit,
    /// Already recovering: inflate the window (Reno).
    Inflate,
}

/// Answer to an ACK of new data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewAckAction {
    /// Normal window growth.
    Continue,
    /// Leave fast recovery (deflate the window).
    ExitRecovery,
}

/// Decides loss detection and recovery.
pub trait LossRecovery: Send {
    /// Short name for traces.
    fn name(&self) -> &'static str;
    /// The current phase.
    fn phase(&self) -> Phase;
    /// The `count`-th consecutive duplicate ACK arrived.
    fn on_dupack(&mut self, count: u32, view: SenderView) -> DupAckAction;
    /// An ACK for new data arrived; `ack` is its cumulative acknowledgment.
    fn on_new_ack(&mut self, ack: SeqNum, view: SenderView) -> NewAckAction;
    /// The retransmission timer fired.
    fn on_timeout(&mut self, view: SenderView);
}
