//! Many-flow points of the LL-ELSN study (eln-llelsn spec §5.4, Figs 10 and 12) from Rust,
//! configured as python/lossylink/papers/llelsn/runs.py does, with a per-flow breakdown:
//!
//! ```text
//! cargo run --release -p lossylink --example llelsn_flows -- nsweep 10,20 1-5 e2e e2e-westwood
//! cargo run --release -p lossylink --example llelsn_flows -- friendly 0,8 1-5 e2e-westwood
//! ```
//!
//! `nsweep` x: N stations, one download each, every flow with the scheme, FER 1 % (Fig. 10).
//! `friendly` x: k of ten flows run the scheme, the rest Reno (`e2e`), no bit errors (Fig. 12).
//! LLELSN_SET="key=value;..." adds settings. Per point and per scheme among the flows (means
//! over the seeds): goodput per flow and its spread across flows, Jain's index over the run and
//! over 10 s windows, timeouts and fast retransmits per flow, and at each loss (fast retransmit
//! or timeout) the window before it and the ssthresh after it against Reno's half the flight.

use lossylink::{jain, run, Column, RunOptions, Scenario, TraceTable, Value};

#[path = "shared/llelsn.rs"]
mod shared;
use shared::{col, median};

fn scenario(fig: &str, x: usize, scheme: &str) -> Result<Scenario, Box<dyn std::error::Error>> {
    let mut s = shared::base(scheme)?;
    let (n, err) = match fig {
        "nsweep" => (x, shared::fer(1.0)),
        "friendly" => (10, r#"{ model = "none" }"#.to_string()),
        _ => return Err(format!("unknown figure {fig}").into()),
    };
    let mut nodes = vec![
        r#"{ name = "server", kind = "host" }"#.to_string(),
        r#"{ name = "router", kind = "router" }"#.to_string(),
        r#"{ name = "ap", kind = "base-station" }"#.to_string(),
    ];
    let (mut stas, mut flows) = (vec![], vec![]);
    for i in 1..=n {
        nodes.push(format!("{{ name = \"sta{i}\", kind = \"host\" }}"));
        stas.push(format!("\"sta{i}\""));
        // Fig. 12: the first k flows run the variant, the others Reno (runs.py's mix).
        let sch = match fig {
            "friendly" if i > x => ", scheme = \"e2e\"".to_string(),
            "friendly" => format!(", scheme = \"{scheme}\""),
            _ => String::new(),
        };
        flows.push(format!(
            "{{ name = \"sta{i}\", from = \"server\", to = \"sta{i}\"{sch} }}"
        ));
    }
    s.set("nodes", &format!("[{}]", nodes.join(", ")))?;
    s.set("cells.0.stations", &format!("[{}]", stas.join(", ")))?;
    s.set("flows", &format!("[{}]", flows.join(", ")))?;
    s.set("cells.0.error", &err)?;
    shared::finish(&mut s, scheme)?;
    Ok(s)
}

fn f64s<'a>(t: &'a TraceTable, name: &str) -> &'a [f64] {
    match col(t, name) {
        Some(Column::F64(v)) => v,
        _ => &[],
    }
}

fn i64s<'a>(t: &'a TraceTable, name: &str) -> &'a [i64] {
    match col(t, name) {
        Some(Column::I64(v)) => v,
        _ => &[],
    }
}

fn strs<'a>(t: &'a TraceTable, name: &str) -> &'a [String] {
    match col(t, name) {
        Some(Column::Str(v)) => v,
        _ => &[],
    }
}

/// Rows of table `name` belonging to flow `flow`.
fn rows<'a>(
    tables: &'a [TraceTable],
    name: &str,
    flow: &str,
) -> (Option<&'a TraceTable>, Vec<usize>) {
    let Some(t) = tables.iter().find(|t| t.name == name) else {
        return (None, vec![]);
    };
    let f = strs(t, "flow");
    (Some(t), (0..f.len()).filter(|&i| f[i] == flow).collect())
}

