//! Block-erasure traces of a GSM circuit-switched data channel (Ludwig2000 §4.3, §3.1.4; spec
//! §3.5, §7.5, §10.4).
//!
//! The GSM-CSD channel carries one 240-bit (30-byte) unencoded data block every 20 ms (50 blocks
//! per second, 1500 B/s before RLP's overhead, Ludwig2000 §2.4.4). The FEC decoder below RLP
//! either delivers a block intact or the block fails RLP's frame checksum: the channel, as the
//! link layer sees it, is a sequence of erased / not erased blocks. The dissertation measured
//! such sequences (`trace_A` with good, `trace_B` and `trace_C` with poor signal) and retraced
//! them (ReTracer, [`super::retrace`]).
//!
//! The measured traces are not available, so this module also generates synthetic ones. The
//! dissertation gives no per-block model; it gives statistics (spec §5.4 B1-B5, target RT28),
//! and the spec (§10.4) asks for a seedable Markov generator with slowly varying parameters
//! fitted to them. [`Profile`] is that generator. Its parameters are *calibration* to RT28, the
//! statistics of the trace itself, derived in closed form in each profile's documentation; none
//! is fitted to a throughput result (RT22-RT27 are then checked on the traces it makes).
//!
//! Trace format (`block_trace`, spec §7.5): one block per line, `0` (received) or `1` (erased);
//! blank lines and lines starting with `#` are ignored. [`BlockTrace::parse`] reports the first
//! malformed line by number.

use engine::RngStream;
use std::fmt;

/// Radio blocks per second on a full-rate GSM data channel (one 240-bit block every 20 ms).
pub const BLOCKS_PER_SECOND: u32 = 50;
/// Bytes of one unencoded data block (240 bits).
pub const BLOCK_BYTES: u32 = 30;
/// Blocks in the one-minute sub-traces the dissertation's statistics are taken over (§4.3.1:
/// "1 minute = 3000 RLP frames").
pub const BLOCKS_PER_MINUTE: usize = 60 * BLOCKS_PER_SECOND as usize;

/// A malformed block trace.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// A line that is neither `0`, `1`, blank nor a comment.
    #[error("line {line}: '{text}' is not a block (allowed: 0 = received, 1 = erased, # comment)")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line, cut to 20 characters.
        text: String,
    },
    /// A trace without a single block.
    #[error("the trace has no blocks")]
    Empty,
}

/// A sequence of radio blocks, each erased or received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockTrace {
    erased: Vec<bool>,
}

impl BlockTrace {
    /// A trace from erasure flags (`true` = erased).
    pub fn new(erased: Vec<bool>) -> Result<Self, TraceError> {
        if erased.is_empty() {
            return Err(TraceError::Empty);
        }
        Ok(BlockTrace { erased })
    }

