#![allow(clippy::unwrap_used)]

use super::super::phy::{Gi, Mode, Width};
use super::*;

fn ht(mcs: u8) -> Mode {
    Mode::Ht {
        mcs,
        nss: 1,
        width: Width::W20,
        gi: Gi::Long,
    }
}

fn vht(mcs: u8) -> Mode {
    Mode::Vht {
        mcs,
        nss: 1,
        width: Width::W20,
        gi: Gi::Long,
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

/// Step 1 at the points where each modulation's erfc argument is 1: ½ erfc(1) = 0.0786496…
/// (erfc(1) = 0.1572992…, Abramowitz & Stegun Table 7.1), scaled by the QAM factors.
#[test]
fn uncoded_ber_by_hand() {
    let h = 0.5 * 0.157_299_207_050_285_1;
    assert!(close(uncoded_ber(1, 1.0), h, 1e-12));
    assert!(close(uncoded_ber(2, 2.0), h, 1e-12));
    assert!(close(uncoded_ber(4, 10.0), 0.75 * h, 1e-12));
    assert!(close(uncoded_ber(6, 42.0), 7.0 / 12.0 * h, 1e-12));
    assert!(close(uncoded_ber(8, 170.0), 15.0 / 32.0 * h, 1e-12));
}

/// Step 2 by hand: at p = 10⁻³, D = √(4p(1 − p)) = 0.0632139…; rate 1/2:
/// ½ (36 D¹⁰ + 211 D¹² + …) = 1.8781e-11 (the first term alone 1.8340e-11); rate 3/4:
/// (42 D⁵ + 201 D⁶ + …) / 6 = 1.0922e-5; rate 2/3 at p = 10⁻²: 1.2311e-3.
#[test]
fn coded_pe_by_hand() {
    let d = (4.0f64 * 1e-3 * (1.0 - 1e-3)).sqrt();
    assert!(close(0.5 * 36.0 * d.powi(10), 1.8340e-11, 1e-3));
    assert!(close(
        coded_pe(1e-3, (1, 2)).unwrap(),
        1.878_137_6e-11,
        1e-6
    ));
    assert!(close(coded_pe(1e-3, (3, 4)).unwrap(), 1.092_226_7e-5, 1e-6));
    assert!(close(coded_pe(1e-2, (2, 3)).unwrap(), 1.231_120_4e-3, 1e-6));
    assert!(close(coded_pe(1e-3, (5, 6)).unwrap(), 3.340_977_5e-4, 1e-6));
    assert_eq!(coded_pe(0.4, (1, 2)), Some(1.0));
    assert_eq!(coded_pe(1e-3, (7, 8)), None);
}

/// The frame error rate falls as the SNR rises, for MCS 0 and MCS 7 (1500-octet MPDU), from
/// certain loss to none.
#[test]
fn per_is_monotone_in_snr() {
    for mcs in [0, 7] {
        let mut last = 1.0;
        for tenth in 0..=400 {
            let snr = f64::from(tenth) / 10.0;
            let p = frame_error(&ht(mcs), snr, 12_000).unwrap();
            assert!(p <= last, "MCS {mcs} at {snr} dB: {p} after {last}");
            last = p;
        }
        assert!(frame_error(&ht(mcs), -5.0, 12_000).unwrap() > 0.999);
        assert!(frame_error(&ht(mcs), 40.0, 12_000).unwrap() < 1e-9);
    }
}

/// Longer frames fail more often at the same SNR: (1 − P_e)^n.
#[test]
fn per_grows_with_length() {
    let a = frame_error(&ht(7), 24.0, 8 * 100).unwrap();
    let b = frame_error(&ht(7), 24.0, 8 * 1500).unwrap();
    assert!(a < b);
    // Step 3 exactly: 1 − (1 − a)^15 for 15 times the bits.
    assert!(close(b, 1.0 - (1.0 - a).powi(15), 1e-9));
}

/// The SNR of 10 % PER for a 1500-octet MPDU rises with the MCS (VHT 0-9), and the values are
/// the model's (computed by hand from steps 1-3: 3.96, 6.97, 9.87, 13.51, 16.61, 21.36,
/// 22.62, 23.79, 28.49, 29.70 dB).
#[test]
fn ten_percent_thresholds_rise_with_mcs() {
    let want = [
        3.96, 6.97, 9.87, 13.51, 16.61, 21.36, 22.62, 23.79, 28.49, 29.70,
    ];
    let mut last = f64::NEG_INFINITY;
    for (mcs, w) in want.iter().enumerate() {
        let t = snr_for(&vht(mcs as u8), 0.1, 12_000).unwrap();
        assert!(t > last, "MCS {mcs}: {t} dB after {last}");
        assert!((t - w).abs() < 0.02, "MCS {mcs}: {t} dB, want {w}");
        last = t;
    }
}

/// 802.11a's modes are the same modulations: 6 Mb/s is BPSK 1/2 like MCS 0, 54 Mb/s is
/// 64-QAM 3/4 like MCS 6; DSSS has no OFDM model.
#[test]
fn ofdm_rates_map_to_their_modulation() {
    let six = Mode::ofdm(6, false).unwrap();
    let fifty_four = Mode::ofdm(54, false).unwrap();
    assert_eq!(frame_error(&six, 5.0, 8000), frame_error(&ht(0), 5.0, 8000));
    assert_eq!(
        frame_error(&fifty_four, 22.0, 8000),
        frame_error(&ht(6), 22.0, 8000)
    );
    let b = Mode::Dsss {
        rate_bps: 11_000_000,
        plcp: engine::SimDuration::from_micros(192),
    };
    assert_eq!(frame_error(&b, 30.0, 8000), None);
}
