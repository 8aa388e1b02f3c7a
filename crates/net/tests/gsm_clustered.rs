#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The clustered block-erasure channel (`net::medium::gsm::clustered`): one test per
//! statistic the dissertation publishes of its traces, at every reading of the sub-minute time
//! scale `T_c` in the band (Ludwig2000 §4.3.1: B2, the per-minute rates of trace_B/C; B4
//! and B5, the burst lengths; §3.1.2 fn. 2: at most 12 retransmissions of one RLP frame). The statistics hold at every reading of the band; the readings that break one are
//! outside it (the last test). The ReTracer results (Fig 4-13, Tab 4-14, Figs 4-15/4-16) are
//! predictions, graded by `lossylink reproduce ludwig2000 --only retrace`, not here.

use net::medium::gsm::erasure::BlockTrace;
use net::medium::gsm::{max_retransmissions, Clustered};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const MINUTES: usize = 120;
const SEEDS: [u64; 3] = [1, 2, 3];
/// The band: fades of 0.5-30 s at the worst minute's density, 0.5 s at the densest the burst
/// statistics allow (dense fades of 1 s break the retransmission maximum on one trace_B-like
/// seed, 22; of 2 s and more on every seed, below).
const BAND: [&str; 5] = ["500ms", "2s", "8s", "30s", "500ms:dense"];
const POOR: [(&str, f64); 2] = [("poor-b", 26.0), ("poor-c", 18.0)];

/// The traces of one reading (`poor-c@2s`), drawn once.
fn traces(name: &str) -> &'static [BlockTrace] {
    static ALL: OnceLock<std::sync::Mutex<BTreeMap<String, &'static [BlockTrace]>>> =
        OnceLock::new();
    let mut all = ALL.get_or_init(Default::default).lock().unwrap();
    all.entry(name.to_string()).or_insert_with(|| {
        let c = Clustered::named(name).expect("a reading");
        let v: Vec<BlockTrace> = SEEDS.iter().map(|&s| c.trace(name, MINUTES, s)).collect();
        Box::leak(v.into_boxed_slice())
    })
}

fn readings(profiles: &[&str]) -> Vec<String> {
    profiles
        .iter()
        .flat_map(|p| BAND.iter().map(move |tc| format!("{p}@{tc}")))
        .collect()
}

/// B2 (trace_B/C): more than 30 % of the minutes below 0.01 (the three traces as one: the
/// dissertation's traces are concatenations, §3.1.4), the largest minute about 0.28 (the
/// chain's test: 0.2-0.45 on each trace).
#[test]
fn b2_poor_minutes() {
    for name in readings(&["poor-b", "poor-c"]) {
        let m: Vec<f64> = traces(&name)
            .iter()
            .flat_map(|t| t.minute_blers())
            .collect();
        let low = m.iter().filter(|&&b| b < 0.01).count() as f64 / m.len() as f64;
        eprintln!("{name}: below 0.01 {low:.3}");
        assert!(low > 0.30, "{name}: {low}");
        for t in traces(&name) {
            let max = t.minute_blers().into_iter().fold(0.0, f64::max);
            assert!((0.2..=0.45).contains(&max), "{name}: {max}");
        }
    }
}

fn sorted_bursts(t: &BlockTrace) -> Vec<u32> {
    let mut b = t.burst_lengths();
    b.sort_unstable();
    b
}

/// B4: more than half of the bursts are 1 or 2 blocks long, on every trace.
#[test]
fn b4_short_bursts() {
    for name in readings(&["poor-b", "poor-c"]) {
        for t in traces(&name) {
            let b = sorted_bursts(t);
            let short = b.iter().filter(|&&l| l <= 2).count() as f64 / b.len() as f64;
            assert!(short > 0.5, "{name}: {short}");
        }
    }
}

