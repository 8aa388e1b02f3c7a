#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The scale group: the dumbbell with 10, 100 and 1000 long-lived NewReno flows over
//! a 10 Mb/s, 1 Gb/s and 10 Gb/s bottleneck, 802.11b DCF cells of 5, 20 and 50 stations, and
//! 1000 SURGE web sessions on the eln5 network, the LL-ELSN study's stalled run, whose SACK
//! scoreboard grows to tens of thousands of segments, and the `gigabit` preset (RACK over SACK
//! with thousands of segments in flight) (`shared/scenarios.rs`, `SCALE`). Criterion
//! times each case; then a summary runs each once and prints events per second, peak memory
//! and the ratio to the reference run's events per second measured in the same process just
//! before and after the case (at least 0.5 on every case is the aim: docs/performance.md).
//!
//! `SCALE_ONLY=SUBSTRING` keeps the cases whose name contains it; `SCALE_SUMMARY_ONLY=1` skips
//! criterion and prints the summary alone.

use criterion::{criterion_group, Criterion};
use lossylink::{run, RunOptions};
use std::time::Instant;

#[path = "shared/scenarios.rs"]
mod scenarios;

fn cases() -> Vec<(&'static str, &'static str)> {
    let only = std::env::var("SCALE_ONLY").unwrap_or_default();
    scenarios::SCALE
        .iter()
        .copied()
        .filter(|(c, _)| c.contains(only.as_str()))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    for (case, duration) in cases() {
        let s = scenarios::scale_case(case, duration).expect("scale case");
        g.bench_function(format!("{case}_{duration}"), |b| {
            b.iter(|| run(&s, 1, &RunOptions::default()).expect("run"))
        });
    }
    g.finish();
}

/// Events of the reference run over `seeds` seeds, with the wall and thread CPU time taken.
fn reference_chunk(seeds: u64) -> (u64, f64, f64) {
    let s = scenarios::reference();
    let (start, cpu) = (Instant::now(), scenarios::thread_cpu_s());
    let mut events = 0u64;
    for seed in 1..=seeds {
        events += run(&s, seed, &RunOptions::default())
            .expect("run")
            .metrics
            .events;
    }
    (
        events,
        start.elapsed().as_secs_f64(),
        scenarios::thread_cpu_s() - cpu,
    )
}

/// Each case once, beside the reference run measured just before and just after it (20 seeds
/// each, after 50 to warm up), so that the ratio compares runs made under the same load: the
/// machine's other work moves both alike. Rates by wall time and by the thread's CPU time (the
/// time the core was this run's; under load the two differ, at rest they agree).
fn summary() {
    let (events, wall, cpu) = reference_chunk(50);
    println!(
        "\nscale group, one run each, one core; reference run {:.1} M events/s by wall time, \
         {:.1} M by CPU time (50 seeds)",
        events as f64 / wall / 1e6,
        events as f64 / cpu / 1e6
    );
    println!(
        "| case | simulated | events | wall | CPU | events/s (CPU) | / reference (CPU) | \
         / reference (wall) | peak memory |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut before = reference_chunk(20);
    for (case, duration) in cases() {
        let s = scenarios::scale_case(case, duration).expect("scale case");
        scenarios::reset_peak_memory();
        let (start, cpu0) = (Instant::now(), scenarios::thread_cpu_s());
        let events = run(&s, 1, &RunOptions::default())
            .expect("run")
            .metrics
            .events;
        let (wall, cpu) = (
            start.elapsed().as_secs_f64(),
            scenarios::thread_cpu_s() - cpu0,
        );
        let peak =
            scenarios::peak_memory().map_or("n/a".into(), |b| format!("{:.0} MB", b as f64 / 1e6));
        let after = reference_chunk(20);
        let (ref_wall, ref_cpu) = (
            (before.0 + after.0) as f64 / (before.1 + after.1),
            (before.0 + after.0) as f64 / (before.2 + after.2),
        );
        let rate = events as f64 / cpu;
        println!(
            "| {case} | {duration} | {events} | {wall:.2} s | {cpu:.2} s | {:.2} M | {:.2} | {:.2} | {peak} |",
            rate / 1e6,
            rate / ref_cpu,
            events as f64 / wall / ref_wall
        );
        before = after;
    }
}

criterion_group!(benches, bench);

fn main() {
    if std::env::var_os("SCALE_SUMMARY_ONLY").is_none() {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
    summary();
}
