#![allow(clippy::expect_used)]
// Each including target uses some of these (the transfer benchmark not the scale group's).
#![allow(dead_code)]
//! The scenarios of the speed figures (the reference run, the networks figure and the scale group), shared by the benchmarks
//! (`benches/transfer.rs`, `benches/scale.rs`) and the callgrind example
//! (`examples/reference.rs`), so that the instruction counts and the wall times are of the same
//! runs.

use lossylink::Scenario;

/// One 8 MiB transfer of `preset` with one error per `error_every` bytes.
pub fn transfer(preset: &str, error_every: &str) -> Scenario {
    let mut s = Scenario::preset(preset).expect("preset");
    s.set("error_every", error_every).expect("error_every");
    s
}

/// The reference run: lan, e2e, one error per 64 KiB, 32 KiB buffer, 8 MiB.
pub fn reference() -> Scenario {
    transfer("lan", "64KiB")
}

/// A server on a 100 Mb/s wire behind an access point whose 802.11b DCF cell (11 Mb/s, long
/// preamble, basic rate 1 Mb/s) holds `n` stations, each downloading over TCP for 200 s.
pub fn dcf_cell(n: usize) -> Scenario {
    dcf_cell_for(n, "200s")
}

/// [`dcf_cell`] for `duration` (the scale group's cells).
pub fn dcf_cell_for(n: usize, duration: &str) -> Scenario {
    let mut t = format!(
        "name = \"dcf-bench\"\nscheme = \"e2e+modern\"\n[run]\nduration = \"{duration}\"\n\
         [[nodes]]\nname = \"server\"\nkind = \"host\"\n[[nodes]]\nname = \"ap\"\nkind = \"base-station\"\n",
    );
    for i in 1..=n {
        t += &format!("[[nodes]]\nname = \"sta{i}\"\nkind = \"host\"\n");
    }
    t += "[[links]]\nname = \"wire\"\nbetween = [\"server\", \"ap\"]\nrole = \"wired\"\nrate = \"100Mbps\"\ndelay = \"5ms\"\nqueue = 100\n";
    let stations: Vec<String> = (1..=n).map(|i| format!("\"sta{i}\"")).collect();
    t += &format!(
        "[[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [{}]\nrate = \"11Mbps\"\ndelay = \"1us\"\nqueue = 50\nframing = 36\nper_frame = \"192us\"\ndcf = {{ retry_limit = 7 }}\n",
        stations.join(", ")
    );
    for i in 1..=n {
        t += &format!(
            "[[flows]]\nname = \"f{i}\"\nfrom = \"server\"\nto = \"sta{i}\"\nstart = \"{}ms\"\n",
            10 * i
        );
    }
    Scenario::from_toml_str(&t).expect("dcf bench scenario")
}

/// The dumbbell preset with `n` long-lived TCP flows (started 10 ms apart) and a Pareto ON/OFF
/// UDP source of 4 Mb/s mean (10 Mb/s ON, 200 ms ON, 300 ms OFF, shape 1.5) for 200 s.
pub fn dumbbell(n: usize) -> Scenario {
    let mut s = Scenario::preset("dumbbell").expect("preset");
    s.set("run.duration", "200s").expect("duration");
    let flows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "{{ name = \"f{i}\", from = \"s{}\", to = \"d{}\", start = \"{}ms\" }}",
                i % 4 + 1,
                i % 4 + 1,
                10 * i
            )
        })
        .collect();
    let bg = "{ name = \"bg\", from = \"s4\", to = \"d4\", udp = { model = \"pareto\", rate = \"10Mbps\", on = \"200ms\", off = \"300ms\", shape = 1.5, size = \"1000B\" } }";
    s.set("flows", &format!("[{}, {bg}]", flows.join(", ")))
        .expect("flows");
    s
}

/// The scale group's dumbbell: `n` long-lived NewReno flows (modern profile, 60 KiB
/// buffers) from one host to another, started 1 ms apart, over a bottleneck of `rate` and
/// 20 ms between two routers; 10 Gb/s, 1 ms access links; 1000-packet drop-tail queues
/// everywhere; run for `duration`.
pub fn long_lived(n: usize, rate: &str, duration: &str) -> Scenario {
    dumbbell_flows(n, rate, duration, None)
}

