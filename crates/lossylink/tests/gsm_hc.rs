#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! RFC 2507 header compression beside VJ on the GSM RLP link (`gsm.hc`; Ludwig2000 §2.2.3,
//! §2.5.5, spec §3.8): its decompressor repairs one lost delta with the twice algorithm, but a
//! reset that flushes two or more of a connection's packets leaves it out of step as VJ.

mod common;
use common::scenario;
use lossylink::{run, GsmMetrics, RunOptions, Scenario};
use std::io::Write;

fn burst_trace(name: &str, from: usize, to: usize) -> String {
    let path = std::env::temp_dir().join(format!(
        "lossylink-gsm-hc-{name}-{}.txt",
        std::process::id()
    ));
    let mut f = std::fs::File::create(&path).unwrap();
    for i in 0..180_000 {
        writeln!(f, "{}", u8::from((from..to).contains(&i))).unwrap();
    }
    path.to_string_lossy().into_owned()
}

fn reset_run(hc: &str, n2: u32, name: &str, to: usize) -> (GsmMetrics, u64) {
    let mut s = scenario(
        "gsm",
        &[(
            "hops.0.gsm",
            &format!("{{ n2 = {n2}, hc = \"{hc}\", l2r = {{ rate = 960 }} }}"),
        )],
    );
    s.set(
        "hops.0.forward.blocks",
        &format!("{{ file = \"{}\" }}", burst_trace(name, 3000, to)),
    )
    .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    (r.metrics.gsm.unwrap(), r.metrics.sender_timeouts)
}

/// S2 (RT20): S2's burst resets the link at 62.4 s and flushes two of the connection's packets
/// back to back: RFC 2507's twice algorithm cannot repair two lost deltas, so it discards the
/// rest of the flight as VJ does (16 segments) and the sender times out.
#[test]
fn rfc2507_fails_as_vj_when_a_reset_flushes_two_packets() {
    let (vj, vj_to) = reset_run("vj", 6, "vj", 3200);
    let (rfc, rfc_to) = reset_run("rfc2507", 6, "rfc", 3200);
    assert_eq!((vj.rlp_resets, vj.rlp_flushed_packets), (1, 2));
    assert_eq!(vj.vj_discards, 16);
    assert_eq!(rfc.vj_discards, vj.vj_discards);
    assert_eq!((vj_to, rfc_to), (1, 1));
}

#[test]
fn hc_is_checked() {
    let mut s = Scenario::preset("gsm").unwrap();
    let e = s
        .set("hops.0.gsm", "{ hc = \"rfc1144\" }")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("hops[0].gsm.hc: unknown header compression 'rfc1144'"),
        "{e}"
    );
    let e = s
        .set("hops.0.gsm", "{ hc = \"vj\", vj = true }")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("hops[0].gsm.hc: chooses the header compression"),
        "{e}"
    );
}
