//! A TCP segment as the endpoints exchange it: header fields and options only; payload bytes are
//! implied by `len` (the simulator never copies data, as the paper's implementations did not).
//!
//! Option sizes on the wire (each padded to a multiple of 4 bytes with NOPs, as stacks send them):
//! - timestamps, RFC 7323 §3: kind 8, length 10, two NOPs: **12 bytes** (Ludwig2000 §2.1);
//! - SACK, RFC 2018 §3: kind 5, length 2 + 8·n, two NOPs: **4 + 8·n bytes**, n ≤ 3 here (the
//!   paper's "up to three blocks", Balakrishnan97 §2.5);
//! - SMART (Keshav & Morgan; Balakrishnan97 §2.4): an experimental option (RFC 6994: kind 254,
//!   length 8, a 2-byte experiment id, the 4-byte sequence number of the segment that triggered
//!   the ACK): **8 bytes**, the spec's default;
//! - ELN (Balakrishnan97 §2.6): an experimental option (kind 253, length 4, a 2-byte experiment
//!   id) marking a loss as corruption: **4 bytes**;
//! - TCP-ELN's corruption counter (Buchholcz et al.; the spec gives no format [GAP]): an
//!   experimental option (RFC 6994: kind 253, length 8, a 2-byte experiment id, the 4-byte
//!   count of segments received corrupted so far): **8 bytes**;
//! - HACK's NACK / LHP's loss notification (Balan et al., INFOCOM 2001; eln-llelsn spec §4.11,
//!   §4.12): an experimental option (kind 253, length 8, a 2-byte experiment id, the 4-byte
//!   sequence number of the segment received with a corrupted payload): **8 bytes**;
//! - window scale, RFC 7323 §2.2: NOP, kind 3, length 3, the shift, on a SYN or SYN-ACK only:
//!   **4 bytes**; on other segments the shift in force only says how the 16-bit field encodes
//!   `wnd` (no bytes);
//! - TCP-Jersey's congestion warning (Xu, Tian, Ansari 2004; spec §4.8): the ECN bits of the
//!   header (CE on data, ECE on the ACK that echoes it): **no option bytes**.

use crate::seq::SeqNum;
use serde::{Deserialize, Serialize};

/// Length of an IPv4 header without options.
pub const IPV4_HEADER: u32 = 20;
/// Length of a TCP header without options.
pub const TCP_HEADER: u32 = 20;
/// Most SACK blocks an ACK carries (RFC 2018 allows 3 beside timestamps; the paper used 3).
pub const MAX_SACK_BLOCKS: usize = 3;
/// Most bytes of TCP options a header holds (data offset 15 words, RFC 9293 §3.1).
pub const MAX_TCP_OPTIONS: u32 = 40;

/// The SACK blocks of one ACK, most recently received first (RFC 2018 §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SackBlocks {
    blocks: [(SeqNum, SeqNum); MAX_SACK_BLOCKS],
    len: u8,
}

impl SackBlocks {
    /// No blocks.
    pub const EMPTY: SackBlocks = SackBlocks {
        blocks: [(SeqNum(0), SeqNum(0)); MAX_SACK_BLOCKS],
        len: 0,
    };

    /// Blocks from a list of `[left, right)` edges; extra blocks beyond the maximum are dropped
    /// (the receiver already put the most recent first).
    pub fn from_slice(blocks: &[(SeqNum, SeqNum)]) -> Self {
        let mut s = SackBlocks::EMPTY;
        for &b in blocks.iter().take(MAX_SACK_BLOCKS) {
            s.blocks[s.len as usize] = b;
            s.len += 1;
        }
        s
    }

    /// The blocks as `[left, right)` sequence-number pairs.
    pub fn as_slice(&self) -> &[(SeqNum, SeqNum)] {
        &self.blocks[..self.len as usize]
    }

    /// Whether there are no blocks.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// RFC 7323 timestamps carried by a segment, in ticks of the sender's timestamp clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timestamps {
    /// TSval: the sender's clock when the segment left.
    pub val: u32,
    /// TSecr: the most recent TSval received from the peer (TS.Recent).
    pub ecr: u32,
}

/// The TCP options a segment carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegOptions {
    /// RFC 7323 timestamps.
    pub ts: Option<Timestamps>,
    /// RFC 2018 SACK blocks (ACKs only).
    pub sack: SackBlocks,
    /// SMART: the first sequence number of the data segment that triggered this ACK.
    pub smart: Option<SeqNum>,
    /// ELN: the segment at the cumulative ACK was lost to corruption, not congestion.
    pub eln: bool,
    /// TCP-ELN: the receiver's count of segments it received corrupted (ACKs only).
    pub cc: Option<u32>,
    /// The SYN flag (a SYN, or with the ACK flag a SYN-ACK) with the MSS option it announces
    /// (4 bytes on the wire).
    pub syn: Option<u16>,
    /// HACK / LHP: the first sequence number of a segment that arrived with an intact header
    /// and a corrupted payload (ACKs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nack: Option<SeqNum>,
    /// TCP-Jersey's congestion warning: set by a router on data (CE), echoed on ACKs (ECE).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cw: bool,
    /// RFC 7323 Window Scale option with its shift (on a SYN or SYN-ACK only; 4 bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wscale: Option<u8>,
    /// The window-scale shift in force for this segment's window field (RFC 7323 §2.3): the
    /// header carries `wnd >> wnd_shift` (`crate::wscale::field`); no option bytes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wnd_shift: u8,
    /// RFC 3168 ECN: the IP codepoint and the TCP flags (no option bytes).
    #[serde(default, skip_serializing_if = "EcnBits::is_clear")]
    pub ecn: EcnBits,
}

