#![allow(clippy::unwrap_used)]

use super::super::phy::{Gi, Standard, Width};
use super::*;

fn modes() -> Vec<Mode> {
    Standard::Ac.modes(Width::W40, Gi::Long, 1, false)
}

fn mcs(m: Option<Mode>) -> u8 {
    match m {
        Some(Mode::Vht { mcs, .. }) => mcs,
        other => panic!("{other:?}"),
    }
}

/// `init_sample_table`: every column is a permutation of the rates.
#[test]
fn each_sample_column_is_a_permutation() {
    let m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    assert_eq!(m.table.len(), SAMPLE_COLUMNS);
    for col in &m.table {
        let mut c = col.clone();
        c.sort_unstable();
        assert_eq!(c, (0..10).collect::<Vec<_>>());
    }
}

/// With no statistics every rate's throughput is 0: the chain is the lowest rate three times
/// (`minstrel_ht_update_caps`' first update), two tries each below 20 %.
#[test]
fn it_starts_at_the_lowest_rate() {
    let mut m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    assert_eq!(m.best(), (0, 0, 0));
    assert_eq!(m.chain, vec![(0, 2), (0, 2), (0, 2)]);
    // The first frame may be a sample (no wait at the start); its retries walk the chain.
    let first = mcs(m.pick(0));
    let sampled = m.samples == 1;
    assert_eq!(sampled, first != 0);
    assert_eq!(mcs(m.pick(if sampled { 1 } else { 0 })), 0);
    // Past the chain's tries: its last rate.
    assert_eq!(mcs(m.pick(20)), 0);
}

/// `minstrel_calc_rate_ewma`: the first interval's ratio as is, then 75 % the old value.
#[test]
fn success_probability_is_an_ewma_of_75_percent() {
    let mut m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    let m0 = modes()[0];
    for _ in 0..10 {
        m.report(SimTime(1_000_000), &m0, 1, 1);
    }
    m.report(SimTime(60_000_000), &m0, 1, 1);
    assert_eq!(m.st[0].prob, 1.0);
    for _ in 0..3 {
        m.report(SimTime(70_000_000), &m0, 1, 0);
    }
    m.report(SimTime(120_000_000), &m0, 1, 0);
    assert!((m.st[0].prob - 0.75).abs() < 1e-12, "{}", m.st[0].prob);
}

/// A channel where MCS 0-5 always succeed and MCS 6-9 always fail: sampling finds MCS 5,
/// which becomes max_tp_rate and max_prob_rate (the best probability, 100 %, at the best
/// throughput), the rate it displaced max_tp_rate2; about a tenth of frames or less are
/// samples; MCS 5's tries fill its 6 ms segment up to 7.
#[test]
fn it_settles_on_the_fastest_rate_that_works() {
    let mut m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    let mut frames = 0u32;
    for ms in 0..3000u64 {
        let now = SimTime(ms * 1_000_000);
        let mut attempt = 0;
        loop {
            let mode = m.pick(attempt).unwrap();
            let ok = mcs(Some(mode)) <= 5;
            m.report(now, &mode, 1, u32::from(ok));
            if ok || attempt == 6 {
                break;
            }
            attempt += 1;
        }
        frames += 1;
    }
    let (tp, tp2, prob) = m.best();
    assert_eq!((tp, prob), (5, 5), "{:?}", m.best());
    assert!(tp2 < 5, "{tp2}");
    let share = m.samples as f64 / f64::from(frames);
    assert!(share > 0.01 && share < 0.12, "{share}");
    assert_eq!(m.chain[0].0, 5);
    assert!((2..=7).contains(&m.chain[0].1), "{:?}", m.chain);
}

/// The first frames are samples (four due at once, `minstrel_ht_update_caps`), flagged as
/// probes for their first attempt only: the DCF sends them alone. Their retry takes the chain.
#[test]
fn a_sample_is_a_probe_on_its_first_attempt_only() {
    let mut m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    let mut probes = 0;
    for _ in 0..10 {
        let first = mcs(m.pick(0));
        if m.probing() {
            probes += 1;
            assert_ne!(first, 0);
            assert_eq!(mcs(m.pick(1)), 0);
            assert!(!m.probing());
        } else {
            assert_eq!(first, 0);
        }
    }
    // Four tries, less any table entry that named the chain's rate (MCS 0).
    assert!((3..=4).contains(&probes), "{probes}");
}