    /// Parse the `block_trace` text format (module docs).
    pub fn parse(text: &str) -> Result<Self, TraceError> {
        let mut erased = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            match line {
                "" => {}
                "0" => erased.push(false),
                "1" => erased.push(true),
                _ if line.starts_with('#') => {}
                _ => {
                    return Err(TraceError::BadLine {
                        line: i + 1,
                        text: line.chars().take(20).collect(),
                    })
                }
            }
        }
        Self::new(erased)
    }

    /// A trace from flags the caller knows to be non-empty (a generator's whole minutes).
    pub(crate) fn from_flags(erased: Vec<bool>) -> Self {
        BlockTrace { erased }
    }

    /// The erasure flags, one per block.
    pub fn erased(&self) -> &[bool] {
        &self.erased
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.erased.len()
    }

    /// Never true: a trace has at least one block.
    pub fn is_empty(&self) -> bool {
        self.erased.is_empty()
    }

    /// Number of erased blocks.
    pub fn erasures(&self) -> usize {
        self.erased.iter().filter(|&&e| e).count()
    }

    /// Block erasure rate over the whole trace.
    pub fn bler(&self) -> f64 {
        self.erasures() as f64 / self.len() as f64
    }

    /// The erasure rate of each whole one-minute sub-trace (Fig 4-11); a shorter tail is left
    /// out.
    pub fn minute_blers(&self) -> Vec<f64> {
        self.erased
            .chunks_exact(BLOCKS_PER_MINUTE)
            .map(|m| m.iter().filter(|&&e| e).count() as f64 / BLOCKS_PER_MINUTE as f64)
            .collect()
    }

    /// Lengths of the runs of consecutive erased blocks, in trace order (Fig 4-12).
    pub fn burst_lengths(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut run = 0u32;
        for &e in &self.erased {
            if e {
                run += 1;
            } else if run > 0 {
                out.push(run);
                run = 0;
            }
        }
        if run > 0 {
            out.push(run);
        }
        out
    }

    /// The `_even` version of the trace (ReTracer, §4.3.2; spec §10.3): the same number of
    /// erasures, each an isolated block, at constant spacing. The k-th of `e` erasures in a
    /// trace of `n` blocks sits at block `floor((2k + 1) · n / (2e))`; at most one per block
    /// (a trace erased everywhere stays so).
    pub fn even(&self) -> BlockTrace {
        let n = self.len() as u128;
        let e = self.erasures() as u128;
        let mut erased = vec![false; self.len()];
        for k in 0..e {
            // (2k + 1) n / (2e) < n for k < e: always inside the trace.
            let at = ((2 * k + 1) * n / (2 * e)) as usize;
            erased[at] = true;
        }
        BlockTrace { erased }
    }

    /// The trace in the `block_trace` text format.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(2 * self.len());
        for &e in &self.erased {
            s.push(if e { '1' } else { '0' });
            s.push('\n');
        }
        s
    }
}

impl fmt::Display for BlockTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} blocks ({:.1} s), {} erased (BLER {:.4})",
            self.len(),
            self.len() as f64 / f64::from(BLOCKS_PER_SECOND),
            self.erasures(),
            self.bler()
        )
    }
}

/// How a minute's erasure rate is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MinuteBler {
    /// Erasure-free with probability `p_clean`, else uniform in `(0, max]`.
    CleanOrUniform {
        /// Probability of an erasure-free minute.
        p_clean: f64,
        /// Largest erasure rate of the other minutes.
        max: f64,
    },
    /// Uniform in `[0, low)` with probability `p_low`, else log-uniform in `[low, max]`.
    LowOrLogUniform {
        /// Probability of a minute below `low`.
        p_low: f64,
        /// The boundary between "low" and the log-uniform part.
        low: f64,
        /// Largest erasure rate.
        max: f64,
    },
}

impl MinuteBler {
    /// A minute's erasure rate drawn from `rng`.
    pub(crate) fn draw(&self, rng: &mut RngStream) -> f64 {
        match *self {
            MinuteBler::CleanOrUniform { p_clean, max } => {
                if rng.bernoulli(p_clean) {
                    0.0
                } else {
                    max * rng.unit_open0()
                }
            }
            MinuteBler::LowOrLogUniform { p_low, low, max } => {
                if rng.bernoulli(p_low) {
                    low * (1.0 - rng.unit_open0())
                } else {
                    // log-uniform in [low, max]: low · (max/low)^u.
                    low * libm::pow(max / low, 1.0 - rng.unit_open0())
                }
            }
        }
    }
}

/// Burst lengths: geometric with mean `short_mean` with probability `p_short`, else geometric
/// with mean `long_mean` (a two-component mixture: one geometric cannot give both "more than half
/// the bursts are one or two blocks" and "the 95th percentile is 18-26 blocks", B4/B5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurstMix {
    /// Probability that a burst is a short one.
    pub p_short: f64,
    /// Mean length of a short burst, blocks (≥ 1).
    pub short_mean: f64,
    /// Mean length of a long burst, blocks (≥ 1).
    pub long_mean: f64,
}

impl BurstMix {
    /// Mean burst length, blocks.
    pub fn mean(&self) -> f64 {
        self.p_short * self.short_mean + (1.0 - self.p_short) * self.long_mean
    }

