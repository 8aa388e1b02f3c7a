//! A per-segment scoreboard over `[snd_una, snd_max)`, shared by every selective-acknowledgment
//! scheme (Balakrishnan97 §6.3: "the SACK-family machinery should be one reusable module").
//!
//! The board knows offsets, a segment size and times only, never a sender: the end-to-end SACK
//! and SMART senders use it, and a base-station agent can keep one for the packets it caches.
//! It is updated from three sources of information:
//! - the cumulative ACK (everything below it leaves the board);
//! - RFC 2018 SACK blocks `[left, right)` (a segment is selectively acknowledged once a block
//!   covers all of it, RFC 2018 §3);
//! - a SMART trigger (Keshav & Morgan; Balakrishnan97 §2.4): the start of the one segment whose
//!   arrival generated the ACK.
//!
//! Segments are MSS-sized slots aligned on multiples of the MSS (the sender cuts its stream that
//! way; only the last slot below `snd_max` may be short). If a sender ever sends a short segment
//! in the middle (a window-limited retransmission), the slot still tracks the aligned range: it
//! counts as selectively acknowledged only when all of its bytes are, and as retransmitted when
//! any of them was resent. Each slot carries a SACKed flag and the time of its last
//! retransmission.

use engine::SimTime;
use std::cell::Cell;
use std::collections::VecDeque;

// The questions RFC 6675 asks of the board (IsLost, SetPipe, the SACKed bytes above a segment),
// in their own file for size; a child module, so they read the board's fields directly.
#[path = "scoreboard_sacked.rs"]
mod sacked;

/// What the board holds about one segment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    sacked: bool,
    rexmit_at: Option<SimTime>,
}

/// One outstanding segment as the board sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentState {
    /// First outstanding byte of the segment (`snd_una` for a partly acknowledged one).
    pub off: u64,
    /// Outstanding bytes.
    pub len: u32,
    /// Selectively acknowledged.
    pub sacked: bool,
    /// When it was last retransmitted, if it was.
    pub rexmit_at: Option<SimTime>,
}

/// `count` whole segments of `mss` bytes, less what the first and the last of a board's slots
/// (`first` and `n` of them) lack of a whole segment, `weight(idx)` times each: a board's slots
/// are whole segments but for those two, clipped to the outstanding `[una, high)`. Shared by
/// this board and RACK's (crate::recovery::rack_board).
pub(crate) fn less_short_ends(
    count: u64,
    mss: u64,
    (una, high): (u64, u64),
    (first, n): (u64, u64),
    weight: impl Fn(u64) -> u64,
) -> u64 {
    let mut bytes = count * mss;
    if n == 0 {
        return bytes;
    }
    let ends = [first, first + n - 1];
    for &idx in &ends[..if n == 1 { 1 } else { 2 }] {
        let (start, end) = ((idx * mss).max(una), ((idx + 1) * mss).min(high));
        bytes -= weight(idx) * (mss - end.saturating_sub(start));
    }
    bytes
}

/// Per-segment state over `[snd_una, snd_max)`.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    mss: u64,
    /// Oldest unacknowledged offset.
    una: u64,
    /// Highest offset known to be sent, plus one.
    high: u64,
    /// Slot `i` covers `[(first + i)·mss, (first + i + 1)·mss) ∩ [una, high)`.
    first: u64,
    slots: VecDeque<Slot>,
    /// Changes with every change to the board except new data sent from a segment boundary
    /// (fresh slots on top, below nothing SACKed): what a cached walk over the board keys on
    /// ([`Scoreboard::version`]).
    version: u64,
    /// Slots SACKed and slots retransmitted: with both zero the board is plain, and a sum or
    /// a search over it has its answer without a walk ([`Scoreboard::is_plain`]).
    sacked_slots: usize,
    resent_slots: usize,
    /// The indices of the slots not SACKed, ascending: the holes a sender looks for, found
    /// without walking the SACKed runs between them (a receiver that lacks one early segment
    /// while an unbounded window keeps arriving leaves thousands of SACKed slots above it).
    holes: VecDeque<u64>,
    /// Slots not SACKed and retransmitted (what SetPipe counts twice).
    resent_holes: usize,
    /// Every hole below this slot index has been retransmitted: where
    /// [`Scoreboard::lowest_unresent`] resumes. Marks are only ever cleared all at once
    /// ([`Scoreboard::clear`], [`Scoreboard::clear_retransmitted`], which reset it), and new
    /// holes come at the top.
    unresent_from: Cell<u64>,
}

impl Scoreboard {
    /// An empty board for segments of `mss` bytes.
    pub fn new(mss: u32) -> Self {
        Scoreboard {
            mss: u64::from(mss.max(1)),
            una: 0,
            high: 0,
            first: 0,
            slots: VecDeque::new(),
            version: 0,
            sacked_slots: 0,
            resent_slots: 0,
            holes: VecDeque::new(),
            resent_holes: 0,
            unresent_from: Cell::new(0),
        }
    }