/// [`long_lived`]'s dumbbell with flows of `bytes` each (`None`: long-lived); the run ends when
/// the last completes, or at `duration`.
pub fn dumbbell_flows(n: usize, rate: &str, duration: &str, bytes: Option<&str>) -> Scenario {
    let mut t = format!(
        "name = \"scale-dumbbell\"\nscheme = \"e2e-newreno\"\n\
         [tcp]\nprofile = \"modern\"\nmss = 1460\nbuffer = \"60KiB\"\n\
         [run]\nduration = \"{duration}\"\n"
    );
    for (name, kind) in [
        ("src", "host"),
        ("r1", "router"),
        ("r2", "router"),
        ("dst", "host"),
    ] {
        t += &format!("[[nodes]]\nname = \"{name}\"\nkind = \"{kind}\"\n");
    }
    for (name, a, b, rate, delay) in [
        ("access-src", "src", "r1", "10Gbps", "1ms"),
        ("bottleneck", "r1", "r2", rate, "20ms"),
        ("access-dst", "r2", "dst", "10Gbps", "1ms"),
    ] {
        t += &format!(
            "[[links]]\nname = \"{name}\"\nbetween = [\"{a}\", \"{b}\"]\nrole = \"wired\"\n\
             rate = \"{rate}\"\ndelay = \"{delay}\"\nqueue = 1000\n"
        );
    }
    for i in 0..n {
        t += &format!(
            "[[flows]]\nname = \"f{i}\"\nfrom = \"src\"\nto = \"dst\"\nstart = \"{i}ms\"\n"
        );
        if let Some(b) = bytes {
            t += &format!("bytes = \"{b}\"\n");
        }
    }
    Scenario::from_toml_str(&t).expect("scale dumbbell scenario")
}

/// `n` SURGE web sessions (SURGE's defaults, one persistent connection per page) on the eln5
/// preset's network (server, 1 Mb/s 100 ms wire, base station, three 2 Mb/s radio links),
/// the sessions' clients spread over the three mobiles, for `duration`.
pub fn web_sessions(n: usize, duration: &str) -> Scenario {
    let mut s = Scenario::preset("eln5").expect("preset");
    s.set("run.warmup", "0s").expect("warmup");
    s.set("run.duration", duration).expect("duration");
    let flows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "{{ name = \"web{i}\", from = \"server\", to = \"m{}\", web = {{}} }}",
                i % 3 + 1
            )
        })
        .collect();
    s.set("flows", &format!("[{}]", flows.join(", ")))
        .expect("flows");
    s
}

/// The scale group's cases, by name, with the simulated time of each: chosen so that a case
/// takes about a second or more on one core of the development machine at rest (ninth
/// session; web-1000 at the scenario's limit of an hour). Before, at 5-200 s, several took
/// under 0.1 s, and web-1000's 0.03 s was mostly building its 1000 sessions.
pub const SCALE: &[(&str, &str)] = &[
    ("dumbbell-10-10Mbps", "2000s"),
    ("dumbbell-100-10Mbps", "2000s"),
    ("dumbbell-1000-10Mbps", "1000s"),
    ("dumbbell-10-1Gbps", "100s"),
    ("dumbbell-100-1Gbps", "20s"),
    ("dumbbell-1000-1Gbps", "10s"),
    ("dumbbell-10-10Gbps", "200s"),
    ("dumbbell-100-10Gbps", "20s"),
    ("dumbbell-1000-10Gbps", "2s"),
    ("cell-5", "2000s"),
    ("cell-20", "2000s"),
    ("cell-50", "2000s"),
    ("web-1000", "3600s"),
    ("llelsn-stalled", "600s"),
    ("gigabit", "8s"),
    ("gigabit-bbr", "8s"),
    ("gigabit-sack", "8s"),
];

