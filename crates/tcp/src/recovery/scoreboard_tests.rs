//! Unit tests of crate::recovery::scoreboard.

use super::*;

const MSS: u64 = 1400;

proptest::proptest! {
    /// The counts behind `is_plain`, `highest_sacked_end` and `sacked_bytes` agree with a
    /// walk of the board through random sends (whole and short), cumulative ACKs, SACK
    /// blocks, SMART triggers, retransmissions and clears.
    #[test]
    fn the_counts_agree_with_a_walk(
        ops in proptest::collection::vec((0u8..7, 0u64..10, 0u64..10), 1..150),
    ) {
        let mut b = Scoreboard::new(MSS as u32);
        let (mut una, mut max) = (0u64, 0u64);
        for (op, x, y) in ops {
            match op {
                0 => {
                    max += if x % 4 == 0 { MSS - 300 } else { (x % 3 + 1) * MSS };
                    b.update(una, max);
                }
                1 => {
                    una = (una + x * 700).min(max);
                    b.on_cum_ack(una);
                }
                2 => {
                    let left = una + x * MSS;
                    b.on_sack_block(left, (left + (y + 1) * MSS).min(max));
                }
                3 => {
                    b.on_smart_trigger(una + x * MSS);
                }
                4 => b.mark_retransmitted(una + x * MSS, SimTime(y)),
                5 if x == 0 => b.clear(),
                6 if x == 0 => b.clear_retransmitted(),
                _ => {}
            }
            // The counts are of the slots' marks, kept exactly.
            let sacked = b.slots.iter().filter(|s| s.sacked).count();
            let resent = b.slots.iter().filter(|s| s.rexmit_at.is_some()).count();
            proptest::prop_assert_eq!((b.sacked_slots, b.resent_slots), (sacked, resent));
            let walk: Vec<SegmentState> = b.segments().collect();
            // A plain board has no SACKed or resent segment (the converse may fail: the
            // slot of an emptied partial segment keeps its marks until the ACK passes it).
            if b.is_plain() {
                proptest::prop_assert!(walk.iter().all(|s| !s.sacked && s.rexmit_at.is_none()));
            }
            let high = walk.iter().rev().find(|s| s.sacked).map(|s| s.off + u64::from(s.len));
            proptest::prop_assert_eq!(b.highest_sacked_end(), high);
            let bytes: u64 = walk.iter().filter(|s| s.sacked).map(|s| u64::from(s.len)).sum();
            proptest::prop_assert_eq!(b.sacked_bytes(), bytes);
            // The holes are the slots not SACKed, and every answer found from them is the
            // walk's.
            let holes: Vec<u64> = (b.first..).zip(&b.slots).filter(|(_, s)| !s.sacked).map(|(i, _)| i).collect();
            proptest::prop_assert_eq!(b.holes.iter().copied().collect::<Vec<_>>(), holes);
            let unsacked: Vec<SegmentState> = walk.iter().copied().filter(|s| !s.sacked).collect();
            proptest::prop_assert_eq!(b.unsacked().collect::<Vec<_>>(), unsacked.clone());
            let down: Vec<_> = b.segments_down_with_sacked_above().filter(|(s, _)| !s.sacked).collect();
            proptest::prop_assert_eq!(b.unsacked_down_with_sacked_above().collect::<Vec<_>>(), down);
            let resent_holes = b.slots.iter().filter(|s| !s.sacked && s.rexmit_at.is_some()).count();
            proptest::prop_assert_eq!(b.resent_holes, resent_holes);
            let next = unsacked.iter().copied().find(|s| s.rexmit_at.is_none());
            proptest::prop_assert_eq!(b.lowest_unresent(), next);
            for dt in 1..=4u32 {
                for off in [0, una, una + x * 500, una + y * MSS + 1, max] {
                    let (bytes, runs) = sacked_above_by_walk(&b, off);
                    let want = runs >= dt || bytes > u64::from(dt - 1) * MSS;
                    proptest::prop_assert_eq!(b.is_lost_rfc6675(off, dt), want, "off {} dt {}", off, dt);
                }
                for from in [0, una, una + x * MSS, una + y * 500] {
                    let lost = |_: &SegmentState, (bytes, runs): (u64, u32)| {
                        runs >= dt || bytes > u64::from(dt - 1) * MSS
                    };
                    proptest::prop_assert_eq!(
                        b.pipe_rfc6675(max + y, from, dt),
                        b.pipe(max + y, from, lost),
                        "dupthresh {} from {}", dt, from
                    );
                }
            }
            let hole = walk.iter().any(|s| !s.sacked && high.is_some_and(|h| s.off < h));
            proptest::prop_assert_eq!(b.has_hole(), hole);
            for off in [0, una.saturating_sub(1), una, una + x * 500, una + y * MSS + 1, max, max + 1] {
                proptest::prop_assert_eq!(b.sacked_above(off), sacked_above_by_walk(&b, off), "off {}", off);
                let at = walk.iter().copied().find(|s| s.off <= off && off < s.off + u64::from(s.len));
                proptest::prop_assert_eq!(b.segment_at(off), at, "off {}", off);
            }
        }
    }
}

