//! Packet scripts of PRR (RFC 6937): RFC 6937's first example on a path. A window of 20
//! segments of 1000 bytes leaves at time zero through a 1 ms-per-segment bottleneck with 49 ms
//! of propagation behind it and 50 ms back, so the ACK of segment k reaches the sender at
//! 100 + k ms (delayed ACKs off). Segment 0 is lost on the way; the third duplicate ACK
//! (103 ms) starts fast recovery with ssthresh = 10 segments (RFC 5681, half the flight).

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{
    LossRecovery, NewRenoFlavor, NewRenoRecovery, PrrBound, SackFlavor, SackRecovery,
};
use crate::rto::{Rfc6298Config, Rfc6298Rto};
use crate::tests::net::Path;
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum, SeqSpace,
};
use engine::{SimDuration, SimTime};

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(1000) };

pub(crate) fn ms(m: u64) -> SimTime {
    SimTime(m * 1_000_000)
}

pub(crate) fn rfc6298() -> Rfc6298Rto {
    Rfc6298Rto::new(Rfc6298Config {
        min: SimDuration::from_millis(200),
        max: SimDuration::from_secs(60),
        initial: SimDuration::from_secs(1),
        granularity: SimDuration::from_millis(1),
    })
}

fn path(recovery: Box<dyn LossRecovery>, prr: Option<PrrBound>, sack: bool) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 20 * MSS, 65535).into(),
        recovery: recovery.into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        prr,
        ..SenderConfig::new(MSS, 65535)
    };
    let mut s = Sender::new(cfg, parts, SPACE, 40 * M);
    s.seed_rtt(ms(0), ms(100));
    let r = Receiver::new(
        ReceiverConfig {
            sack,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        40 * M,
        SeqNum(7),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(50));
    p.ps_per_byte = 1_000_000; // 1 ms per 1000-byte segment
    p.fwd_delay = SimDuration::from_millis(49);
    p.drop = Box::new(|_, off, n| off == 0 && n == 1);
    p
}

/// The sends during the recovery, as (ms, segment, retransmission).
fn recovery_sends(p: &Path) -> Vec<(u64, u64, bool)> {
    p.sent_between(ms(100), ms(150))
        .into_iter()
        .map(|(t, off, r)| (t.as_nanos() / 1_000_000, off / M, r))
        .collect()
}

/// The hand-computed sends of the recovery (see `recovery::prr`'s unit test).
fn expected_sends() -> Vec<(u64, u64, bool)> {
    let mut want = vec![(103, 0, true)];
    want.extend(
        [105, 107, 109, 111, 113]
            .iter()
            .zip(20..)
            .map(|(&t, s)| (t, s, false)),
    );
    want.extend(
        [116, 117, 118, 119]
            .iter()
            .zip(25..)
            .map(|(&t, s)| (t, s, false)),
    );
    want
}

/// With the SACK sender (RFC 6675 pipe) the pipe at the third duplicate is 20 − 3 SACKed − 1
/// lost = 16, the sequence of the unit test (`recovery::prr`): the retransmission at 103 ms,
/// new segments on every other ACK (105 ... 113 ms) while pipe > ssthresh, none at 115 ms when
/// the pipe has come down to ssthresh, then one per ACK (116 ... 119 ms), keeping it there.
/// Plain RFC 6675 instead waits until the pipe is below cwnd = 10: silence from 104 to 110 ms,
/// then nine segments on nine consecutive ACKs.
#[test]
fn prr_spreads_the_reduction_over_the_recovery_with_sack() {
    let mut p = path(
        Box::new(SackRecovery::new(SackFlavor::Rfc6675, MSS, 3)),
        Some(PrrBound::SlowStart),
        true,
    );
    p.run_until(ms(202));
    assert_eq!(recovery_sends(&p), expected_sends());
    assert_eq!(
        (p.sender.ssthresh(), p.sender.stats().fast_retransmits),
        (10 * MSS, 1)
    );
    // The ACK of the retransmission (203 ms) covers everything sent before the loss: recovery
    // ends with cwnd = ssthresh and exactly ssthresh in flight (segments 20 to 28 and the 29th
    // the ACK clocks out).
    p.run_until(ms(203));
    assert_eq!(p.sender.phase(), crate::recovery::Phase::Open);
    assert_eq!(p.sender.cwnd(), 10 * MSS);
    assert_eq!(p.sender.snd_nxt() - p.sender.snd_una(), 10 * M);

    let mut plain = path(
        Box::new(SackRecovery::new(SackFlavor::Rfc6675, MSS, 3)),
        None,
        true,
    );
    plain.run_until(ms(202));
    let sends = recovery_sends(&plain);
    assert_eq!(sends[0], (103, 0, true));
    assert_eq!(
        sends[1].0, 111,
        "RFC 6675 alone is silent until pipe < cwnd: {sends:?}"
    );
}

/// With NewReno (no SACK) PRR estimates DeliveredData as one segment per duplicate and the
/// pipe as the flight minus the duplicates of the episode (RFC 6937 §3.1): 20 − 3 = 17 at the
/// third duplicate, one more than RFC 6675's count until the retransmission is sent, then the
/// same. By hand the sends are those of the SACK sender: the retransmission at 103 ms, new data
/// at 105 ... 113 ms, nothing at 115 ms (pipe = 10), one per ACK at 116 ... 119 ms. RFC 6582
/// with Reno's inflation instead sends nothing until cwnd = 10 + 3 + dupacks exceeds the
/// flight of 20, at the ninth duplicate of the recovery (111 ms).
#[test]
fn prr_with_newreno_estimates_delivery_from_duplicates() {
    let mut p = path(
        Box::new(NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3)),
        Some(PrrBound::SlowStart),
        false,
    );
    p.run_until(ms(202));
    assert_eq!(recovery_sends(&p), expected_sends());
    p.run_until(ms(203));
    assert_eq!((p.sender.cwnd(), p.sender.ssthresh()), (10 * MSS, 10 * MSS));

    let mut plain = path(
        Box::new(NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3)),
        None,
        false,
    );
    plain.run_until(ms(202));
    let sends = recovery_sends(&plain);
    assert_eq!(sends[0], (103, 0, true));
    assert_eq!(sends[1].0, 111, "Reno inflation: {sends:?}");
}
