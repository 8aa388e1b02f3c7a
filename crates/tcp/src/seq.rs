//! TCP sequence numbers: 32-bit, compared modulo 2^32 (RFC 9293 §3.4).
//!
//! `a < b` means "b is ahead of a by less than 2^31". Endpoints keep absolute byte offsets for
//! bookkeeping and convert at the wire, so a transfer larger than 4 GiB wraps correctly.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A sequence number on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct SeqNum(pub u32);

impl SeqNum {
    /// `self + n` modulo 2^32.
    pub fn plus(self, n: u32) -> SeqNum {
        SeqNum(self.0.wrapping_add(n))
    }
    /// The signed distance from `other` to `self` (positive when `self` is ahead).
    pub fn diff(self, other: SeqNum) -> i32 {
        self.0.wrapping_sub(other.0) as i32
    }
    /// `self < other` in sequence space.
    pub fn lt(self, other: SeqNum) -> bool {
        self.diff(other) < 0
    }
    /// `self <= other` in sequence space.
    pub fn le(self, other: SeqNum) -> bool {
        self.diff(other) <= 0
    }
    /// `self > other` in sequence space.
    pub fn gt(self, other: SeqNum) -> bool {
        self.diff(other) > 0
    }
    /// `self >= other` in sequence space.
    pub fn ge(self, other: SeqNum) -> bool {
        self.diff(other) >= 0
    }
}

impl fmt::Display for SeqNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Maps absolute stream offsets (bytes since the first data byte) to wire sequence numbers and
/// back, given the initial sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqSpace {
    /// Sequence number of the first data byte (ISN + 1 once the SYN is counted).
    pub base: SeqNum,
}

impl SeqSpace {
    /// The wire sequence number of stream offset `off`.
    pub fn seq(self, off: u64) -> SeqNum {
        self.base.plus(off as u32)
    }
    /// The stream offset of `seq`, taken as the offset nearest to `near` (any offset within
    /// 2^31 bytes of `near` is recovered exactly).
    pub fn offset(self, seq: SeqNum, near: u64) -> u64 {
        let d = i64::from(seq.diff(self.seq(near)));
        (near as i64 + d).max(0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn comparison_wraps() {
        let a = SeqNum(u32::MAX - 10);
        let b = a.plus(20);
        assert_eq!(b, SeqNum(9));
        assert!(a.lt(b) && b.gt(a) && a.le(a) && a.ge(a));
        assert_eq!(b.diff(a), 20);
    }

    proptest! {
        #[test]
        fn order_is_consistent(x in any::<u32>(), d in 1u32..(1u32 << 31)) {
            let a = SeqNum(x);
            let b = a.plus(d);
            prop_assert!(a.lt(b));
            prop_assert!(b.gt(a));
            prop_assert!(!b.lt(a));
            prop_assert_eq!(b.diff(a), d as i32);
            prop_assert_eq!(a.diff(b), -(d as i64) as i32);
        }

        #[test]
        fn offsets_round_trip(isn in any::<u32>(), off in 0u64..(1u64 << 40), back in 0u64..(1u64 << 30)) {
            let s = SeqSpace { base: SeqNum(isn) };
            let near = off.saturating_sub(back);
            prop_assert_eq!(s.offset(s.seq(off), near), off);
            prop_assert_eq!(s.offset(s.seq(off), off + back), off);
        }
    }
}
