//! An entry of the event queue's second tier (crate::later, crate::calendar, crate::heap): an
//! event with its 128-bit `(time, seq)` key and its lane.

use crate::time::SimTime;
use std::cmp::Ordering;

/// The lane of an event that has none (crate::queue's lanes).
pub const NO_LANE: u32 = u32::MAX;

/// An event of the second tier, ordered by `(time, seq)` *reversed*, so that the standard
/// library's max-heap pops the earliest. The pair compares as one 128-bit key (time in the
/// high half): one comparison per step of the heap's sifts instead of two. It is kept as two
/// 64-bit halves, so that the entry is aligned to 8 bytes, not to a `u128`'s 16: a 16-byte
/// event (net's, a 4-byte tag) then takes 40 bytes, not 48.
pub(crate) struct Later<E> {
    time: u64,
    seq: u64,
    pub(crate) event: E,
    /// The lane it was queued in (crate::queue's `Lanes`), or `NO_LANE`, widened to the
    /// entry's padding: a copy of the entry moves its last eight bytes as one load, which waits
    /// for the store before it to reach the cache unless that store wrote all eight (a four-byte
    /// lane was a fifth of `schedule_two_tiers`'s samples on the 1000-flow dumbbell at 10 Gb/s,
    /// `perf annotate`: docs/performance.md, twenty-first session).
    lane: u64,
}

impl<E> Later<E> {
    #[inline]
    pub(crate) fn new(time: SimTime, seq: u64, event: E) -> Self {
        Later {
            time: time.as_nanos(),
            seq,
            event,
            lane: u64::from(NO_LANE),
        }
    }

    /// The lane it was queued in, or `NO_LANE`.
    #[inline]
    pub(crate) fn lane(&self) -> u32 {
        self.lane as u32
    }

    /// Queue it in `lane`.
    #[inline]
    pub(crate) fn set_lane(&mut self, lane: u32) {
        self.lane = u64::from(lane);
    }

    /// `(time, seq)` as one number.
    #[inline]
    pub(crate) fn key(&self) -> u128 {
        u128::from(self.time) << 64 | u128::from(self.seq)
    }

    #[inline]
    pub(crate) fn time(&self) -> SimTime {
        SimTime(self.time)
    }
}

impl<E> PartialEq for Later<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl<E> Eq for Later<E> {}
impl<E> PartialOrd for Later<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Later<E> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key's halves compare as one number, time first; a 16-byte event of 4-byte
    /// alignment makes a 40-byte entry (a `u128` key field would align it to 16: 48 bytes).
    #[test]
    fn the_key_is_time_then_seq_and_the_entry_stays_forty_bytes() {
        let (a, b) = (Later::new(SimTime(5), 9, ()), Later::new(SimTime(6), 1, ()));
        assert!(
            a.key() < b.key() && a > b,
            "earlier time first, reversed for a max-heap"
        );
        assert_eq!(a.key(), 5u128 << 64 | 9);
        assert_eq!(a.time(), SimTime(5));
        assert_eq!(std::mem::size_of::<Later<[u32; 4]>>(), 40);
        // The lane, widened into the padding, reads back as set.
        let mut c = Later::new(SimTime(1), 1, [0u32; 4]);
        assert_eq!(c.lane(), NO_LANE);
        c.set_lane(7);
        assert_eq!(c.lane(), 7);
    }
}
