#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! `ll-arq` against `ll` (Balakrishnan97 §4.2, §2.13): does out-of-order delivery, not timer
//! competition, cost LL its throughput? `ll`, `ll-arq` with out-of-order delivery and `ll-arq`
//! with in-order delivery at the mobile, LAN 32 KiB and WAN 32 KiB, 10 seeds each.
//!
//! Asserted is only what the mechanism guarantees: with in-order delivery the TCP receiver never
//! sees a hole from a wireless loss the ARQ repairs, so the sender makes (almost) no fast
//! retransmits and no dupack-driven congestion response; with out-of-order delivery it does.
//! The numbers are printed (`--nocapture`) and recorded in docs/calibration.md.

use crate::common;
use common::{mean, scenario, seeds};
use lossylink::Metrics;

const SEEDS: u64 = 10;

fn cell(preset: &str, scheme: &str, extra: &[(&str, &str)]) -> Vec<Metrics> {
    let mut o = vec![("scheme", scheme)];
    o.extend_from_slice(extra);
    seeds(&scenario(preset, &o), SEEDS)
}

fn row(label: &str, preset: &str, ms: &[Metrics]) {
    println!(
        "{preset:4} {label:19} {:6.3} Mb/s  fast rxmt {:6.1}  timeouts {:4.1}  dupacks {:6.1}  local {:6.1}  link acks {:7.0}  held {:6.1}  given up {:4.1}  wired {:5.1}%  wireless {:5.1}%",
        mean(ms, |m| m.throughput_mbps),
        mean(ms, |m| m.sender_fast_retransmits as f64),
        mean(ms, |m| m.sender_timeouts as f64),
        mean(ms, |m| m.sender_dupacks as f64),
        mean(ms, |m| m.local_retransmissions as f64),
        mean(ms, |m| m.link_ack_frames as f64),
        mean(ms, |m| m.link_frames_held as f64),
        mean(ms, |m| m.link_frames_given_up as f64),
        mean(ms, |m| m.wired_goodput_pct),
        mean(ms, |m| m.wireless_goodput_pct),
    );
}

#[test]
fn in_order_delivery_removes_the_fast_retransmits_out_of_order_delivery_causes() {
    for preset in ["lan", "wan"] {
        let ll = cell(preset, "ll", &[]);
        let ooo = cell(preset, "ll-arq", &[("ll.arq.in_order", "false")]);
        let ino = cell(preset, "ll-arq", &[("ll.arq.in_order", "true")]);
        row("ll", preset, &ll);
        row("ll-arq out-of-order", preset, &ooo);
        row("ll-arq in-order", preset, &ino);
        // For reference: snoop hides the dupacks instead of preventing them.
        row("ll-tcp-aware", preset, &cell(preset, "ll-tcp-aware", &[]));
        let fr = |ms: &[Metrics]| mean(ms, |m| m.sender_fast_retransmits as f64);
        // The ARQ repairs every loss locally (6 retransmissions per frame): with in-order
        // delivery the receiver sees no hole, so no dupacks reach the sender.
        assert!(
            fr(&ino) <= 0.5,
            "{preset}: in-order ll-arq still has {} fast retransmits per run",
            fr(&ino)
        );
        assert!(ino.iter().all(|m| m.link_frames_held > 0));
        assert!(ino.iter().all(|m| m.wired_goodput_pct > 99.9));
        // Out-of-order delivery turns the same repairs into dupacks at the TCP receiver.
        assert!(
            fr(&ooo) > fr(&ino) + 1.0,
            "{preset}: out-of-order ll-arq {} vs in-order {}",
            fr(&ooo),
            fr(&ino)
        );
        assert!(ooo.iter().all(|m| m.link_frames_held == 0));
        assert!(ooo
            .iter()
            .chain(&ino)
            .all(|m| m.link_ack_frames > 0 && m.local_retransmissions > 0));
    }
}

#[test]
fn one_segment_gets_one_link_ack_and_arrives_when_it_would_without_the_arq() {
    let base = [("error_every", "0"), ("transfer", "1400")];
    let plain = lossylink::run(&scenario("lan", &base), 1, &Default::default())
        .unwrap()
        .metrics;
    let mut o = base.to_vec();
    o.push(("scheme", "ll-arq"));
    let arq = lossylink::run(&scenario("lan", &o), 1, &Default::default())
        .unwrap()
        .metrics;
    assert_eq!(arq.completion_s, plain.completion_s);
    assert_eq!((arq.link_ack_frames, arq.local_retransmissions), (1, 0));
    // The link ACK is not a TCP ACK.
    assert_eq!(arq.receiver_acks, plain.receiver_acks);
}

#[test]
fn arq_knobs_are_validated_with_their_path() {
    let mut s = scenario("lan", &[("scheme", "ll-arq")]);
    for (k, v) in [
        ("ll.arq.max_retransmissions", "\"forever\""),
        ("ll.arq.ack_size", "0"),
        ("ll.arq.min_rto", "0s"),
    ] {
        let e = s.set(k, v).expect_err(k).to_string();
        assert!(e.contains(k), "{e}");
    }
    s.set("ll.arq.max_retransmissions", "\"persistent\"")
        .unwrap();
    s.set("ll.arq.max_retransmissions", "0").unwrap();
}

#[test]
fn a_semi_reliable_arq_without_retransmissions_gives_every_loss_up() {
    // Limit 0: the CDMA-style "limited attempt" at its extreme; TCP recovers every loss itself.
    let m = &cell(
        "lan",
        "ll-arq",
        &[
            ("ll.arq.max_retransmissions", "0"),
            ("ll.arq.in_order", "true"),
        ],
    )[..1][0];
    assert_eq!(m.local_retransmissions, 0);
    assert!(m.link_frames_given_up > 0);
    assert!(m.sender_retransmitted_segments > 0);
}
