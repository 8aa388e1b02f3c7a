//! Packet scripts for the end-to-end schemes (DESIGN.md rule 9), on the paper's Figure 1
//! situation (Balakrishnan97 §2.15): a window of five segments, the first two lost on the
//! wireless link, no ACK loss; and Eifel's signature (Ludwig2000 §3.1): a spurious timeout is
//! detected on the first ACK and undone without going back N.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{
    ElnRecovery, ExitRetraction, LossRecovery, NewRenoFlavor, NewRenoRecovery, Phase, RenoRecovery,
};
use crate::rto::{BsdRto, BsdRtoConfig};
use crate::spurious::{Eifel, EifelResponse};
use crate::tests::bsd_reno::{ack, drain, ms, slow_clock, BASE, MSS};
use crate::{SegOptions, Segment, Sender, SenderConfig, SenderParts, SeqSpace, Timestamps};
use engine::{SimDuration, VecSink};

fn build(
    cwnd_segs: u32,
    recovery: Box<dyn LossRecovery>,
    cfg: SenderConfig,
    eifel: bool,
) -> Sender {
    let parts = SenderParts {
        cc: RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: false,
            },
            MSS,
            cwnd_segs * MSS,
            65535,
        )
        .into(),
        recovery: recovery.into(),
        rto: BsdRto::new(BsdRtoConfig {
            clock: slow_clock(),
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        })
        .into(),
        eifel: eifel.then(|| Eifel::new(EifelResponse::Dissertation)),
    };
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 100 * u64::from(MSS));
    s.seed_rtt(ms(0), ms(10));
    s
}

fn eln_ack(off: u32) -> Segment {
    Segment {
        opts: SegOptions {
            eln: true,
            ..SegOptions::default()
        },
        ..ack(off, 32768)
    }
}

/// Figure 1 start: five segments out, the first two lost; segments 3, 4, 5 produce three
/// duplicate ACKs at 10, 11 and 12 ms (marked ELN when `eln`).
fn figure1(s: &mut Sender, eln: bool, t: &mut VecSink<crate::SenderEvent>) {
    assert_eq!(drain(s, ms(0), t).len(), 5);
    for i in 0..3 {
        let a = if eln { eln_ack(0) } else { ack(0, 32768) };
        s.on_ack(ms(10 + i), &a, t);
    }
}

/// NewReno (§2.3): one halving; the partial ACK for segment 2 keeps the sender in fast recovery
/// and resends segment 2 at once, one round trip after the first retransmission; no timeout.
#[test]
fn newreno_resends_the_second_hole_on_the_partial_ack() {
    let mut t = VecSink::default();
    let rec = Box::new(NewRenoRecovery::new(NewRenoFlavor::Paper, 3));
    let mut s = build(5, rec, SenderConfig::new(MSS, 32768), false);
    figure1(&mut s, false, &mut t);
    assert_eq!(drain(&mut s, ms(12), &mut t), vec![(0, MSS)]);
    assert_eq!((s.ssthresh(), s.cwnd()), (2 * MSS, 5 * MSS));
    // The retransmission of segment 1 arrives: the ACK covers segment 1 only (partial).
    s.on_ack(ms(22), &ack(MSS, 32768), &mut t);
    assert!(
        matches!(s.phase(), Phase::Recovery { .. }),
        "stays in recovery"
    );
    assert_eq!(
        drain(&mut s, ms(22), &mut t)[0],
        (MSS, MSS),
        "resends the next hole"
    );
    assert_eq!(s.cwnd(), 2 * MSS, "deflated to ssthresh, halved once");
    s.on_ack(ms(32), &ack(5 * MSS, 32768), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.stats().timeouts, 0);
    assert_eq!(s.stats().retransmitted_segments, 2);
}

