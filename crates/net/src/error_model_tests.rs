//! Unit tests of the channel error models (rates, bursts, traces, explicit frame times).

use super::*;
use proptest::prelude::*;

fn rate(cfg: ErrorModelConfig, bits: u64, frames: u32, seed: u64) -> f64 {
    let mut m = ErrorModel::new(cfg, RngStream::new(seed, "test/errors"));
    (0..frames).filter(|_| m.frame(bits)).count() as f64 / f64::from(frames)
}

#[test]
fn paper_packet_error_rate_at_one_error_per_64_kib() {
    // Balakrishnan97 §3.5: 1476 exposed bytes at one error per 65536 bytes → about 2.2%.
    let cfg = ErrorModelConfig::Exponential {
        mean_gap_bits: 65536.0 * 8.0,
    };
    let expected = ErrorModel::frame_error_probability(&cfg, 1476 * 8);
    assert!((expected - 0.0223).abs() < 0.0005, "{expected}");
    let got = rate(cfg, 1476 * 8, 400_000, 1);
    assert!(
        (got - expected).abs() < 0.0015,
        "got {got}, expected {expected}"
    );
}

#[test]
fn none_never_corrupts_and_bernoulli_extremes() {
    assert_eq!(rate(ErrorModelConfig::None, 12000, 1000, 1), 0.0);
    assert_eq!(
        rate(ErrorModelConfig::Bernoulli { p: 0.0 }, 12000, 1000, 1),
        0.0
    );
    assert_eq!(
        rate(ErrorModelConfig::Bernoulli { p: 1.0 }, 12000, 1000, 1),
        1.0
    );
}

#[test]
fn bursts_corrupt_runs_of_exactly_k_frames_at_the_mean_rate() {
    for k in [2u32, 4, 6] {
        let cfg = ErrorModelConfig::Burst {
            mean_gap_bits: 65536.0 * 8.0,
            length: k,
            spacing: BurstSpacing::Exponential,
        };
        let mut m = ErrorModel::new(cfg.clone(), RngStream::new(7, "test/burst"));
        let hits: Vec<bool> = (0..200_000).map(|_| m.frame(1476 * 8)).collect();
        // Every run of corrupted frames is a multiple of k long (back-to-back bursts merge).
        let mut run = 0u32;
        for &h in hits.iter().chain([false].iter()) {
            if h {
                run += 1;
            } else {
                assert_eq!(run % k, 0, "k = {k}");
                run = 0;
            }
        }
        let rate = hits.iter().filter(|&&h| h).count() as f64 / hits.len() as f64;
        let want = ErrorModel::frame_error_probability(&cfg, 1476 * 8);
        assert!(
            (rate - want).abs() < 0.1 * want,
            "k = {k}: {rate} vs {want}"
        );
    }
}

