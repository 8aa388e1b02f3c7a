#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The conservation property (DESIGN.md rule 11): over random tree topologies ×
//! every scheme family (end to end with today's and the loss-coping senders and ELN variants,
//! link layer with every agent, split, LL-ELSN with each of its senders, 802.11 DCF, GSM-CSD) × flows of every kind (bulk, long-lived with stops, UDP, web
//! sessions), random error models, hiccups, warm-ups and run lengths, queue disciplines
//! (drop-tail, RED, CoDel, FQ-CoDel, marking or dropping) on random link directions and cells,
//! ECN on every flow, some or none, and jitter on random nodes, each run must hold:
//!
//! - the packet account balances exactly (every created packet in one bucket);
//! - a queue discipline's drops by cause (overflow, RED, CoDel) are its direction's queue
//!   drops, the directions' queue drops are the account's queue-dropped bucket, and there are
//!   no CE marks without ECN (a marked packet goes on: it is not a drop);
//! - each flow's goodput is within the capacity of every link on its path, over its own window,
//!   up to what could be held past that link when the window opened (downstream queues, a frame
//!   on the air, data an agent, proxy, hiccup, link ARQ or RLP holds);
//! - the aggregate goodput is within the cut of the flows' last links, and within any link all
//!   TCP flows cross (a single bottleneck), over the common window;
//! - every link direction's utilisation and every DCF member's airtime share is in [0, 1];
//!   Jain's index is in [1/n, 1];
//! - no flow delivers more bytes than its sender sent.
//!
//! CI runs a fixed-seed sample (`LOSSYLINK_CONSERVATION_CASES`, 512 by default: 7.0 s in a
//! debug build on the 2-core machine, shared; 4.2-5.0 s with queue disciplines, ECN and
//! jitter, load about 8); raise it locally for a longer search. Recorded runs (2026-11-27,
//! debug build, the same shared machine, load 7-15): 5000 cases in 94 s and 20 000 cases in
//! 310 s, no violation. With queue disciplines, ECN and jitter (2026-11-28, debug build, load
//! about 8): 5000 cases in 58 s and 20 000 cases in 276 s, no violation; of the default 512,
//! 296 have a discipline, 93 drop by RED or CoDel, 35 mark CE, 213 have node jitter.
//! With every end-to-end scheme of the registry (29: BBR, the linux profile, DCR, Jersey, JTCP,
//! TIBET, ideal BWE, HACK, LHP, ESACK and the TCP-ELN senders among them) and two profile
//! combinations, the four LL-ELSN senders, and ns-2's TCP rules in half the cases (its timer,
//! the unbounded window, `singledup_`, `bugFix_`, `slowdown`, Sack1, its NewReno; any mix),
//! 2026-11-29, debug build, a CI run beside it: 5000 cases in 40 s and 20 000 in 157 s, no
//! violation (and 30 000 of the earlier mix in 197 s).
//! `LOSSYLINK_CONSERVATION_STATS=1` (with `--no-capture`) prints each case's family, scheme,
//! ns-2 rules, disciplines, ECN, jitter and buckets.

use lossylink::{run, RunOptions, RunResult, Scenario, Value};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use crate::common;
use common::{accounted, num};

#[path = "conservation_prop/topo.rs"]
mod topo;
use topo::{build, Genes, Kind, Topo, BUFFER, FRAME, MSS};

/// Bytes a flow's rows imply: `mbps` over `secs`.
fn bytes_of(mbps: f64, secs: f64) -> f64 {
    mbps * 1e6 / 8.0 * secs
}

/// `x ≤ bound` up to rounding of the rates' floating point.
fn within(x: f64, bound: f64) -> bool {
    x <= bound * (1.0 + 1e-9) + 1.0
}

