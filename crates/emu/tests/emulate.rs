//! Real Linux TCP through the emulator against the simulator. These tests need root
//! (CAP_NET_ADMIN, CAP_SYS_ADMIN), TUN devices and network namespaces; elsewhere each prints
//! why it was skipped and passes. They run one at a time (a lock) so that two emulations do not
//! share the machine's two cores.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use emu::{emulate, Congestion, EmulateOptions, Programs};
use lossylink::{run, RunOptions, Scenario};
use std::sync::Mutex;
use std::time::Duration;

mod common;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The simulated and the emulated throughput of `preset` without errors, `bytes` sent.
fn loss_free(preset: &str, bytes: &str) -> (f64, f64) {
    let mut s = Scenario::preset(preset).unwrap();
    s.set("error_every", "0").unwrap();
    s.set("transfer", bytes).unwrap();
    // Linux's own defaults on the simulated side (initial window, delayed ACKs, SACK, ...),
    // with the scenario's fixed buffers as the emulated sockets have them (`buffer` below):
    // the profile's autotuned window would outgrow the lan's queue, which the kernel's fixed
    // 32 KiB does not.
    s.set("profile", "linux").unwrap();
    s.set("tcp.autotune", "off").unwrap();
    let sim = run(&s, 1, &RunOptions::default()).unwrap();
    let opts = EmulateOptions {
        cc: Congestion::Reno,
        programs: Programs::Bulk { bytes: None },
        // The scenario's socket buffers, as the simulated endpoints have them.
        buffer: Some(0),
        time_limit: Duration::from_secs(60),
        ..EmulateOptions::default()
    };
    let r = emulate(&s, &opts).unwrap();
    let b = r.bulk.clone().unwrap();
    assert!(b.complete, "{preset}: {} of {bytes} delivered", b.bytes);
    eprintln!(
        "{preset}: simulated {:.4} Mb/s, emulated {:.4} Mb/s; release lateness median {} us, p99 {} us",
        sim.metrics.throughput_mbps,
        r.goodput_mbps(),
        r.timing.median_ns / 1000,
        r.timing.p99_ns / 1000
    );
    (sim.metrics.throughput_mbps, r.goodput_mbps())
}

#[test]
#[ignore = "emulation (root, /dev/net/tun, ip netns): make test-emulation"]
fn reno_over_the_lan_links_reaches_the_simulated_loss_free_throughput() {
    require_emulation!();
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (sim, real) = loss_free("lan", "512KiB");
    assert!((real - sim).abs() <= 0.05 * sim, "sim {sim} real {real}");
}

#[test]
#[ignore = "emulation (root, /dev/net/tun, ip netns): make test-emulation"]
fn reno_over_the_wan_links_reaches_the_simulated_loss_free_throughput() {
    require_emulation!();
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (sim, real) = loss_free("wan", "1MiB");
    assert!((real - sim).abs() <= 0.05 * sim, "sim {sim} real {real}");
}

/// Names in `dir` that belong to process `pid`.
fn leftovers(pid: u32) -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["/run/netns", "/sys/class/net"] {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                if emu::netns::owner_pid(&n) == Some(pid) {
                    out.push(format!("{dir}/{n}"));
                }
            }
        }
    }
    out
}

