//! Traces as columnar tables, ready for numpy/pandas/Parquet.

use engine::{FlowId, SimTime};
use net::tap::{AgentEvent, AgentRecord, ReceiverEvent, ReceiverRecord};
use tcp::recovery::Phase;
use tcp::{SenderEvent, SeqSpace};

/// A column of a trace table.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// Real numbers.
    F64(Vec<f64>),
    /// Integers.
    I64(Vec<i64>),
    /// Text.
    Str(Vec<String>),
}

/// A named table of equal-length columns.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceTable {
    /// Table name.
    pub name: String,
    /// Columns in order.
    pub columns: Vec<(String, Column)>,
}

/// All traces of a run.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Trace {
    /// Tables.
    pub tables: Vec<TraceTable>,
}

impl Column {
    fn len(&self) -> usize {
        match self {
            Column::F64(v) => v.len(),
            Column::I64(v) => v.len(),
            Column::Str(v) => v.len(),
        }
    }

    /// Append `other`'s values (same kind; a different kind is left out, which the tables built
    /// here never produce).
    fn extend(&mut self, other: Column) {
        match (self, other) {
            (Column::F64(a), Column::F64(b)) => a.extend(b),
            (Column::I64(a), Column::I64(b)) => a.extend(b),
            (Column::Str(a), Column::Str(b)) => a.extend(b),
            _ => debug_assert!(false, "columns of different kinds"),
        }
    }
}

/// The tables of one flow of a multi-flow run, merged into `into` by table name with a leading
/// `flow` column naming the flow (rows stay in flow order, then time order within a flow).
pub(crate) fn merge_flow_tables(into: &mut Vec<TraceTable>, flow: &str, tables: Vec<TraceTable>) {
    for mut t in tables {
        let rows = t.columns.first().map_or(0, |(_, c)| c.len());
        t.columns.insert(
            0,
            (
                "flow".to_string(),
                Column::Str(vec![flow.to_string(); rows]),
            ),
        );
        match into.iter_mut().find(|x| x.name == t.name) {
            None => into.push(t),
            Some(x) => {
                for ((_, a), (_, b)) in x.columns.iter_mut().zip(t.columns) {
                    a.extend(b);
                }
            }
        }
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Open => "open",
        Phase::Recovery { .. } => "fast-recovery",
        Phase::Loss { .. } => "timeout-recovery",
    }
}