    /// P(length > x) for a whole number of blocks x ≥ 0.
    pub fn survival(&self, x: u32) -> f64 {
        let g = |m: f64| (1.0 - 1.0 / m).powi(x as i32);
        self.p_short * g(self.short_mean) + (1.0 - self.p_short) * g(self.long_mean)
    }
}

/// A synthetic channel: per-minute erasure rates and burst lengths (spec §10.4).
///
/// Within a minute the channel is a three-state chain stepped once per block: a good state, and
/// a short-burst and a long-burst erased state, each burst's length geometric ([`BurstMix`]).
/// The probability of leaving the good state is set so that the minute's expected erasure rate
/// is the one drawn for it: with mean burst length `L` and target rate `b`, the mean good run is
/// `L (1 - b) / b` blocks. The chain's state carries over from one minute to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Per-minute erasure rates.
    pub minute: MinuteBler,
    /// Burst lengths.
    pub bursts: BurstMix,
}

impl Profile {
    /// Good signal, like `trace_A` (B1: "more than 96 % of the 1-minute sub-traces have zero
    /// erasures, the rest a BLER below 0.0025"): 97 % clean minutes, the rest uniform up to
    /// 0.0025; bursts as in the poor-signal traces (the dissertation gives no burst statistics
    /// for trace_A).
    pub const GOOD: Profile = Profile {
        minute: MinuteBler::CleanOrUniform {
            p_clean: 0.97,
            max: 0.0025,
        },
        bursts: Self::C_BURSTS,
    };

    /// Poor signal, like `trace_B` (B2: over 30 % of the minutes erasure-free or below BLER
    /// 0.01, the rest up to 0.28; B4: over half the bursts 1 or 2 blocks; B5: under 5 % longer
    /// than 26 blocks).
    pub const POOR_B: Profile = Profile {
        minute: Self::POOR_MINUTES,
        bursts: BurstMix {
            p_short: 0.7,
            short_mean: 1.4,
            long_mean: 15.0,
        },
    };

    /// Poor signal, like `trace_C` (as `trace_B`, with the 95th percentile of the burst length at
    /// 18 blocks, B5).
    pub const POOR_C: Profile = Profile {
        minute: Self::POOR_MINUTES,
        bursts: Self::C_BURSTS,
    };

    /// B2's per-minute rates: 35 % of the minutes below 0.01, the rest log-uniform up to 0.28.
    const POOR_MINUTES: MinuteBler = MinuteBler::LowOrLogUniform {
        p_low: 0.35,
        low: 0.01,
        max: 0.28,
    };

    /// Bursts of trace_C. With 70 % short bursts of mean 1.4 blocks, P(L ≤ 2) ≈ 0.70 (B4 asks
    /// for more than 0.5), and the long component's mean follows from the 95th percentile:
    /// 0.3·(1 - 1/m)^18 = 0.05 gives m = 10.5 (for trace_B, ^26 gives m = 15.0).
    const C_BURSTS: BurstMix = BurstMix {
        p_short: 0.7,
        short_mean: 1.4,
        long_mean: 10.5,
    };

    /// The named profiles: `good` (A-like), `poor-b` and `poor-c`.
    pub fn named(name: &str) -> Option<Profile> {
        match name {
            "good" => Some(Self::GOOD),
            "poor-b" => Some(Self::POOR_B),
            "poor-c" => Some(Self::POOR_C),
            _ => None,
        }
    }

