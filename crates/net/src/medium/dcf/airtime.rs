//! The access point's choice of the station whose frame goes next (a cell option).
//!
//! - [`ApScheduler::Frames`]: round robin by frames, one frame per station in turn (the DCF's
//!   behaviour before this option; every station gets the same number of frames, so a slow
//!   one takes most of the air: the performance anomaly, Heusse et al., INFOCOM 2003).
//! - [`ApScheduler::Airtime`]: deficit round robin by airtime, as Linux mac80211's airtime
//!   scheduler (T. Høiland-Jørgensen, "mac80211: Add airtime accounting and scheduling to
//!   TXQs", Linux 5.0, `net/mac80211/tx.c` `ieee80211_next_txq()` and
//!   `ieee80211_return_txq()`, `sta_info.c` `ieee80211_sta_register_airtime()`; the same
//!   algorithm as ath9k's in-driver airtime fairness, Høiland-Jørgensen et al., "Ending the
//!   Anomaly", USENIX ATC 2017). Each station has a deficit; the active stations (those with
//!   frames) are a list; the scheduler serves the first station whose deficit is not negative,
//!   and a station at the head with a negative deficit gets `quantum` more
//!   (`sta->airtime_weight`, `IEEE80211_DEFAULT_AIRTIME_WEIGHT` = 256 µs) and goes to the
//!   tail. A station that becomes active joins at the head (`ieee80211_return_txq()` with
//!   airtime fairness: it moves back only once its deficit is negative), a station found
//!   empty leaves the list and keeps its deficit. Each transmission's airtime is charged to
//!   its station (TX: every attempt at the access point, retries included, as the driver
//!   reports it; RX: a frame the access point received from the station, `AIRTIME_USE_RX`).
//!
//! The deficits are integer nanoseconds (Linux: µs); stations are indexed by their place among
//! the access point's ports.

use engine::SimDuration;
use std::collections::VecDeque;

/// Linux's default airtime weight, the quantum of its deficit round robin:
/// `IEEE80211_DEFAULT_AIRTIME_WEIGHT` (256, in µs of airtime; `net/mac80211/sta_info.h`).
pub const LINUX_QUANTUM: SimDuration = SimDuration::from_micros(256);

/// How the access point of a cell chooses among its stations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ApScheduler {
    /// One frame per station in turn.
    #[default]
    Frames,
    /// Deficit round robin by airtime with this quantum.
    Airtime {
        /// Airtime added to a negative deficit at each turn, ns (32 bits: the DCF's
        /// configuration is copied into every cell's medium and kept small).
        quantum_ns: std::num::NonZeroU32,
    },
}

impl ApScheduler {
    /// Airtime fairness with `quantum` (at most 4.29 s; `None` if zero or above).
    pub fn airtime(quantum: SimDuration) -> Option<ApScheduler> {
        let q = u32::try_from(quantum.as_nanos()).ok()?;
        std::num::NonZeroU32::new(q).map(|quantum_ns| ApScheduler::Airtime { quantum_ns })
    }
}

/// The airtime deficit round robin over `n` stations.
#[derive(Clone, Debug)]
pub struct AirtimeDrr {
    quantum: i64,
    deficit: Vec<i64>,
    /// Active stations, the next to serve first.
    active: VecDeque<usize>,
    listed: Vec<bool>,
    /// Airtime charged to each station, ns (TX and RX).
    charged: Vec<u64>,
}

impl AirtimeDrr {
    /// A scheduler with `quantum` and no station yet.
    pub fn new(quantum: SimDuration) -> Self {
        AirtimeDrr {
            quantum: i64::try_from(quantum.as_nanos()).unwrap_or(i64::MAX).max(1),
            deficit: Vec::new(),
            active: VecDeque::new(),
            listed: Vec::new(),
            charged: Vec::new(),
        }
    }

    /// Room for station `k`.
    fn grow(&mut self, k: usize) {
        if self.deficit.len() <= k {
            self.deficit.resize(k + 1, 0);
            self.listed.resize(k + 1, false);
            self.charged.resize(k + 1, 0);
        }
    }

    /// Station `k` may have frames: it joins the active list at the head if it is not on it.
    pub fn activate(&mut self, k: usize) {
        self.grow(k);
        if !self.listed[k] {
            self.listed[k] = true;
            self.active.push_front(k);
        }
    }

