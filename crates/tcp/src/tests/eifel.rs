//! Packet script for Eifel's late third duplicate ACK (Ludwig2000 §3.1.2 "Late 3rd DUPACK after a
//! timeout", §5.4.5; spec §9 Q3), at explicit times, for each `LateDupack` policy.
//!
//! The situation: eight segments out at 0 ms, the first lost. The ACKs of segments 2 and 3 come
//! back promptly (two duplicates at 20 and 21 ms); then the ACK path stalls, the retransmission
//! timer fires at 1100 ms and resends segment 1 with cwnd = 1 MSS, and the held duplicates of
//! segments 4–8 arrive from 1200 ms on. The timeout reset the duplicate count (BSD `t_dupacks =
//! 0` in `tcp_timer.c`), so the duplicate at 1202 ms, the third after the timeout, is where
//! a BSD sender fast-retransmits segment 1 a second time. Finally, at 1300 ms, the ACK for the
//! timeout's retransmission acknowledges all eight, echoing its timestamp (not spurious).

use crate::recovery::Phase;
use crate::spurious::{Eifel, EifelResponse, LateDupack};
use crate::tests::bsd_reno::{ack, bsd_parts, drain, ms, BASE, MSS};
use crate::{SegOptions, Segment, Sender, SenderConfig, SenderParts, SeqSpace, Timestamps};
use engine::{SimDuration, VecSink};

/// Timestamp clock: 10 ms ticks, TSval = ticks + 1.
const TS_TICK_MS: u64 = 10;

fn sender(policy: LateDupack) -> Sender {
    let parts = SenderParts {
        eifel: Some(Eifel::new(EifelResponse::Dissertation).with_late_dupack(policy)),
        ..bsd_parts(8)
    };
    let cfg = SenderConfig {
        timestamps: Some(SimDuration::from_millis(TS_TICK_MS)),
        ..SenderConfig::new(MSS, 32768)
    };
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 100 * u64::from(MSS));
    s.seed_rtt(ms(0), ms(10));
    s
}

fn ts_ack(off: u32, ecr_ms: u64) -> Segment {
    Segment {
        opts: SegOptions {
            ts: Some(Timestamps {
                val: 7,
                ecr: (ecr_ms / TS_TICK_MS) as u32 + 1,
            }),
            ..SegOptions::default()
        },
        ..ack(off, 32768)
    }
}

/// What the script observed.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    /// Segments sent on the third duplicate after the timeout (offset, len).
    on_late_dupack: Vec<(u32, u32)>,
    /// (cwnd, ssthresh) right after that duplicate.
    window: (u32, u32),
    /// The recovery phase right after it.
    phase: Phase,
    /// Segments sent on the next two duplicates.
    after: Vec<(u32, u32)>,
    /// (cwnd, ssthresh) after the ACK of all eight segments at 1300 ms.
    window_after_ack: (u32, u32),
    /// The new segments the ACK released: the first offset and how many.
    released: (u32, usize),
    fast_retransmits: u64,
    suppressed: u64,
    retransmitted_segments: u64,
}

