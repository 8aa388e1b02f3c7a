//! Reading real datagrams: the IPv4 and TCP header fields the link models look at, as a
//! [`tcp::Segment`] (RFC 791 §3.1, RFC 9293 §3.1; options RFC 7323 §3, RFC 2018 §3). The
//! models decide data or ACK from the payload length and size a frame from the datagram's own
//! length, so only what they read is parsed; a datagram that is not IPv4 TCP still crosses the
//! links, as an empty segment.

use tcp::{SackBlocks, SegOptions, Segment, SeqNum, Timestamps};

/// IP protocol number of TCP.
const PROTO_TCP: u8 = 6;

/// The segment of an IPv4 TCP datagram (payload length, sequence and ACK numbers, window,
/// timestamps and SACK blocks), or `None` for anything else (IPv6, UDP, ICMP, fragments,
/// truncated headers).
pub fn parse_tcp(d: &[u8]) -> Option<Segment> {
    if d.len() < 20 || d[0] >> 4 != 4 {
        return None;
    }
    let ihl = usize::from(d[0] & 0x0f) * 4;
    let total = usize::from(u16::from_be_bytes([d[2], d[3]]));
    // A fragment other than the first carries no TCP header.
    let frag_offset = u16::from_be_bytes([d[6], d[7]]) & 0x1fff;
    if d[9] != PROTO_TCP || frag_offset != 0 || ihl < 20 || total > d.len() || total < ihl + 20 {
        return None;
    }
    let t = &d[ihl..total];
    let off = usize::from(t[12] >> 4) * 4;
    if off < 20 || off > t.len() {
        return None;
    }
    let be32 = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let flags = t[13];
    let opts = parse_options(&t[20..off]);
    Some(Segment {
        seq: SeqNum(be32(&t[4..8])),
        ack: SeqNum(be32(&t[8..12])),
        len: (t.len() - off) as u32,
        wnd: u32::from(u16::from_be_bytes([t[14], t[15]])),
        ack_flag: flags & 0x10 != 0,
        opts,
    })
}

/// Timestamps and SACK blocks from the option bytes of a TCP header (others skipped).
fn parse_options(mut o: &[u8]) -> SegOptions {
    let mut opts = SegOptions::default();
    let be32 = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    while let Some(&kind) = o.first() {
        match kind {
            0 => break,
            1 => o = &o[1..],
            _ => {
                let Some(&len) = o.get(1) else { break };
                let len = usize::from(len);
                if len < 2 || len > o.len() {
                    break;
                }
                let body = &o[2..len];
                match (kind, body.len()) {
                    (8, 8) => {
                        opts.ts = Some(Timestamps {
                            val: be32(&body[0..4]),
                            ecr: be32(&body[4..8]),
                        })
                    }
                    (5, n) if n % 8 == 0 => {
                        let blocks: Vec<(SeqNum, SeqNum)> = body
                            .chunks_exact(8)
                            .map(|b| (SeqNum(be32(&b[0..4])), SeqNum(be32(&b[4..8]))))
                            .collect();
                        opts.sack = SackBlocks::from_slice(&blocks);
                    }
                    _ => {}
                }
                o = &o[len..];
            }
        }
    }
    opts
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// An IPv4 TCP datagram: ACK flag, seq 1000, ack 7, window 512, the given options and
    /// `payload` bytes.
    fn datagram(options: &[u8], payload: usize) -> Vec<u8> {
        let tcp_len = 20 + options.len();
        let total = 20 + tcp_len + payload;
        let mut d = vec![0u8; total];
        d[0] = 0x45;
        d[2..4].copy_from_slice(&(total as u16).to_be_bytes());
        d[8] = 64;
        d[9] = 6;
        let t = &mut d[20..];
        t[4..8].copy_from_slice(&1000u32.to_be_bytes());
        t[8..12].copy_from_slice(&7u32.to_be_bytes());
        t[12] = ((tcp_len / 4) as u8) << 4;
        t[13] = 0x10;
        t[14..16].copy_from_slice(&512u16.to_be_bytes());
        t[20..20 + options.len()].copy_from_slice(options);
        d
    }

    #[test]
    fn a_data_segment_with_timestamps_gives_its_payload_length_and_fields() {
        let mut ts = vec![1, 1, 8, 10];
        ts.extend_from_slice(&5u32.to_be_bytes());
        ts.extend_from_slice(&6u32.to_be_bytes());
        let s = parse_tcp(&datagram(&ts, 1388)).unwrap();
        assert_eq!(
            (s.seq, s.ack, s.len, s.wnd),
            (SeqNum(1000), SeqNum(7), 1388, 512)
        );
        assert!(s.ack_flag && s.is_data());
        assert_eq!(s.opts.ts, Some(Timestamps { val: 5, ecr: 6 }));
        // The model's size of the segment is the real one.
        assert_eq!(s.ip_len() as usize, datagram(&ts, 1388).len());
    }

    #[test]
    fn sack_blocks_are_read_and_a_pure_ack_is_no_data() {
        let mut o = vec![1, 1, 5, 18];
        for v in [2000u32, 3000, 4000, 5000] {
            o.extend_from_slice(&v.to_be_bytes());
        }
        let s = parse_tcp(&datagram(&o, 0)).unwrap();
        assert!(!s.is_data());
        assert_eq!(
            s.opts.sack.as_slice(),
            [(SeqNum(2000), SeqNum(3000)), (SeqNum(4000), SeqNum(5000))]
        );
    }

    #[test]
    fn other_datagrams_and_truncated_headers_are_not_tcp() {
        let mut udp = datagram(&[], 10);
        udp[9] = 17;
        assert!(parse_tcp(&udp).is_none());
        assert!(parse_tcp(&[0x60; 40]).is_none());
        let d = datagram(&[], 0);
        assert!(parse_tcp(&d[..30]).is_none());
        // A bad option length ends option parsing without a panic.
        assert!(parse_tcp(&datagram(&[8, 40, 0, 0], 0)).is_some());
    }
}
