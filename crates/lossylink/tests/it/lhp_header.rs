#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! LHP's link-layer header protection on an 802.11 cell (eln-llelsn spec §4.11): a
//! data frame whose payload the channel corrupted still hands its header up at the station,
//! whose NACK receiver names the segment on its next ACK, and the LHP sender resends it.

use crate::common;
use common::scenario;
use lossylink::{run, RunOptions};
use net::PacketKind;

fn lhp(scheme: &str, protect: bool) -> lossylink::Scenario {
    let dcf = format!(
        "{{ retry_limit = 1, basic_rate = \"1Mbps\", collisions = false, header_protection = {protect} }}"
    );
    scenario(
        "llelsn",
        &[
            ("scheme", scheme),
            ("run.duration", "10s"),
            ("cells.0.dcf", &dcf),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    )
}

#[test]
fn a_corrupted_frame_is_named_by_the_next_ack_and_resent_by_the_sender() {
    let opts = RunOptions {
        pcap: true,
        ..RunOptions::default()
    };
    let r = run(&lhp("e2e-lhp", true), 1, &opts).unwrap();
    let frames = r.capture.unwrap().frames;
    // Ports: internet 0/1, lan 2/3, the cell's link 4 (ap -> sta1) and 5 (sta1 -> ap).
    let lost = frames
        .iter()
        .find(|f| f.port.0 == 4 && f.corrupted && f.pkt.kind() == PacketKind::Data)
        .expect("a corrupted downlink data frame");
    let (seq, t0) = (lost.pkt.seg.seq, lost.start.0);
    let nack = frames
        .iter()
        .find(|f| f.port.0 == 5 && f.start.0 > t0 && f.pkt.seg.opts.nack == Some(seq))
        .expect("an ACK naming the corrupted segment");
    // The header arrives when the frame ends (1076 bytes at 11 Mb/s after a 192 us PLCP:
    // 974 us); the station's ACK contends for the air at once.
    assert!(nack.start.0 >= t0 + 974_000, "{} ns", nack.start.0 - t0);
    assert!(nack.start.0 < t0 + 5_000_000, "{} ns", nack.start.0 - t0);
    // The server resends it once the NACK has crossed both wired hops (21 ms one way).
    let resend = frames
        .iter()
        .find(|f| f.port.0 == 0 && f.start.0 > t0 && f.pkt.seg.seq == seq)
        .expect("the server resends the segment");
    assert!(resend.start.0 > nack.start.0 + 21_000_000);
    assert!(resend.start.0 < nack.start.0 + 40_000_000);
}

/// LHP's base is Reno with one fast recovery per loss (eln-llelsn spec §4.11 (c)); the llelsn
/// preset's Reno follows ns-2's `bugFix_` (one fast retransmit per window), which LHP does not
/// take, so the base compared here is Reno without it.
fn per_loss_reno(protect: bool) -> lossylink::Scenario {
    let mut s = lhp("e2e", protect);
    s.set("tcp.reno_bugfix", "false").unwrap();
    s
}

#[test]
fn without_header_protection_lhp_is_its_base_reno_and_with_it_gains() {
    let g = |s: lossylink::Scenario| run(&s, 1, &RunOptions::default()).unwrap().metrics;
    let reno = g(per_loss_reno(false));
    let plain = g(lhp("e2e-lhp", false));
    let protected = g(lhp("e2e-lhp", true));
    assert_eq!(plain.throughput_mbps, reno.throughput_mbps);
    assert_eq!(
        plain.sender_retransmitted_segments,
        reno.sender_retransmitted_segments
    );
    // Reno ignores the NACKs: the knob changes nothing for it.
    assert_eq!(g(per_loss_reno(true)).throughput_mbps, reno.throughput_mbps);
    assert!(
        protected.throughput_mbps > 1.3 * plain.throughput_mbps,
        "{} against {}",
        protected.throughput_mbps,
        plain.throughput_mbps
    );
}