/// B5: the 95th percentile of the burst length 26 (B) or 18 (C) blocks, within 20 %, on every
/// trace.
#[test]
fn b5_burst_length_95th_percentile() {
    for (p, want) in POOR {
        for name in readings(&[p]) {
            for t in traces(&name) {
                let b = sorted_bursts(t);
                let p95 = f64::from(b[b.len() * 95 / 100]);
                assert!((p95 - want).abs() <= 0.2 * want, "{name}: {p95}");
            }
        }
    }
}

/// §3.1.2 fn. 2: one RLP frame resent one RLP round trip (20 blocks) apart never needed more
/// than "12 + n for some small n" retransmissions (n ≤ 4, as the chain's RT28 check).
#[test]
fn retransmission_maximum() {
    for name in readings(&["poor-b", "poor-c"]) {
        for t in traces(&name) {
            let most = max_retransmissions(t, 20);
            eprintln!("{name}: {most}");
            assert!((1..=16).contains(&most), "{name}: {most}");
        }
    }
}

/// Outside the band: dense fades of 2 s or more keep a frame erased for more retransmissions
/// than the dissertation ever saw, on every seed, so §3.1.2's maximum refutes those readings.
#[test]
fn longer_dense_fades_break_the_retransmission_maximum() {
    for p in ["poor-b", "poor-c"] {
        for tc in ["2s", "8s"] {
            let name = format!("{p}@{tc}:dense");
            let most = traces(&name)
                .iter()
                .map(|t| max_retransmissions(t, 20))
                .min()
                .unwrap();
            eprintln!("{name}: fewest {most}");
            assert!(most > 16, "{name}: {most}");
        }
    }
}

/// B2 per single trace: what a trace loses of the 35 % of minutes drawn below 0.01
/// it loses to the spread of a minute's erasures around its drawn rate, not to a bias: on 600
/// minutes of each seed, at every reading and on the chain, the minutes drawn below 0.01
/// realize their drawn rate on average (within 10 %). Printed: how many cross 0.01 each way
/// (docs/ludwig2000.md#b2-per-trace).
#[test]
fn b2_a_minute_realizes_its_drawn_rate() {
    use engine::RngStream;
    use net::medium::gsm::Profile;
    let mut rows: Vec<(String, Vec<(f64, f64)>)> = readings(&["poor-b", "poor-c"])
        .into_iter()
        .map(|name| {
            let c = Clustered::named(&name).unwrap();
            let v = SEEDS
                .iter()
                .flat_map(|&seed| {
                    let t = c.trace(&name, 600, seed);
                    c.minute_rates(&name, 600, seed)
                        .into_iter()
                        .zip(t.minute_blers())
                })
                .collect();
            (name, v)
        })
        .collect();
    for p in ["poor-b", "poor-c"] {
        let prof = Profile::named(p).unwrap();
        let v = SEEDS
            .iter()
            .flat_map(|&seed| {
                let (t, rates) = prof.generate_with_rates(600, &mut RngStream::new(seed, "b2"));
                rates.into_iter().zip(t.minute_blers())
            })
            .collect();
        rows.push((p.to_string(), v));
    }
    for (name, v) in rows {
        let low: Vec<(f64, f64)> = v.iter().copied().filter(|&(b, _)| b < 0.01).collect();
        let drawn = low.iter().map(|x| x.0).sum::<f64>() / low.len() as f64;
        let real = low.iter().map(|x| x.1).sum::<f64>() / low.len() as f64;
        let up = low.iter().filter(|&&(_, r)| r >= 0.01).count();
        let down = v.iter().filter(|&&(b, r)| b >= 0.01 && r < 0.01).count();
        eprintln!(
            "{name}: {} of {} drawn low, {up} up, {down} down; drawn {drawn:.4}, realized {real:.4}",
            low.len(),
            v.len()
        );
        assert!(
            (real / drawn - 1.0).abs() < 0.1,
            "{name}: {real} vs {drawn}"
        );
    }
}

