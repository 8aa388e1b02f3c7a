//! Per-station goodput, timeouts and Jain's index of a cell scenario under each rate control,
//! over seeds (the table of docs/scenarios.md's `wlan-n`):
//!
//! ```text
//! cargo run --profile develop -p lossylink --example wlan_cell -- wlan-n 1 2 3
//! ```
//!
//! The first argument is a preset name or a TOML file; the rest are seeds. For each of
//! `minstrel-ht` and `ideal`, one line per seed: each flow's goodput (Mb/s) and timeouts, the
//! aggregate goodput, Jain's index and the MPDUs the MACs dropped at their retry limit. `RC`
//! lists the rate controls, `DURATION` sets
//! `run.duration`, `SETS="path=value;..."` other overrides.

use lossylink::{run, RunOptions, Scenario, Value};

fn num(row: &[(&'static str, Value)], k: &str) -> f64 {
    match row.iter().find(|(n, _)| *n == k).map(|(_, v)| v) {
        Some(Value::Float(v)) => *v,
        Some(Value::Int(v)) => *v as f64,
        _ => f64::NAN,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((what, seeds)) = args.split_first() else {
        return Err("usage: wlan_cell <preset|file.toml> <seed>...".into());
    };
    let base = if what.ends_with(".toml") {
        Scenario::from_toml_str(&std::fs::read_to_string(what)?)?
    } else {
        Scenario::preset(what)?
    };
    let rcs = std::env::var("RC").unwrap_or_else(|_| "minstrel-ht,ideal".into());
    for rc in rcs.split(',') {
        for seed in seeds {
            let mut s = base.clone();
            if let Ok(d) = std::env::var("DURATION") {
                s.set("run.duration", &d)?;
            }
            // SETS="path=value;path=value": overrides, as `lossylink run --set`.
            for kv in std::env::var("SETS").unwrap_or_default().split(';') {
                if let Some((k, v)) = kv.split_once('=') {
                    s.set(k.trim(), v.trim())?;
                }
            }
            s.set("cells.0.dcf.rate_control", rc)?;
            let r = run(&s, seed.parse()?, &RunOptions::default())?;
            let fr = r.flows.ok_or("no flows")?;
            let per: Vec<String> = fr
                .flows
                .iter()
                .map(|f| {
                    format!(
                        "{:.1}/{}",
                        num(f, "goodput_mbps"),
                        num(f, "sender_timeouts")
                    )
                })
                .collect();
            // MPDUs the MACs dropped at their retry limit, all members.
            let drops: f64 = fr.members.iter().map(|m| num(m, "retry_drops")).sum();
            println!(
                "{rc} seed {seed}: {} | total {:.1} Mb/s, Jain {:.3}, MAC drops {drops}",
                per.join(" "),
                num(&fr.aggregate, "aggregate_goodput_mbps"),
                num(&fr.aggregate, "jain_index")
            );
        }
    }
    Ok(())
}
