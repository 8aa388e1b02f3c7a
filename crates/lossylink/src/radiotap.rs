//! 802.11 framing of an 802.11 DCF port's capture (a cell with `dcf`, a `medium = "dcf"` hop),
//! so that Wireshark tells the MAC's retries from TCP's retransmissions: link type
//! `LINKTYPE_IEEE802_11_RADIOTAP` (127), and per frame a radiotap header (Radiotap
//! specification, radiotap.org: version 0; the Flags field; on a data frame of a legacy mode
//! (802.11a/g OFDM, 802.11b DSSS, when the port's mode is known: a cell with `dcf.phy`) the
//! Rate field (present bit 2, u8, 500 kb/s units: 108 for 54 Mb/s, 2 for 1 Mb/s), as on the
//! BlockAckReqs below; on a data frame of an HT mode
//! (802.11n) the MCS field (present bit 19: known, flags, MCS index: bandwidth, guard
//! interval, HT-mixed format, BCC, and the MCS index 8·(N_SS − 1) + m), of a VHT mode
//! (802.11ac) the VHT field (present bit 21, aligned to 2: known, flags, bandwidth, MCS and
//! N_SS of user 0, BCC)), then
//!
//! - a data frame: the 802.11 data header (IEEE 802.11-2016 §9.3.2.1: frame control type 2,
//!   neither To DS nor From DS, as in an IBSS: address 1 the receiver, 2 the transmitter, 3 the
//!   BSSID; the Retry bit set on a MAC retransmission; one sequence number per transmitting
//!   node, the same on every attempt at a frame), an LLC/SNAP header for IPv4 (RFC 1042), and
//!   the IP packet as the Ethernet capture has it;
//! - a MAC ACK (§9.3.1.4): frame control type 1 subtype 13 and the receiver address, the
//!   transmitter of the data frame; after an A-MPDU a compressed Block Ack (§9.3.1.9.3,
//!   subtype 9) whose bitmap marks the MPDUs of that aggregate received intact (the
//!   receiver's scoreboard of earlier aggregates is not shown); each MPDU of an A-MPDU carries
//!   radiotap's A-MPDU status field (present bit 20: the aggregate's reference number, the
//!   last subframe flagged);
//! - a BlockAckReq (§9.3.1.8, subtype 8: receiver, transmitter, compressed BAR control, the
//!   starting sequence number of the aggregate it asks about) after a missed Block Ack, and
//!   the Block Ack that answers it, each with radiotap's Rate field (present bit 2, 500 kb/s
//!   units: the lowest basic rate the BlockAckReq goes at, crate net's
//!   `aggregating::bar_mode`, and its control response).
//!
//! A frame the channel corrupted carries radiotap's "failed FCS check" flag (no FCS is written);
//! its TCP checksum fails too, as in the Ethernet captures. Wireshark's 802.11 dissector shows a
//! frame with the Retry bit and its transmitter's previous sequence number as a retransmission
//! and does not hand it to IP, so TCP's analysis sees each MAC-retried segment once.

use net::medium::dcf::phy::{Gi, Mode, Width};

/// The pcap link type of 802.11 frames behind a radiotap header.
pub const LINKTYPE_IEEE802_11_RADIOTAP: u32 = 127;

/// Radiotap flag: the frame failed its FCS check.
const FLAG_BAD_FCS: u8 = 0x40;
/// LLC/SNAP header of an IPv4 packet (RFC 1042).
const LLC_SNAP_IPV4: [u8; 8] = [0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00];
/// Frame control, first byte: version 0, type data (2), subtype 0.
const FC_DATA: u8 = 0x08;
/// Frame control, first byte: version 0, type control (1), subtype ACK (13).
const FC_ACK: u8 = 0xd4;
/// Frame control flags: Retry.
const FC_RETRY: u8 = 0x08;

/// Radiotap present bits: Flags, Rate, MCS, A-MPDU status, VHT.
const PRESENT_FLAGS: u32 = 1 << 1;
const PRESENT_RATE: u32 = 1 << 2;
const PRESENT_MCS: u32 = 1 << 19;
const PRESENT_AMPDU: u32 = 1 << 20;
const PRESENT_VHT: u32 = 1 << 21;

/// Append `field` to a radiotap header `out` at its natural alignment `align` (the
/// specification's rule: each field aligned to its size from the header's start).
fn field(out: &mut Vec<u8>, align: usize, field: &[u8]) {
    while !out.len().is_multiple_of(align) {
        out.push(0);
    }
    out.extend_from_slice(field);
}