/// The slack of a bound at link `k` of `path`: what may have been past it, yet not at the
/// receiver, when the window opened (each later queue and the frames being sent, the packets
/// a jittered node downstream was holding back, at most what its incoming link carries in
/// its jitter, plus the data a holder downstream keeps).
fn slack(t: &Topo, path: &[(usize, bool)], k: usize) -> f64 {
    let link = |n: usize| t.nodes[n].up.as_ref().expect("a link");
    let queued: u64 = path[k + 1..].iter().map(|&(n, _)| link(n).queue + 2).sum();
    let jittered: u64 = (k + 1..path.len())
        .map(|m| {
            let (n, down) = path[m];
            let sender = if down { link(n).parent } else { n };
            let held = link(path[m - 1].0).rate * u64::from(t.nodes[sender].jitter_us) / 8_000_000;
            if t.nodes[sender].jitter_us > 0 {
                held + FRAME
            } else {
                0
            }
        })
        .sum();
    let holds = path[k..].iter().any(|&(n, _)| link(n).holds);
    (FRAME * (2 + queued) + jittered + if holds { 3 * BUFFER } else { 0 }) as f64
}

fn check(t: &Topo, r: &RunResult) -> Result<(), String> {
    let fr = r.flows.as_ref().ok_or("no per-flow results")?;
    let a = &fr.aggregate;
    // The account balances exactly.
    let parts = accounted(a);
    if parts != num(a, "packets_created") {
        return Err(format!("account: {parts} in buckets, {a:?}"));
    }
    let end = num(a, "duration_s");
    let warmup = f64::from(t.warmup_ms) / 1e3;
    if fr.flows.len() != t.flows.len() {
        return Err(format!(
            "{} rows for {} flows",
            fr.flows.len(),
            t.flows.len()
        ));
    }
    let mut goodputs = Vec::new();
    let mut tcp_paths = Vec::new();
    for (row, &(src, dst, kind, start)) in fr.flows.iter().zip(&t.flows) {
        let g = num(row, "goodput_mbps");
        let delivered = num(row, "delivered_bytes");
        let segments = num(row, "sender_segments");
        let path = t.path(src, dst);
        let udp = matches!(kind, Kind::Udp(..));
        // Delivered bytes within what was sent.
        let sent = segments * if udp { 500.0 } else { MSS as f64 };
        if !within(delivered, sent) {
            return Err(format!("delivered {delivered} > sent {sent}: {row:?}"));
        }
        if let Kind::Finite(k) = kind {
            if delivered > f64::from(k) * 1024.0 {
                return Err(format!("delivered more than the transfer: {row:?}"));
            }
        }
        if !udp {
            tcp_paths.push(path.clone());
            if g.is_finite() {
                goodputs.push(g);
            }
        }
        if !g.is_finite() {
            continue;
        }
        // The flow's window.
        let from = warmup.max(f64::from(start) / 1e3);
        let stop = match kind {
            Kind::Long(Some(s)) | Kind::Udp(_, Some(s)) => f64::from(s) / 1e3,
            _ => f64::INFINITY,
        };
        let done = num(row, "completion_s");
        let to = end
            .min(stop)
            .min(if done.is_nan() { f64::INFINITY } else { done });
        let secs = to - from;
        let bytes = bytes_of(g, secs);
        for k in 0..path.len() {
            let cap = t.nodes[path[k].0].up.as_ref().unwrap().rate as f64 / 8.0 * secs;
            let bound = cap + slack(t, &path, k);
            if !within(bytes, bound) {
                return Err(format!(
                    "flow goodput {g} Mb/s over {secs} s = {bytes} B > {bound} B at link {k} of {path:?}: {row:?}"
                ));
            }
        }
    }
    // The flat metrics are the first bulk TCP flow's: its rate over its own span within every
    // link of its path, its goodput percentages at most 100.
    if let Some(&(src, dst, _, _)) = t
        .flows
        .iter()
        .find(|f| matches!(f.2, Kind::Finite(_) | Kind::Long(_)))
    {
        let m = &r.metrics;
        let secs = m.completion_s - m.first_send_s;
        let bytes = bytes_of(m.throughput_mbps, secs);
        let path = t.path(src, dst);
        for k in 0..path.len() {
            let cap = t.nodes[path[k].0].up.as_ref().unwrap().rate as f64 / 8.0 * secs;
            let bound = cap + slack(t, &path, k);
            if !within(bytes, bound) {
                return Err(format!(
                    "flat throughput {} Mb/s over {secs} s = {bytes} B > {bound} B at link {k}",
                    m.throughput_mbps
                ));
            }
        }
        for (name, pct) in [
            ("wired", m.wired_goodput_pct),
            ("wireless", m.wireless_goodput_pct),
        ] {
            if pct > 100.0 + 1e-6 {
                return Err(format!("{name}_goodput_pct {pct} > 100"));
            }
        }
    }
    // Jain's index within [1/n, 1].
    let jain = num(a, "jain_index");
    if !goodputs.is_empty() {
        let n = goodputs.len() as f64;
        if !(jain >= 1.0 / n - 1e-9 && jain <= 1.0 + 1e-9) {
            return Err(format!("jain {jain} with {n} flows"));
        }
    }
    // The aggregate: within the cut of the distinct last links, and within any link every TCP
    // flow crosses.
    let agg = num(a, "aggregate_goodput_mbps");
    if agg.is_finite() && !tcp_paths.is_empty() {
        let secs = end - warmup;
        let bytes = bytes_of(agg, secs);
        let mut last: Vec<usize> = tcp_paths
            .iter()
            .filter_map(|p| p.last().map(|l| l.0))
            .collect();
        last.sort_unstable();
        last.dedup();
        let cut: f64 = last
            .iter()
            .map(|&n| {
                let l = t.nodes[n].up.as_ref().unwrap();
                l.rate as f64 / 8.0 * secs
                    + (2 * FRAME + if l.holds { 3 * BUFFER } else { 0 }) as f64
            })
            .sum();
        if !within(bytes, cut) {
            return Err(format!("aggregate {agg} Mb/s = {bytes} B > cut {cut} B"));
        }
        for &(n, down) in &tcp_paths[0] {
            if !tcp_paths.iter().all(|p| p.contains(&(n, down))) {
                continue;
            }
            let cap = t.nodes[n].up.as_ref().unwrap().rate as f64 / 8.0 * secs;
            let slack: f64 = tcp_paths
                .iter()
                .map(|p| slack(t, p, p.iter().position(|&l| l == (n, down)).unwrap_or(0)))
                .sum();
            if !within(bytes, cap + slack) {
                return Err(format!(
                    "aggregate {agg} Mb/s = {bytes} B > {} B at the shared link of node {n}",
                    cap + slack
                ));
            }
        }
    }
    // Utilisation of every link direction, and each DCF member's airtime share, in [0, 1].
    // A queue discipline's drops are its direction's queue drops, by cause, and the directions'
    // queue drops are the account's; a mark is not a drop (the packet goes on).
    let mut queue_drops = 0.0;
    let mut marks = 0.0;
    for l in &fr.links {
        let u = num(l, "utilisation");
        if !(0.0..=1.0).contains(&u) {
            return Err(format!("utilisation {u}: {l:?}"));
        }
        queue_drops += num(l, "queue_drops");
        if l.iter().any(|(k, _)| *k == "overflow_drops") {
            let causes: f64 = ["overflow_drops", "early_drops", "codel_drops"]
                .iter()
                .map(|k| num(l, k))
                .sum();
            if causes != num(l, "queue_drops") {
                return Err(format!("drops by cause {causes} != queue drops: {l:?}"));
            }
            marks += num(l, "early_marks") + num(l, "codel_marks");
        }
    }
    if queue_drops != num(a, "packets_queue_dropped") {
        return Err(format!(
            "links' queue drops {queue_drops} != the account's: {a:?}"
        ));
    }
    if marks > 0.0 && !t.text.contains("ecn = true") {
        return Err(format!("{marks} CE marks without ECN"));
    }
    for m in &fr.members {
        let u = num(m, "airtime_share");
        if !(0.0..=1.0).contains(&u) {
            return Err(format!("airtime share {u}: {m:?}"));
        }
        // The access point's airtime towards a station (NaN for a `dcf` hop's ends).
        let a = num(m, "ap_airtime_share");
        if !a.is_nan() && !(0.0..=1.0).contains(&a) {
            return Err(format!("access point's airtime share {a}: {m:?}"));
        }
    }
    Ok(())
}

