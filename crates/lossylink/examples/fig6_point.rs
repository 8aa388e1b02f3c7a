//! Fig. 6 points of the LL-ELSN study (eln-llelsn spec §5.4, T004-1) from Rust, without the
//! Python extension: the `llelsn` preset, 200 s, uniform FER on a full data frame (1076 B), as
//! python/lossylink/papers/llelsn/runs.py configures them.
//!
//! ```text
//! cargo run --release -p lossylink --example fig6_point -- 3,5,9 1-5 e2e e2e-westwood e2e-tibet
//! ```
//!
//! Prints per scheme and FER the mean goodput (Mb/s) over the seeds, the timeouts and fast
//! retransmits per run, the median ssthresh (segments) set by a fast retransmit or timeout and the
//! share of the run spent in ACK gaps over 0.5 s (timeouts). LLELSN_SET="key=value;..." adds
//! settings; LHP and HACK get the cell's header protection, as in the reproduction.

use lossylink::{run, Column, RunOptions, TraceTable};

#[path = "shared/llelsn.rs"]
mod shared;
use shared::{col, median};

/// The share of the run spent in gaps of more than 0.5 s between ACKs that advance snd_una
/// (retransmission timeouts, with the 1 s minimum RTO).
fn idle_share(tables: &[TraceTable], duration_s: f64) -> f64 {
    let Some(ev) = tables.iter().find(|t| t.name == "events") else {
        return f64::NAN;
    };
    let (Some(Column::F64(et)), Some(Column::Str(kind))) = (col(ev, "time_s"), col(ev, "kind"))
    else {
        return f64::NAN;
    };
    let acks: Vec<f64> = et
        .iter()
        .zip(kind)
        .filter(|(_, k)| *k == "ack")
        .map(|(t, _)| *t)
        .collect();
    acks.windows(2)
        .map(|w| w[1] - w[0])
        .filter(|g| *g > 0.5)
        .sum::<f64>()
        / duration_s
}

/// The ssthresh (segments of 1000 B) just after each fast retransmit or timeout.
fn loss_ssthresh(tables: &[TraceTable]) -> Vec<f64> {
    let (Some(ev), Some(snd)) = (
        tables.iter().find(|t| t.name == "events"),
        tables.iter().find(|t| t.name == "sender"),
    ) else {
        return vec![];
    };
    let (Some(Column::F64(et)), Some(Column::Str(kind))) = (col(ev, "time_s"), col(ev, "kind"))
    else {
        return vec![];
    };
    let (Some(Column::F64(st)), Some(Column::I64(ss))) = (col(snd, "time_s"), col(snd, "ssthresh"))
    else {
        return vec![];
    };
    let mut out = Vec::new();
    for (t, k) in et.iter().zip(kind) {
        if k == "fast-retransmit" || k == "timeout" {
            let i = st.partition_point(|x| x < t);
            if let Some(s) = ss.get(i) {
                out.push(*s as f64 / 1000.0);
            }
        }
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fers, seeds, schemes @ ..] = args.as_slice() else {
        return Err("usage: fig6_point <fer%,...> <first-last seed> <scheme>...".into());
    };
    let seeds = shared::seeds(seeds)?;
    println!(
        "| FER % | scheme | goodput Mb/s | min-max | timeouts | fast rexmits | median ssthresh (seg) | time in ACK gaps > 0.5 s |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for fer in fers.split(',') {
        let p: f64 = fer.parse()?;
        for scheme in schemes {
            let mut s = shared::base(scheme)?;
            s.set("cells.0.error", &shared::fer(p))?;
            // LLELSN_SET="key=value;key=value": further settings (e.g. tcp.min_rto=200ms).
            shared::finish(&mut s, scheme)?;
            let (mut g, mut to, mut fr, mut ss, mut idle) = (vec![], 0, 0, vec![], 0.0);
            for seed in seeds.clone() {
                let r = run(&s, seed, &RunOptions::traced())?;
                g.push(r.metrics.throughput_mbps);
                to += r.metrics.sender_timeouts;
                fr += r.metrics.sender_fast_retransmits;
                if let Some(t) = &r.trace {
                    ss.extend(loss_ssthresh(&t.tables));
                    idle += idle_share(&t.tables, 200.0);
                }
            }
            let n = g.len() as f64;
            println!(
                "| {fer} | `{scheme}` | {:.3} | {:.3}-{:.3} | {:.1} | {:.1} | {:.2} | {:.0} % |",
                g.iter().sum::<f64>() / n,
                g.iter().copied().fold(f64::INFINITY, f64::min),
                g.iter().copied().fold(0.0, f64::max),
                to as f64 / n,
                fr as f64 / n,
                median(&mut ss),
                100.0 * idle / n
            );
        }
    }
    Ok(())
}
