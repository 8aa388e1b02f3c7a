use super::*;

const MSS: u64 = 1000;

/// The indexes and counts are what a walk over the slots finds.
fn check_indexes(b: &RackBoard) -> Result<(), proptest::test_runner::TestCaseError> {
    let slots: Vec<(u64, Slot)> = (b.first..).zip(b.slots.iter().copied()).collect();
    let holes: Vec<u64> = slots
        .iter()
        .filter(|(_, s)| !s.sacked)
        .map(|&(i, _)| i)
        .collect();
    proptest::prop_assert_eq!(b.holes.iter().copied().collect::<Vec<_>>(), holes);
    let flight: BTreeSet<(SimTime, u64)> = slots
        .iter()
        .filter(|(_, s)| !s.sacked && s.copies > 0)
        .map(|&(i, s)| (s.xmit, i))
        .collect();
    let kept: Vec<(SimTime, u64)> = b.flight.iter().copied().collect();
    proptest::prop_assert_eq!(kept, flight.into_iter().collect::<Vec<_>>());
    let lost: BTreeSet<u64> = slots
        .iter()
        .filter(|(_, s)| !s.sacked && s.copies == 0)
        .map(|&(i, _)| i)
        .collect();
    proptest::prop_assert_eq!(&b.lost, &lost);
    // The pipe, the SACKed bytes and the lowest lost segment as the walks before the indexes.
    let len = |i: u64| {
        let (start, end) = b.range(i);
        end - start
    };
    let pipe: u64 = slots
        .iter()
        .filter(|(_, s)| !s.sacked)
        .map(|&(i, s)| u64::from(s.copies) * len(i))
        .sum();
    proptest::prop_assert_eq!(b.pipe(), pipe);
    let sacked: u64 = slots
        .iter()
        .filter(|(_, s)| s.sacked)
        .map(|&(i, _)| len(i))
        .sum();
    proptest::prop_assert_eq!(b.sacked_bytes(), sacked);
    proptest::prop_assert_eq!(
        b.sacked_count(),
        slots.iter().filter(|(_, s)| s.sacked).count() as u64
    );
    let lowest = slots
        .iter()
        .find(|(_, s)| !s.sacked && s.copies == 0)
        .map(|&(i, _)| b.range(i).0);
    proptest::prop_assert_eq!(b.lowest_lost(), lowest);
    Ok(())
}

/// RFC 8985 §6.2 step 5 as a walk over every slot (the code before the indexes): the slots it
/// marks lost and the wait for the last of the others.
fn detect_by_walk(
    b: &RackBoard,
    now: SimTime,
    (rack_xmit, rack_end): (SimTime, u64),
    rtt: u64,
    reo: u64,
) -> (Vec<u64>, u64) {
    let (mut lost, mut wait) = (Vec::new(), 0u64);
    for (i, s) in (b.first..).zip(b.slots.iter()) {
        let end = b.range(i).1;
        let before = rack_xmit > s.xmit || (rack_xmit == s.xmit && rack_end > end);
        if s.sacked || s.copies == 0 || !before {
            continue;
        }
        let deadline = s.xmit.as_nanos() + rtt + reo;
        if deadline <= now.as_nanos() {
            lost.push(i);
        } else {
            wait = wait.max(deadline - now.as_nanos());
        }
    }
    (lost, wait)
}

proptest::proptest! {
    /// Through random sends (new data, whole and short; retransmissions, several at one
    /// instant), cumulative ACKs, SACK blocks, loss detection against random RACK states and
    /// timeouts, every index, count and answer of the board is the walk's, and detection marks
    /// exactly the slots the walk marks.
    #[test]
    fn the_indexes_agree_with_a_walk(
        ops in proptest::collection::vec((0u8..6, 0u64..12, 0u64..12), 1..120),
    ) {
        let mut b = RackBoard::new(MSS as u32);
        let (mut now, mut una, mut max) = (0u64, 0u64, 0u64);
        for (op, x, y) in ops {
            match op {
                0 => {
                    now += x % 3;
                    let len = if y % 4 == 0 { MSS - 300 } else { (y % 3 + 1) * MSS };
                    b.on_sent(SimTime(now), max, len as u32);
                    max += len;
                }
                1 if max > una => {
                    // A retransmission of the segment x places above snd_una.
                    now += y % 2;
                    let off = (una / MSS + x) * MSS;
                    if off < max {
                        b.on_sent(SimTime(now), off.max(una), (MSS - (off.max(una) - off)) as u32);
                    }
                }
                2 => {
                    una = (una + x * 600).min(max);
                    b.on_cum_ack(una, &mut Vec::new());
                }
                3 => {
                    let l = una + x * MSS;
                    b.on_sack_block(l, (l + (y + 1) * MSS).min(max), &mut Vec::new());
                }
                4 => {
                    now += x;
                    // RACK's segment: mostly a segment on the board (its time and end, as a
                    // delivered one leaves them), else any time and offset.
                    let n = b.slots.len() as u64;
                    let rack = if n > 0 && y % 3 != 0 {
                        let idx = b.first + x % n;
                        (b.slots[(x % n) as usize].xmit, b.range(idx).1)
                    } else {
                        (SimTime(now.saturating_sub(y)), una + x * 700)
                    };
                    let (rtt, reo) = (y % 4, x % 3);
                    let (want, wait) = detect_by_walk(&b, SimTime(now), rack, rtt, reo);
                    let before = b.lost.clone();
                    let (lost, got_wait) = b.detect(SimTime(now), rack, rtt, reo);
                    let marked: Vec<u64> = b.lost.difference(&before).copied().collect();
                    proptest::prop_assert_eq!(&marked, &want);
                    proptest::prop_assert_eq!(lost, !want.is_empty());
                    proptest::prop_assert_eq!(got_wait, wait);
                }
                5 if x == 0 => b.lose_unsacked(),
                _ => {}
            }
            check_indexes(&b)?;
        }
    }
}

/// A SACK block that covers SACKed segments again marks only the new ones, in order.
#[test]
fn a_repeated_sack_block_reports_only_the_newly_covered_segments() {
    let mut b = RackBoard::new(MSS as u32);
    for k in 0..8 {
        b.on_sent(SimTime(k), k * MSS, MSS as u32);
    }
    let mut newly = Vec::new();
    b.on_sack_block(2 * MSS, 5 * MSS, &mut newly);
    assert_eq!(
        newly.iter().map(|&(_, e)| e).collect::<Vec<_>>(),
        [3000, 4000, 5000]
    );
    newly.clear();
    b.on_sack_block(2 * MSS, 7 * MSS, &mut newly);
    assert_eq!(
        newly.iter().map(|&(_, e)| e).collect::<Vec<_>>(),
        [6000, 7000]
    );
    assert_eq!((b.sacked_bytes(), b.pipe()), (5 * MSS, 3 * MSS));
}
