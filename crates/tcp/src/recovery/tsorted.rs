//! RACK's segments in the network ordered by their latest transmission (crate::recovery::rack_board
//! `flight`): a sorted deque of `(xmit, index)` keys, as Linux keeps its `tsorted_sent_queue`
//! (tcp_output.c, `tcp_rack_detect_loss` in tcp_recovery.c walks it from the oldest).
//!
//! Why not an ordered tree: what RACK does to the order is almost all at its two ends. A
//! transmission leaves now, so its key is the latest (a push at the back; only a key sent at the
//! same instant with a higher index lies behind it). The cumulative ACK and the SACKs take the
//! oldest keys in the network: the cumulative ACK the oldest outright, a SACK block the segments
//! just after the holes, which are themselves the oldest, because every segment sent before the
//! SACKed one is SACKed (gone), a hole, or about to be. Losses are found from the front, and the
//! reordering timer waits for the last key before RACK's, a few places from the front. So every
//! search here starts at the front and gallops (steps of 1, 2, 4, ...), paying the logarithm of
//! how far in the key lies rather than of how many keys there are, and a removal moves the
//! shorter side (a burst of holes not yet found lost makes that up to the burst's length, for
//! about a reordering window). A `BTreeSet` paid a descent through its nodes, comparing keys,
//! on every send and every ACK: 7.7 % of the `gigabit` preset's instructions (callgrind, 2 s
//! simulated: 998 M against 921 M; docs/performance.md, twentieth session).

use crate::near_search::partition_point_from;
use engine::SimTime;
use std::collections::VecDeque;

/// The key of a segment's transmission: when it left, then its index.
pub(super) type Key = (SimTime, u64);

/// Keys in ascending order, each at most once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct TimeSorted {
    keys: VecDeque<Key>,
}

impl TimeSorted {
    /// The position of the first key at or above `key`, searched from the front
    /// (crate::near_search).
    fn first_at_or_above(&self, key: Key) -> usize {
        partition_point_from(&self.keys, 0, |&k| k < key)
    }

    /// Add `key` (not present).
    pub(super) fn insert(&mut self, key: Key) {
        // The common case, a transmission that is the latest: at the back.
        if self.keys.back().is_none_or(|&b| b < key) {
            self.keys.push_back(key);
            return;
        }
        // Behind keys sent at the same instant with higher indexes: walk back over them.
        let mut at = self.keys.len();
        while at > 0 && self.keys[at - 1] > key {
            at -= 1;
        }
        debug_assert!(at == 0 || self.keys[at - 1] != key, "a key is in once");
        self.keys.insert(at, key);
    }

    /// Remove `key` (present).
    pub(super) fn remove(&mut self, key: Key) {
        if self.keys.front() == Some(&key) {
            self.keys.pop_front();
            return;
        }
        let at = self.first_at_or_above(key);
        debug_assert_eq!(
            self.keys.get(at),
            Some(&key),
            "only a key that is in leaves"
        );
        if self.keys.get(at) == Some(&key) {
            self.keys.remove(at);
        }
    }

    /// The earliest key below `limit`.
    pub(super) fn first_below(&self, limit: Key) -> Option<Key> {
        self.keys.front().copied().filter(|&k| k < limit)
    }

    /// The latest key below `limit`.
    pub(super) fn last_below(&self, limit: Key) -> Option<Key> {
        let at = self.first_at_or_above(limit);
        at.checked_sub(1).map(|i| self.keys[i])
    }

    pub(super) fn clear(&mut self) {
        self.keys.clear();
    }

    /// The keys, in order.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = &Key> {
        self.keys.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn k(t: u64, i: u64) -> Key {
        (SimTime(t), i)
    }

    /// Sends at the back, an earlier index at the same instant behind the later ones, removals
    /// at the front and inside, and the searches below a limit.
    #[test]
    fn keeps_keys_in_order_from_both_ends() {
        let mut s = TimeSorted::default();
        for key in [k(1, 0), k(1, 1), k(2, 2), k(3, 3), k(3, 5), k(3, 4)] {
            s.insert(key);
        }
        let order: Vec<Key> = s.iter().copied().collect();
        assert_eq!(
            order,
            [k(1, 0), k(1, 1), k(2, 2), k(3, 3), k(3, 4), k(3, 5)]
        );
        assert_eq!(s.first_below(k(1, 0)), None);
        assert_eq!(s.first_below(k(1, 1)), Some(k(1, 0)));
        assert_eq!(s.last_below(k(3, 4)), Some(k(3, 3)));
        assert_eq!(s.last_below(k(9, 0)), Some(k(3, 5)));
        assert_eq!(s.last_below(k(0, 9)), None);
        s.remove(k(1, 0));
        s.remove(k(3, 4));
        s.remove(k(2, 2));
        let order: Vec<Key> = s.iter().copied().collect();
        assert_eq!(order, [k(1, 1), k(3, 3), k(3, 5)]);
        s.clear();
        assert_eq!(s.first_below(k(9, 9)), None);
    }

    proptest! {
        /// Against a `BTreeSet`: inserts at a time that never goes back (as transmissions),
        /// removals of keys present, and both searches below random limits.
        #[test]
        fn answers_as_an_ordered_set(ops in proptest::collection::vec((0u8..4, 0u64..64, 0u64..8), 1..300)) {
            let mut s = TimeSorted::default();
            let mut b: BTreeSet<Key> = BTreeSet::new();
            let mut now = 0u64;
            for (op, x, dt) in ops {
                match op {
                    0 | 1 => {
                        now += dt / 4;
                        let key = k(now, x);
                        if b.insert(key) {
                            s.insert(key);
                        }
                    }
                    2 => {
                        if let Some(&key) = b.iter().nth((x as usize) % b.len().max(1)) {
                            b.remove(&key);
                            s.remove(key);
                        }
                    }
                    _ => {
                        let limit = k(x * now / 64, dt * 8);
                        prop_assert_eq!(s.first_below(limit), b.range(..limit).next().copied());
                        prop_assert_eq!(s.last_below(limit), b.range(..limit).next_back().copied());
                    }
                }
                prop_assert_eq!(s.iter().copied().collect::<Vec<_>>(), b.iter().copied().collect::<Vec<_>>());
            }
        }
    }
}
