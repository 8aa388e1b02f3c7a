//! A-MPDU aggregation with Block Ack at the scenario level (net::medium::dcf::ampdu): the
//! knobs' one-line errors, one segment's exact time through an aggregating cell, and the
//! saturation throughput of one and of N 802.11n stations with and without aggregation against
//! Bianchi's model with the aggregate's airtime.
//!
//! The model: Bianchi's chain with the retry limit (as the 802.11a test above), where a
//! station's transmission is one A-MPDU of K MPDUs and its Block Ack instead of one frame and
//! its ACK. Saturated stations always have K MPDUs ready, K the largest aggregate the limits
//! allow (IEEE 802.11-2016 §10.12: the count, the octets, the PPDU's 5.484 ms); a collision
//! loses the whole PPDU. T_s = T_AMPDU(K) + SIFS + δ + T_BA + DIFS + δ,
//! T_c = T_AMPDU(K) + EIFS + δ, E[P] = K · 8000 bits,
//! S = P_s·P_tr·E[P] / ((1 − P_tr)σ + P_tr·P_s·T_s + P_tr(1 − P_s)·T_c).

use super::*;

/// The knobs: aggregation only on 11n and 11ac, the limits in range, the limits only with
/// aggregation, and nothing that contradicts a Block Ack; each a one-line error naming the
/// field.
#[test]
fn the_aggregation_knobs_are_checked_in_one_line_each() {
    let err = |cellspec: &str| match Scenario::from_toml_str(&doc(2, true, 1000, cellspec, 2)) {
        Err(e) => e.to_string(),
        Ok(s) => run(&s, 1, &RunOptions::default())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_else(|| "ran".into()),
    };
    for (spec, want) in [
        (
            "rate = \"54Mbps\"\ndcf = { phy = \"11a\", aggregation = \"ampdu\" }",
            "cells[0].dcf.aggregation: dcf.phy = \"11a\" has no A-MPDU aggregation; it belongs to 11n and 11ac",
        ),
        (
            "rate = \"54Mbps\"\ndcf = { phy = \"11g\", aggregation = \"ampdu\" }",
            "cells[0].dcf.aggregation: dcf.phy = \"11g\" has no A-MPDU aggregation; it belongs to 11n and 11ac",
        ),
        (
            "rate = \"11Mbps\"\ndcf = { aggregation = \"ampdu\" }",
            "cells[0].dcf.aggregation: dcf.phy = \"11b\" has no A-MPDU aggregation; it belongs to 11n and 11ac",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = 65 }",
            "cells[0].dcf.ampdu_max_frames: 65 is outside 1..=64 (MPDUs per A-MPDU, the Block Ack window)",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = 0 }",
            "cells[0].dcf.ampdu_max_frames: 0 is outside 1..=64 (MPDUs per A-MPDU, the Block Ack window)",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_bytes = 65536 }",
            "cells[0].dcf.ampdu_max_bytes: 65536 is outside 1600..=65535 (octets per A-MPDU on dcf.phy = \"11n\")",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", ampdu_max_frames = 8 }",
            "cells[0].dcf.ampdu_max_frames: belongs to aggregation = \"ampdu\"",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"ampdu\", mac_ack = false }",
            "cells[0].dcf.mac_ack: aggregation = \"ampdu\" is answered by a Block Ack; leave mac_ack on",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"ampdu\", retry_delay = \"1ms\" }",
            "cells[0].dcf.retry_delay: aggregation = \"ampdu\" retries MPDUs in the next aggregate; leave retry_delay out",
        ),
    ] {
        assert_eq!(err(spec), want, "{spec}");
    }
    let e = err("rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"amsdu\" }");
    assert!(e.contains("aggregation") && !e.contains('\n'), "{e}");
    for ok in [
        "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = 1 }",
        "rate = \"65Mbps\"\ndcf = { phy = \"11n\", aggregation = \"off\" }",
        "rate = \"390Mbps\"\ndcf = { phy = \"11ac\", width = \"80MHz\", aggregation = \"ampdu\", ampdu_max_bytes = 1048575 }",
    ] {
        assert_eq!(err(ok), "ran", "{ok}");
    }
}

/// A packet script with exact times: the segment of [`one_segment_ns`] through an 802.11n cell
/// that aggregates goes as an A-MPDU of one MPDU (its delimiter adds 4 octets) and is answered
/// by a Block Ack (32 octets) instead of an ACK.
#[test]
fn one_segment_crosses_an_aggregating_cell_as_an_ampdu_and_its_block_ack() {
    let wire = 1440 * 8 + 1_000;
    let b = engine::RngStream::new(1, &net::keys::dcf_backoff("cell:cell", 1)).below(16);
    // HT MCS 7: 4 + 1476 = 1480 octets, ⌈(11840 + 22) / 260⌉ = 46 symbols after the 36 µs
    // preamble; SIFS; the Block Ack at 24 Mb/s, ⌈(16 + 256 + 6) / 96⌉ = 3 symbols: 32 µs.
    assert_eq!(
        one_segment_ns("11n\", aggregation = \"ampdu", "65Mbps"),
        wire + 1000 * (34 + 9 * b + 36 + 184 + 16 + 32 + 1)
    );
}
