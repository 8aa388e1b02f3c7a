#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Ludwig2000 S5 (§4.2.2, spec RT21): a second connection opens while a bulk transfer has
//! loaded the GSM link's queue; its SYN waits behind the queue longer than the 6 s initial RTO
//! and times out. With an interface queue of 4 packets (the ISPs' 3-4 per line) it does not.

use lossylink::{run, Column, RunOptions, Scenario, Trace};

/// The gsm preset's link as a topology document with two flows from the mobile: the bulk
/// transfer from 0 s and, at `second_at`, a second connection that opens with a SYN.
pub fn two_flows(queue: u32, second_at: &str) -> Scenario {
    Scenario::from_toml_str(&format!(
        r#"
name = "gsm-s5"
scheme = "e2e"

[tcp]
profile = "bsd"
mss = 460
buffer = "8KiB"
timestamps = true

[[nodes]]
name = "mobile"
kind = "host"

[[nodes]]
name = "fixed"
kind = "host"

[[links]]
name = "gsm"
between = ["mobile", "fixed"]
role = "wireless"
medium = "gsm-csd"
rate = "9600bps"
delay = "90ms"
queue = {queue}
gsm = {{ n2 = 6, l2r = {{ rate = 960, gap_min = "950ms", gap_max = "1300ms" }} }}

[[flows]]
name = "bulk"
from = "mobile"
to = "fixed"
bytes = "230KB"

[[flows]]
name = "second"
from = "mobile"
to = "fixed"
bytes = "10KB"
start = "{second_at}"
tcp = {{ syn = true }}
"#
    ))
    .unwrap()
}

/// (time, kind) of the second flow's events.
pub fn second_events(tr: &Trace) -> Vec<(f64, String)> {
    let t = tr.tables.iter().find(|t| t.name == "events").unwrap();
    let col = |n: &str| &t.columns.iter().find(|(k, _)| k == n).unwrap().1;
    let (Column::Str(flow), Column::F64(time), Column::Str(kind)) =
        (col("flow"), col("time_s"), col("kind"))
    else {
        panic!("columns")
    };
    (0..time.len())
        .filter(|&i| flow[i] == "second")
        .map(|i| (time[i], kind[i].clone()))
        .collect()
}

fn at(ev: &[(f64, String)], kind: &str) -> Vec<f64> {
    ev.iter().filter(|e| e.1 == kind).map(|e| e.0).collect()
}

#[test]
fn rt21_the_second_connections_syn_times_out_behind_the_loaded_queue() {
    let r = run(&two_flows(50, "100s"), 1, &RunOptions::traced()).unwrap();
    let ev = second_events(&r.trace.unwrap());
    // The SYN leaves at 100 s behind the bulk flow's 18 segments (9.7 s at 960 B/s); its
    // timer, armed with the initial 6 s on the 500 ms slow tick, fires first (at 105.79 s,
    // 12 ticks after the tick before the SYN) and the SYN is resent, backed off to 12 s.
    assert_eq!(at(&ev, "syn"), [100.0]);
    let to = at(&ev, "syn-timeout");
    assert_eq!(to.len(), 1, "{ev:?}");
    assert!((to[0] - 105.787).abs() < 0.01, "{to:?}");
    assert_eq!(at(&ev, "syn-retransmit"), to);
    // The first SYN's SYN-ACK opens the connection 9.8 s after it left (the queue's drain
    // time); the resent SYN's SYN-ACK, later, changes nothing.
    let open = at(&ev, "established");
    assert_eq!(open.len(), 1);
    assert!((9.5..10.5).contains(&(open[0] - 100.0)), "{open:?}");
    // Data flows only after it.
    let first_data = at(&ev, "send")[0];
    assert!(first_data >= open[0]);
}

#[test]
fn rt21_with_a_four_packet_queue_the_syn_gets_through() {
    let r = run(&two_flows(4, "100s"), 1, &RunOptions::traced()).unwrap();
    let ev = second_events(&r.trace.unwrap());
    assert!(at(&ev, "syn-timeout").is_empty(), "{ev:?}");
    let open = at(&ev, "established");
    assert!(open[0] - 100.0 < 3.0, "{open:?}");
}

#[test]
fn syn_and_seeded_handshake_are_exclusive() {
    let mut s = Scenario::preset("gsm").unwrap();
    s.set("tcp.syn", "true").unwrap();
    let e = s.set("tcp.handshake_rtt", "true").unwrap_err().to_string();
    assert!(
        e.starts_with("tcp.handshake_rtt: seeds the estimator"),
        "{e}"
    );
}
