//! Congestion control: one decision, "how many bytes may be in flight" (`cwnd`, `ssthresh`).
//!
//! The sender tells a controller what happened through small value structs and never hands it
//! the sender itself (DESIGN.md, "The sender is assembled from parts").

mod cubic;
mod reno;

pub use cubic::CubicCc;
use engine::{SimDuration, SimTime};
pub use reno::{RenoCc, RenoFlavor};

/// A cumulative ACK that acknowledged new data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckSample {
    /// Newly acknowledged bytes.
    pub acked_bytes: u32,
    /// Bytes in flight before this ACK.
    pub flight_bytes: u32,
    /// When the ACK arrived (CUBIC's epoch clock, RFC 9438 §4.2).
    pub now: SimTime,
    /// The sender's smoothed RTT (zero before the first sample).
    pub srtt: SimDuration,
}

/// A loss the sender decided to respond to as congestion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionEvent {
    /// Fast retransmit on the `dupacks`-th duplicate ACK.
    FastRetransmit {
        /// Bytes in flight when the loss was detected.
        flight_bytes: u32,
        /// The peer's advertised window.
        peer_window: u32,
        /// Duplicate ACKs counted so far (the threshold).
        dupacks: u32,
    },
    /// Retransmission timeout.
    Timeout {
        /// Bytes in flight when the timer fired.
        flight_bytes: u32,
        /// The peer's advertised window.
        peer_window: u32,
    },
    /// The host's own interface queue dropped a segment (ENOBUFS from `ip_output`): 4.4BSD
    /// `tcp_quench` sets cwnd to one segment and leaves ssthresh alone (Ludwig2000 §2.3).
    LocalDrop,
}

/// Decides the congestion window.
pub trait CongestionControl: Send {
    /// Short name for traces.
    fn name(&self) -> &'static str;
    /// Congestion window in bytes.
    fn cwnd(&self) -> u32;
    /// Slow-start threshold in bytes.
    fn ssthresh(&self) -> u32;
    /// New data was acknowledged outside fast recovery (or on the ACK that ends it).
    fn on_ack(&mut self, ack: AckSample);
    /// A loss is treated as congestion.
    fn on_congestion(&mut self, event: CongestionEvent);
    /// A further duplicate ACK arrived during fast recovery (Reno window inflation).
    fn on_recovery_dupack(&mut self);
    /// Fast recovery ended, or a partial ACK deflates: cwnd = min(cwnd, ssthresh).
    fn on_recovery_exit(&mut self);
    /// RFC 6582 §3.2 (5) partial ACK: deflate by `acked` bytes, then add back one segment if
    /// at least one segment's worth was acknowledged.
    fn on_partial_ack(&mut self, acked: u32);
    /// Undo after a spurious retransmission (Eifel): set both values.
    fn undo(&mut self, cwnd: u32, ssthresh: u32);
}