fn script(policy: LateDupack) -> Seen {
    let mut t = VecSink::default();
    let mut s = sender(policy);
    assert_eq!(drain(&mut s, ms(0), &mut t).len(), 8);
    assert_eq!((s.cwnd(), s.ssthresh()), (8 * MSS, 65535));
    s.on_ack(ms(20), &ack(0, 32768), &mut t);
    s.on_ack(ms(21), &ack(0, 32768), &mut t);
    assert_eq!(s.stats().dupacks_received, 2);
    // The timer: 3 ticks of the 500 ms clock whose phase is 100 ms.
    assert_eq!(s.poll_timeout(), Some(ms(1100)));
    s.on_timeout(ms(1100), &mut t);
    assert_eq!(
        (s.cwnd(), s.ssthresh()),
        (MSS, 4 * MSS),
        "timeout: halve, 1 MSS"
    );
    assert_eq!(s.phase(), Phase::Loss { recover: 8 * 1400 });
    assert_eq!(drain(&mut s, ms(1100), &mut t), vec![(0, MSS)]);
    // The late duplicates: the 3rd and 4th overall change nothing (the count restarted).
    for at in [1200, 1201] {
        s.on_ack(ms(at), &ack(0, 32768), &mut t);
        assert!(drain(&mut s, ms(at), &mut t).is_empty());
        assert_eq!(
            s.stats().fast_retransmits + s.stats().suppressed_fast_retransmits,
            0
        );
    }
    s.on_ack(ms(1202), &ack(0, 32768), &mut t);
    let on_late_dupack = drain(&mut s, ms(1202), &mut t);
    let window = (s.cwnd(), s.ssthresh());
    let phase = s.phase();
    let mut after = vec![];
    for at in [1203, 1204] {
        s.on_ack(ms(at), &ack(0, 32768), &mut t);
        after.extend(drain(&mut s, ms(at), &mut t));
    }
    // The receiver got the timeout's retransmission at about 1110 ms; the ACK of all eight
    // echoes its timestamp, so Eifel finds the timeout genuine.
    s.on_ack(ms(1300), &ts_ack(8 * MSS, 1100), &mut t);
    assert_eq!(s.stats().spurious_timeouts, 0);
    let window_after_ack = (s.cwnd(), s.ssthresh());
    let sent = drain(&mut s, ms(1300), &mut t);
    Seen {
        on_late_dupack,
        window,
        phase,
        after,
        window_after_ack,
        released: (sent.first().map_or(0, |p| p.0), sent.len()),
        fast_retransmits: s.stats().fast_retransmits,
        suppressed: s.stats().suppressed_fast_retransmits,
        retransmitted_segments: s.stats().retransmitted_segments,
    }
}

/// Q3 (a), the default: no second retransmission, no go-back-N; ssthresh stays the timeout's
/// halving of the saved 8 segments (4), cwnd = ssthresh; after the ACK, slow start from 4
/// (Net/3 grows while cwnd <= ssthresh) to 5 segments.
#[test]
fn late_third_dupack_halve_suppresses_and_sets_the_fast_retransmit_state() {
    let seen = script(LateDupack::Halve);
    assert_eq!(
        seen,
        Seen {
            on_late_dupack: vec![],
            window: (4 * MSS, 4 * MSS),
            phase: Phase::Open,
            after: vec![],
            window_after_ack: (5 * MSS, 4 * MSS),
            released: (8 * MSS, 5),
            fast_retransmits: 0,
            suppressed: 1,
            retransmitted_segments: 1,
        }
    );
}

/// Q3 (b): the saved pre-timeout cwnd (8 segments) and ssthresh (65535) come back; the
/// outstanding eight fill that window, so nothing goes until the ACK, which then releases nine
/// new segments at once (the restore's burst, as after a spurious fast retransmit, Fig 5-6).
#[test]
fn late_third_dupack_restore_suppresses_and_restores_the_saved_window() {
    let seen = script(LateDupack::Restore);
    assert_eq!(
        seen,
        Seen {
            on_late_dupack: vec![],
            window: (8 * MSS, 65535),
            phase: Phase::Open,
            after: vec![],
            window_after_ack: (9 * MSS, 65535),
            released: (8 * MSS, 9),
            fast_retransmits: 0,
            suppressed: 1,
            retransmitted_segments: 1,
        }
    );
}

/// `off`, plain BSD (today's behaviour): the third duplicate after the timeout fast-retransmits
/// segment 1 a second time and halves again from the timeout's 1 MSS (ssthresh = 2 MSS, cwnd =
/// 2 + 3 MSS); the go-back-N point is still segment 2, so the inflated window also resends
/// segments 2–5, all of which the receiver already holds. Each further duplicate inflates by
/// one MSS and lets one more old segment go: seven needless retransmissions. The ACK ends
/// recovery (cwnd = ssthresh = 2 MSS, then one slow-start step to 3).
#[test]
fn late_third_dupack_off_is_the_bsd_second_fast_retransmit() {
    let seen = script(LateDupack::Off);
    assert_eq!(
        seen,
        Seen {
            on_late_dupack: vec![
                (0, MSS),
                (MSS, MSS),
                (2 * MSS, MSS),
                (3 * MSS, MSS),
                (4 * MSS, MSS)
            ],
            window: (5 * MSS, 2 * MSS),
            phase: Phase::Recovery { recover: 8 * 1400 },
            after: vec![(5 * MSS, MSS), (6 * MSS, MSS)],
            window_after_ack: (3 * MSS, 2 * MSS),
            released: (8 * MSS, 3),
            fast_retransmits: 1,
            suppressed: 0,
            retransmitted_segments: 8,
        }
    );
}