/// ... and that spread is the burst mixture's (B4/B5), no wider when clustered: at a constant
/// rate of 0.005 or 0.008, 600 minutes, a clustered minute's realized rate spreads no more than
/// the chain's (within 10 %); dense fades spread less (one good block between bursts).
#[test]
fn b2_a_clustered_minute_spreads_no_wider_than_the_chains() {
    use engine::RngStream;
    use net::medium::gsm::{MinuteBler, Profile};
    let sd = |v: &[f64]| {
        let n = v.len() as f64;
        let m = v.iter().sum::<f64>() / n;
        (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n).sqrt()
    };
    for b in [0.005, 0.008] {
        let minute = MinuteBler::LowOrLogUniform {
            p_low: 0.0,
            low: b,
            max: b,
        };
        for (name, base) in [("poor-c", Profile::POOR_C), ("poor-b", Profile::POOR_B)] {
            let p = Profile { minute, ..base };
            let chain = sd(&p
                .generate(600, &mut RngStream::new(1, "chain"))
                .minute_blers());
            for tc in BAND {
                let mut c = Clustered::named(&format!("{name}@{tc}")).unwrap();
                c.profile = p;
                let t = c.generate(
                    600,
                    &mut RngStream::new(1, "m"),
                    &mut RngStream::new(1, "e"),
                );
                let s = sd(&t.minute_blers());
                eprintln!("b {b} {name}@{tc}: sd {s:.4}, chain {chain:.4}");
                assert!(s <= 1.1 * chain, "b {b} {name}@{tc}: {s} vs {chain}");
            }
        }
    }
}

/// One property changed, the per-minute rates only (docs/ludwig2000.md#six-fails): the most
/// clustered reading (500 ms dense) with every minute at the rate of the whole trace keeps the
/// same fades, density and bursts; the best RLP frame (Fig 4-13) stays on the same plateau,
/// within two 30-byte steps of the mean of three seeds, and Fig 4-15's share at 296 B within
/// 5 points: the clusters' rate and length set them, not how the rates vary from minute to
/// minute.
#[test]
fn the_minutes_rates_alone_do_not_move_the_optimum() {
    use engine::RngStream;
    use net::medium::gsm::{retrace_e2e, retrace_rlp, MinuteBler, Packing};
    let best = |t: &BlockTrace| {
        (1..=47u32)
            .map(|n| (n * 30, retrace_rlp(t, n * 30, 6).unwrap().throughput_bps()))
            .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a })
            .0 as f64
    };
    let multi = |t: &BlockTrace| {
        retrace_e2e(t, 296, Packing::Continuous)
            .unwrap()
            .multi_loss_share()
    };
    for p in ["poor-b", "poor-c"] {
        let name = format!("{p}@500ms:dense");
        let c = Clustered::named(&name).unwrap();
        let (mut b0, mut b1, mut m0, mut m1) = (0.0, 0.0, 0.0, 0.0);
        for seed in SEEDS {
            let t = c.trace(&name, MINUTES, seed);
            let mut flat = c;
            flat.profile.minute = MinuteBler::LowOrLogUniform {
                p_low: 0.0,
                low: t.bler(),
                max: t.bler(),
            };
            let f = flat.generate(
                MINUTES,
                &mut RngStream::new(seed, "flat"),
                &mut RngStream::new(seed, &format!("gsm/{name}/erasures")),
            );
            b0 += best(&t) / 3.0;
            b1 += best(&f) / 3.0;
            m0 += 100.0 * multi(&t) / 3.0;
            m1 += 100.0 * multi(&f) / 3.0;
        }
        eprintln!(
            "{name}: best frame {b0:.0} -> {b1:.0} B, runs >= 2 at 296 B {m0:.1} -> {m1:.1} %"
        );
        assert!((b1 - b0).abs() <= 60.0, "{name}: {b0} -> {b1}");
        assert!((m1 - m0).abs() <= 5.0, "{name}: {m0} -> {m1}");
    }
}
