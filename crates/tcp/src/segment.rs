//! A TCP segment as the endpoints exchange it: header fields only; payload bytes are implied by
//! `len` (the simulator never copies data, as the paper's implementations did not).

use crate::seq::SeqNum;
use serde::{Deserialize, Serialize};

/// Length of an IPv4 header without options.
pub const IPV4_HEADER: u32 = 20;
/// Length of a TCP header without options.
pub const TCP_HEADER: u32 = 20;

/// A TCP segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Sequence number of the first payload byte.
    pub seq: SeqNum,
    /// Cumulative acknowledgment (next byte expected by the sender of this segment).
    pub ack: SeqNum,
    /// Payload length in bytes (zero for a pure ACK).
    pub len: u32,
    /// Advertised receive window in bytes.
    pub wnd: u32,
    /// Whether the ACK flag is set.
    pub ack_flag: bool,
}

impl Segment {
    /// Bytes of TCP options carried (none in the 4.4BSD Reno stack of the paper, §2.1).
    pub fn options_len(&self) -> u32 {
        0
    }
    /// The size of the IPv4 datagram carrying this segment.
    pub fn ip_len(&self) -> u32 {
        IPV4_HEADER + TCP_HEADER + self.options_len() + self.len
    }
    /// Whether this segment carries data.
    pub fn is_data(&self) -> bool {
        self.len > 0
    }
}
