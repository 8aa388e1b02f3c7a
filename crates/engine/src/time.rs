//! Simulated time as unsigned 64-bit nanoseconds (house rule 4: integers for time).
//!
//! 2^64 ns is about 584 years of simulated time, far beyond any run. Arithmetic saturates
//! rather than wrapping, so an absurd timer value stays absurd instead of becoming small.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, in nanoseconds since the start of the run.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimTime(pub u64);

/// A span of simulated time, in nanoseconds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimDuration(pub u64);

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// A time later than any event of a real run.
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// Nanoseconds since the start of the run.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// Seconds as a float, for reporting only (never for scheduling).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }

    /// Time elapsed since `earlier`, or zero if `earlier` is later.
    pub fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    /// The empty span.
    pub const ZERO: SimDuration = SimDuration(0);

    /// A span of `ns` nanoseconds.
    pub const fn from_nanos(ns: u64) -> Self {
        SimDuration(ns)
    }
    /// A span of `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us * 1_000)
    }
    /// A span of `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000_000)
    }
    /// A span of `s` seconds.
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * 1_000_000_000)
    }
    /// Nanoseconds in this span.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds as a float, for reporting only.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// The time needed to send `bits` at `rate_bps`, rounded up to the next nanosecond so that a
    /// link never runs faster than its nominal rate.
    pub fn for_bits(bits: u64, rate_bps: u64) -> SimDuration {
        debug_assert!(rate_bps > 0);
        // Every frame size fits in 64 bits here; 128-bit division is a slow library call.
        if let Some(num) = bits.checked_mul(1_000_000_000) {
            return SimDuration(num.div_ceil(rate_bps.max(1)));
        }
        let num = bits as u128 * 1_000_000_000u128;
        let rate = rate_bps.max(1) as u128;
        SimDuration(num.div_ceil(rate).min(u64::MAX as u128) as u64)
    }
    /// `self * k`, saturating.
    pub fn saturating_mul(self, k: u64) -> SimDuration {
        SimDuration(self.0.saturating_mul(k))
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}

impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}

impl Sub for SimTime {
    type Output = SimDuration;
    /// Elapsed time; saturates at zero.
    fn sub(self, earlier: SimTime) -> SimDuration {
        self.saturating_since(earlier)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{:09}s",
            self.0 / 1_000_000_000,
            self.0 % 1_000_000_000
        )
    }
}

impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{:09}s",
            self.0 / 1_000_000_000,
            self.0 % 1_000_000_000
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn airtime_rounds_up() {
        // 1440 bytes at 2 Mb/s = 5.76 ms exactly.
        assert_eq!(
            SimDuration::for_bits(1440 * 8, 2_000_000),
            SimDuration::from_micros(5760)
        );
        // 1 bit at 3 b/s = 333_333_333.33 ns -> rounded up.
        assert_eq!(SimDuration::for_bits(1, 3).as_nanos(), 333_333_334);
    }

    proptest::proptest! {
        #[test]
        fn airtime_fast_path_equals_the_wide_one(bits in 0u64..=u64::MAX, rate in 1u64..=u64::MAX) {
            let wide = (u128::from(bits) * 1_000_000_000).div_ceil(u128::from(rate));
            let wide = SimDuration(wide.min(u128::from(u64::MAX)) as u64);
            proptest::prop_assert_eq!(SimDuration::for_bits(bits, rate), wide);
            let small = bits % 200_000;
            let wide = (u128::from(small) * 1_000_000_000).div_ceil(u128::from(rate));
            proptest::prop_assert_eq!(SimDuration::for_bits(small, rate).as_nanos() as u128, wide);
        }
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(SimTime::MAX + SimDuration::from_secs(1), SimTime::MAX);
        assert_eq!(SimTime(5) - SimTime(9), SimDuration::ZERO);
        assert_eq!(format!("{}", SimTime(1_500_000_000)), "1.500000000s");
    }
}
