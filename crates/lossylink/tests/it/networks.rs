#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Many nodes and many flows (issue: networks): the shipped topology presets run, flows share a
//! bottleneck fairly, results are deterministic, a flow on a disjoint path leaves another flow's
//! results unchanged, and bad topologies are one-line errors naming the field.

use lossylink::{run, RunOptions, RunResult, Scenario, Value};

use crate::common;
use common::{accounted, num};

fn go(s: &Scenario, seed: u64) -> RunResult {
    run(s, seed, &RunOptions::default()).expect("the run completes")
}

#[test]
fn topology_presets_run_and_report_per_flow_results() {
    for name in ["dumbbell", "wlan", "eln5"] {
        let mut s = Scenario::preset(name).unwrap();
        s.set("run.duration", "20s").unwrap();
        s.set("run.warmup", "5s").unwrap();
        let r = go(&s, 1);
        let fr = r.flows.as_ref().expect("per-flow results");
        assert!(fr.flows.len() >= 3, "{name}");
        for f in &fr.flows {
            assert!(num(f, "goodput_mbps") > 0.0, "{name}: {f:?}");
        }
        let agg = num(&fr.aggregate, "aggregate_goodput_mbps");
        let sum: f64 = fr.flows.iter().map(|f| num(f, "goodput_mbps")).sum();
        assert!((agg - sum).abs() < 1e-9);
        assert!(!fr.links.is_empty(), "{name}");
        for l in &fr.links {
            let u = num(l, "utilisation");
            assert!((0.0..=1.0).contains(&u), "{name}: {l:?}");
        }
    }
}

/// Four identical long-lived flows on a loss-free dumbbell share the bottleneck: Jain's index at
/// least 0.95, and together they fill at least 90 % of its 10 Mb/s. With a 20-packet bottleneck
/// queue. The preset's 50 packets show the drop-tail phase effect of a deterministic simulation
/// (Floyd and Jacobson 1992: with identical RTTs and packet sizes one flow's packets keep
/// arriving just after a departure and are never dropped): Jain 0.86 over 50 s, 0.94 over 190 s
/// (docs/scenarios.md, "Many flows"), without the hosts' phase jitter the preset now has
/// (tests/it/paths.rs checks the preset as shipped).
#[test]
fn identical_flows_share_a_loss_free_dumbbell_fairly() {
    let mut s = Scenario::preset("dumbbell").unwrap();
    s.set("links.0.queue", "20").unwrap();
    let r = go(&s, 1);
    let fr = r.flows.unwrap();
    let j = num(&fr.aggregate, "jain_index");
    let total = num(&fr.aggregate, "aggregate_goodput_mbps");
    let g: Vec<f64> = fr.flows.iter().map(|f| num(f, "goodput_mbps")).collect();
    let t: Vec<f64> = fr.flows.iter().map(|f| num(f, "sender_timeouts")).collect();
    let fr_: Vec<f64> = fr
        .flows
        .iter()
        .map(|f| num(f, "sender_fast_retransmits"))
        .collect();
    assert!(
        j >= 0.95,
        "Jain {j}: {g:?} timeouts {t:?} fr {fr_:?} links {:?}",
        fr.links[0]
    );
    assert!(total > 9.0 && total <= 10.0, "aggregate {total}");
}

#[test]
fn multi_flow_runs_are_deterministic() {
    let s = Scenario::preset("wlan").unwrap();
    let a = go(&s, 7);
    let b = go(&s, 7);
    // Debug text, so that the NaN completion time of a long-lived flow compares equal.
    assert_eq!(format!("{:?}", a.flows), format!("{:?}", b.flows));
    assert_eq!(a.metrics.events, b.metrics.events);
    // The same cell under an 802.11 DCF (per-member backoff streams, collisions, retries): the
    // members' counters too, and another seed draws other backoffs.
    let mut d = Scenario::preset("wlan").unwrap();
    d.set(
        "cells.0",
        "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"11Mbps\", framing = 36, per_frame = \"192us\", dcf = { retry_limit = 7 } }",
    )
    .unwrap();
    d.set("cells.0.error", "{ model = \"bernoulli\", p = 0.02 }")
        .unwrap();
    let (a, b, c) = (go(&d, 7), go(&d, 7), go(&d, 8));
    assert_eq!(format!("{:?}", a.flows), format!("{:?}", b.flows));
    let members = |r: &lossylink::RunResult| format!("{:?}", r.flows.as_ref().unwrap().members);
    assert_eq!(members(&a), members(&b));
    assert_ne!(members(&a), members(&c));
}

