//! The window around a loss, scheme by scheme: what each controller's source says ssthresh
//! becomes at a fast retransmit (and, for CUBIC and Veno, how the window grows after it),
//! measured from the sender's trace on the `wan` and `lan` presets with losses at chosen
//! wireless data frames (no ACK lost), each beside the base scheme without the mechanism.

use super::sig::*;

/// Three isolated wireless losses, 5 s apart on `wan` (the window has long been steady).
const ISOLATED: [usize; 3] = [600, 1200, 1800];

fn isolated(preset: &str, scheme: &str, extra: &[(&str, &str)]) -> Traced {
    let mut o = vec![("transfer", "3MiB")];
    o.extend_from_slice(extra);
    traced(&lossy(preset, scheme, &ISOLATED, &o))
}

/// A loss in slow start at data frame 60 of a wan transfer with a 65535-byte window, so
/// that cwnd, not the peer's window, limits the flight (RFC 9438 and RFC 5681 then reduce
/// the same quantity), then one later loss.
fn early(scheme: &str) -> Traced {
    traced(&lossy(
        "wan",
        scheme,
        &[60, 600],
        &[("transfer", "1MiB"), ("buffer", "65535")],
    ))
}

/// RFC 9438 §4.6: `ssthresh = cwnd·β_cubic`, β = 0.7 (here `max(cwnd·7/10, 2 MSS)` in
/// bytes, docs/modern.md). Reno (RFC 5681 (4)) halves the flight.
#[test]
fn cubic_cuts_to_seven_tenths_of_cwnd_where_reno_halves() {
    for scheme in ["e2e-cubic", "e2e-linux"] {
        for r in [early(scheme), isolated("wan", scheme, &[])] {
            let frs = r.fast_retransmits();
            assert!(frs.len() >= 2, "{scheme}: {frs:?}");
            for f in &frs {
                eprintln!(
                    "{scheme} {:.3}: cwnd {} -> ssthresh {}",
                    f.t, f.before.cwnd, f.after.ssthresh
                );
                assert_eq!(
                    f.after.ssthresh,
                    (f.before.cwnd * 7 / 10).max(2 * MSS),
                    "{scheme} at {:.3}: {f:?}",
                    f.t
                );
            }
        }
        // At the slow-start loss cwnd is the flight: 0.7 of the window in flight.
        let f = &early(scheme).fast_retransmits()[0];
        assert!((f.flight() - f.before.cwnd).abs() <= 2 * MSS, "{f:?}");
    }
    // The same loss under Reno: ssthresh half the flight, nowhere near 0.7 of cwnd.
    for scheme in ["e2e-ietf-sack+modern", "e2e-newreno+modern"] {
        let f = &early(scheme).fast_retransmits()[0];
        let ratio = f.after.ssthresh as f64 / f.before.cwnd as f64;
        eprintln!(
            "{scheme} {:.3}: cwnd {} flight {} -> ssthresh {} ({ratio:.3})",
            f.t,
            f.before.cwnd,
            f.flight(),
            f.after.ssthresh
        );
        assert!((0.45..=0.55).contains(&ratio), "{scheme}: {ratio:.3} {f:?}");
        assert!(
            (2 * f.after.ssthresh - f.flight()).abs() <= 2 * MSS,
            "{scheme}: {f:?}"
        );
    }
}

