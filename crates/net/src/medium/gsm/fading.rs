//! A block-erasure channel from a fading process (Ludwig2000 §2.4.4, §4.3; spec §10.4).
//!
//! [`super::erasure::Profile`] places a minute's erasures as independent bursts; the dissertation's
//! retrace results say its traces were clustered below the minute scale. Here the clustering
//! comes from the radio channel instead: Rayleigh fading by a sum of sinusoids (Jakes; 16
//! oscillators with random arrival angles and phases) at a maximum Doppler frequency
//! `doppler_hz` (GSM at 900 MHz, λ = 0.33 m: 2.5 Hz at 3 km/h), times log-normal shadowing
//! (`shadow_db`, an AR(1) process per block with correlation `shadow_blocks`). The channel is
//! sampled every 2 ms; a block's power is the mean over the interleaving window of `window_ms`
//! that ends with the block. Within each minute the blocks of lowest power are erased, as many as
//! the minute's erasure rate drawn as [`MinuteBler`] draws it (the per-minute statistics, B1/B2).
//!
//! Calibration uses only what the dissertation publishes of its traces (RT28): the per-minute
//! rates (through [`MinuteBler`]) and the burst lengths (B4: more than half of 1-2 blocks; B5:
//! the 95th percentile at 18 blocks for trace_C). The four channel parameters were chosen on a
//! grid against B4 and B5 alone (`docs/examples/fading_erasures.py`, docs/ludwig2000.md); the
//! retrace results (Fig 4-13, Tab 4-14, Figs 4-15, 4-16) are predictions. The largest number of
//! retransmissions of one RLP frame (§2.4.3 footnote: 12) is checked, not fitted. Deliberate
//! status: the chosen point misses B4 and the 12-retransmission maximum on the simulator's own
//! draws ([`Fading::POOR_C`]); the profile is offered for the comparison, not as calibrated.

use super::erasure::{BlockTrace, MinuteBler, BLOCKS_PER_MINUTE};
use engine::RngStream;

/// Channel samples per 20 ms block (one every 2 ms).
const SAMPLES_PER_BLOCK: usize = 10;
/// Sample spacing, seconds.
const SAMPLE_S: f64 = 0.002;
/// Sinusoids of the Jakes sum.
const OSCILLATORS: usize = 16;

/// A fading block-erasure channel (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fading {
    /// Per-minute erasure rates.
    pub minute: MinuteBler,
    /// Maximum Doppler frequency, Hz.
    pub doppler_hz: f64,
    /// Interleaving window a block's power is averaged over, ms (a multiple of 2).
    pub window_ms: u32,
    /// Standard deviation of the shadowing, dB.
    pub shadow_db: f64,
    /// Correlation length of the shadowing, blocks.
    pub shadow_blocks: f64,
}

impl Fading {
    /// trace_C-like: the poor profiles' per-minute rates; 3 Hz (900 MHz at 3.6 km/h), a 30 ms
    /// window, 16 dB of shadowing correlated over 250 blocks (5 s): the grid point whose burst
    /// statistics met B4 and B5 for trace_C on a 20-minute numpy draw (51 % of bursts 1-2
    /// blocks, 95th percentile 18). On the simulator's own draws it gives 47 % and 23 blocks
    /// (seed 1, 60 minutes), and up to 25 retransmissions of one frame against the
    /// dissertation's 12 (crates/net/tests/gsm_fading.rs): an experimental channel, not a
    /// calibrated one.
    pub const POOR_C: Fading = Fading {
        minute: MinuteBler::LowOrLogUniform {
            p_low: 0.35,
            low: 0.01,
            max: 0.28,
        },
        doppler_hz: 3.0,
        window_ms: 30,
        shadow_db: 16.0,
        shadow_blocks: 250.0,
    };

    /// The named fading channels: `fading-c`.
    pub fn named(name: &str) -> Option<Fading> {
        match name {
            "fading-c" => Some(Self::POOR_C),
            _ => None,
        }
    }

