//! Packet scripts of HACK, HACK-fixed and LHP's packet list (eln-llelsn spec §4.11-4.12), with
//! explicit times, on the two-host path of `tests/net.rs`: 1000-byte segments, a
//! 1 ms-per-segment bottleneck with 49 ms behind it and 50 ms back, delayed ACKs off, a window
//! of 20 segments at time zero, so the ACK of segment k reaches the sender at 100 + k ms. The
//! receiver names a segment that arrives with a corrupted payload in an ACK at once.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::RenoRecovery;
use crate::recovery::{HackMode, HackRecovery, ListDupacks, LossRecovery};
use crate::recovery::{NewRenoFlavor, NewRenoRecovery};
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts};
use crate::{SeqNum, SeqSpace};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(1000) };

fn path(inner: Box<dyn LossRecovery>, mode: HackMode, lost: &'static [u64], corrupt: u64) -> Path {
    path_of(HackRecovery::new(inner, mode, "hack"), lost, corrupt)
}

fn path_of(recovery: HackRecovery, lost: &'static [u64], corrupt: u64) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 20 * MSS, 1 << 20).into(),
        recovery: recovery.into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let mut s = Sender::new(SenderConfig::new(MSS, 65535), parts, SPACE, 60 * M);
    s.seed_rtt(ms(0), ms(100));
    let r = Receiver::new(
        ReceiverConfig {
            nack: true,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        60 * M,
        SeqNum(7),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(50));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(49);
    p.drop = Box::new(move |_, off, n| n == 1 && lost.contains(&(off / M)));
    p.corrupt = Box::new(move |off| off == corrupt * M);
    p
}

fn newreno() -> Box<dyn LossRecovery> {
    Box::new(NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3))
}

/// The retransmissions, as (ms, segment).
fn resent(p: &Path) -> Vec<(u64, u64)> {
    p.sent_between(ms(0), ms(10_000))
        .into_iter()
        .filter(|&(_, _, r)| r)
        .map(|(t, off, _)| (t.as_nanos() / 1_000_000, off / M))
        .collect()
}

/// Segment 0 arrives corrupted at 50 ms; the receiver's NACK reaches the sender at 100 ms and
/// segment 0 goes again at once, without a window change. Segments 1-19 bring duplicates at
/// 101-119 ms. HACK counts them: the third (103 ms) is a NewReno fast retransmit of segment 0
/// a second time and halves ssthresh to 10 segments. HACK-fixed takes them for the notified
/// loss's echo: no fast retransmit, the window untouched; the retransmission's ACK (200 ms)
/// covers all 20 segments.
#[test]
fn hack_resends_at_once_and_only_the_fixed_sender_ignores_the_duplicates() {
    let mut p = path(newreno(), HackMode::Plain, &[0], 0);
    p.run_until(ms(150));
    assert_eq!(resent(&p), vec![(100, 0), (103, 0)]);
    assert_eq!(p.sender.stats().fast_retransmits, 1);
    assert_eq!(p.sender.ssthresh(), 10 * MSS);
    assert_eq!(p.receiver.stats().nacks_sent, 1);

    let mut p = path(newreno(), HackMode::Fixed, &[0], 0);
    p.run_until(ms(150));
    assert_eq!(resent(&p), vec![(100, 0)]);
    assert_eq!(p.sender.stats().fast_retransmits, 0);
    assert_eq!(p.sender.cwnd(), 20 * MSS, "no inflation, no cut");
    assert!(p.sender.ssthresh() > 60 * MSS);
    p.run_until(ms(200));
    assert_eq!(p.sender.snd_una(), 20 * M);
}

