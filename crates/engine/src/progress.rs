//! How far a run has come, for a display on another thread: the simulated time reached and the
//! events processed, written by the run between slices of simulated time and read at any time.
//! The run never waits for the reader and the reader never changes the run (relaxed atomics;
//! the two numbers are each exact when written, possibly from neighbouring slices when read).

use crate::SimTime;
use std::sync::atomic::{AtomicU64, Ordering};

/// Shared progress of one run.
#[derive(Debug, Default)]
pub struct Progress {
    now_ns: AtomicU64,
    events: AtomicU64,
    limit_ns: AtomicU64,
}

impl Progress {
    /// No progress yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The run will end at `limit` at the latest (or earlier, when its flows complete).
    pub fn set_limit(&self, limit: SimTime) {
        self.limit_ns.store(limit.0, Ordering::Relaxed);
    }

    /// The run has reached `now` after `events` events.
    pub fn update(&self, now: SimTime, events: u64) {
        self.now_ns.store(now.0, Ordering::Relaxed);
        self.events.store(events, Ordering::Relaxed);
    }

    /// Simulated time reached.
    pub fn now(&self) -> SimTime {
        SimTime(self.now_ns.load(Ordering::Relaxed))
    }

    /// Events processed.
    pub fn events(&self) -> u64 {
        self.events.load(Ordering::Relaxed)
    }

    /// The latest end of the run (zero until it is known).
    pub fn limit(&self) -> SimTime {
        SimTime(self.limit_ns.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_are_read_back() {
        let p = Progress::new();
        assert_eq!(
            (p.now(), p.events(), p.limit()),
            (SimTime(0), 0, SimTime(0))
        );
        p.set_limit(SimTime(5_000));
        p.update(SimTime(1_000), 42);
        assert_eq!(
            (p.now(), p.events(), p.limit()),
            (SimTime(1_000), 42, SimTime(5_000))
        );
    }
}
