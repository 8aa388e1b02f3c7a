//! Packets: a TCP segment with its IP addressing, as it crosses the network.

use engine::{FlowId, NodeId};
use tcp::Segment;

/// An IPv4 datagram carrying one TCP segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique per run, in creation order.
    pub uid: u64,
    /// The connection.
    pub flow: FlowId,
    /// Originating node.
    pub src: NodeId,
    /// Destination node.
    pub dst: NodeId,
    /// The segment.
    pub seg: Segment,
}

/// What a frame carries, for per-kind counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// A segment with payload.
    Data,
    /// A pure acknowledgment.
    Ack,
}

impl Packet {
    /// Data or pure ACK.
    pub fn kind(&self) -> PacketKind {
        if self.seg.is_data() {
            PacketKind::Data
        } else {
            PacketKind::Ack
        }
    }
    /// Size of the IP datagram in bytes.
    pub fn ip_len(&self) -> u32 {
        self.seg.ip_len()
    }
}
