//! Packet scripts of F-RTO (RFC 5682): a spurious timeout from a delay spike of the ACK path
//! is detected on the second ACK after it and undone, without Eifel's timestamps; a genuine
//! timeout goes back to conventional recovery.
//!
//! The path: 1 ms per 1000-byte segment at the bottleneck, 49 ms of propagation behind it and
//! 50 ms back (the ACK of a segment sent at t into an idle link reaches the sender at t + 100
//! ms); NewReno with RFC 5681 Reno, initial window 10, ssthresh 65535, RFC 6298 timer (SRTT =
//! 100 ms from the handshake and the first sample, RTTVAR 37.5 ms: RTO = 250 ms, restarted by
//! every ACK). The first ten ACKs (100-109 ms) clock out segments 10-29 in slow start; they
//! reach the receiver at 150-169 ms.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{NewRenoFlavor, NewRenoRecovery};
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderEvent, SenderParts, SeqNum,
    SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(3000) };

fn path(frto: bool) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 65535).into(),
        recovery: NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        frto,
        ..SenderConfig::new(MSS, 65535)
    };
    let mut s = Sender::new(cfg, parts, SPACE, 60 * M);
    s.seed_rtt(ms(0), ms(100));
    let r = Receiver::new(
        ReceiverConfig::new(MSS, 65535, DelayedAck::Off),
        SPACE,
        60 * M,
        SeqNum(11),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(50));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(49);
    p
}

/// (ms, segment, retransmission) of the sends in `[from, to)` ms.
fn sends(p: &Path, from: u64, to: u64) -> Vec<(u64, u64, bool)> {
    p.sent_between(ms(from), ms(to))
        .into_iter()
        .map(|(t, off, r)| (t.as_nanos() / 1_000_000, off / M, r))
        .collect()
}

/// The receiver's ACKs from 150 to 600 ms are held until 600 ms (a 450 ms delay spike of the
/// ACK path), nothing is lost. The last ACK before the spike (109 ms) left the timer at 359 ms:
/// it fires and resends segment 10. At 650 ms the held ACKs arrive together. The first (11 000)
/// acknowledges the resent segment and more, below recover = 30 000: F-RTO sends two new
/// segments, 30 and 31, instead of going back (step 2b). The second (12 000) acknowledges a
/// segment that was never resent: spurious (step 3b). RFC 4015's response: ssthresh =
/// max(FlightSize 20 000, 65 535) = 65 535, cwnd = FlightSize 20 000 + min(1000, IW 4000) =
/// 21 000, and sending goes on after snd_max. One segment was resent in all. Plain NewReno goes
/// back N instead: it resends 31 segments the receiver already has, the duplicate ACKs they
/// cause trigger a needless fast retransmit, and ssthresh ends at 5500 (halved twice).
#[test]
fn a_spurious_timeout_is_detected_on_the_second_ack_and_undone() {
    let mut p = path(true);
    p.ack_hold = Some((ms(150), ms(600)));
    p.run_until(ms(649));
    assert_eq!(sends(&p, 110, 649), vec![(359, 10, true)]);
    p.run_until(ms(650));
    let at_650 = sends(&p, 650, 651);
    assert_eq!(
        at_650[..2],
        [(650, 30, false), (650, 31, false)],
        "{at_650:?}"
    );
    assert!(
        at_650.iter().all(|&(_, _, r)| !r),
        "no go-back-N: {at_650:?}"
    );
    let undo = p
        .trace
        .records
        .iter()
        .find(|(_, e)| matches!(e, SenderEvent::SpuriousUndo { .. }))
        .copied();
    assert_eq!(
        undo,
        Some((ms(650), SenderEvent::SpuriousUndo { ack: 12 * M }))
    );
    p.run_until(ms(5000));
    let st = *p.sender.stats();
    assert_eq!(
        (st.timeouts, st.spurious_timeouts, st.retransmitted_segments),
        (1, 1, 1)
    );
    assert_eq!(p.sender.ssthresh(), 65535);
    assert!(p.sender.is_done());

    let mut plain = path(false);
    plain.ack_hold = Some((ms(150), ms(600)));
    plain.run_until(ms(5000));
    let st = *plain.sender.stats();
    assert_eq!((st.timeouts, st.spurious_timeouts), (1, 0));
    assert_eq!(
        (st.retransmitted_segments, st.fast_retransmits),
        (31, 1),
        "{st:?}"
    );
    assert_eq!(plain.sender.ssthresh(), 5500);
}

/// A genuine loss: segment 10 is lost and the ACKs of segments 11-29 (duplicates) are held
/// until 600 ms, so the timer fires first (359 ms) and resends segment 10. The first ACK at
/// 650 ms is a duplicate (step 2a): conventional recovery, the go-back-N continues.
#[test]
fn a_genuine_timeout_falls_back_to_go_back_n() {
    let mut p = path(true);
    p.ack_hold = Some((ms(150), ms(600)));
    p.drop = Box::new(|_, off, n| off == 10 * M && n == 1);
    p.run_until(ms(5000));
    let st = *p.sender.stats();
    assert_eq!((st.timeouts, st.spurious_timeouts), (1, 0));
    assert!(p.sender.is_done());
    assert_eq!(sends(&p, 110, 649), vec![(359, 10, true)]);
    assert!(
        p.sender.ssthresh() < 65535,
        "the timeout's reduction stands"
    );
}
