//! Error models of a link direction. Each owns its random stream (house rule 2) and decides, frame
//! by frame, whether the frame is corrupted; the state lives in the enum (house rule 6).
//!
//! - [`ErrorModel::Exponential`]: Balakrishnan97 §3.5. Bit errors occur with exponentially
//!   distributed gaps (mean = 1/BER bits, e.g. 65536·8 bits for "one error every 64 KiB"). The
//!   clock is bits on the air in this direction: each frame consumes its exposed bits, and is
//!   corrupted if an error position falls inside them (further errors inside the same frame are
//!   consumed too). ACKs are hit at their own, smaller size.
//! - [`ErrorModel::Bernoulli`]: each frame is lost independently with probability `p`.
//! - [`ErrorModel::Burst`]: Balakrishnan97 §3.6, §B.3 (burst errors, "between two and six packets
//!   are dropped in every burst", bursts "at an average rate of one every 64 KBytes of data").
//!   Burst starts are placed like the exponential model's bit errors (exponential gaps on the
//!   clock of exposed bits in this direction); the frame hit by a burst start and the next
//!   `length - 1` frames of this direction are corrupted. Error positions that fall inside a burst
//!   are absorbed by it.

use engine::RngStream;

/// Validated configuration of an error model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ErrorModelConfig {
    /// No errors.
    None,
    /// Exponentially distributed bit errors with the given mean gap in bits (> 0, finite).
    Exponential {
        /// Mean distance between bit errors, in bits.
        mean_gap_bits: f64,
    },
    /// Independent per-frame loss with probability `p` in [0, 1].
    Bernoulli {
        /// Loss probability per frame.
        p: f64,
    },
    /// Bursts of `length` (≥ 1) consecutive corrupted frames, starting at exponentially
    /// distributed gaps with the given mean in bits.
    Burst {
        /// Mean distance between burst starts, in bits.
        mean_gap_bits: f64,
        /// Frames per burst.
        length: u32,
    },
}

/// A running error model.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    /// Never corrupts.
    None,
    /// Exponential bit errors.
    Exponential {
        /// Mean gap in bits.
        mean_gap_bits: f64,
        /// Bits consumed so far.
        position: u64,
        /// Index of the next errored bit.
        next_error: u64,
        /// The stream the gaps are drawn from.
        rng: RngStream,
    },
    /// Bursts of consecutive frames.
    Burst {
        /// Mean gap between burst starts in bits.
        mean_gap_bits: f64,
        /// Frames per burst.
        length: u32,
        /// Frames of the current burst still to corrupt.
        remaining: u32,
        /// Bits consumed so far.
        position: u64,
        /// Index of the bit where the next burst starts.
        next_error: u64,
        /// The stream the gaps are drawn from.
        rng: RngStream,
    },
    /// Per-frame Bernoulli loss.
    Bernoulli {
        /// Loss probability.
        p: f64,
        /// The stream the draws come from.
        rng: RngStream,
    },
}

fn gap(rng: &mut RngStream, mean: f64) -> u64 {
    // Round the continuous gap up to whole bits, at least one.
    let g = rng.exponential(mean).ceil();
    if g >= u64::MAX as f64 {
        u64::MAX
    } else {
        (g as u64).max(1)
    }
}

impl ErrorModel {
    /// Start the model described by `cfg` on stream `rng`.
    pub fn new(cfg: ErrorModelConfig, mut rng: RngStream) -> Self {
        match cfg {
            ErrorModelConfig::None => ErrorModel::None,
            ErrorModelConfig::Exponential { mean_gap_bits } => {
                let next_error = gap(&mut rng, mean_gap_bits) - 1;
                ErrorModel::Exponential {
                    mean_gap_bits,
                    position: 0,
                    next_error,
                    rng,
                }
            }
            ErrorModelConfig::Bernoulli { p } => ErrorModel::Bernoulli { p, rng },
            ErrorModelConfig::Burst {
                mean_gap_bits,
                length,
            } => {
                let next_error = gap(&mut rng, mean_gap_bits) - 1;
                ErrorModel::Burst {
                    mean_gap_bits,
                    length,
                    remaining: 0,
                    position: 0,
                    next_error,
                    rng,
                }
            }
        }
    }

