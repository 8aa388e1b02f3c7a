#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Ludwig2000 Ch. 5 on the hiccup testbed (specs/ludwig2000.md §5.5 H5–H10, §6 S8a/c/d/e,
//! §8 RT8, RT10, RT11): delay spikes and reordering without and with Eifel, and the same delay
//! spike on the LAN preset's wireless hop.
//!
//! Hiccup times follow the dissertation's figures (hold at 29.8 s for 13 s, Fig 5-2 and 5-3;
//! reorder at 37.7 s, Fig 5-4; hold at 43.3 s for 12 s, Fig 5-5; reorder at 40.5 s, Fig 5-6).
//!
//! Stages: the reorders and S8b's hold act at the IP stage, where the dissertation's tool sat
//! (between IP output and the interface queue, spec §10.1). The S8a and S8d holds act at the
//! link stage: with an IP-stage hold and the 50-packet IFQ the queue keeps draining for
//! ~7.8 s (18 segments at 432.5 ms), every ACK restarts the retransmission timer, and the
//! hold ends before it fires (no timeout at all in our model), whereas the figures show one
//! during the hold. A link-stage hold stops the ACK clock at its start, as the figures'
//! timing implies.

use crate::common;
use crate::sender_trace;
use common::scenario;
use lossylink::{run, RunOptions, Scenario};
use sender_trace::{traced, Ev, Win, MSS, RWND};

fn hiccup(hiccups: &str, scheme: &str) -> Scenario {
    scenario(
        "hiccup",
        &[("hops.0.forward.hiccups", hiccups), ("scheme", scheme)],
    )
}

const HOLD_13S: &str = r#"[{ kind = "hold", at = "29.8s", duration = "13s" }]"#;
const HOLD_12S: &str = r#"[{ kind = "hold", at = "43.3s", duration = "12s" }]"#;
const HOLD_13S_IP: &str = r#"[{ kind = "hold", at = "29.8s", duration = "13s", stage = "ip" }]"#;
const REORDER_6: &str = r#"[{ kind = "reorder", at = "37.7s", length = 6, stage = "ip" }]"#;
const REORDER_6_EIFEL: &str = r#"[{ kind = "reorder", at = "40.5s", length = 6, stage = "ip" }]"#;

#[test]
fn testbed_segments_fill_the_mtu_and_the_window() {
    // 20 IP + 20 TCP + 12 timestamp + 460 data = MTU 512; 519-byte frames at 9.6 kbit/s.
    let r = traced(&scenario("hiccup", &[]));
    assert_eq!(r.m.sender_timeouts + r.m.sender_fast_retransmits, 0);
    // Steady state: 18 segments (8280 of the 8496 advertised bytes) outstanding.
    let w = r.at(30.0);
    assert_eq!(r.snd_max_before(w.t + 1e-9) - w.una, 18 * MSS, "{w:?}");
    // 100 KB at 460 B per 519·8/9600 s = 432.5 ms, plus slow start and the last round trip.
    assert!(
        (94.0..96.0).contains(&r.m.completion_s),
        "{}",
        r.m.completion_s
    );
}

/// S8a / RT8 (Fig 5-2): a 13 s delay spike on the sender's outbound direction.
#[test]
fn s8a_spurious_timeout_goes_back_n_and_triggers_a_spurious_fast_retransmit() {
    let r = traced(&hiccup(HOLD_13S, "e2e"));
    assert_eq!(r.m.sender_timeouts, 1);
    let to = r.first("timeout");
    assert!(
        to.t > 29.8 && to.t < 42.8,
        "timeout during the hold: {to:?}"
    );
    let flight = r.snd_max_before(to.t) - r.before(to.t).una;
    assert_eq!(flight, 18 * MSS);
    // Go-back-N: the timeout's retransmission plus the rest of the flight, sent again.
    let gbn = r.m.sender_retransmitted_segments - r.m.sender_fast_retransmits;
    assert!(
        (gbn as i64 - flight / MSS).abs() <= 1,
        "go-back-N resent {gbn} segments of a {}-segment flight",
        flight / MSS
    );
    // Nothing was lost: every retransmission reached the receiver as a duplicate, and each
    // duplicate was answered by a duplicate ACK that caused ≥ 1 spurious fast retransmit.
    assert_eq!(r.m.queue_drops, 0);
    assert_eq!(
        r.m.receiver_duplicate_segments,
        r.m.sender_retransmitted_segments
    );
    assert!(r.m.sender_dupacks >= 3);
    assert!(r.m.sender_fast_retransmits >= 1);
    assert!(r.first("fast-retransmit").t > to.t);
    assert_eq!(r.m.sender_spurious_timeouts, 0, "no Eifel here");
}

