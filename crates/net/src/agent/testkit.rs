//! Packet builders for the agents' unit and script tests.
#![allow(dead_code)]

use super::{Reaction, Verdict};
use crate::packet::{LinkTag, Packet};
use engine::{FlowId, NodeId, SimDuration, SimTime};
use tcp::{SegOptions, Segment, SeqNum};

/// Segment size of the scripts.
pub const MSS: u32 = 1000;
/// Sequence number of segment 0.
pub const BASE: u32 = 1_000_000;

/// `n` milliseconds after time zero.
pub fn ms(n: u32) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(u64::from(n))
}
/// `n` microseconds.
pub fn us(n: u64) -> SimDuration {
    SimDuration::from_micros(n)
}
/// Data segment `i` of flow 0 from node 0 to node 2.
pub fn data(i: u32) -> Packet {
    Packet {
        uid: u64::from(i),
        flow: FlowId(0),
        src: NodeId(0),
        dst: NodeId(2),
        seg: Segment {
            seq: SeqNum(BASE + i * MSS),
            ack: SeqNum(1),
            len: MSS,
            wnd: 65535,
            ack_flag: true,
            opts: SegOptions::default(),
        },
        link: LinkTag::None,
        proto: crate::packet::Proto::Tcp,
    }
}
/// A pure ACK asking for segment `i`.
pub fn ack(i: u32) -> Packet {
    Packet {
        uid: 1000 + u64::from(i),
        flow: FlowId(0),
        src: NodeId(2),
        dst: NodeId(0),
        seg: Segment {
            seq: SeqNum(1),
            ack: SeqNum(BASE + i * MSS),
            len: 0,
            wnd: 32768,
            ack_flag: true,
            opts: SegOptions::default(),
        },
        link: LinkTag::None,
        proto: crate::packet::Proto::Tcp,
    }
}
/// A pure ACK asking for segment `i`, triggered by segment `t` (SMART).
pub fn smart_ack(i: u32, t: u32) -> Packet {
    let mut p = ack(i);
    p.seg.opts.smart = Some(SeqNum(BASE + t * MSS));
    p
}
/// Whether the reaction forwards its packet.
pub fn forwarded(r: &Reaction) -> bool {
    matches!(r.verdict, Verdict::Forward(_))
}
/// Segment indices of packets.
pub fn seqs(p: &[Packet]) -> Vec<u32> {
    p.iter().map(|p| (p.seg.seq.0 - BASE) / MSS).collect()
}
