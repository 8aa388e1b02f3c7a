#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The late third duplicate ACK after a timeout (Ludwig2000 §3.1.2, §5.4.5; spec §9 Q3) on the
//! hiccup testbed: a reordered segment plus a hold on the ACK direction, so that its duplicate
//! ACKs arrive after the retransmission timer has resent it.

use crate::common;
use crate::sender_trace;
use common::scenario;
use lossylink::Scenario;
use sender_trace::{traced, Run, Win, MSS, RWND};

/// The late-dupack situation on the hiccup testbed: segment 94 is held back until 40 more data
/// packets have passed, so for the sender it is lost. Segment 95 overtakes it; the immediate
/// ACK that 95 triggers still acknowledges 93 (its ACK had been delayed) and is back at
/// 40.97 s. The 16 duplicate ACKs of 96..=111 (and every other ACK) are held on the reverse
/// direction from 41.1 s to 53.1 s. The timer (RTO 9.5 s) fires at 50.3 s and resends
/// segment 94, which fills the hole; at 53.1 s the held duplicates arrive, the third of them
/// 2.96 s after the timeout, then the ACK of all 18 segments (echoing the retransmission's
/// timestamp: the timeout was genuine).
const LATE_DUPACK_FWD: &str = r#"[{ kind = "reorder", at = "40.5s", length = 40 }]"#;
const LATE_DUPACK_REV: &str = r#"[{ kind = "hold", at = "41.1s", duration = "12s" }]"#;

fn late_dupack(scheme: &str, policy: Option<&str>) -> Run {
    let mut o = vec![
        ("hops.0.forward.hiccups", LATE_DUPACK_FWD),
        ("hops.0.reverse.hiccups", LATE_DUPACK_REV),
        ("scheme", scheme),
    ];
    if let Some(p) = policy {
        o.push(("tcp.eifel_late_dupack", p));
    }
    traced(&scenario("hiccup", &o))
}

/// What the four senders have in common up to the late duplicate: one genuine timeout of
/// segment 94 while the ACKs are held, and its third duplicate at the release. Returns the
/// window before the timeout, after it, the time of the third late duplicate and the window
/// right after that duplicate.
fn late_dupack_common(r: &Run) -> (Win, Win, f64, Win) {
    assert_eq!(r.m.sender_timeouts, 1);
    assert_eq!(
        r.m.sender_spurious_timeouts, 0,
        "segment 94 was really missing"
    );
    let to = r.first("timeout");
    assert_eq!(to.seq, 94 * MSS);
    assert!(to.t > 50.0 && to.t < 53.1, "{to:?}");
    let (saved, after_to) = (r.before(to.t), r.at(to.t));
    assert_eq!(
        (after_to.cwnd, after_to.ssthresh),
        (MSS, RWND / 2 / MSS * MSS)
    );
    // Window rows after the timeout without a new ACK: the duplicates (and the timeout's own).
    let dups: Vec<&Win> = r
        .win
        .iter()
        .filter(|w| w.t > to.t && w.t < 53.9 && w.una == to.seq)
        .collect();
    assert_eq!(dups.len(), 16);
    let third = *dups[2];
    assert!(
        third.t > 53.1,
        "the third duplicate comes with the release: {third:?}"
    );
    (saved, after_to, third.t, third)
}

