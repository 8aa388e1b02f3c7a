//! A partition point searched outwards from a guess: the per-segment records of a sender
//! (crate::sender::rate) cover the stream contiguously, segment after segment, so where an
//! offset or a record number lies is known to within a few places by interpolation, and a
//! search that starts there and gallops (steps of 1, 2, 4, ...) costs the logarithm of how far
//! the guess was off. A binary search over the whole deque cost the logarithm of the flight,
//! each probe a cache miss at a window of thousands of segments (perf of `gigabit-bbr`: 6 % of
//! the run in the delivery-rate sampler's searches for SACK blocks; docs/performance.md,
//! twentieth session).

use std::collections::VecDeque;

/// What `v.partition_point(pred)` returns (`pred` true on a prefix of `v`, false after),
/// searched from position `guess` (any value; beyond the end is the end).
pub(crate) fn partition_point_from<T>(
    v: &VecDeque<T>,
    guess: usize,
    pred: impl Fn(&T) -> bool,
) -> usize {
    let n = v.len();
    let g = guess.min(n);
    // Every position before `lo` holds a true, every one from `hi` on a false.
    let (mut lo, mut hi);
    if g < n && pred(&v[g]) {
        // The point is after the guess: gallop up.
        lo = g + 1;
        hi = n;
        let mut step = 1;
        while lo + step - 1 < n {
            let probe = lo + step - 1;
            if !pred(&v[probe]) {
                hi = probe;
                break;
            }
            lo = probe + 1;
            step *= 2;
        }
    } else {
        // At or before the guess: gallop down.
        hi = g;
        lo = 0;
        let mut step = 1;
        while hi > 0 {
            let probe = hi.saturating_sub(step);
            if pred(&v[probe]) {
                lo = probe + 1;
                break;
            }
            hi = probe;
            step *= 2;
        }
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(&v[mid]) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Where `x` falls in `[first, last]` scaled to `n` places: the interpolation guess for a deque
/// of `n` entries spread evenly from `first` to `last` (0 when `x` is below, `n` above).
pub(crate) fn interpolate(x: u64, (first, last): (u64, u64), n: usize) -> usize {
    if x <= first || last <= first {
        return 0;
    }
    if x > last {
        return n;
    }
    let at = u128::from(x - first) * n as u128 / u128::from(last - first);
    usize::try_from(at).unwrap_or(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_the_point_from_either_side_of_the_guess() {
        let v: VecDeque<u64> = (0..100).map(|i| i * 10).collect();
        for guess in [0, 1, 37, 50, 99, 100, 1000] {
            assert_eq!(partition_point_from(&v, guess, |&x| x < 505), 51);
            assert_eq!(partition_point_from(&v, guess, |&x| x < 1), 1);
            assert_eq!(partition_point_from(&v, guess, |_| false), 0);
            assert_eq!(partition_point_from(&v, guess, |&x| x < 5000), 100);
        }
        let empty: VecDeque<u64> = VecDeque::new();
        assert_eq!(partition_point_from(&empty, 3, |&x| x < 1), 0);
        assert_eq!(interpolate(505, (0, 990), 100), 51);
        assert_eq!(interpolate(0, (0, 990), 100), 0);
        assert_eq!(interpolate(2000, (0, 990), 100), 100);
    }

    proptest! {
        /// The same point as `partition_point`, whatever the guess.
        #[test]
        fn is_partition_point(mut v in proptest::collection::vec(0u64..200, 0..80), x in 0u64..220, guess in 0usize..100) {
            v.sort_unstable();
            let d: VecDeque<u64> = v.iter().copied().collect();
            prop_assert_eq!(partition_point_from(&d, guess, |&e| e < x), d.partition_point(|&e| e < x));
            prop_assert_eq!(partition_point_from(&d, guess, |&e| e <= x), d.partition_point(|&e| e <= x));
        }
    }
}