/// LHP's packet list over Reno: segment 2 arrives corrupted (NACK at 102 ms, resent at once),
/// segments 8 and 30 are lost to congestion. The duplicates of hole 2 are the listed loss's
/// and do not count; hole 8 then gets a fast recovery of its own (306 ms) and, Reno having no
/// `recover` guard, hole 30 another: 004's "multiple fast recoveries". HACK-fixed over
/// NewReno repairs both holes in one recovery (one fast retransmit, the partial ACK resends
/// the second hole).
#[test]
fn lhp_packet_list_runs_one_fast_recovery_per_unlisted_loss() {
    let mut p = path(
        Box::new(RenoRecovery::new(3)),
        HackMode::Fixed,
        &[2, 8, 30],
        2,
    );
    p.run_until(ms(2000));
    let r = resent(&p);
    assert_eq!(r[..2], [(102, 2), (306, 8)], "{r:?}");
    assert_eq!(p.sender.stats().fast_retransmits, 2, "{r:?}");
    assert_eq!(p.sender.stats().timeouts, 0, "{r:?}");
    let mut p = path(newreno(), HackMode::Fixed, &[2, 8, 30], 2);
    p.run_until(ms(2000));
    let r = resent(&p);
    assert_eq!(r[0], (102, 2), "{r:?}");
    assert_eq!(p.sender.stats().fast_retransmits, 1, "{r:?}");
}

/// The first transmissions, as (ms, segment).
fn fresh(p: &Path, from: u64, to: u64) -> Vec<(u64, u64)> {
    p.sent_between(ms(from), ms(to))
        .into_iter()
        .filter(|&(_, _, r)| !r)
        .map(|(t, off, _)| (t.as_nanos() / 1_000_000, off / M))
        .collect()
}

/// LHP's packet list over Reno under both readings of a listed hole's duplicates
/// (`tcp.lhp_list_dupacks`): segment 0 arrives corrupted, the NACK reaches the sender at
/// 100 ms and segment 0 goes again at once; segments 1-19 bring duplicates at 101-119 ms, none
/// counted. Frozen: the window stays at snd_una + 20 segments, so nothing new leaves until the
/// resend's ACK at 200 ms. Clocking: each duplicate lets one new segment out, segments 20-38
/// at 101-119 ms, with no fast retransmit and cwnd untouched; at 200 ms the cumulative ACK
/// passes the hole and the sender is back to snd_una + cwnd (21 segments after the ACK's
/// slow-start growth: segments 39 and 40 go), and segment 20's ACK follows at 201 ms.
#[test]
fn lhp_listed_duplicates_clock_out_new_data_only_when_clocking() {
    let lhp = |rule| {
        HackRecovery::new(Box::new(RenoRecovery::new(3)), HackMode::Fixed, "lhp")
            .with_list_dupacks(rule)
    };
    let mut frozen = path_of(lhp(ListDupacks::Frozen), &[0], 0);
    frozen.run_until(ms(199));
    assert_eq!(resent(&frozen), vec![(100, 0)]);
    assert_eq!(
        fresh(&frozen, 1, 199),
        vec![],
        "nothing new during the repair"
    );
    assert_eq!(frozen.sender.cwnd(), 20 * MSS);
    frozen.run_until(ms(201));
    assert_eq!(frozen.sender.snd_una(), 20 * M);
    assert_eq!(
        fresh(&frozen, 199, 201).len(),
        21,
        "the window's worth at once"
    );

    let mut clocking = path_of(lhp(ListDupacks::Clocking), &[0], 0);
    clocking.run_until(ms(199));
    assert_eq!(resent(&clocking), vec![(100, 0)]);
    let during = fresh(&clocking, 1, 199);
    let expected: Vec<(u64, u64)> = (1..=19).map(|k| (100 + k, 19 + k)).collect();
    assert_eq!(during, expected, "one new segment per listed duplicate");
    assert_eq!(clocking.sender.stats().fast_retransmits, 0);
    assert_eq!(
        clocking.sender.cwnd(),
        20 * MSS,
        "no inflation of cwnd itself, no cut"
    );
    clocking.run_until(ms(201));
    // The resend's ACK (200 ms) and segment 20's, the first clocked out (201 ms).
    assert_eq!(clocking.sender.snd_una(), 21 * M);
    assert_eq!(fresh(&clocking, 199, 201), vec![(200, 39), (200, 40)]);
}