    /// The segment size.
    pub fn mss(&self) -> u32 {
        self.mss as u32
    }

    /// Oldest unacknowledged offset the board knows.
    pub fn snd_una(&self) -> u64 {
        self.una
    }

    /// Highest sent offset (plus one) the board knows.
    pub fn snd_max(&self) -> u64 {
        self.high
    }

    /// No slot is SACKed or retransmitted (kept by counts, no walk): every segment is then in
    /// the network as far as RFC 6675 can tell (nothing SACKed above it). `false` does not
    /// promise a marked segment: a slot that a cumulative ACK emptied without passing its end
    /// keeps its marks until it leaves.
    pub fn is_plain(&self) -> bool {
        self.sacked_slots == 0 && self.resent_slots == 0
    }

    /// The board's version: the same as long as nothing changed but new data sent from a
    /// segment boundary. Such data adds fresh segments on top (not SACKed, not retransmitted,
    /// nothing SACKed above them) and leaves every other segment's state and
    /// [`Scoreboard::sacked_above`] as they were, so a sum over the board cached at one
    /// version grows by exactly the bytes added.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Bring the board to `[snd_una, snd_max)`: drop fully acknowledged segments (the cumulative
    /// ACK), add newly sent ones. Offsets never move backwards.
    pub fn update(&mut self, snd_una: u64, snd_max: u64) {
        let (una, high) = (self.una, self.high);
        self.high = self.high.max(snd_max);
        self.una = self.una.max(snd_una).min(self.high);
        let first = self.una / self.mss;
        while self.first < first {
            if let Some(s) = self.slots.pop_front() {
                self.sacked_slots -= usize::from(s.sacked);
                self.resent_slots -= usize::from(s.rexmit_at.is_some());
                self.resent_holes -= usize::from(!s.sacked && s.rexmit_at.is_some());
            }
            self.first += 1;
        }
        while self.holes.front().is_some_and(|&h| h < self.first) {
            self.holes.pop_front();
        }
        if self.slots.is_empty() {
            self.first = first;
        }
        if self.high > high && high % self.mss != 0 {
            // The short top slot grows over bytes just sent: a SACK block that reached the old
            // `high` covered it then (`covered`), but its new bytes are not selectively
            // acknowledged, so it is a hole again (else a sender that skips SACKed data going
            // back never resends them, and its timer backs off with nothing to send).
            self.unsack(high / self.mss);
        }
        let end = self.high.div_ceil(self.mss);
        while self.first + (self.slots.len() as u64) < end {
            self.holes.push_back(self.first + self.slots.len() as u64);
            self.slots.push_back(Slot::default());
        }
        // Growing from a boundary only adds fresh slots; a short top segment that grows may
        // carry a SACK or a retransmission mark over its new bytes.
        if self.una != una || (self.high != high && high % self.mss != 0) {
            self.version += 1;
        }
    }

    /// Slot `idx`, the highest on the board, no longer SACKed: back among the holes (above
    /// every other hole, as it is the top slot).
    fn unsack(&mut self, idx: u64) {
        let Some(s) = self.slot_mut(idx) else {
            return;
        };
        if !s.sacked {
            return;
        }
        s.sacked = false;
        let resent = s.rexmit_at.is_some();
        self.sacked_slots -= 1;
        self.resent_holes += usize::from(resent);
        debug_assert!(self.holes.back().is_none_or(|&h| h < idx));
        self.holes.push_back(idx);
        if !resent {
            // Where `lowest_unresent` resumes may have passed it while it was SACKed.
            self.unresent_from.set(self.unresent_from.get().min(idx));
        }
        self.version += 1;
    }

    /// The cumulative acknowledgment advanced to `ack`.
    pub fn on_cum_ack(&mut self, ack: u64) {
        let high = self.high.max(ack);
        self.update(ack, high);
    }

    /// Slot index range fully inside `[left, right)`, clipped to the outstanding data.
    fn covered(&self, left: u64, right: u64) -> std::ops::Range<u64> {
        let left = left.max(self.first * self.mss);
        let right = right.min(self.high);
        let lo = left.div_ceil(self.mss);
        // The last slot may be short: it is covered if the block reaches `high`.
        let hi = if right == self.high {
            right.div_ceil(self.mss)
        } else {
            right / self.mss
        };
        lo..hi.max(lo)
    }

    fn slot_mut(&mut self, idx: u64) -> Option<&mut Slot> {
        let i = idx.checked_sub(self.first)?;
        self.slots.get_mut(usize::try_from(i).ok()?)
    }

    fn slot(&self, idx: u64) -> Option<&Slot> {
        let i = idx.checked_sub(self.first)?;
        self.slots.get(usize::try_from(i).ok()?)
    }