/// The radiotap header: version 0, pad, length, present bits, the flags; for an HT `mode`
/// the MCS field, for a VHT one the VHT field; for an MPDU of an A-MPDU (`ampdu`: its
/// reference number, whether it is the last subframe) the A-MPDU status field. Without
/// either: 9 bytes, Flags alone.
fn radiotap(corrupted: bool, mode: Option<Mode>, ampdu: Option<(u32, bool)>) -> Vec<u8> {
    radiotap_with(corrupted, (mode, false), ampdu)
}

/// [`radiotap`], with the Rate field of a non-HT `mode` if `rate` (data frames, and the
/// control frames whose mode the MAC recorded; an ACK has none).
fn radiotap_with(
    corrupted: bool,
    (mode, rate): (Option<Mode>, bool),
    ampdu: Option<(u32, bool)>,
) -> Vec<u8> {
    let mut out = vec![0, 0, 0, 0, 0, 0, 0, 0];
    let mut present = PRESENT_FLAGS;
    out.push(if corrupted { FLAG_BAD_FCS } else { 0 });
    if let (true, Some(m @ (Mode::Ofdm { .. } | Mode::Dsss { .. }))) = (rate, mode) {
        // The Rate field (bit 2, u8): the legacy rate in 500 kb/s units.
        present |= PRESENT_RATE;
        out.push(u8::try_from(m.rate_bps() / 500_000).unwrap_or(u8::MAX));
    }
    if let Some(Mode::Ht {
        mcs,
        nss,
        width,
        gi,
    }) = mode
    {
        // known: bandwidth, MCS index, guard interval, HT format, FEC type; flags: bandwidth
        // 0 = 20, 1 = 40 MHz, 0x04 short GI, HT-mixed (0x08 clear), BCC (0x10 clear); the MCS
        // index 8·(N_SS − 1) + m.
        present |= PRESENT_MCS;
        let bw = u8::from(width == Width::W40);
        let sgi = if gi == Gi::Short { 0x04 } else { 0 };
        let index = 8 * nss.saturating_sub(1) + mcs;
        field(&mut out, 1, &[0x1f, bw | sgi, index]);
    }
    if let Some((reference, last)) = ampdu {
        // reference (u32), flags (u16: 0x0004 last subframe known, 0x0008 this is the last),
        // delimiter CRC, reserved.
        present |= PRESENT_AMPDU;
        let flags: u16 = 0x0004 | if last { 0x0008 } else { 0 };
        let mut f = reference.to_le_bytes().to_vec();
        f.extend_from_slice(&flags.to_le_bytes());
        f.extend_from_slice(&[0, 0]);
        field(&mut out, 4, &f);
    }
    if let Some(Mode::Vht {
        mcs,
        nss,
        width,
        gi,
    }) = mode
    {
        // known (u16): guard interval 0x0004, bandwidth 0x0040; flags 0x04 short GI;
        // bandwidth 0 = 20, 1 = 40, 4 = 80 MHz; mcs_nss[0] = MCS << 4 | N_SS; coding 0 (BCC);
        // group 0; partial AID 0.
        present |= PRESENT_VHT;
        let bw = match width {
            Width::W20 => 0,
            Width::W40 => 1,
            Width::W80 => 4,
        };
        let sgi = if gi == Gi::Short { 0x04 } else { 0 };
        field(
            &mut out,
            2,
            &[0x44, 0, sgi, bw, (mcs << 4) | nss, 0, 0, 0, 0, 0, 0, 0],
        );
    }
    let len = out.len() as u16;
    out[2..4].copy_from_slice(&len.to_le_bytes());
    out[4..8].copy_from_slice(&present.to_le_bytes());
    out
}

/// Addressing and state of one data frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataFrame {
    /// Receiver (address 1).
    pub receiver: [u8; 6],
    /// Transmitter (address 2).
    pub transmitter: [u8; 6],
    /// BSSID (address 3).
    pub bssid: [u8; 6],
    /// Sequence number (12 bits), the same on every attempt at the frame.
    pub seq: u16,
    /// A MAC retransmission.
    pub retry: bool,
    /// Corrupted by the channel.
    pub corrupted: bool,
    /// The PHY mode it was sent in (its rate in radiotap: the Rate field of a legacy mode, the
    /// MCS or VHT field of an HT or VHT one), if known.
    pub mode: Option<Mode>,
    /// The A-MPDU it went in: reference number and whether it is the last subframe.
    pub ampdu: Option<(u32, bool)>,
}