/// The LL-ELSN study's stalled run (`llelsn_stalled.toml`, seed 1) for `duration`: one flow
/// whose scoreboard grows by about 400 segments a simulated second, nearly all SACKed above
/// one segment the receiver never gets (16 390 on the board after 40 s). Before the board kept
/// its holes (docs/performance.md) each ACK walked the whole board, and the run slowed from
/// 0.55 M events/s at 20 s to 0.13 M at 80 s.
pub fn llelsn_stalled(duration: &str) -> Scenario {
    let mut s = Scenario::from_toml_str(include_str!("llelsn_stalled.toml")).expect("stalled");
    s.set("run.duration", duration).expect("duration");
    s
}

/// The scale case `name` (`dumbbell-N-RATE`, `cell-N`, `web-N`, `llelsn-stalled`,
/// `gigabit`, `gigabit-bbr`, `gigabit-sack`) run for `duration`; also, outside the group,
/// `transfers-N-RATE`: the dumbbell's N flows of 1 MB each, a run that completes, and the
/// `gigabit` cases with `@RATE` (`gigabit-bbr@10Gbps`): the bottleneck at RATE. An unknown
/// name, or a duration or rate the `gigabit` preset does not take, is a one-line error.
pub fn scale_case(name: &str, duration: &str) -> Result<Scenario, String> {
    let unknown = || format!("unknown case `{name}` (try `list`)");
    if name == "llelsn-stalled" {
        return Ok(llelsn_stalled(duration));
    }
    if let Some(rest) = name.strip_prefix("gigabit") {
        // `gigabit...@RATE`: the same with the bottleneck (the preset's first link) at RATE,
        // to follow the cost per event as the flight grows with the rate.
        let (cc, rate) = match rest.split_once('@') {
            Some((cc, rate)) => (cc, Some(rate)),
            None => (rest, None),
        };
        // Today's path: the `gigabit` preset (four CUBIC flows of the linux profile, RACK-TLP
        // over SACK, window scaling, thousands of segments in flight each); `gigabit-bbr`
        // with BBR, which samples the delivery rate on every ACK; `gigabit-sack` with CUBIC over
        // the RFC 6675 SACK sender of the modern profile and 32 MiB buffers.
        let mut edits = vec![("run.duration", duration)];
        match cc {
            "" => {}
            "-bbr" => edits.push(("scheme", "e2e-linux+bbr")),
            "-sack" => edits.extend([
                ("scheme", "e2e-cubic"),
                ("tcp.profile", "modern"),
                ("tcp.buffer", "32MiB"),
            ]),
            _ => return Err(unknown()),
        }
        edits.extend(rate.map(|r| ("links.0.rate", r)));
        let mut s = Scenario::preset("gigabit").map_err(|e| format!("{name}: {e}"))?;
        for (key, value) in edits {
            s.set(key, value).map_err(|e| format!("{name}: {e}"))?;
        }
        return Ok(s);
    }
    let mut parts = name.split('-');
    let kind = parts.next().ok_or_else(unknown)?;
    let n: usize = parts
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(unknown)?;
    Ok(match (kind, parts.next()) {
        ("dumbbell", Some(rate)) => long_lived(n, rate, duration),
        ("transfers", Some(rate)) => dumbbell_flows(n, rate, duration, Some("1MB")),
        ("cell", None) => dcf_cell_for(n, duration),
        ("web", None) => web_sessions(n, duration),
        _ => return Err(unknown()),
    })
}

/// The process's peak resident memory in bytes since the last [`reset_peak_memory`] (Linux:
/// `VmHWM` of /proc/self/status; `None` elsewhere).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Start a new peak of resident memory (Linux 4.0+: writing 5 to /proc/self/clear_refs resets
/// `VmHWM`, proc(5)); a no-op elsewhere.
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// CPU time of the calling thread (clock_gettime(2), `CLOCK_THREAD_CPUTIME_ID`), in seconds:
/// unlike wall time it does not count the time other processes held the core.
pub fn thread_cpu_s() -> f64 {
    use nix::time::{clock_gettime, ClockId};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map_or(f64::NAN, |t| t.tv_sec() as f64 + t.tv_nsec() as f64 * 1e-9)
}
