//! A binary min-heap of the second tier's entries (crate::later), by key: the `soon` heap.
//!
//! The standard library's heap is a max-heap over `Ord` and takes a pop as a sift to the bottom
//! and back up, which pays on deep heaps; `soon` holds a few lanes' heads and imminent events
//! (about seven on the 1000-flow dumbbell at 10 Gb/s), where a plain sift down stops after a
//! level or two. It also offers what a lane needs: [`MinHeap::replace_first`] takes the first
//! entry out and puts the lane's next in with one sift instead of a pop and a push.

use crate::entry::Later;

pub(crate) struct MinHeap<E> {
    data: Vec<Later<E>>,
}

impl<E> MinHeap<E> {
    pub(crate) fn new() -> Self {
        MinHeap { data: Vec::new() }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.data.len()
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The entry of the least key.
    #[inline]
    pub(crate) fn peek(&self) -> Option<&Later<E>> {
        self.data.first()
    }

    #[inline]
    pub(crate) fn push(&mut self, entry: Later<E>) {
        self.data.push(entry);
        let mut at = self.data.len() - 1;
        while at > 0 {
            let parent = (at - 1) / 2;
            if self.data[at].key() >= self.data[parent].key() {
                break;
            }
            self.data.swap(at, parent);
            at = parent;
        }
    }

    /// Remove the entry of the least key.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Later<E>> {
        let last = self.data.pop()?;
        if self.data.is_empty() {
            return Some(last);
        }
        let first = std::mem::replace(&mut self.data[0], last);
        self.sift_down(0);
        Some(first)
    }

    /// Remove the entry of the least key and add `entry` (the heap is not empty).
    #[inline]
    pub(crate) fn replace_first(&mut self, entry: Later<E>) -> Later<E> {
        let first = std::mem::replace(&mut self.data[0], entry);
        self.sift_down(0);
        first
    }

    /// Take the entries of `other` in exchange for this heap's (left in `other`, in no
    /// particular order), and put them in heap order: O(n).
    pub(crate) fn swap_in(&mut self, other: &mut Vec<Later<E>>) {
        std::mem::swap(&mut self.data, other);
        for at in (0..self.data.len() / 2).rev() {
            self.sift_down(at);
        }
    }

    /// The entry at `at` down to its place.
    #[inline]
    fn sift_down(&mut self, mut at: usize) {
        let data = self.data.as_mut_slice();
        let n = data.len();
        loop {
            let left = 2 * at + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && data[right].key() < data[left].key() {
                right
            } else {
                left
            };
            if data[child].key() >= data[at].key() {
                break;
            }
            data.swap(at, child);
            at = child;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;
    use proptest::prelude::*;

    proptest! {
        /// Pops, pushes and replacements give the keys in the order of a sorted list.
        #[test]
        fn pops_the_least_key(ops in proptest::collection::vec((0u8..3, 0u64..1000), 1..300)) {
            let mut h = MinHeap::new();
            let mut model: Vec<u128> = Vec::new();
            for (seq, (op, t)) in ops.into_iter().enumerate() {
                let e = Later::new(SimTime(t), seq as u64, ());
                let key = e.key();
                match op {
                    0 => {
                        let got = h.pop().map(|e| e.key());
                        model.sort_unstable();
                        let want = (!model.is_empty()).then(|| model.remove(0));
                        prop_assert_eq!(got, want);
                    }
                    1 if t % 7 == 0 => {
                        // A vector in exchange for the heap's entries.
                        let mut v: Vec<Later<()>> = (0..t % 13)
                            .map(|i| Later::new(SimTime(t + i * 17 % 5), 1 << 40 | i, ()))
                            .collect();
                        let keys: Vec<u128> = v.iter().map(|e| e.key()).collect();
                        h.swap_in(&mut v);
                        let mut old: Vec<u128> = v.iter().map(|e| e.key()).collect();
                        old.sort_unstable();
                        model.sort_unstable();
                        prop_assert_eq!(old, model.clone());
                        model = keys;
                    }
                    1 if !h.is_empty() => {
                        model.sort_unstable();
                        let want = model.remove(0);
                        prop_assert_eq!(h.replace_first(e).key(), want);
                        model.push(key);
                    }
                    _ => {
                        h.push(e);
                        model.push(key);
                    }
                }
                prop_assert_eq!(h.len(), model.len());
                prop_assert_eq!(h.peek().map(|e| e.key()), model.iter().min().copied());
            }
        }
    }
}
