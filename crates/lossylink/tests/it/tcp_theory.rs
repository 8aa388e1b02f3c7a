#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Sanity against theory (issue: networks): one long-lived Reno flow with Bernoulli loss p on a
//! long-RTT path, against the square-root formula of Mathis et al. (1997) and the full model of
//! Padhye, Firoiu, Towsley and Kurose (1998, "PFTK"), which adds retransmission timeouts.
//!
//! The path: 100 Mb/s, 50 ms each way, losses on the data direction only, delayed ACKs off
//! (b = 1 segment per ACK), a receiver window large enough not to limit the flow, 200 s.

use lossylink::{run, RunOptions, Scenario};

use crate::common;
use common::num;

fn scenario(p: f64) -> Scenario {
    Scenario::from_toml_str(&format!(
        r#"
name = "theory"
scheme = "e2e"
[tcp]
profile = "modern"
mss = 1460
buffer = "63KiB"
delayed_ack = "off"
[run]
duration = "200s"
warmup = "20s"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[links]]
name = "path"
between = ["a", "b"]
role = "wireless"
rate = "100Mbps"
delay = "50ms"
queue = 1000
forward = {{ error = {{ model = "bernoulli", p = {p} }} }}
[[flows]]
from = "a"
to = "b"
"#
    ))
    .unwrap()
}

/// Segments per second: Mathis (B = sqrt(3 / 2bp) / RTT) and PFTK (with T0 the RTO).
fn models(p: f64, rtt: f64, t0: f64) -> (f64, f64) {
    let b = 1.0;
    let mathis = (3.0 / (2.0 * b * p)).sqrt() / rtt;
    let pftk = 1.0
        / (rtt * (2.0 * b * p / 3.0).sqrt()
            + t0 * (1.0f64).min(3.0 * (3.0 * b * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p));
    (mathis, pftk)
}

#[test]
fn reno_goodput_follows_the_square_root_law() {
    for (p, seed) in [(0.002, 1), (0.005, 2), (0.01, 3)] {
        let r = run(&scenario(p), seed, &RunOptions::default()).unwrap();
        let f = &r.flows.as_ref().unwrap().flows[0];
        let got = num(f, "goodput_mbps") * 1e6 / 8.0 / 1460.0;
        // RTT: 100 ms of propagation plus a 1500-byte frame and a 40-byte ACK at 100 Mb/s.
        let rtt = 0.1 + (1500.0 + 40.0) * 8.0 / 100e6;
        // T0: the flow's retransmission timeout, RFC 6298 srtt + 4·rttvar above the 200 ms
        // minimum of the modern profile, about 0.3 s on this path.
        let (mathis, pftk) = models(p, rtt, 0.3);
        eprintln!("p {p}: {got:.1} seg/s, Mathis {mathis:.1}, PFTK {pftk:.1}");
        // Mathis holds where timeouts are rare (p ≤ 0.5 %); PFTK across the range.
        if p <= 0.005 {
            assert!(
                (got / mathis - 1.0).abs() <= 0.2,
                "p {p}: {got} vs Mathis {mathis}"
            );
        }
        assert!(
            (got / pftk - 1.0).abs() <= 0.2,
            "p {p}: {got} vs PFTK {pftk}"
        );
    }
}