fn genes() -> impl Strategy<Value = Genes> {
    let shape = (
        0usize..6,
        0usize..64,
        proptest::collection::vec(0usize..100, 0..3),
        proptest::collection::vec((0usize..10, 0usize..4, 3u32..40), 1..4),
        (0usize..10, 0usize..4, 3u32..40),
        proptest::collection::vec((0usize..3, 3u32..40), 1..4),
    );
    let rest = (
        (0usize..6, 0u32..1000),
        (0usize..5, 0u32..2500, 0u32..400),
        proptest::collection::vec(
            (
                0usize..6,
                0usize..12,
                0usize..12,
                0u32..400,
                0u32..2500,
                0u32..3000,
                0usize..64,
            ),
            1..6,
        ),
        0u32..3000,
        500u32..5000,
        0u32..1024,
    );
    // Queue disciplines on no link direction, about a quarter or about half of them; ECN on
    // every flow, some or none; jitter on about a quarter of the nodes in half the cases.
    let queues = (
        prop_oneof![
            Just(0u32),
            any::<u32>().prop_map(|m| m & (m >> 1)),
            any::<u32>()
        ],
        any::<u32>(),
        any::<u32>(),
    );
    let more = (
        queues,
        (0usize..3, any::<u32>()),
        (
            prop_oneof![Just(0u32), any::<u32>().prop_map(|m| m & (m >> 3))],
            0u32..5000,
        ),
        // ns-2's rules in half the cases, any mix of them.
        prop_oneof![Just(0u32), any::<u32>()],
    );
    (shape, rest, more).prop_map(
        |(
            (family, scheme, routers, fixed, bs, mobiles),
            (error, hiccup, flows, warmup_ms, length_ms, extra),
            (aqm, ecn, jitter, ns2),
        )| Genes {
            family,
            scheme,
            routers,
            fixed,
            bs,
            mobiles,
            error,
            hiccup,
            flows,
            warmup_ms,
            length_ms,
            extra,
            aqm,
            ecn,
            jitter,
            ns2,
        },
    )
}

