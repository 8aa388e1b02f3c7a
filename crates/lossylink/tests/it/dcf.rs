#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The 802.11 DCF cell (net::medium::dcf): saturation throughput against Bianchi's (2000)
//! Markov-chain model, solved numerically here, and the cell's errors.

use crate::common;
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
    // τ(p) = 2(1 − 2p) / ((1 − 2p)(W + 1) + pW(1 − (2p)^m)), written without the removable
    // singularity at p = 1/2: 2 / (W + 1 + pW·Σ_{i<m} (2p)^i).
    let tau_of = |p: f64| {
        let sum: f64 = (0..m).map(|i| (2.0 * p).powi(i)).sum();
        2.0 / (w + 1.0 + p * w * sum)
    };
    // Solve p = 1 − (1 − τ(p))^(n−1) by bisection (p grows past 1/2 for large n).
    let (mut lo, mut hi) = (0.0f64, 0.999f64);
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
    for &n in &[1usize, 2, 5, 10, 20, 50] {
        for (basic, bps) in [("1Mbps", 1e6), ("2Mbps", 2e6)] {
            let r = run(&saturated(n, basic), 1, &RunOptions::default()).unwrap();
            let fr = r.flows.unwrap();
            let total: f64 = fr
                .flows
                .iter()
                .filter(|f| f[0].1 != lossylink::Value::Str("tcp".into()))
                .map(|f| num(f, "goodput_mbps"))
                .sum();
            // The stations' conditional collision probability: collided attempts per attempt.
            let stations: Vec<_> = fr
                .members
                .iter()
                .filter(|m| m[2].1 == lossylink::Value::Str("station".into()))
                .collect();
            assert_eq!(stations.len(), n);
            let attempts: f64 = stations.iter().map(|m| num(m, "attempts")).sum();
            let collisions: f64 = stations.iter().map(|m| num(m, "collisions")).sum();
            let p_ours = collisions / attempts;
            let (model, p) = bianchi(n, bps);
            let err = (total - model).abs() / model;
            eprintln!(
                "n = {n:2}, basic {basic}: ours {total:.3} Mb/s, Bianchi {model:.3} ({:+.1} %), \
                 p ours {p_ours:.4}, Bianchi {p:.4}",
                100.0 * (total / model - 1.0)
            );
            assert!(
                err < 0.03,
                "n = {n}, basic {basic}: ours {total:.3} Mb/s, model {model:.3}"
            );
            if n == 1 {
                assert_eq!(collisions, 0.0);
            } else {
                assert!(
                    (p_ours - p).abs() <= 0.10 * p,
                    "n = {n}, basic {basic}: p ours {p_ours:.4}, model {p:.4}"
                );
            }
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
            "\"3Mbps\"",
            "cells[0].dcf.basic_rate",
        ),
    ] {
        let mut s = base.clone();
        let e = s.set(path, value).unwrap_err().to_string();
        assert!(e.contains(field), "{path}: {e}");
    }
}

/// Jain's index of `x`.
fn jain(x: &[f64]) -> f64 {
    let (s, q): (f64, f64) = (x.iter().sum(), x.iter().map(|v| v * v).sum());
    s * s / (x.len() as f64 * q)
}

/// The UDP flows' goodputs of a run.
fn udp_goodputs(r: &lossylink::RunResult) -> Vec<f64> {
    r.flows
        .as_ref()
        .unwrap()
        .flows
        .iter()
        .filter(|f| f[0].1 != lossylink::Value::Str("tcp".into()))
        .map(|f| num(f, "goodput_mbps"))
        .collect()
}

/// Ten saturated stations over 100 s share the cell fairly: Jain's index ≥ 0.99
/// (each station's backoff is its own draw, none is favoured).
#[test]
fn saturated_stations_share_the_cell_fairly() {
    let mut s = saturated(10, "1Mbps");
    s.set("run.duration", "100s").unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let g = udp_goodputs(&r);
    assert_eq!(g.len(), 10);
    let j = jain(&g);
    assert!(j >= 0.99, "Jain {j}: {g:?}");
}

