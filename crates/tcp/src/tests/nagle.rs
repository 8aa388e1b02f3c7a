//! Packet script of the short last piece under Nagle: BSD's rule (RFC 896, 4.4BSD
//! `tcp_output`: a short segment that empties the send buffer goes only when nothing is
//! outstanding) against Linux's (`tcp_nagle_check` with Minshall's modification,
//! `tcp_minshall_check`: it goes unless a short segment sent earlier is unacknowledged).
//! 10 500 bytes in 1000-byte segments, a window of 20 segments (so the window never holds
//! the piece back), 1 ms per segment on the bottleneck, 9 ms of propagation forward and 10 ms
//! back, every segment acknowledged. Segment k (k = 0..9) arrives at 10 + k ms and its ACK at
//! 20 + k ms.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{SackFlavor, SackRecovery};
use crate::tests::net::{Log, Path};
use crate::tests::prr::{ms, rfc6298};
use crate::{
    CcPart, DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum,
    SeqSpace,
};
use engine::{SimDuration, SimTime};

const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(900) };
const TOTAL: u64 = 10_500;

/// When the 500-byte piece left, and when its ACK (the end of the transfer) came back.
fn last_piece(minshall: bool) -> (SimTime, SimTime) {
    let parts = SenderParts {
        cc: CcPart::custom(RenoCc::new(RenoFlavor::Linux, MSS, 20 * MSS, 1 << 20)),
        recovery: SackRecovery::new(SackFlavor::Rfc6675, MSS, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        nagle_minshall: minshall,
        ..SenderConfig::new(MSS, 1 << 20)
    };
    let mut s = Sender::new(cfg, parts, SPACE, TOTAL);
    s.seed_rtt(ms(0), ms(20));
    let r = Receiver::new(
        ReceiverConfig::new(MSS, 1 << 20, DelayedAck::Off),
        SPACE,
        TOTAL,
        SeqNum(3),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    p.run_until(ms(200));
    let sent = p
        .log
        .iter()
        .find(|(_, l)| {
            matches!(
                l,
                Log::Sent {
                    off: 10_000,
                    len: 500,
                    ..
                }
            )
        })
        .map(|&(t, _)| t)
        .expect("the piece was sent");
    let done = p
        .log
        .iter()
        .find(|(_, l)| matches!(l, Log::Ack { ack } if *ack == TOTAL))
        .map(|&(t, _)| t)
        .expect("the transfer ended");
    (sent, done)
}

/// BSD holds the piece until the ACK of segment 9 (29 ms) leaves nothing outstanding, and the
/// transfer ends a round trip later (29 + 0.5 + 9 + 10 = 48.5 ms). Linux sends it at once,
/// behind the ten full segments (no short segment is outstanding), and the transfer ends
/// when its ACK comes back: 10.5 ms on the bottleneck, 9 forward, 10 back, 29.5 ms.
#[test]
fn linux_sends_the_short_last_piece_at_once() {
    assert_eq!(last_piece(false), (ms(29), SimTime(48_500_000)));
    assert_eq!(last_piece(true), (ms(0), SimTime(29_500_000)));
}

/// When the application's second write, a 500-byte piece, left. The first write (sent at 0)
/// is a full segment or a 500-byte one; the second comes at 0 too, after it left (the script's
/// clock has not moved: nothing happens before the first arrival at 10 ms). Behind a full
/// segment BSD holds the piece until that segment's ACK, 20 ms (1 ms on the bottleneck, 9
/// forward, 10 back); Linux sends it at once, no short segment being outstanding. Behind a
/// short one both hold it until its ACK, 19.5 ms: Minshall's modification still allows one
/// short segment in flight.
fn second_write(minshall: bool, first: u64) -> SimTime {
    let parts = SenderParts {
        cc: CcPart::custom(RenoCc::new(RenoFlavor::Linux, MSS, 20 * MSS, 1 << 20)),
        recovery: SackRecovery::new(SackFlavor::Rfc6675, MSS, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        nagle_minshall: minshall,
        ..SenderConfig::new(MSS, 1 << 20)
    };
    let s = Sender::new(cfg, parts, SPACE, first + 500).with_app_limit(first);
    let r = Receiver::new(
        ReceiverConfig::new(MSS, 1 << 20, DelayedAck::Off),
        SPACE,
        first + 500,
        SeqNum(3),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    p.run_until(ms(5));
    p.sender.set_app_limit(first + 500);
    p.run_until(ms(100));
    p.log
        .iter()
        .find(|(_, l)| matches!(l, Log::Sent { off, .. } if *off == first))
        .map(|&(t, _)| t)
        .expect("the second write was sent")
}

#[test]
fn minshall_allows_one_short_segment_in_flight() {
    let got = [
        second_write(false, 1000),
        second_write(true, 1000),
        second_write(false, 500),
        second_write(true, 500),
    ];
    assert_eq!(
        got,
        [ms(20), ms(0), SimTime(19_500_000), SimTime(19_500_000)]
    );
}