    /// The names [`Profile::named`] knows.
    pub const NAMES: [&'static str; 3] = ["good", "poor-b", "poor-c"];

    fn draw_minute(&self, rng: &mut RngStream) -> f64 {
        self.minute.draw(rng)
    }

    /// A trace of `minutes` whole minutes drawn from the stream `rng`.
    pub fn generate(&self, minutes: usize, rng: &mut RngStream) -> BlockTrace {
        self.generate_with_rates(minutes, rng).0
    }

    /// [`Profile::generate`], with the erasure rate each minute was drawn with.
    pub fn generate_with_rates(
        &self,
        minutes: usize,
        rng: &mut RngStream,
    ) -> (BlockTrace, Vec<f64>) {
        let mut rates = Vec::with_capacity(minutes);
        let mut erased = Vec::with_capacity(minutes * BLOCKS_PER_MINUTE);
        let mean_burst = self.bursts.mean();
        // Blocks of the current burst still to erase (0: the good state).
        let mut burst_left: u64 = 0;
        for _ in 0..minutes {
            let b = self.draw_minute(rng);
            rates.push(b);
            // Leave the good state with probability 1 / mean good run.
            let p_start = if b <= 0.0 {
                0.0
            } else {
                (b / (mean_burst * (1.0 - b))).min(1.0)
            };
            for _ in 0..BLOCKS_PER_MINUTE {
                if burst_left == 0 && p_start > 0.0 && rng.bernoulli(p_start) {
                    let mean = if rng.bernoulli(self.bursts.p_short) {
                        self.bursts.short_mean
                    } else {
                        self.bursts.long_mean
                    };
                    burst_left = rng.geometric(mean);
                }
                if burst_left > 0 {
                    burst_left -= 1;
                    erased.push(true);
                } else {
                    erased.push(false);
                }
            }
        }
        (BlockTrace { erased }, rates)
    }
}

/// Deep fades over a synthetic channel: stretches of `blocks` erased blocks whose starts are a
/// Poisson process of `per_hour` a trace hour, laid over the profile's erasures.
///
/// Ludwig2000 §4.2.3 captured 14 RLP resets, "all of which occurred when the receiver signal
/// strength was extremely low", in the two hours of poor-signal transfers (§3.2.3), and "TCP
/// connections before and after the link reset usually progress without problems": short
/// episodes of no signal inside otherwise usable minutes, which the per-minute profiles (B1-B5
/// are the statistics of the ping traces, §4.3.1) do not contain. A fade longer than RLP's
/// persistency covers (N2 = 6 retransmissions one RLP round trip apart, 2.4 s, §2.4.3) resets
/// a link that is sending. The starts are drawn per link, so both directions of a hop fade
/// together (one radio channel) when both are given the same fades.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepFades {
    /// Fade starts per hour of trace (> 0).
    pub per_hour: f64,
    /// Length of a fade, blocks (≥ 1).
    pub blocks: u32,
}

impl DeepFades {
    /// `trace` with the fades drawn from `rng` laid over it (erased where either is). Starts
    /// are a Poisson process from the trace's first block; a fade that runs past the end is
    /// cut there (the trace repeats).
    pub fn overlay(&self, trace: &BlockTrace, rng: &mut RngStream) -> BlockTrace {
        let mut erased = trace.erased.clone();
        let n = erased.len();
        for start in self.starts(n, rng) {
            erased[start..(start + self.blocks as usize).min(n)].fill(true);
        }
        BlockTrace { erased }
    }

