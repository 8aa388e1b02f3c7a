#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Balakrishnan et al. 1997, Table 2 (link-layer schemes, one error per 64 KiB), all 12 cells,
//! 10 seeds each, against the spec's §7.3 tolerances (±10% absolute for the link-layer family)
//! and the claims of §4.2, §7.2 and §7.3: wired goodput ≥ 99.9% and wireless goodput 97.3-97.9%
//! for the TCP-aware schemes, LL's goodputs and redundant sender retransmissions, no coarse
//! timeouts at the source with LL or LL-TCP-AWARE (Fig 5), the LL → LL-TCP-AWARE gain, and the
//! orderings.
//!
//! Cells and claims where the simulator disagrees with the paper are listed with the mechanism
//! behind the difference (docs/calibration.md, "Table 2") and the band that mechanism predicts
//! for our value; the test asserts that each listed item is outside the paper's tolerance *and*
//! inside its band, so the list can neither go stale nor cover a value its mechanism cannot
//! explain (a cell far above the loss-free optimum fails, not "deviates").
//!
//! The bands come from two quantities of the testbed, not from the measured cells: the LAN's
//! optimum, the loss-free peak (1.5 Mb/s, §3.3) times the share of data frames that survive
//! (1 − 2.3 % PER, §3.5): 1.466 Mb/s, which no local repair can exceed; and the WAN's loss-free
//! peak (1.35 Mb/s), set by the wired path, at which a scheme that repairs every loss with spare
//! WaveLAN airtime runs.

use crate::common;
use common::{mean, paper_cell};
use std::collections::BTreeMap;

/// (scheme, config, paper Mbps, paper wireless goodput, paper wired goodput).
const CELLS: &[(&str, &str, f64, f64, f64)] = &[
    ("ll", "lan8", 1.20, 95.6, 97.9),
    ("ll", "lan32", 1.20, 95.5, 97.9),
    ("ll", "wan32", 0.82, 95.5, 98.4),
    ("ll-tcp-aware", "lan8", 1.29, 97.6, 100.0),
    ("ll-tcp-aware", "lan32", 1.36, 97.6, 100.0),
    ("ll-tcp-aware", "wan32", 1.19, 97.6, 100.0),
    ("ll-smart", "lan8", 1.29, 96.1, 98.9),
    ("ll-smart", "lan32", 1.29, 95.5, 98.3),
    ("ll-smart", "wan32", 0.93, 95.3, 99.4),
    ("ll-smart-tcp-aware", "lan8", 1.37, 97.6, 100.0),
    ("ll-smart-tcp-aware", "lan32", 1.39, 97.7, 100.0),
    ("ll-smart-tcp-aware", "wan32", 1.22, 97.6, 100.0),
];

/// Why the link-layer cells sit above the paper (shared by several entries).
const FAST_REPAIR: &str = "our local repair is near-ideal: the retransmission goes to the head of the queue on the 2nd dupack and arrives about two frame times after the loss, while the BS queue (window ≫ the 1.9 KB LAN BDP) keeps the link busy, so the sender's fast retransmit and halving cost only the redundant airtime (~2%); the paper's ~20% LAN loss for LL is more than the mechanisms it names (redundant retransmissions, smaller cwnd) produce here";
const WAN_EMPTY_QUEUE: &str = "in our WAN the 1.43 Mb/s wired path is slower than the WaveLAN, so the BS queue is nearly empty: only about two dupacks precede the local retransmission, and the sender reaches three on ~16% of losses (about 21 fast retransmits per run, wired goodput 99.6%), where the paper's 98.4% wired goodput implies ~70%";
const OPTIMUM: &str = "TCP-aware local recovery reaches (1 − PER) of the loss-free peak here (1.5 · 0.977 ≈ 1.47 Mb/s LAN); the paper's TCP-aware cells are 7-12% below that optimum, i.e. about 25 ms of idle link per loss that our model has no mechanism for (host processing at the BS, driver queueing, more timer-driven recoveries)";
const WAN_SPARE: &str = "in the WAN the bottleneck is the wired path: local retransmissions use spare WaveLAN capacity, so TCP-aware schemes stay at the loss-free peak (1.35 Mb/s)";

