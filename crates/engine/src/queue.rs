//! The event queue: events kept sorted by `(time, insertion sequence)`.
//!
//! The sequence number makes the order total: two events scheduled for the same instant pop in
//! the order they were pushed, on every run and every platform (DESIGN.md, house rule 3).
//!
//! A simulation holds few events at a time (a frame per busy channel, the frames in flight on
//! each wire, a timer or two per endpoint), and a new event is usually due before the timers
//! but after the one or two frame events waiting. So the events are kept in a vector sorted
//! latest first: a pop takes the last element, a push walks back from the end past the few
//! events due earlier and inserts there (one step of insertion sort; O(n) in the worst case,
//! a few entries in practice), which is cheaper than a binary heap's sift-down and sift-up.

use crate::time::SimTime;

struct Entry<E> {
    time: SimTime,
    event: E,
}

/// A priority queue of events of type `E` with a total, reproducible order.
pub struct EventQueue<E> {
    /// Sorted by `(time, insertion sequence)`, *latest first*: the next event is the last
    /// element. The sequence is implicit: an event goes in front of (pops after) every event of
    /// the same time already waiting.
    events: Vec<Entry<E>>,
    now: SimTime,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue at time zero.
    pub fn new() -> Self {
        EventQueue {
            events: Vec::with_capacity(256),
            now: SimTime::ZERO,
            popped: 0,
        }
    }

    /// The time of the event popped last (the simulation's "now").
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Number of events popped so far.
    pub fn events_processed(&self) -> u64 {
        self.popped
    }

    /// Number of events waiting.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no event is waiting.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Schedule `event` at `time`. Scheduling in the past is a logic error; it is clamped to
    /// `now` in release builds so that the order stays total, and caught in debug builds.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        debug_assert!(
            time >= self.now,
            "event scheduled in the past: {time} < {}",
            self.now
        );
        let time = time.max(self.now);
        // In at the back (the earliest end), then moved forward past the events due at or
        // before `time`: usually one or two frame events, the timers due later stay in front.
        // One step of insertion sort, fused with the search: for the few places it moves, a
        // swap each is cheaper than `Vec::insert`'s call to `memmove` (callgrind).
        let mut at = self.events.len();
        self.events.push(Entry { time, event });
        while at > 0 && self.events[at - 1].time <= time {
            self.events.swap(at - 1, at);
            at -= 1;
        }
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.events.last().map(|e| e.time)
    }

    /// Remove and return the earliest event if it is due at or before `limit`, advancing `now`
    /// to its time; `None` if the queue is empty or its next event is later (tell them apart
    /// with [`EventQueue::is_empty`]). One look at the next event instead of a peek and a pop.
    #[inline]
    pub fn pop_not_after(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        if self.events.last()?.time > limit {
            return None;
        }
        self.pop()
    }

    /// Remove and return the earliest event, advancing `now` to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.events.pop()?;
        self.now = e.time;
        self.popped += 1;
        Some((e.time, e.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

        /// Pushes interleaved with pops (delays from the current time) pop exactly as a binary
        /// heap keyed by `(time, insertion sequence)` does: the order the queue used to have.
        #[test]
        fn interleaved_pushes_and_pops_match_a_heap(ops in proptest::collection::vec((0u64..20, 0u8..3), 0..300)) {
            use std::cmp::Reverse;
            let mut q = EventQueue::new();
            let mut model = std::collections::BinaryHeap::new();
            for (i, &(delay, pops)) in ops.iter().enumerate() {
                let t = q.now() + crate::SimDuration::from_nanos(delay);
                q.schedule(t, i);
                model.push(Reverse((t, i)));
                for _ in 0..pops {
                    prop_assert_eq!(q.pop(), model.pop().map(|Reverse(e)| e));
                }
            }
            while let Some(Reverse(e)) = model.pop() {
                prop_assert_eq!(q.pop(), Some(e));
            }
            prop_assert_eq!(q.pop(), None);
        }

        /// `pop_not_after` pops what `peek_time` and `pop` would, and nothing after the limit.
        #[test]
        fn pop_not_after_stops_at_the_limit(times in proptest::collection::vec(0u64..50, 0..100), limit in 0u64..50) {
            let (mut a, mut b) = (EventQueue::new(), EventQueue::new());
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
                if got.is_none() {
                    break;
                }
            }
            prop_assert_eq!(a.len(), b.len());
            prop_assert_eq!(a.is_empty(), times.iter().all(|&t| t <= limit));
        }
    }
}