/// Reno on the same situation: the partial ACK ends recovery and segment 2 waits.
#[test]
fn reno_leaves_the_second_hole_to_the_timer() {
    let mut t = VecSink::default();
    let mut s = build(
        5,
        Box::new(RenoRecovery::new(3)),
        SenderConfig::new(MSS, 32768),
        false,
    );
    figure1(&mut s, false, &mut t);
    drain(&mut s, ms(12), &mut t);
    s.on_ack(ms(22), &ack(MSS, 32768), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert!(
        drain(&mut s, ms(22), &mut t)
            .iter()
            .all(|&(off, _)| off >= 5 * MSS),
        "no retransmission of segment 2 on the partial ACK"
    );
}

/// Net/3's retraction (`tcp_input.c`: only when `t_dupacks > tcprexmtthresh`): Figure 1's
/// recovery saw exactly three duplicates (10-12 ms), so the ACK that ends it (22 ms) leaves cwnd
/// at ssthresh + 3 segments and grows it by congestion avoidance (MSS²/cwnd = 280 bytes);
/// `ExitRetraction::Always` (RFC 5681, lossylink's earlier rule) pulls it back to ssthresh and
/// slow-starts one segment.
#[test]
fn net3_keeps_the_inflated_window_after_exactly_three_duplicates() {
    for (retraction, cwnd) in [
        (ExitRetraction::Net3, 5 * MSS + 280),
        (ExitRetraction::Always, 3 * MSS),
    ] {
        let mut t = VecSink::default();
        let rec = RenoRecovery::new(3).with_retraction(retraction);
        let mut s = build(5, Box::new(rec), SenderConfig::new(MSS, 32768), false);
        figure1(&mut s, false, &mut t);
        assert_eq!((s.ssthresh(), s.cwnd()), (2 * MSS, 5 * MSS));
        drain(&mut s, ms(12), &mut t);
        s.on_ack(ms(22), &ack(MSS, 32768), &mut t);
        assert_eq!(s.phase(), Phase::Open);
        assert_eq!(s.cwnd(), cwnd, "{retraction:?}");
    }
}

/// E2E-ELN (§2.6): the 3rd ELN-marked dupack resends segment 1 with no congestion response:
/// cwnd and ssthresh untouched, no inflation by further dupacks, no deflation afterwards.
#[test]
fn eln_resends_on_the_third_marked_dupack_without_halving() {
    let mut t = VecSink::default();
    let rec = Box::new(ElnRecovery::new(Box::new(RenoRecovery::new(3)), 3));
    let mut s = build(5, rec, SenderConfig::new(MSS, 32768), false);
    let (cwnd, ssthresh) = (s.cwnd(), s.ssthresh());
    figure1(&mut s, true, &mut t);
    assert_eq!(drain(&mut s, ms(12), &mut t), vec![(0, MSS)]);
    assert_eq!(
        (s.cwnd(), s.ssthresh()),
        (cwnd, ssthresh),
        "no congestion response"
    );
    assert_eq!(
        s.stats().fast_retransmits,
        0,
        "not a congestion fast retransmit"
    );
    s.on_ack(ms(22), &ack(MSS, 32768), &mut t);
    assert!(s.cwnd() >= cwnd, "no deflation");
    // Segment 2's loss is signalled only by its own dupacks once new data flows (§2.6).
    let new = drain(&mut s, ms(22), &mut t);
    assert!(new.iter().all(|&(off, _)| off >= 5 * MSS) && !new.is_empty());
}

/// E2E-ELN-RXMT (§2.7): the first ELN-marked dupack resends segment 1; the 2nd and 3rd do not
/// resend it again within the round trip.
#[test]
fn eln_rxmt_resends_on_the_first_marked_dupack_once() {
    let mut t = VecSink::default();
    let rec = Box::new(ElnRecovery::new(Box::new(RenoRecovery::new(3)), 1));
    let mut s = build(5, rec, SenderConfig::new(MSS, 32768), false);
    drain(&mut s, ms(0), &mut t);
    s.on_ack(ms(10), &eln_ack(0), &mut t);
    assert_eq!(
        drain(&mut s, ms(10), &mut t),
        vec![(0, MSS)],
        "at the first dupack"
    );
    s.on_ack(ms(11), &eln_ack(0), &mut t);
    s.on_ack(ms(12), &eln_ack(0), &mut t);
    assert!(
        drain(&mut s, ms(12), &mut t).is_empty(),
        "once per round trip"
    );
    assert_eq!(s.stats().retransmitted_segments, 1);
    assert_eq!(s.cwnd(), 5 * MSS);
}

/// Limited transmit (RFC 3042; Balakrishnan97 §5.3): with a window of three segments and the
/// first lost, two dupacks each release one new segment, whose dupacks reach the threshold:
/// fast retransmit instead of a coarse timeout.
#[test]
fn limited_transmit_turns_a_small_window_loss_into_a_fast_retransmit() {
    let run = |lt: bool| {
        let mut t = VecSink::default();
        let cfg = SenderConfig {
            limited_transmit: lt,
            ..SenderConfig::new(MSS, 32768)
        };
        let mut s = build(3, Box::new(RenoRecovery::new(3)), cfg, false);
        assert_eq!(drain(&mut s, ms(0), &mut t).len(), 3);
        s.on_ack(ms(10), &ack(0, 32768), &mut t);
        let a = drain(&mut s, ms(10), &mut t);
        s.on_ack(ms(11), &ack(0, 32768), &mut t);
        let b = drain(&mut s, ms(11), &mut t);
        if lt {
            assert_eq!((a, b), (vec![(3 * MSS, MSS)], vec![(4 * MSS, MSS)]));
            // The two new segments produce the 3rd and 4th dupacks.
            s.on_ack(ms(20), &ack(0, 32768), &mut t);
        } else {
            assert!(a.is_empty() && b.is_empty(), "nothing may be sent");
        }
        s.stats().fast_retransmits
    };
    assert_eq!(run(true), 1);
    assert_eq!(run(false), 0);
}

/// Eifel (Ludwig2000 §3.1, S8d): the link holds everything past the retransmission timeout;
/// the first ACK after the timeout echoes the original's timestamp, older than the
/// retransmission's, so cwnd and ssthresh come back and sending resumes after snd_max.
#[test]
fn eifel_undoes_a_spurious_timeout_without_going_back_n() {
    let mut t = VecSink::default();
    let g = SimDuration::from_millis(10);
    let cfg = SenderConfig {
        timestamps: Some(g),
        ..SenderConfig::new(MSS, 32768)
    };
    let mut s = build(4, Box::new(RenoRecovery::new(3)), cfg, true);
    let sent = drain(&mut s, ms(0), &mut t);
    assert_eq!(sent.len(), 4);
    let (cwnd, ssthresh) = (s.cwnd(), s.ssthresh());
    let deadline = s.poll_timeout().unwrap();
    s.on_timeout(deadline, &mut t);
    assert_eq!(s.cwnd(), MSS);
    assert_eq!(drain(&mut s, deadline, &mut t), vec![(0, MSS)]);
    // The held originals arrive; the ACK for segments 1-2 echoes the TSval of time 0 (tick 1).
    let echo = Segment {
        opts: SegOptions {
            ts: Some(Timestamps { val: 500, ecr: 1 }),
            ..SegOptions::default()
        },
        ..ack(2 * MSS, 32768)
    };
    let at = deadline + SimDuration::from_millis(100);
    s.on_ack(at, &echo, &mut t);
    assert_eq!((s.cwnd(), s.ssthresh()), (cwnd, ssthresh), "restored");
    assert_eq!(s.stats().spurious_timeouts, 1);
    assert_eq!(
        s.snd_nxt(),
        4 * MSS as u64,
        "resume with the next unsent segment"
    );
    let next = drain(&mut s, at, &mut t);
    assert_eq!(next.first(), Some(&(4 * MSS, MSS)), "no go-back-N");
    assert_eq!(
        s.stats().retransmitted_segments,
        1,
        "exactly one spurious retransmission"
    );
}

/// The Eifel timer (Ludwig2000 §3.3) in a sender with timestamps: every ACK of new data is a
/// sample, and after a steady 100 ms round trip the timer sits just above the RTT instead of
/// BSD's one-second floor; a rise of the RTT lifts the next deadline at once.
#[test]
fn eifel_timer_tracks_the_round_trip_from_timestamps() {
    use crate::rto::{EifelRto, EifelRtoConfig, Sampling};
    let mut t = VecSink::default();
    let g = SimDuration::from_millis(1);
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 4 * MSS, 65535).into(),
        recovery: RenoRecovery::new(3).into(),
        rto: EifelRto::new(EifelRtoConfig {
            granularity: g,
            max: SimDuration::from_secs(60),
            initial: SimDuration::from_secs(1),
            sampling: Sampling::EveryAck,
        })
        .into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        timestamps: Some(g),
        ..SenderConfig::new(MSS, 32768)
    };
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 100 * u64::from(MSS));
    let mut now = 0;
    let mut acked = 0;
    let mut rtt = 100;
    for round in 0..30 {
        let sent = drain(&mut s, ms(now), &mut t);
        assert!(!sent.is_empty());
        if round == 25 {
            rtt = 150;
        }
        now += rtt;
        acked += sent.len() as u32;
        let echo = Segment {
            opts: SegOptions {
                ts: Some(Timestamps {
                    val: 1,
                    ecr: (now - rtt) as u32 + 1,
                }),
                ..SegOptions::default()
            },
            ..ack(acked * MSS, 65535)
        };
        s.on_ack(ms(now), &echo, &mut t);
        if round == 24 {
            let left = (s.poll_timeout().unwrap() - ms(now)).as_nanos() / 1_000_000;
            assert!(
                (100..=130).contains(&left),
                "steady RTT 100 ms: timer {left} ms"
            );
        }
        if round == 25 {
            let left = (s.poll_timeout().unwrap() - ms(now)).as_nanos() / 1_000_000;
            assert!(left >= 150, "after a rise to 150 ms: timer {left} ms");
        }
        if s.is_done() {
            break;
        }
    }
}