/// The LAN's optimum: loss-free peak × (1 − PER), Mb/s (module doc).
const LAN_OPTIMUM: f64 = 1.466;
/// The WAN's loss-free peak, Mb/s (§3.3; `paper_e2e.rs` checks it to ±0.05).
const WAN_PEAK: f64 = 1.35;

/// (scheme, config, the band of Mb/s the mechanism predicts for our value, why). Above the
/// paper's tolerance: FAST_REPAIR and OPTIMUM up to the LAN optimum, WAN_EMPTY_QUEUE up to the
/// WAN peak; WAN_SPARE at the WAN peak (±4 %).
const KNOWN_DEVIATIONS: &[(&str, &str, (f64, f64), &str)] = &[
    ("ll", "lan8", (1.32, LAN_OPTIMUM), FAST_REPAIR),
    ("ll", "lan32", (1.32, LAN_OPTIMUM), FAST_REPAIR),
    ("ll", "wan32", (0.90, WAN_PEAK), WAN_EMPTY_QUEUE),
    ("ll-tcp-aware", "lan8", (1.419, LAN_OPTIMUM), OPTIMUM),
    ("ll-smart", "lan8", (1.419, LAN_OPTIMUM), FAST_REPAIR),
    ("ll-smart", "lan32", (1.419, LAN_OPTIMUM), FAST_REPAIR),
    ("ll-smart", "wan32", (1.023, WAN_PEAK), WAN_EMPTY_QUEUE),
    (
        "ll-smart-tcp-aware",
        "wan32",
        (0.96 * WAN_PEAK, 1.04 * WAN_PEAK),
        WAN_SPARE,
    ),
];