/// S8b / RT9 (Fig 5-3): S8a with an interface queue of 12 packets. Go-back-N after the
/// spurious timeout sends retransmissions in slow start while the flushed originals are still
/// draining, so the IFQ overflows: the dissertation saw 4 drops, 3 spurious retransmissions and
/// 1 original (RT9 accepts 4 ± 1 including ≥ 1 original). Each overflow reaches TCP as
/// ENOBUFS and `tcp_quench` sets cwnd = 1 MSS (§2.3); the original is recovered by fast
/// retransmit. With IFQ 12 and rwnd 18 the IFQ also overflows once in the initial slow start
/// (as in Fig 3-3, T10) and once late in congestion avoidance; those are outside the window.
#[test]
fn s8b_go_back_n_overflows_a_12_packet_ifq_with_spurious_and_original_drops() {
    let s = scenario(
        "hiccup",
        &[
            ("hops.0.forward.hiccups", HOLD_13S_IP),
            ("hops.0.queue", "12"),
        ],
    );
    let r = traced(&s);
    assert_eq!(r.m.sender_timeouts, 1);
    let to = r.first("timeout");
    assert!(
        to.t > 29.8 && to.t < 42.8,
        "timeout during the hold: {to:?}"
    );
    assert!(r.m.hiccup_intercepted > 0);
    // The drops of the go-back-N phase: from the end of the hold to 10 s later.
    let drops: Vec<&Ev> =
        r.ev.iter()
            .filter(|e| e.kind == "local-drop" && e.t >= 42.8 && e.t < 52.8)
            .collect();
    let spurious = drops
        .iter()
        .filter(|d| d.seq + MSS <= r.snd_max_before(d.t))
        .count();
    let originals = drops.len() - spurious;
    assert!(
        (3..=5).contains(&drops.len()) && originals >= 1 && spurious >= 1,
        "{drops:?}: {spurious} spurious retransmissions, {originals} originals"
    );
    // Every local drop quenches: the last window row at that instant has cwnd = 1 MSS.
    for d in r.events("local-drop") {
        let last = r.win.iter().rev().find(|w| w.t <= d.t).unwrap();
        assert_eq!((last.t, last.cwnd), (d.t, MSS), "{d:?}");
    }
    // The dropped original is repaired by a fast retransmit after the go-back-N phase.
    let frs = r.events("fast-retransmit");
    for d in drops.iter().filter(|d| d.seq + MSS > r.snd_max_before(d.t)) {
        assert!(
            frs.iter().any(|f| f.seq == d.seq && f.t > d.t),
            "{d:?} {frs:?}"
        );
    }
    // Every local drop is a queue drop at the sender's own interface, and nothing else was
    // dropped (the flush at the end of the hold fits into the IFQ).
    assert_eq!(r.m.queue_drops, r.m.sender_local_drops);
    assert_eq!(r.m.sender_spurious_timeouts, 0, "no Eifel here");
}

/// S8c / RT11 (Fig 5-4): reordering of length 6 without Eifel.
#[test]
fn s8c_reordering_of_6_gives_6_dupacks_a_spurious_fast_retransmit_and_halves_the_load() {
    let r = traced(&hiccup(REORDER_6, "e2e"));
    assert_eq!(r.m.sender_timeouts, 0);
    assert_eq!(r.m.sender_fast_retransmits, 1);
    let fr = r.first("fast-retransmit");
    // The duplicate ACKs: window rows between the last ACK before the FR and the next ACK.
    let last_ack = r.ev.iter().rev().find(|e| e.kind == "ack" && e.t < fr.t);
    let next_ack = r.ev.iter().find(|e| e.kind == "ack" && e.t > fr.t).unwrap();
    let dups: Vec<&Win> = r
        .win
        .iter()
        .filter(|w| w.t > last_ack.unwrap().t && w.t < next_ack.t)
        .collect();
    assert_eq!(dups.len(), 6, "{dups:?}");
    assert_eq!(
        dups[2].t, fr.t,
        "fast retransmit on the third duplicate ACK"
    );
    // The load is halved: ssthresh = min(cwnd, rwnd)/2 in whole segments, and the first new ACK
    // leaves cwnd = ssthresh + 1 MSS.
    let before = r.before(fr.t);
    assert!(
        before.cwnd >= RWND,
        "window limited by the receiver before: {before:?}"
    );
    let half = RWND / 2 / MSS * MSS;
    assert_eq!(r.at(fr.t).ssthresh, half);
    let exit = r.at(next_ack.t);
    assert_eq!((exit.cwnd, exit.ssthresh), (half + MSS, half));
    // The fast retransmission was needless: it reached the receiver as a duplicate.
    assert_eq!(r.m.receiver_duplicate_segments, 1);
    assert_eq!(r.m.sender_retransmitted_segments, 1);
}

