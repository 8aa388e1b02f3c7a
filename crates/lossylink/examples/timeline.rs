#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Print a run's sender timeline (events and window state) between two instants:
//! `cargo run --release --example timeline -- hiccup 25 60 'hops.0.forward.hiccups=[{kind="hold",at="30s",duration="13s"}]'`.

use lossylink::{Column, RunOptions, TraceTable};

fn col<'a>(t: &'a TraceTable, name: &str) -> &'a Column {
    &t.columns.iter().find(|(n, _)| n == name).unwrap().1
}

fn main() -> Result<(), lossylink::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let mut s = lossylink::Scenario::preset(&get(0, "hiccup"))?;
    let from: f64 = get(1, "0").parse().unwrap_or(0.0);
    let to: f64 = get(2, "1e9").parse().unwrap_or(1e9);
    for kv in args.iter().skip(3) {
        if let Some((k, v)) = kv.split_once('=') {
            s.set(k, v)?;
        }
    }
    let r = lossylink::run(&s, 1, &RunOptions::traced())?;
    let tr = r.trace.unwrap();
    let (sender, events) = (&tr.tables[0], &tr.tables[1]);
    let (
        Column::F64(st),
        Column::I64(cwnd),
        Column::I64(ssth),
        Column::I64(una),
        Column::I64(nxt),
        Column::F64(rto),
    ) = (
        col(sender, "time_s"),
        col(sender, "cwnd"),
        col(sender, "ssthresh"),
        col(sender, "snd_una"),
        col(sender, "snd_nxt"),
        col(sender, "rto_s"),
    )
    else {
        panic!()
    };
    let (Column::F64(et), Column::Str(kind), Column::I64(seq)) = (
        col(events, "time_s"),
        col(events, "kind"),
        col(events, "seq"),
    ) else {
        panic!()
    };
    let mss = 460;
    let mut lines: Vec<(f64, String)> = Vec::new();
    for i in 0..st.len() {
        lines.push((
            st[i],
            format!(
                "    win cwnd {:5} ({:.1}) ssthresh {:5} una {:3} nxt {:3} rto {:.1}",
                cwnd[i],
                cwnd[i] as f64 / mss as f64,
                ssth[i],
                una[i] / mss,
                nxt[i] / mss,
                rto[i]
            ),
        ));
    }
    for i in 0..et.len() {
        lines.push((et[i], format!("{:16} seg {}", kind[i], seq[i] / mss)));
    }
    lines.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    for (t, l) in lines.iter().filter(|(t, _)| *t >= from && *t <= to) {
        println!("{t:9.3} {l}");
    }
    let m = r.metrics;
    println!(
        "TO {} FR {} rexmit segs {} bytes {} spurious TO {} FR {} rcv dup segs {} dupacks {} drops {} completion {:.2}",
        m.sender_timeouts,
        m.sender_fast_retransmits,
        m.sender_retransmitted_segments,
        m.sender_retransmitted_bytes,
        m.sender_spurious_timeouts,
        m.sender_spurious_fast_retransmits,
        m.receiver_duplicate_segments,
        m.sender_dupacks,
        m.queue_drops,
        m.completion_s
    );
    Ok(())
}