/// RFC 6582 §3.2 step 4: every duplicate ACK during fast recovery inflates
/// cwnd by one segment, also the first ones after a partial ACK. Eight segments out, 0 and 2
/// lost; the fast retransmit at 12 ms (cwnd 4 + 3 segments), the duplicates from 5-7 inflate and
/// release 8 and 9; the partial ACK at 22 ms (the resent 0 arrived) deflates by two segments and
/// adds one (cwnd 9), resends 2 and sends 10; the duplicates from 8, 9 and 10 at 24-26 ms then
/// each inflate and release one new segment (the paper flavour counts them afresh and releases
/// nothing for the first three).
#[test]
fn rfc6582_inflates_on_the_duplicates_right_after_a_partial_ack() {
    let mut t = VecSink::default();
    let rec = Box::new(NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3));
    let mut s = build(8, rec, SenderConfig::new(MSS, 65535), false);
    assert_eq!(drain(&mut s, ms(0), &mut t).len(), 8);
    for at in [10, 11, 12] {
        s.on_ack(ms(at), &ack(0, 65535), &mut t);
    }
    assert_eq!(drain(&mut s, ms(12), &mut t), vec![(0, MSS)]);
    assert_eq!((s.ssthresh(), s.cwnd()), (4 * MSS, 7 * MSS));
    let mut sent = Vec::new();
    for at in [13, 14, 15] {
        s.on_ack(ms(at), &ack(0, 65535), &mut t);
        sent.extend(drain(&mut s, ms(at), &mut t));
    }
    assert_eq!(sent, vec![(8 * MSS, MSS), (9 * MSS, MSS)]);
    s.on_ack(ms(22), &ack(2 * MSS, 65535), &mut t);
    assert_eq!(s.cwnd(), 9 * MSS, "10 - 2 acknowledged + 1");
    assert_eq!(
        drain(&mut s, ms(22), &mut t),
        vec![(2 * MSS, MSS), (10 * MSS, MSS)]
    );
    for (at, seg) in [(24, 11), (25, 12), (26, 13)] {
        s.on_ack(ms(at), &ack(2 * MSS, 65535), &mut t);
        assert_eq!(
            drain(&mut s, ms(at), &mut t),
            vec![(seg * MSS, MSS)],
            "at {at} ms"
        );
    }
    assert_eq!(s.cwnd(), 12 * MSS);
    assert_eq!(s.stats().fast_retransmits, 1);
}
