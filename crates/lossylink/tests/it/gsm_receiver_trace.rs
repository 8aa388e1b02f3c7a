#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The receiver's trace (`receiver` table): MultiTracer's `TcpRcv_Data` and `TcpRcv_Ack`
//! curves of Ludwig2000's multi-layer plot (§3.2.4, spec §4.2), on the `gsm` preset.

use crate::sender_trace;
use lossylink::{run, RunOptions, Scenario, TraceTable};
use sender_trace::{f64s, i64s, strs};

fn table<'a>(tables: &'a [TraceTable], name: &str) -> &'a TraceTable {
    tables.iter().find(|t| t.name == name).unwrap()
}

#[test]
fn the_receiver_trace_records_each_segment_it_accepts_and_each_ack_it_sends() {
    let mut s = Scenario::preset("gsm").unwrap();
    s.set("transfer", "8KiB").unwrap();
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    let tables = r.trace.clone().unwrap().tables;
    let rcv = table(&tables, "receiver");
    let (t, kind, seq, len) = (
        f64s(rcv, "time_s"),
        strs(rcv, "kind"),
        i64s(rcv, "seq"),
        i64s(rcv, "len"),
    );
    let row = |i: usize| {
        (
            (t[i] * 1e6).round() as i64,
            kind[i].as_str(),
            seq[i],
            len[i],
        )
    };
    // The first segment (460 + 52 header bytes + 7 of PPP: 22 RLP frames) leaves RLP with its
    // last frame at 440 ms and reaches the receiver after 90 ms of interleaving, at 530 ms.
    // BSD's delayed ACK goes out at the next 200 ms tick (this seed's phase: 723.466 ms); the
    // 59-byte ACK takes three frames from the block at 740 ms and reaches the sender at
    // 800 + 90 = 890 ms, which sends the next two segments back to back: they arrive 22 blocks
    // apart, at 900 + 440 + 90 = 1430 ms and 1870 ms.
    assert_eq!(row(0), (530_000, "data", 0, 460));
    assert_eq!(row(1), (723_466, "ack", 460, 0));
    assert_eq!(row(2), (1_430_000, "data", 460, 460));
    assert_eq!(row(4), (1_870_000, "data", 920, 460));
    let ev = table(&tables, "events");
    let (et, ek, es) = (f64s(ev, "time_s"), strs(ev, "kind"), i64s(ev, "seq"));
    assert_eq!(
        ((et[1] * 1e3).round(), ek[1].as_str(), es[1]),
        (890.0, "ack", 460)
    );
    // Every byte arrives once, in order (a clean channel); the run ends with the last segment
    // (372 bytes, at 9750 ms: the transfer's completion), before its delayed ACK.
    let data: Vec<usize> = (0..t.len()).filter(|&i| kind[i] == "data").collect();
    assert_eq!(data.iter().map(|&i| len[i]).sum::<i64>(), 8192);
    assert!(data.windows(2).all(|w| seq[w[1]] == seq[w[0]] + len[w[0]]));
    assert_eq!(row(t.len() - 1), (9_750_000, "data", 7820, 372));
    assert!((r.metrics.completion_s - 9.75).abs() < 1e-9);
    assert!(t.windows(2).all(|w| w[0] <= w[1]));
}
