//! Packet script of the `linux` profile's receiver (Linux's delayed ACKs,
//! `receiver/quickack.rs`): quick-ack mode for the first segments, then an ACK every second
//! segment, and a lone segment acknowledged after the 40 ms ACK timeout. The path sends 1000-byte
//! segments through a 1 ms-per-segment bottleneck with 9 ms of propagation behind it and 10 ms
//! back; the receiver advertises 20 000 bytes (a quick-ack budget of 20 000 / 2000 = 10).

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{SackFlavor, SackRecovery};
use crate::tests::net::{Log, Path};
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum, SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(900) };

/// Thirteen segments with an initial window of 10. Segment k of the first window reaches the
/// receiver at 10 + k ms and, in quick-ack mode, is acknowledged at once (ACK at the sender at
/// 20 + k ms). Those ACKs clock out segments 10 and 11 at 20 ms and 12 at 21 ms (slow start),
/// which arrive at 30, 31 and 32 ms with the quick-ack budget spent: segment 10 waits, 11 makes
/// two unacknowledged segments (an ACK at once, at the sender at 41 ms), 12 is alone and waits
/// for the ACK timeout: the gaps were 1 ms, so ato stays 40 ms, and the ACK leaves at 72 ms.
#[test]
fn quick_acks_first_then_every_second_segment_and_a_40_ms_timeout() {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 65535).into(),
        recovery: SackRecovery::new(SackFlavor::Rfc6675, MSS, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let mut s = Sender::new(SenderConfig::new(MSS, 20_000), parts, SPACE, 13_000);
    s.seed_rtt(ms(0), ms(20));
    let r = Receiver::new(
        ReceiverConfig {
            sack: true,
            ..ReceiverConfig::new(
                MSS,
                20_000,
                DelayedAck::Linux(SimDuration::from_millis(200)),
            )
        },
        SPACE,
        13_000,
        SeqNum(3),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    p.run_until(ms(500));
    let acks: Vec<(u64, u64)> = p
        .log
        .iter()
        .filter_map(|&(t, l)| match l {
            Log::Ack { ack } => Some((t.as_nanos() / 1_000_000, ack / u64::from(MSS))),
            _ => None,
        })
        .collect();
    let mut want: Vec<(u64, u64)> = (0..10).map(|k| (20 + k, k + 1)).collect();
    want.extend([(41, 12), (82, 13)]);
    assert_eq!(acks, want);
    assert_eq!(p.receiver.stats().acks_sent, 12);
    assert!(p.sender.is_done());
}
