//! A set of a DCF cell's members (crate::medium::dcf), one bit each, visited in member order:
//! the cell keeps the members that count down, those whose counters are frozen and those that
//! wait before a retry in three of them, so that a wake-up visits only the members it concerns,
//! not every member of the cell, in the order the full scan visited them.

impl super::Dcf {
    /// The member sets grow with the members.
    pub(super) fn grow_sets(&mut self) {
        let n = self.members.len();
        self.counting.grow(n);
        self.frozen.grow(n);
        self.waiting.grow(n);
    }

    /// `port` belongs to `member` (`member_of`, by port index).
    pub(super) fn set_member(member_of: &mut Vec<u32>, port: engine::PortId, member: usize) {
        let i = port.index();
        if member_of.len() <= i {
            member_of.resize(i + 1, super::NO_MEMBER);
        }
        member_of[i] = member as u32;
    }
}

/// Members of a cell, by index, as bits of 64-bit words (a cell of any size).
#[derive(Clone, Debug, Default)]
pub(super) struct MemberSet {
    words: Vec<u64>,
}

impl MemberSet {
    /// Room for members `0..n` (a set only ever holds members the cell has).
    pub(super) fn grow(&mut self, n: usize) {
        let words = n.div_ceil(64);
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
    }

    /// Add member `i` (within the room made by `grow`).
    #[inline]
    pub(super) fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Whether member `i` is in the set.
    #[cfg(test)]
    pub(super) fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Number of words.
    #[inline]
    pub(super) fn words(&self) -> usize {
        self.words.len()
    }

    /// Word `w`: members `64 w ..`, bit `b` for member `64 w + b`.
    #[inline]
    pub(super) fn word(&self, w: usize) -> u64 {
        self.words[w]
    }

    /// Word `w`, emptied.
    #[inline]
    pub(super) fn take_word(&mut self, w: usize) -> u64 {
        std::mem::take(&mut self.words[w])
    }

    /// Add the members of `bits` to word `w`.
    #[inline]
    pub(super) fn add_word(&mut self, w: usize, bits: u64) {
        self.words[w] |= bits;
    }

    /// Remove the members of `bits` from word `w`.
    #[inline]
    pub(super) fn remove_word(&mut self, w: usize, bits: u64) {
        self.words[w] &= !bits;
    }

    /// The members, in increasing order.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(w, &bits)| Bits(bits).map(move |b| 64 * w + b))
    }
}

/// The set bits of a word, lowest first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bits(pub(super) u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[derive(Clone, Debug)]
    enum Op {
        Insert(usize),
        Take(usize),
        Add(usize, u64),
        Remove(usize, u64),
    }

    fn op(n: usize) -> impl Strategy<Value = Op> {
        let words = n.div_ceil(64);
        prop_oneof![
            4 => (0..n).prop_map(Op::Insert),
            1 => (0..words).prop_map(Op::Take),
            1 => (0..words, any::<u64>()).prop_map(|(w, b)| Op::Add(w, b)),
            2 => (0..words, any::<u64>()).prop_map(|(w, b)| Op::Remove(w, b)),
        ]
    }

    proptest! {
        /// The set against a BTreeSet: the same members, visited in increasing order, whatever
        /// the operations (members past `n` in the last word are masked off as the cell never
        /// has them).
        #[test]
        fn matches_an_ordered_set(
            (n, ops) in (1usize..200).prop_flat_map(|n| (Just(n), prop::collection::vec(op(n), 0..100)))
        ) {
            let mut s = MemberSet::default();
            s.grow(n);
            let mut model = BTreeSet::new();
            let mask = |w: usize, bits: u64| {
                (0..64)
                    .filter(move |b| bits & (1 << b) != 0)
                    .map(move |b| 64 * w + b)
                    .filter(move |&i| i < n)
            };
            for o in ops {
                match o {
                    Op::Insert(i) => {
                        s.insert(i);
                        model.insert(i);
                    }
                    Op::Take(w) => {
                        let bits = s.take_word(w);
                        let taken: BTreeSet<usize> = mask(w, bits).collect();
                        let expect: BTreeSet<usize> =
                            model.iter().copied().filter(|i| i / 64 == w).collect();
                        prop_assert_eq!(taken, expect);
                        model.retain(|i| i / 64 != w);
                    }
                    Op::Add(w, bits) => {
                        let bits = mask(w, bits).fold(0u64, |a, i| a | 1 << (i % 64));
                        s.add_word(w, bits);
                        model.extend(mask(w, bits));
                    }
                    Op::Remove(w, bits) => {
                        s.remove_word(w, bits);
                        for i in mask(w, bits) {
                            model.remove(&i);
                        }
                    }
                }
                let got: Vec<usize> = s.iter().collect();
                let want: Vec<usize> = model.iter().copied().collect();
                prop_assert_eq!(got, want);
                for i in 0..n {
                    prop_assert_eq!(s.contains(i), model.contains(&i));
                }
                prop_assert_eq!(s.words(), n.div_ceil(64));
                let by_words: Vec<usize> = (0..s.words())
                    .flat_map(|w| Bits(s.word(w)).map(move |b| 64 * w + b))
                    .collect();
                prop_assert_eq!(by_words, model.iter().copied().collect::<Vec<_>>());
            }
        }
    }
}
