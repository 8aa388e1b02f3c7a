//! Packet script of Linux's `reno` module (`RenoFlavor::Linux`, net/ipv4/tcp_cong.c
//! `tcp_reno_cong_avoid`) against RFC 5681's per-ACK rule behind a receiver that acknowledges
//! every second segment. The path sends 1000-byte segments through a 1 ms-per-segment
//! bottleneck with 9 ms of propagation behind it and 10 ms back; both senders start in
//! congestion avoidance (ssthresh = the initial window of 4 segments) with a 64 KB window.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{SackFlavor, SackRecovery};
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum, SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(900) };

/// Each change of the sender's window in its first 200 ms: (ms, segments).
fn windows(flavor: RenoFlavor) -> Vec<(u64, u32)> {
    let parts = SenderParts {
        cc: RenoCc::new(flavor, MSS, 4 * MSS, 65535)
            .with_initial_ssthresh(4 * MSS)
            .into(),
        recovery: SackRecovery::new(SackFlavor::Rfc6675, MSS, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let mut s = Sender::new(SenderConfig::new(MSS, 65535), parts, SPACE, 200_000);
    s.seed_rtt(ms(0), ms(20));
    let r = Receiver::new(
        ReceiverConfig::new(
            MSS,
            65535,
            DelayedAck::Deadline(SimDuration::from_millis(200)),
        ),
        SPACE,
        200_000,
        SeqNum(3),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    let mut seen = Vec::new();
    let mut last = p.sender.cwnd();
    for t in 1..=200 {
        p.run_until(ms(t));
        if p.sender.cwnd() != last {
            last = p.sender.cwnd();
            seen.push((t, last / MSS));
        }
    }
    seen
}

/// Each ACK acknowledges two segments (ACKs at the sender at 21 and 23 ms, then in pairs about
/// a round trip of 21 ms apart). Linux counts the segments: the window of 4 grows to 5 at 23 ms,
/// when 4 segments have been acknowledged, and from there by one segment a round trip, to 12
/// at 193 ms. RFC 5681 adds MSS²/cwnd per ACK, half a segment a round trip behind these ACKs,
/// and has 7 segments at 200 ms.
#[test]
fn linux_reno_counts_segments_where_rfc_5681_counts_acks() {
    assert_eq!(
        windows(RenoFlavor::Linux),
        [
            (23, 5),
            (62, 6),
            (84, 7),
            (105, 8),
            (127, 9),
            (150, 10),
            (172, 11),
            (193, 12)
        ]
    );
    let rfc = windows(RenoFlavor::Rfc5681);
    assert_eq!(
        rfc.first(),
        Some(&(21, 4)),
        "a fraction of a segment per ACK"
    );
    assert_eq!(rfc.last().map(|&(_, w)| w), Some(7));
}
