//! Wire encoding for packet captures: Ethernet II, IPv4 and TCP headers with options, and the
//! classic libpcap file format (the one every version of Wireshark, tshark, tcpdump and
//! tcptrace reads: magic `0xa1b2c3d4`, microsecond timestamps, `LINKTYPE_ETHERNET`).
//!
//! The simulator never copies payload bytes, so the payload of a data segment is written as
//! `len` zero bytes; zeros add nothing to the Internet checksum, so the TCP checksum is that of
//! the header, the options and the pseudo-header (RFC 9293 §3.1), and it verifies against the
//! bytes in the file.
//!
//! Options are encoded exactly as `tcp::segment` sizes them, so the IPv4 total length in a file
//! equals the simulator's `ip_len()`:
//! - window scale (SYN and SYN-ACK only): NOP, kind 3, length 3, shift (RFC 7323 §2.2); on
//!   other segments the window field is `wnd >> shift` (§2.3). Without a SYN (the default) a
//!   capture holds no option: tshark then needs the shift as a preference
//!   (`-o tcp.default_window_scaling:<shift>`; tcptrace reads the raw field);
//! - timestamps: NOP, NOP, kind 8, length 10, TSval, TSecr (12 bytes, RFC 7323 Appendix A);
//! - SACK: NOP, NOP, kind 5, length 2 + 8n, the blocks (4 + 8n bytes, RFC 2018 §3);
//! - SMART: kind 254, length 8, ExID [`SMART_EXID`], the 4-byte sequence number of the segment
//!   that triggered the ACK (8 bytes; an RFC 6994 experimental option);
//! - ELN: kind 253, length 4, ExID [`ELN_EXID`] (4 bytes; an RFC 6994 experimental option).
//! - TCP-ELN's corruption counter: kind 253, length 8, ExID [`CC_EXID`], the count (8 bytes).
//! - HACK's NACK / LHP's notification: kind 253, length 8, ExID [`NACK_EXID`], the sequence
//!   number of the corrupted segment (8 bytes); TCP-Jersey's congestion warning is ECE.
//!
//! ECN (RFC 3168): ECT(0) or CE in the IPv4 TOS byte's low bits, ECE and CWR in the TCP flags.
//!
//! The two ExIDs are not IANA-assigned; they were chosen away from the registered ones, so
//! Wireshark shows them as "Experimental" options with their magic number.

use std::io::{self, Write};
use tcp::Segment;

/// `LINKTYPE_ETHERNET` (the pcap link type of Ethernet II frames).
pub const LINKTYPE_ETHERNET: u32 = 1;
/// Bytes of an Ethernet II header (no FCS, no VLAN tag).
pub const ETHERNET_HEADER: usize = 14;
/// RFC 6994 experiment id of the SMART option ("SM").
pub const SMART_EXID: u16 = 0x534d;
/// RFC 6994 experiment id of the ELN option ("EL").
pub const ELN_EXID: u16 = 0x454c;
/// RFC 6994 experiment id of TCP-ELN's corruption-counter option ("CC").
pub const CC_EXID: u16 = 0x4343;
/// Experiment id of HACK's NACK / LHP's loss notification option ("NK").
pub const NACK_EXID: u16 = 0x4e4b;
/// Snapshot length written in the file header (whole frames are captured).
pub const SNAPLEN: u32 = 65535;
/// The largest TCP header (data offset 15).
const MAX_TCP_HEADER: usize = 60;

/// Addressing and fate of one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameMeta {
    /// Ethernet source (the transmitting node) and destination (the next hop).
    pub mac: ([u8; 6], [u8; 6]),
    /// IPv4 source and destination (the end hosts).
    pub ip: ([u8; 4], [u8; 4]),
    /// TCP or UDP source and destination ports.
    pub ports: (u16, u16),
    /// IPv4 identification.
    pub ip_id: u16,
    /// Time to live at this hop.
    pub ttl: u8,
    /// Write a TCP checksum that does not verify (the frame was corrupted on the link).
    pub bad_checksum: bool,
}

