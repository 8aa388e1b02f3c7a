#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Today's paths: RFC 7323 window scaling lets one flow fill a long fat pipe.

use crate::common;
use common::num;
use lossylink::{run, RunOptions, RunResult, Scenario};

/// One CUBIC flow on the linux profile over a loss-free `rate`, 50 ms round-trip path with
/// `buffer` socket buffers (window scaling on when `scaling`), for `duration` with 1 s of
/// warm-up excluded from goodput. NewReno recovery, not `e2e-linux`'s RACK: RACK's scoreboard
/// walks every segment in flight on each ACK, too slow for a 6 MB window in a debug build
/// until the scale issue lands.
fn long_fat_pipe(rate: &str, buffer: &str, scaling: bool, queue: u32, duration: &str) -> Scenario {
    long_fat_pipe_with(
        rate,
        &format!("buffer = \"{buffer}\"\nwindow_scaling = {scaling}\nautotune = \"off\""),
        queue,
        duration,
    )
}

/// [`long_fat_pipe`] with these `[tcp]` lines.
fn long_fat_pipe_with(rate: &str, tcp: &str, queue: u32, duration: &str) -> Scenario {
    let text = format!(
        r#"
name = "lfp"
scheme = "e2e-newreno+linux+cubic"
[tcp]
mss = 1448
{tcp}
[run]
duration = "{duration}"
warmup = "1s"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[links]]
name = "path"
between = ["a", "b"]
role = "wired"
rate = "{rate}"
delay = "25ms"
queue = {queue}
host_queue = false
[[flows]]
name = "f"
from = "a"
to = "b"
"#
    );
    Scenario::from_toml_str(&text).expect("a valid scenario")
}

fn go(s: &Scenario) -> RunResult {
    run(s, 1, &RunOptions::default()).expect("the run completes")
}

#[test]
fn a_scaled_window_fills_a_gigabit_path_and_an_unscaled_one_is_capped() {
    // 16 MiB buffers: the window is never the limit (BDP 6.25 MB at 1 Gb/s, 50 ms); a queue of
    // 12 000 packets holds what a 16 MiB window puts beyond the BDP, so nothing is lost and
    // slow start runs into the receive window (loss recovery of thousands of segments is the
    // scale issue's).
    let r = go(&long_fat_pipe("1Gbps", "16MiB", true, 12000, "2500ms"));
    let f = &r.flows.as_ref().unwrap().flows[0];
    let g = num(f, "goodput_mbps");
    eprintln!("16 MiB scaled: {g} Mb/s {f:?}");
    assert!(g >= 900.0 * 1448.0 / 1500.0 * 0.999, "goodput {g} Mb/s");
    // 64 KiB buffers without scaling: 65 535 bytes per round trip at most, 10.5 Mb/s.
    let r = go(&long_fat_pipe("1Gbps", "65535", false, 4000, "3s"));
    let f = &r.flows.as_ref().unwrap().flows[0];
    let g = num(f, "goodput_mbps");
    eprintln!("64 KiB: {g} Mb/s");
    let cap = 65535.0 * 8.0 / 0.050 / 1e6;
    assert!(g <= cap && g >= 0.9 * cap, "goodput {g} Mb/s, cap {cap}");
}

