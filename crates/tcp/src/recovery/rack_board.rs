//! RACK's per-segment board (crate::recovery::rack): per MSS-aligned segment of
//! `[snd_una, snd_max)`, the time of its latest transmission, whether it was ever
//! retransmitted, whether it is SACKed, and how many of its transmissions are believed to be in
//! the network (0 once marked lost).
//!
//! Beside the slots it keeps what RACK asks on every ACK, so that no question walks the flight
//! (at 1 Gb/s and 50 ms a window holds thousands of segments; callgrind of the `gigabit`
//! preset: 95 % of the run in walks over the flight before these indexes):
//! - `holes`: the unSACKed slots, ascending, so that a SACK block that arrives again and again
//!   visits only the slots it newly covers;
//! - `flight`: the unSACKed slots with a transmission in the network, ordered by their latest
//!   transmission `(time, index)`. RFC 8985 §6.2 step 5 (RACK_detect_loss) asks of exactly
//!   these the ones sent before `RACK.xmit_ts`; their deadlines `xmit + RACK.rtt + reo_wnd`
//!   rise with the transmission time, so the expired ones are the front of that order and the
//!   reordering timer waits for the last one before RACK's (Linux walks its
//!   `tsorted_sent_queue` the same way, tcp_recovery.c `tcp_rack_detect_loss`), in a deque
//!   searched from its oldest end (crate::recovery::tsorted);
//! - `lost`: the unSACKed slots marked lost and not resent, ascending (the next
//!   retransmission is the lowest);
//! - counts of SACKed slots and of the copies in the network, from which the pipe and the
//!   SACKed bytes follow with the first and last slots' short lengths taken off.

use super::tsorted::TimeSorted;
use crate::recovery::scoreboard::less_short_ends;
use engine::SimTime;
use std::collections::{BTreeSet, VecDeque};

/// What RACK knows about one segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    /// When its latest transmission left.
    pub(super) xmit: SimTime,
    /// Ever retransmitted.
    pub(super) rexmitted: bool,
    pub(super) sacked: bool,
    /// Its transmissions believed in the network (0: lost, to be resent).
    pub(super) copies: u8,
}

/// The slots over `[snd_una, snd_max)` and the indexes above.
#[derive(Clone, Debug)]
pub(super) struct RackBoard {
    mss: u64,
    /// Slot `i` covers `[(first + i)·mss, (first + i + 1)·mss) ∩ [una, high)`.
    first: u64,
    una: u64,
    /// Highest offset sent, plus one.
    high: u64,
    slots: VecDeque<Slot>,
    /// Indices of the slots not SACKed, ascending.
    holes: VecDeque<u64>,
    /// `(xmit, index)` of the slots not SACKed with a copy in the network.
    flight: TimeSorted,
    /// Indices of the slots not SACKed and marked lost (no copy in the network).
    lost: BTreeSet<u64>,
    /// SACKed slots.
    sacked: u64,
    /// Copies in the network over the slots not SACKed.
    copies: u64,
}

impl RackBoard {
    pub(super) fn new(mss: u32) -> Self {
        RackBoard {
            mss: u64::from(mss.max(1)),
            first: 0,
            una: 0,
            high: 0,
            slots: VecDeque::new(),
            holes: VecDeque::new(),
            flight: TimeSorted::default(),
            lost: BTreeSet::new(),
            sacked: 0,
            copies: 0,
        }
    }

    pub(super) fn mss(&self) -> u64 {
        self.mss
    }

    /// Highest offset sent, plus one.
    pub(super) fn high(&self) -> u64 {
        self.high
    }

    /// Oldest unacknowledged offset.
    pub(super) fn una(&self) -> u64 {
        self.una
    }

    /// SACKed segments.
    pub(super) fn sacked_count(&self) -> u64 {
        self.sacked
    }

    pub(super) fn slot(&self, idx: u64) -> Option<&Slot> {
        let i = idx.checked_sub(self.first)?;
        self.slots.get(usize::try_from(i).ok()?)
    }

    /// `[start, end)` of slot `idx`, clipped to the outstanding data.
    pub(super) fn range(&self, idx: u64) -> (u64, u64) {
        (
            (idx * self.mss).max(self.una),
            ((idx + 1) * self.mss).min(self.high),
        )
    }

    /// Take slot `idx` (state `s`) out of the indexes and counts, before it changes.
    fn unindex(&mut self, idx: u64, s: Slot) {
        if s.sacked {
            self.sacked -= 1;
        } else {
            self.copies -= u64::from(s.copies);
            if s.copies > 0 {
                self.flight.remove((s.xmit, idx));
            } else {
                self.lost.remove(&idx);
            }
        }
    }

    /// Put slot `idx` (state `s`) into the indexes and counts, after it changed.
    fn index(&mut self, idx: u64, s: Slot) {
        if s.sacked {
            self.sacked += 1;
        } else {
            self.copies += u64::from(s.copies);
            if s.copies > 0 {
                self.flight.insert((s.xmit, idx));
            } else {
                self.lost.insert(idx);
            }
        }
    }

    /// Replace slot `idx`'s state by `f` of it.
    fn change(&mut self, idx: u64, f: impl FnOnce(&mut Slot)) {
        let i = (idx - self.first) as usize;
        let old = self.slots[i];
        let mut s = old;
        f(&mut s);
        self.unindex(idx, old);
        self.slots[i] = s;
        self.index(idx, s);
    }

