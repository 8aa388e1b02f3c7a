#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! A loss-free run never times out: for every profile, initial window 1-10 and
//! delayed-ACK setting the profile accepts, on the LAN and WAN testbeds with no errors. A
//! timeout there is a timer that fires before the ACK its receiver is entitled to delay (RFC
//! 6298 §2.4 asks for a 1 s minimum RTO for that reason; Linux pairs its 200 ms with quick-ack).
//!
//! The negative control: the `modern` profile with the 200 ms floor it used to have, over a
//! receiver that delays every ACK up to 200 ms, does time out on a lone segment (initial
//! window 1).

use crate::common;
use common::scenario;
use lossylink::{run, RunOptions};

/// Sender timeouts of one loss-free 256 KiB transfer.
fn timeouts(preset: &str, extra: &[(&str, &str)]) -> Option<u64> {
    let mut o = vec![("error_every", "0"), ("transfer", "256KiB")];
    o.extend_from_slice(extra);
    let mut s = lossylink::Scenario::preset(preset).unwrap();
    for (k, v) in o.iter().filter(|(_, v)| !v.is_empty()) {
        // A combination a profile refuses (the slow-timer ACKs outside bsd) is not a run.
        if s.set(k, v).is_err() {
            return None;
        }
    }
    // (A tail-loss probe of RACK-TLP may still resend a segment whose ACK is delayed: a probe,
    // not a timeout; RFC 8985 §7.2 adds the delayed-ACK time to the probe's timer only with one
    // segment in flight.)
    Some(
        run(&s, 1, &RunOptions::default())
            .ok()?
            .metrics
            .sender_timeouts,
    )
}

#[test]
fn no_profile_initial_window_or_delayed_ack_times_out_without_loss() {
    let mut bad = Vec::new();
    let mut ran = 0;
    for preset in ["lan", "wan"] {
        for profile in ["bsd", "modern", "linux"] {
            for iw in 1..=10u32 {
                let iw = iw.to_string();
                for delack in ["tick", "deadline", "off", "linux"] {
                    // Left out: the linux profile over a receiver that is not Linux's and delays
                    // a lone segment's ACK the full 200 ms (below).
                    if profile == "linux" && matches!(delack, "tick" | "deadline") {
                        continue;
                    }
                    // The preset's fixed 32 KiB buffers on the linux profile too: its
                    // autotuned window outgrows the testbeds' queues (CUBIC's slow start
                    // overflows wan's 50-packet queue), and the runs would not be loss-free.
                    let autotune = if profile == "linux" { "off" } else { "" };
                    let extra = [
                        ("tcp.profile", profile),
                        ("tcp.initial_cwnd", iw.as_str()),
                        ("tcp.delayed_ack", delack),
                        ("tcp.autotune", autotune),
                    ];
                    if let Some(n) = timeouts(preset, &extra) {
                        ran += 1;
                        if n > 0 {
                            bad.push(format!("{preset} {profile} iw {iw} {delack}: {n}"));
                        }
                    }
                }
            }
        }
    }
    assert!(ran >= 150, "only {ran} combinations ran");
    assert!(
        bad.is_empty(),
        "timeouts in loss-free runs:\n{}",
        bad.join("\n")
    );
}

/// The linux profile's floor is on the variance term (RTO = SRTT + max(4·RTTVAR, 200 ms)), the
/// longest delay of a receiver that holds a lone segment's ACK 200 ms: Linux pairs it with its
/// quick-ack receiver, and over a BSD-style receiver the first lone segment can time out. The
/// combination stays accepted (it is what a Linux sender meets at a non-Linux receiver that
/// delays ACKs by 200 ms) and is documented in docs/modern.md; here, what it does.
#[test]
fn the_linux_profile_over_a_200_ms_deadline_receiver_can_time_out() {
    let extra = [
        ("tcp.profile", "linux"),
        ("tcp.initial_cwnd", "1"),
        ("tcp.delayed_ack", "deadline"),
    ];
    assert_eq!(timeouts("lan", &extra), Some(1));
    let quick = [("tcp.profile", "linux"), ("tcp.initial_cwnd", "1")];
    assert_eq!(timeouts("lan", &quick), Some(0));
}

#[test]
fn a_200_ms_floor_over_200_ms_delayed_acks_times_out_on_a_lone_segment() {
    let s = scenario(
        "lan",
        &[
            ("error_every", "0"),
            ("transfer", "256KiB"),
            ("tcp.profile", "modern"),
            ("tcp.delayed_ack", "deadline"),
            ("tcp.min_rto", "200ms"),
            ("tcp.initial_cwnd", "1"),
        ],
    );
    let m = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    assert!(m.sender_timeouts > 0, "the control did not time out");
}
