//! The PHY tables against worked numbers of IEEE 802.11-2016 (rates of Tables 17-4, 19-27 ff.,
//! 21-30 ff.; durations by the TXTIME equations, computed by hand here).

use super::*;

fn us_(n: u64) -> SimDuration {
    SimDuration::from_micros(n)
}

#[test]
fn ofdm_txtime_follows_eq_17_29() {
    let m54 = Mode::ofdm(54, false).unwrap();
    let m6 = Mode::ofdm(6, false).unwrap();
    // 1500 bytes at 54 Mb/s: ⌈(16 + 12000 + 6) / 216⌉ = 56 symbols, 20 + 224 µs.
    assert_eq!(m54.txtime(1500), us_(244));
    // At 6 Mb/s: ⌈12022 / 24⌉ = 501 symbols.
    assert_eq!(m6.txtime(1500), us_(20 + 4 * 501));
    // The 14-byte ACK: 6 Mb/s ⌈134 / 24⌉ = 6 symbols (44 µs), 24 Mb/s 2 symbols (28 µs).
    assert_eq!(m6.txtime(14), us_(44));
    assert_eq!(Mode::ofdm(24, false).unwrap().txtime(14), us_(28));
    assert_eq!(m54.rate_bps(), 54_000_000);
    // ERP-OFDM adds the 6 µs signal extension to data and ACK alike.
    let g54 = Mode::ofdm(54, true).unwrap();
    assert_eq!(g54.txtime(1500), us_(250));
    assert_eq!(g54.ack_time(0), us_(34));
}

#[test]
fn control_responses_take_the_highest_basic_rate_not_above_the_data_rate() {
    // §10.6.6.5.2 with the basic set {6, 12, 24}.
    for (data, ack) in [
        (6, 6),
        (9, 6),
        (12, 12),
        (18, 12),
        (24, 24),
        (36, 24),
        (48, 24),
        (54, 24),
    ] {
        let m = Mode::ofdm(data, false).unwrap();
        assert_eq!(m.response(0), Mode::ofdm(ack, false).unwrap(), "{data}");
    }
    // HT: by the non-HT reference rate (Table 10-7): MCS 0 → 6, MCS 2 (QPSK 3/4, 18) → 12,
    // MCS 7 (64-QAM 5/6, 54) → 24.
    let ht = |mcs| Mode::Ht {
        mcs,
        nss: 2,
        width: Width::W40,
        gi: Gi::Short,
    };
    assert_eq!(ht(0).ack_time(0), us_(44));
    assert_eq!(ht(2).ack_time(0), us_(20 + 4 * 3));
    assert_eq!(ht(7).ack_time(0), us_(28));
    // DSSS: the cell's basic rate (today's 802.11b ACK, 192 + 112 µs at 1 Mb/s), or by rate.
    let b11 = Mode::Dsss {
        rate_bps: 11_000_000,
        plcp: us_(192),
    };
    assert_eq!(b11.ack_time(1_000_000), us_(304));
    assert_eq!(b11.ack_time(0), us_(192 + 56));
}

#[test]
fn ht_rates_and_durations_follow_clause_19() {
    let ht = |mcs, nss, width, gi| Mode::Ht {
        mcs,
        nss,
        width,
        gi,
    };
    // Table 19-27: MCS 7, 20 MHz: 65 / 72.2 Mb/s; Table 19-31 (40 MHz, 2 streams) MCS 15:
    // 270 / 300 Mb/s; MCS 31 (40 MHz, 4 streams, short GI): 600 Mb/s.
    assert_eq!(ht(7, 1, Width::W20, Gi::Long).rate_bps(), 65_000_000);
    assert_eq!(
        rate_name(ht(7, 1, Width::W20, Gi::Short).rate_bps()),
        "72.2Mbps"
    );
    assert_eq!(ht(7, 2, Width::W40, Gi::Long).rate_bps(), 270_000_000);
    assert_eq!(ht(7, 2, Width::W40, Gi::Short).rate_bps(), 300_000_000);
    assert_eq!(ht(7, 4, Width::W40, Gi::Short).rate_bps(), 600_000_000);
    // N_ES: one encoder up to MCS 15's 300 Mb/s, two for MCS 31 (Tables 19-31, 19-41).
    assert_eq!(ht(7, 2, Width::W40, Gi::Short).n_es(), 1);
    assert_eq!(ht(7, 4, Width::W40, Gi::Short).n_es(), 2);
    // 1500 bytes at MCS 7, 20 MHz, one stream: ⌈12022 / 260⌉ = 47 symbols; preamble
    // 16 + 4 + 8 + 4 + 4 = 36 µs; long GI 188 µs, short GI ⌈47 · 3.6 / 4⌉ · 4 = 172 µs.
    assert_eq!(ht(7, 1, Width::W20, Gi::Long).txtime(1500), us_(36 + 188));
    assert_eq!(ht(7, 1, Width::W20, Gi::Short).txtime(1500), us_(36 + 172));
    // Three and four streams train with four HT-LTFs (Table 19-13).
    assert_eq!(ht(0, 2, Width::W20, Gi::Long).preamble(), us_(40));
    assert_eq!(ht(0, 3, Width::W20, Gi::Long).preamble(), us_(48));
    assert_eq!(ht(0, 4, Width::W20, Gi::Long).preamble(), us_(48));
    assert!(!ht(0, 1, Width::W80, Gi::Long).is_valid());
    assert!(!ht(8, 1, Width::W20, Gi::Long).is_valid());
    assert_eq!(
        Standard::N
            .modes(Width::W20, Gi::Long, 1, false)
            .iter()
            .map(|m| rate_name(m.rate_bps()))
            .collect::<Vec<_>>(),
        ["6.5Mbps", "13Mbps", "19.5Mbps", "26Mbps", "39Mbps", "52Mbps", "58.5Mbps", "65Mbps"]
    );
}