fn value<'a>(row: &'a [(&'static str, Value)], key: &str) -> Option<&'a Value> {
    row.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

fn num(row: &[(&'static str, Value)], key: &str) -> f64 {
    match value(row, key) {
        Some(Value::Int(v)) => *v as f64,
        Some(Value::Float(v)) => *v,
        _ => f64::NAN,
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The coefficient of variation (population standard deviation over the mean).
fn cv(v: &[f64]) -> f64 {
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt() / m
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (mean(x), mean(y));
    let c: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let vy: f64 = y.iter().map(|b| (b - my) * (b - my)).sum();
    c / (vx * vy).sqrt()
}

/// One run's flows of one scheme: the scheme, goodputs, timeouts, bytes per 10 s window.
type RunGroup = (String, Vec<f64>, Vec<f64>, Vec<Vec<f64>>);

/// What the flows of one scheme did at one point, pooled over the seeds.
#[derive(Default)]
struct Group {
    goodput: Vec<f64>,
    timeouts: Vec<f64>,
    fast: Vec<f64>,
    /// Per run: the CV of goodput and of timeouts across the group's flows, Jain's index over
    /// the run and the mean of Jain's index over 10 s windows, corr(timeouts, goodput).
    per_run: Vec<[f64; 5]>,
    /// At each loss: the window (segments) before it, half the flight before it (Reno's
    /// ssthresh), the ssthresh after it.
    cwnd: Vec<f64>,
    half: Vec<f64>,
    ss: Vec<f64>,
    /// Timeouts with a window of at most 4 segments before them; losses within 1 s of the
    /// flow's previous loss (the paper's "multiple fast recoveries or timeouts in a short time").
    small_to: f64,
    repeat: f64,
    rtt_min: Vec<f64>,
    rtt_mean: Vec<f64>,
    rto_min: f64,
    last_reno: Vec<f64>,
}

/// Loss responses, windowed deliveries and RTTs of flow `f` into `g`; its bytes delivered per
/// 10 s window (snd_una's advance) into `win`.
fn trace_flow(tables: &[TraceTable], f: &str, g: &mut Group, win: &mut Vec<f64>) {
    let (Some(snd), sr) = rows(tables, "sender", f) else {
        return;
    };
    let (st, cw, ss, una, nxt) = (
        f64s(snd, "time_s"),
        i64s(snd, "cwnd"),
        i64s(snd, "ssthresh"),
        i64s(snd, "snd_una"),
        i64s(snd, "snd_nxt"),
    );
    let times: Vec<f64> = sr.iter().map(|&i| st[i]).collect();
    let at = |t: f64| times.partition_point(|x| *x < t);
    let mut prev = 0i64;
    for w in 1..=20 {
        let k = at(10.0 * w as f64);
        let u = if k > 0 { una[sr[k - 1]] } else { 0 };
        win.push((u - prev) as f64);
        prev = u;
    }
    if let (Some(ev), er) = rows(tables, "events", f) {
        let (et, kind) = (f64s(ev, "time_s"), strs(ev, "kind"));
        let mut last = f64::NEG_INFINITY;
        for &i in &er {
            let k = kind[i].as_str();
            if k != "fast-retransmit" && k != "timeout" {
                continue;
            }
            let j = at(et[i]);
            let (Some(&b), Some(&a)) = (sr.get(j.wrapping_sub(1)), sr.get(j)) else {
                continue;
            };
            let c = cw[b] as f64 / 1000.0;
            g.cwnd.push(c);
            g.half.push(((nxt[b] - una[b]) as f64 / 2000.0).max(2.0));
            g.ss.push(ss[a] as f64 / 1000.0);
            if k == "timeout" && c <= 4.0 {
                g.small_to += 1.0;
            }
            if et[i] - last < 1.0 {
                g.repeat += 1.0;
            }
            last = et[i];
        }
    }
    if let (Some(rt), rr) = rows(tables, "rtt", f) {
        let (r, rto) = (f64s(rt, "rtt_s"), f64s(rt, "rto_s"));
        let v: Vec<f64> = rr.iter().map(|&i| r[i] * 1000.0).collect();
        if !v.is_empty() {
            g.rtt_min
                .push(v.iter().copied().fold(f64::INFINITY, f64::min));
            g.rtt_mean.push(mean(&v));
        }
        for &i in &rr {
            g.rto_min = if g.rto_min > 0.0 {
                g.rto_min.min(rto[i])
            } else {
                rto[i]
            };
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fig, xs, seeds, schemes @ ..] = args.as_slice() else {
        return Err(
            "usage: llelsn_flows <nsweep|friendly> <x,...> <first-last seed> <scheme>...".into(),
        );
    };
    let seeds = shared::seeds(seeds)?;
    println!("| {fig} | scheme of the flows | flows | goodput per flow Mb/s | CV of goodput across flows | Jain: run / 10 s windows | timeouts per flow (CV; Poisson 1/√mean) | corr(timeouts, goodput) | fast rexmits per flow | at a loss, median: cwnd before / half the flight / ssthresh after (seg) | losses with ssthresh < half the flight; within 1 s of the last | timeouts at cwnd ≤ 4 seg | RTT min / mean ms | min RTO s | last Reno flow (sta10) Mb/s | cell per run: AP attempts collided / errored; AP queue drops; station frames lost |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for x in xs.split(',') {
        let x: usize = x.parse()?;
        for scheme in schemes {
            let s = scenario(fig, x, scheme)?;
            let mut groups: Vec<(String, Group)> = vec![];
            // The access point's attempts, collisions, errors, queue drops; the stations' lost
            // frames (collisions and errors).
            let mut cell = [0.0; 5];
            for seed in seeds.clone() {
                let r = run(&s, seed, &RunOptions::traced())?;
                let Some(fr) = &r.flows else { continue };
                for m in &fr.members {
                    let ap = matches!(value(m, "role"), Some(Value::Str(r)) if r == "access-point");
                    let (c, e) = (num(m, "collisions"), num(m, "errors"));
                    if ap {
                        cell[0] += num(m, "attempts");
                        cell[1] += c;
                        cell[2] += e;
                        cell[3] += num(m, "queue_drops");
                    } else {
                        cell[4] += c + e;
                    }
                }
                let tables = r.trace.as_ref().map_or(&[][..], |t| &t.tables[..]);
                // Per scheme in this run: goodputs, timeouts, windowed deliveries per flow.
                let mut run_g: Vec<RunGroup> = vec![];
                for row in &fr.flows {
                    let (Some(Value::Str(name)), Some(Value::Str(sch))) =
                        (value(row, "flow"), value(row, "scheme"))
                    else {
                        continue;
                    };
                    let gi = match groups.iter().position(|(n, _)| n == sch) {
                        Some(i) => i,
                        None => {
                            groups.push((sch.clone(), Group::default()));
                            groups.len() - 1
                        }
                    };
                    let g = &mut groups[gi].1;
                    let (gp, to) = (num(row, "goodput_mbps"), num(row, "sender_timeouts"));
                    g.goodput.push(gp);
                    g.timeouts.push(to);
                    g.fast.push(num(row, "sender_fast_retransmits"));
                    if name == "sta10" && fig == "friendly" {
                        g.last_reno.push(gp);
                    }
                    let mut win = vec![];
                    trace_flow(tables, name, g, &mut win);
                    match run_g.iter_mut().find(|e| e.0 == *sch) {
                        Some(e) => {
                            e.1.push(gp);
                            e.2.push(to);
                            e.3.push(win);
                        }
                        None => run_g.push((sch.clone(), vec![gp], vec![to], vec![win])),
                    }
                }
                for (sch, gp, to, wins) in run_g {
                    let w: Vec<f64> = (0..20)
                        .map(|k| {
                            jain(
                                &wins
                                    .iter()
                                    .map(|v| v.get(k).copied().unwrap_or(0.0))
                                    .collect::<Vec<_>>(),
                            )
                        })
                        .collect();
                    if let Some((_, g)) = groups.iter_mut().find(|e| e.0 == sch) {
                        g.per_run
                            .push([cv(&gp), cv(&to), jain(&gp), mean(&w), pearson(&to, &gp)]);
                    }
                }
            }
            let n = seeds.clone().count() as f64;
            for (sch, mut g) in groups {
                let pr = |k: usize| mean(&g.per_run.iter().map(|r| r[k]).collect::<Vec<_>>());
                let below = g.ss.iter().zip(&g.half).filter(|(s, h)| s < h).count();
                let tm = mean(&g.timeouts);
                println!(
                    "| {x} | `{sch}` | {:.0} | {:.3} | {:.3} | {:.3} / {:.3} | {tm:.1} ({:.2}; {:.2}) | {:.2} | {:.1} | {:.1} / {:.1} / {:.1} | {:.0} %; {:.0} % | {:.0} % | {:.0} / {:.0} | {:.2} | {} | {:.1} % / {:.1} %; {:.0}; {:.0} |",
                    g.goodput.len() as f64 / n,
                    mean(&g.goodput),
                    pr(0),
                    pr(2),
                    pr(3),
                    pr(1),
                    1.0 / tm.sqrt(),
                    pr(4),
                    mean(&g.fast),
                    median(&mut g.cwnd),
                    median(&mut g.half),
                    median(&mut g.ss),
                    100.0 * below as f64 / g.ss.len() as f64,
                    100.0 * g.repeat / g.ss.len() as f64,
                    100.0 * g.small_to / g.timeouts.iter().sum::<f64>(),
                    mean(&g.rtt_min),
                    mean(&g.rtt_mean),
                    g.rto_min,
                    if g.last_reno.is_empty() {
                        "".to_string()
                    } else {
                        format!("{:.3}", mean(&g.last_reno))
                    },
                    100.0 * cell[1] / cell[0],
                    100.0 * cell[2] / cell[0],
                    cell[3] / n,
                    cell[4] / n
                );
            }
        }
    }
    Ok(())
}
