#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Ludwig2000 S11 (spec §6, Figs 5-16/5-17, R9): the precise retransmission timer (§5.4.5,
//! REXMT_E = RTO − age of the oldest outstanding segment) against 4.4BSD's restart on every
//! ACK (REXMT_L, §5.3.3), both on the BSD estimator RTO_L. The hiccup testbed with an interface
//! queue of 1 packet: at most 3 segments in flight, so the periodic local drops at the IFQ
//! can only be repaired by timeouts.
//!
//! The mechanism, checked as a band: the restart re-arms the timer with the whole RTO at every
//! ACK, so each timeout fires later by the age the oldest outstanding segment had at the last
//! ACK: more than nothing, less than one round trip. The time the precise timer saves per
//! timeout therefore lies in (0, RTT], and the throughput gain in (1, 1 + n·RTT / T_precise]
//! for n timeouts. The dissertation measured "almost 30 %" (spec RT7: +20 to +40 %); the gain
//! measured here is about 15 % (0.53 s saved per timeout against a median RTT sample of 0.87 s),
//! a deviation docs/ludwig2000.md keeps open (the S11 target fails in `reproduce`).

use crate::common;
use common::scenario;
use lossylink::Column;
use lossylink::{run, Metrics, RunOptions};

/// The metrics and the median RTT sample (s) of the run.
fn s11(rexmt: &str) -> (Metrics, f64) {
    let s = scenario(
        "hiccup",
        &[("hops.0.forward.queue", "1"), ("tcp.rexmt", rexmt)],
    );
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    let trace = r.trace.expect("traced");
    let rtt = trace.tables.iter().find(|t| t.name == "rtt").unwrap();
    let Some((_, Column::F64(samples))) = rtt.columns.iter().find(|c| c.0 == "rtt_s") else {
        panic!("rtt_s column");
    };
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    (r.metrics, sorted[sorted.len() / 2])
}

#[test]
fn s11_the_precise_timer_recovers_the_periodic_ifq_drops_sooner() {
    let ((restart, _), (precise, rtt)) = (s11("restart"), s11("precise"));
    // The same losses, all repaired by timeouts (no fast retransmit with 3 segments).
    for m in [&restart, &precise] {
        assert!(m.sender_local_drops >= 20, "{}", m.sender_local_drops);
        assert_eq!(m.sender_timeouts, m.sender_local_drops);
        assert_eq!(m.sender_fast_retransmits, 0);
        assert_eq!(m.receiver_duplicate_segments, 0, "no timeout was spurious");
    }
    assert_eq!(restart.sender_local_drops, precise.sender_local_drops);
    let n = precise.sender_timeouts as f64;
    let saved = (restart.completion_s - precise.completion_s) / n;
    assert!(
        saved > 0.0 && saved <= rtt,
        "saved {saved:.3} s per timeout, outside (0, RTT = {rtt:.3} s]"
    );
    let gain = precise.throughput_mbps / restart.throughput_mbps;
    let most = 1.0 + n * rtt / precise.completion_s;
    assert!(
        gain > 1.0 && gain <= most,
        "gain {gain:.3} outside (1, {most:.3}], the band of the mechanism"
    );
    // Below the dissertation's +20-40 % (spec RT7): a known deviation. If it reaches the range,
    // this fails so that the deviation is taken off the books (docs/ludwig2000.md, S11).
    assert!(gain < 1.20, "gain {gain:.3} now within RT7's +20-40 %");
}