/// A downlink cell: the access point sends 2 Mb/s of UDP to each of three stations (more than
/// the cell carries); station s3's link is in a Gilbert-Elliott channel that is mostly bad.
fn downlink(bad_s3: bool, retry_limit: u32) -> Scenario {
    let mut t = String::from(
        "name = \"hol\"\nscheme = \"e2e\"\n[run]\nduration = \"30s\"\nwarmup = \"2s\"\n\
         [[nodes]]\nname = \"src\"\nkind = \"host\"\n[[nodes]]\nname = \"ap\"\nkind = \"base-station\"\n\
         [[nodes]]\nname = \"s1\"\nkind = \"host\"\n[[nodes]]\nname = \"s2\"\nkind = \"host\"\n[[nodes]]\nname = \"s3\"\nkind = \"host\"\n\
         [[links]]\nname = \"wire\"\nbetween = [\"src\", \"ap\"]\nrole = \"wired\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\nqueue = 1000\n",
    );
    t += &format!(
        "[[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [\"s1\", \"s2\", \"s3\"]\nrate = \"11Mbps\"\ndelay = \"1us\"\nqueue = 50\nframing = 36\nper_frame = \"192us\"\ndcf = {{ retry_limit = {retry_limit} }}\n"
    );
    if bad_s3 {
        t += "station_error = { s3 = { model = \"gilbert\", p_gb = 0.05, p_bb = 0.95, loss_good = 0.0, loss_bad = 0.9 } }\n";
    }
    for i in 1..=3 {
        t += &format!(
            "[[flows]]\nname = \"u{i}\"\nfrom = \"src\"\nto = \"s{i}\"\nudp = {{ model = \"cbr\", rate = \"2Mbps\", size = \"1000B\" }}\n"
        );
    }
    t += "[[flows]]\nname = \"tcp\"\nfrom = \"src\"\nto = \"s1\"\nbytes = \"1400B\"\n";
    Scenario::from_toml_str(&t).expect("scenario")
}

/// T004-17: at the access point a frame for the station in the bad channel is retried up to
/// the retry limit while the frames for the good stations wait behind it, so their goodput
/// falls; the longer the retry limit, the more (the access point's per-member access delay
/// rises with it).
#[test]
fn a_bad_station_blocks_the_access_point_for_the_good_ones() {
    let good = |s: Scenario| {
        let r = run(&s, 1, &RunOptions::default()).unwrap();
        let g = udp_goodputs(&r);
        let ap = r.flows.as_ref().unwrap().members[0].clone();
        (
            g[0] + g[1],
            num(&ap, "access_delay_mean_ms"),
            num(&ap, "retries"),
        )
    };
    let (clean, d_clean, _) = good(downlink(false, 7));
    let (bad7, d_bad7, retries7) = good(downlink(true, 7));
    let (bad1, _, retries1) = good(downlink(true, 1));
    eprintln!("good stations: clean {clean:.3}, bad s3 with retry 7 {bad7:.3}, with retry 1 {bad1:.3} Mb/s");
    assert!(bad7 < 0.85 * clean, "{bad7} vs {clean}");
    assert!(
        bad1 > bad7,
        "a short retry limit blocks less: {bad1} vs {bad7}"
    );
    assert!(
        d_bad7 > 1.3 * d_clean,
        "access delay {d_bad7} vs {d_clean} ms"
    );
    assert!(retries7 > retries1);
}