/// `sample_wait` counts frames, as `minstrel_ht_get_rate` is asked for each MPDU: after a
/// status of an A-MPDU of 20 MPDUs, a wait of 16 + 2 · 1 = 18 frames is over, and the next
/// frame may be a sample; a wait counted per aggregate would still hold 17.
#[test]
fn the_sample_wait_counts_mpdus_not_aggregates() {
    let mut m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    // Use up the first samples, single frames with statuses before any update; the status
    // after the last sets the wait.
    while m.sample_wait == 0 {
        let mode = m.pick(0).unwrap();
        m.report(SimTime(1), &mode, 1, 1);
    }
    assert_eq!(m.sample_wait, 18);
    let m0 = modes()[0];
    let _ = m.pick(0);
    m.report(SimTime(2), &m0, 20, 20);
    assert_eq!(m.sample_wait, 0);
}

fn ht40_two_streams() -> Vec<Mode> {
    (1..=2)
        .flat_map(|k| Standard::N.modes(Width::W40, Gi::Long, k, false))
        .collect()
}

/// The HT MCS index (0-15) of rate `i` of [`ht40_two_streams`].
fn ht(m: &Minstrel, i: usize) -> u8 {
    match m.modes[i] {
        Mode::Ht { mcs, nss, .. } => 8 * (nss - 1) + mcs,
        other => panic!("{other:?}"),
    }
}

/// Frames for `ms` milliseconds from `start`, one per millisecond, each retried along the
/// chain up to 7 attempts, `ok` deciding each attempt.
fn drive(m: &mut Minstrel, start: u64, ms: u64, mut ok: impl FnMut(&Mode) -> bool) {
    for t in start..start + ms {
        let now = SimTime(t * 1_000_000);
        for attempt in 0..7 {
            let mode = m.pick(attempt).unwrap();
            let good = ok(&mode);
            m.report(now, &mode, 1, u32::from(good));
            if good {
                break;
            }
        }
    }
}

/// Two groups (one and two streams, HT40): every two-stream rate fails and the one-stream
/// rates up to MCS 5 work. Sampling walks both groups (`minstrel_next_sample_idx`), so
/// Minstrel-HT climbs the one-stream group to MCS 5: max_tp_rate and max_prob_rate.
#[test]
fn groups_are_sampled_in_turn_and_the_best_group_wins() {
    let mut m = Minstrel::new(ht40_two_streams(), RngStream::new(7, "t/minstrel"));
    assert_eq!(m.groups.len(), 2);
    assert_eq!(m.groups[1].rates, (8..16).collect::<Vec<_>>());
    drive(&mut m, 0, 3000, |mode| match *mode {
        Mode::Ht { mcs, nss, .. } => nss == 1 && mcs <= 5,
        _ => false,
    });
    let (tp, _, prob) = m.best();
    assert_eq!((ht(&m, tp), ht(&m, prob)), (5, 5), "{:?}", m.best());
    // Both groups were sampled: every two-stream rate has statistics.
    assert!(m.groups[1].rates.iter().all(|&i| m.st[i].att_hist > 0));
}

/// With two streams working up to MCS 12 Minstrel-HT settles there; then the second stream
/// dies (every two-stream rate fails): more than 30 attempts at max_tp_rate within the 50 ms
/// interval, under 20 % acknowledged, and max_tp_rate falls to the one-stream group's at once
/// (`minstrel_downgrade_rate`), before the next update.
#[test]
fn sudden_death_of_the_second_stream_falls_to_one_stream_at_once() {
    let mut m = Minstrel::new(ht40_two_streams(), RngStream::new(7, "t/minstrel"));
    drive(&mut m, 0, 3000, |mode| match *mode {
        Mode::Ht { mcs, nss, .. } => (nss == 1 && mcs <= 6) || (nss == 2 && mcs <= 4),
        _ => false,
    });
    assert_eq!(ht(&m, m.best().0), 12, "{:?}", m.best());
    let before = m.downgrades;
    // The status of aggregates of 16 MPDUs, none acknowledged, right after an update: the
    // third already holds 48 failed attempts.
    m.report(SimTime(3_100_000_000), &m.modes[m.max_tp].clone(), 1, 1);
    let t = SimTime(3_100_000_001);
    let tp = m.modes[m.best().0];
    for _ in 0..3 {
        m.report(t, &tp, 16, 0);
    }
    assert!(m.downgrades > before);
    let first = m.pick(0);
    let first = if m.probing() { m.pick(1) } else { first };
    match first {
        Some(Mode::Ht { nss, .. }) => assert_eq!(nss, 1),
        other => panic!("{other:?}"),
    }
}

