//! The scoreboard's (crate::recovery::scoreboard) questions about what is SACKed: the highest
//! SACKed end, RFC 6675 §4 IsLost and SetPipe from the holes' order, the SACKed bytes and runs
//! above a segment. A child module of the board's, so that it reads the board's fields.

use super::{less_short_ends, Scoreboard};

impl Scoreboard {
    /// End of the highest selectively acknowledged segment, if any.
    pub fn highest_sacked_end(&self) -> Option<u64> {
        if self.sacked_slots == 0 {
            return None;
        }
        // The highest slot that is not a hole: below the run of holes at the top.
        let end = self.first + self.slots.len() as u64;
        let top = match self.holes.back() {
            Some(&h) if h + 1 == end => self.holes[self.hole_run_start(self.holes.len())],
            _ => end,
        };
        // Only the first slot can be empty (a cumulative ACK up to a short `snd_max`), and
        // then it is the only one.
        let s = self.state_of(top.checked_sub(1).filter(|&i| i >= self.first)?);
        (s.len > 0).then_some(s.off + u64::from(s.len))
    }

    /// The position in `holes` where the run of consecutive hole indices that ends at position
    /// `end - 1` starts (`end > 0`): `holes[j] - j` never falls, and is the same along a run.
    pub(super) fn hole_run_start(&self, end: usize) -> usize {
        let key = |j: usize| self.holes[j] - j as u64;
        let c = key(end - 1);
        let (mut lo, mut hi) = (0, end - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if key(mid) < c {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The slot index below which every hole is lost by RFC 6675 §4 IsLost with DupThresh
    /// `dupthresh` (more than `dupthresh - 1` segments' bytes or `dupthresh` runs SACKed above
    /// it). IsLost only weakens going up, so the lost holes are the lowest ones; the walk goes
    /// down from the top a run at a time (a run of consecutive holes, which share one answer,
    /// skipped by a binary search; a SACKed run counted by index arithmetic) and stops after at
    /// most `dupthresh` SACKed runs.
    pub(super) fn lost_below(&self, dupthresh: u32) -> u64 {
        let limit = u64::from(dupthresh.saturating_sub(1)) * self.mss;
        let (mut bytes, mut runs) = (0u64, 0u32);
        let mut top = self.first + self.slots.len() as u64;
        let mut pos = self.holes.len();
        loop {
            if pos > 0 && self.holes[pos - 1] + 1 == top {
                pos = self.hole_run_start(pos);
                top = self.holes[pos];
            }
            let Some(h) = pos.checked_sub(1).map(|p| self.holes[p]) else {
                return self.first;
            };
            let run = self.span_bytes(h + 1, top);
            if run > 0 {
                bytes += run;
                runs += 1;
            }
            if runs >= dupthresh || bytes > limit {
                return h + 1;
            }
            top = h + 1;
        }
    }

    /// RFC 6675 §4 IsLost (DupThresh `dupthresh`) of the segment holding `off`: for a hole,
    /// from [`Scoreboard::lost_below`] (a few runs from the top) instead of a count over every
    /// hole above it; otherwise from [`Scoreboard::sacked_above`].
    pub fn is_lost_rfc6675(&self, off: u64, dupthresh: u32) -> bool {
        let idx = off / self.mss;
        if off >= self.una && off < self.high && self.holes.binary_search(&idx).is_ok() {
            return idx < self.lost_below(dupthresh);
        }
        let (bytes, runs) = self.sacked_above(off);
        runs >= dupthresh || bytes > u64::from(dupthresh.saturating_sub(1)) * self.mss
    }

    /// The bytes of `count` slots, less what the board's first and last slots lack of a whole
    /// segment when `has` says they are among them.
    pub(super) fn slots_bytes(&self, count: usize, has: impl Fn(u64) -> bool) -> u64 {
        let n = self.slots.len() as u64;
        less_short_ends(
            count as u64,
            self.mss,
            (self.una, self.high),
            (self.first, n),
            |idx| u64::from(has(idx)),
        )
    }

    /// `[start, end)` of slot `idx`, clipped to the outstanding data.
    pub(super) fn span(&self, idx: u64) -> (u64, u64) {
        (
            (idx * self.mss).max(self.una),
            ((idx + 1) * self.mss).min(self.high),
        )
    }

    /// RFC 6675 §4 SetPipe with IsLost (DupThresh `dupthresh`): what [`Scoreboard::pipe`] sums
    /// with that `lost`, from counts and the holes' order instead of a walk over the board (a
    /// sender asks before every segment; at today's windows the board holds thousands).
    pub fn pipe_rfc6675(&self, snd_max: u64, from: u64, dupthresh: u32) -> u64 {
        let mss = self.mss;
        let n = self.holes.len();
        // The holes whose segment starts at or above `from`.
        let from_pos = if from <= self.una {
            0
        } else {
            self.holes.partition_point(|&h| h * mss < from)
        };
        let lost_end = self.lost_below(dupthresh);
        let kept = self.holes.partition_point(|&h| h < lost_end).max(from_pos);
        // Asked of the board's first and last slots, which are most often the first and last
        // holes: those two looked at before a search.
        let last = n.wrapping_sub(1);
        let hole_at = |idx: u64, from: usize| {
            let p = if self.holes.front() == Some(&idx) {
                Ok(0)
            } else if self.holes.back() == Some(&idx) {
                Ok(last)
            } else {
                self.holes.binary_search(&idx)
            };
            p.is_ok_and(|p| p >= from)
        };
        // Originals still in the network: the holes from `kept` up.
        let mut pipe = snd_max.saturating_sub(self.high);
        pipe += self.slots_bytes(n - kept, |idx| hole_at(idx, kept));
        // Resends: the resent holes from `from_pos` up.
        let resent = |idx: u64| self.slot(idx).is_some_and(|s| s.rexmit_at.is_some());
        let below = (0..from_pos).filter(|&p| resent(self.holes[p])).count();
        pipe += self.slots_bytes(self.resent_holes - below, |idx| {
            resent(idx) && hole_at(idx, from_pos)
        });
        pipe
    }

    /// Whether some segment below the highest selectively acknowledged one is missing (a gap in
    /// the SMART bitmask, a hole in the SACK scoreboard).
    pub fn has_hole(&self) -> bool {
        let Some(h) = self.highest_sacked_end() else {
            return false;
        };
        self.unsacked().next().is_some_and(|s| s.off < h)
    }

    /// Selectively acknowledged bytes on the board.
    pub fn sacked_bytes(&self) -> u64 {
        if self.sacked_slots == 0 {
            return 0;
        }
        let unsacked: u64 = self.unsacked().map(|s| u64::from(s.len)).sum();
        self.high - self.una - unsacked
    }

    /// Selectively acknowledged bytes above `off`, and how many discontiguous runs they form
    /// (the two counts of RFC 6675 §4 IsLost), from the holes above `off`.
    pub fn sacked_above(&self, off: u64) -> (u64, u32) {
        if self.sacked_slots == 0 || self.slots.is_empty() {
            return (0, 0);
        }
        // The segments whose offset is above `off`: from the slot after `off`'s, or from the
        // first slot if `off` lies below the board.
        let lo = if off < self.una {
            self.first
        } else {
            off / self.mss + 1
        };
        let end = self.first + self.slots.len() as u64;
        let (mut bytes, mut runs, mut below) = (0u64, 0u32, lo);
        let from = self.holes.partition_point(|&h| h < lo);
        for &h in self.holes.range(from..) {
            let run = self.span_bytes(below, h);
            if run > 0 {
                bytes += run;
                runs += 1;
            }
            below = h + 1;
        }
        let run = self.span_bytes(below, end);
        if run > 0 {
            bytes += run;
            runs += 1;
        }
        (bytes, runs)
    }
}
