#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The flow-adaptive link layer of Ludwig2000 §4.1 (spec §3.7, §7.1 item 9) on the GSM RLP
//! link (`gsm.adaptive`): a bulk TCP flow and a real-time UDP flow (160 bytes every 1.6 s)
//! share one RLP link when a 4 s burst of erased blocks hits at 60 s (S2's trace). As GSM
//! runs RLP (one persistency, N2 = 6, in order) the burst resets the link and flushes both
//! flows' packets; flow-adaptive, TCP's bytes persist through the burst (no reset) while the
//! datagrams hit by it are given up instead of delayed.

use crate::common;
use common::num;
use lossylink::{run, RunOptions, Scenario, Value};
use std::io::Write;

/// A block trace (one hour) erased where `erased(block)` says.
fn block_trace(name: &str, erased: impl Fn(usize) -> bool) -> String {
    let path = std::env::temp_dir().join(format!(
        "lossylink-gsm-adaptive-{name}-{}.txt",
        std::process::id()
    ));
    let mut f = std::fs::File::create(&path).unwrap();
    for i in 0..180_000 {
        writeln!(f, "{}", u8::from(erased(i))).unwrap();
    }
    path.to_string_lossy().into_owned()
}

/// S2's burst: 200 blocks (4 s) from 60 s.
fn burst() -> String {
    block_trace("burst", |i| (3000..3200).contains(&i))
}

/// One block in seven erased from 20 s to 120 s (a poor minute's erasure rate, isolated; the
/// period does not divide RLP's 20-block round trip, so retransmissions get through).
fn every_seventh() -> String {
    block_trace("seventh", |i| (1000..6000).contains(&i) && i % 7 == 3)
}

fn shared_link(gsm: &str, trace: &str) -> Scenario {
    Scenario::from_toml_str(&format!(
        r#"
name = "gsm-adaptive"
scheme = "e2e"

[run]
duration = "300s"

[tcp]
profile = "bsd"
mss = 460
buffer = "8KiB"
timestamps = true

[[nodes]]
name = "mobile"
kind = "host"

[[nodes]]
name = "fixed"
kind = "host"

[[links]]
name = "gsm"
between = ["mobile", "fixed"]
role = "wireless"
medium = "gsm-csd"
rate = "9600bps"
delay = "90ms"
queue = 50
gsm = {gsm}
forward = {{ blocks = {{ file = "{trace}" }} }}

[[flows]]
name = "bulk"
from = "mobile"
to = "fixed"
bytes = "230KB"

[[flows]]
name = "voice"
from = "mobile"
to = "fixed"
start = "1s"
stop = "250s"
udp = {{ model = "cbr", rate = "800bps", size = "160B" }}
"#
    ))
    .unwrap()
}

const PLAIN: &str = "{ n2 = 6, l2r = { rate = 960 } }";
const ADAPTIVE: &str = "{ adaptive = {}, l2r = { rate = 960 } }";

fn go(gsm: &str, trace: &str) -> (lossylink::GsmMetrics, Vec<Vec<(&'static str, Value)>>) {
    let r = run(&shared_link(gsm, trace), 1, &RunOptions::default()).unwrap();
    (r.metrics.gsm.unwrap(), r.flows.unwrap().flows)
}

#[test]
fn flow_adaptive_persists_through_a_burst_that_resets_gsm_rlp() {
    let trace = burst();
    let (gp, fp) = go(PLAIN, &trace);
    let (ga, fa) = go(ADAPTIVE, &trace);
    // GSM's RLP: a frame erased a seventh time at 62.4 s resets the link; the flushed TCP
    // segments cost a fast retransmit and a timeout.
    assert_eq!((gp.rlp_resets, gp.rlp_flushed_packets), (1, 2));
    assert_eq!(num(&fp[0], "sender_timeouts"), 1.0);
    // Flow-adaptive: TCP's bytes persist (up to 120 s): no reset, no TCP retransmission.
    assert_eq!((ga.rlp_resets, ga.rlp_flushed_packets), (0, 0));
    assert_eq!(num(&fa[0], "sender_retransmitted_segments"), 0.0);
    assert!(num(&fa[0], "delivered_bytes") > num(&fp[0], "delivered_bytes"));
}

#[test]
fn flow_adaptive_gives_up_real_time_datagrams_instead_of_delaying_them() {
    let trace = every_seventh();
    let (gp, fp) = go(PLAIN, &trace);
    let (ga, fa) = go(ADAPTIVE, &trace);
    let sent = num(&fp[1], "sender_segments");
    assert_eq!(num(&fa[1], "sender_segments"), sent);
    // GSM's RLP resends every erased frame: every datagram arrives (late).
    assert_eq!(num(&fp[1], "delivered_bytes"), 160.0 * sent);
    // Flow-adaptive: a datagram with a frame erased is given up (a retransmission 400 ms
    // later is past its 50 ms bound); the TCP flow loses nothing.
    let lost = sent - num(&fa[1], "delivered_bytes") / 160.0;
    assert!(lost >= 5.0, "{lost} of {sent}");
    assert!(ga.rlp_retransmissions < gp.rlp_retransmissions);
    assert_eq!(num(&fa[0], "sender_retransmitted_segments"), 0.0);
    assert_eq!((gp.rlp_resets, ga.rlp_resets), (0, 0));
}

#[test]
fn adaptive_and_n2_are_exclusive() {
    let mut s = Scenario::preset("gsm").unwrap();
    let e = s
        .set("hops.0.gsm", "{ n2 = 6, adaptive = {} }")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("hops[0].gsm.adaptive: sets the persistency"),
        "{e}"
    );
    s.set("hops.0.gsm", "{ adaptive = { realtime_bound = \"20ms\" } }")
        .unwrap();
}

