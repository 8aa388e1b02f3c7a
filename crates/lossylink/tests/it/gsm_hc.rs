#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! RFC 2507 header compression beside VJ on the GSM RLP link (`gsm.hc`; Ludwig2000 §2.2.3,
//! §2.5.5, spec §3.8): its decompressor repairs one lost delta with the twice algorithm, but a
//! reset that flushes two or more of a connection's packets leaves it out of step as VJ.

use crate::common;
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
    let (g, to, _) = reset_run_with(&format!("hc = \"{hc}\""), n2, name, to);
    (g, to)
}

/// As `reset_run` with `extra` keys in `gsm`; also the completion time.
fn reset_run_with(extra: &str, n2: u32, name: &str, to: usize) -> (GsmMetrics, u64, f64) {
    reset_run_scheme("e2e", extra, n2, name, to)
}

/// As `reset_run_with` with the sender's `scheme`.
fn reset_run_scheme(
    scheme: &str,
    extra: &str,
    n2: u32,
    name: &str,
    to: usize,
) -> (GsmMetrics, u64, f64) {
    let mut s = scenario(
        "gsm",
        &[
            (
                "hops.0.gsm",
                &format!("{{ n2 = {n2}, {extra}, l2r = {{ rate = 960 }} }}"),
            ),
            ("scheme", scheme),
        ],
    );
    s.set(
        "hops.0.forward.blocks",
        &format!("{{ file = \"{}\" }}", burst_trace(name, 3000, to)),
    )
    .unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let m = r.metrics;
    (m.gsm.clone().unwrap(), m.sender_timeouts, m.completion_s)
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

/// S2 with RFC 2507's header request (`hc_header_request`): the first segment after the reset
/// fails, the decompressor asks for its context over the reverse link, and the next segment
/// the compressor takes in goes with a full header: only the segments in RLP's buffer during
/// that link round trip are discarded (2 instead of the flight's 16). TCP-Lite (Reno) still
/// times out, as it does without any compression: the two segments the reset flushed back to
/// back are more than one fast retransmit repairs. A NewReno sender repairs them from the
/// duplicate ACKs the intact segments now bring, and does not time out; without the request
/// it does (no segment after the reset reaches TCP).
#[test]
fn rfc2507_header_request_limits_s2_to_one_link_round_trip() {
    let plain = "hc = \"rfc2507\"";
    let request = "hc = \"rfc2507\", hc_header_request = true";
    let (rfc, rfc_to, rfc_done) = reset_run_with(plain, 6, "rfc-plain", 3200);
    let (req, req_to, req_done) = reset_run_with(request, 6, "rfc-req", 3200);
    let (_, none_to, _) = reset_run_with("vj = false", 6, "no-hc", 3200);
    assert_eq!((rfc.rlp_flushed_packets, req.rlp_flushed_packets), (2, 2));
    assert_eq!((rfc.vj_discards, req.vj_discards), (16, 2));
    assert_eq!((rfc_to, req_to, none_to), (1, 1, 1));
    // Go-back-N after the timeout resends segments the receiver already holds: later than the
    // run whose discarded segments kept the link busy (271.35 s against 264.65 s).
    assert!((rfc_done - 264.65).abs() < 1e-6 && (req_done - 271.35).abs() < 1e-6);
    let (n_rfc, n_rfc_to, n_rfc_done) = reset_run_scheme("e2e-newreno", plain, 6, "nr-plain", 3200);
    let (n_req, n_req_to, n_req_done) = reset_run_scheme("e2e-newreno", request, 6, "nr-req", 3200);
    assert_eq!((n_rfc.vj_discards, n_req.vj_discards), (16, 2));
    assert_eq!((n_rfc_to, n_req_to), (1, 0));
    // 7.8 s sooner: 256.83 s against 264.65 s.
    assert!((n_rfc_done - 264.65).abs() < 1e-6 && (n_req_done - 256.83).abs() < 1e-6);
}

#[test]
fn the_header_request_belongs_to_rfc2507() {
    let mut s = Scenario::preset("gsm").unwrap();
    let e = s
        .set("hops.0.gsm", "{ hc = \"vj\", hc_header_request = true }")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("hops[0].gsm.hc_header_request: belongs to RFC 2507 header compression"),
        "{e}"
    );
    s.set(
        "hops.0.gsm",
        "{ hc = \"rfc2507\", hc_header_request = false }",
    )
    .unwrap();
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
