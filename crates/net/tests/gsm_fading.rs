#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The fading block-erasure channel (`net::medium::gsm::fading`): one test per statistic the
//! dissertation publishes of its traces (RT28's per-minute rates and burst lengths, and the
//! largest number of retransmissions of one RLP frame, §2.4.3). The burst statistics chose the
//! channel's parameters on a grid of numpy draws (docs/examples/fading_erasures.py); on the
//! simulator's own draws they miss, and the tests pin what is measured so that a change shows:
//! B4 (more than half the bursts 1-2 blocks) and the 12-retransmission maximum are *not* met
//! (docs/ludwig2000.md, "A fading channel"). The retrace results are predictions, graded by
//! `lossylink reproduce ludwig2000 --only retrace`, not here.

use engine::RngStream;
use net::medium::gsm::erasure::BlockTrace;
use net::medium::gsm::fading::{max_retransmissions, Fading};
use std::sync::OnceLock;

const MINUTES: usize = 60;
const SEEDS: [u64; 2] = [1, 2];

/// The traces of [`SEEDS`], drawn once for all the tests (each takes seconds to draw).
fn trace(seed: u64) -> &'static BlockTrace {
    static TRACES: OnceLock<Vec<BlockTrace>> = OnceLock::new();
    let all = TRACES.get_or_init(|| {
        SEEDS
            .iter()
            .map(|&s| {
                Fading::POOR_C.generate(MINUTES, &mut RngStream::new(s, "gsm/fading-c/erasures"))
            })
            .collect()
    });
    &all[SEEDS
        .iter()
        .position(|&s| s == seed)
        .expect("a seed of SEEDS")]
}

fn sorted_bursts(t: &BlockTrace) -> Vec<u32> {
    let mut b = t.burst_lengths();
    b.sort_unstable();
    b
}

/// B2 by construction: each minute erases its drawn share of blocks, at most 0.28; the share
/// of minutes below 0.01 is a draw around the profile's 35 %.
#[test]
fn per_minute_erasure_rates() {
    for seed in SEEDS {
        let m = trace(seed).minute_blers();
        let low = m.iter().filter(|&&b| b < 0.01).count() as f64 / m.len() as f64;
        let max = m.iter().copied().fold(0.0, f64::max);
        eprintln!("seed {seed}: minutes below 0.01 {low:.3}, worst {max:.3}");
        assert!((0.15..=0.6).contains(&low), "seed {seed}: {low}");
        assert!((0.2..=0.2804).contains(&max), "seed {seed}: {max}");
    }
}

/// B4 asks for more than half of the bursts to be 1 or 2 blocks long; measured 0.47 (seed 1):
/// not met (known).
#[test]
fn short_bursts() {
    for seed in SEEDS {
        let b = sorted_bursts(trace(seed));
        let short = b.iter().filter(|&&l| l <= 2).count() as f64 / b.len() as f64;
        eprintln!("seed {seed}: bursts of 1-2 blocks {short:.3}");
        assert!((0.40..=0.60).contains(&short), "seed {seed}: {short}");
    }
}

/// B5: the 95th percentile of the burst length at 18 blocks (trace_C); measured 23 (seed 1),
/// within 30 %.
#[test]
fn burst_length_95th_percentile() {
    for seed in SEEDS {
        let b = sorted_bursts(trace(seed));
        let p95 = f64::from(b[b.len() * 95 / 100]);
        eprintln!("seed {seed}: 95th percentile {p95}");
        assert!((12.6..=23.4).contains(&p95), "seed {seed}: {p95}");
    }
}

/// §2.4.3: "the highest number of retransmissions for a single RLP frame was 12"; the fading
/// channel's deep shadowed fades need more (25 on seed 1, retransmissions one RLP round trip
/// apart): not met (known).
#[test]
fn largest_number_of_retransmissions_of_one_frame() {
    for seed in SEEDS {
        let n = max_retransmissions(trace(seed), 20);
        eprintln!("seed {seed}: most retransmissions of one frame {n}");
        assert!((13..=40).contains(&n), "seed {seed}: {n}");
    }
}