/// [`Scoreboard::sacked_above`] as a walk over every segment (what it was before the holes).
fn sacked_above_by_walk(b: &Scoreboard, off: u64) -> (u64, u32) {
    let (mut bytes, mut runs, mut in_run) = (0, 0, false);
    for s in b.segments().filter(|s| s.off > off) {
        if s.sacked {
            bytes += u64::from(s.len);
            if !in_run {
                runs += 1;
            }
        }
        in_run = s.sacked;
    }
    (bytes, runs)
}

fn states(b: &Scoreboard) -> Vec<(u64, bool)> {
    b.segments().map(|s| (s.off / MSS, s.sacked)).collect()
}

#[test]
fn sack_blocks_mark_whole_segments_and_the_cum_ack_drops_them() {
    let mut b = Scoreboard::new(1400);
    b.update(0, 7 * MSS);
    // Segments 1 and 2 (0-based 0 and 1) missing; 2..5 received.
    assert_eq!(b.on_sack_blocks(&[(2 * MSS, 5 * MSS)]), 3);
    assert_eq!(b.on_sack_block(2 * MSS, 5 * MSS), 0, "not news twice");
    // A block that covers only half a segment marks nothing.
    assert_eq!(b.on_sack_block(5 * MSS, 5 * MSS + 700), 0);
    assert!(b.is_sacked(3 * MSS + 10) && !b.is_sacked(MSS));
    assert_eq!(b.highest_sacked_end(), Some(5 * MSS));
    assert!(b.has_hole());
    assert_eq!(b.sacked_above(0), (3 * MSS, 1));
    b.on_cum_ack(MSS);
    assert_eq!(
        states(&b),
        vec![
            (1, false),
            (2, true),
            (3, true),
            (4, true),
            (5, false),
            (6, false)
        ]
    );
    b.on_cum_ack(5 * MSS);
    assert!(!b.has_hole());
    assert_eq!(b.segments().count(), 2);
}

#[test]
fn smart_trigger_sets_one_bit_and_runs_are_counted() {
    let mut b = Scoreboard::new(1400);
    b.update(0, 8 * MSS);
    assert!(b.on_smart_trigger(2 * MSS));
    assert!(!b.on_smart_trigger(2 * MSS));
    assert!(b.on_smart_trigger(4 * MSS));
    assert!(b.on_smart_trigger(5 * MSS));
    assert!(!b.on_smart_trigger(9 * MSS), "never sent");
    assert_eq!(b.sacked_above(0), (3 * MSS, 2));
    assert_eq!(b.sacked_above(3 * MSS), (2 * MSS, 1));
    b.mark_retransmitted(MSS, SimTime(5));
    assert_eq!(b.retransmitted_at(MSS + 1), Some(SimTime(5)));
    b.clear();
    assert!(!b.has_hole() && b.retransmitted_at(MSS).is_none());
}