#[test]
fn vht_rates_validity_and_durations_follow_clause_21() {
    let vht = |mcs, nss, width, gi| Mode::Vht {
        mcs,
        nss,
        width,
        gi,
    };
    // Table 21-30 ff.: 20 MHz MCS 8: 78 Mb/s; 80 MHz MCS 9: 390 / 433.3 Mb/s per stream;
    // two streams 866.7 Mb/s with two encoders.
    assert_eq!(vht(8, 1, Width::W20, Gi::Long).rate_bps(), 78_000_000);
    assert_eq!(vht(9, 1, Width::W80, Gi::Long).rate_bps(), 390_000_000);
    assert_eq!(
        rate_name(vht(9, 1, Width::W80, Gi::Short).rate_bps()),
        "433.3Mbps"
    );
    assert_eq!(
        rate_name(vht(9, 2, Width::W80, Gi::Short).rate_bps()),
        "866.7Mbps"
    );
    assert_eq!(vht(9, 2, Width::W80, Gi::Short).n_es(), 2);
    // §21.5's exclusions: 20 MHz MCS 9 except with three streams; 80 MHz MCS 6, 3 streams.
    for nss in [1, 2, 4] {
        assert!(!vht(9, nss, Width::W20, Gi::Long).is_valid(), "{nss}");
    }
    assert!(vht(9, 3, Width::W20, Gi::Long).is_valid());
    assert!(!vht(6, 3, Width::W80, Gi::Long).is_valid());
    assert!(vht(6, 2, Width::W80, Gi::Long).is_valid());
    assert_eq!(
        Standard::Ac.modes(Width::W80, Gi::Long, 3, false).len(),
        9,
        "MCS 6 left out"
    );
    // Preamble: 16 + 4 + 8 + 4 + 4 (SIG-B) + 4 per VHT-LTF.
    assert_eq!(vht(0, 1, Width::W80, Gi::Long).preamble(), us_(40));
    // 1500 bytes at 80 MHz MCS 9, one stream, long GI: ⌈12022 / 1560⌉ = 8 symbols.
    assert_eq!(vht(9, 1, Width::W80, Gi::Long).txtime(1500), us_(40 + 32));
}

#[test]
fn dsss_keeps_todays_airtime_and_rates_are_checked_by_name() {
    let m = Mode::Dsss {
        rate_bps: 11_000_000,
        plcp: us_(192),
    };
    assert_eq!(
        m.txtime(1064),
        us_(192) + SimDuration::for_bits(1064 * 8, 11_000_000)
    );
    let opts = (Width::W20, Gi::Long, 1, false);
    assert_eq!(
        Standard::A.mode_of_rate(54_000_000, opts),
        Ok(Mode::ofdm(54, false).unwrap())
    );
    assert_eq!(
        Standard::A
            .mode_of_rate(11_000_000, opts)
            .unwrap_err()
            .join(", "),
        "6Mbps, 9Mbps, 12Mbps, 18Mbps, 24Mbps, 36Mbps, 48Mbps, 54Mbps"
    );
    // 802.11g has the DSSS/CCK modes besides ERP-OFDM.
    assert!(matches!(
        Standard::G.mode_of_rate(1_000_000, opts),
        Ok(Mode::Dsss { .. })
    ));
    assert!(matches!(
        Standard::G.mode_of_rate(6_000_000, opts),
        Ok(Mode::Ofdm { .. })
    ));
    // HT MCS 0 with the short GI is written 7.2 Mb/s.
    assert!(Standard::N
        .mode_of_rate(7_200_000, (Width::W20, Gi::Short, 1, false))
        .is_ok());
    assert_eq!(Standard::G.timing(true).slot, us_(9));
    assert_eq!(Standard::G.timing(false).slot, us_(20));
    assert_eq!(Standard::A.timing(false).sifs, us_(16));
}