/// RFC 9438 §4.2: after a loss the window follows `W(t) = C·(t − K)^3 + W_max`, C = 0.4
/// segments/s^3, `K = cbrt((W_max − cwnd_epoch)/C)`, t from the first ACK that grows the
/// window; each ACK aims at `W(t + RTT)`. A loss at 65535 bytes (46.8 segments) on `wan`
/// with a 65535-byte window: K = cbrt((46.8 − 32.8)/0.4) = 3.27 s, and at every tenth of K
/// cwnd lies within one segment of `[W(t − RTT), W(t + RTT)]`. Reno grows a segment per
/// round trip and is far below the curve at half of K.
#[test]
fn cubic_regrows_along_the_cubic_curve() {
    let run = |scheme: &str| {
        traced(&lossy(
            "wan",
            scheme,
            &[600],
            &[("transfer", "4MiB"), ("buffer", "65535")],
        ))
    };
    // (the first growth after the recovery, W_max and cwnd_epoch in segments, the RTT)
    let epoch = |r: &Traced| {
        let f = r.fast_retransmits()[0].clone();
        let exit = r
            .win
            .iter()
            .find(|w| w.t > f.t && w.phase == "open")
            .unwrap();
        let grow = r
            .win
            .iter()
            .find(|w| w.t > exit.t && w.cwnd > exit.cwnd)
            .unwrap();
        let seg = |b: i64| b as f64 / MSS as f64;
        (
            grow.t,
            seg(f.before.cwnd),
            seg(exit.cwnd),
            r.mean_rtt(f.t - 1.0, f.t),
        )
    };
    let r = run("e2e-cubic");
    let (t0, w_max, w0, rtt) = epoch(&r);
    let k = ((w_max - w0) / 0.4).cbrt();
    let w = |t: f64| 0.4 * (t - k).powi(3) + w_max;
    eprintln!("cubic: W_max {w_max:.2}, cwnd_epoch {w0:.2}, K {k:.3} s, RTT {rtt:.3} s");
    for i in 1..10 {
        let t = k * f64::from(i) / 10.0;
        let cwnd = r.after(t0 + t).cwnd as f64 / MSS as f64;
        eprintln!(
            "  t {t:.2}: cwnd {cwnd:.2} in [{:.2}, {:.2}]",
            w(t - rtt),
            w(t + rtt)
        );
        assert!(
            (w(t - rtt) - 1.0..=w(t + rtt) + 1.0).contains(&cwnd),
            "t {t}: {cwnd}"
        );
    }
    let s = run("e2e-ietf-sack+modern");
    let (t0, ..) = epoch(&s);
    let cwnd = s.after(t0 + k / 2.0).cwnd as f64 / MSS as f64;
    eprintln!("reno: cwnd {cwnd:.2} at K/2");
    assert!(cwnd < w(k / 2.0 - rtt) - 1.0, "{cwnd}");
}

/// Westwood+ and TIBET (spec §4.5, §4.10): after three duplicates `ssthresh = max(2 MSS,
/// BWE·RTT_min)`. With isolated losses 5 s apart the sender is window-limited and steady
/// before each one, so the estimate of Westwood+ (per-RTT samples through a 0.9 Tustin
/// filter, whose step response is within 0.9^25 < 7 % after the ≥ 25 round trips since the
/// previous loss) and of TIBET (α = 0.99 per ACK, the same margin after ~300 ACKs) is the ACK
/// rate: ssthresh within ±10 % of `max(2 MSS, ACK rate × smallest RTT)`. On `wan` that is
/// about 22 000 bytes, where Reno's halving of the flight gives 0.70 of it; on `lan` (a
/// 16 ms minimum RTT, the queue at the base station making the rest of the round trip) it
/// is about 3 000 bytes, where Reno gives five times more (the LL-ELSN study's "worse than
/// Reno at small RTT", spec §4.5 (a)).
#[test]
fn bandwidth_estimators_set_ssthresh_to_rate_times_min_rtt() {
    let check = |preset: &str, scheme: &str| -> Vec<f64> {
        let r = isolated(preset, scheme, &[]);
        let frs = r.fast_retransmits();
        assert_eq!(frs.len(), 3, "{preset} {scheme}");
        let rtt_min = r
            .ack_rtts()
            .iter()
            .map(|x| x.1)
            .fold(f64::INFINITY, f64::min);
        eprintln!("{preset} {scheme}: RTT_min {:.2} ms", rtt_min * 1e3);
        frs.iter()
            .map(|f| {
                let rate = r.ack_rate(f.t - 2.05, f.t - 0.05);
                f.after.ssthresh as f64 / (rate * rtt_min).max(2.0 * MSS as f64)
            })
            .collect()
    };
    for preset in ["wan", "lan"] {
        for scheme in ["e2e-westwood", "e2e-tibet"] {
            let ratios = check(preset, scheme);
            eprintln!(
                "{preset} {scheme}: ssthresh / max(2 MSS, ACK rate x RTT_min) = {ratios:.3?}"
            );
            for x in &ratios {
                assert!((0.9..=1.1).contains(x), "{preset} {scheme}: {ratios:?}");
            }
        }
        let reno = check(preset, "e2e+modern");
        eprintln!("{preset} e2e+modern: {reno:.3?}");
        for x in reno {
            assert!(!(0.85..=1.15).contains(&x), "{preset}: Reno's halving: {x}");
        }
    }
}

