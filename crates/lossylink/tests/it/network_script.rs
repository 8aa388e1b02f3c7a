#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Packet scripts at the network level with exact times: airtime on the shared WaveLAN medium,
//! store-and-forward at the base station, the completion instant.

use crate::common;
use common::scenario;
use lossylink::{run, Column, RunOptions};

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

#[test]
fn an_ip_stage_hold_lets_the_queue_drain_and_a_link_hold_does_not() {
    // Two segments handed over at t = 0 (initial window 2): the first starts at once, the
    // second waits in the interface queue. A hold from 1 ms to 2 s: at the IP stage (the
    // dissertation's tool) it only intercepts what is handed over later, so the queued
    // segment still leaves at 432.5 ms; at the link stage the link stops and it waits.
    let run_with = |stage: &str| {
        let hold =
            format!(r#"[{{ kind = "hold", at = "1ms", duration = "1999ms", stage = "{stage}" }}]"#);
        let s = scenario(
            "hiccup",
            &[
                ("transfer", "920"),
                ("tcp.initial_cwnd", "2"),
                ("hops.0.forward.hiccups", hold.as_str()),
            ],
        );
        run(&s, 1, &RunOptions::default()).unwrap().metrics
    };
    let ip = run_with("ip");
    assert_eq!(
        (ip.completion_s * 1e9).round() as u64,
        2 * PPP_FRAME_NS + 1_000
    );
    assert_eq!(
        ip.hiccup_intercepted, 0,
        "nothing was handed over during the hold"
    );
    let link = run_with("link");
    assert_eq!(
        (link.completion_s * 1e9).round() as u64,
        2_000_000_000 + PPP_FRAME_NS + 1_000
    );
}

#[test]
fn an_ip_stage_hold_flushes_into_the_queue_at_its_end_with_drop_tail() {
    // Five segments handed over at t = 0 into an IP-stage hold of 1 s, interface queue of 2:
    // at 1 s the flush puts the first on the wire at once (the driver takes it) and two in the
    // queue; the last two are dropped. The flush is not in TCP's call path, so those two drops
    // reach the sender as no ENOBUFS. Its retransmission timer fires while the queue is
    // still full (the third flushed segment leaves at 1.865 s), and that retransmission is
    // refused by its own queue: a local drop, at the timeout instant.
    let hold = r#"[{ kind = "hold", at = "0s", duration = "1s", stage = "ip" }]"#;
    let s = scenario(
        "hiccup",
        &[
            ("transfer", "2300"),
            ("tcp.initial_cwnd", "5"),
            ("hops.0.queue", "2"),
            ("hops.0.forward.hiccups", hold),
        ],
    );
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    let m = &r.metrics;
    assert_eq!(m.hiccup_intercepted, 5);
    let tr = r.trace.unwrap();
    let e = &tr.tables[1];
    let (Some((_, Column::F64(t))), Some((_, Column::Str(kind)))) = (
        e.columns.iter().find(|(k, _)| k == "time_s"),
        e.columns.iter().find(|(k, _)| k == "kind"),
    ) else {
        panic!("event columns")
    };
    let first = |what: &str| t[kind.iter().position(|k| k == what).unwrap()];
    let timeout = first("timeout");
    assert!(timeout > 1.0 && timeout < 1.0 + 2.0 * PPP_FRAME_NS as f64 * 1e-9);
    assert_eq!(first("local-drop"), timeout);
    // Every drop but the two of the flush was reported to the sender.
    assert_eq!(m.queue_drops, 2 + m.sender_local_drops);
    assert!(m.completion_s > timeout, "the transfer completes");
}

#[test]
fn a_full_interface_queue_drops_locally_and_the_sender_quenches() {
    // Initial window 3, interface queue of 1: at t = 0 the first segment goes on the wire, the
    // second waits, the third is dropped by the host's own queue. The sender learns it at once
    // (ENOBUFS) and 4.4BSD tcp_quench sets cwnd = 1 MSS, ssthresh untouched (Ludwig2000 §2.3).
    let s = scenario(
        "hiccup",
        &[
            ("transfer", "1380"),
            ("tcp.initial_cwnd", "3"),
            ("hops.0.queue", "1"),
        ],
    );
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    assert_eq!(r.metrics.sender_local_drops, 1);
    assert_eq!(r.metrics.queue_drops, 1);
    let tr = r.trace.unwrap();
    let (w, e) = (&tr.tables[0], &tr.tables[1]);
    let col = |t: &lossylink::TraceTable, n: &str| {
        t.columns.iter().find(|(k, _)| k == n).unwrap().1.clone()
    };
    let (Column::F64(et), Column::Str(kind), Column::I64(seq)) =
        (col(e, "time_s"), col(e, "kind"), col(e, "seq"))
    else {
        panic!("event columns")
    };
    let drop = kind.iter().position(|k| k == "local-drop").unwrap();
    assert_eq!((et[drop], seq[drop]), (0.0, 920));
    let (Column::F64(wt), Column::I64(cwnd), Column::I64(ssthresh)) =
        (col(w, "time_s"), col(w, "cwnd"), col(w, "ssthresh"))
    else {
        panic!("window columns")
    };
    let row = (0..wt.len()).find(|&i| wt[i] == 0.0 && cwnd[i] == 460);
    let row = row.expect("a window row with cwnd = 1 MSS at t = 0");
    assert_eq!(ssthresh[row], 65535);
    // The dropped segment is sent again, once, and the transfer completes.
    assert_eq!(r.metrics.sender_retransmitted_segments, 1);
    // With tcp.quench = false the window stays at 3 segments.
    let s = scenario(
        "hiccup",
        &[
            ("transfer", "1380"),
            ("tcp.initial_cwnd", "3"),
            ("hops.0.queue", "1"),
            ("tcp.quench", "false"),
        ],
    );
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    assert_eq!(r.metrics.sender_local_drops, 1);
    let tr = r.trace.unwrap();
    let (Column::F64(wt), Column::I64(cwnd)) =
        (col(&tr.tables[0], "time_s"), col(&tr.tables[0], "cwnd"))
    else {
        panic!("window columns")
    };
    let at_zero: Vec<i64> = (0..wt.len())
        .filter(|&i| wt[i] == 0.0)
        .map(|i| cwnd[i])
        .collect();
    assert!(at_zero.iter().all(|&c| c == 3 * 460), "{at_zero:?}");
}
