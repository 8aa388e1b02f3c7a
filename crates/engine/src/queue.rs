//! The event queue: events ordered by `(time, insertion sequence)`.
//!
//! The sequence makes the order total: two events scheduled for the same instant pop in the
//! order they were pushed, on every run and every platform (DESIGN.md, house rule 3).
//!
//! Two tiers, so that the cost of a push or a pop is bounded whatever is pending:
//!
//! - `near`, at most `K` of the earliest events in a vector sorted latest first. A pop takes
//!   the last element; a push walks back from the end past the events due at or before it
//!   (one step of insertion sort, at most `K` places). On the papers' small paths every event
//!   lives here: a frame per busy channel, a few frames on each wire, a timer or two per
//!   endpoint, and a new event usually lands before the timers, after one or two frames.
//! - `later`, the rest keyed by `(time, seq)`, `seq` stored in each entry, in two binary heaps
//!   by how far ahead each was due when pushed (crate::later: timers apart from frames, so that
//!   a frame's pop does not sift through every connection's timer): O(log n) per pop, and O(1)
//!   on average for a push of an event due after most others (a frame put on a long wire),
//!   which is where a sorted vector walked past everything.
//!
//! The invariant: every event in `near` orders before every event in `later`. A push goes to
//! `later` when it is due at or after `later`'s first event, or when `near` is full and it is
//! due at or after `near`'s latest; otherwise into `near`, which, when over `K`, hands its
//! latest event to `later`. A pop takes `near`'s next event, first moving `later`'s first events
//! (up to `BATCH`, in order) into `near` when `near` is empty.
//!
//! The sequence numbers in `later` are not the pushes' own count but are chosen so that its
//! order is the pushes' order (the order a heap keyed by the true insertion count gives; the
//! proptests below compare the two):
//! - an event pushed straight into `later` was pushed after everything waiting, so it takes
//!   the next number of a counter rising from 2^63;
//! - an event spilled from `near` is `near`'s latest, so by the invariant it orders before
//!   everything in `later`, in particular before every event of its own time there; it takes
//!   the next number of a counter falling from 2^63 - 1, below every number handed out before.
//!
//! Events moved from `later` into the empty `near` drop their numbers: taken in key order,
//! their positions keep their order among themselves, and they order before everything left
//! in `later`, which is all their numbers said. So `near` needs no
//! stored sequence (its order is its positions), its entries stay as small as before, and the
//! small paths pay one comparison per push for the second tier (a pop looks at `near` once, as
//! it always did).
//!
//! Lanes ([`EventQueue::enable_lanes`]): an event pushed into `later` with the rising counter
//! whose lane already has an event there waits in the lane's FIFO instead of the heap, and
//! enters the heap when the one before it pops. Its key is above every key of its lane (the
//! lane's events come in order of time, and the rising counter rises), so the heap's first is
//! still `later`'s earliest and the order is the heap's; the heap holds one entry per lane
//! instead of one per event (a long, fast wire's frames in flight).
//!
//! The fingerprint: while it is on, every push goes to `later` and `near` holds at most the
//! event about to pop, so that every pop passes the out-of-line path, which hashes it.

use crate::entry::Later;
use crate::fingerprint::{EventKey, Fingerprint};
use crate::later::LaterTier;
use crate::time::SimTime;

struct Entry<E> {
    time: SimTime,
    event: E,
}

pub use crate::entry::NO_LANE;

/// The lane of an event ([`EventQueue::enable_lanes`]): [`NO_LANE`] for most kinds.
pub type LaneOf<E> = fn(&E) -> u32;

/// FIFO lanes of the second tier: the events of one lane (a wire's arrivals) are scheduled in
/// order of time, so of those pushed into `later` with the rising counter only the first
/// needs a place in the heap; the others wait behind it in their lane, in the order of their
/// keys, and the next takes its place when it pops. The heap then still holds the earliest
/// event of `later` (every waiting one is after its lane's first, which is in the heap), so
/// the order is the heap's own: a frame put on a long, fast wire no longer adds to the heap's
/// depth for every frame in flight, only one entry per wire.
struct Lanes<E> {
    of: LaneOf<E>,
    /// By lane: the entries behind the one in the heap, oldest first.
    waiting: Vec<std::collections::VecDeque<Later<E>>>,
    /// By lane: the key of its last entry while one is in the heap, or `None`.
    last: Vec<Option<u128>>,
    /// Entries waiting in all lanes.
    len: usize,
}

