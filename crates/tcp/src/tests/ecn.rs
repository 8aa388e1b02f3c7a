//! Packet script of RFC 3168 ECN (`sender/ecn.rs`, the receiver's echo): Reno (RFC 5681) with
//! an initial window of 20 segments of 1000 bytes, every segment acknowledged, 10 ms each way,
//! no bottleneck, nothing lost. A router marks CE on the segments at offsets 5 and 7 (both sent
//! at 0 ms) and on the one at offset 100 (sent after 40 ms).
//!
//! - 20 ms: the ACKs of segments 0-4 grow the window (slow start, 20 → 25 segments, 30 sent);
//!   the ACK of segment 5 carries ECE: the window is halved once, ssthresh = cwnd = 24/2 = 12
//!   segments (the flight at that ACK), and the ACKs of 6-19 still carry ECE (until CWR) but
//!   do not reduce it again: once per window of data;
//! - the next new segment (30, sent at 20 ms) carries CWR; the ACKs of 20-29, sent before it,
//!   still echo ECE at 40 ms but acknowledge nothing sent after the reduction: ignored; the
//!   receiver stops echoing when segment 30 arrives;
//! - the mark on segment 100, sent later, halves the window a second time (at 140 ms:
//!   ssthresh 8500 bytes);
//! - no retransmission and no timeout at any point.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::RenoRecovery;
use crate::tests::bsd_reno::{ms, BASE};
use crate::tests::net::Path;
use crate::{DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqSpace};
use engine::SimDuration;

const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: BASE };

fn path() -> Path {
    path_with(None)
}

/// The script's path with RFC 8511 ABE's β_ecn (thousandths) on the sender.
fn path_with(abe: Option<u16>) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 20 * MSS, 1 << 20).into(),
        recovery: RenoRecovery::new(3).into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let sender = Sender::new(
        SenderConfig {
            ecn: true,
            abe,
            ..SenderConfig::new(MSS, 1 << 20)
        },
        parts,
        SPACE,
        1 << 30,
    );
    let receiver = Receiver::new(
        ReceiverConfig {
            ecn: true,
            window_shift: Some(5),
            ..ReceiverConfig::new(MSS, 1 << 20, DelayedAck::Off)
        },
        SPACE,
        1 << 30,
        crate::SeqNum(1),
    );
    let mut p = Path::new(sender, receiver, SPACE, SimDuration::from_millis(10));
    let m = u64::from(MSS);
    p.ce = Box::new(move |_, off| off == 5 * m || off == 7 * m || off == 100 * m);
    p
}

#[test]
fn a_ce_mark_halves_the_window_once_per_round_trip_without_a_retransmission() {
    let mut p = path();
    p.run_until(ms(20));
    let s = p.sender.stats();
    assert_eq!(
        s.ecn_responses, 1,
        "one reduction for two marks in one window"
    );
    assert_eq!(p.sender.ssthresh(), 12 * MSS, "half the 24-segment flight");
    // ACKs of 6..=19 grew it in congestion avoidance by about one segment since.
    let cwnd = p.sender.cwnd();
    assert!((12 * MSS..=14 * MSS).contains(&cwnd), "cwnd {cwnd}");
    assert_eq!(p.receiver.stats().ce_received, 2);
    let echoed = p.receiver.stats().ece_acks_sent;
    assert_eq!(echoed, 15, "ECE on the ACKs of segments 5-19, until CWR");
    p.run_until(ms(139));
    assert_eq!(
        p.sender.stats().ecn_responses,
        1,
        "the echoes of 20-29 are ignored"
    );
    p.run_until(ms(200));
    let s = p.sender.stats();
    assert_eq!(s.ecn_responses, 2, "the later mark reduces again");
    assert_eq!(s.abe_responses, 0, "RFC 3168's response, not ABE's");
    assert_eq!(p.sender.ssthresh(), 8500);
    assert_eq!(p.receiver.stats().ce_received, 3);
    assert_eq!(s.retransmitted_segments, 0);
    assert_eq!(s.timeouts, 0);
    assert!(p.sender.ssthresh() < 12 * MSS);
}

/// RFC 8511 ABE on the same script: the mark on segment 5 (its ECE arrives at 20 ms) sets
/// ssthresh to 0.8 × the 24-segment flight = 19 200 bytes (RFC 3168 alone: 12 000, the test
/// above) and cwnd to it, once for both marks of the window; the echoes of 20-29 at 40 ms are
/// ignored. The larger window sends segment 100 sooner (at 80 ms), and its mark's echo
/// reduces again at 100 ms, to 0.8 × the 22-segment flight then = 17 600 bytes; no
/// retransmission, no timeout.
#[test]
fn with_abe_a_ce_mark_reduces_the_window_to_beta_ecn_once_per_round_trip() {
    let mut p = path_with(Some(800));
    p.run_until(ms(19));
    assert_eq!(p.sender.stats().ecn_responses, 0);
    p.run_until(ms(20));
    let s = p.sender.stats();
    assert_eq!((s.ecn_responses, s.abe_responses), (1, 1));
    assert_eq!(p.sender.ssthresh(), 19_200, "0.8 × the 24-segment flight");
    // ACKs of 6..=19 grew it in congestion avoidance by MSS²/cwnd each since.
    assert_eq!(p.sender.cwnd(), 19_959);
    p.run_until(ms(99));
    let s = p.sender.stats();
    assert_eq!(s.ecn_responses, 1, "the echoes of 20-29 are ignored");
    assert_eq!(s.ece_acks, 25, "ECE on the ACKs of 5-29");
    p.run_until(ms(100));
    let s = p.sender.stats();
    assert_eq!((s.ecn_responses, s.abe_responses), (2, 2));
    assert_eq!(p.sender.ssthresh(), 17_600, "0.8 × the 22-segment flight");
    p.run_until(ms(200));
    let s = p.sender.stats();
    assert_eq!((s.ecn_responses, s.abe_responses), (2, 2));
    assert_eq!(s.retransmitted_segments, 0);
    assert_eq!(s.timeouts, 0);
}

/// The receiver alone (RFC 3168 §6.1.3): ECE from the first CE on every ACK until a segment
/// with CWR; a CE in the CWR segment itself starts a new echo; without `ecn` nothing is echoed.
#[test]
fn the_receiver_echoes_ece_until_cwr() {
    use crate::{EcnBits, SegOptions, Segment};
    let seg = |k: u32, ce: bool, cwr: bool| Segment {
        seq: BASE.plus(k * MSS),
        ack: crate::SeqNum(1),
        len: MSS,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions {
            ecn: EcnBits {
                ect: true,
                ce,
                cwr,
                ece: false,
            },
            ..SegOptions::default()
        },
    };
    let echoes = |ecn: bool| {
        let cfg = ReceiverConfig {
            ecn,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        };
        let mut r = Receiver::new(cfg, SPACE, 1 << 30, crate::SeqNum(1));
        let marks = [
            (false, false),
            (true, false),
            (false, false),
            (false, true),
            (false, false),
            (true, true),
            (false, false),
        ];
        let mut out = Vec::new();
        for (k, &(ce, cwr)) in marks.iter().enumerate() {
            r.on_segment(ms(k as u64), &seg(k as u32, ce, cwr));
            out.push(r.poll_transmit(ms(k as u64)).expect("an ACK").opts.ecn.ece);
        }
        out
    };
    assert_eq!(echoes(true), [false, true, true, false, false, true, true]);
    assert_eq!(echoes(false), [false; 7]);
}
