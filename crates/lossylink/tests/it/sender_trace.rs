#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The sender's trace tables as rows, for the hiccup-testbed tests (shared by
//! `hiccup_eifel.rs` and `late_dupack.rs`).
#![allow(dead_code)]

use lossylink::{run, Column, Metrics, RunOptions, Scenario, TraceTable};

pub const MSS: i64 = 460;
pub const RWND: i64 = 8496;

/// One row of the sender's window table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Win {
    pub t: f64,
    pub cwnd: i64,
    pub ssthresh: i64,
    pub una: i64,
    pub nxt: i64,
}

/// One row of the events table.
#[derive(Clone, Debug, PartialEq)]
pub struct Ev {
    pub t: f64,
    pub kind: String,
    pub seq: i64,
}

pub struct Run {
    pub m: Metrics,
    pub win: Vec<Win>,
    pub ev: Vec<Ev>,
}

pub fn f64s<'a>(t: &'a TraceTable, name: &str) -> &'a [f64] {
    match t.columns.iter().find(|(n, _)| n == name) {
        Some((_, Column::F64(v))) => v,
        _ => panic!("no f64 column {name}"),
    }
}
pub fn i64s<'a>(t: &'a TraceTable, name: &str) -> &'a [i64] {
    match t.columns.iter().find(|(n, _)| n == name) {
        Some((_, Column::I64(v))) => v,
        _ => panic!("no i64 column {name}"),
    }
}
pub fn strs<'a>(t: &'a TraceTable, name: &str) -> &'a [String] {
    match t.columns.iter().find(|(n, _)| n == name) {
        Some((_, Column::Str(v))) => v,
        _ => panic!("no str column {name}"),
    }
}

pub fn traced(s: &Scenario) -> Run {
    let r = run(s, 1, &RunOptions::traced()).unwrap();
    let tr = r.trace.unwrap();
    let (w, e) = (&tr.tables[0], &tr.tables[1]);
    let win = (0..f64s(w, "time_s").len())
        .map(|i| Win {
            t: f64s(w, "time_s")[i],
            cwnd: i64s(w, "cwnd")[i],
            ssthresh: i64s(w, "ssthresh")[i],
            una: i64s(w, "snd_una")[i],
            nxt: i64s(w, "snd_nxt")[i],
        })
        .collect();
    let ev = (0..f64s(e, "time_s").len())
        .map(|i| Ev {
            t: f64s(e, "time_s")[i],
            kind: strs(e, "kind")[i].clone(),
            seq: i64s(e, "seq")[i],
        })
        .collect();
    Run {
        m: r.metrics,
        win,
        ev,
    }
}

impl Run {
    pub fn events(&self, kind: &str) -> Vec<&Ev> {
        self.ev.iter().filter(|e| e.kind == kind).collect()
    }
    pub fn first(&self, kind: &str) -> &Ev {
        self.ev
            .iter()
            .find(|e| e.kind == kind)
            .unwrap_or_else(|| panic!("no {kind} event"))
    }
    /// The last window row strictly before `t`.
    pub fn before(&self, t: f64) -> Win {
        *self.win.iter().rev().find(|w| w.t < t).unwrap()
    }
    /// The first window row at or after `t`.
    pub fn at(&self, t: f64) -> Win {
        *self.win.iter().find(|w| w.t >= t).unwrap()
    }
    /// Highest stream offset sent before `t`.
    pub fn snd_max_before(&self, t: f64) -> i64 {
        self.ev
            .iter()
            .filter(|e| e.t < t && (e.kind == "send" || e.kind == "retransmit"))
            .map(|e| e.seq + MSS)
            .max()
            .unwrap()
    }
}
