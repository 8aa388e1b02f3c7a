#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Snoop at a sending station (eln-llelsn spec §4.4 (a)): in the LL-ELSN study's
//! uplink the snoop agent runs at the station "by symmetric operation". It caches the station's
//! own segments, and a lost frame is resent locally only when the receiver's duplicate ACKs
//! come back over the air, one end-to-end round trip later ("it cannot retransmit until the
//! agent receives a dupack (one RTT in uplink)"); the duplicates are not passed to the sender.

use crate::common;
use common::scenario;
use lossylink::{run, RunOptions};
use net::PacketKind;

fn uplink(scheme: &str, collisions: bool) -> lossylink::Scenario {
    let dcf = if collisions {
        "{ retry_limit = 1, basic_rate = \"1Mbps\" }"
    } else {
        "{ retry_limit = 1, basic_rate = \"1Mbps\", collisions = false }"
    };
    scenario(
        "llelsn",
        &[
            ("scheme", scheme),
            ("run.duration", "10s"),
            // Balakrishnan97's snoop (the preset runs ns-2's; tests/it/ns2_snoop.rs).
            ("ll.snoop_style", "\"balakrishnan97\""),
            (
                "flows",
                "[{ name = \"up\", from = \"sta1\", to = \"server\" }]",
            ),
            ("cells.0.dcf", dcf),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.01, reference = \"1076B\" }",
            ),
        ],
    )
}

#[test]
fn a_lost_uplink_frame_is_resent_by_the_station_one_round_trip_later() {
    // Collisions off: every lost frame is a channel error the capture marks as corrupted.
    let opts = RunOptions {
        pcap: true,
        ..RunOptions::default()
    };
    let r = run(&uplink("snoop-newreno", false), 1, &opts).unwrap();
    let m = &r.metrics;
    let frames = r.capture.unwrap().frames;
    // Ports: internet 0/1, lan 2/3, the cell's link 4 (ap -> sta1) and 5 (sta1 -> ap).
    let up = 5;
    let lost = frames
        .iter()
        .find(|f| f.port.0 == up && f.corrupted && f.pkt.kind() == PacketKind::Data)
        .expect("a corrupted uplink data frame");
    let seq = lost.pkt.seg.seq;
    let t0 = lost.start.0;
    // The first duplicate ACK naming the hole reaches the station over the air...
    let dupack = frames
        .iter()
        .find(|f| {
            f.port.0 == 4
                && f.start.0 > t0
                && f.pkt.kind() == PacketKind::Ack
                && f.pkt.seg.ack == seq
        })
        .expect("a duplicate ACK for the hole");
    // ... after the segments behind the hole crossed the cell, both wired hops (21 ms each
    // way) and the ACK came back: at least 42 ms after the loss.
    assert!(
        dupack.start.0 >= t0 + 42_000_000,
        "{} ns",
        dupack.start.0 - t0
    );
    // The station resends the segment itself after that duplicate, well before its sender's
    // retransmission timer (1 s minimum) could.
    let resend = frames
        .iter()
        .find(|f| f.port.0 == up && f.start.0 > t0 && f.pkt.seg.seq == seq)
        .expect("the segment goes again");
    assert!(resend.start.0 > dupack.start.0);
    assert!(resend.start.0 < dupack.start.0 + 20_000_000);
    assert!(m.local_retransmissions > 10, "{}", m.local_retransmissions);
    // The duplicates stop at the agent: the sender's own fast retransmits are rare.
    assert!(
        m.sender_fast_retransmits * 5 < m.local_retransmissions,
        "{} fast retransmits, {} local",
        m.sender_fast_retransmits,
        m.local_retransmissions
    );
}

#[test]
fn snoop_helps_the_uplink_less_than_the_downlink() {
    // Spec C004-6: "much worse than in downlink" (its repair waits one RTT in the uplink).
    let down = |scheme: &str| {
        let s = scenario(
            "llelsn",
            &[
                ("scheme", scheme),
                ("run.duration", "20s"),
                ("ll.snoop_style", "\"balakrishnan97\""),
                (
                    "cells.0.error",
                    "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
                ),
            ],
        );
        run(&s, 1, &RunOptions::default())
            .unwrap()
            .metrics
            .throughput_mbps
    };
    let up = |scheme: &str| {
        let mut s = uplink(scheme, true);
        s.set("run.duration", "20s").unwrap();
        s.set(
            "cells.0.error",
            "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
        )
        .unwrap();
        run(&s, 1, &RunOptions::default())
            .unwrap()
            .metrics
            .throughput_mbps
    };
    let gain_down = down("snoop-newreno") / down("e2e-newreno");
    let gain_up = up("snoop-newreno") / up("e2e-newreno");
    assert!(gain_up > 1.0, "snoop still helps the uplink: {gain_up}");
    assert!(
        gain_up < gain_down,
        "uplink {gain_up}, downlink {gain_down}"
    );
}