/// The linux profile's receive-buffer autotuning (Linux DRS, `tcp.autotune = "linux"`, its
/// default): the receiver starts at `tcp_rmem[1]` = 128 KiB (a 64 KiB window) and grows to
/// `tcp_rmem[2]` = 32 MiB (a 16 MiB window, above the 6.25 MB BDP). With `tcp.wmem_max` raised
/// to 16 MiB the flow fills the gigabit path; with Linux's default `tcp_wmem[2]` = 4 MiB the
/// sender's buffer caps it at about 4 MiB per round trip (671 Mb/s), as on Linux.
#[test]
fn an_autotuned_linux_receiver_opens_its_window_to_fill_a_gigabit_path() {
    let r = go(&long_fat_pipe_with(
        "1Gbps",
        "wmem_max = \"16MiB\"",
        12000,
        "2500ms",
    ));
    let f = &r.flows.as_ref().unwrap().flows[0];
    let g = num(f, "goodput_mbps");
    eprintln!("autotuned, 16 MiB send buffer: {g} Mb/s {f:?}");
    assert!(g >= 900.0 * 1448.0 / 1500.0 * 0.999, "goodput {g} Mb/s");
    let r = go(&long_fat_pipe_with("1Gbps", "", 12000, "2500ms"));
    let f = &r.flows.as_ref().unwrap().flows[0];
    let g = num(f, "goodput_mbps");
    eprintln!("autotuned, Linux's tcp_wmem[2]: {g} Mb/s");
    let cap = f64::from(4u32 << 20) * 8.0 / 0.050 / 1e6;
    assert!(g <= cap && g >= 0.8 * cap, "goodput {g} Mb/s, cap {cap}");
}

#[test]
fn buffers_above_64_kib_need_window_scaling() {
    let mut s = Scenario::preset("wan").unwrap();
    let e = s.set("tcp.buffer", "1MiB").unwrap_err().to_string();
    assert!(e.contains("tcp.window_scaling"), "{e}");
    s.set("tcp.window_scaling", "true").unwrap();
    s.set("tcp.buffer", "1MiB").unwrap();
    let e = s.set("tcp.buffer", "2GiB").unwrap_err().to_string();
    assert!(e.contains("1GiB"), "{e}");
}

/// The dumbbell preset's hosts jitter each packet by up to 3 ms (ns-2's `overhead_`): its four
/// identical NewReno flows no longer lock in phase, share fairly on average over 5 seeds, and
/// the seeds differ.
#[test]
fn jitter_breaks_the_phase_lock_of_identical_flows() {
    let s = Scenario::preset("dumbbell").unwrap();
    let mut jains = Vec::new();
    let mut goodputs = Vec::new();
    for seed in 1..=5 {
        let r = run(&s, seed, &RunOptions::default()).unwrap();
        let fr = r.flows.unwrap();
        jains.push(num(&fr.aggregate, "jain_index"));
        goodputs.push(
            fr.flows
                .iter()
                .map(|f| num(f, "goodput_mbps"))
                .collect::<Vec<_>>(),
        );
    }
    let mean = jains.iter().sum::<f64>() / 5.0;
    eprintln!("Jain per seed {jains:?}, mean {mean}; goodputs {goodputs:?}");
    assert!(mean >= 0.95, "mean Jain {mean}: {jains:?}");
    assert!(
        goodputs.windows(2).any(|w| w[0] != w[1]),
        "seeds differ: {goodputs:?}"
    );
}

/// FQ-CoDel (RFC 8290) on the dumbbell's 10 Mb/s bottleneck: an unresponsive 20 Mb/s UDP flow
/// does not starve a TCP flow, which gets at least 40 % of the link, and the queue's sojourn
/// time stays near CoDel's target.
#[test]
fn fq_codel_protects_a_tcp_flow_from_an_unresponsive_one() {
    let mut s = Scenario::preset("dumbbell").unwrap();
    s.set("run.duration", "20s").unwrap();
    s.set("run.warmup", "5s").unwrap();
    s.set("links.0.queue", "{ kind = \"fq_codel\" }").unwrap();
    s.set(
        "flows",
        "[{ name = \"tcp\", from = \"s1\", to = \"d1\" }, { name = \"udp\", from = \"s2\", to = \"d2\", udp = { model = \"cbr\", rate = \"20Mbps\", size = \"1000B\" } }]",
    )
    .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let fr = r.flows.unwrap();
    let tcp = num(&fr.flows[0], "goodput_mbps");
    let link = fr
        .links
        .iter()
        .find(|l| matches!(&l[0].1, lossylink::Value::Str(n) if n == "bottleneck"))
        .unwrap();
    eprintln!("TCP {tcp} Mb/s; bottleneck {link:?}; flows {:?}", fr.flows);
    assert!(tcp >= 4.0, "TCP gets {tcp} Mb/s of 10");
    assert!(num(link, "codel_drops") > 0.0);
    // The TCP flow's own queue stays short: its segments wait near CoDel's 5 ms target while
    // the UDP flow's queue fills FQ-CoDel's limit.
    let tcp_p95 = num(link, "tcp_sojourn_p95_ms");
    eprintln!(
        "TCP sojourn mean {} ms, p95 {tcp_p95} ms; all packets mean {} ms",
        num(link, "tcp_sojourn_mean_ms"),
        num(link, "sojourn_mean_ms")
    );
    assert!(tcp_p95 < 20.0, "TCP sojourn p95 {tcp_p95} ms");
    // Without FQ-CoDel (drop-tail, 50 packets) the UDP flow takes nearly everything.
    s.set("links.0.queue", "{ kind = \"droptail\", packets = 50 }")
        .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let tcp_dt = num(&r.flows.unwrap().flows[0], "goodput_mbps");
    eprintln!("TCP with drop-tail {tcp_dt} Mb/s");
    assert!(tcp_dt < 2.0, "{tcp_dt}");
}