/// Removing a flow whose path shares no link with flow f1 leaves f1 packet-for-packet the same.
#[test]
fn a_flow_on_a_disjoint_path_does_not_change_another() {
    let toml = |with_second: bool| {
        let second = if with_second {
            "[[flows]]\nname = \"f2\"\nfrom = \"c\"\nto = \"d\"\nbytes = \"2MiB\"\n"
        } else {
            ""
        };
        format!(
            r#"
name = "two"
scheme = "e2e"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[nodes]]
name = "c"
kind = "host"
[[nodes]]
name = "d"
kind = "host"
[[links]]
name = "ab"
between = ["a", "b"]
role = "wireless"
rate = "2Mbps"
delay = "5ms"
error = {{ model = "exponential", every = "64KiB" }}
[[links]]
name = "cd"
between = ["c", "d"]
role = "wireless"
rate = "2Mbps"
delay = "5ms"
error = {{ model = "exponential", every = "64KiB" }}
[[flows]]
name = "f1"
from = "a"
to = "b"
bytes = "2MiB"
{second}"#
        )
    };
    let one = go(&Scenario::from_toml_str(&toml(false)).unwrap(), 3);
    let two = go(&Scenario::from_toml_str(&toml(true)).unwrap(), 3);
    let f1 = |r: &RunResult| r.flows.as_ref().unwrap().flows[0].clone();
    assert_eq!(f1(&one), f1(&two));
}