/// The dissertation's case for the interactive class (§4.1.2): a bulk flow and an interactive
/// one (a 2 KB exchange from 60 s, marked `ds`) from the mobile over one RLP link.
fn bulk_and_interactive(gsm: &str, trace: &str, ds: &str, queue: u32) -> Scenario {
    Scenario::from_toml_str(&interactive_doc(gsm, trace, ds, queue)).unwrap()
}

fn interactive_doc(gsm: &str, trace: &str, ds: &str, queue: u32) -> String {
    format!(
        r#"
name = "gsm-interactive"
scheme = "e2e"

[tcp]
profile = "bsd"
mss = 460
buffer = "8KiB"
timestamps = true

[[nodes]]
name = "mobile"
kind = "host"

[[nodes]]
name = "fixed"
kind = "host"

[[links]]
name = "gsm"
between = ["mobile", "fixed"]
role = "wireless"
medium = "gsm-csd"
rate = "9600bps"
delay = "90ms"
queue = {queue}
gsm = {gsm}
forward = {{ blocks = {{ file = "{trace}" }} }}

[[flows]]
name = "bulk"
from = "mobile"
to = "fixed"
bytes = "230KB"

[[flows]]
name = "telnet"
from = "mobile"
to = "fixed"
start = "60s"
bytes = "2KB"
{ds}
"#
    )
}

/// With one block in seven erased from 20 s, the exchange's packets queue behind the bulk
/// flow's at the mobile's interface (one FIFO, 50 packets: about 40 s at 960 B/s), and then
/// meet RLP's retransmissions of bulk frames. Marked interactive (AF21, 18), its frames go
/// before those retransmissions and it leaves ahead of bulk packets still missing frames: the
/// exchange completes 140 ms earlier (101.79 s against 101.93 s unmarked, the same as with
/// GSM's RLP); the bulk transfer pays the same 0.4 s. The interface queue, not RLP, holds the
/// exchange for most of its 42 s, as §4.2.2 warns.
#[test]
fn an_interactive_flow_goes_before_bulk_retransmissions() {
    let trace = every_seventh();
    let go = |gsm: &str, ds: &str| {
        let r = run(
            &bulk_and_interactive(gsm, &trace, ds, 50),
            1,
            &RunOptions::default(),
        )
        .unwrap();
        let f = r.flows.unwrap().flows;
        (num(&f[1], "completion_s"), num(&f[0], "completion_s"))
    };
    let plain = go(PLAIN, "");
    let unmarked = go(ADAPTIVE, "");
    let marked = go(ADAPTIVE, "ds = 18");
    assert_eq!(plain, unmarked);
    assert!((unmarked.0 - 101.93).abs() < 1e-6, "{unmarked:?}");
    assert!((marked.0 - 101.79).abs() < 1e-6, "{marked:?}");
    assert!((marked.1 - unmarked.1 - 0.4).abs() < 1e-6, "{marked:?}");
}

#[test]
fn classes_and_marks_are_checked() {
    let trace = every_seventh();
    let bad = |gsm: &str, ds: &str| {
        Scenario::from_toml_str(&interactive_doc(gsm, &trace, ds, 50))
            .unwrap_err()
            .to_string()
    };
    let cases = [
        (ADAPTIVE, "ds = 64", "flows[1].ds: 64 is outside 0..=63"),
        (
            "{ adaptive = { classes = { bulk = { ds = [18] } } } }",
            "",
            "links[0].gsm.adaptive.classes.interactive.ds: 18 is already the codepoint of bulk",
        ),
        (
            "{ adaptive = { classes = { realtime = { ds = [99] } } } }",
            "",
            "links[0].gsm.adaptive.classes.realtime.ds: 99 is outside 0..=63",
        ),
        (
            "{ adaptive = { classes = { interactive = { persistency = \"100ms\" } } } }",
            "",
            "links[0].gsm.adaptive.classes.interactive.persistency: must be at least one RLP round trip",
        ),
        (
            "{ adaptive = { classes = { bulk = { order = true } } } }",
            "",
            "unknown field `order`",
        ),
    ];
    for (gsm, ds, want) in cases {
        let e = bad(gsm, ds);
        assert!(e.contains(want), "{e}\nwanted: {want}");
    }
    // A class's own persistency, order and priority are taken.
    Scenario::from_toml_str(&interactive_doc(
        "{ adaptive = { classes = { bulk = { persistency = \"3s\", in_order = true, priority = 2 }, interactive = { ds = [18, 26] } } } }",
        &trace,
        "ds = 26",
        50,
    ))
    .unwrap();
}
