//! One case of the scale group, run once: events, wall time, events per second and
//! peak memory, for paired runs of two builds and for callgrind profiles.
//!
//! ```text
//! cargo build --release -p lossylink --example scale
//! target/release/examples/scale dumbbell-100-1Gbps [DURATION]   # also cell-N, web-N, llelsn-stalled, gigabit, gigabit-bbr@10Gbps, transfers-N-RATE
//! target/release/examples/scale list
//! ```

use lossylink::{run, RunOptions};

#[path = "../benches/shared/scenarios.rs"]
mod scenarios;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "list".into());
    if name == "list" {
        for (case, duration) in scenarios::SCALE {
            println!("{case} {duration}");
        }
        return Ok(());
    }
    let default = scenarios::SCALE
        .iter()
        .find(|(c, _)| *c == name)
        .map_or("1s", |(_, d)| d);
    let duration = args.next().unwrap_or_else(|| default.to_string());
    let s = scenarios::scale_case(&name, &duration).map_err(|e| format!("scale: {e}"))?;
    scenarios::reset_peak_memory();
    let (start, cpu0) = (std::time::Instant::now(), scenarios::thread_cpu_s());
    let r = run(&s, 1, &RunOptions::default())?;
    let (wall, cpu) = (
        start.elapsed().as_secs_f64(),
        scenarios::thread_cpu_s() - cpu0,
    );
    let events = r.metrics.events;
    let peak =
        scenarios::peak_memory().map_or("n/a".into(), |b| format!("{:.0} MB", b as f64 / 1e6));
    println!(
        "{name} {duration}: {events} events, {wall:.3} s wall, {cpu:.3} s CPU, {:.2} M events/s \
         by wall time, {:.2} M by CPU time, peak {peak}",
        events as f64 / wall / 1e6,
        events as f64 / cpu / 1e6
    );
    Ok(())
}