/// A claim the simulator misses: why, and the band its mechanism predicts for our value.
type Known = Option<(&'static str, (f64, f64))>;

/// (claim, ours, accepted range, known deviation).
type Claim = (String, f64, (f64, f64), Known);

#[derive(Clone, Copy, Debug)]
struct Cell {
    tp: f64,
    wired: f64,
    wireless: f64,
    timeouts_max: u64,
    local: f64,
    /// Sender retransmissions ÷ corrupted wireless data frames.
    redundant: f64,
}

fn config(c: &str) -> (&'static str, &'static str, f64) {
    match c {
        "lan8" => ("lan", "8KiB", 1.5),
        "lan32" => ("lan", "32KiB", 1.5),
        "wan32" => ("wan", "32KiB", 1.35),
        _ => unreachable!(),
    }
}

fn measure() -> BTreeMap<(&'static str, &'static str), Cell> {
    CELLS
        .iter()
        .map(|&(scheme, cfg, ..)| {
            let (preset, buffer, _) = config(cfg);
            let runs = paper_cell(preset, scheme, buffer);
            let cell = Cell {
                tp: mean(&runs, |m| m.throughput_mbps),
                wired: mean(&runs, |m| m.wired_goodput_pct),
                wireless: mean(&runs, |m| m.wireless_goodput_pct),
                timeouts_max: runs.iter().map(|m| m.sender_timeouts).max().unwrap(),
                local: mean(&runs, |m| m.local_retransmissions as f64),
                redundant: mean(&runs, |m| {
                    m.sender_retransmitted_bytes as f64 / 1400.0 / m.corrupted_data_frames as f64
                }),
            };
            ((scheme, cfg), cell)
        })
        .collect()
}

#[test]
fn table_2_cells_and_claims() {
    let got = measure();
    let c = |s: &str, cfg: &str| *got.iter().find(|(k, _)| k.0 == s && k.1 == cfg).unwrap().1;
    let mut report = String::new();
    for &(scheme, cfg, paper, p_wl, p_wd) in CELLS {
        let x = c(scheme, cfg);
        let rel = x.tp / paper - 1.0;
        report += &format!(
            "{scheme:19} {cfg:6} ours {:.3} ({:.1}/{:.1}) TO≤{} local {:.0} | paper {paper:.2} ({p_wl}/{p_wd}) {:+.0}%\n",
            x.tp, x.wireless, x.wired, x.timeouts_max, x.local, rel * 100.0
        );
    }
    eprintln!("{report}");
    for &(scheme, cfg, paper, ..) in CELLS {
        let rel = c(scheme, cfg).tp / paper - 1.0;
        match KNOWN_DEVIATIONS
            .iter()
            .find(|d| d.0 == scheme && d.1 == cfg)
        {
            Some(&(_, _, (lo, hi), _)) => {
                let tp = c(scheme, cfg).tp;
                assert!(
                    rel.abs() > 0.10,
                    "{scheme} {cfg} is listed as a known deviation but now measures {rel:+.2}: update KNOWN_DEVIATIONS\n{report}"
                );
                assert!(
                    (lo..=hi).contains(&tp),
                    "{scheme} {cfg}: {tp:.3} Mb/s is outside [{lo:.3}, {hi:.3}], the band its listed mechanism predicts\n{report}"
                );
            }
            None => assert!(rel.abs() <= 0.10, "{scheme} {cfg} outside ±10%\n{report}"),
        }
    }
    let pct = |s: &str, cfg: &str| 100.0 * c(s, cfg).tp / config(cfg).2;
    let mut claims: Vec<Claim> = Vec::new();
    for cfg in ["lan8", "lan32", "wan32"] {
        for s in ["ll-tcp-aware", "ll-smart-tcp-aware"] {
            // §7.3: wired goodput ≥ 99.9 (≈ no sender retransmission), wireless ≈ 1 − PER.
            claims.push((
                format!("{s} {cfg} wired goodput"),
                c(s, cfg).wired,
                (99.9, 100.0),
                None,
            ));
            claims.push((
                format!("{s} {cfg} wireless goodput"),
                c(s, cfg).wireless,
                (97.3, 97.9),
                None,
            ));
        }
        // §4.2 / Fig 5: no coarse timeouts at the source with LL or LL-TCP-AWARE (≤ 1 per run).
        for s in ["ll", "ll-tcp-aware"] {
            claims.push((
                format!("{s} {cfg} source timeouts, worst run"),
                c(s, cfg).timeouts_max as f64,
                (0.0, 1.0),
                None,
            ));
        }
        // §7.2 orderings with a gap ≥ 5% in the paper: every TCP-aware scheme beats LL.
        claims.push((
            format!("LL-TCP-AWARE > LL, {cfg}"),
            c("ll-tcp-aware", cfg).tp - c("ll", cfg).tp,
            (0.0, 10.0),
            None,
        ));
        claims.push((
            format!("LL-SMART > LL, {cfg}"),
            c("ll-smart", cfg).tp - c("ll", cfg).tp,
            (0.0, 10.0),
            None,
        ));
        claims.push((
            format!("LL-SMART-TCP-AWARE > LL-SMART, {cfg}"),
            c("ll-smart-tcp-aware", cfg).tp - c("ll-smart", cfg).tp,
            (0.0, 10.0),
            None,
        ));
    }
    claims.push((
        "LL-TCP-AWARE > LL-SMART, WAN (paper 1.19 vs 0.93)".into(),
        c("ll-tcp-aware", "wan32").tp - c("ll-smart", "wan32").tp,
        (0.0, 10.0),
        None,
    ));
    claims.push((
        "LL wireless goodput LAN 32 KiB (paper 95.5)".into(),
        c("ll", "lan32").wireless,
        (94.5, 96.5),
        None,
    ));
    claims.push((
        "LL wired goodput LAN 32 KiB (paper 97.9)".into(),
        c("ll", "lan32").wired,
        (97.3, 98.9),
        None,
    ));
    claims.push((
        "LL wireless goodput WAN (paper 95.5)".into(),
        c("ll", "wan32").wireless,
        (94.5, 96.5),
        // Few redundant retransmissions: as the TCP-aware schemes' 97.3-97.9.
        Some((WAN_EMPTY_QUEUE, (97.0, 97.9))),
    ));
    claims.push((
        "LL wired goodput WAN (paper 98.4)".into(),
        c("ll", "wan32").wired,
        (97.3, 98.9),
        // About 21 fast retransmits of ~950 segments per run: 97.5-99.9 % wired goodput.
        Some((WAN_EMPTY_QUEUE, (98.9, 99.9))),
    ));
    claims.push((
        "LL LAN: wireless losses also retransmitted by the sender (C5, ≈ 90%)".into(),
        c("ll", "lan32").redundant,
        (0.75, 1.0),
        None,
    ));
    claims.push((
        "LL-TCP-AWARE ÷ LL, LAN 32 KiB (paper 1.13)".into(),
        c("ll-tcp-aware", "lan32").tp / c("ll", "lan32").tp,
        (1.05, 1.25),
        // LL loses only the redundant airtime (~2 %): a ratio of 1.00-1.05.
        Some((FAST_REPAIR, (1.0, 1.05))),
    ));
    claims.push((
        "LL-TCP-AWARE ÷ LL, WAN (paper 1.45)".into(),
        c("ll-tcp-aware", "wan32").tp / c("ll", "wan32").tp,
        (1.25, 1.75),
        // LL stays above the paper's 0.82 (up to the peak), LL-TCP-AWARE at most at the peak.
        Some((WAN_EMPTY_QUEUE, (1.0, 1.25))),
    ));
    claims.push((
        "LL %-of-max LAN 32 KiB (paper 80.0)".into(),
        pct("ll", "lan32"),
        (72.0, 88.0),
        // Near-ideal: up to the optimum, 97.7 % of the peak.
        Some((FAST_REPAIR, (88.0, 97.7))),
    ));
    claims.push((
        "LL %-of-max WAN (paper 60.7)".into(),
        pct("ll", "wan32"),
        (50.7, 70.7),
        Some((WAN_EMPTY_QUEUE, (70.7, 100.0))),
    ));
    claims.push((
        "LL-TCP-AWARE %-of-max LAN 32 KiB (paper 90.7)".into(),
        pct("ll-tcp-aware", "lan32"),
        (85.7, 95.7),
        // (1 − PER) of the peak: 97.3-98.0 % for a PER of 2.0-2.7 %.
        Some((OPTIMUM, (96.5, 98.5))),
    ));
    claims.push((
        "LL-SMART-TCP-AWARE %-of-max LAN 32 KiB (paper 92.7)".into(),
        pct("ll-smart-tcp-aware", "lan32"),
        (87.7, 97.7),
        Some((OPTIMUM, (96.5, 98.5))),
    ));
    claims.push((
        "LL-TCP-AWARE %-of-max WAN (paper 88.1)".into(),
        pct("ll-tcp-aware", "wan32"),
        (83.1, 93.1),
        // Spare WaveLAN airtime lifts it above the paper, at most to the WAN peak. (It measures
        // about 95 %: snoop's local recovery costs the 5 % that LL-SMART-TCP-AWARE's does not,
        // which WAN_SPARE does not explain; docs/calibration.md, "Table 2".)
        Some((WAN_SPARE, (93.1, 104.0))),
    ));
    claims.push((
        "LL-SMART-TCP-AWARE %-of-max WAN (paper 90.4)".into(),
        pct("ll-smart-tcp-aware", "wan32"),
        (85.4, 95.4),
        Some((WAN_SPARE, (96.0, 104.0))),
    ));
    for (claim, v, (lo, hi), known) in claims {
        let inside = (lo..=hi).contains(&v);
        match known {
            None => assert!(inside, "{claim}: {v:.3} outside [{lo}, {hi}]\n{report}"),
            Some((_, (blo, bhi))) => {
                assert!(
                    !inside,
                    "{claim} now holds ({v:.3}): drop its known deviation\n{report}"
                );
                assert!(
                    (blo..=bhi).contains(&v),
                    "{claim}: {v:.3} outside [{blo}, {bhi}], the band its mechanism predicts\n{report}"
                );
            }
        }
    }
}
