#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Packet scripts at the network level with exact times: airtime on the shared WaveLAN medium,
//! store-and-forward at the base station, the completion instant.

mod common;
use common::scenario;
use lossylink::{run, RunOptions};

#[test]
fn one_segment_crosses_the_lan_testbed_in_its_exact_airtime() {
    // 1400 bytes: one segment, sent at t = 0 (Nagle lets the final piece go when idle).
    let s = scenario("lan", &[("error_every", "0"), ("transfer", "1400")]);
    let m = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    // Ethernet: 9.6 us gap + (1440 + 26) B at 10 Mb/s = 1172.8 us, + 1 us propagation.
    let ether_ns = 9_600 + 1_172_800 + 1_000;
    // WaveLAN: 310 us mean backoff + 556 us PLCP/DIFS/SIFS/link ACK + (1440 + 36) B at 2 Mb/s
    // = 5904 us, + 1 us.
    let wlan_ns = 310_000 + 556_000 + 5_904_000 + 1_000;
    assert_eq!((m.completion_s * 1e9).round() as u64, ether_ns + wlan_ns);
    assert_eq!(m.sender_segments, 1);
    assert_eq!(
        m.events, 4,
        "two transmissions and two arrivals; no timer fires before completion"
    );
}

#[test]
fn the_shared_medium_alternates_between_data_and_acks() {
    // Loss-free 32 KiB buffer: in steady state the WaveLAN carries two data frames per ACK
    // frame, and the error-free rate is what the airtimes allow: 2·1400·8 bits per
    // (2·6770 + 1170) us = 1.523 Mb/s, less slow start.
    let s = scenario("lan", &[("error_every", "0")]);
    let m = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    let ratio = m.wireless_data_frames as f64 / m.receiver_acks as f64;
    // At most two per ACK; a few lone segments are acknowledged by the delayed-ACK tick.
    assert!(
        (1.9..=2.0).contains(&ratio),
        "data frames per ACK: {ratio} ({} / {})",
        m.wireless_data_frames,
        m.receiver_acks
    );
    assert!(
        m.throughput_mbps < 1.523 && m.throughput_mbps > 1.50,
        "{}",
        m.throughput_mbps
    );
}

/// One frame of the hiccup testbed: (20 + 20 + 12 + 460 + 7 PPP) bytes at 9.6 kbit/s.
const PPP_FRAME_NS: u64 = 519 * 8 * 1_000_000_000 / 9_600;

#[test]
fn a_hold_delays_the_first_frame_to_its_end() {
    // One segment sent at t = 0 into a hold of 500 ms: it starts when the hold ends.
    let hold = r#"[{ kind = "hold", at = "0s", duration = "500ms" }]"#;
    let s = scenario(
        "hiccup",
        &[("transfer", "460"), ("hops.0.forward.hiccups", hold)],
    );
    let m = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    assert_eq!(PPP_FRAME_NS, 432_500_000);
    assert_eq!(
        (m.completion_s * 1e9).round() as u64,
        500_000_000 + PPP_FRAME_NS + 1_000
    );
    // A hold on the ACK direction does not delay the data.
    let s = scenario(
        "hiccup",
        &[("transfer", "460"), ("hops.0.reverse.hiccups", hold)],
    );
    let m = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    assert_eq!((m.completion_s * 1e9).round() as u64, PPP_FRAME_NS + 1_000);
}

#[test]
fn a_reorder_sends_the_held_segment_after_length_others() {
    // Four segments at t = 0 (initial window 4); the first is held while two overtake it, so
    // the receiver answers the two early ones with immediate duplicate ACKs. The wire stays
    // busy, so the last byte arrives when it would have without the reorder.
    let base = [("transfer", "1840"), ("tcp.initial_cwnd", "4")];
    let m = run(&scenario("hiccup", &base), 1, &RunOptions::default())
        .unwrap()
        .metrics;
    assert_eq!(m.sender_dupacks, 0);
    let reorder = r#"[{ kind = "reorder", at = "0s", length = 2 }]"#;
    let mut with = base.to_vec();
    with.push(("hops.0.forward.hiccups", reorder));
    let r = run(&scenario("hiccup", &with), 1, &RunOptions::default())
        .unwrap()
        .metrics;
    assert_eq!(r.sender_dupacks, 2);
    assert_eq!(r.sender_fast_retransmits, 0);
    assert_eq!(
        (r.completion_s * 1e9).round() as u64,
        4 * PPP_FRAME_NS + 1_000
    );
    assert_eq!(r.completion_s, m.completion_s);
}