/// The oracle's ssthresh is exactly `rate·RTT` as configured (spec §4.13 [PROPOSAL], the
/// rate and RTT given): by default the slowest link on the path (the 1430 kb/s internet hop)
/// and the propagation round trip 2·(58 ms + 1 µs + 1 µs); a deliberately different
/// configured rate moves it in proportion.
#[test]
fn ideal_bwe_sets_ssthresh_to_the_configured_rate_times_rtt() {
    let expect = |rate_bps: f64, rtt_s: f64| (rate_bps / 8.0 * rtt_s) as i64;
    let cases: [(&[(&str, &str)], i64); 3] = [
        (&[], expect(1_430_000.0, 0.116_004)),
        (
            &[
                ("tcp.ideal_bwe_rate", "1Mbps"),
                ("tcp.ideal_bwe_rtt", "100ms"),
            ],
            12_500,
        ),
        (
            &[
                ("tcp.ideal_bwe_rate", "2Mbps"),
                ("tcp.ideal_bwe_rtt", "100ms"),
            ],
            25_000,
        ),
    ];
    for (o, want) in cases {
        let r = isolated("wan", "e2e-ideal-bwe", o);
        let frs = r.fast_retransmits();
        assert_eq!(frs.len(), 3, "{o:?}");
        for f in frs {
            assert_eq!(f.after.ssthresh, want, "{o:?}: {f:?}");
            assert!(f.after.cwnd <= f.before.cwnd.min(want) + 3 * MSS, "{f:?}");
        }
    }
}

/// Veno (Fu & Liew 2003; spec §4.7): at a fast retransmit the backlog `N = cwnd·(RTT −
/// BaseRTT)/RTT` segments decides: `N < 3`, a random loss, `ssthresh = 4/5·cwnd`; else
/// Reno's halving. N is computed here from the trace as Veno computes it (the latest
/// delivery-rate RTT sample, BaseRTT the smallest), and the cut must follow it at every
/// fast retransmit. A loss every 50 frames on `wan` with a 65535-byte window keeps cwnd
/// near the bandwidth-delay product (little queue: mostly random losses); the first loss, in
/// slow start with a 46-segment flight over a 17-segment path, is congestive.
#[test]
fn veno_cuts_a_fifth_on_random_loss_and_half_on_congestive() {
    let frames: Vec<usize> = (4..40).map(|i| i * 50).collect();
    let run = |scheme: &str| {
        traced(&lossy(
            "wan",
            scheme,
            &frames,
            &[("transfer", "2MiB"), ("buffer", "65535")],
        ))
    };
    let r = run("e2e-veno");
    let rtts = r.ack_rtts();
    let (mut random, mut congestive) = (0, 0);
    for f in r.fast_retransmits() {
        let before: Vec<f64> = rtts.iter().filter(|x| x.0 < f.t).map(|x| x.1).collect();
        let (rtt, base) = (
            *before.last().unwrap(),
            before.iter().copied().fold(f64::INFINITY, f64::min),
        );
        let n = f.before.cwnd as f64 / MSS as f64 * (rtt - base) / rtt;
        eprintln!(
            "veno {:.3}: N {n:.2} cwnd {} flight {} -> ssthresh {}",
            f.t,
            f.before.cwnd,
            f.flight(),
            f.after.ssthresh
        );
        if n < 3.0 {
            random += 1;
            assert_eq!(
                f.after.ssthresh,
                (f.before.cwnd / 5 * 4).max(2 * MSS),
                "N = {n:.2}: {f:?}"
            );
        } else {
            congestive += 1;
            let ratio = f.after.ssthresh as f64 / f.flight() as f64;
            assert!((0.45..=0.55).contains(&ratio), "N = {n:.2}: {ratio} {f:?}");
        }
    }
    assert!(random >= 20 && congestive >= 1, "{random} {congestive}");
    // Reno on the same losses never keeps 4/5 of its window.
    for f in run("e2e+modern").fast_retransmits() {
        assert!(f.after.ssthresh * 10 < f.before.cwnd * 7, "{f:?}");
    }
}

