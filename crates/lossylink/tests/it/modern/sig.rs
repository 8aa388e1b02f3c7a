//! What the signature tests read from a traced run: the sender's window rows, its events, the
//! estimator's round-trip samples and the receiver's rows (docs/traces.md), and scenarios built
//! from the `lan` and `wan` presets with losses at chosen wireless data frames.
#![allow(dead_code)]

use lossylink::{run, Column, Metrics, RunOptions, Scenario, TraceTable};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The presets' segment size (Balakrishnan97 §4.1: 1400-byte data packets).
pub const MSS: i64 = 1400;

/// One row of the sender's window table (the state after an input).
#[derive(Clone, Debug, PartialEq)]
pub struct Win {
    pub t: f64,
    pub cwnd: i64,
    pub ssthresh: i64,
    pub una: i64,
    pub nxt: i64,
    pub rto: f64,
    pub phase: String,
}

/// One row of the sender's or the receiver's events table.
#[derive(Clone, Debug, PartialEq)]
pub struct Ev {
    pub t: f64,
    pub kind: String,
    pub seq: i64,
    pub len: i64,
}

/// One round-trip sample of the RTO estimator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rtt {
    pub t: f64,
    pub rtt: f64,
    pub rto: f64,
}

/// A traced run.
pub struct Traced {
    pub m: Metrics,
    pub win: Vec<Win>,
    pub ev: Vec<Ev>,
    pub rtt: Vec<Rtt>,
    pub rcv: Vec<Ev>,
}

fn table<'a>(t: &'a [TraceTable], name: &str) -> &'a TraceTable {
    t.iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no table {name}"))
}
fn f64s<'a>(t: &'a TraceTable, name: &str) -> &'a [f64] {
    match t.columns.iter().find(|(n, _)| n == name) {
        Some((_, Column::F64(v))) => v,
        _ => panic!("no f64 column {name}"),
    }
}
fn i64s<'a>(t: &'a TraceTable, name: &str) -> &'a [i64] {
    match t.columns.iter().find(|(n, _)| n == name) {
        Some((_, Column::I64(v))) => v,
        _ => panic!("no i64 column {name}"),
    }
}
fn strs<'a>(t: &'a TraceTable, name: &str) -> &'a [String] {
    match t.columns.iter().find(|(n, _)| n == name) {
        Some((_, Column::Str(v))) => v,
        _ => panic!("no str column {name}"),
    }
}
fn events(t: &TraceTable) -> Vec<Ev> {
    let has_len = t.columns.iter().any(|(n, _)| n == "len");
    (0..f64s(t, "time_s").len())
        .map(|i| Ev {
            t: f64s(t, "time_s")[i],
            kind: strs(t, "kind")[i].clone(),
            seq: i64s(t, "seq")[i],
            len: if has_len { i64s(t, "len")[i] } else { 0 },
        })
        .collect()
}

/// Run `s` with seed 1 and the traces on.
pub fn traced(s: &Scenario) -> Traced {
    let r = run(s, 1, &RunOptions::traced()).expect("run");
    let tr = r.trace.expect("traces");
    let w = table(&tr.tables, "sender");
    let win = (0..f64s(w, "time_s").len())
        .map(|i| Win {
            t: f64s(w, "time_s")[i],
            cwnd: i64s(w, "cwnd")[i],
            ssthresh: i64s(w, "ssthresh")[i],
            una: i64s(w, "snd_una")[i],
            nxt: i64s(w, "snd_nxt")[i],
            rto: f64s(w, "rto_s")[i],
            phase: strs(w, "phase")[i].clone(),
        })
        .collect();
    let r_t = table(&tr.tables, "rtt");
    let rtt = (0..f64s(r_t, "time_s").len())
        .map(|i| Rtt {
            t: f64s(r_t, "time_s")[i],
            rtt: f64s(r_t, "rtt_s")[i],
            rto: f64s(r_t, "rto_s")[i],
        })
        .collect();
    Traced {
        m: r.metrics,
        win,
        ev: events(table(&tr.tables, "events")),
        rtt,
        rcv: events(table(&tr.tables, "receiver")),
    }
}

static FILES: AtomicUsize = AtomicUsize::new(0);

/// An erasure trace (`docs/scenarios.md`, `model = "trace"`) that loses exactly the listed
/// frames of a direction (1-based, in the order they take the channel), then none. The file is
/// named by its content (the scenario reads it again whenever it is validated and built) and
/// written under a private name, then renamed, so parallel tests share it safely.
pub fn erasures(frames: &[usize]) -> String {
    let last = frames.iter().copied().max().unwrap_or(0);
    let text: String = (1..=last)
        .map(|i| if frames.contains(&i) { "1\n" } else { "0\n" })
        .collect();
    // FNV-1a over the text.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let dir = std::env::temp_dir();
    let path = dir.join(format!("lossylink-sig-{hash:016x}.txt"));
    if !path.exists() {
        let n = FILES.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(
            "lossylink-sig-{hash:016x}.{}-{n}",
            std::process::id()
        ));
        std::fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    format!(
        "{{ model = \"trace\", file = \"{}\", repeat = false }}",
        path.display()
    )
}

