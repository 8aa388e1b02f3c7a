#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Channel models from the scenario: recorded erasure traces (per frame, per time slot) and
//! their errors, one line naming the field.

use lossylink::{run, RunOptions, Scenario};
use std::io::Write;

fn lan_with(error: &str) -> Result<Scenario, lossylink::Error> {
    let mut s = Scenario::preset("lan").unwrap();
    s.set("transfer", "256KiB").unwrap();
    s.set("hops.1.forward.error", error).map(|_| s)
}

#[test]
fn a_frame_trace_loses_the_listed_data_frames() {
    // Frames 2 and 3 of the data direction erased, once (no repeat): exactly two corrupted
    // data frames, whatever the seed.
    let dir = std::env::temp_dir().join(format!("lossylink-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.txt");
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(f, "# two erasures\n0\n0\n1\n1\n0").unwrap();
    let s = lan_with(&format!(
        "{{ model = \"trace\", file = \"{}\", repeat = false }}",
        path.display()
    ))
    .unwrap();
    for seed in [1, 2] {
        let m = run(&s, seed, &RunOptions::default()).unwrap().metrics;
        assert_eq!(m.corrupted_data_frames, 2, "seed {seed}");
    }
}

#[test]
fn bad_traces_are_one_line_errors_naming_the_field() {
    let e = lan_with("{ model = \"trace\", file = \"/nonexistent/trace.txt\" }")
        .unwrap_err()
        .to_string();
    assert!(e.contains("hops[1].forward.error.file"), "{e}");
    assert!(e.contains("cannot read"), "{e}");
    let path = std::env::temp_dir().join(format!("lossylink-bad-{}.txt", std::process::id()));
    std::fs::write(&path, "0\n1\nx\n").unwrap();
    let e = lan_with(&format!(
        "{{ model = \"trace\", file = \"{}\" }}",
        path.display()
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("line 3"), "{e}");
    assert!(!e.contains('\n'), "{e}");
    let e = lan_with(&format!(
        "{{ model = \"trace\", file = \"{}\", slot = \"0s\" }}",
        path.display()
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("line 3") || e.contains("slot"), "{e}");
}

/// A link driven by a Mahimahi trace with one 1500-byte opportunity every 12 ms (1 Mb/s): a
/// CBR source of 1000-byte datagrams every 8 ms (1 Mb/s of payload, 1.028 Mb/s of IP) is held
/// to the trace; its datagrams leave exactly at opportunities.
#[test]
fn a_mahimahi_trace_decides_when_frames_leave() {
    let dir = std::env::temp_dir().join(format!("lossylink-mahi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("link.mahi");
    let lines: Vec<String> = (1..=100).map(|k| (12 * k).to_string()).collect();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let s = Scenario::from_toml_str(&format!(
        r#"
name = "mahimahi"
[run]
duration = "10s"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[links]]
name = "cell"
between = ["a", "b"]
role = "wireless"
rate = "10Mbps"
delay = "20ms"
queue = 1000
forward = {{ delivery = "{}" }}
[[flows]]
name = "tcp"
from = "b"
to = "a"
bytes = "1KiB"
[[flows]]
name = "cbr"
from = "a"
to = "b"
udp = {{ model = "cbr", rate = "1Mbps", size = "1000B" }}
"#,
        path.display()
    ))
    .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let fr = r.flows.unwrap();
    let cbr = &fr.flows[1];
    let delivered = match cbr.iter().find(|(k, _)| *k == "delivered_bytes").unwrap().1 {
        lossylink::Value::Int(v) => v,
        ref other => panic!("{other:?}"),
    };
    // 1028 bytes a datagram: an opportunity carries 1.46 of them; in 10 s less 20 ms of
    // propagation there are 831 opportunities, 1 246 500 bytes: 1212 whole datagrams.
    assert_eq!(delivered, 1212 * 1000);
}
