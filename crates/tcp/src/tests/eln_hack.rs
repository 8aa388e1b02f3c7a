//! Packet scripts of TCP-ELN's identification by the header (eln-llelsn spec §3.2
//! `hack_header`, the paper's option (b): the HACK header checksum verifies the header of a
//! corrupted frame, which names its connection), with explicit times, on the two-host path of
//! `tests/net.rs`: 1000-byte segments, a 1 ms-per-segment bottleneck with 49 ms behind it and
//! 50 ms back, delayed ACKs off, a window of 20 segments at time zero, so the ACK of segment k
//! reaches the sender at 100 + k ms. Segment 0 arrives corrupted at 50 ms: with its header
//! intact the receiver counts it and the duplicate of 101 ms carries the count; with its header
//! hit nobody knows whose it was, nothing is counted, and the sender is Reno.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{TcpElnConfig, TcpElnRecovery};
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts};
use crate::{SeqNum, SeqSpace};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(1000) };

/// Segment 0 lost to corruption on its first transmission; `header_hit` says whether the
/// corruption reached its header.
fn path(header_hit: bool) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 20 * MSS, 1 << 20).into(),
        recovery: TcpElnRecovery::new(TcpElnConfig::default()).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let mut s = Sender::new(SenderConfig::new(MSS, 65535), parts, SPACE, 60 * M);
    s.seed_rtt(ms(0), ms(100));
    let r = Receiver::new(
        ReceiverConfig {
            corruption_counter: true,
            identify_by_header: true,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        60 * M,
        SeqNum(7),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(50));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(49);
    p.drop = Box::new(|_, off, n| n == 1 && off == 0);
    p.corrupt = Box::new(|off| off == 0);
    p.header_hit = Box::new(move |off| header_hit && off == 0);
    p
}

/// The retransmissions, as (ms, segment).
fn resent(p: &Path) -> Vec<(u64, u64)> {
    p.sent_between(ms(0), ms(10_000))
        .into_iter()
        .filter(|&(_, _, r)| r)
        .map(|(t, off, _)| (t.as_nanos() / 1_000_000, off / M))
        .collect()
}

/// Header intact: the receiver counts the corrupted segment (50 ms), the first duplicate
/// (101 ms) carries the count and TCP-ELN resends segment 0 at once, without a fast retransmit;
/// the retransmission's ACK (201 ms) covers all 20 segments and the window is the stored one.
#[test]
fn a_corrupted_frame_whose_header_survives_is_attributed() {
    let mut p = path(false);
    p.run_until(ms(150));
    assert_eq!(p.receiver.stats().corruption_count, 1);
    assert_eq!(resent(&p), vec![(101, 0)]);
    assert_eq!(p.sender.stats().fast_retransmits, 0);
    p.run_until(ms(201));
    assert!(p.sender.snd_una() >= 20 * M, "{}", p.sender.snd_una());
    assert_eq!(p.sender.stats().fast_retransmits, 0);
    assert!(p.sender.ssthresh() > 60 * MSS, "no window cut");
}

/// Header hit: the frame cannot be attributed, the counter stays 0, no ACK carries it, and the
/// sender is Reno: the third duplicate (103 ms) is a fast retransmit of segment 0 that halves
/// ssthresh to 10 segments.
#[test]
fn a_corrupted_frame_whose_header_is_hit_is_not_attributed() {
    let mut p = path(true);
    p.run_until(ms(150));
    assert_eq!(p.receiver.stats().corruption_count, 0);
    assert_eq!(resent(&p), vec![(103, 0)]);
    assert_eq!(p.sender.stats().fast_retransmits, 1);
    assert_eq!(p.sender.ssthresh(), 10 * MSS);
}
