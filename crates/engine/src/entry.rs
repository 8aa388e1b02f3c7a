//! An entry of the event queue's second tier (crate::later, crate::calendar, crate::heap): an
//! event with its 128-bit `(time, seq)` key and its lane.

use crate::time::SimTime;
use std::cmp::Ordering;

/// The lane of an event that has none (crate::queue's lanes).
pub const NO_LANE: u32 = u32::MAX;

/// An event of the second tier, ordered by `(time, seq)` *reversed*, so that the standard
/// library's max-heap pops the earliest. The pair is one 128-bit key (time in the high half):
/// one comparison per step of the heap's sifts instead of two.
pub(crate) struct Later<E> {
    pub(crate) key: u128,
    pub(crate) event: E,
    /// The lane it was queued in (crate::queue's `Lanes`), or `NO_LANE` (in the entry's
    /// padding).
    pub(crate) lane: u32,
}

impl<E> Later<E> {
    #[inline]
    pub(crate) fn new(time: SimTime, seq: u64, event: E) -> Self {
        Later {
            key: u128::from(time.as_nanos()) << 64 | u128::from(seq),
            event,
            lane: NO_LANE,
        }
    }

    #[inline]
    pub(crate) fn time(&self) -> SimTime {
        SimTime((self.key >> 64) as u64)
    }
}

impl<E> PartialEq for Later<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
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
        other.key.cmp(&self.key)
    }
}
