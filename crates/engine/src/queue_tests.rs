//! Unit tests of the `queue` module.

use super::*;
use proptest::prelude::*;
use std::cmp::Reverse;

#[test]
fn equal_times_pop_in_insertion_order() {
    let mut q = EventQueue::new();
    q.schedule(SimTime(10), 'a');
    q.schedule(SimTime(5), 'b');
    q.schedule(SimTime(10), 'c');
    q.schedule(SimTime(5), 'd');
    let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, vec!['b', 'd', 'a', 'c']);
    assert_eq!(q.now(), SimTime(10));
    assert_eq!(q.events_processed(), 4);
}

/// The spill and the straight push into `later`, on equal times: a full `near` (two
/// places) hands its latest to `later`, and events of that time pushed after it, straight
/// into `later`, still pop after it.
#[test]
fn spills_keep_insertion_order_on_equal_times() {
    let mut q: EventQueue<char, 2> = EventQueue::with_near_capacity();
    q.schedule(SimTime(10), 'a'); // near: a
    q.schedule(SimTime(10), 'b'); // near: a b (full)
    q.schedule(SimTime(10), 'c'); // at or after near's latest: later
    q.schedule(SimTime(5), 'd'); // near: d a b -> spills b below c
    assert_eq!((q.near.len(), q.later.len()), (2, 2));
    assert_eq!(q.falling, MIDDLE - 2);
    q.schedule(SimTime(10), 'e'); // at or after later's first (b): later
    q.schedule(SimTime(7), 'f'); // before later's first: near, spills a
    q.schedule(SimTime(10), 'g');
    let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, vec!['d', 'f', 'a', 'b', 'c', 'e', 'g']);
    assert!(q.is_empty());
}

/// Pushes (delays from the current time, drawn from `0..span`) interleaved with pops, on a
/// queue whose first tier holds `K` events, pop exactly as a binary heap keyed by
/// `(time, insertion count)`: the order the queue has always had. Run plain and with the
/// fingerprint on (every pop through the out-of-line path), whose value must be the hash of
/// the model's pops.
fn matches_heap<const K: usize>(ops: &[(u64, u8)]) -> Result<(), TestCaseError> {
    // The second tier split at its default and at 5 ns (crate::later: the order does not
    // depend on which of its heaps an entry waits in).
    let combos = [(false, false), (true, false), (false, true), (true, true)];
    for (fingerprint, lanes, far_after) in combos
        .into_iter()
        .flat_map(|(f, l)| [(f, l, crate::later::FAR_AFTER_NS), (f, l, 5)])
    {
        let mut q: EventQueue<usize, K> = EventQueue::with_near_capacity();
        q.later.far_after = far_after;
        if lanes {
            // Three lanes and events without one; the random times put some events of a
            // lane before its last (queued outside it).
            q.enable_lanes(3, |&i| if i % 4 == 3 { NO_LANE } else { (i % 3) as u32 });
        }
        // Enabled at the start, or after a third of the operations (events already waiting
        // in both tiers).
        let enable_at = match (fingerprint, ops.len() % 2) {
            (false, _) => usize::MAX,
            (true, 0) => 0,
            (true, _) => ops.len() / 3,
        };
        let mut expected = Fingerprint::new();
        let mut hashing = false;
        let mut lane0_last = SimTime::ZERO;
        let mut model = std::collections::BinaryHeap::new();
        let mut model_pop =
            |model: &mut std::collections::BinaryHeap<Reverse<(SimTime, usize)>>, hashing: bool| {
                let e = model.pop().map(|Reverse(e)| e);
                if let (Some((t, i)), true) = (e, hashing) {
                    expected.add(t.as_nanos(), (i % 7) as u8, i as u64);
                }
                e
            };
        for (i, &(delay, pops)) in ops.iter().enumerate() {
            if i == enable_at {
                q.enable_fingerprint(|&i| ((i % 7) as u8, i as u64));
                hashing = true;
            }
            let mut t = q.now() + crate::SimDuration::from_nanos(delay);
            if lanes && i % 3 == 0 && i % 4 != 3 {
                // Lane 0 in order of time, as a wire's arrivals: it waits in its lane.
                t = t.max(lane0_last);
                lane0_last = t;
            }
            q.schedule(t, i);
            model.push(Reverse((t, i)));
            prop_assert_eq!(q.len(), model.len());
            for _ in 0..pops {
                prop_assert_eq!(q.peek_time(), model.peek().map(|Reverse((t, _))| *t));
                // A pop refused at a limit before the next event changes nothing.
                if let Some(Reverse((t, _))) = model.peek() {
                    if t.as_nanos() > 0 && i % 5 == 0 {
                        prop_assert_eq!(q.pop_not_after(SimTime(t.as_nanos() - 1)), None);
                    }
                }
                prop_assert_eq!(q.pop(), model_pop(&mut model, hashing));
            }
        }
        if fingerprint && !hashing {
            q.enable_fingerprint(|&i| ((i % 7) as u8, i as u64));
            hashing = true;
        }
        while !model.is_empty() {
            let e = model_pop(&mut model, hashing);
            prop_assert_eq!(q.pop(), e);
        }
        prop_assert_eq!(q.pop(), None);
        prop_assert!(q.is_empty());
        let want = if fingerprint {
            Some(expected.value())
        } else {
            None
        };
        prop_assert_eq!(q.fingerprint(), want);
    }
    Ok(())
}

