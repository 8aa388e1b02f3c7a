#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Ludwig2000's GSM-CSD link with RLP (crate net::medium::gsm; spec §3.5-3.9, S1-S4): RT15,
//! RT18, RT19, RT20.

use crate::common;
use crate::sender_trace;
use common::{mean, scenario, seeds};
use lossylink::{run, GsmMetrics, Metrics, RunOptions, Scenario};
use sender_trace::traced;
use std::io::Write;

fn gsm(m: &Metrics) -> &GsmMetrics {
    m.gsm.as_ref().expect("a GSM link's counters")
}

/// A block trace (one hour, the trace repeats after it) erased in blocks `[from, to)` only.
fn burst_trace(name: &str, from: usize, to: usize) -> String {
    let path =
        std::env::temp_dir().join(format!("lossylink-gsm-{name}-{}.txt", std::process::id()));
    let mut f = std::fs::File::create(&path).unwrap();
    for i in 0..180_000 {
        writeln!(f, "{}", u8::from((from..to).contains(&i))).unwrap();
    }
    path.to_string_lossy().into_owned()
}

fn with_blocks(s: &mut Scenario, path: &str) {
    s.set("hops.0.forward.blocks", &format!("{{ file = \"{path}\" }}"))
        .unwrap();
}

/// RT15 and RT19 (S1, S4): over a clean channel at L2R's 960 B/s, TCP gets 848 B/s of user
/// data (460 of every 519 bytes: 40 TCP/IP + 12 timestamp + 7 PPP), the link is used ≥ 98 % of
/// the time, and L2R's 950-1300 ms gaps cause no timeout.
#[test]
fn rt15_rt19_throughput_at_960_bytes_per_second_without_timeouts() {
    let runs = seeds(&scenario("gsm", &[]), 3);
    let bps = mean(&runs, |m| m.throughput_mbps * 1e6 / 8.0);
    assert!((bps - 848.0).abs() <= 0.02 * 848.0, "{bps} B/s");
    for m in &runs {
        assert_eq!(m.sender_timeouts, 0);
        let g = gsm(m);
        assert!(g.l2r_gaps >= 40, "{g:?}");
        assert!(g.utilization_pct >= 98.0, "{g:?}");
        assert_eq!((g.rlp_retransmissions, g.rlp_resets), (0, 0));
    }
    // Without L2R the link runs at its 1200 B/s peak: 460/519 of it.
    let peak = seeds(&scenario("gsm", &[("hops.0.gsm", "{ n2 = 6 }")]), 1);
    let bps = peak[0].throughput_mbps * 1e6 / 8.0;
    assert!(
        (bps - 1200.0 * 460.0 / 519.0).abs() < 0.02 * 1063.6,
        "{bps}"
    );
}

/// RT18 (S3): 65 consecutive erased blocks (1.3 s) from 60 s on the data direction: RLP resends
/// the lost frames every 400 ms until they get through (three times, under N2 = 6); the data is
/// late by about the burst and TCP-Lite's timer, far above the RTT, does not fire.
#[test]
fn rt18_an_rlp_retransmission_burst_causes_no_spurious_timeout() {
    let clean = run(&scenario("gsm", &[]), 1, &RunOptions::default()).unwrap();
    let mut s = scenario("gsm", &[]);
    with_blocks(&mut s, &burst_trace("rt18", 3000, 3065));
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let (m, g) = (&r.metrics, gsm(&r.metrics));
    assert_eq!(m.sender_timeouts, 0);
    assert_eq!(g.rlp_resets, 0);
    assert!(g.rlp_retransmissions >= 3, "{g:?}");
    let late = m.completion_s - clean.metrics.completion_s;
    assert!((1.0..=1.8).contains(&late), "{late} s later");
}

/// RT20 (S2), with explicit times: VJ compression on, the data direction erased from 60 s for
/// 4 s, longer than N2 = 6 retransmissions 400 ms apart: the link resets at 62.42 s (the first
/// erased frame at 60.00 s, its sixth retransmission at 62.40 s erased too), flushing the
/// packets in RLP's buffer. The decompressor is then out of step, and every packet of the flight
/// still to come is discarded at the receiver (its TCP checksum fails) until the sender's
/// timeout resends with a full header: discards = the rest of the flight (± 2).
#[test]
fn rt20_a_reset_with_vj_discards_the_rest_of_the_flight() {
    let mut s = scenario(
        "gsm",
        &[("hops.0.gsm", "{ n2 = 6, vj = true, l2r = { rate = 960 } }")],
    );
    with_blocks(&mut s, &burst_trace("rt20", 3000, 3200));
    let r = traced(&s);
    let g = gsm(&r.m).clone();
    assert_eq!(g.rlp_resets, 1, "{g:?}");
    assert!(r.m.sender_timeouts >= 1);
    // The flight at the reset, in segments.
    let w = r.before(62.42);
    let flight = (r.snd_max_before(62.42) - w.una) / 460;
    let rest = flight - g.rlp_flushed_packets as i64;
    assert!(
        rest > 3,
        "flight {flight}, flushed {}",
        g.rlp_flushed_packets
    );
    assert!(
        (g.vj_discards as i64 - rest).abs() <= 2,
        "discards {} vs the rest of the flight {rest} (flight {flight}, flushed {})",
        g.vj_discards,
        g.rlp_flushed_packets
    );
    // Without compression the reset costs only the flushed packets' repair: no discards.
    let mut plain = scenario("gsm", &[]);
    with_blocks(&mut plain, &burst_trace("rt20p", 3000, 3200));
    let p = run(&plain, 1, &RunOptions::default()).unwrap();
    assert_eq!(gsm(&p.metrics).vj_discards, 0);
    assert!(r.m.sender_timeouts >= p.metrics.sender_timeouts);
}