    /// Charge `airtime` to station `k`'s deficit.
    pub fn charge(&mut self, k: usize, airtime: SimDuration) {
        self.grow(k);
        let a = i64::try_from(airtime.as_nanos()).unwrap_or(i64::MAX);
        self.deficit[k] = self.deficit[k].saturating_sub(a);
        self.charged[k] = self.charged[k].saturating_add(airtime.as_nanos());
    }

    /// The next station to serve, asked with `take` for a frame (`None`: it has none and
    /// leaves the list): the first active station whose deficit is not negative, after
    /// the heads with a negative deficit got their quantum and moved to the tail
    /// (`ieee80211_next_txq()`). Returns the station and what `take` gave.
    pub fn pick<T>(&mut self, mut take: impl FnMut(usize) -> Option<T>) -> Option<(usize, T)> {
        // Each turn either removes a station or adds a quantum to a negative deficit, so the
        // loop ends; the bound only guards against an overflowing deficit.
        for _ in 0..1_000_000 {
            let &k = self.active.front()?;
            if self.deficit[k] < 0 {
                self.deficit[k] = self.deficit[k].saturating_add(self.quantum);
                self.active.rotate_left(1);
                continue;
            }
            match take(k) {
                // It stays at the head (`ieee80211_return_txq()` puts a backlogged station
                // back at the head under airtime fairness).
                Some(t) => return Some((k, t)),
                None => {
                    self.active.pop_front();
                    self.listed[k] = false;
                }
            }
        }
        None
    }

    /// Station `k`'s deficit, ns.
    pub fn deficit(&self, k: usize) -> i64 {
        self.deficit.get(k).copied().unwrap_or(0)
    }

    /// Airtime charged to each station so far, ns.
    pub fn charged(&self) -> &[u64] {
        &self.charged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two always-backlogged stations whose frames take 100 µs and 1000 µs: by airtime each
    /// gets half the air, so the fast one sends ten frames per slow one (the anomaly undone);
    /// frames round robin would send one each.
    #[test]
    fn deficit_round_robin_shares_airtime_not_frames() {
        let mut s = AirtimeDrr::new(LINUX_QUANTUM);
        s.activate(0);
        s.activate(1);
        let cost = [100u64, 1000];
        let mut frames = [0u64; 2];
        let mut air = [0u64; 2];
        for _ in 0..11_000 {
            let (k, ()) = s.pick(|_| Some(())).unwrap();
            frames[k] += 1;
            air[k] += cost[k];
            s.charge(k, SimDuration::from_micros(cost[k]));
        }
        let share = air[0] as f64 / (air[0] + air[1]) as f64;
        assert!((share - 0.5).abs() < 0.01, "{share} {frames:?}");
        assert!(
            (frames[0] as f64 / frames[1] as f64 - 10.0).abs() < 0.2,
            "{frames:?}"
        );
        assert_eq!(s.charged(), &[air[0] * 1000, air[1] * 1000]);
    }

    /// A station found empty leaves the list and keeps its deficit; one that becomes active
    /// joins at the head; a negative head gets the quantum and goes to the tail.
    #[test]
    fn empty_stations_leave_and_new_ones_join_at_the_head() {
        let mut s = AirtimeDrr::new(SimDuration::from_micros(256));
        s.activate(0);
        s.activate(1); // head: 1, 0
        assert_eq!(s.pick(Some), Some((1, 1)));
        s.charge(1, SimDuration::from_micros(300)); // -300 µs
                                                    // 1 is negative: +256 (still -44), to the tail; 0 serves.
        assert_eq!(s.pick(Some), Some((0, 0)));
        assert_eq!(s.deficit(1), -44_000);
        // 0 has nothing: it leaves; 1 (negative again at the head) gets 256 more and serves.
        assert_eq!(s.pick(|k| (k == 1).then_some(k)), Some((1, 1)));
        assert_eq!(s.deficit(1), 212_000);
        // Nobody has anything: the list empties.
        assert_eq!(s.pick(|_| None::<()>), None);
        s.activate(0);
        assert_eq!(s.pick(Some), Some((0, 0)));
    }
}