/// S8d / RT10 (Fig 5-5): the 12 s delay spike with Eifel.
#[test]
fn s8d_eifel_detects_the_spurious_timeout_restores_and_does_not_go_back_n() {
    let r = traced(&hiccup(HOLD_12S, "e2e+eifel"));
    assert_eq!(r.m.sender_timeouts, 1);
    assert_eq!(r.m.sender_spurious_timeouts, 1);
    let to = r.first("timeout");
    assert!(to.t > 43.3 && to.t < 55.3, "{to:?}");
    let saved = r.before(to.t);
    // Detection on the first ACK after the timeout.
    let undo = r.first("spurious-undo");
    let first_ack = r.ev.iter().find(|e| e.kind == "ack" && e.t > to.t).unwrap();
    assert_eq!(undo.t, first_ack.t);
    let after = r.at(undo.t);
    assert_eq!((after.cwnd, after.ssthresh), (saved.cwnd, saved.ssthresh));
    // Resume with the next unsent segment: snd_nxt = snd_max, the next send is new data.
    let snd_max = r.snd_max_before(undo.t);
    assert_eq!(after.nxt, snd_max);
    let next =
        r.ev.iter()
            .find(|e| e.t >= undo.t && e.kind == "send")
            .unwrap();
    assert_eq!(next.seq, snd_max);
    // Exactly one spurious retransmission; no go-back-N, no fast retransmit.
    assert_eq!(r.events("retransmit").len(), 1);
    assert_eq!(r.m.sender_retransmitted_segments, 1);
    assert_eq!(r.m.receiver_duplicate_segments, 1);
    assert_eq!(r.m.sender_fast_retransmits, 0);
    assert_eq!(r.m.queue_drops, 0);
}

/// S8e / RT11 (Fig 5-6): reordering of length 6 with Eifel.
#[test]
fn s8e_eifel_detects_the_spurious_fast_retransmit_and_restores_with_a_burst() {
    let r = traced(&hiccup(REORDER_6_EIFEL, "e2e+eifel"));
    assert_eq!(r.m.sender_fast_retransmits, 1);
    assert_eq!(r.m.sender_spurious_fast_retransmits, 1);
    assert_eq!(r.m.sender_timeouts, 0);
    let fr = r.first("fast-retransmit");
    let saved = r.before(fr.t);
    let undo = r.first("spurious-undo");
    let after = r.at(undo.t);
    assert_eq!((after.cwnd, after.ssthresh), (saved.cwnd, saved.ssthresh));
    // The restore releases a burst: the usable window (cwnd, limited by rwnd) minus what is
    // still outstanding goes out at once.
    let burst =
        r.ev.iter()
            .filter(|e| e.t == undo.t && e.kind == "send")
            .count() as i64;
    let outstanding = (after.nxt - after.una) / MSS;
    let usable = saved.cwnd.min(RWND) / MSS;
    assert!(
        burst >= usable - outstanding,
        "burst {burst}, outstanding {outstanding}"
    );
    assert!(burst >= 5, "a burst, not ACK clocking: {burst}");
    assert_eq!(r.m.sender_retransmitted_segments, 1);
}

/// S8e with the burst pacer (Ludwig2000 §5.2.2, `tcp.eifel_burst_pacer = "srtt"`): the window
/// the restore gives back is released one segment at a time over one smoothed RTT (about 8.3 s
/// here) while the ACK clock runs on, instead of 7 segments at once.
#[test]
fn s8e_with_the_burst_pacer_releases_the_restored_window_over_one_srtt() {
    let plain = traced(&hiccup(REORDER_6_EIFEL, "e2e+eifel"));
    let mut s = hiccup(REORDER_6_EIFEL, "e2e+eifel");
    s.set("tcp.eifel_burst_pacer", "srtt").unwrap();
    let paced = traced(&s);
    let undo = plain.first("spurious-undo").t;
    assert_eq!(paced.first("spurious-undo").t, undo, "same detection");
    let sends_in = |r: &sender_trace::Run, from: f64, to: f64| -> Vec<f64> {
        r.ev.iter()
            .filter(|e| e.t >= from && e.t < to && e.kind == "send")
            .map(|e| e.t)
            .collect()
    };
    let at_undo = |r: &sender_trace::Run| sends_in(r, undo, undo + 1e-9).len();
    assert!(
        at_undo(&plain) >= 5,
        "the unpaced burst: {}",
        at_undo(&plain)
    );
    assert_eq!(at_undo(&paced), 1, "one at once");
    // No burst later either: at most the ACK clock's two at one instant.
    let sends = sends_in(&paced, undo, undo + 10.0);
    let most = sends
        .iter()
        .map(|t| sends.iter().filter(|u| *u == t).count())
        .max()
        .unwrap();
    assert!(most <= 2, "{most} at one instant");
    // The window is released within one smoothed RTT, not lost: as many segments sent in the
    // 10 s after the undo as without the pacer, give or take the last release or two.
    let unpaced = sends_in(&plain, undo, undo + 10.0).len();
    assert!(
        sends.len() + 2 >= unpaced && sends.len() <= unpaced,
        "{} against {unpaced}",
        sends.len()
    );
    assert_eq!(paced.m.sender_spurious_fast_retransmits, 1);
    assert_eq!(paced.m.sender_retransmitted_segments, 1);
}