    /// `[off, off + len)` left at `now` (RFC 8985 §6.1): new slots for new data, a new
    /// transmission time (and one more copy in the network, for a retransmission) for sent ones.
    pub(super) fn on_sent(&mut self, now: SimTime, off: u64, len: u32) {
        let end = off + u64::from(len);
        if self.slots.is_empty() {
            self.first = off / self.mss;
        }
        for idx in off / self.mss..end.div_ceil(self.mss) {
            let resent = (idx * self.mss).max(off) < self.high;
            if self.slot(idx).is_some() {
                self.change(idx, |s| {
                    if resent {
                        s.rexmitted = true;
                        s.copies = s.copies.saturating_add(1);
                    }
                    s.xmit = now;
                });
            } else if idx >= self.first {
                while self.first + (self.slots.len() as u64) <= idx {
                    let new = self.first + self.slots.len() as u64;
                    let s = Slot {
                        xmit: now,
                        rexmitted: false,
                        sacked: false,
                        copies: 1,
                    };
                    self.slots.push_back(s);
                    self.holes.push_back(new);
                    self.index(new, s);
                }
            }
        }
        self.high = self.high.max(end);
    }

    /// The cumulative ACK reached `ack`: drop the segments it covers, adding to `newly` each
    /// one not SACKed before, with its end.
    pub(super) fn on_cum_ack(&mut self, ack: u64, newly: &mut Vec<(Slot, u64)>) {
        let una = ack.max(self.una).min(self.high);
        while let Some(&s) = self.slots.front() {
            let (_, end) = self.range(self.first);
            if end > una {
                break;
            }
            if !s.sacked {
                newly.push((s, end));
            }
            self.unindex(self.first, s);
            if self.holes.front() == Some(&self.first) {
                self.holes.pop_front();
            }
            self.slots.pop_front();
            self.first += 1;
        }
        self.una = una;
    }

    /// Mark the segments the SACK block `[l, r)` covers entirely (RFC 2018 §3), adding to
    /// `newly` each one not SACKed before, with its end, in order.
    pub(super) fn on_sack_block(&mut self, l: u64, r: u64, newly: &mut Vec<(Slot, u64)>) {
        let lo = l.max(self.first * self.mss).div_ceil(self.mss);
        let r = r.min(self.high);
        let hi = if r == self.high {
            r.div_ceil(self.mss)
        } else {
            r / self.mss
        };
        let a = self.holes.partition_point(|&h| h < lo);
        let b = self.holes.partition_point(|&h| h < hi).max(a);
        for k in a..b {
            let idx = self.holes[k];
            self.change(idx, |s| s.sacked = true);
            let s = self.slots[(idx - self.first) as usize];
            newly.push((s, self.range(idx).1));
        }
        self.holes.drain(a..b);
    }

    /// RFC 8985 §6.2 step 5 over the segments in the network sent before RACK's
    /// `(rack_xmit, rack_end)` (RACK_sent_after): mark lost those whose
    /// `xmit + rtt + reo <= now`. Returns whether one was, and how long after `now` the last
    /// of the others expires (0: none left).
    pub(super) fn detect(
        &mut self,
        now: SimTime,
        (rack_xmit, rack_end): (SimTime, u64),
        rtt: u64,
        reo: u64,
    ) -> (bool, u64) {
        // At RACK's own time, the segments before it are those ending below `rack_end`: ends
        // rise with the index, so they are the indices below the first whose end reaches it.
        let bound = if rack_end > self.high {
            u64::MAX
        } else {
            rack_end.div_ceil(self.mss).saturating_sub(1)
        };
        let limit = (rack_xmit, bound);
        let mut lost = false;
        while let Some((t, idx)) = self.flight.first_below(limit) {
            if t.as_nanos() + rtt + reo > now.as_nanos() {
                break;
            }
            self.change(idx, |s| s.copies = 0);
            lost = true;
        }
        let wait = self
            .flight
            .last_below(limit)
            .map_or(0, |(t, _)| t.as_nanos() + rtt + reo - now.as_nanos());
        (lost, wait)
    }

    /// A retransmission timeout: every segment not SACKed is lost.
    pub(super) fn lose_unsacked(&mut self) {
        for &idx in &self.holes {
            self.slots[(idx - self.first) as usize].copies = 0;
        }
        self.flight.clear();
        self.lost = self.holes.iter().copied().collect();
        self.copies = 0;
    }

    /// The start of the lowest segment marked lost and not resent.
    pub(super) fn lowest_lost(&self) -> Option<u64> {
        self.lost.first().map(|&idx| self.range(idx).0)
    }

    /// Bytes of the slots `pick` selects, each counted `weight` times: `full` whole segments'
    /// worth, less what the first and the last slot lack of a whole segment.
    fn short_ends(&self, full: u64, pick: impl Fn(&Slot) -> u64) -> u64 {
        let n = self.slots.len() as u64;
        less_short_ends(
            full,
            self.mss,
            (self.una, self.high),
            (self.first, n),
            |idx| self.slot(idx).map_or(0, &pick),
        )
    }

    /// The transmissions in the network of the segments not SACKed, in bytes (RFC 6675
    /// SetPipe with RACK's loss marks).
    pub(super) fn pipe(&self) -> u64 {
        self.short_ends(
            self.copies,
            |s| {
                if s.sacked {
                    0
                } else {
                    u64::from(s.copies)
                }
            },
        )
    }

    /// SACKed bytes.
    pub(super) fn sacked_bytes(&self) -> u64 {
        self.short_ends(self.sacked, |s| u64::from(s.sacked))
    }
}

#[cfg(test)]
#[path = "rack_board_tests.rs"]
mod tests;