/// ECN (RFC 3168) over FQ-CoDel: one CUBIC flow with window scaling (4 MiB buffers) on the
/// dumbbell's loss-free 10 Mb/s bottleneck. FQ-CoDel marks instead of dropping: no packet is
/// lost to the queue, the sender answers the marks without retransmitting, and the link stays
/// busy.
#[test]
fn an_ecn_flow_over_fq_codel_loses_nothing_to_the_queue() {
    let mut s = Scenario::preset("dumbbell").unwrap();
    s.set("run.duration", "20s").unwrap();
    s.set("run.warmup", "5s").unwrap();
    s.set("links.0.queue", "{ kind = \"fq_codel\" }").unwrap();
    s.set("tcp.window_scaling", "true").unwrap();
    s.set("tcp.buffer", "4MiB").unwrap();
    s.set(
        "flows",
        "[{ name = \"f\", from = \"s1\", to = \"d1\", scheme = \"e2e-cubic+ecn\" }]",
    )
    .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let fr = r.flows.unwrap();
    let f = &fr.flows[0];
    let link = &fr.links[0];
    eprintln!("flow {f:?}\nbottleneck {link:?}");
    assert_eq!(num(link, "queue_drops"), 0.0);
    assert!(num(link, "codel_marks") > 0.0);
    assert_eq!(num(f, "sender_retransmitted_segments"), 0.0);
    let g = num(f, "goodput_mbps");
    assert!(g >= 9.0, "goodput {g}");
    // Its delay stays near the 5 ms target rather than the window's 4 MiB (3.4 s at 10 Mb/s).
    let p95 = num(link, "sojourn_p95_ms");
    assert!(p95 < 50.0, "sojourn p95 {p95} ms");
    // The flow's ECN counters: the marks reached the receiver, which echoed them; the sender
    // answered at most once per ECE and none of its responses was ABE's (off).
    let (ce, ece) = (num(f, "receiver_ce_received"), num(f, "sender_ece_acks"));
    let responses = num(f, "sender_ecn_responses");
    assert!(ce > 0.0 && ce <= num(link, "codel_marks"), "{f:?}");
    assert!(responses >= 1.0 && responses <= ece, "{f:?}");
    assert_eq!(num(f, "sender_abe_responses"), 0.0);
    // With ABE every response is ABE's; without ECN there are no ECN columns at all.
    s.set("tcp.abe", "true").unwrap();
    let f = &run(&s, 1, &RunOptions::default())
        .unwrap()
        .flows
        .unwrap()
        .flows[0];
    assert_eq!(
        num(f, "sender_abe_responses"),
        num(f, "sender_ecn_responses")
    );
    assert!(num(f, "sender_abe_responses") >= 1.0, "{f:?}");
    s.set("tcp.abe", "false").unwrap();
    s.set(
        "flows",
        "[{ name = \"f\", from = \"s1\", to = \"d1\", scheme = \"e2e-cubic\" }]",
    )
    .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    assert!(!r.flows.unwrap().flows[0]
        .iter()
        .any(|(k, _)| k.contains("ece")));
    assert!(!r.metrics.to_pairs().iter().any(|(k, _)| k.contains("ecn")));
}

