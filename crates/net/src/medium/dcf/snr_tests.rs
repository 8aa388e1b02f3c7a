#![allow(clippy::unwrap_used)]

use super::super::phy::{Gi, Standard, Width};
use super::*;

fn vht_modes() -> Vec<Mode> {
    Standard::Ac.modes(Width::W40, Gi::Long, 1, false)
}

fn wlan(snr: SnrSource, rc: RateControl) -> Wlan {
    Wlan::new(
        WlanConfig {
            snr,
            shadowing_db: 0.0,
            rate_control: rc,
            modes: vht_modes(),
            antennas: 1,
        },
        RngStream::new(1, "test/errors"),
    )
}

fn mcs(m: Option<Mode>) -> Option<u8> {
    match m? {
        Mode::Vht { mcs, .. } => Some(mcs),
        _ => None,
    }
}

/// A trace is a step function: before its first entry the first value, then each entry's from
/// its time on.
#[test]
fn a_trace_steps_at_its_times() {
    let t: Arc<[(SimTime, f64)]> =
        vec![(SimTime(10_000_000), 30.0), (SimTime(1_000_000_000), 10.0)].into();
    let mut w = wlan(SnrSource::Trace(t), RateControl::Fixed);
    assert_eq!(w.snr_db(SimTime::ZERO), 30.0);
    assert_eq!(w.snr_db(SimTime(999_000_000)), 30.0);
    assert_eq!(w.snr_db(SimTime(1_000_000_000)), 10.0);
    assert_eq!(w.snr_db(SimTime(5_000_000_000)), 10.0);
}

/// Shadowing shifts the SNR by σ·z dB of loss.
#[test]
fn shadowing_is_a_fixed_offset() {
    let mut w = Wlan::new(
        WlanConfig {
            snr: SnrSource::Fixed(20.0),
            shadowing_db: 4.0,
            rate_control: RateControl::Fixed,
            modes: Vec::new(),
            antennas: 1,
        },
        RngStream::new(1, "x"),
    );
    w.shadow(0.5);
    assert_eq!(w.snr_db(SimTime::ZERO), 18.0);
}

/// Ideal picks the highest MCS whose 1500-octet PER is below 10 %: the 10 % thresholds are
/// 9.87 dB (MCS 2), 23.79 (MCS 7), 29.70 (MCS 9) (crate::medium::dcf::nist's tests); below
/// MCS 0's it keeps MCS 0. A fixed rate picks nothing.
#[test]
fn ideal_picks_the_highest_mcs_under_the_threshold() {
    let ideal = RateControl::Ideal { per: 0.1 };
    for (snr, want) in [
        (9.8, 1),
        (9.9, 2),
        (23.7, 6),
        (23.8, 7),
        (29.8, 9),
        (45.0, 9),
        (-3.0, 0),
    ] {
        let mut w = wlan(SnrSource::Fixed(snr), ideal);
        assert_eq!(mcs(w.pick(SimTime::ZERO, 1500, 0)), Some(want), "{snr} dB");
    }
    // Shorter frames clear a threshold sooner: a 40-octet frame goes at MCS 7 at 22 dB.
    let mut w = wlan(SnrSource::Fixed(22.0), ideal);
    assert_eq!(mcs(w.pick(SimTime::ZERO, 1500, 0)), Some(5));
    assert!(mcs(w.pick(SimTime::ZERO, 40, 0)).unwrap() >= 6);
    let mut w = wlan(SnrSource::Fixed(22.0), RateControl::Fixed);
    assert_eq!(w.pick(SimTime::ZERO, 1500, 0), None);
}

/// The draws follow the model: MCS 7 at 40 dB never fails, at 10 dB always; about the model's
/// PER in between (24 dB, 1500 octets: 5.2 %, 4000 frames: within 4 standard deviations).
/// Data frames are counted by MCS.
#[test]
fn frame_errors_follow_the_models_rate() {
    let m7 = vht_modes()[7];
    let count = |snr: f64, n: u32| {
        let mut w = wlan(SnrSource::Fixed(snr), RateControl::Fixed);
        let bad = (0..n)
            .filter(|_| w.corrupts(SimTime::ZERO, Some(&m7), 12_000, true))
            .count();
        assert_eq!(w.sent[7], u64::from(n));
        bad as f64
    };
    assert_eq!(count(40.0, 1000), 0.0);
    assert_eq!(count(10.0, 1000), 1000.0);
    let p = nist::frame_error(&m7, 24.0, 12_000).unwrap();
    assert!(p > 0.03 && p < 0.08, "{p}");
    let n = 4000.0;
    let got = count(24.0, 4000);
    assert!(
        (got - n * p).abs() < 4.0 * (n * p * (1.0 - p)).sqrt(),
        "{got} vs {}",
        n * p
    );
    // A MAC ACK is not a data frame.
    let mut w = wlan(SnrSource::Fixed(40.0), RateControl::Fixed);
    w.corrupts(SimTime::ZERO, Some(&m7), 112, false);
    assert_eq!(w.sent, [0; MODE_SLOTS]);
}

fn ht40_two_streams() -> Vec<Mode> {
    (1..=2)
        .flat_map(|k| Standard::N.modes(Width::W40, Gi::Long, k, false))
        .collect()
}

/// ns-3's `CalculateSnr`: a frame of fewer streams than the receiver's antennas gains
/// 10 log₁₀(antennas / nss) dB, so in a cell of two streams MCS 0-7 (and a non-HT control
/// response) see 3.01 dB more than MCS 8-15; one antenna, no change.
#[test]
fn fewer_streams_than_antennas_gain_the_ratio() {
    let m = ht40_two_streams();
    let (mcs0, mcs8) = (m[0], m[8]);
    assert!((stream_snr_db(10.0, &mcs0, 2) - 13.0103).abs() < 1e-4);
    assert_eq!(stream_snr_db(10.0, &mcs8, 2), 10.0);
    assert_eq!(stream_snr_db(10.0, &mcs0, 1), 10.0);
    let six = Mode::ofdm(6, false).unwrap();
    assert!((stream_snr_db(10.0, &six, 4) - 16.0206).abs() < 1e-4);
}

/// Ideal in an HT40 cell of two streams: at 2 dB the one-stream MCS 0 (5 dB per stream) is
/// the only mode under 10 % PER; at 5 dB the one-stream MCS 1 and the two-stream MCS 8 both
/// carry 27 Mb/s and the one with fewer streams is chosen; at 30 dB MCS 15.
#[test]
fn ideal_chooses_across_stream_counts() {
    let pick = |snr: f64| {
        let mut w = Wlan::new(
            WlanConfig {
                snr: SnrSource::Fixed(snr),
                shadowing_db: 0.0,
                rate_control: RateControl::Ideal { per: 0.1 },
                modes: ht40_two_streams(),
                antennas: 2,
            },
            RngStream::new(1, "x"),
        );
        match w.pick(SimTime::ZERO, 1500, 0) {
            Some(Mode::Ht { mcs, nss, .. }) => 8 * (nss - 1) + mcs,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(pick(2.0), 0);
    assert!(nist::frame_error(&ht40_two_streams()[8], 2.0, 12_000).unwrap() > 0.1);
    assert_eq!(pick(5.0), 1);
    assert_eq!(pick(30.0), 15);
}
