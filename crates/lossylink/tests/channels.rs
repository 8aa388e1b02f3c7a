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
