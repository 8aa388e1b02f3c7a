#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! RTO_AGG (Ludwig2000 §5.4.6, spec §3.4) on the hiccup testbed: a 400 KB transfer with Eifel,
//! no hiccup, 50-packet interface queue (an RTT of about 7.8 s). The self-training factor pulls
//! the RTO down from the Eifel timer's towards the RTT until a timeout turns out spurious; Eifel
//! makes each such timeout cost one retransmission.

use crate::common;
use common::scenario;
use lossylink::{run, Column, Metrics, RunOptions};

fn transfer(rto: &str) -> (Metrics, Vec<f64>, Vec<f64>) {
    let s = scenario(
        "hiccup",
        &[
            ("scheme", "e2e+eifel"),
            ("transfer", "400KB"),
            ("tcp.rto", rto),
        ],
    );
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    let tr = r.trace.unwrap();
    let w = &tr.tables[0];
    let col = |n: &str| w.columns.iter().find(|(k, _)| k == n).unwrap().1.clone();
    let (Column::F64(t), Column::F64(rto_s)) = (col("time_s"), col("rto_s")) else {
        panic!("window columns")
    };
    (r.metrics, t, rto_s)
}

fn rto_at(t: &[f64], rto: &[f64], at: f64) -> f64 {
    rto[t.iter().position(|&x| x >= at).unwrap()]
}

#[test]
fn rto_agg_trains_the_rto_towards_the_rtt_at_the_price_of_spurious_timeouts() {
    let (plain, t0, r0) = transfer("eifel");
    let (agg, t1, r1) = transfer("eifel-agg");
    assert_eq!(plain.sender_timeouts, 0);
    // The trained RTO ends far below the Eifel timer's (which stays above the RTT).
    let (e, a) = (rto_at(&t0, &r0, 300.0), rto_at(&t1, &r1, 300.0));
    assert!(e > 8.0, "Eifel timer {e}");
    assert!(a < e / 2.0, "RTO_AGG {a} against {e}");
    // Where it undershot, the timeout was spurious, Eifel saw it, and nothing went back N.
    assert!(agg.sender_timeouts >= 1);
    assert_eq!(agg.sender_spurious_timeouts, agg.sender_timeouts);
    assert_eq!(agg.sender_retransmitted_segments, agg.sender_timeouts);
    assert!(agg.completion_s < plain.completion_s * 1.01);
}

#[test]
fn rto_agg_k_is_checked() {
    let mut s = lossylink::Scenario::preset("hiccup").unwrap();
    s.set("scheme", "e2e+eifel").unwrap();
    let e = s.set("tcp.rto_agg_k", "0.1").unwrap_err().to_string();
    assert!(
        e.starts_with("tcp.rto_agg_k: belongs to the RTO_AGG timer"),
        "{e}"
    );
    s.set("tcp.rto", "eifel-agg").unwrap();
    for bad in ["0", "1", "1.5", "0.0000001"] {
        let e = s.set("tcp.rto_agg_k", bad).unwrap_err().to_string();
        assert!(
            e.starts_with("tcp.rto_agg_k: must be a number between 0 and 1"),
            "{e}"
        );
    }
    s.set("tcp.rto_agg_k", "0.05").unwrap();
}