#[test]
#[ignore = "emulation (root, /dev/net/tun, ip netns): make test-emulation"]
fn nothing_of_an_emulator_killed_with_sigkill_is_left_after_the_next_start() {
    require_emulation!();
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // An emulator that holds its namespaces: a server that sleeps, no client; a split scheme,
    // so the base station's namespace exists too (and its proxy thread listens there).
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lossylink-emu"))
        .args([
            "lan",
            "--set",
            "scheme=split",
            "--server",
            "sleep 30",
            "--time-limit",
            "30",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    // The server's namespace is created last.
    let ns = format!("/run/netns/{}", emu::netns::name(pid, "s"));
    let t0 = std::time::Instant::now();
    while !std::path::Path::new(&ns).exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "{ns} never appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let it finish setting up its devices, then kill it without a chance to clean up.
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    let left = leftovers(pid);
    for role in ["c", "b", "s"] {
        let n = format!("/run/netns/{}", emu::netns::name(pid, role));
        assert!(left.contains(&n), "{n} not left by SIGKILL: {left:?}");
    }
    // The next start removes them.
    let mut s = Scenario::preset("lan").unwrap();
    s.set("error_every", "0").unwrap();
    let opts = EmulateOptions {
        programs: Programs::Bulk {
            bytes: Some(64 * 1024),
        },
        time_limit: Duration::from_secs(20),
        ..EmulateOptions::default()
    };
    let r = emulate(&s, &opts).unwrap();
    assert!(r.bulk.clone().unwrap().complete);
    assert!(leftovers(pid).is_empty(), "left: {:?}", leftovers(pid));
    assert!(
        r.removed_stale.iter().any(|n| n.contains(&pid.to_string())),
        "{:?}",
        r.removed_stale
    );
    // And this emulation left nothing of its own.
    assert!(leftovers(std::process::id()).is_empty());
}

/// The time limit covers the whole run, the handshake included: a limit that ends before the
/// client's SYN crosses the links stops the run there, as timed out with nothing delivered,
/// instead of leaving the client in connect(2) through the kernel's SYN retries (which ended
/// in "client connect: ETIMEDOUT" about two minutes later). A split scheme's proxy connects
/// the same way.
#[test]
#[ignore = "emulation (root, /dev/net/tun, ip netns): make test-emulation"]
fn a_time_limit_inside_the_handshake_ends_the_run() {
    require_emulation!();
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for scheme in ["e2e", "split"] {
        let mut s = Scenario::preset("lan").unwrap();
        s.set("scheme", scheme).unwrap();
        let opts = EmulateOptions {
            programs: Programs::Bulk {
                bytes: Some(64 * 1024),
            },
            time_limit: Duration::from_micros(1),
            ..EmulateOptions::default()
        };
        let r = emulate(&s, &opts).unwrap_or_else(|e| panic!("{scheme}: {e}"));
        assert!(r.timed_out, "{scheme}");
        assert!(!r.bulk.unwrap().complete, "{scheme}");
    }
}

/// The calling thread's scheduling policy from `/proc/thread-self/stat` (field 41, proc(5):
/// 0 `SCHED_OTHER`, 1 `SCHED_FIFO`).
fn thread_policy() -> u32 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // Fields after the command name (which may hold spaces) start at field 3.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    rest.split(' ').nth(41 - 3).unwrap().parse().unwrap()
}

/// The relay runs under `SCHED_FIFO` for the run when asked (the default) and hands the
/// calling thread back with the policy it had; `realtime: false` keeps it ordinary.
#[test]
#[ignore = "emulation (root, /dev/net/tun, ip netns): make test-emulation"]
fn the_relay_runs_real_time_and_hands_the_thread_back_as_it_was() {
    require_emulation!();
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    assert_eq!(
        thread_policy(),
        0,
        "the test thread starts as an ordinary thread"
    );
    for realtime in [true, false] {
        let opts = EmulateOptions {
            programs: Programs::Bulk {
                bytes: Some(64 * 1024),
            },
            time_limit: Duration::from_secs(30),
            realtime,
            ..EmulateOptions::default()
        };
        let r = emulate(&Scenario::preset("lan").unwrap(), &opts).unwrap();
        assert!(r.bulk.as_ref().unwrap().complete);
        assert_eq!(r.relay.realtime, realtime);
        let flag = r
            .metrics()
            .into_iter()
            .find(|(k, _)| *k == "relay_realtime");
        assert_eq!(flag.map(|(_, v)| v), Some(lossylink::Value::Bool(realtime)));
        assert_eq!(
            thread_policy(),
            0,
            "realtime {realtime}: the policy is restored"
        );
    }
}

/// The kernel's data segments carry the scenario's `tcp.mss` bytes, with the timestamp option
/// (the `linux` profile) and without it (the lan's 1997 TCP): the devices' MTU leaves room for
/// the options the scenario's TCP sends, and the kernel's timestamps follow the scenario.
#[test]
#[ignore = "emulation (root, /dev/net/tun, ip netns): make test-emulation"]
fn the_kernels_segments_carry_the_scenarios_mss_with_and_without_timestamps() {
    require_emulation!();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for (profile, mss) in [(None, "1460"), (Some("linux"), "1448")] {
        let mut s = Scenario::preset("lan").unwrap();
        s.set("error_every", "0").unwrap();
        s.set("tcp.mss", mss).unwrap();
        if let Some(p) = profile {
            s.set("profile", p).unwrap();
            s.set("tcp.autotune", "off").unwrap();
        }
        let dir = common::scratch(&format!("mss-{mss}"));
        let opts = EmulateOptions {
            cc: Congestion::Reno,
            programs: Programs::Bulk {
                bytes: Some(256 * 1024),
            },
            buffer: Some(0),
            time_limit: Duration::from_secs(60),
            pcap_dir: Some(dir.clone()),
            ..EmulateOptions::default()
        };
        let r = emulate(&s, &opts).unwrap();
        assert!(r.bulk.unwrap().complete, "{profile:?}");
        let segs = common::read_pcap(&common::hop_file(&dir, 0, "forward"));
        let largest = segs.iter().map(|g| g.len).max().unwrap();
        assert_eq!(
            largest.to_string(),
            mss,
            "{profile:?}: largest data segment"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