/// The rate table over the NIST model with ns-3's per-stream SNR (crate::medium::dcf::snr) in
/// an HT40 cell of two streams: at 2 dB only the one-stream MCS 0 (5 dB per stream) gets
/// frames through and Minstrel-HT keeps it, at over 90 %; at 20 dB a two-stream rate wins.
#[test]
fn a_two_stream_cell_at_low_snr_picks_a_one_stream_mcs() {
    use super::super::{nist, snr::stream_snr_db};
    let go = |snr: f64| {
        let mut m = Minstrel::new(ht40_two_streams(), RngStream::new(7, "t/minstrel"));
        let mut rng = RngStream::new(3, "t/errors");
        drive(&mut m, 0, 3000, |mode| {
            let per = nist::frame_error(mode, stream_snr_db(snr, mode, 2), 12_000).unwrap();
            !rng.bernoulli(per)
        });
        let tp = m.best().0;
        (ht(&m, tp), m.st[tp].prob)
    };
    let (low, p) = go(2.0);
    assert_eq!(low, 0);
    assert!(p > 0.9, "{p}");
    let (high, _) = go(20.0);
    assert!(high >= 8, "{high}");
}

/// A retry past the frame's chain starts the current chain again from its first entry (the
/// driver's software retry takes the rate table anew, ath9k's `ath_set_rates`), not the old
/// chain's last rate forever. Explicit times: MCS 0-7 all work to 3 s, the chain is MCS 7
/// first; from 3 s every rate above MCS 3 fails. A frame sent at 3.000 s walks its chain
/// (its rate series fixed); its failures at 3.000-3.060 s bring an update at 3.051 s (50 ms
/// after the last), two more at 3.102 and 3.153 s, and the chain drops below MCS 7. The
/// frame's attempt just past its first walk takes the new chain's first rate.
#[test]
fn a_retry_past_the_chain_takes_the_current_chain_again() {
    let mut m = Minstrel::new(modes(), RngStream::new(7, "t/minstrel"));
    drive(&mut m, 0, 3000, |mode| mcs(Some(*mode)) <= 7);
    assert_eq!(m.best().0, 7, "{:?}", m.best());
    // A new frame at 3 s, not a sample.
    let mut first = m.pick(0).unwrap();
    while m.probing() {
        m.report(SimTime(3_000_000_000), &first, 1, 1);
        first = m.pick(0).unwrap();
    }
    assert_eq!(mcs(Some(first)), 7);
    let walk: u32 = m.frame.iter().map(|e| e.1).sum();
    let old_last = m.frame.last().unwrap().0;
    // Its attempts fail, one each 5 ms, through its walk.
    let mut t = 3_000_000_000u64;
    for attempt in 0..walk {
        let mode = m.pick(attempt).unwrap();
        m.report(SimTime(t), &mode, 1, u32::from(mcs(Some(mode)) <= 3));
        t += 5_000_000;
    }
    // Other frames' failures at MCS 7 and 6 until 3.16 s: three updates.
    while t < 3_160_000_000 {
        let m7 = modes()[7];
        let m6 = modes()[6];
        m.report(SimTime(t), &m7, 4, 0);
        m.report(SimTime(t), &m6, 4, 0);
        t += 5_000_000;
    }
    let now_first = m.chain[0].0;
    assert!(now_first < 7, "{:?}", m.chain);
    // The attempt past the walk: the current chain's first rate, not the old chain's last.
    assert_eq!(mcs(m.pick(walk)) as usize, now_first);
    assert_ne!(now_first, old_last);
}