/// Build the `sender{suffix}` (window state after each input) and `events{suffix}` (sends,
/// ACKs, fast retransmits, timeouts) and `rtt{suffix}` (each round-trip sample the RTO
/// estimator took: `rtt_s`, the `rto_s` after it and `rexmt_at_s`, when the retransmission
/// timer re-armed on that ACK expires, 0 if it stopped) tables from a sender's records. The
/// source's tables have no suffix; the wireless leg of a split connection has `_wireless`.
pub(crate) fn sender_tables(records: &[(SimTime, SenderEvent)], suffix: &str) -> Vec<TraceTable> {
    let (mut t, mut cwnd, mut ssthresh, mut una, mut nxt, mut rto, mut phase) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut et, mut kind, mut seq, mut len) = (vec![], vec![], vec![], vec![]);
    let (mut rt, mut rtt, mut rtt_rto, mut rexmt) = (vec![], vec![], vec![], vec![]);
    for (time, ev) in records {
        let ts = time.as_secs_f64();
        let mut event = |k: &str, s: u64, l: u32| {
            et.push(ts);
            kind.push(k.to_string());
            seq.push(s as i64);
            len.push(i64::from(l));
        };
        match *ev {
            SenderEvent::Window {
                cwnd: c,
                ssthresh: s,
                snd_una,
                snd_nxt,
                rto_ns,
                phase: p,
            } => {
                t.push(ts);
                cwnd.push(i64::from(c));
                ssthresh.push(i64::from(s));
                una.push(snd_una as i64);
                nxt.push(snd_nxt as i64);
                rto.push(rto_ns as f64 * 1e-9);
                phase.push(phase_name(p).to_string());
            }
            SenderEvent::Sent {
                seq: s,
                len: l,
                retransmission,
            } => event(if retransmission { "retransmit" } else { "send" }, s, l),
            SenderEvent::Acked { ack } => event("ack", ack, 0),
            SenderEvent::Syn { retransmission } => event(
                if retransmission {
                    "syn-retransmit"
                } else {
                    "syn"
                },
                0,
                0,
            ),
            SenderEvent::SynTimeout { .. } => event("syn-timeout", 0, 0),
            SenderEvent::Established => event("established", 0, 0),
            SenderEvent::RttSample {
                rtt_ns,
                rto_ns,
                rexmt_at_ns,
            } => {
                rt.push(ts);
                rtt.push(rtt_ns as f64 * 1e-9);
                rtt_rto.push(rto_ns as f64 * 1e-9);
                // 0: the timer stopped (nothing outstanding).
                rexmt.push(rexmt_at_ns as f64 * 1e-9);
            }
            SenderEvent::FastRetransmit { seq: s } => event("fast-retransmit", s, 0),
            SenderEvent::Timeout { seq: s, .. } => event("timeout", s, 0),
            SenderEvent::SpuriousUndo { ack } => event("spurious-undo", ack, 0),
            SenderEvent::LocalDrop { seq: s } => event("local-drop", s, 0),
            SenderEvent::LossProbe { seq: s } => event("loss-probe", s, 0),
            SenderEvent::LossProbeRecovery { ack } => event("loss-probe-recovery", ack, 0),
            SenderEvent::SuppressedFastRetransmit { seq: s } => {
                event("suppressed-fast-retransmit", s, 0)
            }
        }
    }
    vec![
        TraceTable {
            name: format!("sender{suffix}"),
            columns: vec![
                ("time_s".into(), Column::F64(t)),
                ("cwnd".into(), Column::I64(cwnd)),
                ("ssthresh".into(), Column::I64(ssthresh)),
                ("snd_una".into(), Column::I64(una)),
                ("snd_nxt".into(), Column::I64(nxt)),
                ("rto_s".into(), Column::F64(rto)),
                ("phase".into(), Column::Str(phase)),
            ],
        },
        TraceTable {
            name: format!("events{suffix}"),
            columns: vec![
                ("time_s".into(), Column::F64(et)),
                ("kind".into(), Column::Str(kind)),
                ("seq".into(), Column::I64(seq)),
                ("len".into(), Column::I64(len)),
            ],
        },
        TraceTable {
            name: format!("rtt{suffix}"),
            columns: vec![
                ("time_s".into(), Column::F64(rt)),
                ("rtt_s".into(), Column::F64(rtt)),
                ("rto_s".into(), Column::F64(rtt_rto)),
                ("rexmt_at_s".into(), Column::F64(rexmt)),
            ],
        },
    ]
}

/// Build the `base_station` table from the agents' trace: one row per local retransmission
/// (`kind` = `local-retransmit`, `trigger` = `dupack` | `timer` | `partial-ack` | `other`) and
/// per suppressed duplicate ACK (`kind` = `dupack-suppressed`, `seq` = its cumulative ACK).
/// `seq` is a stream offset, like the sender's tables; `node` is the base station's index.
pub(crate) fn base_station_table(records: &[AgentRecord], space: SeqSpace) -> TraceTable {
    let (mut t, mut kind, mut seq, mut len, mut node, mut trigger) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut near = 0u64;
    for &(time, n, ev) in records {
        let (k, s, l, tr) = match ev {
            AgentEvent::LocalRetransmit {
                seq: s,
                len: l,
                trigger: tr,
                ..
            } => ("local-retransmit", s, l, tr.name()),
            AgentEvent::DupackSuppressed { ack, .. } => ("dupack-suppressed", ack, 0, ""),
        };
        near = space.offset(s, near);
        t.push(time.as_secs_f64());
        kind.push(k.to_string());
        seq.push(near as i64);
        len.push(i64::from(l));
        node.push(i64::from(n.0));
        trigger.push(tr.to_string());
    }
    TraceTable {
        name: "base_station".into(),
        columns: vec![
            ("time_s".into(), Column::F64(t)),
            ("kind".into(), Column::Str(kind)),
            ("seq".into(), Column::I64(seq)),
            ("len".into(), Column::I64(len)),
            ("node".into(), Column::I64(node)),
            ("trigger".into(), Column::Str(trigger)),
        ],
    }
}