fn cases() -> u32 {
    std::env::var("LOSSYLINK_CONSERVATION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

proptest! {
    #![proptest_config(Config {
        cases: cases(),
        // Derandomised: CI runs the same sample every time.
        rng_seed: RngSeed::Fixed(35),
        failure_persistence: None,
        ..Config::default()
    })]
    #[test]
    fn every_run_conserves_packets_bytes_and_capacity(g in genes(), seed in 1u64..1_000_000) {
        let t = build(&g);
        let s = Scenario::from_toml_str(&t.text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", t.text)));
        let r = s.and_then(|s| {
            run(&s, seed, &RunOptions::default())
                .map_err(|e| TestCaseError::fail(format!("{e}\n{}", t.text)))
        });
        t.remove_files();
        let r = r?;
        if std::env::var_os("LOSSYLINK_CONSERVATION_STATS").is_some() {
            let fr = r.flows.as_ref().unwrap();
            let sum = |keys: &[&str]| -> f64 {
                fr.links
                    .iter()
                    .flat_map(|l| l.iter().filter(|(k, _)| keys.contains(k)).map(|(k, _)| num(l, k)))
                    .sum()
            };
            eprintln!(
                "STATS family {} scheme {} ns2 {} aqm {} ecn {} jitter {} aqm_drops {} marks {} flows {} created {} agg {:.3} queue {} corrupted {} absorbed {} proxy {} mac {} expired {} link {} discarded {}",
                g.family % 6,
                t.text.lines().find_map(|l| l.strip_prefix("scheme = ")).unwrap_or("?"),
                g.ns2 & 0x7f,
                t.text.matches("queue = { kind").count(),
                t.text.matches("ecn = true").count(),
                t.text.matches("jitter = ").count(),
                sum(&["early_drops", "codel_drops"]),
                sum(&["early_marks", "codel_marks"]),
                fr.flows.len(),
                num(&fr.aggregate, "packets_created"),
                num(&fr.aggregate, "aggregate_goodput_mbps"),
                num(&fr.aggregate, "packets_queue_dropped"),
                num(&fr.aggregate, "packets_corrupted"),
                num(&fr.aggregate, "packets_agent_absorbed"),
                num(&fr.aggregate, "packets_proxy_absorbed"),
                num(&fr.aggregate, "packets_mac_dropped"),
                num(&fr.aggregate, "packets_hold_expired"),
                num(&fr.aggregate, "packets_link_absorbed"),
                num(&fr.aggregate, "packets_decompressor_discarded"),
            );
        }
        if let Err(e) = check(&t, &r) {
            return Err(TestCaseError::fail(format!("{e}\nseed {seed}\n{}", t.text)));
        }
    }
}