/// The first number of the rising counter (pushes into `later`); the falling counter (spills
/// from `near`) starts just below it.
const MIDDLE: u64 = 1 << 63;

/// How many events a pop moves from `later` into an empty `near` at most (and at most `K`).
/// Chosen by callgrind at 1, 8 and 32, moved from `soon` only or from both heaps: 32 from
/// both (docs/performance.md, tenth session).
const BATCH: usize = 32;

/// A priority queue of events of type `E` with a total, reproducible order; `K` is how many of
/// the earliest events are kept in the sorted vector (the module's first tier).
pub struct EventQueue<E, const K: usize = 32> {
    /// At most `K` events sorted by `(time, insertion sequence)`, *latest first*: the next event
    /// is the last element. The sequence is implicit: an event goes in front of (pops after)
    /// every event of the same time already waiting.
    near: Vec<Entry<E>>,
    /// The rest, each due at or after every event of `near` (after, on equal times).
    later: LaterTier<E>,
    /// `K` while `later` is empty, 0 otherwise: a push into `near` shorter than this needs no
    /// look at the second tier (one comparison on the small paths).
    near_limit: usize,
    /// The fingerprint is on: every push goes to `later` and `near` holds at most the event
    /// about to pop, so that every pop takes the out-of-line path
    /// ([`EventQueue::prepare_pop`]), which hashes the event.
    fingerprinting: bool,
    /// The lanes of the second tier, when enabled.
    lanes: Option<Box<Lanes<E>>>,
    /// The event-order fingerprint and the key it takes of each event, when enabled.
    fingerprint: Option<(Fingerprint, EventKey<E>)>,
    /// The next sequence number of an event pushed into `later` (rising from `MIDDLE`).
    rising: u64,
    /// The next sequence number of an event spilled from `near` (falling from `MIDDLE - 1`).
    falling: u64,
    now: SimTime,
    popped: u64,
}

impl<E, const K: usize> Default for EventQueue<E, K> {
    fn default() -> Self {
        Self::with_near_capacity()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue at time zero, the first tier 32 events long.
    pub fn new() -> Self {
        Self::with_near_capacity()
    }
}

impl<E, const K: usize> EventQueue<E, K> {
    /// An empty queue at time zero, the first tier `K` events long.
    pub fn with_near_capacity() -> Self {
        EventQueue {
            near: Vec::with_capacity(K + 1),
            later: LaterTier::new(),
            near_limit: K,
            fingerprinting: false,
            lanes: None,
            fingerprint: None,
            rising: MIDDLE,
            falling: MIDDLE - 1,
            now: SimTime::ZERO,
            popped: 0,
        }
    }

    /// The time of the event popped last (the simulation's "now").
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Number of events popped so far.
    pub fn events_processed(&self) -> u64 {
        self.popped
    }

    /// Number of events waiting.
    pub fn len(&self) -> usize {
        self.near.len() + self.later.len() + self.lanes.as_ref().map_or(0, |l| l.len)
    }

    /// Whether no event is waiting (a lane's events wait behind one in `later`).
    pub fn is_empty(&self) -> bool {
        self.near.is_empty() && self.later.is_empty()
    }

    /// Keep `lanes` lanes: `of` names the lane of an event (below `lanes`), or [`NO_LANE`].
    /// The events of a lane must be scheduled in order of time (an event due before the last
    /// one of its lane is queued outside the lanes, correct but without the gain).
    pub fn enable_lanes(&mut self, lanes: usize, of: LaneOf<E>) {
        self.lanes = Some(Box::new(Lanes {
            of,
            waiting: (0..lanes)
                .map(|_| std::collections::VecDeque::new())
                .collect(),
            last: vec![None; lanes],
            len: 0,
        }));
    }