/// One TCP download from a server on a fast wire through the access point to one station,
/// 11 Mb/s, no errors; `delack` on or off at the station.
fn one_tcp(delack: bool) -> Scenario {
    let mut t = String::from(
        "name = \"tcp1\"\nscheme = \"e2e+modern\"\n[tcp]\nbuffer = \"65535\"\nmss = 1460\n",
    );
    if !delack {
        t += "delayed_ack = \"off\"\n";
    }
    t += "[run]\nduration = \"30s\"\nwarmup = \"5s\"\n\
         [[nodes]]\nname = \"server\"\nkind = \"host\"\n[[nodes]]\nname = \"ap\"\nkind = \"base-station\"\n[[nodes]]\nname = \"sta\"\nkind = \"host\"\n\
         [[links]]\nname = \"wire\"\nbetween = [\"server\", \"ap\"]\nrole = \"wired\"\nrate = \"1Gbps\"\ndelay = \"1ms\"\nqueue = 1000\n\
         [[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [\"sta\"]\nrate = \"11Mbps\"\ndelay = \"1us\"\nqueue = 50\nframing = 36\nper_frame = \"192us\"\ndcf = { basic_rate = \"1Mbps\" }\n\
         [[flows]]\nname = \"down\"\nfrom = \"server\"\nto = \"sta\"\n";
    Scenario::from_toml_str(&t).expect("scenario")
}

/// Spec T004-5: the airtime ceiling of one TCP flow over an idle 802.11b cell (documented in
/// docs/scenarios.md). A data frame costs PLCP + the frame at 11 Mb/s + SIFS + the MAC ACK
/// (PLCP + 14 bytes at the basic rate), a TCP ACK frame the same with its 40 bytes of IP; each
/// transmission is preceded by DIFS and a backoff. Alone, a node waits its whole backoff
/// (E[U{0..31}] = 15.5 slots); when the station's TCP ACK and the access point's next data frame
/// contend, both count down at once: the pair waits 2 DIFS and the longer of the two backoffs
/// (E[max of two U{0..31}] = 32 − Σj²/1024 = 20.83 slots), not the sum. Delayed ACKs: per two
/// segments one data frame alone and one with the ACK; without: every data frame with an ACK.
/// Goodput matches within 3 % (collisions of the two, 1 in 32 of the shared countdowns, are
/// left out of the calculation).
#[test]
fn one_tcp_flow_reaches_the_airtime_ceiling() {
    let (slot, sifs, difs) = (20e-6, 10e-6, 50e-6);
    let plcp = 192e-6;
    let mac_ack = plcp + 14.0 * 8.0 / 1e6;
    let body = |ip: f64| plcp + (ip + 36.0) * 8.0 / 11e6 + sifs + mac_ack;
    let e_max: f64 = 32.0 - (1..=32).map(|j| f64::from(j * j)).sum::<f64>() / 1024.0;
    let alone = difs + 15.5 * slot;
    let pair = 2.0 * difs + e_max * slot;
    for delack in [true, false] {
        let r = run(&one_tcp(delack), 1, &RunOptions::default()).unwrap();
        let f = &r.flows.as_ref().unwrap().flows[0];
        let goodput = num(f, "goodput_mbps");
        let (segments, cycle) = if delack {
            (2.0, 2.0 * body(1500.0) + body(40.0) + alone + pair)
        } else {
            (1.0, body(1500.0) + body(40.0) + pair)
        };
        let ceiling = segments * 1460.0 * 8.0 / cycle / 1e6;
        eprintln!("delayed ACKs {delack}: goodput {goodput:.3} Mb/s, ceiling {ceiling:.3}");
        assert!(
            (goodput - ceiling).abs() <= 0.03 * ceiling,
            "delayed ACKs {delack}: {goodput:.3} vs {ceiling:.3} Mb/s"
        );
    }
}

/// The lan preset's WaveLAN hop as a two-member DCF (`medium = "dcf"`).
fn wavelan_dcf(mac_ack: bool, scheme: &str) -> Scenario {
    let mut s = Scenario::preset("lan").unwrap();
    s.set("scheme", scheme).unwrap();
    s.set(
        "hops.1",
        &format!(
            "{{ name = \"wavelan\", role = \"wireless\", medium = \"dcf\", rate = \"2Mbps\", delay = \"1us\", \
             framing = 36, per_frame = \"192us\", queue = 50, exposure = \"frame\", \
             error = {{ model = \"exponential\", every = \"64KiB\" }}, dcf = {{ mac_ack = {mac_ack} }} }}"
        ),
    )
    .unwrap();
    s
}