    /// Mark the segments a SACK block `[left, right)` covers entirely (RFC 2018 §3). Returns how
    /// many were newly marked.
    pub fn on_sack_block(&mut self, left: u64, right: u64) -> u32 {
        let range = self.covered(left, right);
        // The holes inside the block are the slots it newly marks.
        let lo = self.holes.partition_point(|&h| h < range.start);
        let hi = self.holes.partition_point(|&h| h < range.end);
        for i in lo..hi {
            let idx = self.holes[i];
            if let Some(s) = self.slot_mut(idx) {
                s.sacked = true;
                let resent = s.rexmit_at.is_some();
                self.resent_holes -= usize::from(resent);
            }
        }
        self.holes.drain(lo..hi);
        let n = hi - lo;
        if n > 0 {
            self.version += 1;
            self.sacked_slots += n;
        }
        n as u32
    }

    /// Mark every block of one ACK (RFC 2018 §4; the order does not matter to the board).
    pub fn on_sack_blocks(&mut self, blocks: &[(u64, u64)]) -> u32 {
        blocks.iter().map(|&(l, r)| self.on_sack_block(l, r)).sum()
    }

    /// SMART (Balakrishnan97 §2.4): the segment starting at `trigger` arrived. Returns whether
    /// this is news.
    pub fn on_smart_trigger(&mut self, trigger: u64) -> bool {
        if trigger < self.una || trigger >= self.high {
            return false;
        }
        let idx = trigger / self.mss;
        match self.slot_mut(idx) {
            Some(s) if !s.sacked => {
                s.sacked = true;
                let resent = s.rexmit_at.is_some();
                self.version += 1;
                self.sacked_slots += 1;
                self.resent_holes -= usize::from(resent);
                if let Ok(i) = self.holes.binary_search(&idx) {
                    self.holes.remove(i);
                }
                true
            }
            _ => false,
        }
    }

    /// Record that the segment containing `off` was retransmitted at `now`.
    pub fn mark_retransmitted(&mut self, off: u64, now: SimTime) {
        let mss = self.mss;
        if let Some(s) = self.slot_mut(off / mss) {
            let first = s.rexmit_at.is_none();
            let hole = !s.sacked;
            s.rexmit_at = Some(now);
            self.version += 1;
            self.resent_slots += usize::from(first);
            self.resent_holes += usize::from(first && hole);
        }
    }

    /// Whether the segment containing `off` has been selectively acknowledged. Bytes beyond the
    /// board's `snd_max` never are, though the short top slot that holds them may carry a SACK
    /// until [`Scoreboard::update`] learns they were sent.
    pub fn is_sacked(&self, off: u64) -> bool {
        off >= self.una && off < self.high && self.slot(off / self.mss).is_some_and(|s| s.sacked)
    }

    /// When the segment containing `off` was last retransmitted.
    pub fn retransmitted_at(&self, off: u64) -> Option<SimTime> {
        if off < self.una {
            return None;
        }
        self.slot(off / self.mss).and_then(|s| s.rexmit_at)
    }

    /// RFC 6675 §4 SetPipe over the board: bytes sent beyond the board (up to `snd_max`), plus,
    /// for every segment from offset `from` that is not SACKed, its length unless `lost` says
    /// the original has left the network, and its length again if it was retransmitted.
    /// `lost` is given the segment and its [`Scoreboard::sacked_above`], counted in the same
    /// pass (the sum does not depend on the order, so the pass runs from the top down).
    pub fn pipe(
        &self,
        snd_max: u64,
        from: u64,
        lost: impl Fn(&SegmentState, (u64, u32)) -> bool,
    ) -> u64 {
        let mut pipe = snd_max.saturating_sub(self.snd_max());
        for (s, above) in self.unsacked_down_with_sacked_above() {
            if s.off < from {
                continue;
            }
            if !lost(&s, above) {
                pipe += u64::from(s.len);
            }
            if s.rexmit_at.is_some() {
                pipe += u64::from(s.len);
            }
        }
        pipe
    }