/// §3.1.2's utilization with S2's reset and VJ on, at explicit times: the reset (62.42 s)
/// flushes 2 packets and the decompressor discards the 16 RLP carries after them, up to the
/// timeout's full header (71.79 s). RLP carried those 16 intact (483 bytes each on the wire:
/// the 4-byte delta, 12 bytes of options, 7 of PPP): their link time, 16 · 483 B at L2R's
/// 960 B/s = 8.05 s of the 264.6 s span, is data sent in vain, "packets which had already been
/// successfully transmitted" once TCP resends them, and is taken off: 3.0 points. Counted as
/// useful (as before) the run reads 99.4 %, the link idle for only 2 s.
#[test]
fn a_reset_with_vj_costs_the_link_time_of_the_discarded_packets() {
    let mut s = scenario(
        "gsm",
        &[("hops.0.gsm", "{ n2 = 6, vj = true, l2r = { rate = 960 } }")],
    );
    with_blocks(&mut s, &burst_trace("discard", 3000, 3200));
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let g = gsm(&r.metrics);
    assert_eq!((g.rlp_resets, g.vj_discards), (1, 16), "{g:?}");
    let expected = 100.0 * 16.0 * 483.0 / 960.0 / r.metrics.completion_s;
    assert!(
        (g.vj_discard_pct - expected).abs() < 0.1,
        "{} vs {expected}",
        g.vj_discard_pct
    );
    assert!(
        (g.utilization_pct + g.vj_discard_pct - 99.4).abs() < 0.1,
        "{g:?}"
    );
    // Without VJ nothing is discarded: the reset costs only idle time and duplicates.
    let mut plain = scenario("gsm", &[]);
    with_blocks(&mut plain, &burst_trace("discardp", 3000, 3200));
    let p = run(&plain, 1, &RunOptions::default()).unwrap();
    assert_eq!(gsm(&p.metrics).vj_discard_pct, 0.0);
}

/// Fig 4-9 with VJ on: S2's burst resets the data direction at 62.42 s; the timeout's
/// retransmission (71.79 s) reaches the receiver, whose ACK leaves inside a 4 s burst of the ACK
/// direction from 72 s: that direction resets too, the ACK is lost and the sender's ACK
/// decompressor is out of step. The timer backs off: the next timeout comes 24 s (twice the 12 s
/// RTO) later; its retransmission is a segment the receiver holds, and the duplicate ACK
/// crosses in full (RFC 1144: "send it uncompressed in case the other side missed the
/// compressed version") and brings the decompressor back in step. Without that rule every later
/// ACK is discarded and the transfer never ends.
#[test]
fn fig_4_9_an_ack_lost_in_a_reset_backs_the_timer_off_and_the_duplicate_ack_resynchronises() {
    let mut s = scenario(
        "gsm",
        &[("hops.0.gsm", "{ n2 = 6, vj = true, l2r = { rate = 960 } }")],
    );
    with_blocks(&mut s, &burst_trace("fig49f", 3000, 3200));
    let ack = burst_trace("fig49r", 3600, 3800);
    s.set("hops.0.reverse.blocks", &format!("{{ file = \"{ack}\" }}"))
        .unwrap();
    let r = traced(&s);
    let g = gsm(&r.m).clone();
    // One reset each way (the counter sums the directions).
    assert_eq!(g.rlp_resets, 2, "{g:?}");
    let timeouts: Vec<f64> =
        r.ev.iter()
            .filter(|e| e.kind == "timeout")
            .map(|e| e.t)
            .collect();
    assert_eq!(timeouts.len(), 2, "{timeouts:?}");
    assert!((timeouts[0] - 71.79).abs() < 0.01, "{timeouts:?}");
    assert!(
        (timeouts[1] - timeouts[0] - 24.0).abs() < 0.01,
        "{timeouts:?}"
    );
    assert!(r.m.completion_s < 320.0, "{}", r.m.completion_s);
}

