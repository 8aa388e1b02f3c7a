#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Nonsense refused: settings that parse but mean nothing are one-line
//! errors naming the field and what is allowed, found before anything runs.

use lossylink::Scenario;

/// The error of applying `edits` to `preset`.
fn error_of(preset: &str, edits: &[(&str, &str)]) -> String {
    let mut s = Scenario::preset(preset).unwrap();
    s.set_all(edits.iter().copied())
        .expect_err("refused")
        .to_string()
}

fn refused(preset: &str, edits: &[(&str, &str)], start: &str, says: &str) {
    let e = error_of(preset, edits);
    assert!(e.starts_with(start), "{e}");
    assert!(e.contains(says), "{e}");
    assert!(!e.contains('\n') && e.len() < 300, "{e}");
}

#[test]
fn a_route_kept_at_its_own_destination_is_refused() {
    refused(
        "eln5",
        &[("routes", r#"[{ at = "m1", to = "m1", via = "bs" }]"#)],
        "routes[0].at: ",
        "'m1' is the route's destination (to)",
    );
}

#[test]
fn ll_elsn_needs_a_dcf() {
    let text = Scenario::preset_toml("llelsn").unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("dcf ="))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(text.len(), without.len());
    let e = Scenario::from_toml_str(&without).unwrap_err().to_string();
    assert!(e.starts_with("flows[0].scheme: "), "{e}");
    assert!(e.contains("'ll-elsn' needs an 802.11 DCF"), "{e}");
    assert!(!e.contains('\n') && e.len() < 300, "{e}");
}

#[test]
fn a_burst_model_needs_a_gap() {
    refused(
        "eln5",
        &[(
            "links.1.error",
            r#"{ model = "burst", every = "0B", length = 2 }"#,
        )],
        "links[1].forward.error.every: ",
        "must be at least 1 byte",
    );
}

#[test]
fn an_absorbing_bad_state_is_refused() {
    refused(
        "eln5",
        &[(
            "links.1.error",
            r#"{ model = "gilbert", p_gb = 0, p_bb = 1 }"#,
        )],
        "links[1].forward.error.p_bb: ",
        "absorbing",
    );
}

#[test]
fn a_half_duplex_slot_of_zero_is_refused() {
    refused(
        "eln5",
        &[
            ("links.1.medium", "half-duplex"),
            ("links.1.contention", r#"{ cw = 31, slot = "0s" }"#),
        ],
        "links[1].contention.slot: ",
        "must be greater than zero",
    );
    refused(
        "wlan",
        &[("cells.0.contention", r#"{ cw = 31, slot = "0s" }"#)],
        "cells[0].contention.slot: ",
        "must be greater than zero",
    );
}

/// A DCF cell draws its own backoff (dcf.cw_min, dcf.slot), so `contention` on it would be a
/// second, unused wait: refused in either order of the two settings. The half-duplex cell of the
/// wlan preset keeps its `contention`.
#[test]
fn contention_on_a_dcf_cell_is_refused() {
    for edits in [
        [
            ("cells.0.contention", r#"{ cw = 31, slot = "20us" }"#),
            ("cells.0.dcf", "{ retry_limit = 7 }"),
        ],
        [
            ("cells.0.dcf", "{ retry_limit = 7 }"),
            ("cells.0.contention", r#"{ cw = 31, slot = "20us" }"#),
        ],
    ] {
        refused(
            "llelsn",
            &edits,
            "cells[0].contention: ",
            "a dcf cell draws its own backoff",
        );
    }
    refused(
        "wlan",
        &[("cells.0.dcf", "{ retry_limit = 7 }")],
        "cells[0].contention: ",
        "leave contention out",
    );
}

#[test]
fn web_pareto_shapes_need_a_finite_mean() {
    for k in ["tail_shape", "embedded_shape", "think_shape"] {
        for v in ["1.0", "0.5"] {
            let flows = format!(r#"[{{ from = "server", to = "m1", web = {{ {k} = {v} }} }}]"#);
            refused(
                "eln5",
                &[("flows", &flows)],
                &format!("flows[0].web.{k}: "),
                "must exceed 1 (the mean of a Pareto distribution is finite only then)",
            );
        }
    }
}

#[test]
fn an_unknown_key_names_the_closest_allowed_ones_not_all() {
    for (preset, key, close) in [
        ("lan", "tcp.msss", "`mss`"),
        ("eln5", "links.1.rat", "`rate`"),
        ("llelsn", "cells.0.dcf.retry_limt", "`retry_limit`"),
        ("lan", "run.duraton", "`duration`"),
    ] {
        let mut s = Scenario::preset(preset).unwrap();
        let e = s.set(key, "1").unwrap_err().to_string();
        assert!(e.contains("unknown field"), "{e}");
        assert!(e.contains(close), "{e}");
        assert!(!e.contains('\n') && e.len() < 300, "{key}: {} {e}", e.len());
    }
    let mut s = Scenario::preset("lan").unwrap();
    let e = s.set("tcp.msss", "1").unwrap_err().to_string();
    assert!(e.contains("keys in all: see docs/scenarios.md"), "{e}");
}

#[test]
fn a_config_file_is_checked_once_after_its_overrides() {
    // Invalid alone, repaired by an override: the file is parsed, edited, then validated once.
    let text =
        Scenario::preset_toml("lan")
            .unwrap()
            .replacen("[tcp]", "[tcp]\nmin_rto = \"0s\"", 1);
    let e = Scenario::from_toml_str(&text).unwrap_err().to_string();
    assert!(e.starts_with("tcp.min_rto: "), "{e}");
    let s = Scenario::from_toml_str_with(&text, [("tcp.min_rto", "1s")]).unwrap();
    assert!(s.to_toml_string().contains("min_rto = \"1s\""));
    // Still invalid after the overrides: the file's error.
    let e = Scenario::from_toml_str_with(&text, [("transfer", "1MiB")])
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("tcp.min_rto: "), "{e}");
    let json = Scenario::from_toml_str_with(&text, [("tcp.min_rto", "1s")])
        .unwrap()
        .to_json_string()
        .replace("\"1s\"", "\"0s\"");
    assert!(Scenario::from_json_str(&json).is_err());
    assert!(Scenario::from_json_str_with(&json, [("tcp.min_rto", "1s")]).is_ok());
}

/// A queue table's own error, with its field: an unmodelled kind in words, a
/// mistyped knob by name; not serde's "did not match any variant of untagged enum".
#[test]
fn a_queue_tables_errors_name_the_kind_or_the_knob() {
    for (value, start, says) in [
        (
            r#"{ kind = "pie" }"#,
            "hops[1].queue",
            "the PIE queue discipline is not modelled yet",
        ),
        (
            r#"{ kind = "red", minth = 5 }"#,
            "hops[1].queue: ",
            "unknown field `minth`",
        ),
        (r#"{ kind = "wfq" }"#, "hops[1].queue", "`fq_codel`"),
        ("-3", "hops[1].queue: ", "packet count"),
        ("true", "hops[1].queue: ", "packet count"),
    ] {
        let e = error_of("lan", &[("hops.1.queue", value)]);
        assert!(e.starts_with(start), "{value}: {e}");
        assert!(e.contains(says), "{value}: {e}");
        assert!(!e.contains("untagged"), "{e}");
    }
    // Both forms still read.
    let mut s = Scenario::preset("lan").unwrap();
    s.set("hops.1.queue", "7").unwrap();
    s.set("hops.1.queue", r#"{ kind = "codel", target = "2ms" }"#)
        .unwrap();
}

/// A UDP source offering its first link three orders of magnitude more packets than the link
/// sends (a unit slip: 1-byte datagrams at 100 Gb/s) is refused with the arithmetic; an
/// overload an experiment means (twice the line rate, against a queue) runs.
#[test]
fn a_udp_source_orders_of_magnitude_over_its_first_link_is_refused() {
    let udp = |rate: &str, size: &str| {
        format!(
            r#"{{ name = "f1", from = "s1", to = "d1", udp = {{ model = "cbr", rate = "{rate}", size = "{size}" }} }}"#
        )
    };
    let flows = |f: String| format!(r#"[{f}, {{ name = "f2", from = "s2", to = "d2" }}]"#);
    // access-s1 is 100 Mb/s (the preset's access links): 1-byte datagrams on Ethernet framing.
    let e = error_of("dumbbell", &[("flows", &flows(udp("100Gbps", "1B")))]);
    assert!(e.starts_with("flows[0].udp.rate: 100Gbps of 1-byte datagrams is 12500000000 packets/s, over 1000 x the "), "{e}");
    assert!(
        e.contains("packets/s its first link (100Mbps) sends"),
        "{e}"
    );
    assert!(!e.contains('\n') && e.len() < 300, "{e}");
    // Twice the line rate, and 999 times, are experiments.
    for (rate, size) in [("200Mbps", "1000B"), ("20Gbps", "1000B")] {
        let mut s = Scenario::preset("dumbbell").unwrap();
        s.set_all([("flows", flows(udp(rate, size)).as_str())])
            .unwrap();
    }
    // Pareto's ON rate counts the same way.
    let pareto = r#"{ name = "f1", from = "s1", to = "d1", udp = { model = "pareto", rate = "1000Gbps", on = "1s", off = "1s", shape = 1.5, size = "100B" } }"#;
    let e = error_of("dumbbell", &[("flows", &flows(pareto.to_string()))]);
    assert!(
        e.starts_with("flows[0].udp.rate: 1000Gbps of 100-byte datagrams"),
        "{e}"
    );
}
