//! The second tier's `far` entries (crate::later) in a calendar: buckets of 2^`SHIFT`
//! nanoseconds on a ring, the earliest bucket in a heap (Brown, "Calendar queues", CACM 31(10),
//! 1988, with one year of fixed-width days and the years beyond in a heap).
//!
//! - `front`: every entry of the buckets up to `front_bucket`, in a binary heap (crate::heap);
//!   never empty while the calendar holds an entry;
//! - `ring`: the entries of the next `RING - 1` buckets after `front_bucket`, unsorted, each
//!   bucket in the slot of its number modulo `RING`, with a bit per slot that holds any;
//! - `beyond`: the entries of later buckets, in a binary heap keyed as the tier's.
//!
//! An entry is filed once on its push (into its slot, or `beyond`), put in heap order with its
//! bucket when the bucket becomes the front (O(m) for a bucket of m), and popped from `front`
//! (O(log m)): a few levels for a bucket's few entries, where one heap of all the thousands of
//! connections' timers walked a dozen on every pop (docs/performance.md, fourteenth session).
//! An entry due before the front's bucket ends joins the front's heap, O(log m). (A sorted
//! front costs 1.4 % fewer instructions on web-1000, but when the front is a lone timer far
//! ahead and the frames put on a long wire come in before it, as in the `gigabit` preset, each
//! insertion shifted thousands of entries: +7 % on `gigabit-bbr`; a sorted ring buffer cost
//! more on every case.) An entry of `beyond` moves into the ring once, when its bucket comes
//! within the ring. The order is the keys' order whatever the bucket width: `front` pops by
//! key, and every entry outside it is in a later bucket, so has a later time than every entry
//! in it.

use crate::entry::Later;
use crate::heap::MinHeap;
use std::collections::BinaryHeap;

/// A bucket is 2^24 ns (16.8 ms) wide: the second tier's split (crate::later `FAR_AFTER_NS`),
/// so a push into `far` lands at least a bucket after the one of its push time.
const SHIFT: u32 = 24;
/// Buckets on the ring: 256, 4.3 s ahead of the front (retransmission timers, delayed ACKs,
/// think times of a few seconds); later entries wait in `beyond`.
const RING: u64 = 256;
const WORDS: usize = (RING / 64) as usize;

pub(crate) struct Calendar<E> {
    front: MinHeap<E>,
    front_bucket: u64,
    ring: Vec<Vec<Later<E>>>,
    occupied: [u64; WORDS],
    beyond: BinaryHeap<Later<E>>,
    len: usize,
}

#[inline]
fn bucket_of(key: u128) -> u64 {
    ((key >> 64) as u64) >> SHIFT
}

impl<E> Calendar<E> {
    pub(crate) fn new() -> Self {
        Calendar {
            front: MinHeap::new(),
            front_bucket: 0,
            ring: (0..RING).map(|_| Vec::new()).collect(),
            occupied: [0; WORDS],
            beyond: BinaryHeap::new(),
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first entry (the earliest key).
    #[inline]
    pub(crate) fn peek(&self) -> Option<&Later<E>> {
        self.front.peek()
    }

    /// Add `entry`: inline into its ring slot, the other cases out of line.
    #[inline]
    pub(crate) fn push(&mut self, entry: Later<E>) {
        let b = bucket_of(entry.key());
        if self.len > 0 && b > self.front_bucket && b - self.front_bucket < RING {
            self.len += 1;
            self.file(b, entry);
        } else {
            self.push_elsewhere(b, entry);
        }
    }

    /// [`Calendar::push`] into an empty calendar, the front, or `beyond`.
    #[inline(never)]
    fn push_elsewhere(&mut self, b: u64, entry: Later<E>) {
        self.len += 1;
        if self.len == 1 {
            self.front_bucket = b;
            self.front.push(entry);
        } else if b <= self.front_bucket {
            self.front.push(entry);
        } else {
            self.beyond.push(entry);
        }
    }

    /// Remove the first entry.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Later<E>> {
        let first = self.front.pop()?;
        self.len -= 1;
        if self.front.is_empty() && self.len > 0 {
            self.advance();
        }
        Some(first)
    }

    /// Into the ring slot of bucket `b` (within the ring's buckets).
    #[inline]
    fn file(&mut self, b: u64, entry: Later<E>) {
        let slot = (b % RING) as usize;
        self.ring[slot].push(entry);
        self.occupied[slot / 64] |= 1 << (slot % 64);
    }

    /// The next bucket after `front_bucket` with an entry on the ring, if any.
    fn next_on_ring(&self) -> Option<u64> {
        let start = (self.front_bucket % RING) as usize;
        // Slots after the front's, wrapping round: at most RING - 1 of them.
        for step in 0..WORDS + 1 {
            let w = (start / 64 + step) % WORDS;
            let mut bits = self.occupied[w];
            if step == 0 {
                // Only the slots after the front's own in its word.
                bits &= (!0u64).checked_shl((start % 64) as u32 + 1).unwrap_or(0);
            } else if step == WORDS {
                // Round again to the front's word: the slots before the front's own.
                bits &= (1u64 << (start % 64)) - 1;
            }
            if bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                let ahead = (slot as u64 + RING - start as u64) % RING;
                return Some(self.front_bucket + ahead);
            }
        }
        None
    }