#[test]
fn the_downward_pass_counts_what_sacked_above_counts() {
    let mut b = Scoreboard::new(1400);
    b.update(700, 12 * MSS + 100);
    // Runs of SACKed segments: 2-3, 5, 7-9, 11; 12 is the short last one.
    for (l, r) in [(2, 4), (5, 6), (7, 10), (11, 12)] {
        b.on_sack_block(l * MSS, r * MSS);
    }
    b.mark_retransmitted(MSS, SimTime(1));
    let down: Vec<_> = b.segments_down_with_sacked_above().collect();
    assert_eq!(down.len(), 13);
    for (s, above) in down {
        assert_eq!(above, b.sacked_above(s.off), "segment at {}", s.off);
    }
    let lost = |s: &SegmentState, above: (u64, u32)| {
        assert_eq!(above, b.sacked_above(s.off));
        above.1 >= 3
    };
    // Unsacked: 0 (700 bytes), 1 (resent), 4, 6, 10, 12 (100 bytes); those below three
    // runs or more (0, 1, 4) have left the network, 1's resend has not.
    assert_eq!(b.pipe(12 * MSS + 100, 0, lost), 3 * MSS + 100);
}

/// A short top segment that a block reaching snd_max SACKed, and that grows when the sender
/// sends on from a point between two multiples of the MSS (a stream a short retransmission
/// shifted), is a hole again: its new bytes were never acknowledged. Before, the slot kept
/// its SACK over them, the go-back-N after a timeout skipped them and the timer backed off
/// to its maximum with nothing to send (LL-ELSN, Fig. 11's background, 0.06 Mb/s).
#[test]
fn a_sacked_short_top_segment_that_grows_is_a_hole_again() {
    let mut b = Scoreboard::new(MSS as u32);
    b.update(0, 2 * MSS + 100);
    assert_eq!(b.on_sack_block(MSS, 2 * MSS + 100), 2);
    assert!(b.is_sacked(2 * MSS));
    // Bytes the board has not seen sent are not SACKed, whatever their slot says.
    assert!(!b.is_sacked(2 * MSS + 100));
    b.update(0, 3 * MSS + 100);
    assert!(b.is_sacked(MSS));
    assert!(!b.is_sacked(2 * MSS));
    let holes: Vec<_> = b.unsacked().map(|s| (s.off, s.len)).collect();
    assert_eq!(
        holes,
        vec![(0, MSS as u32), (2 * MSS, MSS as u32), (3 * MSS, 100)]
    );
    // The same when the cumulative ACK emptied the slot up to the old snd_max.
    let mut b = Scoreboard::new(MSS as u32);
    b.update(0, 2 * MSS + 100);
    b.on_sack_block(2 * MSS, 2 * MSS + 100);
    b.on_cum_ack(2 * MSS + 100);
    b.update(2 * MSS + 100, 3 * MSS + 100);
    assert!(!b.is_sacked(2 * MSS + 100));
    assert_eq!(
        b.lowest_unresent().map(|s| (s.off, s.len)),
        Some((2 * MSS + 100, MSS as u32 - 100))
    );
}

#[test]
fn short_last_segment_is_covered_up_to_snd_max() {
    let mut b = Scoreboard::new(1400);
    b.update(0, 2 * MSS + 100);
    assert_eq!(b.on_sack_block(2 * MSS, 2 * MSS + 100), 1);
    let last = b.segments().last().unwrap();
    assert_eq!((last.off, last.len, last.sacked), (2 * MSS, 100, true));
    // A partly acknowledged first segment reports only its outstanding bytes.
    b.on_cum_ack(700);
    assert_eq!(
        b.segments().next().map(|s| (s.off, s.len)),
        Some((700, 700))
    );
}
