//! SNR-driven frame errors and ideal rate control at the scenario level
//! (net::medium::dcf::snr, net::medium::dcf::nist): a packet script with exact times (a frame
//! at MCS 7 lost at 10 dB and retried once the SNR is 40 dB), the SNR trace stepping down under
//! the ideal rate control, and the knobs' one-line errors.

use super::*;

/// One 1400-byte segment from a wired host to the station of an 802.11n cell at 65 Mb/s
/// (MCS 7) with `dcf` (the table's other keys): its completion (ns) and the access point's
/// member row.
fn one_segment(dcf: &str) -> (u64, Vec<(&'static str, Value)>) {
    let t = format!(
        "name = \"one\"\nscheme = \"e2e\"\n[[nodes]]\nname = \"server\"\nkind = \"host\"\n\
         [[nodes]]\nname = \"ap\"\nkind = \"base-station\"\n[[nodes]]\nname = \"sta\"\nkind = \"host\"\n\
         [[links]]\nname = \"wire\"\nbetween = [\"server\", \"ap\"]\nrole = \"wired\"\nrate = \"1Gbps\"\ndelay = \"1us\"\n\
         [[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [\"sta\"]\nrate = \"65Mbps\"\ndelay = \"1us\"\nframing = 36\n\
         dcf = {{ phy = \"11n\", error_model = \"snr\", {dcf} }}\n\
         [[flows]]\nname = \"f\"\nfrom = \"server\"\nto = \"sta\"\nbytes = \"1400B\"\n"
    );
    let s = Scenario::from_toml_str(&t).unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    assert_eq!(r.metrics.sender_segments, 1);
    let ap = access_point(&r);
    ((r.metrics.completion_s * 1e9).round() as u64, ap)
}

fn count(row: &[(&'static str, Value)], k: &str) -> i64 {
    match row.iter().find(|(n, _)| *n == k) {
        Some((_, Value::Int(v))) => *v,
        other => panic!("{k}: {other:?}"),
    }
}

/// A packet script with exact times. At 40 dB the MPDU of 1476 octets at MCS 7 arrives (the
/// NIST model's error rate is below 10⁻²⁰): the segment takes the wire, DIFS, the access
/// point's backoff b₁ (U[0, 15] from its stream), the 220 µs PPDU, SIFS and the 28 µs ACK, as
/// in the PHY test. At 10 dB MCS 7 fails for sure (64-QAM's uncoded bit error rate 0.14, the
/// code's bound above 1): with the SNR at 10 dB until 300 µs and 40 dB after it, the first
/// attempt (at most 12.5 + 34 + 135 µs) is lost, the access point waits out its ACK timeout
/// (SIFS + ACK + slot = 53 µs), DIFS and a backoff b₂ of U[0, 31] (CW doubled) and its second
/// attempt (at least 353 µs) arrives. The histogram counts both attempts at MCS 7.
#[test]
fn a_frame_lost_at_low_snr_is_retried_and_at_high_snr_is_not() {
    let wire = 1440 * 8 + 1_000;
    let mut ap = engine::RngStream::new(1, &net::keys::dcf_backoff("cell:cell", 1));
    let (b1, b2) = (ap.below(16), ap.below(32));
    let (t, row) = one_segment("snr = 40");
    assert_eq!(t, wire + 1000 * (34 + 9 * b1 + 220 + 16 + 28 + 1));
    assert_eq!(
        (
            count(&row, "mcs7"),
            count(&row, "retries"),
            count(&row, "errors")
        ),
        (1, 0, 0)
    );
    let (t, row) = one_segment("station_snr = { sta = [[\"0s\", 10], [\"300us\", 40]] }");
    assert_eq!(
        t,
        wire + 1000 * (34 + 9 * b1 + 220 + 53 + 34 + 9 * b2 + 220 + 16 + 28 + 1)
    );
    assert_eq!(
        (
            count(&row, "mcs7"),
            count(&row, "retries"),
            count(&row, "errors")
        ),
        (2, 1, 1)
    );
}

/// Ideal rate control (`rate_control = "ideal"`) follows an SNR trace: a UDP download to one
/// 802.11n station whose SNR steps from 35 dB to 12 dB at t = 1 s. Until then every data frame
/// goes at MCS 7 (its 10 % threshold for 1000-byte datagrams is below 24 dB); after it at MCS 2
/// (MCS 3 needs 13.4 dB, MCS 2 9.8): the run to 0.9 s sends only MCS 7, the run to 2 s the same
/// MCS 7 frames up to the step (the runs agree until it), then MCS 2 frames, and its frames are
/// hardly ever lost.
#[test]
fn ideal_rate_control_drops_the_mcs_when_the_snr_steps_down() {
    let hist = |duration: &str| {
        let mut s = cell(
            1,
            false,
            1000,
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", rate_control = \"ideal\", station_snr = { s1 = [[\"0s\", 35], [\"1s\", 12]] } }",
            2,
        );
        s.set("run.warmup", "0s").unwrap();
        s.set("run.duration", duration).unwrap();
        let r = run(&s, 1, &RunOptions::default()).unwrap();
        let ap = access_point(&r);
        let h: Vec<i64> = (0..10).map(|k| count(&ap, &format!("mcs{k}"))).collect();
        let by_ppdu = match ap.iter().find(|(n, _)| *n == "mcs_hist") {
            Some((_, Value::Str(v))) => v.clone(),
            other => panic!("mcs_hist: {other:?}"),
        };
        (h, count(&ap, "errors"), by_ppdu)
    };
    let (before, _, _) = hist("900ms");
    let (after, errors, by_ppdu) = hist("2s");
    // The PPDU histogram counts the mode each frame went in, the rate control's (one frame
    // per PPDU here), not the cell's configured MCS 7.
    assert_eq!(by_ppdu, format!("ht2:{} ht7:{}", after[2], after[7]));
    eprintln!("MCS histogram to 0.9 s {before:?}, to 2 s {after:?}, errors {errors}");
    assert!(before[7] > 1000, "{before:?}");
    assert_eq!(before.iter().sum::<i64>(), before[7]);
    // The step at 1 s: frames 0.9-1 s still at MCS 7 (at most 0.1 s worth), the rest at MCS 2.
    assert!(after[7] >= before[7] && after[7] < before[7] + before[7] / 8);
    assert!(after[2] > 1000, "{after:?}");
    assert_eq!(after[7] + after[2], after.iter().sum::<i64>());
    assert!((errors as f64) < 0.1 * after.iter().sum::<i64>() as f64);
}

/// The error a two-station cell with `spec` gives, from its document or its run ("" if none).
fn knob_error(spec: &str) -> String {
    match Scenario::from_toml_str(&doc(2, true, 1000, spec, 2)) {
        Err(e) => e.to_string(),
        Ok(s) => run(&s, 1, &RunOptions::default())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
    }
}

/// The knobs: each refusal is one line naming the field.
#[test]
fn the_snr_knobs_are_checked_in_one_line_each() {
    for (spec, want) in [
        (
            "rate = \"11Mbps\"\ndcf = { error_model = \"snr\", snr = 20 }",
            "cells[0].dcf.error_model: \"snr\" is the NIST OFDM error model of 11a, 11g, 11n and 11ac; 11b keeps error and station_error",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", snr = 20 }",
            "cells[0].dcf.snr: belongs to error_model = \"snr\"",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", rate_control = \"ideal\" }",
            "cells[0].dcf.rate_control: \"ideal\" picks each frame's mode by the station's SNR; it needs error_model = \"snr\"",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\" }",
            "cells[0].dcf.snr: station 's1' has no SNR: give dcf.snr or dcf.station_snr.s1",
        ),
        (
            "rate = \"65Mbps\"\nerror = { model = \"bernoulli\", p = 0.1 }\ndcf = { phy = \"11n\", error_model = \"snr\", snr = 20 }",
            "cells[0].error: with dcf.error_model = \"snr\" frame errors come from each station's SNR; leave it out",
        ),
        (
            "rate = \"11Mbps\"\ndcf = { phy = \"11g\", error_model = \"snr\", snr = 20 }",
            "cells[0].rate: is a DSSS rate; error_model = \"snr\" needs an OFDM rate (11g: 6-54Mbps)",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", snr = { distance_m = 10 } }",
            "cells[0].dcf.snr: a distance needs dcf.path_loss (log-distance path loss), e.g. path_loss = {}",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", snr = [[\"1s\", 10], [\"0s\", 20]] }",
            "cells[0].dcf.snr: a trace needs [time, dB] pairs with rising times, e.g. [[\"0s\", 30], [\"1s\", 10]]",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", snr = 20, station_snr = { s9 = 3 } }",
            "cells[0].dcf.station_snr.s9: is not one of the cell's stations",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", snr = 20, rate_control = \"ideal\", ideal_per = 1.5 }",
            "cells[0].dcf.ideal_per: 1.5 is outside (0, 1) (a frame error rate)",
        ),
        (
            "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", snr = 20, ideal_per = 0.2 }",
            "cells[0].dcf.ideal_per: belongs to rate_control = \"ideal\"",
        ),
    ] {
        let e = knob_error(spec);
        assert!(e.contains(want), "{spec}:\n got  {e}\n want {want}");
        assert!(!e.contains('\n'), "{e}");
    }
}

/// Stations at distances through log-distance path loss with shadowing: the nearer station
/// sees the higher SNR, so ideal rate control sends it at a higher MCS; shadowing draws from
/// its own stream (another seed, another draw), not from the frame errors'.
#[test]
fn path_loss_sets_each_stations_snr_from_its_distance() {
    let spec = "rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", rate_control = \"ideal\", \
                path_loss = { shadowing_db = 0 }, station_snr = { s1 = { distance_m = 5 }, s2 = { distance_m = 50 } } }";
    let mut s = cell(2, false, 1000, spec, 2);
    s.set("run.duration", "1500ms").unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let ap = access_point(&r);
    let h: Vec<i64> = (0..10).map(|k| count(&ap, &format!("mcs{k}"))).collect();
    eprintln!("AP's MCS histogram, stations at 5 m and 50 m: {h:?}");
    // 5 m: 42.4 dB (MCS 7); 50 m: 12.4 dB (MCS 2; MCS 3 needs 13.4 dB).
    assert!(h[7] > 100 && h[2] > 100, "{h:?}");
    assert_eq!(h[7] + h[2], h.iter().sum::<i64>());
}

/// The access point's data frames per MCS of a UDP download to one 802.11n station (HT20,
/// 65 Mb/s at most) with `rate_control` whose SNR steps from 35 dB to 12 dB at t = 1 s, run to
/// `duration`.
fn download_hist(rate_control: &str, duration: &str) -> Vec<i64> {
    let mut s = cell(
        1,
        false,
        1000,
        &format!("rate = \"65Mbps\"\ndcf = {{ phy = \"11n\", error_model = \"snr\", rate_control = \"{rate_control}\", station_snr = {{ s1 = [[\"0s\", 35], [\"1s\", 12]] }} }}"),
        2,
    );
    s.set("run.warmup", "0s").unwrap();
    s.set("run.duration", duration).unwrap();
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let ap = access_point(&r);
    (0..10).map(|k| count(&ap, &format!("mcs{k}"))).collect()
}

/// Minstrel-HT (`rate_control = "minstrel-ht"`, net::medium::dcf::minstrel) under the same SNR
/// step: it starts at MCS 0, samples its way up and sends most frames at MCS 7 before the
/// step (35 dB: MCS 7's error rate is nil); after it (12 dB: MCS 7 always fails, MCS 3 fails
/// about half its frames) the rate it sends most of the new frames at is MCS 2, found within
/// the 2 s run; sampling keeps sending a few frames at other rates.
#[test]
fn minstrel_ht_learns_the_rate_and_drops_it_when_the_snr_steps_down() {
    let before = download_hist("minstrel-ht", "900ms");
    let after = download_hist("minstrel-ht", "2s");
    let new: Vec<i64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    eprintln!("Minstrel-HT per MCS to 0.9 s {before:?}; after 0.9 s {new:?}");
    let top = |h: &[i64]| (0..10).max_by_key(|&k| h[k]).unwrap();
    assert_eq!(top(&before), 7, "{before:?}");
    assert!(
        before[7] > before.iter().sum::<i64>() * 8 / 10,
        "{before:?}"
    );
    assert_eq!(top(&new), 2, "{new:?}");
    assert!(new[2] > new.iter().sum::<i64>() / 2, "{new:?}");
}

/// Minstrel-HT's knobs: it needs the SNR channel and MAC ACKs.
#[test]
fn minstrel_ht_needs_snr_and_acks() {
    assert!(knob_error("rate = \"65Mbps\"\ndcf = { phy = \"11n\", rate_control = \"minstrel-ht\" }")
        .contains("cells[0].dcf.rate_control: \"minstrel-ht\" adapts to errors that depend on the mode; it needs error_model = \"snr\""));
    assert!(knob_error("rate = \"65Mbps\"\ndcf = { phy = \"11n\", error_model = \"snr\", snr = 20, rate_control = \"minstrel-ht\", mac_ack = false }")
        .contains("cells[0].dcf.mac_ack: rate_control = \"minstrel-ht\" learns from the ACKs; leave mac_ack on"));
}
