#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Ludwig2000 S13 (spec §6, §2.4.2, §4.1.4): intermittent connectivity, "disconnections on the
//! order of seconds without losing data" as in packet-radio networks, where the dissertation
//! claims Eifel's gain of "several tens of percent". The dissertation gives no parameters; we
//! hold the WAN preset's wireless hop (data direction, link stage) for 5 s every 10 s, twelve
//! times, during an error-free 8 MiB transfer.

use crate::common;
use common::scenario;
use lossylink::{run, Metrics, RunOptions};

fn holds(n: u32, first_s: u32, every_s: u32, dur_s: u32) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{ kind = "hold", at = "{}s", duration = "{dur_s}s" }}"#,
                first_s + i * every_s
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn transfer(scheme: &str) -> Metrics {
    let h = holds(12, 5, 10, 5);
    let s = scenario(
        "wan",
        &[
            ("scheme", scheme),
            ("error_every", "0"),
            ("hops.2.forward.hiccups", h.as_str()),
        ],
    );
    run(&s, 1, &RunOptions::default()).unwrap().metrics
}

#[test]
fn s13_eifel_gains_tens_of_percent_under_intermittent_connectivity() {
    let reno = transfer("e2e");
    let eifel = transfer("e2e+eifel");
    // Every outage ends in a spurious timeout; plain Reno goes back N each time.
    assert!(reno.sender_timeouts >= 8, "{}", reno.sender_timeouts);
    assert_eq!(reno.sender_spurious_timeouts, 0);
    assert!(
        reno.sender_retransmitted_segments >= 10 * reno.sender_timeouts,
        "go-back-N: {} segments for {} timeouts",
        reno.sender_retransmitted_segments,
        reno.sender_timeouts
    );
    // Eifel detects each, resends one segment for it, and keeps the window.
    assert_eq!(eifel.sender_spurious_timeouts, eifel.sender_timeouts);
    assert_eq!(eifel.sender_retransmitted_segments, eifel.sender_timeouts);
    let gain = eifel.throughput_mbps / reno.throughput_mbps;
    assert!(gain >= 1.2, "gain {gain}");
}