/// The issue's headline check: a 4 s hold on the LAN preset's wireless hop (error-free, so the
/// hold is the only event), plain Reno against Eifel.
#[test]
fn lan_delay_spike_reno_goes_back_n_and_eifel_undoes_it() {
    let hold = r#"[{ kind = "hold", at = "20s", duration = "4s" }]"#;
    let lan = |scheme: &str| {
        traced(&scenario(
            "lan",
            &[
                ("error_every", "0"),
                ("hops.1.forward.hiccups", hold),
                ("scheme", scheme),
            ],
        ))
    };
    let reno = lan("e2e");
    let window = 32 * 1024;
    assert_eq!(reno.m.sender_timeouts, 1);
    assert_eq!(reno.m.sender_spurious_timeouts, 0);
    let rexmit = reno.m.sender_retransmitted_bytes as i64;
    assert!(
        (rexmit - window).abs() <= 2 * 1400,
        "go-back-N resends about the window: {rexmit}"
    );
    assert_eq!(
        reno.m.receiver_duplicate_segments,
        reno.m.sender_retransmitted_segments
    );

    let eifel = lan("e2e+eifel");
    assert_eq!(eifel.m.sender_timeouts, 1);
    assert_eq!(eifel.m.sender_spurious_timeouts, 1);
    assert_eq!(eifel.m.sender_retransmitted_bytes, 1400);
    assert_eq!(eifel.m.sender_fast_retransmits, 0);
    let to = eifel.first("timeout");
    let undo = eifel.first("spurious-undo");
    let first_ack = eifel
        .ev
        .iter()
        .find(|e| e.kind == "ack" && e.t > to.t)
        .unwrap();
    assert_eq!(
        undo.t, first_ack.t,
        "detected on the first ACK after the timeout"
    );
    let (saved, after) = (eifel.before(to.t), eifel.at(undo.t));
    assert_eq!((after.cwnd, after.ssthresh), (saved.cwnd, saved.ssthresh));
    // The spike costs Eifel less time than go-back-N does Reno (each against its own
    // spike-free run: timestamps make Eifel's segments 12 bytes longer).
    let base = |scheme: &str| {
        run(
            &scenario("lan", &[("error_every", "0"), ("scheme", scheme)]),
            1,
            &RunOptions::default(),
        )
        .unwrap()
        .metrics
        .completion_s
    };
    let reno_cost = reno.m.completion_s - base("e2e");
    let eifel_cost = eifel.m.completion_s - base("e2e+eifel");
    assert!(
        eifel_cost < reno_cost,
        "eifel {eifel_cost} s, reno {reno_cost} s"
    );
}

#[test]
fn hiccup_validation_names_the_field() {
    let mut s = Scenario::preset("hiccup").unwrap();
    let e = s
        .set(
            "hops.0.forward.hiccups",
            r#"[{ kind = "hold", at = "1s", duration = "1s" }, { kind = "reorder", at = "2s", length = 0 }]"#,
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("hops[0].forward.hiccups[1].length:"),
        "{e}"
    );
    let e = s
        .set(
            "hops.0.reverse.hiccups",
            r#"[{ kind = "hold", at = "1s", duration = "0s" }]"#,
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("hops[0].reverse.hiccups[0].duration:"),
        "{e}"
    );
    let e = s
        .set(
            "hops.0.forward.hiccups",
            r#"[{ kind = "stall", at = "1s" }]"#,
        )
        .unwrap_err();
    assert!(e.to_string().contains("hiccups"), "{e}");
    // An expiry needs the IP stage, and a positive duration; an unknown stage is named.
    for (hold, field, says) in [
        (
            r#"[{ kind = "hold", at = "1s", duration = "1s", expire = "500ms" }]"#,
            "hops[0].forward.hiccups[0].expire:",
            "stage = \"ip\"",
        ),
        (
            r#"[{ kind = "hold", at = "1s", duration = "1s", stage = "ip", expire = "0s" }]"#,
            "hops[0].forward.hiccups[0].expire:",
            "greater than zero",
        ),
        (
            r#"[{ kind = "hold", at = "1s", duration = "1s", stage = "driver" }]"#,
            "",
            "link",
        ),
    ] {
        let e = s
            .set("hops.0.forward.hiccups", hold)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(field) && e.contains(says), "{e}");
    }
}
