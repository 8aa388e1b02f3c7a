//! Mean throughput of schemes on a preset over seeds 1-10 with one error per 64 KiB, as the
//! comparison tables of docs/modern.md are measured:
//!
//! ```text
//! cargo run --release -p lossylink --example measure -- lan e2e-jersey e2e-tibet
//! cargo run --release -p lossylink --example measure -- lan e2e-westwood tcp.min_rto=200ms
//! ```
//!
//! Prints one Markdown row per scheme: mean throughput (Mb/s) with its range over the seeds,
//! and the means per run of timeouts and fast retransmits and the wireless goodput. Arguments
//! of the form `key=value` are settings ([`Scenario::set`]) applied after the scheme to every
//! scheme named, for counterfactual rows (e.g. the `modern` profile with a 200 ms RTO floor).

use lossylink::{run, RunOptions, Scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((preset, rest)) = args.split_first() else {
        return Err("usage: measure <preset> <scheme>... [key=value]...".into());
    };
    let (settings, schemes): (Vec<&String>, Vec<&String>) =
        rest.iter().partition(|a| a.contains('='));
    for scheme in schemes {
        let mut s = Scenario::preset(preset)?;
        s.set("scheme", scheme)?;
        s.set("error_every", "64KiB")?;
        for kv in &settings {
            if let Some((key, value)) = kv.split_once('=') {
                s.set(key, value)?;
            }
        }
        let mut tput = Vec::new();
        let (mut timeouts, mut frs, mut good) = (0u64, 0u64, 0.0);
        for seed in 1..=10 {
            let m = run(&s, seed, &RunOptions::default())?.metrics;
            tput.push(m.throughput_mbps);
            timeouts += m.sender_timeouts;
            frs += m.sender_fast_retransmits;
            good += m.wireless_goodput_pct;
        }
        let n = tput.len() as f64;
        let lo = tput.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = tput.iter().copied().fold(0.0, f64::max);
        let with: String = settings.iter().map(|kv| format!(" `{kv}`")).collect();
        println!(
            "| {preset} | `{scheme}`{with} | {:.3} | {lo:.3}-{hi:.3} | {:.1} | {:.1} | {:.1} |",
            tput.iter().sum::<f64>() / n,
            timeouts as f64 / n,
            frs as f64 / n,
            good / n
        );
    }
    Ok(())
}