/// Veno's growth (spec §4.7 (b)): in congestion avoidance with `N ≥ β` the window grows on
/// every other ACK (one segment per two round trips), with `N < β` on every ACK as Reno's.
/// On `wan` with its standing queue (23-segment window, 17-segment path), counted over the
/// ACKs of new data in congestion avoidance below the 65535-byte cap, N from the trace as
/// Veno computes it: half of them grow cwnd where N ≥ 3 (within one ACK per stretch of
/// avoidance), all where N < 3; Reno grows on every one.
#[test]
fn veno_grows_on_every_other_ack_while_the_backlog_is_three_or_more() {
    // (ACKs with N >= 3, of which grew; ACKs with N < 3, of which grew)
    let count = |scheme: &str| {
        let r = isolated("wan", scheme, &[]);
        let rtts = r.ack_rtts();
        let mut c = [0; 4];
        for w in r.win.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let avoidance = a.phase == "open" && b.phase == "open" && a.cwnd >= a.ssthresh;
            if b.una <= a.una || !avoidance || a.cwnd >= 65535 {
                continue;
            }
            let before: Vec<f64> = rtts.iter().filter(|x| x.0 < b.t).map(|x| x.1).collect();
            let Some(rtt) = before.last() else { continue };
            let base = before.iter().copied().fold(f64::INFINITY, f64::min);
            let n = a.cwnd as f64 / MSS as f64 * (rtt - base) / rtt;
            let i = if n >= 3.0 { 0 } else { 2 };
            c[i] += 1;
            c[i + 1] += usize::from(b.cwnd > a.cwnd);
        }
        c
    };
    let [hi, hi_up, lo, lo_up] = count("e2e-veno");
    eprintln!("veno: N >= 3: {hi_up} of {hi} ACKs grew cwnd; N < 3: {lo_up} of {lo}");
    assert!(hi >= 100 && lo >= 100, "{hi} {lo}");
    assert!((2 * hi_up).abs_diff(hi) <= 8, "{hi_up} of {hi}");
    assert_eq!(lo_up, lo);
    let [hi, hi_up, lo, lo_up] = count("e2e+modern");
    eprintln!("reno: {hi_up} of {hi}; {lo_up} of {lo}");
    assert_eq!((hi_up, lo_up), (hi, lo));
}

/// JTCP (Wu & Chen 2004; spec §4.9): a loss while the mean jitter ratio is at most 1/cwnd
/// (no queue building) is wireless: fast retransmit, window kept. Isolated corruption with the
/// steady window of `wan`: ssthresh and cwnd unchanged where Reno halves. A queue overflow
/// in slow start (the internet hop's queue cut to 5 packets, no wireless errors), where the
/// queue grows by a packet per ACK, is congestion: Reno's halving, the same ssthresh as
/// Reno's at that moment.
#[test]
fn jtcp_keeps_the_window_on_wireless_loss_and_halves_on_congestion() {
    let r = isolated("wan", "e2e-jtcp", &[]);
    let frs = r.fast_retransmits();
    assert_eq!(frs.len(), 3);
    for f in &frs {
        assert_eq!(f.after.ssthresh, f.before.cwnd, "{f:?}");
        assert!(f.after.cwnd >= f.before.cwnd, "{f:?}");
    }
    for f in isolated("wan", "e2e+modern", &[]).fast_retransmits() {
        assert!(2 * f.after.ssthresh <= f.flight() + MSS, "{f:?}");
    }
    let cong = |scheme: &str| {
        traced(&lossy(
            "wan",
            scheme,
            &[],
            &[
                ("transfer", "1MiB"),
                ("buffer", "65535"),
                ("hops.0.queue", "5"),
            ],
        ))
    };
    let (j, reno) = (cong("e2e-jtcp"), cong("e2e+modern"));
    assert!(j.m.queue_drops > 0);
    let (fj, fr) = (&j.fast_retransmits()[0], &reno.fast_retransmits()[0]);
    assert_eq!((fj.t, fj.seq), (fr.t, fr.seq));
    assert_eq!(fj.after.ssthresh, fr.after.ssthresh, "{fj:?}");
    assert!(2 * fj.after.ssthresh <= fj.flight() + 2 * MSS, "{fj:?}");
}