/// The bytes before the payload of a data frame carrying the IP packet whose Ethernet capture
/// headers are `ethernet` (its 14-byte Ethernet header is dropped).
pub fn data_headers(f: &DataFrame, ethernet: &[u8]) -> Vec<u8> {
    let ip = ethernet
        .get(crate::pcap::ETHERNET_HEADER..)
        .unwrap_or_default();
    let mut out = Vec::with_capacity(9 + 24 + 8 + ip.len());
    out.extend_from_slice(&radiotap_with(f.corrupted, (f.mode, true), f.ampdu));
    out.push(FC_DATA);
    out.push(if f.retry { FC_RETRY } else { 0 });
    out.extend_from_slice(&[0, 0]); // duration
    out.extend_from_slice(&f.receiver);
    out.extend_from_slice(&f.transmitter);
    out.extend_from_slice(&f.bssid);
    out.extend_from_slice(&((f.seq & 0x0fff) << 4).to_le_bytes()); // fragment 0
    out.extend_from_slice(&LLC_SNAP_IPV4);
    out.extend_from_slice(ip);
    out
}

/// A MAC ACK to `receiver` (the transmitter of the data frame it acknowledges).
pub fn ack_frame(receiver: [u8; 6], corrupted: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(9 + 10);
    out.extend_from_slice(&radiotap(corrupted, None, None));
    out.extend_from_slice(&[FC_ACK, 0, 0, 0]);
    out.extend_from_slice(&receiver);
    out
}

/// Frame control, first byte: version 0, type control (1), subtype Block Ack (9).
const FC_BLOCK_ACK: u8 = 0x94;
/// Frame control, first byte: version 0, type control (1), subtype BlockAckReq (8).
const FC_BLOCK_ACK_REQ: u8 = 0x84;