/// `preset` (`lan` or `wan`) running `scheme`, its wireless hop losing exactly the listed
/// data frames and no ACK frame, with `overrides` applied last.
pub fn lossy(preset: &str, scheme: &str, frames: &[usize], overrides: &[(&str, &str)]) -> Scenario {
    let hop = if preset == "wan" { 2 } else { 1 };
    let mut s = Scenario::preset(preset).unwrap();
    s.set("scheme", scheme).unwrap();
    let forward = if frames.is_empty() {
        "{ model = \"none\" }".to_string()
    } else {
        erasures(frames)
    };
    s.set(&format!("hops.{hop}.forward.error"), &forward)
        .unwrap();
    s.set(&format!("hops.{hop}.reverse.error"), "{ model = \"none\" }")
        .unwrap();
    for (k, v) in overrides {
        s.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s
}

impl Traced {
    /// Events of one kind.
    pub fn events(&self, kind: &str) -> Vec<&Ev> {
        self.ev.iter().filter(|e| e.kind == kind).collect()
    }
    /// The last window row strictly before `t`.
    pub fn before(&self, t: f64) -> &Win {
        self.win
            .iter()
            .rev()
            .find(|w| w.t < t)
            .unwrap_or(&self.win[0])
    }
    /// The last window row at or before `t` (the state after the input at `t`).
    pub fn after(&self, t: f64) -> &Win {
        self.win
            .iter()
            .rev()
            .find(|w| w.t <= t)
            .unwrap_or(&self.win[0])
    }
    /// Times of the data segments sent (first transmissions and retransmissions).
    pub fn sends(&self) -> Vec<&Ev> {
        self.ev
            .iter()
            .filter(|e| e.kind == "send" || e.kind == "retransmit")
            .collect()
    }
    /// The mean of the round-trip samples taken in `[from, to)`.
    pub fn mean_rtt(&self, from: f64, to: f64) -> f64 {
        let v: Vec<f64> = self
            .rtt
            .iter()
            .filter(|r| (from..to).contains(&r.t))
            .map(|r| r.rtt)
            .collect();
        assert!(!v.is_empty(), "no RTT sample in [{from}, {to})");
        v.iter().sum::<f64>() / v.len() as f64
    }
    /// The smallest round-trip sample before `t`.
    pub fn min_rtt(&self, t: f64) -> f64 {
        self.rtt
            .iter()
            .filter(|r| r.t < t)
            .map(|r| r.rtt)
            .fold(f64::INFINITY, f64::min)
    }
    /// Bytes cumulatively acknowledged per second over `[from, to]`.
    pub fn ack_rate(&self, from: f64, to: f64) -> f64 {
        (self.after(to).una - self.after(from).una) as f64 / (to - from)
    }
}

/// A congestion response: the window rows just before and just after the input that caused it.
#[derive(Clone, Debug)]
pub struct Response {
    pub t: f64,
    pub seq: i64,
    pub before: Win,
    pub after: Win,
}

impl Response {
    /// Bytes in flight before the input.
    pub fn flight(&self) -> i64 {
        self.before.nxt - self.before.una
    }
}

impl Traced {
    /// Every fast retransmit with the window around it.
    pub fn fast_retransmits(&self) -> Vec<Response> {
        self.responses("fast-retransmit")
    }
    /// Every event of `kind` with the window around it.
    pub fn responses(&self, kind: &str) -> Vec<Response> {
        self.events(kind)
            .into_iter()
            .map(|e| Response {
                t: e.t,
                seq: e.seq,
                before: self.before(e.t).clone(),
                after: self.after(e.t).clone(),
            })
            .collect()
    }
    /// When `snd_una` first reached `una`.
    pub fn reached(&self, una: i64) -> f64 {
        self.win
            .iter()
            .find(|w| w.una >= una)
            .map(|w| w.t)
            .expect("snd_una reaches it")
    }
    /// The ACK inputs after `snd_una` reached `una` and before `t` that left it there.
    pub fn dupacks_before(&self, una: i64, t: f64) -> Vec<&Win> {
        let from = self.reached(una);
        self.win
            .iter()
            .filter(|w| w.t > from && w.t < t && w.una == una)
            .collect()
    }
    /// Delivery-rate RTT samples (draft-cheng-iccrg-delivery-rate-estimation: an ACK's RTT is
    /// measured from the send time of the most recently sent segment it delivers), here for
    /// cumulative ACKs whose last segment was sent once: (ACK time, RTT).
    pub fn ack_rtts(&self) -> Vec<(f64, f64)> {
        let mut last_send: std::collections::BTreeMap<i64, (f64, bool)> = Default::default();
        let mut out = Vec::new();
        for e in &self.ev {
            match e.kind.as_str() {
                "send" | "retransmit" => {
                    let again = e.kind == "retransmit" || last_send.contains_key(&(e.seq + e.len));
                    last_send.insert(e.seq + e.len, (e.t, again));
                }
                "ack" => {
                    if let Some((sent, false)) = last_send.get(&e.seq) {
                        out.push((e.t, e.t - sent));
                    }
                }
                _ => {}
            }
        }
        out
    }
    /// How many data segments left at the instant of the first one (the initial window).
    pub fn initial_burst(&self) -> usize {
        let sends = self.sends();
        let first = sends[0].t;
        sends.iter().filter(|e| e.t == first).count()
    }
}

impl Traced {
    /// When the segment at `seq` first left the sender.
    pub fn first_sent(&self, seq: i64) -> f64 {
        self.ev
            .iter()
            .find(|e| e.kind == "send" && e.seq == seq)
            .map(|e| e.t)
            .expect("sent")
    }
    /// Segments whose first transmission was lost: the receiver first got them after the
    /// sender had resent them (from the receiver's table, docs/traces.md).
    pub fn lost_originals(&self) -> Vec<i64> {
        let mut out = Vec::new();
        for e in self.ev.iter().filter(|e| e.kind == "retransmit") {
            if out.contains(&e.seq) {
                continue;
            }
            let arrived = self
                .rcv
                .iter()
                .find(|d| d.kind == "data" && d.seq == e.seq)
                .map_or(f64::INFINITY, |d| d.t);
            if arrived > e.t {
                out.push(e.seq);
            }
        }
        out
    }
}