/// TCP-Jersey (Xu, Tian & Ansari 2004; spec §4.8). Three parts of its definition:
/// - an ACK carrying a congestion warning runs `rcontrol()`: `ssthresh = ownd = R·RTT_min`,
///   `cwnd = min(cwnd, ownd)`, without any loss. With the internet hop marking CW from 3
///   queued packets (`cw_mark`), ssthresh changes on ACKs with no loss, to within ±10 % of the
///   ACK rate times the smallest RTT (ABE is a time-sliding average of the ACK stream); the
///   unmarked run changes ssthresh only at a loss;
/// - an unmarked loss is wireless (`tcp.jersey_unmarked_loss = "keep"`, the spec's reading):
///   the retransmission only, ssthresh and cwnd kept;
/// - the default (`ownd`) applies `rcontrol()` at the loss: ABE at the third duplicate, which
///   the duplicates (0 bytes each) have decayed by `Π RTT/(gap + RTT)` from the ACK rate.
#[test]
fn jersey_answers_cw_marks_with_rcontrol_and_keeps_the_window_on_unmarked_loss() {
    let marked = |mark: Option<&str>| {
        let mut o = vec![("transfer", "2MiB")];
        if let Some(m) = mark {
            o.push(("hops.0.cw_mark", m));
        }
        traced(&lossy("wan", "e2e-jersey", &[], &o))
    };
    let losses = |r: &Traced| -> Vec<f64> {
        r.ev.iter()
            .filter(|e| e.kind == "fast-retransmit" || e.kind == "timeout")
            .map(|e| e.t)
            .collect()
    };
    let rcontrols = |r: &Traced| -> Vec<(Win, Win)> {
        let l = losses(r);
        r.win
            .windows(2)
            .filter(|w| w[1].ssthresh != w[0].ssthresh && !l.contains(&w[1].t))
            .map(|w| (w[0].clone(), w[1].clone()))
            .collect()
    };
    let m = marked(Some("3"));
    let rc = rcontrols(&m);
    let rtt_min = m
        .ack_rtts()
        .iter()
        .map(|x| x.1)
        .fold(f64::INFINITY, f64::min);
    let steady: Vec<_> = rc.iter().filter(|(_, a)| a.t > 3.0).collect();
    eprintln!(
        "jersey cw: {} rcontrol() without loss, {} after 3 s",
        rc.len(),
        steady.len()
    );
    assert!(steady.len() >= 10, "{rc:?}");
    let mut worst = 0.0_f64;
    for (b, a) in &steady {
        // ABE's time window is one RTT; the ACK rate over the last 0.5 s (3 RTTs) is its mean.
        let ownd = m.ack_rate(a.t - 0.5, a.t) * rtt_min;
        worst = worst.max((a.ssthresh as f64 / ownd - 1.0).abs());
        assert!(
            (a.ssthresh as f64 / ownd - 1.0).abs() <= 0.1,
            "{a:?} {ownd}"
        );
        assert!(a.cwnd <= a.ssthresh + MSS, "{b:?} {a:?}");
    }
    let (b, a) = steady[0];
    eprintln!("  e.g. at {:.3}: ssthresh {} -> {}, cwnd {} -> {}, ACK rate x RTT_min {:.0}; largest deviation {worst:.3}", a.t, b.ssthresh, a.ssthresh, b.cwnd, a.cwnd, m.ack_rate(a.t - 0.5, a.t) * rtt_min);
    assert!(rcontrols(&marked(None)).is_empty());

    let keep = isolated("wan", "e2e-jersey", &[("tcp.jersey_unmarked_loss", "keep")]);
    let frs = keep.fast_retransmits();
    assert_eq!(frs.len(), 3);
    for f in &frs {
        eprintln!(
            "jersey keep {:.3}: ssthresh {} -> {}, cwnd {} -> {}",
            f.t, f.before.ssthresh, f.after.ssthresh, f.before.cwnd, f.after.cwnd
        );
        assert_eq!(f.after.ssthresh, f.before.ssthresh, "{f:?}");
        assert!(f.after.cwnd >= f.before.cwnd, "{f:?}");
    }

    let r = isolated("wan", "e2e-jersey", &[]);
    let rtt_min = r
        .ack_rtts()
        .iter()
        .map(|x| x.1)
        .fold(f64::INFINITY, f64::min);
    for f in r.fast_retransmits() {
        let srtt = r.mean_rtt(f.t - 2.0, f.t);
        let mut prev = r.reached(f.seq);
        let mut decay = 1.0;
        for d in r.dupacks_before(f.seq, f.t + 1e-9) {
            decay *= srtt / (d.t - prev + srtt);
            prev = d.t;
        }
        let ownd = r.ack_rate(f.t - 2.05, f.t - 0.05) * rtt_min * decay;
        eprintln!(
            "jersey ownd {:.3}: ssthresh {} against ABE x RTT_min {ownd:.0} (decay {decay:.3})",
            f.t, f.after.ssthresh
        );
        assert!(
            (f.after.ssthresh as f64 / ownd - 1.0).abs() <= 0.1,
            "{f:?} {ownd}"
        );
    }
}