/// The Internet checksum (RFC 1071) accumulator: 16-bit big-endian words, one's complement.
#[derive(Clone, Copy, Debug, Default)]
struct Csum(u32);

impl Csum {
    fn add(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(2);
        for c in &mut chunks {
            self.0 += u32::from(u16::from_be_bytes([c[0], c[1]]));
        }
        if let [last] = chunks.remainder() {
            self.0 += u32::from(*last) << 8;
        }
    }
    fn finish(self) -> u16 {
        let mut s = self.0;
        while s > 0xffff {
            s = (s & 0xffff) + (s >> 16);
        }
        !(s as u16)
    }
}

/// The Internet checksum of `bytes` (RFC 1071).
pub fn internet_checksum(bytes: &[u8]) -> u16 {
    let mut c = Csum::default();
    c.add(bytes);
    c.finish()
}

/// The TCP options of `seg`, in the order and layout of the module documentation.
pub fn encode_options(seg: &Segment) -> Vec<u8> {
    let o = &seg.opts;
    let mut out = Vec::with_capacity(o.len() as usize);
    if let Some(mss) = o.syn {
        out.extend_from_slice(&[2, 4]);
        out.extend_from_slice(&mss.to_be_bytes());
        if let Some(shift) = o.wscale {
            // RFC 7323 §2.2: NOP, kind 3, length 3, shift.
            out.extend_from_slice(&[1, 3, 3, shift]);
        }
    }
    if let Some(ts) = o.ts {
        out.extend_from_slice(&[1, 1, 8, 10]);
        out.extend_from_slice(&ts.val.to_be_bytes());
        out.extend_from_slice(&ts.ecr.to_be_bytes());
    }
    let blocks = o.sack.as_slice();
    if !blocks.is_empty() {
        out.extend_from_slice(&[1, 1, 5, 2 + 8 * blocks.len() as u8]);
        for (l, r) in blocks {
            out.extend_from_slice(&l.0.to_be_bytes());
            out.extend_from_slice(&r.0.to_be_bytes());
        }
    }
    if let Some(s) = o.smart {
        out.extend_from_slice(&[254, 8]);
        out.extend_from_slice(&SMART_EXID.to_be_bytes());
        out.extend_from_slice(&s.0.to_be_bytes());
    }
    if o.eln {
        out.extend_from_slice(&[253, 4]);
        out.extend_from_slice(&ELN_EXID.to_be_bytes());
    }
    if let Some(cc) = o.cc {
        out.extend_from_slice(&[253, 8]);
        out.extend_from_slice(&CC_EXID.to_be_bytes());
        out.extend_from_slice(&cc.to_be_bytes());
    }
    if let Some(n) = o.nack {
        out.extend_from_slice(&[253, 8]);
        out.extend_from_slice(&NACK_EXID.to_be_bytes());
        out.extend_from_slice(&n.0.to_be_bytes());
    }
    out
}

