//! Packet script of slow-start restart after idle (RFC 5681 §4.1; Linux
//! `tcp_slow_start_after_idle`). A Reno sender (IW 4 segments) on a path with a fixed 100 ms
//! round trip, every segment acknowledged on its own 100 ms after it left, sends a first burst
//! of 20 segments (slow start takes cwnd to 24 segments), goes idle, and is given 40 more
//! segments at an explicit time. After a gap shorter than the RTO (200 ms minimum) the whole
//! window leaves at once; after a gap longer than it only the restart window does.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::RenoRecovery;
use crate::tests::bsd_reno::{ack, ms, BASE};
use crate::{CcPart, IdleRestart, Sender, SenderConfig, SenderParts, SeqSpace};
use engine::{SimDuration, SimTime, VecSink};
use std::collections::VecDeque;

const MSS: u32 = 1000;
const WIN: u32 = 1 << 22;

fn sender(restart: Option<IdleRestart>) -> Sender {
    let parts = SenderParts {
        cc: CcPart::custom(RenoCc::new(RenoFlavor::Rfc5681, MSS, 4 * MSS, WIN)),
        recovery: RenoRecovery::new(3).into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let cfg = SenderConfig {
        idle_restart: restart,
        ..SenderConfig::new(MSS, WIN)
    };
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 1 << 30).with_app_limit(0);
    s.seed_rtt(ms(0), ms(100));
    s
}

/// Send what the window allows at `now`; returns how many segments left. ACKs come back
/// 100 ms later, one per segment.
fn burst(s: &mut Sender, now: SimTime, acks: &mut VecDeque<(SimTime, u64)>) -> u32 {
    let mut t = VecSink::default();
    let mut n = 0;
    while let Some(seg) = s.poll_transmit(now, &mut t) {
        let end = seg.seq.diff(BASE) as u64 + u64::from(seg.len);
        acks.push_back((now + SimDuration::from_millis(100), end));
        n += 1;
    }
    n
}

/// Deliver every ACK (each releasing what the window allows). Returns the time of the last.
fn drain(s: &mut Sender, acks: &mut VecDeque<(SimTime, u64)>) -> SimTime {
    let mut t = VecSink::default();
    let mut last = SimTime(0);
    while let Some((at, a)) = acks.pop_front() {
        s.on_ack(at, &ack(a as u32, WIN), &mut t);
        burst(s, at, acks);
        last = at;
    }
    last
}

/// The first burst of 20 segments, acknowledged: cwnd 24 segments, the last data sent at
/// 200 ms (the segments released by the first round's ACKs), the last ACK at 300 ms.
fn after_first_burst(restart: Option<IdleRestart>) -> (Sender, VecDeque<(SimTime, u64)>) {
    let mut s = sender(restart);
    let mut acks = VecDeque::new();
    s.set_app_limit(20 * u64::from(MSS));
    assert_eq!(burst(&mut s, ms(0), &mut acks), 4);
    assert_eq!(drain(&mut s, &mut acks), ms(300));
    assert_eq!((s.snd_una(), s.cwnd()), (20_000, 24 * MSS));
    (s, acks)
}

#[test]
fn a_gap_longer_than_the_rto_restarts_from_the_restart_window() {
    // RFC 5681 §4.1: idle from 200 ms (last data) to 1.2 s, RTO 200-300 ms: cwnd = IW.
    let (mut s, mut acks) = after_first_burst(Some(IdleRestart::Rfc5681 { iw: 4 * MSS }));
    s.set_app_limit(60 * u64::from(MSS));
    assert_eq!(
        burst(&mut s, ms(1200), &mut acks),
        4,
        "RW = IW = 4 segments"
    );
    assert_eq!(s.cwnd(), 4 * MSS);
    // Then slow start again: 8 segments on the next round's ACKs (at 1.3 s).
    let mut t = VecSink::default();
    let mut n = 0;
    while let Some((at, a)) = acks.pop_front() {
        s.on_ack(at, &ack(a as u32, WIN), &mut t);
        n += burst(&mut s, at, &mut VecDeque::new());
        assert_eq!(at, ms(1300));
    }
    assert_eq!(n, 8);
}

#[test]
fn without_the_knob_or_within_the_rto_the_whole_window_leaves() {
    // Knob off: after the same 1 s gap all 24 segments of the window leave at 1.2 s.
    let (mut s, mut acks) = after_first_burst(None);
    s.set_app_limit(60 * u64::from(MSS));
    assert_eq!(burst(&mut s, ms(1200), &mut acks), 24);
    // Knob on, but the data comes at 350 ms: 150 ms after the last send, below the RTO.
    let (mut s, mut acks) = after_first_burst(Some(IdleRestart::Rfc5681 { iw: 4 * MSS }));
    s.set_app_limit(60 * u64::from(MSS));
    assert_eq!(burst(&mut s, ms(350), &mut acks), 24);
}

#[test]
fn linux_halves_the_window_per_rto_of_idle() {
    // The RTO is at its 200 ms floor (RTT 100 ms without variance). Linux's rule from 24
    // segments, IW 4, the last data at 200 ms: ssthresh = max(ssthresh, 3/4·24) stays the
    // initial one; 300 ms idle (1.5 RTO): one halving, 12 segments; 450 ms (2.25 RTO): 6;
    // 1 s (5 RTO): 24 → 12 → 6 → 3, but not below RW = 4.
    for (idle_ms, segments) in [(150, 24), (300, 12), (450, 6), (1000, 4)] {
        let (mut s, mut acks) = after_first_burst(Some(IdleRestart::Linux { iw: 4 * MSS }));
        s.set_app_limit(60 * u64::from(MSS));
        let n = burst(&mut s, ms(200 + idle_ms), &mut acks);
        assert_eq!(
            (n, s.cwnd()),
            (segments, segments * MSS),
            "idle {idle_ms} ms"
        );
        assert_eq!(s.ssthresh(), WIN);
    }
}