    /// A frame exposing `bits` bits to the channel: is it corrupted?
    pub fn frame(&mut self, bits: u64) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Exponential {
                mean_gap_bits,
                position,
                next_error,
                rng,
            } => {
                let end = position.saturating_add(bits);
                let hit = *next_error < end;
                while *next_error < end {
                    *next_error = next_error.saturating_add(gap(rng, *mean_gap_bits));
                }
                *position = end;
                hit
            }
            ErrorModel::Bernoulli { p, rng } => rng.bernoulli(*p),
            ErrorModel::Burst {
                mean_gap_bits,
                length,
                remaining,
                position,
                next_error,
                rng,
            } => {
                let end = position.saturating_add(bits);
                let start = *next_error < end;
                while *next_error < end {
                    *next_error = next_error.saturating_add(gap(rng, *mean_gap_bits));
                }
                *position = end;
                if *remaining > 0 {
                    *remaining -= 1;
                    true
                } else if start {
                    *remaining = length.saturating_sub(1);
                    true
                } else {
                    false
                }
            }
        }
    }

    /// The long-run probability that a frame of `bits` bits is corrupted (closed form).
    pub fn frame_error_probability(cfg: ErrorModelConfig, bits: u64) -> f64 {
        match cfg {
            ErrorModelConfig::None => 0.0,
            ErrorModelConfig::Exponential { mean_gap_bits } => {
                1.0 - (-(bits as f64) / mean_gap_bits).exp()
            }
            ErrorModelConfig::Bernoulli { p } => p,
            // Long-run fraction: k frames per burst, one burst per (k - 1 frames + mean gap).
            ErrorModelConfig::Burst {
                mean_gap_bits,
                length,
            } => {
                let q = 1.0 - (-(bits as f64) / mean_gap_bits).exp();
                let k = f64::from(length);
                k * q / (1.0 + (k - 1.0) * q)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rate(cfg: ErrorModelConfig, bits: u64, frames: u32, seed: u64) -> f64 {
        let mut m = ErrorModel::new(cfg, RngStream::new(seed, "test/errors"));
        (0..frames).filter(|_| m.frame(bits)).count() as f64 / f64::from(frames)
    }

    #[test]
    fn paper_packet_error_rate_at_one_error_per_64_kib() {
        // Balakrishnan97 §3.5: 1476 exposed bytes at one error per 65536 bytes → about 2.2%.
        let cfg = ErrorModelConfig::Exponential {
            mean_gap_bits: 65536.0 * 8.0,
        };
        let expected = ErrorModel::frame_error_probability(cfg, 1476 * 8);
        assert!((expected - 0.0223).abs() < 0.0005, "{expected}");
        let got = rate(cfg, 1476 * 8, 400_000, 1);
        assert!(
            (got - expected).abs() < 0.0015,
            "got {got}, expected {expected}"
        );
    }

    #[test]
    fn none_never_corrupts_and_bernoulli_extremes() {
        assert_eq!(rate(ErrorModelConfig::None, 12000, 1000, 1), 0.0);
        assert_eq!(
            rate(ErrorModelConfig::Bernoulli { p: 0.0 }, 12000, 1000, 1),
            0.0
        );
        assert_eq!(
            rate(ErrorModelConfig::Bernoulli { p: 1.0 }, 12000, 1000, 1),
            1.0
        );
    }

    #[test]
    fn bursts_corrupt_runs_of_exactly_k_frames_at_the_mean_rate() {
        for k in [2u32, 4, 6] {
            let cfg = ErrorModelConfig::Burst {
                mean_gap_bits: 65536.0 * 8.0,
                length: k,
            };
            let mut m = ErrorModel::new(cfg, RngStream::new(7, "test/burst"));
            let hits: Vec<bool> = (0..200_000).map(|_| m.frame(1476 * 8)).collect();
            // Every run of corrupted frames is a multiple of k long (back-to-back bursts merge).
            let mut run = 0u32;
            for &h in hits.iter().chain([false].iter()) {
                if h {
                    run += 1;
                } else {
                    assert_eq!(run % k, 0, "k = {k}");
                    run = 0;
                }
            }
            let rate = hits.iter().filter(|&&h| h).count() as f64 / hits.len() as f64;
            let want = ErrorModel::frame_error_probability(cfg, 1476 * 8);
            assert!(
                (rate - want).abs() < 0.1 * want,
                "k = {k}: {rate} vs {want}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn exponential_long_run_rate_matches_closed_form(
            every_bytes in 2_000u32..300_000, frame_bytes in 40u32..1600, seed in any::<u64>()
        ) {
            let cfg = ErrorModelConfig::Exponential { mean_gap_bits: f64::from(every_bytes) * 8.0 };
            let bits = u64::from(frame_bytes) * 8;
            let p = ErrorModel::frame_error_probability(cfg, bits);
            let n = 60_000u32;
            let got = rate(cfg, bits, n, seed);
            // 5 standard errors of a binomial proportion, plus discretisation slack.
            let tol = 5.0 * (p * (1.0 - p) / f64::from(n)).sqrt() + 1e-4;
            prop_assert!((got - p).abs() <= tol, "got {} expected {} tol {}", got, p, tol);
        }

        #[test]
        fn bernoulli_long_run_rate_matches_p(p in 0.0f64..0.5, seed in any::<u64>()) {
            let n = 40_000u32;
            let got = rate(ErrorModelConfig::Bernoulli { p }, 100, n, seed);
            let tol = 5.0 * (p * (1.0 - p) / f64::from(n)).sqrt() + 1e-4;
            prop_assert!((got - p).abs() <= tol);
        }
    }
}
