//! Tests of ESACK (`esack.rs`).

use super::super::reno::tests::{dup, new_ack, view};
use super::*;

const MSS: u64 = 1400;

fn esack() -> EsackRecovery {
    EsackRecovery::new(EsackConfig::default(), 1400)
}

/// The congestion hole as RFC 6675 words it: the first candidate whose own scan of the
/// board above it finds it lost.
fn hole_by_scans(r: &EsackRecovery) -> Option<SegmentState> {
    let high = r.board.highest_sacked_end()?;
    r.board
        .segments()
        .take_while(|s| s.off < high)
        .filter(|s| !s.sacked && s.rexmit_at.is_none() && r.tag(s.off).is_none())
        .find(|s| r.is_lost_given(r.board.sacked_above(s.off)))
}

proptest::proptest! {
    /// The congestion hole from its lowest candidate and the walk down the tags answer as
    /// a scan of the board above each candidate and a search of the tags do, on random
    /// boards (SACKed segments, resent ones, tags of each kind).
    #[test]
    fn one_pass_answers_match_the_scans(
        segs in 1u64..40,
        sacked in proptest::collection::vec(proptest::bool::ANY, 40),
        resent in proptest::collection::vec(0u8..8, 40),
        tagged in proptest::collection::vec(0u8..6, 40),
    ) {
        let mut r = esack();
        r.board.update(0, segs * MSS - 300);
        for i in 0..segs {
            if sacked[i as usize] {
                r.board.on_sack_blocks(&[(i * MSS, ((i + 1) * MSS).min(segs * MSS - 300))]);
            }
            if resent[i as usize] == 0 {
                r.board.mark_retransmitted(i * MSS, SimTime(5));
            }
            let tag = [Tag::Pending, Tag::Resent, Tag::Held].get(tagged[i as usize] as usize);
            if let Some(&t) = tag {
                r.set_tag(i * MSS, t);
            }
        }
        proptest::prop_assert_eq!(r.congestion_hole(), hole_by_scans(&r));
        let mut down = r.tags_down();
        for off in (0..segs * MSS).rev().step_by(350) {
            proptest::prop_assert_eq!(down(off), r.tag(off));
        }
    }
}

/// RFC 6675 SetPipe's sum over the board as the spec words it: every segment, with IsLost
/// from its own scan of the board above it and its tag from a search.
fn pipe_by_scans(r: &EsackRecovery) -> u64 {
    let mut pipe = 0;
    for s in r.board.segments().filter(|s| !s.sacked) {
        let tag = r.tag(s.off);
        if tag.is_none() && !r.is_lost_given(r.board.sacked_above(s.off)) {
            pipe += u64::from(s.len);
        }
        if s.rexmit_at.is_some() && !matches!(tag, Some(Tag::Pending | Tag::Held)) {
            pipe += u64::from(s.len);
        }
    }
    pipe
}

proptest::proptest! {
    /// The pipe kept between questions (from the board's counts, or its walk with many tags)
    /// answers as the spec's scans of the board do, through random sends (whole and
    /// short segments), cumulative and duplicate ACKs with SACK blocks, ELNs, retransmissions
    /// and timeouts.
    #[test]
    fn the_kept_pipe_answers_as_the_scans(
        ops in proptest::collection::vec((0u8..6, 0u64..12, 0u64..12), 1..120),
    ) {
        let mut r = esack();
        let (mut una, mut max, mut dups) = (0u64, 0u64, 0u32);
        for (op, a, b) in ops {
            let v = view(una, max);
            match op {
                // New data: whole segments, or a short one (the transfer's last, or a
                // write smaller than a segment).
                0 => max += if a % 4 == 0 { MSS - 300 } else { (a % 3 + 1) * MSS },
                1 if max > una => {
                    let ack = (una + (a + 1) * MSS).min(max);
                    r.on_ack(&new_ack(ack, ack - una), v);
                    una = ack;
                    dups = 0;
                }
                2 if max > una => {
                    let left = una + a * MSS;
                    let blocks = [(left, (left + (b + 1) * MSS).min(max))];
                    dups += 1;
                    let ack = AckInput { sack: &blocks, ..dup(dups, una) };
                    r.on_ack(&ack, v);
                }
                3 if max > una => {
                    r.on_eln(SimTime::ZERO, una + a * 700, v);
                }
                4 => {
                    r.next_retransmission(SimTime(7), v, b * MSS);
                }
                5 if a == 0 => r.on_timeout(v),
                _ => {}
            }
            let v = view(una, max);
            let fresh = (!matches!(r.phase, Phase::Loss { .. }))
                .then(|| v.snd_max.saturating_sub(r.board.snd_max()) + pipe_by_scans(&r));
            proptest::prop_assert_eq!(r.pipe(v), fresh);
            // The walk (kept for many tags) and the counts agree on every board.
            proptest::prop_assert_eq!(r.pipe_walk(), r.pipe_counts());
        }
    }
}

