//! Points of the LL-ELSN study's other figures (eln-llelsn spec §5.4) from Rust, configured as
//! python/lossylink/papers/llelsn/runs.py does, with a breakdown of where the flow `sta1` loses:
//!
//! ```text
//! cargo run --release -p lossylink --example llelsn_point -- rtt 1,10 1-5 e2e      # Fig. 7, d ms
//! cargo run --release -p lossylink --example llelsn_point -- bg 0,2,8 1-5 ll-elsn-lhp  # Figs 11, 15
//! cargo run --release -p lossylink --example llelsn_point -- fer 1 1-5 e2e         # Fig. 6, FER %
//! ```
//!
//! `rtt` and `bg` run at FER 1 %; `bg` x is the Pareto background's mean in Mb/s (0: none, one
//! station). LLELSN_SET="key=value;..." adds settings. Per point (means per run): goodput, the
//! sender's timeouts by what preceded them and its fast retransmits, the time with little in
//! flight or the window full, the ELNs, frames lost in the cell (bit errors, collisions) and
//! drops in the queues.

use lossylink::{run, Column, RunOptions, Scenario, TraceTable, Value};

#[path = "shared/llelsn.rs"]
mod shared;
use shared::col;

const PARETO_NODES: &str = r#"[{ name = "server", kind = "host" }, { name = "router", kind = "router" }, { name = "ap", kind = "base-station" }, { name = "sta1", kind = "host" }, { name = "bgsink", kind = "host" }]"#;
const PARETO_LINKS: &str = r#"[{ name = "internet", between = ["server", "router"], role = "wired", rate = "10Mbps", delay = "20ms", queue = 50 }, { name = "lan", between = ["router", "ap"], role = "wired", rate = "10Mbps", delay = "1ms", queue = 50 }, { name = "sink", between = ["ap", "bgsink"], role = "wired", rate = "100Mbps", delay = "1us", queue = 50 }]"#;

fn scenario(fig: &str, x: f64, scheme: &str) -> Result<Scenario, Box<dyn std::error::Error>> {
    let mut s = shared::base(scheme)?;
    let err = shared::fer(if fig == "fer" { x } else { 1.0 });
    match fig {
        "rtt" => s.set("links.0.delay", &format!("{x}ms"))?,
        "bg" if x > 0.0 => {
            s.set("nodes", PARETO_NODES)?;
            s.set("links", PARETO_LINKS)?;
            s.set("flows", &format!(
                "[{{ name = \"sta1\", from = \"server\", to = \"sta1\" }}, {{ name = \"bg\", from = \"server\", to = \"bgsink\", udp = {{ model = \"pareto\", rate = \"{}Mbps\", on = \"400ms\", off = \"100ms\", shape = 2.0, size = \"1000B\" }} }}]",
                x / 0.8
            ))?;
        }
        "fer" | "bg" => {}
        _ => return Err(format!("unknown figure {fig}").into()),
    }
    s.set("cells.0.error", &err)?;
    shared::finish(&mut s, scheme)?;
    Ok(s)
}

/// Table `name`'s rows of flow `sta1` (all rows when the table has no `flow` column).
fn table<'a>(tables: &'a [TraceTable], name: &str) -> Option<(&'a TraceTable, Vec<usize>)> {
    let t = tables.iter().find(|t| t.name == name)?;
    let rows = match col(t, "flow") {
        Some(Column::Str(f)) => (0..f.len()).filter(|&i| f[i] == "sta1").collect(),
        _ => (0..t.columns.first().map_or(0, |(_, c)| len(c))).collect(),
    };
    Some((t, rows))
}

fn len(c: &Column) -> usize {
    match c {
        Column::F64(v) => v.len(),
        Column::I64(v) => v.len(),
        Column::Str(v) => v.len(),
    }
}

/// Timeout classes: the resent segment had timed out before, or been fast-retransmitted
/// before (the retransmission was lost); else the duplicate ACKs that reached the sender since
/// snd_una reached the hole.
const CLASSES: [&str; 5] = ["again", "fr-lost", "0 dup", "1-2 dup", "3+ dup"];