/// The Ethernet, IPv4 and TCP headers of `seg` (everything but the zero payload), or an error
/// if the segment cannot be put on a wire (more than 40 bytes of options, or a datagram over
/// 65535 bytes).
pub fn encode_headers(seg: &Segment, m: &FrameMeta) -> Result<Vec<u8>, String> {
    let opts = encode_options(seg);
    debug_assert_eq!(opts.len() as u32, seg.options_len());
    let tcp_len = 20 + opts.len();
    if tcp_len > MAX_TCP_HEADER {
        return Err(format!(
            "a segment carries {} bytes of TCP options; at most 40 fit in a TCP header",
            opts.len()
        ));
    }
    let ip_len = u16::try_from(seg.ip_len())
        .map_err(|_| format!("a {}-byte IPv4 datagram exceeds 65535", seg.ip_len()))?;
    // RFC 3168 §5: ECT(0) = 0b10, CE = 0b11 in the low two bits of the TOS byte.
    let e = seg.opts.ecn;
    let tos = if e.ce {
        0b11
    } else if e.ect {
        0b10
    } else {
        0
    };
    let mut f = ethernet_ipv4(m, (6, tos), ip_len, 20 + tcp_len);
    // TCP (RFC 9293 §3.1).
    let tcp_start = f.len();
    f.extend_from_slice(&m.ports.0.to_be_bytes());
    f.extend_from_slice(&m.ports.1.to_be_bytes());
    f.extend_from_slice(&seg.seq.0.to_be_bytes());
    let ack = if seg.ack_flag { seg.ack.0 } else { 0 };
    f.extend_from_slice(&ack.to_be_bytes());
    let mut flags: u8 =
        if seg.ack_flag { 0x10 } else { 0 } | if seg.opts.syn.is_some() { 0x02 } else { 0 };
    if seg.opts.cw || e.ece {
        // ECE (RFC 3168 §6.1); TCP-Jersey's congestion warning rides it too.
        flags |= 0x40;
    }
    if e.cwr {
        flags |= 0x80;
    }
    f.extend_from_slice(&[((tcp_len / 4) as u8) << 4, flags]);
    // RFC 7323 §2.3: the field carries the window shifted right by the shift in force (0
    // without window scaling: at most 65535).
    f.extend_from_slice(&tcp::wscale::field(seg.wnd, seg.opts.wnd_shift).to_be_bytes());
    f.extend_from_slice(&[0, 0, 0, 0]);
    f.extend_from_slice(&opts);
    // Pseudo-header: source, destination, zero, protocol, TCP length (header + payload).
    let mut c = Csum::default();
    c.add(&m.ip.0);
    c.add(&m.ip.1);
    c.add(&[0, 6]);
    c.add(&((tcp_len as u32 + seg.len) as u16).to_be_bytes());
    c.add(&f[tcp_start..]);
    let mut sum = c.finish();
    if m.bad_checksum {
        // Any value not equivalent to the right one (0x0000 and 0xffff are the same number).
        sum = if sum == 0 || sum == 0xffff {
            0x5555
        } else {
            !sum
        };
    }
    f[tcp_start + 16..tcp_start + 18].copy_from_slice(&sum.to_be_bytes());
    Ok(f)
}

/// Ethernet II and IPv4 (RFC 791, no options, DF set) headers for a datagram of `ip_len` bytes
/// carrying `protocol`, with room for `more` bytes of transport header.
fn ethernet_ipv4(m: &FrameMeta, (protocol, tos): (u8, u8), ip_len: u16, more: usize) -> Vec<u8> {
    let mut f = Vec::with_capacity(ETHERNET_HEADER + 20 + more);
    f.extend_from_slice(&m.mac.1);
    f.extend_from_slice(&m.mac.0);
    f.extend_from_slice(&0x0800u16.to_be_bytes());
    let ip_start = f.len();
    f.extend_from_slice(&[0x45, tos]);
    f.extend_from_slice(&ip_len.to_be_bytes());
    f.extend_from_slice(&m.ip_id.to_be_bytes());
    f.extend_from_slice(&0x4000u16.to_be_bytes());
    f.extend_from_slice(&[m.ttl, protocol, 0, 0]);
    f.extend_from_slice(&m.ip.0);
    f.extend_from_slice(&m.ip.1);
    let ip_sum = internet_checksum(&f[ip_start..]);
    f[ip_start + 10..ip_start + 12].copy_from_slice(&ip_sum.to_be_bytes());
    f
}

