#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Net/3 rounds both socket buffers up to a multiple of the segment size (`tcp_mss()`:
//! `bufsize = roundup(bufsize, mss)`): on the bsd profile an 8 KiB buffer of
//! 1400-byte segments is 8400 bytes, six full segments in flight instead of five.

use crate::common;
use crate::sender_trace;
use common::scenario;
use sender_trace::traced;

/// The largest flight after `from` seconds: at each ACK, what is outstanding once the sender
/// has sent what that ACK let go.
fn max_flight(overrides: &[(&str, &str)], from: f64) -> i64 {
    let r = traced(&scenario("lan", overrides));
    r.win
        .iter()
        .filter(|w| w.t >= from)
        // snd_max_before adds the hiccup testbed's 460-byte segment; these are 1400 bytes.
        .map(|w| r.snd_max_before(w.t + 1e-9) - sender_trace::MSS + 1400 - w.una)
        .max()
        .unwrap()
}

#[test]
fn an_8k_buffer_holds_six_segments_on_bsd_and_five_without_rounding() {
    let clean = [
        ("buffer", "8KiB"),
        ("error_every", "0"),
        ("transfer", "2MiB"),
    ];
    assert_eq!(max_flight(&clean, 1.0), 6 * 1400, "8400-byte window");
    let mut none = clean.to_vec();
    none.push(("tcp.buffer_rounding", "none"));
    assert_eq!(
        max_flight(&none, 1.0),
        5 * 1400,
        "8192 bytes: five full segments"
    );
    // The results report the buffer as given.
    let r = lossylink::run(&scenario("lan", &clean), 1, &Default::default()).unwrap();
    assert_eq!(r.metrics.buffer_bytes, 8192);
}
