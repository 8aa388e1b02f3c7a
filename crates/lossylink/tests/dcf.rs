#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The 802.11 DCF cell (net::medium::dcf): saturation throughput against Bianchi's (2000)
//! Markov-chain model, solved numerically here, and the cell's errors.

mod common;
use common::num;
use lossylink::{run, RunOptions, Scenario};

/// A cell of `n` saturated stations sending 1000-byte UDP datagrams to a wired sink behind
/// the access point (100 Mb/s, so the cell is the bottleneck), 11 Mb/s, long preamble.
fn saturated(n: usize, basic: &str) -> Scenario {
    let mut t = String::from(
        "name = \"bianchi\"\nscheme = \"e2e\"\n[run]\nduration = \"20s\"\nwarmup = \"2s\"\n\
         [[nodes]]\nname = \"sink\"\nkind = \"host\"\n[[nodes]]\nname = \"ap\"\nkind = \"base-station\"\n",
    );
    for i in 1..=n {
        t += &format!("[[nodes]]\nname = \"s{i}\"\nkind = \"host\"\n");
    }
    t += "[[links]]\nname = \"wire\"\nbetween = [\"ap\", \"sink\"]\nrole = \"wired\"\nrate = \"1Gbps\"\ndelay = \"1us\"\nqueue = 10000\n";
    // A scenario needs a TCP flow: a small one beside the cell, on a wire of its own.
    t += "[[nodes]]\nname = \"h\"\nkind = \"host\"\n[[links]]\nname = \"side\"\nbetween = [\"sink\", \"h\"]\nrole = \"wired\"\nrate = \"1Gbps\"\ndelay = \"1us\"\n[[flows]]\nname = \"tcp\"\nfrom = \"sink\"\nto = \"h\"\nbytes = \"1400B\"\n";
    let stations: Vec<String> = (1..=n).map(|i| format!("\"s{i}\"")).collect();
    t += &format!(
        "[[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [{}]\nrate = \"11Mbps\"\ndelay = \"1us\"\nqueue = 50\nframing = 36\nper_frame = \"192us\"\ndcf = {{ basic_rate = \"{basic}\" }}\n",
        stations.join(", ")
    );
    for i in 1..=n {
        t += &format!(
            "[[flows]]\nname = \"u{i}\"\nfrom = \"s{i}\"\nto = \"sink\"\nudp = {{ model = \"cbr\", rate = \"11Mbps\", size = \"1000B\" }}\n"
        );
    }
    Scenario::from_toml_str(&t).expect("scenario")
}

/// Bianchi (2000), basic access: the fixed point of τ and p, then the saturation throughput
/// S = P_s·P_tr·E[P] / ((1 − P_tr)σ + P_tr·P_s·T_s + P_tr(1 − P_s)·T_c), in Mb/s of payload, and
/// p. T_s and T_c as the standard has them: after a success DIFS, after a collision the others
/// defer EIFS (the frame was received in error).
fn bianchi(n: usize, basic_bps: f64) -> (f64, f64) {
    let (w, m) = (32.0f64, 5i32);
    let slot = 20e-6;
    let (sifs, difs) = (10e-6, 50e-6);
    let ack = 192e-6 + 14.0 * 8.0 / basic_bps;
    let eifs = sifs + ack + difs;
    let delta = 1e-6;
    // Header: PLCP + MAC framing; payload: the IP datagram (1000 + 8 UDP + 20 IP bytes).
    let h = 192e-6 + 36.0 * 8.0 / 11e6;
    let p_bits = 1028.0 * 8.0;
    let payload = p_bits / 11e6;
    let ts = h + payload + sifs + delta + ack + difs + delta;
    let tc = h + payload + eifs + delta;
    let nn = n as f64;
    let tau_of = |p: f64| {
        2.0 * (1.0 - 2.0 * p) / ((1.0 - 2.0 * p) * (w + 1.0) + p * w * (1.0 - (2.0 * p).powi(m)))
    };
    // Solve p = 1 − (1 − τ(p))^(n−1) by bisection.
    let (mut lo, mut hi) = (0.0f64, 0.4999f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        let f = 1.0 - (1.0 - tau_of(mid)).powf(nn - 1.0) - mid;
        if f > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let p = 0.5 * (lo + hi);
    let tau = tau_of(p);
    let ptr = 1.0 - (1.0 - tau).powf(nn);
    let ps = nn * tau * (1.0 - tau).powf(nn - 1.0) / ptr;
    // Payload throughput counts the UDP payload (1000 bytes) as the goodput measures it.
    let s =
        ps * ptr * (1000.0 * 8.0) / ((1.0 - ptr) * slot + ptr * ps * ts + ptr * (1.0 - ps) * tc);
    (s / 1e6, p)
}

#[test]
fn saturation_throughput_follows_bianchis_model() {
    for &n in &[1usize, 2, 5, 10, 20] {
        for (basic, bps) in [("1Mbps", 1e6), ("2Mbps", 2e6)] {
            let r = run(&saturated(n, basic), 1, &RunOptions::default()).unwrap();
            let fr = r.flows.unwrap();
            let total: f64 = fr
                .flows
                .iter()
                .filter(|f| f[0].1 != lossylink::Value::Str("tcp".into()))
                .map(|f| num(f, "goodput_mbps"))
                .sum();
            let (model, _p) = bianchi(n, bps);
            let err = (total - model).abs() / model;
            eprintln!(
                "n = {n:2}, basic {basic}: ours {total:.3} Mb/s, Bianchi {model:.3} ({:+.1} %)",
                100.0 * (total / model - 1.0)
            );
            assert!(
                err < 0.03,
                "n = {n}, basic {basic}: ours {total:.3} Mb/s, model {model:.3}"
            );
        }
    }
}

#[test]
fn bad_dcf_settings_name_the_field() {
    let base = saturated(2, "1Mbps");
    for (path, value, field) in [
        ("cells.0.dcf.retry_limit", "0", "cells[0].dcf.retry_limit"),
        ("cells.0.dcf.cw_min", "2000", "cells[0].dcf.cw_min"),
        (
            "cells.0.dcf.basic_rate",
            "\"5.5Mbps\"",
            "cells[0].dcf.basic_rate",
        ),
    ] {
        let mut s = base.clone();
        let e = s.set(path, value).unwrap_err().to_string();
        assert!(e.contains(field), "{path}: {e}");
    }
}