/// A compressed BlockAckReq (IEEE 802.11-2016 §9.3.1.8; no FCS, as the other frames) from an
/// A-MPDU's transmitter `ta` to its receiver `ra`, asking from `start_seq` on, in `mode` (its
/// rate in radiotap's Rate field).
pub fn block_ack_req_frame(
    (ra, ta): ([u8; 6], [u8; 6]),
    start_seq: u16,
    (corrupted, mode): (bool, Option<Mode>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(10 + 20);
    out.extend_from_slice(&radiotap_with(corrupted, (mode, true), None));
    out.extend_from_slice(&[FC_BLOCK_ACK_REQ, 0, 0, 0]);
    out.extend_from_slice(&ra);
    out.extend_from_slice(&ta);
    // BAR control: compressed bitmap (bit 2), TID 0; starting sequence control: fragment 0.
    out.extend_from_slice(&[0x04, 0]);
    out.extend_from_slice(&((start_seq & 0x0fff) << 4).to_le_bytes());
    out
}

/// A compressed Block Ack (IEEE 802.11-2016 §9.3.1.9.3; no FCS, as the other frames) from
/// the receiver of an A-MPDU: `(ra, ta)` the A-MPDU's transmitter and receiver, its starting
/// sequence number and the bitmap of the MPDUs received from there.
pub fn block_ack_frame(
    (ra, ta): ([u8; 6], [u8; 6]),
    start_seq: u16,
    bitmap: u64,
    (corrupted, mode): (bool, Option<Mode>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(10 + 28);
    out.extend_from_slice(&radiotap_with(corrupted, (mode, true), None));
    out.extend_from_slice(&[FC_BLOCK_ACK, 0, 0, 0]);
    out.extend_from_slice(&ra);
    out.extend_from_slice(&ta);
    // BA control: compressed bitmap (bit 2), TID 0; starting sequence control: fragment 0.
    out.extend_from_slice(&[0x04, 0]);
    out.extend_from_slice(&((start_seq & 0x0fff) << 4).to_le_bytes());
    out.extend_from_slice(&bitmap.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_laid_out_as_802_11_says() {
        let eth: Vec<u8> = (0..14).chain(100..120).collect();
        let f = DataFrame {
            receiver: [2, 0, 0, 0, 0, 5],
            transmitter: [2, 0, 0, 0, 0, 3],
            bssid: [2, 0, 0, 0, 0, 3],
            seq: 0x123,
            retry: true,
            corrupted: false,
            mode: None,
            ampdu: None,
        };
        let h = data_headers(&f, &eth);
        assert_eq!(&h[..9], &[0, 0, 9, 0, 2, 0, 0, 0, 0]);
        assert_eq!(&h[9..11], &[0x08, 0x08]); // data, Retry
        assert_eq!(&h[13..19], &f.receiver);
        assert_eq!(&h[19..25], &f.transmitter);
        assert_eq!(&h[31..33], &[0x30, 0x12]); // 0x123 << 4, little-endian
        assert_eq!(&h[33..41], &LLC_SNAP_IPV4);
        assert_eq!(&h[41..], &eth[14..]);
        // An HT frame: the MCS field after Flags (present bits 1 and 19), 12 bytes in all.
        let ht = DataFrame {
            mode: Some(Mode::Ht {
                mcs: 7,
                nss: 2,
                width: Width::W40,
                gi: Gi::Short,
            }),
            ..f
        };
        let h = data_headers(&ht, &eth);
        assert_eq!(
            &h[..12],
            &[0, 0, 12, 0, 0x02, 0, 0x08, 0, 0, 0x1f, 0x05, 15]
        );
        assert_eq!(&h[12..14], &[0x08, 0x08]);
        // Legacy frames: the Rate field after Flags (present bits 1 and 2), 10 bytes in all;
        // 54 Mb/s OFDM is 108 · 500 kb/s, 1 Mb/s DSSS 2.
        let dsss = Mode::Dsss {
            rate_bps: 1_000_000,
            plcp: engine::SimDuration::from_micros(192),
        };
        for (mode, rate) in [
            (Mode::ofdm(54, false), 108),
            (Mode::ofdm(6, true), 12),
            (Some(dsss), 2),
        ] {
            let h = data_headers(&DataFrame { mode, ..f }, &eth);
            assert_eq!(&h[..10], &[0, 0, 10, 0, 0x06, 0, 0, 0, 0, rate], "{mode:?}");
            assert_eq!(&h[10..12], &[0x08, 0x08]);
        }
        // A VHT frame: a pad byte, then the 12-byte VHT field (aligned to 2): 22 bytes.
        let vht = DataFrame {
            mode: Some(Mode::Vht {
                mcs: 9,
                nss: 1,
                width: Width::W80,
                gi: Gi::Long,
            }),
            ..f
        };
        let h = data_headers(&vht, &eth);
        assert_eq!(&h[..4], &[0, 0, 22, 0]);
        assert_eq!(u32::from_le_bytes(h[4..8].try_into().unwrap()), 0x0020_0002);
        assert_eq!(&h[10..16], &[0x44, 0, 0, 4, 0x91, 0]);
        assert_eq!(&h[22..24], &[0x08, 0x08]);
        // An MPDU of an A-MPDU in an HT PPDU: MCS at 9, the A-MPDU status aligned to 4 at 12
        // (reference 7, last subframe known and set).
        let agg = DataFrame {
            ampdu: Some((7, true)),
            ..ht
        };
        let h = data_headers(&agg, &eth);
        assert_eq!(&h[..4], &[0, 0, 20, 0]);
        assert_eq!(u32::from_le_bytes(h[4..8].try_into().unwrap()), 0x0018_0002);
        assert_eq!(&h[9..12], &[0x1f, 0x05, 15]);
        assert_eq!(&h[12..20], &[7, 0, 0, 0, 0x0c, 0, 0, 0]);
        // Its Block Ack: control frame subtype 9, compressed bitmap.
        let ba = block_ack_frame((f.receiver, f.transmitter), 0x123, 0b1011, (false, None));
        assert_eq!(ba.len(), 9 + 28);
        assert_eq!(&ba[9..11], &[0x94, 0]);
        assert_eq!(&ba[13..19], &f.receiver);
        assert_eq!(&ba[19..25], &f.transmitter);
        assert_eq!(&ba[25..29], &[0x04, 0, 0x30, 0x12]);
        assert_eq!(&ba[29..37], &[0b1011, 0, 0, 0, 0, 0, 0, 0]);
        // A BlockAckReq at 6 Mb/s (subtype 8, Rate 12 · 500 kb/s) and its Block Ack.
        let six = Mode::ofdm(6, false);
        let bar = block_ack_req_frame((f.receiver, f.transmitter), 0x123, (false, six));
        assert_eq!(bar.len(), 10 + 20);
        assert_eq!(&bar[..4], &[0, 0, 10, 0]);
        assert_eq!(u32::from_le_bytes(bar[4..8].try_into().unwrap()), 0b110);
        assert_eq!(bar[9], 12);
        assert_eq!(&bar[10..12], &[0x84, 0]);
        assert_eq!(&bar[14..20], &f.receiver);
        assert_eq!(&bar[20..26], &f.transmitter);
        assert_eq!(&bar[26..30], &[0x04, 0, 0x30, 0x12]);
        let ba6 = block_ack_frame((f.transmitter, f.receiver), 0x123, 1, (false, six));
        assert_eq!((ba6.len(), ba6[9], ba6[10]), (10 + 28, 12, 0x94));
        let a = ack_frame(f.transmitter, true);
        assert_eq!(a.len(), 19);
        assert_eq!(a[8], FLAG_BAD_FCS);
        assert_eq!(&a[9..11], &[0xd4, 0]);
        assert_eq!(&a[13..], &f.transmitter);
    }
}