    /// `front` ran out: the next bucket with an entry becomes the front, in heap order.
    #[inline(never)]
    fn advance(&mut self) {
        let on_ring = self.next_on_ring();
        let from_beyond = self.beyond.peek().map(|e| bucket_of(e.key()));
        let next = match (on_ring, from_beyond) {
            (Some(r), Some(b)) => r.min(b),
            (Some(r), None) => r,
            (None, Some(b)) => b,
            (None, None) => unreachable!("the calendar's count says an entry waits"),
        };
        self.front_bucket = next;
        // The buckets of `beyond` now within the ring (or the front's own) move onto it.
        while let Some(e) = self.beyond.peek() {
            let b = bucket_of(e.key());
            if b - next >= RING {
                break;
            }
            let Some(e) = self.beyond.pop() else { break };
            self.file(b, e);
        }
        let slot = (next % RING) as usize;
        // The bucket's entries become the front and the empty front's vector the slot's (both
        // keep their allocations).
        self.front.swap_in(&mut self.ring[slot]);
        self.occupied[slot / 64] &= !(1 << (slot % 64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;
    use proptest::prelude::*;

    fn entry(time: u64, seq: u64) -> Later<u64> {
        Later::new(SimTime(time), seq, seq)
    }

    /// Entries pop by key across the front, the ring and beyond, pushes and pops interleaved.
    #[test]
    fn pops_by_key_from_front_ring_and_beyond() {
        let mut c = Calendar::new();
        let w = 1u64 << SHIFT;
        // The front's bucket, the ring, far beyond it, and an entry before the front's bucket.
        for (time, seq) in [
            (5 * w, 1),
            (5 * w + 3, 2),
            (9 * w, 3),
            (900 * w, 4),
            (3 * w, 5),
        ] {
            c.push(entry(time, seq));
        }
        assert_eq!(c.len(), 5);
        assert_eq!(c.pop().map(|e| e.event), Some(5));
        c.push(entry(5 * w + 1, 6));
        let order: Vec<u64> = std::iter::from_fn(|| c.pop().map(|e| e.event)).collect();
        assert_eq!(order, [1, 6, 2, 3, 4]);
        assert!(c.is_empty() && c.peek().is_none());
    }

    proptest! {
        /// Against a heap keyed the same way: random pushes (times spread over many ring
        /// lengths, pushed at or after the last time popped, as the queue does) and pops.
        #[test]
        fn pops_as_a_heap_does(ops in proptest::collection::vec((0u8..4, 0u64..1 << 34), 1..400)) {
            let mut c = Calendar::new();
            let mut h = BinaryHeap::new();
            let (mut now, mut seq) = (0u64, 0u64);
            for (op, dt) in ops {
                if op == 0 {
                    let (a, b) = (c.pop(), h.pop());
                    prop_assert_eq!(a.as_ref().map(|e| e.key()), b.as_ref().map(|e: &Later<u64>| e.key()));
                    if let Some(e) = a {
                        now = e.time().as_nanos();
                    }
                } else {
                    // Short and long steps ahead, and ties on the same time.
                    let t = now + if op == 1 { dt >> 20 } else { dt };
                    seq += 1;
                    c.push(entry(t, seq));
                    h.push(entry(t, seq));
                }
                prop_assert_eq!(c.len(), h.len());
                prop_assert_eq!(c.peek().map(|e| e.key()), h.peek().map(|e| e.key()));
            }
            while let Some(b) = h.pop() {
                prop_assert_eq!(c.pop().map(|e| e.key()), Some(b.key()));
            }
            prop_assert!(c.is_empty());
        }
    }
}
