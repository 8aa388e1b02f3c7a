#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Handovers on the GSM RLP link (`gsm.handovers`; Ludwig2000 §2.4.2, spec §7.1 item 11, S13):
//! in GSM-CSD only the air interface's data can be lost, and RLP, which ends at the IWF,
//! resends it, so a handover costs delay, not packets, unless it outlasts RLP's persistency.

use crate::common;
use common::scenario;
use lossylink::{run, Metrics, RunOptions};

fn handover(duration: &str, lossless: bool) -> Metrics {
    let s = scenario(
        "gsm",
        &[(
            "hops.0.gsm",
            &format!(
                "{{ n2 = 6, l2r = {{ rate = 960 }}, handovers = [{{ at = \"60s\", duration = \"{duration}\", lossless = {lossless} }}] }}"
            ),
        )],
    );
    run(&s, 1, &RunOptions::default()).unwrap().metrics
}

#[test]
fn a_handover_costs_delay_unless_it_outlasts_rlp() {
    let base = run(&scenario("gsm", &[]), 1, &RunOptions::default())
        .unwrap()
        .metrics;
    let late = |m: &Metrics| m.completion_s - base.completion_s;
    let g = |m: &Metrics| m.gsm.clone().unwrap();
    // Lossless (the data waits out the interruption): exactly its length late, nothing resent.
    for (d, secs) in [("2s", 2.0), ("4s", 4.0)] {
        let m = handover(d, true);
        assert!((late(&m) - secs).abs() < 1e-6, "{d}: {}", late(&m));
        assert_eq!((g(&m).rlp_retransmissions, m.sender_timeouts), (0, 0));
    }
    // Lossy for 2 s: the 100 frames sent into it are lost and RLP resends them (each erased at
    // most 5 times, under N2 = 6): the same 2 s late, no reset, no TCP timeout.
    let m = handover("2s", false);
    assert!((late(&m) - 2.0).abs() < 1e-6, "{}", late(&m));
    assert_eq!(g(&m).rlp_retransmissions, 100);
    assert_eq!((g(&m).rlp_resets, m.sender_timeouts), (0, 0));
    // Lossy for 4 s: a frame is erased a seventh time (N2 = 6 covers 2.4 s): the link resets,
    // the flushed packets cost TCP a timeout, and the transfer is far later than 4 s.
    let m = handover("4s", false);
    assert_eq!((g(&m).rlp_resets, g(&m).rlp_flushed_packets), (1, 2));
    assert_eq!(m.sender_timeouts, 1);
    assert!(late(&m) > 10.0, "{}", late(&m));
}

#[test]
fn handovers_are_checked() {
    let mut s = lossylink::Scenario::preset("gsm").unwrap();
    let e = s
        .set(
            "hops.0.gsm",
            "{ handovers = [{ at = \"1s\", duration = \"0s\" }] }",
        )
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("hops[0].gsm.handovers[0].duration: must be greater than zero"),
        "{e}"
    );
}

#[test]
fn twenty_handovers_each_cost_their_length() {
    // Twenty lossless handovers of 500 ms, one every 10 s from 20 s (all within the 217 s
    // transfer), on the `gsm` link without L2R (which would let the sender catch up after
    // each, at the link's 1200 B/s against L2R's 960): exactly 10 s late, nothing resent.
    let list = |lossless: bool| {
        let items: Vec<String> = (0..20)
            .map(|k| {
                format!(
                    "{{ at = \"{}s\", duration = \"500ms\", lossless = {lossless} }}",
                    20 + 10 * k
                )
            })
            .collect();
        format!("{{ n2 = 6, handovers = [{}] }}", items.join(", "))
    };
    let base = run(
        &scenario("gsm", &[("hops.0.gsm", "{ n2 = 6 }")]),
        1,
        &RunOptions::default(),
    )
    .unwrap()
    .metrics;
    let go = |lossless: bool| {
        run(
            &scenario("gsm", &[("hops.0.gsm", &list(lossless))]),
            1,
            &RunOptions::default(),
        )
        .unwrap()
        .metrics
    };
    let late = |m: &Metrics| m.completion_s - base.completion_s;
    let m = go(true);
    let g = m.gsm.clone().unwrap();
    assert!((late(&m) - 10.0).abs() < 1e-6, "{}", late(&m));
    assert_eq!((g.rlp_retransmissions, m.sender_timeouts), (0, 0));
    // Lossy: the 25 frames sent into each are lost and resent (some again, when the resend
    // 400 ms later falls into the same interruption); every block is still used, so the
    // transfer is the same 10 s late, with no reset and no TCP timeout.
    let m = go(false);
    let g = m.gsm.clone().unwrap();
    assert!((late(&m) - 10.0).abs() < 1e-6, "{}", late(&m));
    assert!(g.rlp_retransmissions >= 500, "{g:?}");
    assert_eq!((g.rlp_resets, m.sender_timeouts), (0, 0));
}

#[test]
fn overlapping_or_unordered_handovers_are_refused() {
    let mut s = lossylink::Scenario::preset("gsm").unwrap();
    let e = s
        .set(
            "hops.0.gsm",
            "{ handovers = [{ at = \"10s\", duration = \"2s\" }, { at = \"11s\", duration = \"1s\" }] }",
        )
        .unwrap_err()
        .to_string();
    assert_eq!(
        e.lines().next().unwrap(),
        "hops[0].gsm.handovers[1].at: must not be before the end of handovers[0] (12s); give them in time order without overlaps",
    );
}
