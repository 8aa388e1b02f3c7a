//! Delivery-opportunity traces: a link direction whose capacity varies over time, in Mahimahi's
//! trace format (the de-facto format of recorded cellular links; Netravali et al., "Mahimahi",
//! USENIX ATC 2015).
//!
//! A trace is a list of millisecond timestamps, one per line, non-decreasing; each is one
//! opportunity to deliver up to [`OPPORTUNITY_BYTES`] bytes, and the trace repeats with the
//! period of its last timestamp. Bytes of a frame are delivered at the opportunities that cover
//! them, in order: a frame leaves at the opportunity that carries its last byte, and what is left
//! of that opportunity goes to the next frame if it is already waiting. Opportunities that pass
//! while nothing waits are lost (a queue-less link cannot bank capacity). Sans-IO: the port asks
//! when a frame that starts at `start` has left ([`DeliveryState::finish`]).

use engine::SimTime;
use std::sync::Arc;

/// Bytes one delivery opportunity carries (an MTU of 1500 bytes, as Mahimahi's link shell).
pub const OPPORTUNITY_BYTES: u32 = 1500;

/// A malformed delivery trace.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeliveryError {
    /// A line that is not a whole number of milliseconds.
    #[error("line {line}: '{text}' is not a timestamp in whole milliseconds")]
    NotANumber {
        /// 1-based line number.
        line: usize,
        /// The line, cut to 20 characters.
        text: String,
    },
    /// A timestamp below the one before it.
    #[error("line {line}: {ms} ms is earlier than the line before ({before} ms); timestamps must not decrease")]
    Decreasing {
        /// 1-based line number.
        line: usize,
        /// Its timestamp.
        ms: u64,
        /// The timestamp before.
        before: u64,
    },
    /// A timestamp whose nanoseconds do not fit the simulator's clock (u64).
    #[error("line {line}: {ms} ms is beyond the simulator's clock (at most {max} ms)")]
    TooLarge {
        /// 1-based line number.
        line: usize,
        /// Its timestamp.
        ms: u64,
        /// The largest timestamp allowed.
        max: u64,
    },
    /// No timestamps, or a last timestamp of 0 (no period to repeat with).
    #[error("the trace needs at least one timestamp and a last timestamp above 0 ms")]
    Empty,
}

/// A parsed trace: opportunity times within one period, and the period, in nanoseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveryTrace {
    times: Arc<[u64]>,
    period: u64,
}

impl DeliveryTrace {
    /// Parse Mahimahi's format (blank lines are skipped).
    pub fn parse(text: &str) -> Result<Self, DeliveryError> {
        let mut times = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            let ms: u64 = line.parse().map_err(|_| DeliveryError::NotANumber {
                line: i + 1,
                text: line.chars().take(20).collect(),
            })?;
            // Kept in nanoseconds: a timestamp past u64's nanoseconds would wrap.
            if ms.checked_mul(1_000_000).is_none() {
                return Err(DeliveryError::TooLarge {
                    line: i + 1,
                    ms,
                    max: u64::MAX / 1_000_000,
                });
            }
            if let Some(&before) = times.last() {
                if ms < before {
                    return Err(DeliveryError::Decreasing {
                        line: i + 1,
                        ms,
                        before,
                    });
                }
            }
            times.push(ms);
        }
        let period_ms = *times.last().ok_or(DeliveryError::Empty)?;
        if period_ms == 0 {
            return Err(DeliveryError::Empty);
        }
        Ok(DeliveryTrace {
            times: times.iter().map(|ms| ms * 1_000_000).collect(),
            period: period_ms * 1_000_000,
        })
    }

    /// The mean capacity in bits per second.
    pub fn mean_rate_bps(&self) -> u64 {
        let bits = self.times.len() as u128 * u128::from(OPPORTUNITY_BYTES) * 8;
        (bits * 1_000_000_000 / u128::from(self.period)) as u64
    }

    /// The time of opportunity `k` (counting across repetitions).
    fn time(&self, k: u64) -> u64 {
        let n = self.times.len() as u64;
        (k / n)
            .saturating_mul(self.period)
            .saturating_add(self.times[(k % n) as usize])
    }

    /// The first opportunity at or after `t`.
    fn first_at(&self, t: u64) -> u64 {
        let n = self.times.len() as u64;
        let (round, off) = (t / self.period, t % self.period);
        let i = self.times.partition_point(|&x| x < off) as u64;
        round * n + i
    }
}

/// Where a direction is in its trace: the current opportunity and the bytes it has carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveryState {
    trace: DeliveryTrace,
    k: u64,
    used: u32,
}

impl DeliveryState {
    /// At the start of the trace.
    pub fn new(trace: DeliveryTrace) -> Self {
        DeliveryState {
            trace,
            k: 0,
            used: 0,
        }
    }

    /// A frame of `bytes` bytes is ready to go at `start` (after the frame before it): when its
    /// last byte is delivered.
    pub fn finish(&mut self, start: SimTime, bytes: u32) -> SimTime {
        let t = start.as_nanos();
        if self.trace.time(self.k) < t {
            // Opportunities that passed while nothing waited are lost.
            self.k = self.trace.first_at(t);
            self.used = 0;
        }
        let mut left = bytes.max(1);
        loop {
            let avail = OPPORTUNITY_BYTES - self.used;
            if left <= avail {
                self.used += left;
                return SimTime(self.trace.time(self.k));
            }
            left -= avail;
            self.k += 1;
            self.used = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    #[test]
    fn frames_leave_at_the_opportunities_that_carry_their_last_byte() {
        let t = DeliveryTrace::parse("10\n10\n25\n40\n").unwrap();
        let mut d = DeliveryState::new(t.clone());
        // A 1000-byte frame at 0 ms: the first opportunity (10 ms) carries it.
        assert_eq!(d.finish(ms(0), 1000), ms(10));
        // The next, ready at 10 ms: 500 bytes left at 10 ms, the second 10 ms opportunity
        // carries the rest.
        assert_eq!(d.finish(ms(10), 1000), ms(10));
        // 2000 bytes at 10 ms: 1000 left there, 1000 at 25 ms.
        assert_eq!(d.finish(ms(10), 2000), ms(25));
        // Ready at 30 ms: the 25 ms leftover is gone; 40 ms.
        assert_eq!(d.finish(ms(30), 100), ms(40));
        // Ready at 41 ms: the trace repeats every 40 ms: 50 ms.
        assert_eq!(d.finish(ms(41), 100), ms(50));
        // 1500 · 4 bytes per 40 ms = 1.2 Mb/s.
        assert_eq!(t.mean_rate_bps(), 1_200_000);
    }

    #[test]
    fn malformed_traces_name_the_line() {
        assert_eq!(
            DeliveryTrace::parse("1\n2\nx3\n").unwrap_err().to_string(),
            "line 3: 'x3' is not a timestamp in whole milliseconds"
        );
        assert_eq!(
            DeliveryTrace::parse("5\n3\n").unwrap_err().to_string(),
            "line 2: 3 ms is earlier than the line before (5 ms); timestamps must not decrease"
        );
        assert_eq!(DeliveryTrace::parse("\n0\n"), Err(DeliveryError::Empty));
        // The line: its nanoseconds wrapped to a 0.45 ms period.
        assert_eq!(
            DeliveryTrace::parse("1\n18446744073710\n")
                .unwrap_err()
                .to_string(),
            "line 2: 18446744073710 ms is beyond the simulator's clock (at most 18446744073709 ms)"
        );
        assert!(DeliveryTrace::parse("18446744073709\n").is_ok());
    }
}