/// Q3 on the testbed, all three readings against plain BSD Reno: the BSD sender (`e2e`, and
/// Eifel with `off`) fast-retransmits segment 94 a second time on the third late duplicate,
/// halves again from cwnd = 1 MSS (ssthresh 2 MSS) and, its go-back-N point still at 95,
/// resends the whole flight once the duplicates inflate the window; Eifel suppresses that
/// fast retransmit and resends nothing but the timeout's segment.
#[test]
fn late_third_dupack_after_a_timeout_is_suppressed_by_eifel() {
    let bsd = late_dupack("e2e", None);
    let (saved, after_to, t3, w) = late_dupack_common(&bsd);
    assert_eq!(bsd.first("fast-retransmit").t, t3);
    assert_eq!((w.cwnd, w.ssthresh), (5 * MSS, 2 * MSS));
    // The timeout's retransmission, the late fast retransmission, 95..=111 again, and one
    // more (spurious) fast retransmit caused by the duplicates that go-back-N produced.
    assert_eq!(bsd.m.sender_retransmitted_segments, 20);
    assert_eq!(bsd.m.sender_fast_retransmits, 2);
    assert_eq!(bsd.m.sender_suppressed_fast_retransmits, 0);
    assert_eq!(bsd.m.receiver_duplicate_segments, 20);

    // Eifel with the rule off is the same sender.
    let off = late_dupack("e2e+eifel", Some("off"));
    late_dupack_common(&off);
    for (a, b) in [
        (off.m.sender_retransmitted_segments, 20),
        (off.m.sender_fast_retransmits, 2),
        (off.m.sender_suppressed_fast_retransmits, 0),
    ] {
        assert_eq!(a, b);
    }
    assert_eq!(off.m.completion_s, bsd.m.completion_s);

    for (policy, window) in [
        (None, (after_to.ssthresh, after_to.ssthresh)),
        (Some("halve"), (after_to.ssthresh, after_to.ssthresh)),
        (Some("restore"), (saved.cwnd, saved.ssthresh)),
    ] {
        let r = late_dupack("e2e+eifel", policy);
        let (_, _, t3, w) = late_dupack_common(&r);
        let sup = r.first("suppressed-fast-retransmit");
        assert_eq!((sup.t, sup.seq), (t3, 94 * MSS), "{policy:?}");
        assert_eq!((w.cwnd, w.ssthresh), window, "{policy:?}");
        // No go-back-N: sending resumes after snd_max.
        assert_eq!(w.nxt, 112 * MSS, "{policy:?}");
        assert_eq!(r.m.sender_suppressed_fast_retransmits, 1);
        assert_eq!(r.m.sender_fast_retransmits, 0);
        assert_eq!(r.m.sender_retransmitted_segments, 1, "{policy:?}");
        // The only duplicate at the receiver is the reordered original of 94, arriving last.
        assert_eq!(r.m.receiver_duplicate_segments, 1);
        assert_eq!(r.events("retransmit").len(), 1);
        assert!(
            r.m.completion_s < bsd.m.completion_s - 5.0,
            "{policy:?}: {} s vs BSD {} s",
            r.m.completion_s,
            bsd.m.completion_s
        );
    }
}

#[test]
fn late_dupack_validation_names_the_field_and_the_values() {
    let mut s = Scenario::preset("hiccup").unwrap();
    s.set("scheme", "e2e+eifel").unwrap();
    let e = s.set("tcp.eifel_late_dupack", "halved").unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("tcp.eifel_late_dupack:"), "{text}");
    for v in ["halve", "restore", "off"] {
        assert!(text.contains(v), "{text}");
    }
    // Without Eifel the rule has nothing to act on.
    let mut s = Scenario::preset("hiccup").unwrap();
    let e = s.set("tcp.eifel_late_dupack", "restore").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("tcp.eifel_late_dupack: is an Eifel rule, but Eifel is off"),
        "{e}"
    );
    s.set("tcp.eifel_late_dupack", "off").unwrap();
    s.set("tcp.eifel", "rfc4015").unwrap();
    s.set("tcp.eifel_late_dupack", "restore").unwrap();
    // The burst pacer likewise needs Eifel, and names its values.
    let mut s = Scenario::preset("hiccup").unwrap();
    let e = s
        .set("tcp.eifel_burst_pacer", "srtt")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("tcp.eifel_burst_pacer: paces the burst"),
        "{e}"
    );
    let e = s
        .set("tcp.eifel_burst_pacer", "rtt")
        .unwrap_err()
        .to_string();
    assert!(e.contains("off") && e.contains("srtt"), "{e}");
}

/// The ground-truth count of timeouts whose segment had reached the receiver
/// (`sender_timeouts_after_arrival`): with only the ACK direction held (41.1-53.1 s) every
/// segment arrives and the timer fires during the hold, so each timeout is one; in the
/// late-dupack run segment 94 is really missing when the timer fires, so it is none.
#[test]
fn timeouts_after_arrival_count_the_receivers_view_not_a_detector() {
    let acks_held = traced(&scenario(
        "hiccup",
        &[
            ("hops.0.reverse.hiccups", LATE_DUPACK_REV),
            ("scheme", "e2e"),
        ],
    ));
    assert!(acks_held.m.sender_timeouts >= 1);
    assert_eq!(
        acks_held.m.sender_timeouts_after_arrival, acks_held.m.sender_timeouts,
        "the receiver held every resent segment"
    );
    assert_eq!(acks_held.m.sender_spurious_timeouts, 0, "no detector runs");
    let missing = late_dupack("e2e", None);
    assert_eq!(missing.m.sender_timeouts, 1);
    assert_eq!(missing.m.sender_timeouts_after_arrival, 0);
}