/// The reset is the link's (GSM 04.22's one reset procedure for both directions), with explicit
/// times and VJ on: the data direction is erased from 59.80 s for 4 s and resets at 62.22 s
/// (its first erased frame at 59.80 s, the sixth retransmission at 62.20 s erased too). The ACK
/// direction is erased from 59.80 s to 62.28 s: the receiver's ACK for 54280, sent at 59.94 s,
/// is resent five times (to 61.94 s) and is still in its RLP buffer, under N2 = 6, when the data
/// direction resets. Link-wide the reset flushes it (3 packets flushed, one reset counted): the
/// sender's timer, armed by the ACK of 59.65 s, fires at 70.79 s. Per direction the ACK gets
/// through after the burst (62.45 s) and restarts the timer: the timeout comes at 77.29 s and
/// the transfer ends 6 s later. The ACK of the timeout's retransmission is the lost ACK again
/// (the receiver holds nothing past it); VJ sends an unchanged ACK in full (RFC 1144: "in case
/// the other side missed the compressed version"), so the sender's ACK decompressor, out of step
/// after the flush, is back in step at once: no backoff, one timeout either way.
#[test]
fn a_reset_flushes_both_directions_and_the_ack_in_it_is_lost() {
    let setup = |reset: &str| {
        let mut s = scenario(
            "gsm",
            &[(
                "hops.0.gsm",
                &format!("{{ n2 = 6, vj = true, reset = \"{reset}\", l2r = {{ rate = 960 }} }}"),
            )],
        );
        with_blocks(&mut s, &burst_trace(&format!("lr-f-{reset}"), 2990, 3190));
        let ack = burst_trace(&format!("lr-r-{reset}"), 2990, 3114);
        s.set("hops.0.reverse.blocks", &format!("{{ file = \"{ack}\" }}"))
            .unwrap();
        traced(&s)
    };
    let at = |r: &sender_trace::Run, kind: &str, from: f64, to: f64| -> Vec<f64> {
        r.ev.iter()
            .filter(|e| e.kind == kind && e.t > from && e.t < to)
            .map(|e| e.t)
            .collect()
    };
    let link = setup("link");
    let g = gsm(&link.m).clone();
    assert_eq!((g.rlp_resets, g.rlp_flushed_packets), (1, 3), "{g:?}");
    assert!(at(&link, "ack", 59.7, 70.0).is_empty());
    let t = at(&link, "timeout", 0.0, 1e9);
    assert_eq!(t.len(), 1, "{t:?}");
    assert!((t[0] - 70.787).abs() < 0.01, "{t:?}");
    let alone = setup("direction");
    let g1 = gsm(&alone.m).clone();
    assert_eq!((g1.rlp_resets, g1.rlp_flushed_packets), (1, 2), "{g1:?}");
    let acks = at(&alone, "ack", 59.7, 70.0);
    assert!(
        acks.len() == 1 && (acks[0] - 62.45).abs() < 0.01,
        "{acks:?}"
    );
    let t1 = at(&alone, "timeout", 0.0, 1e9);
    assert_eq!(t1.len(), 1, "{t1:?}");
    assert!((t1[0] - 77.287).abs() < 0.01, "{t1:?}");
    assert!(alone.m.completion_s - link.m.completion_s > 5.0);
}

/// Deep fades (`blocks.fades`): a 4 s fade resets a sending link (N2 = 6 covers 2.4 s); the
/// same draw gives the same run, another draw (channel and L2R gaps) another.
#[test]
fn deep_fades_reset_the_link_at_their_drawn_times() {
    let fades = |draw: u32| {
        scenario(
            "gsm",
            &[
                ("transfer", "600KB"),
                (
                    "hops.0.blocks",
                    &format!(
                        "{{ profile = \"good\", minutes = 20, draw = {draw}, fades = {{ per_hour = 60, length = \"4s\" }} }}"
                    ),
                ),
                (
                    "hops.0.gsm",
                    &format!("{{ n2 = 6, vj = true, l2r = {{ rate = 960, draw = {draw} }} }}"),
                ),
            ],
        )
    };
    let a = run(&fades(3), 1, &RunOptions::default()).unwrap().metrics;
    let again = run(&fades(3), 1, &RunOptions::default()).unwrap().metrics;
    let b = run(&fades(4), 1, &RunOptions::default()).unwrap().metrics;
    let g = gsm(&a);
    // About 14 minutes at 60 fades an hour: a reset for most of them.
    assert!(g.rlp_resets >= 4, "{g:?}");
    assert_eq!(a.completion_s, again.completion_s);
    assert_ne!(a.completion_s, b.completion_s);
}

