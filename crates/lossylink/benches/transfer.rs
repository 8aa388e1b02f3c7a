#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Whole-run benchmark: one 8 MiB transfer of the reference scenario (lan, e2e, one error per
//! 64 KiB, 32 KiB buffer), plus the loss-free and WAN runs. After criterion's timing, prints
//! events per second and wall time per transfer, the figures recorded in closing notes.

use criterion::{criterion_group, Criterion};
use lossylink::{run, RunOptions};
use std::time::Instant;

// The scenarios, shared with `examples/reference.rs` (callgrind).
#[path = "shared/scenarios.rs"]
mod scenarios;
use scenarios::{dcf_cell, dumbbell, reference, transfer};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("transfer_8MiB");
    g.sample_size(30);
    for (name, preset, every) in [
        ("lan_e2e_64KiB", "lan", "64KiB"),
        ("lan_e2e_error_free", "lan", "0"),
        ("wan_e2e_64KiB", "wan", "64KiB"),
    ] {
        let s = transfer(preset, every);
        let mut seed = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                run(&s, seed, &RunOptions::default()).expect("run")
            })
        });
    }
    g.finish();
    // Ten long-lived flows and a Pareto ON/OFF UDP background over the dumbbell's bottleneck
    // for 200 simulated seconds (the networks issue's multi-flow figure).
    let mut g = c.benchmark_group("dumbbell_200s");
    g.sample_size(10);
    let s = dumbbell(10);
    g.bench_function("10_flows", |b| {
        b.iter(|| run(&s, 1, &RunOptions::default()).expect("run"))
    });
    g.finish();
    // A 10-station 802.11b DCF cell with one TCP download per station for 200 s.
    let mut g = c.benchmark_group("dcf_cell_200s");
    g.sample_size(10);
    let s = dcf_cell(10);
    g.bench_function("10_stations", |b| {
        b.iter(|| run(&s, 1, &RunOptions::default()).expect("run"))
    });
    g.finish();
}

/// Events per second over 200 seeds of the reference run, measured outside criterion.
fn summary() {
    let s = reference();
    let start = Instant::now();
    let mut events = 0u64;
    let n = 200;
    for seed in 1..=n {
        events += run(&s, seed, &RunOptions::default())
            .expect("run")
            .metrics
            .events;
    }
    let wall = start.elapsed().as_secs_f64();
    println!(
        "reference run (lan, e2e, 1 error / 64 KiB, 32 KiB buffer, 8 MiB): {:.1} M events/s, {:.3} ms per transfer, {:.0} events per transfer ({} seeds, one core)",
        events as f64 / wall / 1e6,
        wall / n as f64 * 1e3,
        events as f64 / n as f64,
        n
    );
    let s = dumbbell(10);
    let start = Instant::now();
    let events = run(&s, 1, &RunOptions::default())
        .expect("run")
        .metrics
        .events;
    let wall = start.elapsed().as_secs_f64();
    println!(
        "dumbbell, 10 long-lived flows and Pareto background, 200 s: {:.1} M events/s, {:.1} ms per run, {events} events (one core)",
        events as f64 / wall / 1e6,
        wall * 1e3
    );
    let s = dcf_cell(10);
    let start = Instant::now();
    let r = run(&s, 1, &RunOptions::default()).expect("run");
    let wall = start.elapsed().as_secs_f64();
    let events = r.metrics.events;
    let frames: f64 = r.flows.as_ref().map_or(0.0, |f| {
        f.members
            .iter()
            .map(|m| match m[3].1 {
                lossylink::Value::Int(a) => a as f64,
                _ => 0.0,
            })
            .sum()
    });
    println!(
        "802.11b DCF cell, 10 stations with a TCP download each, 200 s: {:.1} M events/s, {:.1} ms per run, {events} events, {:.2} events per MAC attempt (one core)",
        events as f64 / wall / 1e6,
        wall * 1e3,
        events as f64 / frames.max(1.0)
    );
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