/// WaveLAN as a DCF: with 802.11 MAC ACKs and retries the MAC repairs every wireless
/// error and TCP sees none; without them (CSMA/CA, the paper's WaveLAN) collisions between
/// data and TCP ACK frames and corrupted frames are losses TCP must recover, more than the
/// errors alone give (the calibrated hop's timeouts).
#[test]
fn the_wavelan_hop_as_a_dcf_with_and_without_mac_acks() {
    let with = run(&wavelan_dcf(true, "e2e"), 1, &RunOptions::default()).unwrap();
    assert_eq!(
        with.metrics.sender_timeouts + with.metrics.sender_fast_retransmits,
        0
    );
    assert!(with.metrics.throughput_mbps > 1.4);
    let without = run(&wavelan_dcf(false, "e2e"), 1, &RunOptions::default()).unwrap();
    let calibrated = run(&Scenario::preset("lan").unwrap(), 1, &RunOptions::default()).unwrap();
    let losses = |m: &lossylink::Metrics| m.sender_timeouts + m.sender_fast_retransmits;
    assert!(losses(&without.metrics) > losses(&calibrated.metrics));
    assert!(without.metrics.throughput_mbps < calibrated.metrics.throughput_mbps);
    // Without bit errors the channel is still lossy without MAC ACKs: a data frame and a TCP
    // ACK frame that end their backoffs in the same slot collide.
    let mut clean = wavelan_dcf(false, "e2e");
    clean.set("hops.1.error", "{ model = \"none\" }").unwrap();
    let c = run(&clean, 1, &RunOptions::default()).unwrap();
    assert!(losses(&c.metrics) > 0);
    assert!(c.metrics.corrupted_data_frames + c.metrics.corrupted_ack_frames > 0);
    // A contention knob on a dcf hop is refused, naming the field.
    let mut bad = wavelan_dcf(false, "e2e");
    let e = match bad.set("hops.1.contention", "{ cw = 31, slot = \"20us\" }") {
        Err(e) => e.to_string(),
        Ok(()) => run(&bad, 1, &RunOptions::default())
            .unwrap_err()
            .to_string(),
    };
    assert!(e.contains("hops[1].contention"), "{e}");
}

/// A DCF has 802.11b timing, so it refuses a data rate 802.11b does not have (54 Mb/s
/// is 802.11a/g), in one line naming the field and the rates allowed; 1, 2, 5.5 and 11 Mb/s run.
#[test]
fn a_dcf_refuses_rates_that_802_11b_does_not_have() {
    let mut cell = downlink(false, 7);
    let e = cell.set("cells.0.rate", "54Mbps").unwrap_err().to_string();
    assert!(
        e.starts_with("cells[0].rate: 54Mbps is not an 802.11b rate"),
        "{e}"
    );
    assert!(
        e.contains("1Mbps, 2Mbps, 5.5Mbps, 11Mbps") && !e.contains('\n'),
        "{e}"
    );
    for ok in ["1Mbps", "2Mbps", "5.5Mbps", "11Mbps"] {
        cell.set("cells.0.rate", ok).unwrap();
    }
    // A cell without a DCF is a shared channel of any rate.
    let mut shared = Scenario::preset("wlan").unwrap();
    shared.set("cells.0.rate", "54Mbps").unwrap();
    // A `medium = "dcf"` hop, its rate and each direction's.
    let mut hop = wavelan_dcf(true, "e2e");
    let e = hop.set("hops.1.rate", "6Mbps").unwrap_err().to_string();
    assert!(
        e.starts_with("hops[1].rate: 6Mbps is not an 802.11b rate"),
        "{e}"
    );
    let e = hop
        .set("hops.1.forward", "{ rate = \"48Mbps\" }")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("hops[1].forward.rate:"), "{e}");
}