    /// The outstanding segments from the highest down, each with what
    /// [`Scoreboard::sacked_above`] its offset returns, counted in one pass over every segment:
    /// the walk [`Scoreboard::unsacked_down_with_sacked_above`] replaces, kept as the tests'
    /// reference.
    #[cfg(test)]
    pub fn segments_down_with_sacked_above(
        &self,
    ) -> impl Iterator<Item = (SegmentState, (u64, u32))> + '_ {
        // Above the current segment: SACKed bytes, and runs counted by their ends (a SACKed
        // segment whose successor is not), which the runs above a segment all have above it.
        let (mut bytes, mut runs, mut next_sacked) = (0u64, 0u32, false);
        self.segments().rev().map(move |s| {
            let above = (bytes, runs);
            if s.sacked {
                bytes += u64::from(s.len);
                if !next_sacked {
                    runs += 1;
                }
            }
            next_sacked = s.sacked;
            (s, above)
        })
    }

    /// The segments not SACKed from the highest down, each with its
    /// [`Scoreboard::sacked_above`]: what [`Scoreboard::segments_down_with_sacked_above`]
    /// yields for them, found from the holes alone (each SACKed run between two holes is one
    /// run of the bytes between them), so the SACKed segments cost nothing.
    pub fn unsacked_down_with_sacked_above(
        &self,
    ) -> impl Iterator<Item = (SegmentState, (u64, u32))> + '_ {
        let (mut bytes, mut runs) = (0u64, 0u32);
        // The end of the board (one past its last slot) and then of each hole passed.
        let mut above = self.first + self.slots.len() as u64;
        self.holes.iter().rev().filter_map(move |&idx| {
            let run = self.span_bytes(idx + 1, above);
            if run > 0 {
                bytes += run;
                runs += 1;
            }
            above = idx;
            let s = self.state_of(idx);
            (s.len > 0).then_some((s, (bytes, runs)))
        })
    }

    /// The segments not SACKed, in order (or from the end, `.rev()`).
    pub fn unsacked(&self) -> impl DoubleEndedIterator<Item = SegmentState> + '_ {
        self.holes
            .iter()
            .map(move |&idx| self.state_of(idx))
            .filter(|s| s.len > 0)
    }

    /// The lowest segment neither SACKed nor retransmitted (a SACK sender's next hole to
    /// resend): the first of [`Scoreboard::unsacked`] without a retransmission mark, found from
    /// where the last search stopped instead of past every hole resent before it (a recovery at
    /// today's windows resends thousands).
    pub fn lowest_unresent(&self) -> Option<SegmentState> {
        let start = self
            .holes
            .partition_point(|&h| h < self.unresent_from.get());
        // The hint stops at the first hole without a mark, even an empty one: the slot of a
        // partial segment the ACK emptied regains bytes when the segment grows.
        let mut first_unmarked = None;
        let mut found = None;
        for &idx in self.holes.range(start..) {
            let s = self.state_of(idx);
            if s.rexmit_at.is_none() {
                first_unmarked.get_or_insert(idx);
                if s.len > 0 {
                    found = Some(s);
                    break;
                }
            }
        }
        let resume = first_unmarked.or_else(|| self.holes.back().map(|&last| last + 1));
        if let Some(at) = resume {
            self.unresent_from.set(self.unresent_from.get().max(at));
        }
        found
    }

    /// The outstanding segment that holds `off`, if `off` is outstanding.
    pub fn segment_at(&self, off: u64) -> Option<SegmentState> {
        let idx = off / self.mss;
        (off >= self.una && off < self.high && idx >= self.first).then(|| self.state_of(idx))
    }

    /// Slot `idx`'s segment (it must be on the board).
    fn state_of(&self, idx: u64) -> SegmentState {
        let slot = self.slots[(idx - self.first) as usize];
        let (start, end) = self.span(idx);
        SegmentState {
            off: start,
            len: (end - start) as u32,
            sacked: slot.sacked,
            rexmit_at: slot.rexmit_at,
        }
    }

    /// The outstanding bytes of slots `lo..hi`.
    fn span_bytes(&self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return 0;
        }
        let start = (lo * self.mss).max(self.una);
        let end = (hi * self.mss).min(self.high);
        end.saturating_sub(start)
    }

    /// The outstanding segments in order (or from the end, `.rev()`).
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = SegmentState> + '_ {
        let (mss, una, high, first) = (self.mss, self.una, self.high, self.first);
        self.slots.iter().enumerate().filter_map(move |(i, s)| {
            let start = ((first + i as u64) * mss).max(una);
            let end = ((first + i as u64 + 1) * mss).min(high);
            (end > start).then_some(SegmentState {
                off: start,
                len: (end - start) as u32,
                sacked: s.sacked,
                rexmit_at: s.rexmit_at,
            })
        })
    }

    /// Forget every SACKed bit and retransmission mark (RFC 2018 §8: after a retransmission
    /// timeout the receiver may have reneged).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s = Slot::default();
        }
        self.version += 1;
        self.sacked_slots = 0;
        self.resent_slots = 0;
        self.resent_holes = 0;
        self.holes = (self.first..self.first + self.slots.len() as u64).collect();
        self.unresent_from.set(0);
    }

    /// Forget the retransmission marks only.
    pub fn clear_retransmitted(&mut self) {
        for s in &mut self.slots {
            s.rexmit_at = None;
        }
        self.version += 1;
        self.resent_slots = 0;
        self.resent_holes = 0;
        self.unresent_from.set(0);
    }
}

#[cfg(test)]
#[path = "scoreboard_tests.rs"]
mod tests;
