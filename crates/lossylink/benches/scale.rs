#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The scale group: the dumbbell with 10, 100 and 1000 long-lived NewReno flows over
//! a 10 Mb/s, 1 Gb/s and 10 Gb/s bottleneck, 802.11b DCF cells of 5, 20 and 50 stations, and
//! 1000 SURGE web sessions on the eln5 network, the LL-ELSN study's stalled run, whose SACK
//! scoreboard grows to tens of thousands of segments, and the `gigabit` preset (RACK over SACK
//! with thousands of segments in flight) (`shared/scenarios.rs`, `SCALE`). Criterion
//! times each case; then a summary runs each case (`SCALE_REPEATS` times) and prints events per
//! second, peak memory and the ratio to the reference run's events per second measured in the
//! same process just before and after each run (at least 0.5 on every case is the aim:
//! docs/performance.md).
//!
//! `SCALE_ONLY=SUBSTRING` keeps the cases whose name contains it; `SCALE_SUMMARY_ONLY=1` skips
//! criterion and prints the summary alone; `SCALE_REPEATS=N` runs each case N times in the
//! summary (default 3), each beside its own reference runs, and prints the medians and the
//! range of the ratio: one run of a second on a shared machine moves the ratio by a fifth.

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

/// The median of `v` (the upper one of an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Each case `SCALE_REPEATS` times, each run beside the reference run measured just before and
/// just after it (20 seeds each, after 50 to warm up), so that the ratio compares runs made
/// under the same load: the machine's other work moves both alike. Rates by wall time and by
/// the thread's CPU time (the time the core was this run's; under load the two differ, at rest
/// they agree); the medians over the repeats, and the range of the CPU-time ratio.
fn summary() {
    let repeats: usize = match std::env::var("SCALE_REPEATS") {
        Ok(v) => match v.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!(
                    "SCALE_REPEATS: `{v}` is not allowed: a whole number of runs, at least 1"
                );
                std::process::exit(2);
            }
        },
        Err(_) => 3,
    };
    let (events, wall, cpu) = reference_chunk(50);
    println!(
        "\nscale group, {repeats} run(s) each, medians, one core; reference run {:.1} M events/s \
         by wall time, {:.1} M by CPU time (50 seeds)",
        events as f64 / wall / 1e6,
        events as f64 / cpu / 1e6
    );
    println!(
        "| case | simulated | events | wall | CPU | events/s (CPU) | / reference (CPU) | \
         range | / reference (wall) | peak memory |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut before = reference_chunk(20);
    for (case, duration) in cases() {
        let s = scenarios::scale_case(case, duration).expect("scale case");
        let (mut walls, mut cpus, mut by_cpu, mut by_wall) = (vec![], vec![], vec![], vec![]);
        let (mut events, mut peak) = (0, u64::MAX);
        for _ in 0..repeats {
            scenarios::reset_peak_memory();
            let (start, cpu0) = (Instant::now(), scenarios::thread_cpu_s());
            events = run(&s, 1, &RunOptions::default())
                .expect("run")
                .metrics
                .events;
            let (wall, cpu) = (
                start.elapsed().as_secs_f64(),
                scenarios::thread_cpu_s() - cpu0,
            );
            peak = peak.min(scenarios::peak_memory().unwrap_or(0));
            let after = reference_chunk(20);
            let (ref_wall, ref_cpu) = (
                (before.0 + after.0) as f64 / (before.1 + after.1),
                (before.0 + after.0) as f64 / (before.2 + after.2),
            );
            walls.push(wall);
            cpus.push(cpu);
            by_cpu.push(events as f64 / cpu / ref_cpu);
            by_wall.push(events as f64 / wall / ref_wall);
            before = after;
        }
        let (lo, hi) = by_cpu
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &r| (l.min(r), h.max(r)));
        let cpu = median(cpus);
        println!(
            "| {case} | {duration} | {events} | {:.2} s | {cpu:.2} s | {:.2} M | {:.2} | {lo:.2}-{hi:.2} | {:.2} | {} |",
            median(walls),
            events as f64 / cpu / 1e6,
            median(by_cpu),
            median(by_wall),
            if peak > 0 && peak < u64::MAX { format!("{:.0} MB", peak as f64 / 1e6) } else { "n/a".into() }
        );
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
