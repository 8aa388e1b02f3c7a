//! The event queue's second tier (crate::queue): entries keyed by one 128-bit `(time, seq)`,
//! kept apart by how far ahead they were due when pushed.
//!
//! - `soon`: entries due less than `far_after` after the queue's `now` at their push (a frame's
//!   next arrival on a busy wire, a channel's end of transmission), in a binary heap
//!   (crate::heap);
//! - `far`: the rest (retransmission and delayed-ACK timers of thousands of connections, web
//!   sessions' think times, frames put on an idle long wire), in a calendar (crate::calendar).
//!
//! The first entry of the tier is the earlier of the two parts' first entries (keys are unique,
//! so the comparison is strict): the order is exactly one heap's, whatever the partition; the
//! proptests of crate::queue run with the split at every few nanoseconds as well as at the
//! default. What the split buys: a pop of a frame's arrival sifts through a heap of the frames
//! and imminent events only, not through every connection's timer (the 1000-flow dumbbell at
//! 1 Gb/s: about 2000 timers against a handful of wires' lane heads), so most pops walk a level
//! or two; the timers take O(1) each in the calendar, where a heap of them walked a dozen
//! levels per pop (docs/performance.md, fourteenth session).

use crate::calendar::Calendar;
use crate::entry::Later;
use crate::heap::MinHeap;
use crate::time::SimTime;

/// How far ahead of `now` an entry must be due to go to `far`: 16.8 ms (2^24 ns). Beyond the
/// frames on the air and a busy wire's next arrival (a 1500-byte frame takes 12 ms at 1 Mb/s),
/// below the timers (delayed ACKs at 40 ms and more, retransmission timers at 200 ms and more).
/// Chosen by callgrind over 1 ms, 4.2 ms, 16.8 ms and 67 ms: the same instructions within
/// 0.1 % on the dumbbells (1000 flows at 1 Gb/s, 10 flows at 10 Mb/s); web-1000 150.7 M,
/// 146.1 M, 139.2 M, 139.0 M (its 1 Mb/s wire's next arrivals are 12 ms apart).
pub(crate) const FAR_AFTER_NS: u64 = 1 << 24;

/// The second tier: a heap and a calendar, split by how far ahead an entry was due at its push.
pub(crate) struct LaterTier<E> {
    soon: MinHeap<E>,
    far: Calendar<E>,
    /// The split (nanoseconds after `now`): [`FAR_AFTER_NS`]; the tests move it.
    pub(crate) far_after: u64,
}

impl<E> LaterTier<E> {
    pub(crate) fn new() -> Self {
        LaterTier {
            soon: MinHeap::new(),
            far: Calendar::new(),
            far_after: FAR_AFTER_NS,
        }
    }

    /// Entries waiting.
    pub(crate) fn len(&self) -> usize {
        self.soon.len() + self.far.len()
    }

    /// Whether no entry waits.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.soon.is_empty() && self.far.is_empty()
    }

    /// Add `entry`, pushed at `now`.
    #[inline]
    pub(crate) fn push(&mut self, entry: Later<E>, now: SimTime) {
        if entry.time().as_nanos() >= now.as_nanos().saturating_add(self.far_after) {
            self.push_far(entry);
        } else {
            self.soon.push(entry);
        }
    }

    /// Whether the first entry of the tier is `far`'s (`false` when `far` is empty).
    #[inline]
    fn far_first(&self) -> bool {
        match (self.soon.peek(), self.far.peek()) {
            (Some(s), Some(f)) => f.key() < s.key(),
            (None, Some(_)) => true,
            _ => false,
        }
    }

    /// The first entry (earliest key) of the tier.
    #[inline]
    pub(crate) fn peek(&self) -> Option<&Later<E>> {
        if self.far_first() {
            self.far.peek()
        } else {
            self.soon.peek()
        }
    }

    /// Remove the first entry of the tier.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Later<E>> {
        if self.far_first() {
            self.pop_far()
        } else {
            self.soon.pop()
        }
    }

    /// Remove the first entry of the tier, and push at `now` what `next` gives for its lane (the
    /// lane's next entry, crate::queue): from `soon` into `soon`, one sift instead of a pop and
    /// a push.
    #[inline]
    pub(crate) fn pop_then(
        &mut self,
        now: SimTime,
        next: impl FnOnce(u32) -> Option<Later<E>>,
    ) -> Option<Later<E>> {
        if self.far_first() {
            let first = self.pop_far()?;
            if let Some(n) = next(first.lane()) {
                self.push(n, now);
            }
            return Some(first);
        }
        let lane = self.soon.peek()?.lane();
        match next(lane) {
            None => self.soon.pop(),
            Some(n) if n.time().as_nanos() < now.as_nanos().saturating_add(self.far_after) => {
                Some(self.soon.replace_first(n))
            }
            Some(n) => {
                let first = self.soon.pop();
                self.push_far(n);
                first
            }
        }
    }

    /// Into `far`, out of line: the frames' path through `soon` stays small enough to inline.
    #[inline(never)]
    fn push_far(&mut self, entry: Later<E>) {
        self.far.push(entry);
    }

    /// From `far`, out of line (as [`LaterTier::push_far`]).
    #[inline(never)]
    fn pop_far(&mut self) -> Option<Later<E>> {
        self.far.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries pop by key across the heap and the calendar, whichever each went to.
    #[test]
    fn pops_by_key_across_both_heaps() {
        let mut t = LaterTier::new();
        t.far_after = 10;
        let now = SimTime(100);
        // (time, seq): far when time >= 110.
        for (time, seq) in [(120, 1), (105, 2), (110, 3), (109, 4), (120, 0), (300, 5)] {
            t.push(Later::new(SimTime(time), seq, seq), now);
        }
        assert_eq!((t.soon.len(), t.far.len()), (2, 4));
        let order: Vec<u64> = std::iter::from_fn(|| t.pop().map(|l| l.event)).collect();
        assert_eq!(order, [2, 4, 3, 0, 1, 5]);
        assert!(t.is_empty() && t.peek().is_none());
    }
}
