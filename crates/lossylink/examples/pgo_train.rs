//! The training workload of the profile-guided build (`.ci/pgo`, docs/performance.md): a
//! mix of what users run, so that the profile weighs the event loop's paths as real runs do.
//!
//! ```text
//! RUSTFLAGS=-Cprofile-generate=DIR cargo build --release -p lossylink --example pgo_train
//! target/release/examples/pgo_train
//! ```
//!
//! The reference run's scenario (lan, e2e, one error per 64 KiB) is there, but not alone:
//! the base-station agents (snoop, link-layer ARQ, split), SACK and the modern profile on
//! the WAN, the dumbbell's ten flows with Pareto background, an 802.11b DCF cell, the LL-ELSN
//! study's cell and a GSM link. A profile trained on one scenario only would make the others
//! slower than the plain build.

use lossylink::{run, RunOptions, Scenario};

/// One part of the mix: a preset, its `set` overrides and how many seeds to run.
type Part = (&'static str, &'static [(&'static str, &'static str)], u64);

/// What the training runs, in order.
const MIX: &[Part] = &[
    ("lan", &[("error_every", "64KiB")], 20),
    (
        "lan",
        &[("error_every", "16KiB"), ("scheme", "e2e-newreno")],
        4,
    ),
    (
        "lan",
        &[("error_every", "32KiB"), ("scheme", "ll-tcp-aware")],
        4,
    ),
    (
        "lan",
        &[("error_every", "32KiB"), ("scheme", "ll-smart")],
        2,
    ),
    (
        "lan",
        &[("error_every", "32KiB"), ("scheme", "e2e-ietf-sack")],
        2,
    ),
    ("lan", &[("error_every", "32KiB"), ("scheme", "split")], 2),
    ("lan", &[("error_every", "32KiB"), ("scheme", "e2e-eln")], 2),
    ("lan", &[("error_every", "0")], 2),
    ("wan", &[("error_every", "64KiB")], 4),
    (
        "wan",
        &[("error_every", "64KiB"), ("scheme", "e2e+modern")],
        2,
    ),
    (
        "wan",
        &[("error_every", "64KiB"), ("scheme", "e2e-cubic")],
        2,
    ),
    ("wlan", &[], 2),
    ("gsm", &[], 1),
    ("llelsn", &[("run.duration", "30s")], 2),
    (
        "llelsn",
        &[("run.duration", "30s"), ("scheme", "snoop-newreno")],
        1,
    ),
    ("dumbbell", &[("run.duration", "30s")], 1),
];

/// Run the mix once and print how many runs and events it took.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut events = 0;
    let mut runs = 0;
    for &(preset, overrides, seeds) in MIX {
        let mut s = Scenario::preset(preset)?;
        for &(key, value) in overrides {
            s.set(key, value)?;
        }
        for seed in 1..=seeds {
            events += run(&s, seed, &RunOptions::default())?.metrics.events;
            runs += 1;
        }
    }
    println!("{runs} training runs, {events} events");
    Ok(())
}
