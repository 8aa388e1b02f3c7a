//! Packet scripts of RACK-TLP (RFC 8985): a tail loss repaired by the probe instead of a
//! retransmission timeout. Ten segments of 1000 bytes leave at time zero (initial window 10)
//! through a 1 ms-per-segment bottleneck with 9 ms of propagation behind it and 10 ms back, so
//! segment k reaches the receiver at 10 + k ms and its ACK the sender at 20 + k ms (delayed
//! ACKs off). The handshake measured 20 ms and the first segment's ACK confirms it: SRTT =
//! 20 ms, RTTVAR = 7.5 ms, RTO = max(200 ms, 20 + 4·7.5 ms) = 200 ms (RFC 6298 with Linux's
//! minimum), restarted by every ACK.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{LossRecovery, Phase, RackRecovery, SackFlavor, SackRecovery};
use crate::tests::net::{Log, Path};
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderEvent, SenderParts, SeqNum,
    SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(5000) };

fn path(recovery: Box<dyn LossRecovery>, tlp: bool, lost: &'static [u64]) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 65535).into(),
        recovery: recovery.into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        tlp,
        ..SenderConfig::new(MSS, 65535)
    };
    let mut s = Sender::new(cfg, parts, SPACE, 10 * M);
    s.seed_rtt(ms(0), ms(20));
    let r = Receiver::new(
        ReceiverConfig {
            sack: true,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        10 * M,
        SeqNum(9),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    p.drop = Box::new(move |_, off, n| n == 1 && lost.contains(&(off / M)));
    p
}

fn rack_tlp(lost: &'static [u64]) -> Path {
    path(Box::new(RackRecovery::new(MSS, 3)), true, lost)
}

fn plain_sack(lost: &'static [u64]) -> Path {
    path(
        Box::new(SackRecovery::new(SackFlavor::Rfc6675, MSS, 3)),
        false,
        lost,
    )
}

/// Retransmissions as (ms, segment of 1000 bytes).
pub(crate) fn resent(p: &Path) -> Vec<(u64, u64)> {
    p.sent_between(ms(1), ms(10_000))
        .into_iter()
        .filter(|&(_, _, r)| r)
        .map(|(t, off, _)| (t.as_nanos() / 1_000_000, off / M))
        .collect()
}

/// The last segment is lost. Its ACK never comes; the ACKs of segments 0-8 arrive at 20-28
/// ms. At 28 ms one segment is in flight, so PTO = 2·SRTT + 200 ms (worst-case delayed ACK) =
/// 240 ms, capped by the retransmission timer at 28 + 200 = 228 ms: at 228 ms the probe fires
/// in the RTO's place and resends segment 9 (no new data is left), which completes the
/// transfer at 238 ms with no timeout: cwnd keeps growing in slow start (10 + 10 segments)
/// and the RTO is not backed off.
/// The plain SACK sender times out at the same instant and collapses cwnd to one segment.
#[test]
fn the_probe_repairs_a_lost_last_segment_instead_of_a_timeout() {
    let mut p = rack_tlp(&[9]);
    p.run_until(ms(1000));
    assert_eq!(resent(&p), vec![(228, 9)]);
    let st = *p.sender.stats();
    assert_eq!((st.tlp_probes, st.timeouts, st.fast_retransmits), (1, 0, 0));
    assert_eq!(p.receiver.complete_at(), Some(ms(238)));
    assert!(p.sender.is_done());
    assert_eq!(
        p.sender.cwnd(),
        20 * MSS,
        "slow start from 10 over ten ACKs, no cut"
    );
    assert!(p
        .trace
        .records
        .iter()
        .any(|&(t, e)| t == ms(228) && e == SenderEvent::LossProbe { seq: 10 * M }));

    let mut plain = plain_sack(&[9]);
    plain.run_until(ms(1000));
    assert_eq!(resent(&plain), vec![(228, 9)]);
    assert_eq!(plain.sender.stats().timeouts, 1);
    assert_eq!(
        plain.sender.cwnd(),
        2 * MSS,
        "1 MSS after the timeout, +1 on its ACK"
    );
}

/// The last two segments are lost. At 27 ms (the ACK of segment 7) two segments are in
/// flight: PTO = 2·SRTT = 40 ms, the probe at 67 ms resends segment 9. Its SACK returns at
/// 87 ms: RACK.xmit_ts = 67 ms, RACK.rtt = 20 ms, and segment 8, sent at 8 ms, is lost since
/// 8 + 20 + 5 ms (reo_wnd = min_RTT/4) <= 87 ms: fast recovery resends it at once, and the
/// transfer completes at 97 ms. The plain SACK sender has only one SACKed segment (no
/// DupThresh) and waits for its retransmission timer: go-back-N from 227 ms with cwnd = 1
/// segment, done at 257 ms.
#[test]
fn the_probe_sack_lets_rack_detect_the_other_tail_loss_before_the_rto() {
    let mut p = rack_tlp(&[8, 9]);
    p.run_until(ms(1000));
    assert_eq!(resent(&p), vec![(67, 9), (87, 8)]);
    let st = *p.sender.stats();
    assert_eq!((st.tlp_probes, st.fast_retransmits, st.timeouts), (1, 1, 0));
    assert_eq!(p.receiver.complete_at(), Some(ms(97)));
    assert!(p.log.contains(&(ms(87), Log::Ack { ack: 8 * M })));
    assert_eq!(p.sender.phase(), Phase::Open);

    let mut plain = plain_sack(&[8, 9]);
    plain.run_until(ms(1000));
    assert_eq!(
        resent(&plain),
        vec![(227, 8), (247, 9)],
        "one segment per RTT after the RTO"
    );
    assert_eq!(plain.sender.stats().timeouts, 1);
    assert_eq!(plain.receiver.complete_at(), Some(ms(257)));
}