    /// The names [`Fading::named`] knows.
    pub const NAMES: [&'static str; 1] = ["fading-c"];

    /// A trace of `minutes` whole minutes drawn from the stream `rng`.
    pub fn generate(&self, minutes: usize, rng: &mut RngStream) -> BlockTrace {
        let two_pi = 2.0 * std::f64::consts::PI;
        let osc: Vec<(f64, f64)> = (0..OSCILLATORS)
            .map(|_| {
                let angle = two_pi * rng.unit_open0();
                let phase = two_pi * rng.unit_open0();
                (two_pi * self.doppler_hz * libm::cos(angle), phase)
            })
            .collect();
        let window = ((self.window_ms as usize) / 2).max(1);
        let a = libm::exp(-1.0 / self.shadow_blocks.max(1e-9));
        let innov = libm::sqrt(1.0 - a * a);
        let mut shadow = rng.normal();
        // The last `window` sample powers, oldest first.
        let mut recent: std::collections::VecDeque<f64> = std::collections::VecDeque::new();
        let mut sum = 0.0;
        let mut erased = Vec::with_capacity(minutes * BLOCKS_PER_MINUTE);
        let mut power = vec![0.0; BLOCKS_PER_MINUTE];
        let mut sample = 0u64;
        for _ in 0..minutes {
            let b = self.minute.draw(rng);
            for p in power.iter_mut() {
                shadow = a * shadow + innov * rng.normal();
                let gain = libm::pow(10.0, self.shadow_db * shadow / 10.0);
                for _ in 0..SAMPLES_PER_BLOCK {
                    let t = sample as f64 * SAMPLE_S;
                    sample += 1;
                    let (mut re, mut im) = (0.0, 0.0);
                    for &(w, phase) in &osc {
                        re += libm::cos(w * t + phase);
                        im += libm::sin(w * t + phase);
                    }
                    let s = gain * (re * re + im * im) / OSCILLATORS as f64;
                    recent.push_back(s);
                    sum += s;
                    if recent.len() > window {
                        sum -= recent.pop_front().unwrap_or(0.0);
                    }
                }
                *p = sum / recent.len() as f64;
            }
            // Erase the minute's `round(b · 3000)` blocks of lowest power (ties: earlier first).
            let k = libm::round(b * BLOCKS_PER_MINUTE as f64) as usize;
            let mut order: Vec<usize> = (0..BLOCKS_PER_MINUTE).collect();
            order.sort_by(|&i, &j| power[i].total_cmp(&power[j]).then(i.cmp(&j)));
            let mut minute = vec![false; BLOCKS_PER_MINUTE];
            for &i in order.iter().take(k.min(BLOCKS_PER_MINUTE)) {
                minute[i] = true;
            }
            erased.extend(minute);
        }
        // `minutes` ≥ 1 gives a non-empty trace; with 0 the empty trace is the caller's choice.
        BlockTrace::from_flags(erased)
    }
}

/// The largest number of times one RLP frame of one block is sent again on `trace` when each
/// retransmission goes out `spacing` blocks after the previous attempt (one RLP round trip,
/// 400 ms = 20 blocks) and fails whenever its block is erased (the §2.4.3 footnote's statistic:
/// 12 on the dissertation's traces).
pub fn max_retransmissions(trace: &BlockTrace, spacing: usize) -> u32 {
    let e = trace.erased();
    let mut run = vec![0u32; e.len()];
    let mut best = 0;
    for i in (0..e.len()).rev() {
        if e[i] {
            let next = run.get(i + spacing.max(1)).copied().unwrap_or(0);
            run[i] = 1 + next;
            best = best.max(run[i]);
        }
    }
    // A frame first sent into an erased block needs as many retransmissions as the erased
    // attempts in its chain.
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minute_erases_exactly_its_drawn_share() {
        let f = Fading {
            minute: MinuteBler::CleanOrUniform {
                p_clean: 0.0,
                max: 0.2,
            },
            ..Fading::POOR_C
        };
        let t = f.generate(2, &mut RngStream::new(1, "fading"));
        assert_eq!(t.len(), 2 * BLOCKS_PER_MINUTE);
        for m in t.minute_blers() {
            assert!(m > 0.0 && m <= 0.2, "{m}");
        }
        assert_eq!(t, f.generate(2, &mut RngStream::new(1, "fading")));
    }

    #[test]
    fn retransmissions_follow_the_erasures_one_round_trip_apart() {
        let mut flags = vec![false; 100];
        for i in [0, 20, 40, 41, 60] {
            flags[i] = true;
        }
        let t = BlockTrace::new(flags).unwrap();
        // 0, 20, 40, 60 erased: four attempts fail, four retransmissions.
        assert_eq!(max_retransmissions(&t, 20), 4);
        assert_eq!(max_retransmissions(&t, 1), 2);
    }
}