#[test]
fn bad_topologies_are_one_line_errors_naming_the_field() {
    let base = Scenario::preset("dumbbell").unwrap();
    let cases: &[(&str, &str, &str)] = &[
        ("flows.0.to", "\"nowhere\"", "flows[0].to"),
        ("links.0.between", "[\"r1\", \"r1\"]", "links[0].between"),
        ("flows.0.to", "\"r2\"", "flows[0].to"),
        (
            "routes",
            "[{ at = \"r1\", to = \"d1\", via = \"s1\" }]",
            "loop",
        ),
        (
            "routes",
            "[{ at = \"r1\", to = \"d1\", via = \"d2\" }]",
            "routes[0].via",
        ),
        (
            "cells",
            "[{ name = \"c\", stations = [\"d1\"], rate = \"11Mbps\" }]",
            "access_point",
        ),
    ];
    for (path, value, field) in cases {
        let mut s = base.clone();
        let e = s.set(path, value).unwrap_err().to_string();
        assert!(e.contains(field), "{path} = {value}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

mod conservation {
    //! Conservation over random topologies and flow mixes (bulk, UDP background, web sessions;
    //! property test): every finite flow delivers exactly its bytes, in order, and every packet the network created is delivered,
    //! dropped by a queue, corrupted on a link, or still in flight at the end.

    use super::*;
    use proptest::prelude::*;

    /// A random connected topology: a random tree over `n` nodes plus `extra` chords, hosts at
    /// the leaves and routers inside; Bernoulli loss, small queues.
    fn doc(
        n: usize,
        parents: &[usize],
        extra: &[(usize, usize)],
        p: &[u32],
        q: &[u32],
        flows: &[(usize, usize, u32, u8)],
        cell: (usize, u32, u32),
    ) -> String {
        let mut t =
            String::from("name = \"random\"\nscheme = \"e2e\"\n[run]\ntime_limit = \"3000s\"\nduration = \"3000s\"\n");
        for i in 0..n {
            t += &format!("[[nodes]]\nname = \"n{i}\"\nkind = \"host\"\n");
        }
        let mut links: Vec<(usize, usize)> = (1..n).map(|i| (parents[i - 1] % i, i)).collect();
        for &(a, b) in extra {
            let (a, b) = (a % n, b % n);
            if a != b && !links.contains(&(a, b)) && !links.contains(&(b, a)) {
                links.push((a, b));
            }
        }
        for (k, (a, b)) in links.iter().enumerate() {
            let loss = f64::from(p[k % p.len()]) / 1000.0;
            t += &format!(
                "[[links]]\nname = \"l{k}\"\nbetween = [\"n{a}\", \"n{b}\"]\nrole = \"wireless\"\nrate = \"{}Mbps\"\ndelay = \"{}ms\"\nqueue = {}\nerror = {{ model = \"bernoulli\", p = {loss} }}\n",
                1 + k % 4,
                1 + k % 7,
                q[k % q.len()]
            );
        }
        // An 802.11 DCF cell on node 0 with `stations` stations, a retry limit and frame loss:
        // a TCP download to its first station and UDP from the last (MAC drops after the retry
        // limit are accounted for too).
        let (stations, retry, loss) = cell;
        if stations > 0 {
            for i in 0..stations {
                t += &format!("[[nodes]]\nname = \"c{i}\"\nkind = \"host\"\n");
            }
            let list: Vec<String> = (0..stations).map(|i| format!("\"c{i}\"")).collect();
            t += &format!(
                "[[cells]]\nname = \"cell\"\naccess_point = \"n0\"\nstations = [{}]\nrate = \"11Mbps\"\ndelay = \"1us\"\nqueue = 20\nframing = 36\nper_frame = \"192us\"\nerror = {{ model = \"bernoulli\", p = {} }}\ndcf = {{ retry_limit = {retry} }}\n",
                list.join(", "),
                f64::from(loss) / 1000.0
            );
            t += &format!(
                "[[flows]]\nname = \"cd\"\nfrom = \"n{}\"\nto = \"c0\"\nbytes = \"20KiB\"\n",
                n - 1
            );
            t += &format!(
                "[[flows]]\nname = \"cu\"\nfrom = \"c{}\"\nto = \"n0\"\nstop = \"10s\"\nudp = {{ model = \"cbr\", rate = \"2Mbps\", size = \"500B\" }}\n",
                stations - 1
            );
        }
        let schemes = ["e2e", "e2e-newreno", "e2e-ietf-sack", "e2e+modern"];
        for (f, &(a, b, kib, s)) in flows.iter().enumerate() {
            let (a, b) = (a % n, b % n);
            let b = if a == b { (b + 1) % n } else { b };
            t += &format!(
                "[[flows]]\nname = \"f{f}\"\nfrom = \"n{a}\"\nto = \"n{b}\"\nbytes = \"{kib}KiB\"\nstart = \"{}ms\"\nscheme = \"{}\"\n",
                f * 37,
                schemes[usize::from(s) % schemes.len()]
            );
            // Every other flow also gets a UDP companion on the reverse path (background).
            if s % 2 == 1 {
                t += &format!(
                    "[[flows]]\nname = \"u{f}\"\nfrom = \"n{b}\"\nto = \"n{a}\"\nstop = \"20s\"\nudp = {{ model = \"pareto\", rate = \"500kbps\", on = \"200ms\", off = \"300ms\", shape = 1.5, size = \"{}B\" }}\n",
                    100 + kib
                );
            }
            // And every fourth a web session the same way round (stops asking for pages at 20 s).
            if s == 2 {
                t += &format!(
                    "[[flows]]\nname = \"w{f}\"\nfrom = \"n{a}\"\nto = \"n{b}\"\nstop = \"20s\"\nweb = {{ connections = \"{}\" }}\n",
                    if kib % 2 == 0 { "per-page" } else { "per-object" }
                );
            }
        }
        t
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        #[test]
        fn every_byte_and_every_packet_is_accounted_for(
            n in 2usize..7,
            parents in proptest::collection::vec(0usize..100, 6),
            extra in proptest::collection::vec((0usize..7, 0usize..7), 0..3),
            p in proptest::collection::vec(0u32..40, 1..4),
            q in proptest::collection::vec(3u32..30, 1..4),
            flows in proptest::collection::vec((0usize..7, 0usize..7, 4u32..200, 0u8..4), 1..5),
            seed in 1u64..1000,
            cell in (0usize..3, 1u32..8, 0u32..100),
        ) {
            let text = doc(n, &parents, &extra, &p, &q, &flows, cell);
            let s = Scenario::from_toml_str(&text).expect("a valid random scenario");
            let r = run(&s, seed, &RunOptions::default()).expect("every flow completes");
            let fr = r.flows.expect("per-flow results");
            for f in fr.flows.iter().filter(|f| num(f, "bytes") > 0.0) {
                // Each finite flow delivered exactly its bytes (the receiver delivers in order
                // and never twice: `delivered` counts the in-order prefix).
                prop_assert_eq!(num(f, "delivered_bytes"), num(f, "bytes"), "{:?}", f);
            }
            let a = &fr.aggregate;
            let parts = accounted(a);
            prop_assert_eq!(parts, num(a, "packets_created"), "{:?}", a);
        }
    }
}

/// Background traffic: a Pareto ON/OFF UDP source with a mean of 8 Mb/s (the LL-ELSN study's
/// background, eln-llelsn spec §5.4.3) on the dumbbell's 10 Mb/s bottleneck takes its share
/// without backing off; the four TCP flows get what is left, and every packet is accounted for.
#[test]
fn pareto_background_loads_the_bottleneck() {
    let mut s = Scenario::preset("dumbbell").unwrap();
    s.set("run.duration", "40s").unwrap();
    let quiet = go(&s, 1).flows.unwrap();
    s.set(
        "flows",
        r#"[{ name = "f1", from = "s1", to = "d1" }, { name = "f2", from = "s2", to = "d2" },
            { name = "bg", from = "s3", to = "d3",
              udp = { model = "pareto", rate = "10Mbps", on = "400ms", off = "100ms", shape = 2.0, size = "1000B" } }]"#,
    )
    .unwrap();
    let loaded = go(&s, 1).flows.unwrap();
    let bg = &loaded.flows[2];
    assert_eq!(bg[1].1, Value::Str("udp-pareto".into()));
    let bg_mbps = num(bg, "goodput_mbps");
    assert!((5.0..=8.5).contains(&bg_mbps), "background {bg_mbps}");
    let tcp = num(&loaded.aggregate, "aggregate_goodput_mbps");
    assert!(
        tcp < 0.5 * num(&quiet.aggregate, "aggregate_goodput_mbps"),
        "TCP {tcp}"
    );
    let a = &loaded.aggregate;
    let parts = accounted(a);
    assert_eq!(parts, num(a, "packets_created"));
}

/// A CBR source with explicit times: 1000-byte datagrams at 1 Mb/s leave every 8 ms from 0.5 s,
/// cross one 10 Mb/s, 5 ms link (0.8224 ms for 1028 bytes of IP), and are counted at the sink.
#[test]
fn cbr_datagrams_leave_on_schedule() {
    let s = Scenario::from_toml_str(
        r#"
name = "cbr"
[run]
duration = "1s"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[links]]
name = "ab"
between = ["a", "b"]
role = "wired"
rate = "10Mbps"
delay = "5ms"
[[flows]]
name = "tcp"
from = "a"
to = "b"
bytes = "1KiB"
[[flows]]
name = "cbr"
from = "a"
to = "b"
start = "500ms"
udp = { model = "cbr", rate = "1Mbps", size = "1000B" }
"#,
    )
    .unwrap();
    let r = go(&s, 1);
    let cbr = &r.flows.unwrap().flows[1];
    // Departures at 0.5 + 0.008 k s for k = 0..62 (< 1 s): 63 sent; those that arrive by 1 s
    // (departure + 0.8224 ms + 5 ms <= 1 s): k <= 61, 62 delivered.
    assert_eq!(num(cbr, "sender_segments"), 63.0);
    assert_eq!(num(cbr, "delivered_bytes"), 62_000.0);
}

/// A traced multi-flow run has one sender table and one events table with a `flow` column
/// naming each row's flow; every TCP flow appears.
#[test]
fn multi_flow_traces_carry_a_flow_column() {
    let mut s = Scenario::preset("eln5").unwrap();
    s.set("run.warmup", "1s").unwrap();
    s.set("run.duration", "5s").unwrap();
    let r = run(&s, 1, &RunOptions::traced()).unwrap();
    let trace = r.trace.unwrap();
    for name in ["sender", "events"] {
        let t = trace.tables.iter().find(|t| t.name == name).unwrap();
        assert_eq!(t.columns[0].0, "flow");
        let lossylink::Column::Str(flows) = &t.columns[0].1 else {
            panic!("flow column")
        };
        for f in ["ftp-m1", "ftp-m2", "ftp-m3"] {
            assert!(flows.iter().any(|x| x == f), "{name}: {f}");
        }
        let rows = flows.len();
        for (col, c) in &t.columns {
            let n = match c {
                lossylink::Column::F64(v) => v.len(),
                lossylink::Column::I64(v) => v.len(),
                lossylink::Column::Str(v) => v.len(),
            };
            assert_eq!(n, rows, "{name}.{col}");
        }
    }
}

/// A `[[flows]]` entry with `copies` stands for that many flows (`{i}` numbered from 1), so a
/// sweep can vary the number of flows: `--grid flows.0.copies=1,2,4`.
#[test]
fn a_flow_template_makes_numbered_copies_with_staggered_starts() {
    let s = common::scenario(
        "dumbbell",
        &[
            ("run.warmup", "1s"),
            ("run.duration", "5s"),
            (
                "flows",
                "[{ name = \"f{i}\", from = \"s{i}\", to = \"d{i}\", copies = 3, stagger = \"100ms\" }, { name = \"bulk\", from = \"s4\", to = \"d4\", bytes = \"100KiB\", copies = 2 }]",
            ),
        ],
    );
    let fr = run(&s, 1, &RunOptions::default()).unwrap().flows.unwrap();
    let names: Vec<String> = fr
        .flows
        .iter()
        .map(|r| match &r[0].1 {
            Value::Str(s) => s.clone(),
            v => panic!("{v:?}"),
        })
        .collect();
    assert_eq!(names, ["f1", "f2", "f3", "bulk-1", "bulk-2"]);
    let starts: Vec<f64> = fr.flows.iter().map(|r| num(r, "start_s")).collect();
    assert_eq!(starts, [0.0, 0.1, 0.2, 0.0, 0.0]);
    // Copies are flows like any other: each its own streams (different ISNs, same path here).
    assert!(fr.flows[..3].iter().all(|r| num(r, "goodput_mbps") > 0.5));
    // Bad templates name the field.
    for (flows, field) in [
        (
            "[{ from = \"s1\", to = \"d1\", copies = 0 }]",
            "flows[0].copies",
        ),
        (
            "[{ from = \"s1\", to = \"d1\", stagger = \"1s\" }]",
            "flows[0].stagger",
        ),
        (
            "[{ name = \"x\", from = \"s{i}\", to = \"d1\", copies = 5 }]",
            "flows[0].from",
        ),
    ] {
        let mut base = Scenario::preset("dumbbell").unwrap();
        let e = match base.set("flows", flows) {
            Err(e) => e.to_string(),
            Ok(()) => run(&base, 1, &RunOptions::default())
                .unwrap_err()
                .to_string(),
        };
        assert!(e.contains(field), "{flows}: {e}");
    }
}

/// Wrong values inside two-shape fields name the leaf and what is allowed.
#[test]
fn two_shape_fields_report_the_leaf() {
    for (path, value, want) in [
        (
            "hops.1.per_frame.sifs",
            "\"-1us\"",
            "hops[1].per_frame.sifs",
        ),
        ("hops.1.per_frame", "7", "a duration such as"),
        ("ll.arq.retries", "\"often\"", "ll.arq.retries"),
    ] {
        let mut s = Scenario::preset("lan").unwrap();
        let e = s.set(path, value).unwrap_err().to_string();
        assert!(e.contains(want), "{path} = {value}: {e}");
        assert!(!e.contains("untagged") && !e.contains("Doc"), "{e}");
    }
}

/// A table replaced by a list (or a list by a scalar) is an error, not a table of defaults; a
/// two-shape field still takes either shape.
#[test]
fn a_value_of_the_wrong_shape_for_a_table_is_an_error() {
    let mut s = Scenario::preset("lan").unwrap();
    let e = s.set("tcp", "[]").unwrap_err().to_string();
    assert!(e.starts_with("tcp: must be a table"), "{e}");
    let e = s.set("hops", "7").unwrap_err().to_string();
    assert!(e.starts_with("hops: must be a list"), "{e}");
    s.set("hops.1.per_frame", "\"900us\"").unwrap();
    s.set("hops.1.per_frame", "{ preamble = \"192us\" }")
        .unwrap();
}