/// The one-line error a bad value gets, when it is set or at the latest when the run starts.
fn refused(preset: &str, k: &str, v: &str) -> String {
    let mut s = Scenario::preset(preset).unwrap();
    let e = match s.set(k, v) {
        Err(e) => e.to_string(),
        Ok(()) => run(&s, 1, &RunOptions::default()).unwrap_err().to_string(),
    };
    assert!(!e.contains('\n'), "{e}");
    e
}

/// Bad input names the field.
#[test]
fn gsm_knobs_are_validated() {
    for (k, v, field) in [
        ("hops.0.gsm", "{ n2 = 0 }", "hops[0].gsm.n2"),
        (
            "hops.0.gsm",
            "{ n2 = 3, reliable = true }",
            "hops[0].gsm.n2",
        ),
        ("hops.0.gsm", "{ rlp_rtt = \"1ms\" }", "hops[0].gsm.rlp_rtt"),
        ("hops.0.gsm", "{ reset = \"both\" }", "hops[0].gsm.reset"),
        (
            "hops.0.gsm",
            "{ l2r = { rate = 1300 } }",
            "hops[0].gsm.l2r.rate",
        ),
        (
            "hops.0.gsm",
            "{ l2r = { gap_min = \"2s\", gap_max = \"1s\" } }",
            "hops[0].gsm.l2r.gap_min",
        ),
        (
            "hops.0.blocks",
            "{ profile = \"awful\" }",
            "hops[0].blocks.profile",
        ),
        ("hops.0.blocks", "{ }", "hops[0].blocks"),
        (
            "hops.0.blocks",
            "{ file = \"/nonexistent\" }",
            "hops[0].blocks.file",
        ),
        (
            "hops.0.forward.blocks",
            "{ profile = \"x\" }",
            "hops[0].forward.blocks.profile",
        ),
        (
            "hops.0.blocks",
            "{ profile = \"poor-c@1ms\" }",
            "hops[0].blocks.profile",
        ),
        (
            "hops.0.blocks",
            "{ profile = \"good\", fades = { per_hour = 0, length = \"4s\" } }",
            "hops[0].blocks.fades.per_hour",
        ),
        (
            "hops.0.blocks",
            "{ profile = \"good\", fades = { per_hour = 7, length = \"10ms\" } }",
            "hops[0].blocks.fades.length",
        ),
        (
            "hops.0.blocks",
            "{ file = \"/nonexistent\", fades = { per_hour = 7, length = \"4s\" } }",
            "hops[0].blocks.fades",
        ),
    ] {
        let e = refused("gsm", k, v);
        assert!(e.contains(field), "{k}={v}: {e}");
    }
    assert!(refused("hiccup", "hops.0.gsm", "{ n2 = 6 }").contains("hops[0].gsm"));
    assert!(refused("lan", "hops.1.blocks", "{ profile = \"good\" }").contains("hops[1].blocks"));
}

/// The clustered channel (net::medium::gsm::Clustered) in a scenario: the same minutes (the
/// stream `hop0/forward/minutes`) at every time scale, and the time scale decides how the
/// erasures meet RLP. With N2 = 12, the persistency the ping traces never exceeded (Ludwig2000
/// §3.1.2 fn. 2: at most 12 retransmissions of one frame), dense fades of 8 s erase a frame's
/// block one RLP round trip after another until the link resets; fades at the worst minute's
/// density over the same minutes never do. RLP resends about as many frames either way: each
/// erased block costs one transmission.
#[test]
fn dense_long_fades_reset_rlp_where_the_same_minutes_in_sparse_fades_do_not() {
    let run_with = |profile: &str| {
        let s = scenario(
            "gsm",
            &[
                ("transfer", "3000KB"),
                (
                    "hops.0.forward.blocks",
                    &format!("{{ profile = \"{profile}\", minutes = 60 }}"),
                ),
                ("hops.0.gsm", "{ n2 = 12 }"),
            ],
        );
        run(&s, 1, &RunOptions::default()).unwrap().metrics
    };
    let sparse = run_with("poor-c@8s");
    let dense = run_with("poor-c@8s:dense");
    let (gs, gd) = (gsm(&sparse), gsm(&dense));
    eprintln!("sparse {gs:?}\ndense {gd:?}");
    assert_eq!(gs.rlp_resets, 0, "{gs:?}");
    assert!(gd.rlp_resets >= 1, "{gd:?}");
    // As many erasures hit frames either way (the same minutes): within a third.
    let (es, ed) = (gs.rlp_retransmissions as f64, gd.rlp_retransmissions as f64);
    assert!(
        ed > 0.0 && es > 0.0 && (es / ed - 1.0).abs() < 0.34,
        "{es} vs {ed}"
    );
}