    /// Push an entry numbered by the rising counter into `later`, or behind the entry of its
    /// lane that is there.
    #[inline]
    fn push_rising(&mut self, mut entry: Later<E>) {
        if let Some(l) = self.lanes.as_mut() {
            let lane = (l.of)(&entry.event);
            if let Some(last) = l.last.get_mut(lane as usize) {
                match *last {
                    Some(k) if entry.key() > k => {
                        *last = Some(entry.key());
                        entry.set_lane(lane);
                        l.waiting[lane as usize].push_back(entry);
                        l.len += 1;
                        return;
                    }
                    None => {
                        *last = Some(entry.key());
                        entry.set_lane(lane);
                    }
                    // Out of order: outside the lane.
                    Some(_) => {}
                }
            }
        }
        self.later.push(entry, self.now);
    }

    /// The first entry of `later`, out of the heap; its lane's next takes its place.
    #[inline]
    fn pop_later(&mut self) -> Option<Later<E>> {
        let Some(l) = self.lanes.as_mut() else {
            return self.later.pop();
        };
        self.later.pop_then(self.now, |lane| {
            if lane == NO_LANE {
                return None;
            }
            let i = lane as usize;
            let next = l.waiting[i].pop_front();
            match next {
                Some(_) => l.len -= 1,
                None => l.last[i] = None,
            }
            next
        })
    }

    /// Hash every event popped from now on into the event-order fingerprint (crate
    /// `fingerprint`), taking `key` of each.
    pub fn enable_fingerprint(&mut self, key: EventKey<E>) {
        self.fingerprint = Some((Fingerprint::new(), key));
        self.fingerprinting = true;
        self.near_limit = 0;
        // What waits in `near` moves to `later`, latest first, each below the one before
        // (the spill rule of the module's note), so that no event pops unhashed.
        while !self.near.is_empty() {
            let Entry { time, event } = self.near.remove(0);
            self.later
                .push(Later::new(time, self.falling, event), self.now);
            self.falling -= 1;
        }
    }

    /// The event-order fingerprint of the events popped since it was enabled (`None` if off).
    pub fn fingerprint(&self) -> Option<u64> {
        self.fingerprint.map(|(f, _)| f.value())
    }

