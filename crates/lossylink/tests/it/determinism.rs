#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Same scenario and seed ⇒ identical results and traces; seeds give independent runs;
//! a knob that does not touch the channel leaves the channel's losses unchanged.

use crate::common;
use common::scenario;
use lossylink::{run, run_reporting, Metrics, Progress, RunOptions};

fn strip(mut m: Metrics) -> Metrics {
    m.wall_s = 0.0;
    m
}

#[test]
fn same_seed_same_everything() {
    let s = scenario("lan", &[]);
    let a = run(&s, 42, &RunOptions::traced()).unwrap();
    let b = run(&s, 42, &RunOptions::traced()).unwrap();
    assert_eq!(strip(a.metrics.clone()), strip(b.metrics));
    assert_eq!(a.trace, b.trace);
    let c = run(&s, 43, &RunOptions::default()).unwrap();
    assert_ne!(strip(a.metrics).throughput_mbps, c.metrics.throughput_mbps);
}

#[test]
fn tracing_does_not_change_results() {
    let s = scenario("wan", &[]);
    let a = run(&s, 7, &RunOptions::traced()).unwrap();
    let b = run(&s, 7, &RunOptions::default()).unwrap();
    assert_eq!(strip(a.metrics), strip(b.metrics));
    let t = a.trace.unwrap();
    assert_eq!(t.tables.len(), 4, "sender, events, rtt, receiver");
    for table in &t.tables {
        let lens: Vec<usize> = table
            .columns
            .iter()
            .map(|(_, c)| match c {
                lossylink::Column::F64(v) => v.len(),
                lossylink::Column::I64(v) => v.len(),
                lossylink::Column::Str(v) => v.len(),
            })
            .collect();
        assert!(
            lens.iter().all(|l| *l == lens[0] && *l > 0),
            "{}: {lens:?}",
            table.name
        );
    }
}

#[test]
fn error_free_runs_do_not_depend_on_the_seed_beyond_timer_phases() {
    let s = scenario("lan", &[("error_every", "0")]);
    let a = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    let b = run(&s, 2, &RunOptions::default()).unwrap().metrics;
    assert_eq!(a.sender_segments, b.sender_segments);
    assert_eq!(a.corrupted_data_frames + b.corrupted_data_frames, 0);
}

/// Reporting progress slices the run's pops by simulated time and nothing else: the events,
/// their order (the fingerprint) and the results are those of a plain run, for a run that ends
/// at its duration and for one that ends when its flow completes; the progress read after the
/// run is the last slice's.
#[test]
fn reporting_progress_does_not_change_the_run() {
    let opts = RunOptions {
        fingerprint: true,
        ..RunOptions::traced()
    };
    for (preset, sets) in [
        (
            "dumbbell",
            vec![("run.warmup", "1s"), ("run.duration", "3s")],
        ),
        ("lan", vec![]),
    ] {
        let s = scenario(preset, &sets);
        let plain = run(&s, 7, &opts).unwrap();
        let p = Progress::new();
        let seen = run_reporting(&s, 7, &opts, Some(&p)).unwrap();
        assert_eq!(plain.fingerprint, seen.fingerprint, "{preset}");
        assert_eq!(
            strip(plain.metrics.clone()),
            strip(seen.metrics.clone()),
            "{preset}"
        );
        assert_eq!(plain.trace, seen.trace, "{preset}");
        assert!(p.limit().0 > 0, "{preset}");
        assert!(p.now().0 > 0 && p.now() <= p.limit(), "{preset}");
        assert!(
            p.events() > 0 && p.events() <= seen.metrics.events,
            "{preset}"
        );
    }
}
