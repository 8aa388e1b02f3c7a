#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Balakrishnan97 Figure 8: "the utility of ELN in preventing rapid fluctuations, thereby
//! maintaining a larger average congestion window size" — read from the cwnd trace of the WAN
//! runs of Figure 7/8 (E2E against E2E-ELN, 32 KiB buffer, one error per 64 KiB).

use crate::common;
use common::scenario;
use lossylink::{run, Column, RunOptions};

/// Time-weighted mean cwnd and the number of window halvings (drops of at least 40%) seen in
/// the `sender` trace table.
fn cwnd_profile(scheme: &str, seed: u64) -> (f64, usize) {
    let s = scenario("wan", &[("scheme", scheme)]);
    let r = run(&s, seed, &RunOptions::traced()).unwrap();
    let t = r.trace.unwrap();
    let table = t.tables.iter().find(|t| t.name == "sender").unwrap();
    let col = |name: &str| &table.columns.iter().find(|c| c.0 == name).unwrap().1;
    let (Column::F64(time), Column::I64(cwnd)) = (col("time_s"), col("cwnd")) else {
        panic!("column types")
    };
    let mut area = 0.0;
    let mut cuts = 0;
    for i in 1..time.len() {
        area += (time[i] - time[i - 1]) * cwnd[i - 1] as f64;
        if (cwnd[i] as f64) < 0.6 * cwnd[i - 1] as f64 {
            cuts += 1;
        }
    }
    (area / (time[time.len() - 1] - time[0]), cuts)
}

#[test]
fn eln_keeps_the_window_large_where_reno_halves_it() {
    for seed in 1..=3 {
        let (reno_mean, reno_cuts) = cwnd_profile("e2e", seed);
        let (eln_mean, eln_cuts) = cwnd_profile("e2e-eln", seed);
        eprintln!("seed {seed}: e2e mean cwnd {reno_mean:.0} B, {reno_cuts} cuts; e2e-eln {eln_mean:.0} B, {eln_cuts} cuts");
        assert!(
            eln_mean > 1.5 * reno_mean,
            "seed {seed}: ELN mean cwnd {eln_mean:.0} vs Reno {reno_mean:.0}"
        );
        // ELN cuts the window only at coarse timeouts; Reno at every fast retransmit too.
        assert!(
            2 * eln_cuts < reno_cuts,
            "seed {seed}: {eln_cuts} ELN cuts vs {reno_cuts} Reno cuts"
        );
    }
}