/// The checks themselves catch what the issue reported: an unbalanced account, a rate above
/// the link, utilisation above 1.
#[test]
fn the_checks_reject_what_the_issue_reported() {
    let g = Genes {
        family: 0,
        scheme: 0,
        routers: vec![],
        fixed: vec![(0, 0, 10)],
        bs: (0, 2, 10),
        mobiles: vec![(0, 10)],
        error: (0, 0),
        hiccup: (0, 0, 0),
        flows: vec![(1, 1, 0, 0, 0, 0, 0)],
        warmup_ms: 0,
        length_ms: 1000,
        extra: 0,
        aqm: (0, 0, 0),
        ecn: (0, 0),
        jitter: (0, 0),
        ns2: 0,
    };
    let t = build(&g);
    let s = Scenario::from_toml_str(&t.text).unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    check(&t, &r).unwrap();
    let tamper = |key: &str, f: &dyn Fn(f64) -> f64, r: &RunResult| {
        let mut r = r.clone();
        let fr = r.flows.as_mut().unwrap();
        for row in fr
            .flows
            .iter_mut()
            .chain(fr.links.iter_mut())
            .chain([&mut fr.aggregate])
        {
            for (k, v) in row.iter_mut() {
                if *k == key {
                    let x = match v {
                        Value::Float(x) => *x,
                        Value::Int(i) => *i as f64,
                        _ => continue,
                    };
                    *v = match v {
                        Value::Int(_) => Value::Int(f(x) as i64),
                        _ => Value::Float(f(x)),
                    };
                }
            }
        }
        r
    };
    assert!(check(&t, &tamper("packets_in_flight", &|x| x + 1.0, &r)).is_err());
    assert!(check(&t, &tamper("goodput_mbps", &|x| x * 2.0 + 1.0, &r)).is_err());
    assert!(check(
        &t,
        &tamper("aggregate_goodput_mbps", &|x| x * 2.0 + 1.0, &r)
    )
    .is_err());
    assert!(check(&t, &tamper("utilisation", &|x| x + 1.0, &r)).is_err());
    // A queue drop the account does not have.
    assert!(check(&t, &tamper("queue_drops", &|x| x + 1.0, &r)).is_err());
    // With FQ-CoDel on every direction: an AQM drop that is not a queue drop.
    let t = build(&Genes {
        aqm: (u32::MAX, u32::MAX, 0),
        ..g
    });
    assert!(t.text.contains("kind = \"fq_codel\""), "{}", t.text);
    let s = Scenario::from_toml_str(&t.text).unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    check(&t, &r).unwrap();
    assert!(check(&t, &tamper("codel_drops", &|x| x + 1.0, &r)).is_err());
}
