#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Print the mean metrics of a preset over seeds: `cargo run --release --example quick -- lan e2e 64KiB 32KiB 10`.

fn main() -> Result<(), lossylink::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let mut s = lossylink::Scenario::preset(&get(0, "lan"))?;
    s.set("scheme", &get(1, "e2e"))?;
    s.set("error_every", &get(2, "64KiB"))?;
    s.set("buffer", &get(3, "32KiB"))?;
    for kv in args.iter().skip(5) {
        if let Some((k, v)) = kv.split_once('=') {
            s.set(k, v)?;
        }
    }
    let n: u64 = get(4, "10").parse().unwrap_or(10);
    let (mut tp, mut wg, mut wlg, mut to, mut fr, mut ev, mut wall) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let mut local = 0.0;
    for seed in 1..=n {
        let m = lossylink::run(&s, seed, &lossylink::RunOptions::default())?.metrics;
        println!(
            "seed {seed:3}: {:.3} Mb/s  wired {:.1}%  wireless {:.1}%  TO {}  FR {}  per {:.2}%  drops {}  local {} (dup {} timer {} partial {})  supp {}  ev {}  {:.2} ms",
            m.throughput_mbps, m.wired_goodput_pct, m.wireless_goodput_pct, m.sender_timeouts, m.sender_fast_retransmits, m.wireless_data_per_pct, m.queue_drops, m.local_retransmissions, m.bs_dupack_retransmissions, m.bs_timer_retransmissions, m.bs_partial_ack_retransmissions, m.bs_dupacks_suppressed, m.events, m.wall_s * 1e3
        );
        tp += m.throughput_mbps;
        wg += m.wired_goodput_pct;
        wlg += m.wireless_goodput_pct;
        to += m.sender_timeouts as f64;
        fr += m.sender_fast_retransmits as f64;
        local += m.local_retransmissions as f64;
        ev += m.events as f64;
        wall += m.wall_s;
    }
    let k = n as f64;
    println!("mean: {:.3} Mb/s  wired {:.2}%  wireless {:.2}%  TO {:.1}  FR {:.1}  local {:.1}  {:.0} events  {:.2} ms/run  {:.1} Mev/s", tp / k, wg / k, wlg / k, to / k, fr / k, local / k, ev / k, wall / k * 1e3, ev / wall / 1e6);
    Ok(())
}
