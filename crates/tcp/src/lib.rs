//! Sans-IO TCP endpoints for lossylink.
//!
//! A [`Sender`] is assembled from three parts, each making one decision (DESIGN.md):
//! [`cc::CongestionControl`] (how much may be in flight), [`recovery::LossRecovery`] (what is
//! lost, what to do on duplicate and new ACKs), [`rto::RtoEstimator`] (when to time out) and,
//! optionally, [`spurious::Eifel`] (was a retransmission needless, and the undo).
//! A [`Receiver`] implements the acknowledgment policy. Neither reads a clock nor schedules
//! events: time is passed in, segments are pulled out.

pub mod cc;
mod near_search;
mod notice;
mod receiver;
pub mod recovery;
pub mod rto;
mod segment;
mod sender;
mod seq;
pub mod spurious;
mod trace;
pub mod wscale;

pub use notice::{ElnVerdict, LinkNotice, NoticeKind};
pub use receiver::{Autotune, DelayedAck, Receiver, ReceiverConfig, ReceiverStats};
pub use segment::{
    EcnBits, SackBlocks, SegOptions, Segment, Timestamps, IPV4_HEADER, MAX_SACK_BLOCKS, TCP_HEADER,
};
pub use sender::{
    CcPart, IdleRestart, RecoveryPart, Rexmt, RtoPart, Sender, SenderConfig, SenderParts,
};
pub use seq::{SeqNum, SeqSpace};
pub use trace::{SenderEvent, SenderStats};

#[cfg(test)]
mod tests;