/// The `receiver` table of the connection `flow` from the receivers' trace: one row per data
/// segment the TCP receiver accepted (`kind` = `data`, `seq` its first byte, `len`) and per ACK
/// it sent (`ack`, `seq` the cumulative acknowledgement, `len` 0), in time order; `seq` is a
/// stream offset, like the sender's tables (MultiTracer's `TcpRcv_Data` and `TcpRcv_Ack`,
/// Ludwig2000 §3.2.4, spec §4.2).
pub(crate) fn receiver_table(
    records: &[ReceiverRecord],
    flow: FlowId,
    space: SeqSpace,
) -> TraceTable {
    let (mut t, mut kind, mut seq, mut len) = (vec![], vec![], vec![], vec![]);
    let mut near = 0u64;
    for &(time, _, ev) in records.iter().filter(|r| r.1 == flow) {
        let (k, s, l) = match ev {
            ReceiverEvent::Data { seq: s, len: l } => ("data", s, l),
            ReceiverEvent::Ack { ack } => ("ack", ack, 0),
        };
        near = space.offset(s, near);
        t.push(time.as_secs_f64());
        kind.push(k.to_string());
        seq.push(near as i64);
        len.push(i64::from(l));
    }
    TraceTable {
        name: "receiver".into(),
        columns: vec![
            ("time_s".into(), Column::F64(t)),
            ("kind".into(), Column::Str(kind)),
            ("seq".into(), Column::I64(seq)),
            ("len".into(), Column::I64(len)),
        ],
    }
}

/// The `rlp` table of a run over GSM links (none without one): every RLP event of each link
/// direction (`net::medium::gsm`, rlpdump's events, Ludwig2000 §3.5), in time order: `time_s`,
/// `kind` (`data` first transmission, `xmit` retransmission, `xoff`/`xon` L2R flow control,
/// `reset`), `offset` (the end of the frame's bytes in the link's byte stream, PPP and headers
/// included) and `port` (the direction: the index of the port it carries).
pub(crate) fn rlp_table(network: &net::Network) -> Option<TraceTable> {
    use net::medium::RlpKind;
    let logs: Vec<_> = network
        .medium_reports()
        .filter_map(|r| match r {
            net::medium::MediumReport::Gsm {
                port,
                log: Some(log),
                ..
            } => Some((port, log)),
            _ => None,
        })
        .collect();
    if logs.is_empty() {
        return None;
    }
    let mut rows: Vec<_> = logs
        .iter()
        .flat_map(|(port, log)| log.iter().map(move |e| (e.at, *port, e)))
        .collect();
    // Stable: events of one instant keep their order (XON is logged when its gap starts).
    rows.sort_by_key(|&(at, port, _)| (at, port.index()));
    let name = |k: RlpKind| match k {
        RlpKind::Data => "data",
        RlpKind::Xmit => "xmit",
        RlpKind::Xoff => "xoff",
        RlpKind::Xon => "xon",
        RlpKind::Reset => "reset",
    };
    Some(TraceTable {
        name: "rlp".into(),
        columns: vec![
            (
                "time_s".into(),
                Column::F64(rows.iter().map(|r| r.0.as_secs_f64()).collect()),
            ),
            (
                "kind".into(),
                Column::Str(rows.iter().map(|r| name(r.2.kind).to_string()).collect()),
            ),
            (
                "offset".into(),
                Column::I64(rows.iter().map(|r| r.2.offset as i64).collect()),
            ),
            (
                "port".into(),
                Column::I64(rows.iter().map(|r| r.1.index() as i64).collect()),
            ),
        ],
    })
}