/// Veno on a path with no queue at all: `wan` with a 16 KiB window (11 segments, below the
/// 17-segment bandwidth-delay product), two isolated wireless losses. Every RTT sample of the
/// estimator after slow start is the propagation RTT or one frame time more (at most one
/// packet queued), so by the paper's definition (N is the backlog in the network, β = 3) both
/// losses are random: ssthresh = 4/5·cwnd.
#[test]
#[ignore = "Veno misjudges the first loss on this queue-free, receiver-limited path: its N \
            uses the latest delivery-rate RTT (that of the ACK just before the hole, 157.9 ms \
            against a 133.6 ms base) and a cwnd grown to 65535 past the 15400-byte flight, so \
            N = 7.2 (1.7 from the flight) and it halves (ssthresh 7700 = flight/2); Linux \
            neither grows cwnd nor computes N while not cwnd-limited (tcp_is_cwnd_limited), \
            so its N would come from a window near the flight. Fixing it changes the golden \
            row veno-wan"]
fn veno_takes_every_loss_on_a_queue_free_path_for_random() {
    let r = traced(&lossy(
        "wan",
        "e2e-veno",
        &[300, 900],
        &[("transfer", "2MiB"), ("buffer", "16KiB")],
    ));
    let base = r.min_rtt(f64::INFINITY);
    let late: Vec<f64> = r
        .rtt
        .iter()
        .filter(|x| x.t > 2.0)
        .map(|x| x.rtt - base)
        .collect();
    // At most one packet queued: the second of a pair sent on one ACK waits one 1448-byte
    // frame time (8.1 ms) at the 1430 kb/s hop.
    let frame = 1448.0 * 8.0 / 1_430_000.0;
    assert!(late.iter().all(|x| *x <= frame + 1e-4), "{late:?}");
    let frs = r.fast_retransmits();
    assert_eq!(frs.len(), 2);
    for f in frs {
        assert_eq!(
            f.after.ssthresh,
            (f.before.cwnd / 5 * 4).max(2 * MSS),
            "{f:?}"
        );
    }
}
