#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Web sessions (SURGE, net::web) in networks: page response times, connection models, the
//! conservation of bytes and packets, determinism and the session's errors.

use crate::common;
use common::{accounted, num, scenario};
use lossylink::{run, RunOptions, Value};

/// The eln5 network with `per_mobile` web sessions per mobile (the TCP-ELN study's web
/// experiment, eln-llelsn spec §5.1), `connections` per page or per object.
fn web_eln5(per_mobile: usize, connections: &str, extra: &[(&str, &str)]) -> lossylink::Scenario {
    let mut flows = Vec::new();
    for m in 1..=3 {
        for k in 0..per_mobile {
            flows.push(format!(
                "{{ name = \"web-m{m}-{k}\", from = \"server\", to = \"m{m}\", web = {{ connections = \"{connections}\" }} }}"
            ));
        }
    }
    let list = format!("[{}]", flows.join(", "));
    let mut o: Vec<(&str, &str)> = vec![("flows", &list), ("run.duration", "120s")];
    o.extend_from_slice(extra);
    scenario("eln5", &o)
}

fn text(row: &[(&'static str, Value)], key: &str) -> String {
    match row.iter().find(|(k, _)| *k == key) {
        Some((_, Value::Str(s))) => s.clone(),
        other => panic!("{key}: {other:?}"),
    }
}

#[test]
fn fifteen_sessions_complete_pages_and_report_response_times() {
    let s = web_eln5(5, "per-page", &[]);
    let r = run(&s, 1, &RunOptions::default()).expect("run");
    let fr = r.flows.expect("per-flow results");
    assert_eq!(fr.flows.len(), 15);
    let mut pages = 0.0;
    for row in &fr.flows {
        let p = num(row, "pages");
        pages += p;
        if p > 0.0 {
            let (mean, median, p95) = (
                num(row, "response_mean_s"),
                num(row, "response_median_s"),
                num(row, "response_p95_s"),
            );
            // A page takes at least a request and a response over the 200 ms wired RTT.
            assert!(median >= 0.2 && p95 >= median && mean > 0.0, "{row:?}");
        }
        assert!(num(row, "objects") >= p);
        assert!(num(row, "connections") >= 2.0 * p);
        assert!(text(row, "from") == "server");
    }
    // Think times average 3 s and pages take seconds: well over a hundred pages in 110 s.
    assert!(pages > 100.0, "{pages} pages");
    assert_eq!(num(&fr.aggregate, "pages"), pages);
    assert!(num(&fr.aggregate, "response_mean_s") > 0.2);
    // Every packet accounted for.
    let a = &fr.aggregate;
    assert_eq!(num(a, "packets_created"), accounted(a));
}

#[test]
fn a_connection_per_object_costs_more_connections_and_longer_pages() {
    // Same session draws (the sizes and times come from each flow's own stream), different
    // connection model: HTTP/1.0 opens a connection pair per object and slow-starts each.
    let page = run(&web_eln5(1, "per-page", &[]), 3, &RunOptions::default()).unwrap();
    let object = run(&web_eln5(1, "per-object", &[]), 3, &RunOptions::default()).unwrap();
    let (pf, of) = (page.flows.unwrap(), object.flows.unwrap());
    let sum =
        |fr: &lossylink::FlowResults, k: &str| fr.flows.iter().map(|r| num(r, k)).sum::<f64>();
    assert!(sum(&of, "connections") > sum(&pf, "connections"));
    // Every per-object session's connections: two per object.
    for r in &of.flows {
        let (objs, conns) = (num(r, "objects"), num(r, "connections"));
        assert!(
            conns == 2.0 * objs || conns == 2.0 * objs + 2.0,
            "{objs} {conns}"
        );
    }
    assert!(num(&of.aggregate, "response_median_s") > num(&pf.aggregate, "response_median_s"));
}

#[test]
fn web_runs_are_deterministic() {
    let s = web_eln5(
        2,
        "per-object",
        &[(
            "links.1.forward.error",
            "{ model = \"exponential\", every = \"16KiB\" }",
        )],
    );
    let key = |seed| {
        let mut r = run(&s, seed, &RunOptions::default()).unwrap();
        r.metrics.wall_s = 0.0;
        format!("{r:?}")
    };
    assert_eq!(key(9), key(9));
    assert_ne!(key(9), key(10));
}

#[test]
fn web_session_errors_name_the_field() {
    let bad = |flows: &str, dur: Option<&str>| {
        let mut s = lossylink::Scenario::preset("eln5").unwrap();
        if let Some(d) = dur {
            s.set("run.duration", d).unwrap();
        }
        match s.set("flows", flows) {
            Err(e) => e.to_string(),
            Ok(()) => run(&s, 1, &RunOptions::default()).unwrap_err().to_string(),
        }
    };
    let e = bad(
        "[{ from = \"server\", to = \"m1\", bytes = \"1MB\", web = {} }]",
        None,
    );
    assert!(e.contains("flows[0].bytes"), "{e}");
    let e = bad(
        "[{ from = \"server\", to = \"m1\", web = { think_shape = -1.0 } }]",
        None,
    );
    assert!(e.contains("flows[0].web.think_shape"), "{e}");
    let e = bad(
        "[{ from = \"server\", to = \"m1\", web = { pause = \"0s\" } }]",
        None,
    );
    assert!(e.contains("flows[0].web.pause"), "{e}");
    let e = bad(
        "[{ from = \"server\", to = \"m1\", scheme = \"split\", web = {} }]",
        None,
    );
    assert!(e.contains("flows[0].scheme"), "{e}");
    let e = bad(
        "[{ from = \"server\", to = \"m1\", web = { connections = \"many\" } }]",
        None,
    );
    assert!(e.contains("connections") || e.contains("flows"), "{e}");
}

/// Two hosts on one 1 Mb/s, 10 ms link; one HTTP/1.0 session from 1 s.
const TWO_HOSTS: &str = r#"
name = "web-two-hosts"
scheme = "e2e"
[tcp]
profile = "modern"
mss = 1000
timestamps = false
[run]
duration = "30s"
[[nodes]]
name = "server"
kind = "host"
[[nodes]]
name = "client"
kind = "host"
[[links]]
name = "wire"
between = ["server", "client"]
role = "wired"
rate = "1Mbps"
delay = "10ms"
queue = 50
[[flows]]
name = "user"
from = "server"
to = "client"
start = "1s"
web = { connections = "per-object" }
"#;

#[test]
fn the_server_answers_when_the_whole_request_is_in_on_a_fresh_connection_per_object() {
    let s = lossylink::Scenario::from_toml_str(TWO_HOSTS).unwrap();
    let opts = RunOptions {
        pcap: true,
        ..RunOptions::default()
    };
    let r = run(&s, 5, &opts).unwrap();
    let cap = r.capture.expect("capture");
    let ms = |t: engine::SimTime| t.as_nanos() as f64 / 1e6;
    // The page is requested at 1 s: the request (320 B + 40 B of headers) leaves the client on
    // the link's reverse port at exactly 1000 ms and takes 360·8/1 Mb/s = 2.88 ms plus 10 ms.
    let first = &cap.frames[0];
    assert_eq!(first.port.0, 1);
    assert_eq!(ms(first.start), 1000.0);
    assert_eq!(first.pkt.seg.len, 320);
    // The server's first object segment leaves when the request's last byte is in: 1012.88 ms
    // (the server's ACK of the request is delayed, so the data segment is the first frame).
    let data: Vec<_> = cap
        .frames
        .iter()
        .filter(|f| f.port.0 == 0 && f.pkt.seg.len > 0)
        .collect();
    assert!(
        (ms(data[0].start) - 1012.88).abs() < 1e-6,
        "{}",
        ms(data[0].start)
    );
    // Request and response are different connections; every object gets its own pair.
    assert_ne!(data[0].pkt.flow, first.pkt.flow);
    let fr = r.flows.unwrap();
    let row = &fr.flows[0];
    let (objs, conns) = (num(row, "objects"), num(row, "connections"));
    // Two connections per object received, and two more for an object still on its way.
    assert!(
        objs >= 2.0 && (conns == 2.0 * objs || conns == 2.0 * objs + 2.0),
        "{objs} {conns}"
    );
    let response_flows: std::collections::BTreeSet<_> = data.iter().map(|f| f.pkt.flow).collect();
    assert!(response_flows.len() as f64 >= objs);
}