/// RFC 3168 explicit congestion notification bits of a segment: the IP header's ECN field
/// (§5: ECT(0) from an ECN-capable sender, CE set by a router instead of a drop) and the TCP
/// header's ECE and CWR flags (§6.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EcnBits {
    /// ECN-capable transport, ECT(0) (data of an ECN connection).
    pub ect: bool,
    /// Congestion experienced, set by an AQM queue.
    pub ce: bool,
    /// ECN-Echo on an ACK: the receiver saw CE and the sender has not yet answered with CWR.
    pub ece: bool,
    /// Congestion window reduced: the sender answered an ECE.
    pub cwr: bool,
}

impl EcnBits {
    /// No bit set.
    pub const CLEAR: EcnBits = EcnBits {
        ect: false,
        ce: false,
        ece: false,
        cwr: false,
    };

    /// Whether no bit is set.
    pub fn is_clear(&self) -> bool {
        *self == EcnBits::CLEAR
    }
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl SegOptions {
    /// No option at all (the `Default`, usable in a `const`).
    pub const NONE: SegOptions = SegOptions {
        ts: None,
        sack: SackBlocks::EMPTY,
        smart: None,
        eln: false,
        cc: None,
        syn: None,
        nack: None,
        cw: false,
        wscale: None,
        wnd_shift: 0,
        ecn: EcnBits::CLEAR,
    };

    /// Bytes of TCP options on the wire (see the module documentation).
    pub fn len(&self) -> u32 {
        let mut n = 0;
        if self.syn.is_some() {
            n += 4;
            if self.wscale.is_some() {
                n += 4;
            }
        }
        if self.ts.is_some() {
            n += 12;
        }
        if !self.sack.is_empty() {
            n += 4 + 8 * self.sack.as_slice().len() as u32;
        }
        if self.smart.is_some() {
            n += 8;
        }
        if self.eln {
            n += 4;
        }
        if self.cc.is_some() {
            n += 8;
        }
        if self.nack.is_some() {
            n += 8;
        }
        n
    }

    /// Whether no option is present.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many SACK blocks still fit in the 40 bytes of options beside the other options
    /// (RFC 2018 §3: "at most 3 SACK blocks" when timestamps are used; with ELN as well, 2).
    pub fn sack_room(&self) -> usize {
        let other = SegOptions {
            sack: SackBlocks::EMPTY,
            ..*self
        }
        .len();
        let free = MAX_TCP_OPTIONS.saturating_sub(other);
        (free.saturating_sub(4) / 8).min(MAX_SACK_BLOCKS as u32) as usize
    }
}

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
    /// TCP options.
    pub opts: SegOptions,
}

impl Segment {
    /// Bytes of TCP options carried.
    pub fn options_len(&self) -> u32 {
        self.opts.len()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lengths_follow_the_wire_formats() {
        let mut o = SegOptions::default();
        assert_eq!(o.len(), 0);
        o.ts = Some(Timestamps { val: 1, ecr: 0 });
        assert_eq!(o.len(), 12);
        o.sack = SackBlocks::from_slice(&[(SeqNum(10), SeqNum(20)), (SeqNum(30), SeqNum(40))]);
        assert_eq!(o.len(), 12 + 4 + 16);
        o.smart = Some(SeqNum(5));
        o.eln = true;
        assert_eq!(o.len(), 12 + 20 + 8 + 4);
        let s = Segment {
            seq: SeqNum(0),
            ack: SeqNum(0),
            len: 1400,
            wnd: 0,
            ack_flag: true,
            opts: SegOptions::default(),
        };
        assert_eq!(s.ip_len(), 1440);
    }

    #[test]
    fn sack_room_keeps_the_options_within_forty_bytes() {
        let mut o = SegOptions::default();
        assert_eq!(o.sack_room(), 3);
        o.ts = Some(Timestamps { val: 1, ecr: 0 });
        assert_eq!(o.sack_room(), 3);
        o.eln = true;
        assert_eq!(o.sack_room(), 2);
        o.smart = Some(SeqNum(1));
        assert_eq!(o.sack_room(), 1);
    }

    #[test]
    fn sack_blocks_keep_at_most_three() {
        let b: Vec<_> = (0..5)
            .map(|i| (SeqNum(i * 10), SeqNum(i * 10 + 5)))
            .collect();
        let s = SackBlocks::from_slice(&b);
        assert_eq!(s.as_slice(), &b[..3]);
    }
}