/// The Ethernet, IPv4 and UDP headers of a datagram of `payload` zero bytes (RFC 768; the
/// checksum over the pseudo-header, the header and the zero payload, deliberately wrong for a
/// corrupted frame as for TCP).
pub fn encode_udp_headers(payload: u32, m: &FrameMeta) -> Result<Vec<u8>, String> {
    let udp_len = u16::try_from(8 + payload)
        .map_err(|_| format!("a {payload}-byte UDP payload exceeds 65507"))?;
    let ip_len = u16::try_from(28 + payload)
        .map_err(|_| format!("a {}-byte IPv4 datagram exceeds 65535", 28 + payload))?;
    let mut f = ethernet_ipv4(m, (17, 0), ip_len, 28);
    let udp_start = f.len();
    f.extend_from_slice(&m.ports.0.to_be_bytes());
    f.extend_from_slice(&m.ports.1.to_be_bytes());
    f.extend_from_slice(&udp_len.to_be_bytes());
    f.extend_from_slice(&[0, 0]);
    let mut c = Csum::default();
    c.add(&m.ip.0);
    c.add(&m.ip.1);
    c.add(&[0, 17]);
    c.add(&udp_len.to_be_bytes());
    c.add(&f[udp_start..]);
    let mut sum = c.finish();
    // 0 means "no checksum" in UDP: send it as 0xffff (RFC 768).
    if sum == 0 {
        sum = 0xffff;
    }
    if m.bad_checksum {
        sum = if sum == 0xffff { 0x5555 } else { !sum };
    }
    f[udp_start + 6..udp_start + 8].copy_from_slice(&sum.to_be_bytes());
    Ok(f)
}

/// Writes a classic libpcap file: the global header, then one record per frame.
pub struct PcapWriter<W: Write> {
    out: W,
    zeros: Vec<u8>,
}

impl<W: Write> PcapWriter<W> {
    /// Write the global header (little-endian, microseconds, version 2.4, Ethernet).
    pub fn new(out: W) -> io::Result<Self> {
        Self::with_link_type(out, LINKTYPE_ETHERNET)
    }

    /// Write the global header of a file of frames of `link_type` (crate::radiotap for 802.11).
    pub fn with_link_type(mut out: W, link_type: u32) -> io::Result<Self> {
        let mut h = Vec::with_capacity(24);
        h.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
        h.extend_from_slice(&2u16.to_le_bytes());
        h.extend_from_slice(&4u16.to_le_bytes());
        h.extend_from_slice(&0i32.to_le_bytes());
        h.extend_from_slice(&0u32.to_le_bytes());
        h.extend_from_slice(&SNAPLEN.to_le_bytes());
        h.extend_from_slice(&link_type.to_le_bytes());
        out.write_all(&h)?;
        Ok(PcapWriter {
            out,
            zeros: Vec::new(),
        })
    }

    /// Write one frame: `headers` followed by `payload` zero bytes, stamped `time_ns`
    /// (truncated to the microsecond).
    pub fn frame(&mut self, time_ns: u64, headers: &[u8], payload: u32) -> io::Result<()> {
        let len = headers.len() as u32 + payload;
        let us = time_ns / 1_000;
        let secs = u32::try_from(us / 1_000_000)
            .map_err(|_| io::Error::other("capture time beyond the year 2106"))?;
        let mut r = [0u8; 16];
        r[0..4].copy_from_slice(&secs.to_le_bytes());
        r[4..8].copy_from_slice(&((us % 1_000_000) as u32).to_le_bytes());
        r[8..12].copy_from_slice(&len.to_le_bytes());
        r[12..16].copy_from_slice(&len.to_le_bytes());
        self.out.write_all(&r)?;
        self.out.write_all(headers)?;
        if self.zeros.len() < payload as usize {
            self.zeros.resize(payload as usize, 0);
        }
        self.out.write_all(&self.zeros[..payload as usize])
    }

    /// Flush and return the sink.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use tcp::{SackBlocks, SegOptions, SeqNum, Timestamps};

    fn meta() -> FrameMeta {
        FrameMeta {
            mac: ([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2]),
            ip: ([10, 0, 0, 1], [10, 0, 0, 3]),
            ports: (49152, 50001),
            ip_id: 7,
            ttl: 64,
            bad_checksum: false,
        }
    }

    fn seg(len: u32, opts: SegOptions) -> Segment {
        Segment {
            seq: SeqNum(0x0102_0304),
            ack: SeqNum(0x0a0b_0c0d),
            len,
            wnd: 32768,
            ack_flag: true,
            opts,
        }
    }

    /// Sum of a whole header including its checksum field: 0xffff when it verifies.
    fn verify(words: &[u8]) -> u16 {
        !internet_checksum(words)
    }