#[test]
fn fixed_spacing_starts_a_burst_exactly_every_gap() {
    // 64 KiB between burst starts, 1476-byte frames: 44.4 frames apart, so consecutive
    // starts are 44 or 45 frames apart, never anything else (Balakrishnan97 spec §B.3).
    for k in [2u32, 4] {
        let cfg = ErrorModelConfig::Burst {
            mean_gap_bits: 65536.0 * 8.0,
            length: k,
            spacing: BurstSpacing::Fixed,
        };
        let mut m = ErrorModel::new(cfg.clone(), RngStream::new(7, "test/burst"));
        let hits: Vec<bool> = (0..20_000).map(|_| m.frame(1476 * 8)).collect();
        let starts: Vec<usize> = (0..hits.len())
            .filter(|&i| hits[i] && (i == 0 || !hits[i - 1]))
            .collect();
        assert!(starts[0] < 45, "phase within one gap: {}", starts[0]);
        for w in starts.windows(2) {
            assert!(matches!(w[1] - w[0], 44 | 45), "k = {k}: {:?}", w);
        }
        let rate = hits.iter().filter(|&&h| h).count() as f64 / hits.len() as f64;
        let want = ErrorModel::frame_error_probability(&cfg, 1476 * 8);
        assert!(
            (rate - want).abs() < 0.02 * want,
            "k = {k}: {rate} vs {want}"
        );
        // Another seed: another phase, the same spacing.
        let mut m2 = ErrorModel::new(cfg, RngStream::new(8, "test/burst"));
        let first2 = (0..45).position(|_| m2.frame(1476 * 8));
        assert!(first2.is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn exponential_long_run_rate_matches_closed_form(
        every_bytes in 2_000u32..300_000, frame_bytes in 40u32..1600, seed in any::<u64>()
    ) {
        let cfg = ErrorModelConfig::Exponential { mean_gap_bits: f64::from(every_bytes) * 8.0 };
        let bits = u64::from(frame_bytes) * 8;
        let p = ErrorModel::frame_error_probability(&cfg, bits);
        let n = 60_000u32;
        let got = rate(cfg, bits, n, seed);
        // 5 standard errors of a binomial proportion, plus discretisation slack.
        let tol = 5.0 * (p * (1.0 - p) / f64::from(n)).sqrt() + 1e-4;
        prop_assert!((got - p).abs() <= tol, "got {} expected {} tol {}", got, p, tol);
    }

    #[test]
    fn bernoulli_long_run_rate_matches_p(p in 0.0f64..0.5, seed in any::<u64>()) {
        let n = 40_000u32;
        let got = rate(ErrorModelConfig::Bernoulli { p }, 100, n, seed);
        let tol = 5.0 * (p * (1.0 - p) / f64::from(n)).sqrt() + 1e-4;
        prop_assert!((got - p).abs() <= tol);
    }
}

#[test]
fn a_slotted_gilbert_chain_steps_through_idle_time() {
    let ErrorModelConfig::Gilbert { p_gb, p_bb, .. } =
        ErrorModelConfig::gilbert_from_rate(0.1, 13.6708)
    else {
        unreachable!()
    };
    let cfg = |slot| ErrorModelConfig::Gilbert {
        p_gb,
        p_bb,
        loss_good: 0.0,
        loss_bad: 1.0,
        slot,
    };
    let slot = SimDuration::from_millis(4);
    // A frame every slot: the per-slot chain is the per-frame chain (rate 0.1, bursts of
    // 13.7 frames).
    let mut m = ErrorModel::new(cfg(Some(slot)), RngStream::new(8, "t/gs"));
    let n = 400_000u64;
    let (mut lost, mut bursts, mut prev) = (0u64, 0u64, false);
    for k in 1..=n {
        let l = m.frame_at(SimTime(k * slot.as_nanos()), SimDuration(1000), 8000);
        lost += u64::from(l);
        bursts += u64::from(l && !prev);
        prev = l;
    }
    let rate = lost as f64 / n as f64;
    let burst = lost as f64 / bursts as f64;
    assert!((rate - 0.1).abs() < 0.01, "{rate}");
    assert!((burst - 13.6708).abs() < 1.0, "{burst}");
    // After a loss, a frame 1000 slots (4 s) later meets the stationary law, not the Bad
    // state: per frame it would be lost with p_bb = 0.927.
    let mut later = 0u64;
    let mut tries = 0u64;
    let mut m = ErrorModel::new(cfg(Some(slot)), RngStream::new(9, "t/gs2"));
    let mut t = 0u64;
    while tries < 20_000 {
        t += 1;
        if m.frame_at(SimTime(t * slot.as_nanos()), SimDuration(1000), 8000) {
            t += 1000;
            later += u64::from(m.frame_at(SimTime(t * slot.as_nanos()), SimDuration(1000), 8000));
            tries += 1;
        }
    }
    let p = later as f64 / tries as f64;
    assert!((p - 0.1).abs() < 0.015, "{p}");
}

#[test]
fn gilbert_matches_its_rate_and_mean_burst_length() {
    // Buchholcz et al. Table 1, model 2: ε = 0.01, B = 4.0701.
    let cfg = ErrorModelConfig::gilbert_from_rate(0.01, 4.0701);
    let mut m = ErrorModel::new(cfg.clone(), RngStream::new(5, "test/gilbert"));
    let n = 2_000_000;
    let lost: Vec<bool> = (0..n).map(|_| m.frame(8000)).collect();
    let rate = lost.iter().filter(|&&l| l).count() as f64 / n as f64;
    let mut bursts = Vec::new();
    let mut run = 0u32;
    for &l in &lost {
        if l {
            run += 1;
        } else if run > 0 {
            bursts.push(run);
            run = 0;
        }
    }
    let mean = f64::from(bursts.iter().sum::<u32>()) / bursts.len() as f64;
    // About 4900 bursts: the rate is within 5 % and the mean burst within 5 % (its
    // standard error is sqrt(B(B-1))/sqrt(4900) = 0.05, 1.2 %).
    assert!((rate - 0.01).abs() < 0.0005, "{rate}");
    assert!((mean - 4.0701).abs() < 0.2, "{mean}");
    assert!((ErrorModel::frame_error_probability(&cfg, 1) - 0.01).abs() < 1e-12);
}

#[test]
fn fer_is_scaled_by_frame_length() {
    // FER 9 % at 8544 bits (spec §5.4.3): ACK frames of 68 bytes 0.60 %, MAC ACKs of 14
    // bytes 0.12 %.
    let cfg = ErrorModelConfig::Fer {
        fer: 0.09,
        reference_bits: 8544,
    };
    let p = |bits| ErrorModel::frame_error_probability(&cfg, bits);
    assert!((p(8544) - 0.09).abs() < 1e-12);
    assert!((p(68 * 8) - 0.0060).abs() < 0.0001, "{}", p(68 * 8));
    assert!((p(14 * 8) - 0.0012).abs() < 0.0001, "{}", p(14 * 8));
    for bits in [8544, 544] {
        let r = rate(cfg.clone(), bits, 400_000, 9);
        assert!(
            (r - p(bits)).abs() < 4.0 * (p(bits) / 400_000.0).sqrt(),
            "{bits}: {r}"
        );
    }
}

#[test]
fn a_frame_trace_loses_exactly_its_erased_entries_and_loops() {
    let cfg = ErrorModelConfig::Trace {
        erased: vec![false, true, false, true, true].into(),
        slot: None,
        looped: true,
    };
    let mut m = ErrorModel::new(cfg.clone(), RngStream::new(1, "t"));
    let got: Vec<bool> = (0..7).map(|_| m.frame(8000)).collect();
    assert_eq!(got, [false, true, false, true, true, false, true]);
    let ErrorModelConfig::Trace { erased, slot, .. } = cfg else {
        unreachable!()
    };
    let mut once = ErrorModel::new(
        ErrorModelConfig::Trace {
            erased,
            slot,
            looped: false,
        },
        RngStream::new(1, "t"),
    );
    let got: Vec<bool> = (0..7).map(|_| once.frame(8000)).collect();
    assert_eq!(got, [false, true, false, true, true, false, false]);
}

#[test]
fn a_slot_trace_loses_frames_that_overlap_an_erased_slot() {
    // 20 ms slots: slot 1 (20-40 ms) erased.
    let mut m = ErrorModel::new(
        ErrorModelConfig::Trace {
            erased: vec![false, true, false].into(),
            slot: Some(SimDuration::from_millis(20)),
            looped: false,
        },
        RngStream::new(1, "t"),
    );
    let ms = SimDuration::from_millis;
    let at = |t: u64| SimTime::ZERO + ms(t);
    assert!(!m.frame_at(at(0), ms(20), 8000)); // 0-20 ms exactly: slot 0 only
    assert!(m.frame_at(at(15), ms(6), 8000)); // 15-21 ms reaches slot 1
    assert!(m.frame_at(at(39), ms(1), 8000)); // inside slot 1
    assert!(!m.frame_at(at(40), ms(19), 8000)); // slot 2
    assert!(!m.frame_at(at(100), ms(5), 8000)); // past the end, not looping
}

/// TCP-ELN's HACK identification (eln-llelsn spec §3.2): the chance that a corrupted frame's
/// header was hit is 1 − (1 − BER)^H given the frame was hit, at the BER that gives the frame
/// its error probability.
#[test]
fn header_hit_probability_follows_the_bit_error_rate() {
    let (l, h) = (1040 * 8, 40 * 8);
    let share = h as f64 / l as f64;
    // Bernoulli p = 0.05: (1 − 0.95^(H/L)) / 0.05, a little above H/L.
    let q = ErrorModel::header_hit_probability(&ErrorModelConfig::Bernoulli { p: 0.05 }, l, h);
    let want = (1.0 - 0.95f64.powf(share)) / 0.05;
    assert!((q - want).abs() < 1e-12 && q > share && q < 0.04, "{q}");
    // Rare errors: one errored bit, anywhere in the frame.
    let q = ErrorModel::header_hit_probability(&ErrorModelConfig::Bernoulli { p: 1e-9 }, l, h);
    assert!((q - share).abs() < 1e-6, "{q}");
    assert_eq!(
        ErrorModel::header_hit_probability(&ErrorModelConfig::None, l, h),
        share
    );
    // Exponential bit errors: exact, (1 − e^(−H/g)) / (1 − e^(−L/g)).
    let g = 20_000.0;
    let q = ErrorModel::header_hit_probability(
        &ErrorModelConfig::Exponential { mean_gap_bits: g },
        l,
        h,
    );
    let want = (1.0 - (-(h as f64) / g).exp()) / (1.0 - (-(l as f64) / g).exp());
    assert!((q - want).abs() < 1e-12, "{q} vs {want}");
    // A Gilbert chain: its mean error rate.
    let q =
        ErrorModel::header_hit_probability(&ErrorModelConfig::gilbert_from_rate(0.1, 13.67), l, h);
    let want = (1.0 - 0.9f64.powf(share)) / 0.1;
    assert!((q - want).abs() < 1e-9, "{q} vs {want}");
    // Every frame lost: every header hit; no header exposed: none.
    let all = ErrorModelConfig::Bernoulli { p: 1.0 };
    assert_eq!(ErrorModel::header_hit_probability(&all, l, h), 1.0);
    assert_eq!(ErrorModel::header_hit_probability(&all, l, 0), 0.0);
}
