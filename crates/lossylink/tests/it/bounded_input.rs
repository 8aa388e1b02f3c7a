#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Bounded input (trace files): a trace a scenario names must be a regular
//! file within the size limit, and its timestamps must fit the simulator's clock; each a
//! one-line error naming the field.

use lossylink::{run, RunOptions, Scenario};

/// The error of setting `key` to `value` on the dumbbell and running it, wherever it shows.
fn error_of(key: &str, value: &str) -> String {
    let mut s = Scenario::preset("dumbbell").unwrap();
    s.set("run.warmup", "0s").unwrap();
    s.set("run.duration", "1s").unwrap();
    match s.set(key, value) {
        Err(e) => e.to_string(),
        Ok(()) => run(&s, 1, &RunOptions::default())
            .expect_err("refused")
            .to_string(),
    }
}

fn one_line(e: &str) {
    assert!(!e.contains('\n') && e.len() < 300, "{e}");
}

#[test]
fn a_device_is_not_a_trace_file() {
    for (key, value, field) in [
        (
            "links.0.delivery",
            "/dev/zero",
            "links[0].forward.delivery: ",
        ),
        (
            "links.0.error",
            r#"{ model = "trace", file = "/dev/urandom" }"#,
            "links[0].forward.error.file: ",
        ),
    ] {
        let e = error_of(key, value);
        assert!(
            e.starts_with(field) && e.contains("not a regular file"),
            "{e}"
        );
        one_line(&e);
    }
}

#[test]
fn a_timestamp_past_the_clock_is_refused() {
    let p = std::env::temp_dir().join(format!("lossylink-overflow-{}", std::process::id()));
    std::fs::write(&p, "1\n18446744073710\n").unwrap();
    let e = error_of("links.0.delivery", p.to_str().unwrap());
    std::fs::remove_file(&p).unwrap();
    assert!(e.starts_with("links[0].forward.delivery: "), "{e}");
    assert!(
        e.contains("line 2: 18446744073710 ms is beyond the simulator's clock"),
        "{e}"
    );
    one_line(&e);
}