#[derive(Default)]
struct Tally {
    to: [f64; 5],
    /// Of the lone (0-2 dup) timeouts: the receiver had sent three duplicates or more.
    acks_lost: f64,
    /// ... and those where it had sent fewer than three.
    rcv_dups: [f64; 3],
    flight: Vec<f64>,
    fast_recovery: f64,
    /// Seconds with fewer than 18 segments in flight (the path's delay-bandwidth product at
    /// d = 20 ms: 3.3 Mb/s for 45 ms), the time integral of the flight (segment-seconds), and
    /// seconds with the 65 535-byte window full (64 segments or more in flight).
    low: [f64; 3],
}

/// Pairs (time, value) of column `v` over `rows`, for rows whose `kind` is `k` (all if None).
fn pairs(t: &TraceTable, rows: &[usize], v: &str, k: Option<&str>) -> Vec<(f64, i64)> {
    let (Some(Column::F64(ts)), Some(Column::I64(vs))) = (col(t, "time_s"), col(t, v)) else {
        return vec![];
    };
    let kind = match col(t, "kind") {
        Some(Column::Str(c)) => Some(c),
        _ => None,
    };
    rows.iter()
        .filter(|&&i| k.is_none_or(|k| kind.is_some_and(|c| c[i] == k)))
        .map(|&i| (ts[i], vs[i]))
        .collect()
}

/// Values equal to `s` before time `t` in (time, value) pairs whose values never fall.
fn count_before(p: &[(f64, i64)], s: i64, t: f64) -> usize {
    let a = p.partition_point(|x| x.1 < s);
    p[a..].iter().take_while(|x| x.1 == s && x.0 < t).count()
}

fn timeouts(tables: &[TraceTable], tally: &mut Tally) {
    let (Some((ev, er)), Some((snd, sr))) = (table(tables, "events"), table(tables, "sender"))
    else {
        return;
    };
    let (Some(Column::F64(et)), Some(Column::Str(kind)), Some(Column::I64(seq))) =
        (col(ev, "time_s"), col(ev, "kind"), col(ev, "seq"))
    else {
        return;
    };
    let (Some(Column::I64(nxt)), Some(Column::Str(phase))) =
        (col(snd, "snd_nxt"), col(snd, "phase"))
    else {
        return;
    };
    let una = pairs(snd, &sr, "snd_una", None);
    let rcv = table(tables, "receiver")
        .map(|(t, r)| pairs(t, &r, "seq", Some("ack")))
        .unwrap_or_default();
    for (k, w) in una.windows(2).enumerate() {
        let f = nxt[sr[k]] - w[0].1;
        if f < 18_000 {
            tally.low[0] += w[1].0 - w[0].0;
        }
        tally.low[1] += f as f64 / 1000.0 * (w[1].0 - w[0].0);
        if f >= 64_000 {
            tally.low[2] += w[1].0 - w[0].0;
        }
    }
    let mut timed_out = std::collections::HashSet::new();
    let mut fast = std::collections::HashSet::new();
    for &i in &er {
        let (t, s) = (et[i], seq[i]);
        match kind[i].as_str() {
            "fast-retransmit" => {
                fast.insert(s);
            }
            "timeout" => {
                let c = if timed_out.contains(&s) {
                    0
                } else if fast.contains(&s) {
                    1
                } else {
                    // Rows of the advance to `s` and of each duplicate after it.
                    match count_before(&una, s, t).saturating_sub(1) {
                        0 => 2,
                        1 | 2 => 3,
                        _ => 4,
                    }
                };
                tally.to[c] += 1.0;
                timed_out.insert(s);
                if c == 2 || c == 3 {
                    let sent = count_before(&rcv, s, t).saturating_sub(1);
                    if sent >= 3 {
                        tally.acks_lost += 1.0;
                    } else {
                        tally.rcv_dups[sent] += 1.0;
                    }
                }
                // The sender's state just before the timeout.
                let k = una.partition_point(|x| x.0 < t);
                if k > 0 {
                    let j = sr[k - 1];
                    if c >= 2 {
                        tally.flight.push((nxt[j] - una[k - 1].1) as f64 / 1000.0);
                    }
                    if phase[j] == "fast-recovery" {
                        tally.fast_recovery += 1.0;
                    }
                }
            }
            _ => {}
        }
    }
}