    fn tcp_verifies(frame: &[u8], payload: u32) -> bool {
        let ip = &frame[14..34];
        let tcp = &frame[34..];
        let mut pseudo = Vec::new();
        pseudo.extend_from_slice(&ip[12..20]);
        pseudo.extend_from_slice(&[0, 6]);
        pseudo.extend_from_slice(&((tcp.len() as u32 + payload) as u16).to_be_bytes());
        pseudo.extend_from_slice(tcp);
        pseudo.extend(std::iter::repeat_n(0u8, payload as usize));
        verify(&pseudo) == 0xffff
    }

    #[test]
    fn rfc1071_example() {
        // RFC 1071 §3: the words 0001 f203 f4f5 f6f7 sum to ddf2 (one's complement sum).
        let b = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        assert_eq!(internet_checksum(&b), !0xddf2);
    }

    #[test]
    fn ipv4_header_checksum_matches_a_known_header() {
        // The classic example header (Wikipedia, "IPv4 header checksum"): checksum b861.
        let h = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
        ];
        assert_eq!(internet_checksum(&h), 0xb861);
    }

    #[test]
    fn a_pure_ack_has_known_bytes() {
        let f = encode_headers(&seg(0, SegOptions::default()), &meta()).unwrap();
        assert_eq!(f.len(), 14 + 20 + 20);
        assert_eq!(&f[12..14], &[0x08, 0x00]);
        // IPv4: total length 40, id 7, DF, TTL 64, TCP, checksum computed by hand below.
        assert_eq!(&f[14..24], &[0x45, 0, 0, 40, 0, 7, 0x40, 0, 64, 6]);
        assert_eq!(verify(&f[14..34]), 0xffff);
        // 4500+0028+0007+4000+4006+0a00+0001+0a00+0003 = d939 -> !d939 = 26c6.
        assert_eq!(&f[24..26], &[0x26, 0xc6]);
        // TCP: ports, seq, ack, data offset 5, ACK flag, window 32768.
        assert_eq!(&f[34..38], &[0xc0, 0x00, 0xc3, 0x51]);
        assert_eq!(&f[38..46], &[1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d]);
        assert_eq!(&f[46..50], &[0x50, 0x10, 0x80, 0x00]);
        assert!(tcp_verifies(&f, 0));
        // Hand sum: pseudo-header 0a00+0001+0a00+0003+0006+0014, header c000+c351+0102+0304
        // +0a0b+0c0d+5010+8000; folded 819f -> !819f = 7e60.
        assert_eq!(&f[50..52], &[0x7e, 0x60]);
    }

    #[test]
    fn data_checksum_covers_the_zero_payload_length() {
        let s = seg(1460, SegOptions::default());
        let f = encode_headers(&s, &meta()).unwrap();
        assert_eq!(u16::from_be_bytes([f[16], f[17]]), 1500);
        assert!(tcp_verifies(&f, 1460));
        assert!(!tcp_verifies(&f, 1000));
    }

    #[test]
    fn corrupted_frames_carry_a_checksum_that_fails() {
        let s = seg(536, SegOptions::default());
        let mut m = meta();
        m.bad_checksum = true;
        let f = encode_headers(&s, &m).unwrap();
        assert!(!tcp_verifies(&f, 536));
        assert_eq!(verify(&f[14..34]), 0xffff, "the IP header stays valid");
    }

    #[test]
    fn a_syn_carries_its_flag_and_the_mss_option() {
        let opts = SegOptions {
            syn: Some(460),
            ..SegOptions::default()
        };
        let s = Segment {
            ack_flag: false,
            ..seg(0, opts)
        };
        assert_eq!(encode_options(&s), [2, 4, 0x01, 0xcc]);
        let f = encode_headers(&s, &meta()).unwrap();
        assert_eq!(f[47], 0x02, "SYN, no ACK");
    }

    #[test]
    fn window_scaling_puts_the_option_on_the_syn_and_the_shifted_window_in_the_field() {
        let opts = SegOptions {
            syn: Some(1460),
            wscale: Some(9),
            ..SegOptions::default()
        };
        let syn = Segment {
            ack_flag: false,
            ..seg(0, opts)
        };
        assert_eq!(encode_options(&syn), [2, 4, 0x05, 0xb4, 1, 3, 3, 9]);
        assert_eq!(syn.options_len(), 8);
        let f = encode_headers(&syn, &meta()).unwrap();
        assert!(tcp_verifies(&f, 0));
        // A 16 MiB receiver's ACK: 16 776 704 bytes with shift 9 is 32 767 in the field.
        let ack = Segment {
            wnd: 16_776_704,
            ..seg(
                0,
                SegOptions {
                    wnd_shift: 9,
                    ..SegOptions::default()
                },
            )
        };
        let f = encode_headers(&ack, &meta()).unwrap();
        assert_eq!(&f[48..50], &32_767u16.to_be_bytes());
        assert_eq!(f.len(), 14 + 20 + 20, "no option bytes");
    }

    #[test]
    fn options_have_the_documented_bytes_and_sizes() {
        let opts = SegOptions {
            ts: Some(Timestamps {
                val: 0x11223344,
                ecr: 0x55667788,
            }),
            sack: SackBlocks::from_slice(&[(SeqNum(100), SeqNum(200))]),
            smart: None,
            eln: true,
            cc: None,
            ..SegOptions::default()
        };
        let s = seg(0, opts);
        let o = encode_options(&s);
        assert_eq!(o.len() as u32, opts.len());
        assert_eq!(
            o,
            vec![
                1, 1, 8, 10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // timestamps
                1, 1, 5, 10, 0, 0, 0, 100, 0, 0, 0, 200, // one SACK block
                253, 4, 0x45, 0x4c, // ELN
            ]
        );
        let f = encode_headers(&s, &meta()).unwrap();
        assert_eq!(f[46] >> 4, (20 + 28) / 4);
        assert_eq!(u16::from_be_bytes([f[16], f[17]]) as u32, s.ip_len());
        assert!(tcp_verifies(&f, 0));
        let smart = SegOptions {
            smart: Some(SeqNum(0xdeadbeef)),
            ..SegOptions::default()
        };
        assert_eq!(
            encode_options(&seg(0, smart)),
            vec![254, 8, 0x53, 0x4d, 0xde, 0xad, 0xbe, 0xef]
        );
        let cc = SegOptions {
            cc: Some(0x01020304),
            ..SegOptions::default()
        };
        assert_eq!(
            encode_options(&seg(0, cc)),
            vec![253, 8, 0x43, 0x43, 1, 2, 3, 4]
        );
        assert_eq!(cc.len(), 8);
    }

    #[test]
    fn too_many_options_are_refused() {
        let b: Vec<_> = (0..3)
            .map(|i| (SeqNum(i * 10), SeqNum(i * 10 + 5)))
            .collect();
        let opts = SegOptions {
            ts: Some(Timestamps { val: 1, ecr: 1 }),
            sack: SackBlocks::from_slice(&b),
            smart: None,
            eln: true,
            cc: None,
            ..SegOptions::default()
        };
        assert!(encode_headers(&seg(0, opts), &meta()).is_err());
    }

    #[test]
    fn pcap_records_are_little_endian_microseconds() {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        w.frame(1_500_002_999, &[0xaa; 54], 10).unwrap();
        let b = w.finish().unwrap();
        assert_eq!(&b[0..4], &[0xd4, 0xc3, 0xb2, 0xa1]);
        assert_eq!(&b[20..24], &[1, 0, 0, 0]);
        assert_eq!(&b[24..28], &1u32.to_le_bytes());
        assert_eq!(&b[28..32], &500_002u32.to_le_bytes());
        assert_eq!(&b[32..36], &64u32.to_le_bytes());
        assert_eq!(&b[36..40], &64u32.to_le_bytes());
        assert_eq!(b.len(), 24 + 16 + 64);
    }
}
