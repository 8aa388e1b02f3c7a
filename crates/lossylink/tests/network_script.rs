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