fn sdup(count: u32, blocks: &'static [(u64, u64)]) -> AckInput<'static> {
    AckInput {
        sack: blocks,
        ..dup(count, 0)
    }
}

#[test]
fn an_eln_resends_without_a_cut_and_its_reordering_is_no_congestion() {
    let mut r = esack();
    let v = view(0, 8 * MSS);
    // Segment 0 was dropped by the MAC; the ELN arrives before any duplicate.
    assert_eq!(r.on_eln(SimTime::ZERO, 0, v), ElnVerdict::Resend);
    // Its original left the pipe: 7 segments in flight.
    assert_eq!(r.pipe(v), Some(7 * MSS));
    let rx = r.next_retransmission(SimTime::ZERO, v, MSS).unwrap();
    assert_eq!((rx.off, rx.len, rx.forced), (0, 1400, false));
    assert_eq!(r.pipe(v), Some(8 * MSS));
    // Segments 1..=5 arrive before the resend: five duplicates, SACKing them; no recovery.
    let blocks: [&'static [(u64, u64)]; 5] = [
        &[(MSS, 2 * MSS)],
        &[(MSS, 3 * MSS)],
        &[(MSS, 4 * MSS)],
        &[(MSS, 5 * MSS)],
        &[(MSS, 6 * MSS)],
    ];
    for (i, b) in blocks.iter().enumerate() {
        let d = r.on_ack(&sdup(i as u32 + 1, b), v);
        assert_eq!(d.congestion, None, "duplicate {}", i + 1);
    }
    assert_eq!(r.phase(), Phase::Open);
    // The resend arrives: the cumulative ACK jumps, the window grows.
    let d = r.on_ack(&new_ack(6 * MSS, 6 * MSS), view(6 * MSS, 8 * MSS));
    assert_eq!(d.window, WindowOp::Grow);
}

#[test]
fn an_untagged_hole_found_lost_starts_one_recovery() {
    let mut r = esack();
    let v = view(0, 10 * MSS);
    // Segment 2 is ELN-lost, segment 5 was lost to congestion (no ELN).
    r.on_eln(SimTime::ZERO, 2 * MSS, v);
    assert!(r.next_retransmission(SimTime::ZERO, v, MSS).is_some());
    // 0, 1 delivered: new ACK to 2; then 3, 4 SACKed: no IsLost for 5 yet.
    let v2 = view(2 * MSS, 10 * MSS);
    assert_eq!(
        r.on_ack(&new_ack(2 * MSS, 2 * MSS), v2).window,
        WindowOp::Grow
    );
    let d = r.on_ack(
        &AckInput {
            sack: &[(3 * MSS, 5 * MSS)],
            ..dup(1, 2 * MSS)
        },
        v2,
    );
    assert_eq!(d.congestion, None);
    // 6, 7, 8 SACKed above segment 5: IsLost(5), one recovery with the hole forced.
    let d = r.on_ack(
        &AckInput {
            sack: &[(6 * MSS, 9 * MSS), (3 * MSS, 5 * MSS)],
            ..dup(2, 2 * MSS)
        },
        v2,
    );
    assert_eq!(
        d.congestion,
        Some(LossResponse::FastRetransmit {
            inflate_segments: 0
        })
    );
    let rx = r.next_retransmission(SimTime::ZERO, v2, 0).unwrap();
    assert_eq!((rx.off, rx.forced), (5 * MSS, true));
    // A further duplicate inside the episode cuts nothing more.
    let d = r.on_ack(
        &AckInput {
            sack: &[(6 * MSS, 10 * MSS), (3 * MSS, 5 * MSS)],
            ..dup(3, 2 * MSS)
        },
        v2,
    );
    assert_eq!(d.congestion, None);
}

#[test]
fn consecutive_elns_past_the_filter_are_left_to_the_timer() {
    let mut r = esack();
    let v = view(0, 6 * MSS);
    let t = SimTime::ZERO;
    assert_eq!(r.on_eln(t, 0, v), ElnVerdict::Resend);
    assert_eq!(r.on_eln(t, MSS, v), ElnVerdict::Resend);
    assert_eq!(r.on_eln(t, 2 * MSS, v), ElnVerdict::Resend);
    // The fourth consecutive one: filtered, not resent, its original out of the pipe.
    assert_eq!(r.on_eln(t, 3 * MSS, v), ElnVerdict::Filtered);
    let mut sent = Vec::new();
    while let Some(rx) = r.next_retransmission(t, v, 10 * MSS) {
        sent.push(rx.off / MSS);
    }
    assert_eq!(sent, vec![0, 1, 2]);
    // A resend lost again continues the run: filtered too.
    assert_eq!(r.on_eln(t, 0, v), ElnVerdict::Filtered);
    // A timeout forgets the run; a lone ELN is resent again.
    r.on_timeout(v);
    r.on_ack(&new_ack(MSS, MSS), view(MSS, 6 * MSS));
    assert_eq!(r.on_eln(t, 4 * MSS, view(MSS, 6 * MSS)), ElnVerdict::Resend);
}

#[test]
fn without_the_filter_every_eln_is_resent() {
    let mut r = EsackRecovery::new(
        EsackConfig {
            filter: 0,
            ..EsackConfig::default()
        },
        1400,
    );
    let v = view(0, 6 * MSS);
    for k in 0..6 {
        assert_eq!(r.on_eln(SimTime::ZERO, k * MSS, v), ElnVerdict::Resend);
    }
}

#[test]
fn stale_elns_are_ignored() {
    let mut r = esack();
    let v = view(2 * MSS, 6 * MSS);
    r.on_ack(&new_ack(2 * MSS, 2 * MSS), v);
    assert_eq!(r.on_eln(SimTime::ZERO, MSS, v), ElnVerdict::Stale);
    assert_eq!(r.on_eln(SimTime::ZERO, 6 * MSS, v), ElnVerdict::Stale);
    r.on_ack(
        &AckInput {
            sack: &[(3 * MSS, 4 * MSS)],
            ..dup(1, 2 * MSS)
        },
        v,
    );
    assert_eq!(r.on_eln(SimTime::ZERO, 3 * MSS, v), ElnVerdict::Stale);
}
