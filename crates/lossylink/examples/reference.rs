//! The reference run of the speed figures (issue 21), for instruction counts under callgrind:
//! 20 `lan` seeds, `e2e`, one error per 64 KiB, 32 KiB buffer, 8 MiB each.
//!
//! ```text
//! cargo build --release -p lossylink --example reference
//! valgrind --tool=callgrind target/release/examples/reference
//! ```
//!
//! Prints the events simulated (the same on every machine) so a change to the event count
//! shows beside the instruction count.

use lossylink::{run, RunOptions, Scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seeds: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(20);
    let mut s = Scenario::preset("lan")?;
    s.set("error_every", "64KiB")?;
    let mut events = 0;
    for seed in 1..=seeds {
        events += run(&s, seed, &RunOptions::default())?.metrics.events;
    }
    println!("{seeds} runs, {events} events");
    Ok(())
}