/// The `gigabit` preset loads and runs (a short stretch: its 4 s are for release builds):
/// four flows move data over the FQ-CoDel bottleneck with window scaling and ECN.
#[test]
fn the_gigabit_preset_runs() {
    let mut s = Scenario::preset("gigabit").unwrap();
    s.set("run.warmup", "300ms").unwrap();
    s.set("run.duration", "600ms").unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let fr = r.flows.unwrap();
    let total = num(&fr.aggregate, "aggregate_goodput_mbps");
    eprintln!(
        "gigabit 0.6 s: aggregate {total} Mb/s; flows {:?}",
        fr.flows
    );
    for f in &fr.flows {
        assert!(num(f, "goodput_mbps") > 10.0, "{f:?}");
    }
    assert!(total <= 1000.0);
}

/// The capture of a scaled connection (with a SYN, so that the option is on the wire): tshark
/// decodes the Window Scale option and computes windows above 64 KiB from the shifted field.
/// Skipped, with a notice, where tshark is not installed.
#[test]
fn tshark_reads_the_window_scale_option_and_the_scaled_windows() {
    let mut s = Scenario::preset("lan").unwrap();
    s.set("error_every", "0").unwrap();
    s.set("tcp.window_scaling", "true").unwrap();
    s.set("tcp.buffer", "256KiB").unwrap();
    s.set("tcp.syn", "true").unwrap();
    let opts = RunOptions {
        pcap: true,
        ..RunOptions::default()
    };
    let r = run(&s, 1, &opts).unwrap();
    let dir = std::env::temp_dir().join(format!("lossylink-wscale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = r.capture.as_ref().unwrap().write_dir(&dir).unwrap();
    let Ok(out) = std::process::Command::new("tshark").arg("-v").output() else {
        eprintln!("NOTICE: tshark not installed; the option's bytes are checked in pcap.rs");
        return;
    };
    assert!(out.status.success());
    let mut shifts = Vec::new();
    let mut max_window = 0u64;
    for f in &files {
        let out = std::process::Command::new("tshark")
            .arg("-r")
            .arg(f)
            .args([
                "-T",
                "fields",
                "-e",
                "tcp.options.wscale.shift",
                "-e",
                "tcp.window_size",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let mut cols = line.split('\t');
            if let Some(sh) = cols.next().filter(|c| !c.is_empty()) {
                shifts.push(sh.to_string());
            }
            if let Some(w) = cols.next().and_then(|w| w.parse::<u64>().ok()) {
                max_window = max_window.max(w);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    eprintln!("tshark: shifts {shifts:?}, largest window {max_window}");
    // 256 KiB: shift 3 on the SYN and on the SYN-ACK (as often as each crossed a link).
    assert!(
        !shifts.is_empty() && shifts.iter().all(|s| s == "3"),
        "{shifts:?}"
    );
    assert!(max_window > 65535, "largest window {max_window}");
}

/// A Wi-Fi cell's `queue` is each member's interface queue: FQ-CoDel per station, as Linux's
/// mac80211 runs it; every direction of the cell reports its discipline's columns.
#[test]
fn a_cell_runs_fq_codel_per_member() {
    let mut s = Scenario::preset("wlan").unwrap();
    s.set("run.warmup", "1s").unwrap();
    s.set("run.duration", "5s").unwrap();
    s.set("cells.0.queue", "{ kind = \"fq_codel\", packets = 100 }")
        .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let fr = r.flows.unwrap();
    let with = fr
        .links
        .iter()
        .filter(|l| l.iter().any(|(k, _)| *k == "codel_marks"))
        .count();
    eprintln!("{with} directions with FQ-CoDel of {}", fr.links.len());
    assert!(with >= 8, "{with}");
    for f in &fr.flows {
        assert!(num(f, "goodput_mbps") > 0.0);
    }
}
