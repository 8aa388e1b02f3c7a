//! The runs of the speed figures, for instruction counts under callgrind:
//!
//! - `reference [SEEDS]`: the reference run, 20 `lan` seeds (or SEEDS), `e2e`, one error per
//!   64 KiB, 32 KiB buffer, 8 MiB each;
//! - `reference dumbbell`: the dumbbell with ten long-lived flows and Pareto ON/OFF background
//!   for 200 s, as `make bench` runs it;
//! - `reference cell`: the ten-station 802.11b DCF cell with a TCP download per station for
//!   200 s, as `make bench` runs it;
//! - `reference llelsn`: the LL-ELSN study's preset (an 802.11b cell, ESACK) for 30 s.
//!
//! ```text
//! cargo build --release -p lossylink --example reference
//! valgrind --tool=callgrind target/release/examples/reference [SEEDS|dumbbell|cell|llelsn]
//! ```
//!
//! Prints the events simulated (the same on every machine) so a change to the event count
//! shows beside the instruction count.

use lossylink::{run, RunOptions, Scenario};

#[path = "../benches/shared/scenarios.rs"]
mod scenarios;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = std::env::args().nth(1);
    let (scenario, seeds): (Scenario, u64) = match arg.as_deref() {
        Some("dumbbell") => (scenarios::dumbbell(10), 1),
        Some("cell") => (scenarios::dcf_cell(10), 1),
        Some("llelsn") => {
            let mut s = Scenario::preset("llelsn")?;
            s.set("run.duration", "30s")?;
            (s, 1)
        }
        other => {
            let seeds = match other {
                Some(s) => s.parse().map_err(|_| {
                    format!(
                        "reference: expected a number of seeds, `dumbbell`, `cell` or `llelsn`, not `{s}`"
                    )
                })?,
                None => 20,
            };
            (scenarios::reference(), seeds)
        }
    };
    let mut events = 0;
    for seed in 1..=seeds {
        events += run(&scenario, seed, &RunOptions::default())?.metrics.events;
    }
    println!("{seeds} runs, {events} events");
    Ok(())
}
