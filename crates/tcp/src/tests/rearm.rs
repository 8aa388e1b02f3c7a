//! Packet script of Linux's re-arming of the retransmission timer when the oldest outstanding
//! segment is retransmitted (`SenderConfig::rearm_on_head_retransmit`; Linux
//! net/ipv4/tcp_output.c, `tcp_xmit_retransmit_queue`), against RFC 6298's timer, which only
//! an ACK that advances `snd_una` restarts (§5.3).
//!
//! A RACK-TLP SACK sender (RFC 8985) sends 400 segments of 1000 bytes through a 1 ms-per-segment
//! bottleneck with 9 ms of propagation behind it and 10 ms back (delayed ACKs off; the
//! handshake measured 20 ms, RTO 200 ms); its window grows to at most 60 segments (the
//! receiver offers 1 MiB), so a queue stands at the bottleneck and a copy's loss shows in
//! SACKs 30-60 ms after it was sent.
//!
//! Segment 100 is lost six times (in the `wlan-n` preset's cell an access point's CoDel dropped
//! the 9 dB station's segment three times, docs/scenarios.md): RACK resends it each time the
//! SACKs of the segments sent after the last copy show that copy lost, and the seventh copy
//! arrives.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::RackRecovery;
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderEvent, SenderParts, SeqNum,
    SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
/// When the receiver has every byte with Linux's rule (ms).
const DONE: u64 = 425;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(5000) };

fn path(rearm: bool) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 60 * MSS).into(),
        recovery: RackRecovery::new(MSS, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        tlp: true,
        rearm_on_head_retransmit: rearm,
        ..SenderConfig::new(MSS, 1 << 20)
    };
    let mut s = Sender::new(cfg, parts, SPACE, 400 * M);
    s.seed_rtt(ms(0), ms(20));
    let r = Receiver::new(
        ReceiverConfig {
            sack: true,
            ..ReceiverConfig::new(MSS, 1 << 20, DelayedAck::Off)
        },
        SPACE,
        400 * M,
        SeqNum(9),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    p.ack_window = Some(1 << 20);
    p.drop = Box::new(|_, off, n| off == 100 * M && n <= 6);
    p
}

/// Segment 100's transmissions (ms).
fn copies(p: &Path) -> Vec<u64> {
    p.sent_between(ms(0), ms(10_000))
        .into_iter()
        .filter(|&(_, off, _)| off == 100 * M)
        .map(|(t, _, _)| t.as_nanos() / 1_000_000)
        .collect()
}

/// The ACK at 129 ms is the last to advance `snd_una` (to segment 100) for 200 ms, and the
/// retransmission timer stands at 333 ms (the RTO is 200 ms). RACK resends
/// segment 100 at 133 ms (three SACKed segments after it), and at 193, 224, 255 and 286 ms,
/// each time when the SACKs of the segments sent after the last copy show that copy lost; the
/// copy of 317 ms arrives at 327 ms. With Linux's rule each of those retransmissions restarts
/// the timer, so it never expires: no timeout, six segments resent, the transfer done at
/// 581 ms. With RFC 6298's the timer of 129 ms expires at 333 ms, before the copy's ACK (337 ms)
/// is back: a timeout, segment 100 sent an eighth time, and the go-back-N that follows resends
/// 16 segments the receiver already had.
#[test]
fn retransmitting_the_head_rearms_the_timer_as_linux_does() {
    let mut linux = path(true);
    linux.run_until(ms(5000));
    assert_eq!(copies(&linux), [75, 133, 193, 224, 255, 286, 317]);
    let st = linux.sender.stats();
    assert_eq!((st.timeouts, st.retransmitted_segments), (0, 6));
    assert_eq!(linux.receiver.complete_at(), Some(ms(DONE)));

    let mut rfc = path(false);
    rfc.run_until(ms(5000));
    assert_eq!(copies(&rfc), [75, 133, 193, 224, 255, 286, 317, 333]);
    let st = rfc.sender.stats();
    assert_eq!((st.timeouts, st.retransmitted_segments), (1, 23));
    assert!(rfc
        .trace
        .records
        .iter()
        .any(|&(t, e)| t == ms(333)
            && matches!(e, SenderEvent::Timeout { seq, .. } if seq == 100 * M)));
}

/// The bare rule: right after the head's second retransmission at 193 ms the timer is due one
/// RTO (200 ms) after it with Linux's rule, and stays at 333 ms without. At the first, 133 ms, RACK's reordering timer is pending (it waits out the
/// segments sent just before the ones SACKed), and Linux leaves the timer then
/// (`icsk_pending == ICSK_TIME_REO_TIMEOUT`): due at 333 ms either way.
#[test]
fn the_heads_retransmission_restarts_the_timer_from_its_send_time() {
    for (rearm, first, due) in [(true, 333, 393), (false, 333, 333)] {
        let mut p = path(rearm);
        p.run_until(ms(133));
        assert_eq!(copies(&p), [75, 133]);
        assert_eq!(p.sender.poll_timeout(), Some(ms(first)), "rearm {rearm}");
        p.run_until(ms(193));
        assert_eq!(copies(&p), [75, 133, 193]);
        assert_eq!(p.sender.poll_timeout(), Some(ms(due)), "rearm {rearm}");
    }
}
