//! A first-in first-out ring of small `Copy` items: a port's queue (crate::port).
//!
//! `std::collections::VecDeque` does the same, but its `push_back` and `pop_front` are left to
//! the inliner, which outlined them from the event loop once the queue disciplines and the
//! jitter had grown the port's paths (callgrind, the reference run: about 7 M instructions in
//! the two calls and their frames). These are always inlined, and do less: the capacity is a
//! power of two, so a position is a mask, not a comparison and a subtraction.

/// A ring buffer: `len` items from `head`, wrapping at the end of `buf`, whose length is zero
/// or a power of two (filled with copies of a pushed item where nothing waits: no `Default`
/// and no uninitialised memory).
#[derive(Clone, Debug)]
pub(crate) struct Fifo<T> {
    buf: Vec<T>,
    head: usize,
    len: usize,
    /// The room the first push makes.
    first: usize,
}

impl<T: Copy> Default for Fifo<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> Fifo<T> {
    /// An empty ring (no allocation until the first push).
    pub(crate) fn new() -> Self {
        Fifo {
            buf: Vec::new(),
            head: 0,
            len: 0,
            first: 4,
        }
    }

    /// An empty ring with room for `n` items before it grows (made at the first push).
    pub(crate) fn with_capacity(n: usize) -> Self {
        Fifo {
            first: n.max(4).next_power_of_two(),
            ..Self::new()
        }
    }

    /// Items waiting.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The position of the `i`-th item from the head (`buf` is not empty).
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        (self.head + i) & (self.buf.len() - 1)
    }

    /// Add `x` at the tail.
    #[inline(always)]
    pub(crate) fn push_back(&mut self, x: T) {
        if self.len == self.buf.len() {
            self.grow(x);
        }
        let at = self.at(self.len);
        self.buf[at] = x;
        self.len += 1;
    }

    /// Add `x` at the head.
    pub(crate) fn push_front(&mut self, x: T) {
        if self.len == self.buf.len() {
            self.grow(x);
        }
        self.head = (self.head + self.buf.len() - 1) & (self.buf.len() - 1);
        self.buf[self.head] = x;
        self.len += 1;
    }

    /// Remove the item at the head.
    #[inline(always)]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let x = self.buf[self.head];
        self.head = (self.head + 1) & (self.buf.len() - 1);
        self.len -= 1;
        Some(x)
    }

    /// The item at the head.
    #[inline(always)]
    pub(crate) fn front(&self) -> Option<&T> {
        (self.len > 0).then(|| &self.buf[self.head])
    }

    /// The items from head to tail.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).map(move |i| &self.buf[self.at(i)])
    }

    /// Double the room (out of line: a port's ring reaches its size early in a run), the items
    /// moved to the front in order, the free places filled with `fill`.
    #[inline(never)]
    fn grow(&mut self, fill: T) {
        let cap = (self.buf.len() * 2).max(self.first);
        let mut buf = Vec::with_capacity(cap);
        buf.extend(self.iter().copied());
        buf.resize(cap, fill);
        self.buf = buf;
        self.head = 0;
    }
}

impl<T: Copy> FromIterator<T> for Fifo<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut f = Fifo::new();
        for x in iter {
            f.push_back(x);
        }
        f
    }
}

impl<T: Copy, const N: usize> From<[T; N]> for Fifo<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Random pushes at both ends and pops against `VecDeque`.
    #[test]
    fn behaves_as_a_vecdeque() {
        let mut f: Fifo<u32> = Fifo::with_capacity(3);
        let mut d = VecDeque::new();
        let mut x = 12345u32;
        for i in 0..10_000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            match x % 7 {
                0..=2 => {
                    f.push_back(i);
                    d.push_back(i);
                }
                3 => {
                    f.push_front(i);
                    d.push_front(i);
                }
                _ => assert_eq!(f.pop_front(), d.pop_front()),
            }
            assert_eq!(f.len(), d.len());
            if i % 97 == 0 {
                assert!(f.iter().eq(d.iter()));
            }
        }
        let e: Fifo<u8> = Fifo::new();
        assert!(e.len() == 0 && e.iter().next().is_none());
        assert_eq!(
            Fifo::from([1, 2, 3]).iter().copied().collect::<Vec<_>>(),
            [1, 2, 3]
        );
    }
}
