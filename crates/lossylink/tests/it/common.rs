#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Helpers shared by the integration tests.
#![allow(dead_code)]

use lossylink::{run, Metrics, RunOptions, Scenario, Value};

/// A preset with `key=value` overrides.
pub fn scenario(preset: &str, overrides: &[(&str, &str)]) -> Scenario {
    let mut s = Scenario::preset(preset).expect("preset");
    for (k, v) in overrides {
        s.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s
}

/// Metrics for seeds 1..=n.
pub fn seeds(s: &Scenario, n: u64) -> Vec<Metrics> {
    (1..=n)
        .map(|seed| run(s, seed, &RunOptions::default()).expect("run").metrics)
        .collect()
}

/// Mean of a field over runs.
pub fn mean(ms: &[Metrics], f: impl Fn(&Metrics) -> f64) -> f64 {
    ms.iter().map(f).sum::<f64>() / ms.len() as f64
}

/// One cell of the paper's tables: `scheme` on `preset` with a `buffer`-byte socket buffer and
/// one wireless error per 64 KiB (Balakrishnan97 §3.5), seeds 1..=10.
pub fn paper_cell(preset: &str, scheme: &str, buffer: &str) -> Vec<Metrics> {
    let overrides = [
        ("scheme", scheme),
        ("buffer", buffer),
        ("error_every", "64KiB"),
    ];
    seeds(&scenario(preset, &overrides), 10)
}

/// A number from a per-flow, per-link or aggregate row of a `[[flows]]` run.
pub fn num(row: &[(&'static str, Value)], key: &str) -> f64 {
    match row.iter().find(|(k, _)| *k == key).map(|(_, v)| v) {
        Some(Value::Float(x)) => *x,
        Some(Value::Int(x)) => *x as f64,
        other => panic!("{key}: {other:?}"),
    }
}

/// The packets in the buckets of a `[[flows]]` run's account (every `packets_*` aggregate but
/// `packets_created`): equal to `packets_created` when it balances.
pub fn accounted(aggregate: &[(&'static str, Value)]) -> f64 {
    aggregate
        .iter()
        .filter(|(k, _)| k.starts_with("packets_") && *k != "packets_created")
        .map(|(k, _)| num(aggregate, k))
        .sum()
}
