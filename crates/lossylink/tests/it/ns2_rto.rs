//! ns-2.35's retransmission timer in a run (`tcp.rto = "ns2"`, `tcp.tcp_tick`; the estimator's
//! unit tests in `tcp/src/rto/ns2.rs`, its packet script in `tcp/src/tests/ns2_rto.rs`): the
//! llelsn preset runs it, and its knobs are checked.

use crate::common::scenario;
use crate::sender_trace::f64s;
use lossylink::{run, RunOptions, Scenario};

/// The RTOs the estimator gave after each sample of seed 1 (the `rtt` table's `rto_s`).
fn rtos(s: &Scenario) -> Vec<f64> {
    let r = run(s, 1, &RunOptions::traced()).unwrap();
    let tr = r.trace.unwrap();
    let t = tr.tables.iter().find(|t| t.name == "rtt").unwrap();
    f64s(t, "rto_s").to_vec()
}

/// On the study's downlink with Fig. 7's d = 50 ms on each wired link (at d = 20 and 1 ms the
/// 200 ms `minrto_` binds on every sample), 5 % FER, Reno: with ns-2's timer every RTO after a sample is a
/// whole number of 10 ms ticks (`t_rtxcur_` in ticks, tcp.cc:616-617) and at least `minrto_`;
/// RFC 6298's continuous estimator (`tcp.rto = "profile"`) gives RTOs between the ticks.
#[test]
fn the_llelsn_presets_rtos_are_whole_ticks_of_ns2s_timer() {
    let ov = [
        ("run.duration", "20s"),
        ("scheme", "e2e"),
        ("links.0.delay", "50ms"),
        ("links.1.delay", "50ms"),
        (
            "cells.0.error",
            "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
        ),
    ];
    let whole = |v: f64| ((v * 1e5).round() as i64) % 1000 == 0;
    let ns2 = rtos(&scenario("llelsn", &ov));
    assert!(ns2.len() > 30, "{} samples", ns2.len());
    assert!(ns2.iter().all(|&v| whole(v) && v >= 0.2 - 1e-9), "{ns2:?}");
    assert!(
        ns2.iter().any(|&v| v > 0.2 + 1e-9),
        "the 200 ms floor does not always bind"
    );
    let mut fine = scenario("llelsn", &ov);
    fine.set("tcp.rto", "profile").unwrap();
    let fine = rtos(&fine);
    assert!(fine.iter().any(|&v| !whole(v)), "{fine:?}");
}

#[test]
fn tcp_tick_belongs_to_the_ns2_timer_and_is_positive() {
    let mut s = Scenario::preset("lan").unwrap();
    let e = s.set("tcp.tcp_tick", "10ms").unwrap_err().to_string();
    assert!(
        e.starts_with("tcp.tcp_tick: is ns-2's tcpTick_, the granularity of tcp.rto = \"ns2\""),
        "{e}"
    );
    s.set("tcp.rto", "ns2").unwrap();
    let e = s.set("tcp.tcp_tick", "0ms").unwrap_err().to_string();
    assert!(
        e.starts_with("tcp.tcp_tick: must be greater than zero"),
        "{e}"
    );
    s.set("tcp.tcp_tick", "500ms").unwrap();
}