    /// Schedule `event` at `time`. Scheduling in the past is a logic error; it is clamped to
    /// `now` in release builds so that the order stays total, and caught in debug builds.
    // Inlined: the small paths' push is the test of the second tier and the insertion, as
    // cheap as the vector alone was (callgrind, the reference run); the rest out of line.
    #[inline(always)]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        debug_assert!(
            time >= self.now,
            "event scheduled in the past: {time} < {}",
            self.now
        );
        let time = time.max(self.now);
        if self.near.len() >= self.near_limit {
            self.schedule_two_tiers(time, event);
        } else {
            self.insert_near(time, event);
        }
    }

    /// Put an event into `near`, in its place.
    #[inline(always)]
    fn insert_near(&mut self, time: SimTime, event: E) {
        // In at the back (the earliest end), then moved forward past the events due at or
        // before `time`: usually one or two frame events, the timers due later stay in front.
        // One step of insertion sort, fused with the search: for the few places it moves, a
        // swap each is cheaper than `Vec::insert`'s call to `memmove` (callgrind).
        // On a slice: its length in a register, and no bounds checks in the walk (callgrind).
        self.near.push(Entry { time, event });
        let near = self.near.as_mut_slice();
        let mut at = near.len() - 1;
        while at > 0 && near[at - 1].time <= time {
            near.swap(at - 1, at);
            at -= 1;
        }
    }

    /// Put an event into `near`, in its place, for the second tier's path: the place found
    /// first (loads only), then the events after it moved by one in one copy. The inline
    /// path's walk swaps as it searches, each step loading what the step before stored; on
    /// the large cases, whose insertions walk further (5.3 places in the 1000-flow dumbbell),
    /// that chain was a third of `schedule_two_tiers`'s time (docs/performance.md, eighteenth
    /// session). The reference run never comes here.
    #[inline(always)]
    fn insert_near_searched(&mut self, time: SimTime, event: E) {
        let near = self.near.as_slice();
        let mut at = near.len();
        while at > 0 && near[at - 1].time <= time {
            at -= 1;
        }
        self.near.insert(at, Entry { time, event });
    }

    /// [`EventQueue::schedule`] when `later` holds events or `near` is full: straight into
    /// `later` when due at or after its first event, or at or after `near`'s latest with `near`
    /// full; otherwise into `near`, which hands its latest to `later` when over `K`.
    #[inline(never)]
    fn schedule_two_tiers(&mut self, time: SimTime, event: E) {
        let to_later = self.fingerprinting
            || match self.later.peek() {
                Some(first) if time >= first.time() => true,
                _ => self.near.len() >= K && self.near.first().is_some_and(|l| time >= l.time),
            };
        if to_later {
            self.push_rising(Later::new(time, self.rising, event));
            self.rising += 1;
            self.near_limit = 0;
            return;
        }
        self.insert_near_searched(time, event);
        if self.near.len() > K {
            // `near`'s latest (its first element) to `later`, below every sequence number
            // handed out before (the module's note).
            let Entry { time, event } = self.near.remove(0);
            self.later
                .push(Later::new(time, self.falling, event), self.now);
            self.falling -= 1;
            self.near_limit = 0;
        }
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        match self.near.last() {
            Some(e) => Some(e.time),
            None => self.later.peek().map(Later::time),
        }
    }

    /// Remove and return the earliest event if it is due at or before `limit`, advancing `now`
    /// to its time; `None` if the queue is empty or its next event is later (tell them apart
    /// with [`EventQueue::is_empty`]). One look at the next event instead of a peek and a pop.
    #[inline]
    pub fn pop_not_after(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        // One look at `near` for the next event, the second tier and the fingerprint (which
        // keeps `near` empty between pops): the out-of-line path when it is empty.
        let time = match self.near.last() {
            Some(e) => e.time,
            None => {
                if !self.prepare_pop(limit) {
                    return None;
                }
                self.near.last()?.time
            }
        };
        if time > limit {
            return None;
        }
        let e = self.near.pop()?;
        self.now = e.time;
        self.popped += 1;
        Some((e.time, e.event))
    }

    /// Remove and return the earliest event, advancing `now` to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_not_after(SimTime(u64::MAX))
    }

    /// The pop's out-of-line part, when `near` is empty (always, while the fingerprint is on):
    /// move `later`'s first event into `near` (`false`: nothing waits). With the fingerprint,
    /// only an event that will pop (due at or before `limit`) moves, hashed; a later one stays
    /// in `later` (`false`). The pops stay one inline path that returns the event from `near`
    /// in registers; a call that returned it from `later` made every pop pass it through
    /// memory (callgrind).
    #[inline(never)]
    fn prepare_pop(&mut self, limit: SimTime) -> bool {
        let Some(first) = self.pop_later() else {
            return false;
        };
        let (time, event) = (first.time(), first.event);
        if let Some((fp, key)) = &mut self.fingerprint {
            if time > limit {
                // Back as the first of `later`: a number below every one handed out (the
                // spill rule of the module's note).
                self.later
                    .push(Later::new(time, self.falling, event), self.now);
                self.falling -= 1;
                return false;
            }
            let (kind, target) = key(&event);
            fp.add(time.as_nanos(), kind, target);
            self.near.push(Entry { time, event });
            return true;
        }
        self.near.push(Entry { time, event });
        // A batch: up to `BATCH` of `later`'s next events follow it into `near`, in key order
        // (so `near` is reversed once, latest first). `later`'s first is then further ahead
        // and the pushes due before it take `near`'s insertion instead of a heap's push and
        // pop: with many timers waiting (50 stations, 1000 connections) the heap path had
        // become most events' path (callgrind: docs/performance.md, tenth session).
        while self.near.len() < BATCH.min(K) && !self.later.is_empty() {
            let Some(next) = self.pop_later() else { break };
            self.near.push(Entry {
                time: next.time(),
                event: next.event,
            });
        }
        if self.near.len() > 1 {
            self.near.reverse();
        }
        if self.later.is_empty() {
            self.near_limit = K;
        }
        true
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