fn int(row: &[(&'static str, Value)], key: &str) -> f64 {
    match row.iter().find(|(k, _)| *k == key) {
        Some((_, Value::Int(v))) => *v as f64,
        _ => 0.0,
    }
}

fn text<'a>(row: &'a [(&'static str, Value)], key: &str) -> &'a str {
    match row.iter().find(|(k, _)| *k == key) {
        Some((_, Value::Str(v))) => v,
        _ => "",
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fig, xs, seeds, schemes @ ..] = args.as_slice() else {
        return Err(
            "usage: llelsn_point <fer|rtt|bg> <x,...> <first-last seed> <scheme>...".into(),
        );
    };
    let seeds = shared::seeds(seeds)?;
    println!("| {fig} | scheme | goodput Mb/s | timeouts ({}) | lone timeouts: receiver sent 0 / 1 / 2 / 3+ dupacks | in fast recovery | median flight at a lone timeout (seg) | time with flight < 18 seg; mean flight; time with the window full | fast rexmits | ELNs sent / at sender / filtered; segments resent | AP frames lost: errors / collisions (% of attempts) | station (ACK) frames lost | queue drops: server / router / AP |", CLASSES.join(" / "));
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for x in xs.split(',') {
        for scheme in schemes {
            let s = scenario(fig, x.parse()?, scheme)?;
            let (mut g, mut fr, mut tally) = (0.0, 0.0, Tally::default());
            // ELNs the link layer sent, reached the sender, the sender filtered; segments resent.
            let mut eln = [0.0; 4];
            let (mut ap, mut sta, mut q) = ([0.0; 3], 0.0, [0.0; 3]);
            for seed in seeds.clone() {
                let r = run(&s, seed, &RunOptions::traced())?;
                g += r.metrics.throughput_mbps;
                fr += r.metrics.sender_fast_retransmits as f64;
                let m = &r.metrics;
                for (e, v) in eln.iter_mut().zip([
                    m.elsn_elns_sent,
                    m.sender_elns,
                    m.sender_elns_filtered,
                    m.sender_retransmitted_segments,
                ]) {
                    *e += v as f64;
                }
                if let Some(t) = &r.trace {
                    timeouts(&t.tables, &mut tally);
                }
                let Some(f) = &r.flows else { continue };
                for m in &f.members {
                    if text(m, "role") == "access-point" {
                        ap[0] += int(m, "errors");
                        ap[1] += int(m, "collisions");
                        ap[2] += int(m, "attempts");
                    } else if text(m, "node") == "sta1" {
                        sta += int(m, "errors") + int(m, "collisions");
                    }
                }
                for l in &f.links {
                    let i = match (text(l, "link"), text(l, "direction")) {
                        ("internet", "forward") => 0,
                        ("lan", "forward") => 1,
                        (_, _) if text(l, "from") == "ap" && text(l, "to") == "sta1" => 2,
                        _ => continue,
                    };
                    q[i] += int(l, "queue_drops");
                }
            }
            let n = seeds.clone().count() as f64;
            tally.flight.sort_by(f64::total_cmp);
            let med = tally
                .flight
                .get(tally.flight.len() / 2)
                .copied()
                .unwrap_or(f64::NAN);
            let to: Vec<String> = tally.to.iter().map(|c| format!("{:.1}", c / n)).collect();
            println!(
                "| {x} | `{scheme}` | {:.3} | {:.1} ({}) | {} | {:.1} | {med:.1} | {:.0} %; {:.1}; {:.0} % | {:.1} | {} | {:.1} / {:.1} ({:.1} / {:.1} %) | {:.1} | {:.1} / {:.1} / {:.1} |",
                g / n,
                tally.to.iter().sum::<f64>() / n,
                to.join(" / "),
                [tally.rcv_dups[0], tally.rcv_dups[1], tally.rcv_dups[2], tally.acks_lost]
                    .map(|c| format!("{:.1}", c / n))
                    .join(" / "),
                tally.fast_recovery / n,
                100.0 * tally.low[0] / n / 200.0,
                tally.low[1] / n / 200.0,
                100.0 * tally.low[2] / n / 200.0,
                fr / n,
                eln.map(|c| format!("{:.0}", c / n)).join(" / "),
                ap[0] / n,
                ap[1] / n,
                100.0 * ap[0] / ap[2],
                100.0 * ap[1] / ap[2],
                sta / n,
                q[0] / n,
                q[1] / n,
                q[2] / n
            );
        }
    }
    Ok(())
}