    /// The starts of the fades `overlay` would draw from `rng` for a trace of `n` blocks.
    pub fn starts(&self, n: usize, rng: &mut RngStream) -> Vec<usize> {
        let mean_gap = 3600.0 * f64::from(BLOCKS_PER_SECOND) / self.per_hour;
        let mut out = Vec::new();
        let mut at = 0.0f64;
        loop {
            at += rng.exponential(mean_gap);
            if at as usize >= n {
                return out;
            }
            out.push(at as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_flags_comments_and_blank_lines() {
        let t = BlockTrace::parse("# a trace\n0\n1\n\n 1 \n0\n").unwrap();
        assert_eq!(t.erased(), &[false, true, true, false]);
        assert_eq!(t.erasures(), 2);
        assert_eq!(t.burst_lengths(), vec![2]);
        assert_eq!(BlockTrace::parse(&t.to_text()).unwrap(), t);
    }

    #[test]
    fn parse_names_the_bad_line() {
        let e = BlockTrace::parse("0\n1\n2\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: '2' is not a block (allowed: 0 = received, 1 = erased, # comment)"
        );
        assert_eq!(
            BlockTrace::parse("# only\n").unwrap_err(),
            TraceError::Empty
        );
    }

    #[test]
    fn bursts_and_minutes_are_counted() {
        let mut flags = vec![false; 2 * BLOCKS_PER_MINUTE + 10];
        flags[0] = true;
        flags[5..8].fill(true);
        let last = flags.len() - 1;
        flags[last] = true;
        let t = BlockTrace::new(flags).unwrap();
        assert_eq!(t.burst_lengths(), vec![1, 3, 1]);
        // The last erasure is in the partial third minute, which is left out.
        assert_eq!(t.minute_blers(), vec![4.0 / 3000.0, 0.0]);
    }

    #[test]
    fn even_keeps_the_count_and_isolates_each_erasure() {
        let mut flags = vec![false; 1000];
        flags[100..140].fill(true);
        let t = BlockTrace::new(flags).unwrap();
        let e = t.even();
        assert_eq!(e.erasures(), 40);
        assert!(e.burst_lengths().iter().all(|&l| l == 1));
        let at: Vec<usize> = (0..1000).filter(|&i| e.erased()[i]).collect();
        // Spacing 1000/40 = 25, centred: 12, 37, 62, ...
        assert_eq!(at[0], 12);
        assert!(at.windows(2).all(|w| w[1] - w[0] == 25));
    }

    #[test]
    fn burst_mix_matches_its_closed_form() {
        let c = Profile::POOR_C.bursts;
        assert!((1.0 - c.survival(2) - 0.697).abs() < 0.005);
        assert!((c.survival(18) - 0.05).abs() < 0.003);
        let b = Profile::POOR_B.bursts;
        assert!((b.survival(26) - 0.05).abs() < 0.003);
    }

    #[test]
    fn generation_is_reproducible_and_seed_dependent() {
        let a = Profile::POOR_C.generate(2, &mut RngStream::new(1, "gsm/erasures"));
        let b = Profile::POOR_C.generate(2, &mut RngStream::new(1, "gsm/erasures"));
        let c = Profile::POOR_C.generate(2, &mut RngStream::new(2, "gsm/erasures"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.len(), 2 * BLOCKS_PER_MINUTE);
    }

    #[test]
    fn deep_fades_erase_whole_stretches_at_the_drawn_rate() {
        let clean = BlockTrace::new(vec![false; 600 * BLOCKS_PER_MINUTE]).unwrap();
        let f = DeepFades {
            per_hour: 7.0,
            blocks: 200,
        };
        let starts = f.starts(clean.len(), &mut RngStream::new(3, "gsm/fades"));
        let t = f.overlay(&clean, &mut RngStream::new(3, "gsm/fades"));
        // Ten hours at 7 an hour: 70 expected, inside a Poisson count's 3-sigma band.
        assert!((45..=95).contains(&starts.len()), "{} fades", starts.len());
        // Each fade erases its 200 blocks from its start; overlapping fades merge.
        for &s in &starts {
            assert!(t.erased()[s..(s + 200).min(t.len())].iter().all(|&e| e));
        }
        let bursts = t.burst_lengths();
        assert!(bursts.iter().all(|&b| b >= 200 || t.erased()[t.len() - 1]));
        assert_eq!(t.erasures(), {
            let mut cover = vec![false; t.len()];
            for &s in &starts {
                cover[s..(s + 200).min(t.len())].fill(true);
            }
            cover.iter().filter(|&&c| c).count()
        });
        // The profile's own erasures stay: a fade only adds.
        let base = Profile::POOR_B.generate(5, &mut RngStream::new(1, "gsm/erasures"));
        let over = f.overlay(&base, &mut RngStream::new(3, "gsm/fades"));
        assert!(base
            .erased()
            .iter()
            .zip(over.erased())
            .all(|(&b, &o)| !b || o));
        // Another seed, other starts.
        assert_ne!(
            starts,
            f.starts(clean.len(), &mut RngStream::new(4, "gsm/fades"))
        );
    }
}