/// Operations: a delay in `0..span` and 0, 1 or 2 pops after the push (fewer pops than
/// pushes on average, so that the queue grows past the first tier and spills).
fn ops(span: u64) -> impl Strategy<Value = Vec<(u64, u8)>> {
    proptest::collection::vec(
        (
            0..span,
            prop_oneof![3 => Just(0u8), 2 => Just(1), 2 => Just(2)],
        ),
        0..400,
    )
}

proptest! {
    #[test]
    fn pops_are_sorted_by_time_then_sequence(times in proptest::collection::vec(0u64..50, 0..200)) {
        let mut q = EventQueue::new();
        for (i, t) in times.iter().enumerate() {
            q.schedule(SimTime(*t), i);
        }
        let mut last: Option<(SimTime, usize)> = None;
        while let Some((t, i)) = q.pop() {
            if let Some((lt, li)) = last {
                prop_assert!(lt < t || (lt == t && li < i));
            }
            last = Some((t, i));
        }
    }

    /// Many equal times (delays in 0..4): the sequence decides most pops.
    #[test]
    fn interleaved_ties_match_a_heap(ops in ops(4)) {
        matches_heap::<1>(&ops)?;
        matches_heap::<2>(&ops)?;
        matches_heap::<5>(&ops)?;
        matches_heap::<32>(&ops)?;
    }

    /// Spread times (delays in 0..1000): spills, straight pushes and pops from `later`.
    #[test]
    fn interleaved_spread_match_a_heap(ops in ops(1000)) {
        matches_heap::<1>(&ops)?;
        matches_heap::<3>(&ops)?;
        matches_heap::<8>(&ops)?;
        matches_heap::<32>(&ops)?;
    }

    /// Long waits beside short ones (timers and frames on long wires among frames on the
    /// air): delays of either a few or many nanoseconds.
    #[test]
    fn interleaved_bimodal_match_a_heap(ops in proptest::collection::vec(
        (prop_oneof![0u64..3, 500u64..520], 0u8..3), 0..400)) {
        matches_heap::<2>(&ops)?;
        matches_heap::<4>(&ops)?;
        matches_heap::<16>(&ops)?;
    }

    /// `pop_not_after` pops what `peek_time` and `pop` would, and nothing after the limit.
    #[test]
    fn pop_not_after_stops_at_the_limit(times in proptest::collection::vec(0u64..50, 0..100), limit in 0u64..50) {
        let (mut a, mut b) = (EventQueue::<usize, 4>::with_near_capacity(), EventQueue::<usize, 4>::with_near_capacity());
        // `a` pops through the out-of-line path, and hashes only what it pops.
        a.enable_fingerprint(|&i| (0, i as u64));
        let mut hashed = Fingerprint::new();
        for (i, t) in times.iter().enumerate() {
            a.schedule(SimTime(*t), i);
            b.schedule(SimTime(*t), i);
        }
        loop {
            let expected = match b.peek_time() {
                Some(t) if t <= SimTime(limit) => b.pop(),
                _ => None,
            };
            let got = a.pop_not_after(SimTime(limit));
            prop_assert_eq!(got, expected);
            let Some((t, i)) = got else {
                break;
            };
            hashed.add(t.as_nanos(), 0, i as u64);
        }
        prop_assert_eq!(a.fingerprint(), Some(hashed.value()));
        prop_assert_eq!(a.len(), b.len());
        prop_assert_eq!(a.is_empty(), times.iter().all(|&t| t <= limit));
    }
}
