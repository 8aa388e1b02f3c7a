//! The emulator's clock: the one place wall time enters lossylink (DESIGN.md, house rule 1).
//! Everything downstream gets `now` as a [`SimTime`] from here: nanoseconds of the monotonic
//! clock since the emulation started.

use engine::SimTime;
use std::time::Instant;

/// Monotonic time since the start of an emulation.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
}

impl Clock {
    /// A clock reading zero now.
    pub fn start() -> Self {
        Clock {
            start: Instant::now(),
        }
    }

    /// Time since the start, in integer nanoseconds.
    pub fn now(&self) -> SimTime {
        // u64 nanoseconds last 584 years.
        SimTime(self.start.elapsed().as_nanos() as u64)
    }
}
