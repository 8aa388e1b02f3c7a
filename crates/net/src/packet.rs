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
    /// The link-layer header a link ARQ adds on the wireless hop ([`LinkTag::None`] elsewhere).
    pub link: LinkTag,
}

/// Link-layer header of a frame on a wireless hop run by a link ARQ (`crate::agent::arq`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkTag {
    /// A plain IP frame.
    #[default]
    None,
    /// A data frame of the base station's link ARQ.
    Data {
        /// Link sequence number (per base station, in order of first transmission).
        lsn: u32,
        /// The oldest link sequence number the sender still holds: every frame below it was
        /// acknowledged or given up, so the receiver stops waiting for it.
        base: u32,
    },
    /// A link-level acknowledgment from the mobile's link receiver; never delivered to TCP.
    Ack(LinkAck),
}

/// A selective link acknowledgment: a cumulative part and a bitmap (like RLP's RR/SREJ status,
/// Ludwig2000 §3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkAck {
    /// Every link sequence number below this was received (or given up by the sender).
    pub next: u32,
    /// Bit `i` set: frame `next + 1 + i` was received.
    pub bitmap: u64,
    /// Link-layer payload bytes of the ACK frame (the hop adds its framing).
    pub bytes: u32,
}

impl LinkAck {
    /// Whether this acknowledgment covers link sequence number `lsn`.
    pub fn covers(&self, lsn: u32) -> bool {
        if lsn < self.next {
            return true;
        }
        let off = lsn - self.next;
        (1..=64).contains(&off) && self.bitmap & (1 << (off - 1)) != 0
    }
    /// The highest link sequence number this acknowledgment reports received, if any.
    pub fn highest(&self) -> Option<u32> {
        if self.bitmap != 0 {
            Some(self.next + 64 - self.bitmap.leading_zeros())
        } else {
            self.next.checked_sub(1)
        }
    }
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
    /// Whether this is a link-level acknowledgment frame (not a TCP packet).
    pub fn is_link_ack(&self) -> bool {
        matches!(self.link, LinkTag::Ack(_))
    }
    /// Data or pure ACK (a link ACK frame counts as an ACK: it carries no TCP payload).
    pub fn kind(&self) -> PacketKind {
        if self.seg.is_data() {
            PacketKind::Data
        } else {
            PacketKind::Ack
        }
    }
    /// Size of the IP datagram in bytes.
    /// For a link ACK frame: its link-layer payload bytes.
    pub fn ip_len(&self) -> u32 {
        match self.link {
            LinkTag::Ack(a) => a.bytes,
            _ => self.seg.ip_len(),
        }
    }
}
