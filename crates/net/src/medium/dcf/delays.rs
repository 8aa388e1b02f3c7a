//! A member's access delays for their percentiles (crate::medium::dcf's `DcfStats::delays_ns`),
//! exact in memory that does not grow with the frames sent.
//!
//! Every delay was kept before (8 bytes per MAC frame: 37 MB after 2000 s of an 11 Mb/s cell,
//! docs/performance.md). A delay is a whole number of nanoseconds made of the cell's few
//! intervals (DIFS, slots, SIFS, the airtimes of a few frame sizes), so the same values come
//! back: the multiset is kept as sorted `(value, count)` pairs, the delays of the latest frames
//! gathered in a buffer and merged in once it is as long as the pairs (at least
//! [`FRESH_MIN`]): memory about twice the distinct values, and each delay costs its share of a
//! sort and a merge, O(log n) amortised. Nothing is approximated: the nearest-rank percentile
//! is the one a sorted vector of every delay gives.

/// The shortest buffer that is merged into the pairs.
const FRESH_MIN: usize = 4096;

/// A multiset of access delays (nanoseconds).
#[derive(Clone, Debug, Default)]
pub struct Delays {
    /// Distinct values with their counts, in increasing order of value.
    counts: Vec<(u64, u64)>,
    /// Delays not yet merged into `counts`, in arrival order.
    fresh: Vec<u64>,
    /// Delays in all.
    len: u64,
    /// Their sum (u64 nanoseconds: 584 years of delay).
    sum: u64,
}

impl Delays {
    /// Count one delay.
    #[inline]
    pub fn push(&mut self, d: u64) {
        self.fresh.push(d);
        self.len += 1;
        self.sum += d;
        if self.fresh.len() >= FRESH_MIN.max(self.counts.len()) {
            self.merge();
        }
    }

    /// Delays counted.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether none was counted.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sum of the delays.
    pub fn sum(&self) -> u64 {
        self.sum
    }

    /// The distinct delays with their counts, in increasing order.
    pub fn histogram(&self) -> Vec<(u64, u64)> {
        let mut all = self.clone();
        all.merge();
        all.counts
    }

    /// The delay of nearest rank `rank` (1 = the shortest): the smallest with at least `rank`
    /// delays at or below it; `None` when `rank` is 0 or above [`Delays::len`].
    pub fn at_rank(&self, rank: u64) -> Option<u64> {
        if rank == 0 {
            return None;
        }
        let mut seen = 0;
        for (value, count) in self.histogram() {
            seen += count;
            if seen >= rank {
                return Some(value);
            }
        }
        None
    }

    /// Fold `fresh` into `counts`.
    fn merge(&mut self) {
        if self.fresh.is_empty() {
            return;
        }
        self.fresh.sort_unstable();
        let mut merged = Vec::with_capacity(self.counts.len() + self.fresh.len());
        let mut old = self.counts.iter().copied().peekable();
        let mut new = self.fresh.iter().copied().peekable();
        loop {
            let next = match (old.peek(), new.peek()) {
                (Some(&(v, c)), Some(&d)) if v <= d => {
                    old.next();
                    (v, c)
                }
                (_, Some(&d)) => {
                    new.next();
                    (d, 1)
                }
                (Some(&e), None) => {
                    old.next();
                    e
                }
                (None, None) => break,
            };
            match merged.last_mut() {
                Some((v, c)) if *v == next.0 => *c += next.1,
                _ => merged.push(next),
            }
        }
        self.counts = merged;
        self.fresh.clear();
    }

    /// Entries held (pairs and buffered delays): what the memory grows with.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.counts.len() + self.fresh.len()
    }
}

/// Equal when the same delays were counted, however much of each is merged.
impl PartialEq for Delays {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.sum == other.sum && self.histogram() == other.histogram()
    }
}

impl Eq for Delays {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// Every rank, the count and the sum are those of a sorted vector of every delay,
        /// across merges (values from a few, so that they repeat, to many).
        #[test]
        fn ranks_are_a_sorted_vectors(
            all in prop::collection::vec(
                prop_oneof![0u64..8, 0u64..100_000, any::<u32>().prop_map(u64::from)],
                0..10_000,
            ),
        ) {
            let mut d = Delays::default();
            for &x in &all {
                d.push(x);
            }
            prop_assert_eq!(d.len(), all.len() as u64);
            prop_assert_eq!(d.sum(), all.iter().sum::<u64>());
            let mut sorted = all.clone();
            sorted.sort_unstable();
            let n = all.len() as u64;
            for rank in [0, 1, n / 20, n / 2, (n * 19).div_ceil(20), n, n + 1] {
                let want = (rank >= 1).then(|| sorted.get(rank as usize - 1).copied()).flatten();
                prop_assert_eq!(d.at_rank(rank), want, "rank {}", rank);
            }
        }
    }

    /// A cell's delays are a few distinct values: a million frames hold a few thousand
    /// entries, where the vector held a million.
    #[test]
    fn memory_follows_the_distinct_values() {
        let mut d = Delays::default();
        // DIFS 50 µs + k slots of 20 µs + one of three airtimes, k < 32.
        for i in 0..1_000_000u64 {
            let airtime = [1_304_000, 304_000, 1_100_000][(i % 3) as usize];
            d.push(50_000 + 20_000 * (i * 7 % 32) + airtime);
        }
        assert_eq!(d.len(), 1_000_000);
        assert_eq!(d.histogram().len(), 96);
        assert!(d.held() <= FRESH_MIN + 96, "{} entries held", d.held());
    }

    /// Equality is of the delays counted, not of how much is merged.
    #[test]
    fn equal_when_the_same_delays_were_counted() {
        let (mut a, mut b) = (Delays::default(), Delays::default());
        for x in 0..FRESH_MIN as u64 + 10 {
            a.push(x % 7);
        }
        for x in (0..FRESH_MIN as u64 + 10).rev() {
            b.push(x % 7);
        }
        // The same delays, the last ten buffered in another order.
        assert_eq!(a, b);
        b.push(3);
        assert_ne!(a, b);
    }
}
