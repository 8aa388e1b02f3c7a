#![allow(clippy::expect_used)]
//! The scenarios of the speed figures (issue 21), shared by the benchmark
//! (`benches/transfer.rs`) and the callgrind example (`examples/reference.rs`), so that the
//! instruction counts and the wall times are of the same runs.

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
    let mut t = String::from(
        "name = \"dcf-bench\"\nscheme = \"e2e+modern\"\n[run]\nduration = \"200s\"\n\
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
