//! The spreadsheet model against RT1, RT2, RT5 and RT6 (spec §8) and its own rules.
use super::*;

fn cfg(w: u32, tick_ms: u64, timer: ModelTimer, sampling: ModelSampling) -> ModelConfig {
    ModelConfig {
        w,
        // 1500 bytes at 240 B/s: the timer testbed's service time (§3.4.3).
        service: SimDuration::from_millis(6250),
        tick: SimDuration::from_millis(tick_ms),
        cycles: 6,
        timer,
        sampling,
        timeouts: ModelTimeouts::Shown,
    }
}

fn s(d: SimDuration) -> f64 {
    d.as_secs_f64()
}

fn cycle(rows: &[ModelRow], c: u32) -> Vec<ModelRow> {
    rows.iter().copied().filter(|r| r.cycle == c).collect()
}

fn max_rto(rows: &[ModelRow]) -> f64 {
    rows.iter().map(|r| s(r.rto)).fold(0.0, f64::max)
}

/// Rows where the RTT fell from the previous row's and the RTO rose.
fn drop_spikes(rows: &[ModelRow]) -> usize {
    rows.windows(2)
        .filter(|p| p[1].rtt < p[0].rtt && p[1].rto > p[1].rto_prev)
        .count()
}

#[test]
fn rows_follow_the_sawtooth() {
    let rows = run(&cfg(10, 1, ModelTimer::Lite, ModelSampling::EveryAck)).unwrap();
    // Loads 5..=10, L ACKs each: 45 a cycle; the first ACK at (W/2)·s = 31.25 s.
    assert_eq!(rows.len(), 6 * 45);
    assert_eq!(rows[0].at, SimTime(31_250_000_000));
    assert_eq!(rows[0].rtt, SimDuration::from_millis(31_250));
    assert_eq!(rows[44].rtt, SimDuration::from_millis(62_500));
    assert_eq!(rows[45].rtt, SimDuration::from_millis(31_250));
    assert_eq!(rows[1].at - rows[0].at, SimDuration::from_millis(6250));
    assert!(rows.iter().all(|r| r.sampled));
}

#[test]
fn rto_l_spikes_when_the_rtt_drops_rt1() {
    // Fig 5-8: W = 10, 1 ms. At each cycle start RTT(i) = 31.25 s < SRTT, yet RTO_L rises
    // (|DELTA|), and that spike is the highest RTO since the last one.
    let rows = run(&cfg(10, 1, ModelTimer::Lite, ModelSampling::EveryAck)).unwrap();
    let n = drop_spikes(&rows);
    assert_eq!(n, 5, "one at each of cycles 1-5");
    for c in 1..6 {
        let (now, before) = (cycle(&rows, c), cycle(&rows, c - 1));
        let first = now[0];
        assert!(first.rto > first.rto_prev, "cycle {c}");
        assert!(
            s(first.rto_prev) > 75.0 && s(first.rto) > 97.0,
            "cycle {c}: {first:?}"
        );
        let spike = now
            .iter()
            .filter(|r| r.load == 5)
            .map(|r| s(r.rto))
            .fold(0.0, f64::max);
        // Steady state repeats the cycle: equal to within one tick.
        assert!(
            spike + 0.001 >= max_rto(&before),
            "cycle {c}: {spike} < {}",
            max_rto(&before)
        );
    }
}

#[test]
fn rto_l_collapses_into_the_rtt_at_500_ms_with_every_ack_timed_rt2() {
    // Fig 5-9: W = 40, 500 ms, sampling rate 1: RTO_L within 10 % of the RTT for most of each
    // cycle, and below it at times (where a precise timer would fire spuriously).
    let rows = run(&cfg(40, 500, ModelTimer::Lite, ModelSampling::EveryAck)).unwrap();
    for c in 1..6 {
        let now = cycle(&rows, c);
        let near = now
            .iter()
            .filter(|r| s(r.rto_prev) <= 1.1 * s(r.rtt))
            .count();
        let under = now.iter().filter(|r| r.rto_prev < r.rtt).count();
        assert_eq!((near, under, now.len()), (602, 19, 630), "cycle {c}");
    }
    // Timing one segment per round trip, the gains work: never below the RTT (Fig 5-10, RT4),
    // and the spike at each cycle start stays.
    let once = run(&cfg(40, 500, ModelTimer::Lite, ModelSampling::OncePerRtt)).unwrap();
    assert!(once
        .iter()
        .filter(|r| r.cycle > 0)
        .all(|r| r.rto_prev >= r.rtt));
    assert_eq!(drop_spikes(&once), 5);
    // One sample per round trip: 21 flights a cycle, 20-22 samples.
    for c in 1..6 {
        let n = cycle(&once, c).iter().filter(|r| r.sampled).count();
        assert!((20..=22).contains(&n), "cycle {c}: {n} samples");
    }
}

#[test]
fn restarted_rexmt_lies_one_rtt_above_the_rto_rt5() {
    // Fig 5-11: re-armed with the full RTO on each ACK, the timer of the next oldest segment
    // runs RTO + its age, about one RTT; the precise REXMT_E is the RTO itself.
    for (w, tick) in [(10, 1), (40, 500)] {
        let rows = run(&cfg(w, tick, ModelTimer::Lite, ModelSampling::EveryAck)).unwrap();
        let body = &rows[..rows.len() - 1];
        let n = body.len() as f64;
        let offset = body
            .iter()
            .map(|r| s(r.rexmt_restart) - s(r.rto))
            .sum::<f64>()
            / n;
        let rtt = body.iter().map(|r| s(r.rtt)).sum::<f64>() / n;
        assert!(
            (0.8..=1.2).contains(&(offset / rtt)),
            "W {w}: {offset} / {rtt}"
        );
        for r in body {
            // On the heartbeat the precise deadline is a tick boundary: within one tick.
            let d = s(r.rexmt_precise) - s(r.rto);
            assert!(d.abs() <= s(SimDuration::from_millis(tick)) + 1e-9, "{r:?}");
        }
    }
}

#[test]
fn rto_e_has_no_drop_spikes_and_scales_with_the_load_rt6() {
    // Figs 5-13, 5-14: no rise on a falling RTT; the mean RTO_E/RTT of a cycle about the same
    // for W = 10, 20, 40 (coefficient of variation ≤ 15 %).
    let mut ratios = vec![];
    for w in [10, 20, 40] {
        let rows = run(&cfg(w, 1, ModelTimer::Eifel, ModelSampling::EveryAck)).unwrap();
        assert_eq!(drop_spikes(&rows), 0, "W {w}");
        let last = cycle(&rows, 5);
        let r = last.iter().map(|r| s(r.rto_prev) / s(r.rtt)).sum::<f64>() / last.len() as f64;
        assert!(last.iter().all(|r| r.rto_prev >= r.rtt), "W {w}");
        let body = &last[..last.len() - 1];
        assert!(
            body.iter().all(|r| r.rexmt_precise == r.rto),
            "W {w}: REXMT_E = RTO_E"
        );
        ratios.push(r);
    }
    let m = ratios.iter().sum::<f64>() / 3.0;
    let sd = (ratios.iter().map(|r| (r - m) * (r - m)).sum::<f64>() / 3.0).sqrt();
    assert!(sd / m <= 0.15, "{ratios:?}");
    // And without timestamps (Fig 5-15): no spikes either.
    let once = run(&cfg(40, 500, ModelTimer::Eifel, ModelSampling::OncePerRtt)).unwrap();
    assert_eq!(drop_spikes(&once), 0);
}

#[test]
fn bad_parameters_are_named() {
    let mut c = cfg(10, 1, ModelTimer::Lite, ModelSampling::EveryAck);
    c.w = 9;
    assert_eq!(
        run(&c).unwrap_err().to_string(),
        "w: must be an even number of segments from 4 to 10000"
    );
    c.w = 10;
    c.tick = SimDuration::ZERO;
    assert!(run(&c).unwrap_err().to_string().starts_with("tick: "));
    c.tick = SimDuration::from_millis(1);
    c.cycles = 0;
    assert!(run(&c).unwrap_err().to_string().starts_with("cycles: "));
    c.cycles = 2;
    c.timeouts = ModelTimeouts::Eifel;
    assert_eq!(
        run(&c).unwrap_err().to_string(),
        "timeouts: eifel needs the eifel or agg timer (an Eifel sender tells a timeout spurious)"
    );
    c.timer = ModelTimer::Agg { k: 0 };
    assert!(run(&c).unwrap_err().to_string().starts_with("k: "));
    c.timer = ModelTimer::Agg { k: 50_000 };
    c.sampling = ModelSampling::OncePerRtt;
    assert!(run(&c).unwrap_err().to_string().starts_with("timeouts: "));
}

/// Fig 5-18's model: W = MAXCWND = 26, 1 ms, k = 0.05, 40 cycles; timeouts acted on or not.
fn fig_5_18(timeouts: ModelTimeouts) -> Vec<ModelRow> {
    let mut c = cfg(
        26,
        1,
        ModelTimer::Agg { k: 50_000 },
        ModelSampling::EveryAck,
    );
    c.cycles = 40;
    c.timeouts = timeouts;
    run(&c).unwrap()
}

#[test]
fn rto_agg_trains_towards_the_rtt_and_each_spurious_timeout_pushes_it_back_fig_5_18() {
    // §5.4.6: "converge to RTT, until a spurious timeout occurs, and then back it off to a
    // more conservative level before it becomes more aggressive again".
    let rows = fig_5_18(ModelTimeouts::Eifel);
    let steady: Vec<ModelRow> = rows.iter().copied().filter(|r| r.cycle > 0).collect();
    let hits: Vec<ModelRow> = steady.iter().copied().filter(|r| r.timeouts > 0).collect();
    // A spurious timeout every fourth cycle, at the end of the cycle (the highest RTT).
    assert_eq!(hits.len(), 9, "{hits:?}");
    assert!(
        hits.iter().all(|r| r.timeouts == 1 && r.load >= 25),
        "a single one each"
    );
    for r in &hits {
        // The timer fired before the ACK; the RTO after the detection is higher.
        assert!(r.timeout_at.unwrap() < r.at && r.rto_prev < r.rtt && r.rto > r.rto_prev);
    }
    for w in steady.windows(2) {
        let (a, b) = (w[0].agg, w[1]);
        if b.timeouts > 0 {
            // Halfway back to 1 after this ACK's sample decayed it (to the millionth).
            let decayed = a - a * 50_000 * 8 / (AGG_ONE * 3 * 26 * 26);
            assert!(
                b.agg.abs_diff(decayed + (AGG_ONE - decayed) / 2) <= 1,
                "{b:?}"
            );
        } else {
            assert!(b.agg < a, "AGG decays on every sample without a timeout");
        }
    }
    // k = 0.05: AGG falls about 5 % a cycle (CYCLE = 3/8 · 26² = 253.5 samples against the
    // model's 273 ACKs a cycle: 1 - (1 - 0.05/253.5)^273 = 5.2 %).
    let c1 = cycle(&rows, 1);
    let fall = 1.0 - c1[c1.len() - 1].agg as f64 / c1[0].agg as f64;
    assert!((0.051..0.053).contains(&fall), "{fall}");
    // The sawtooth stays between the RTT and RTO_E: the mean RTO over the RTT is below RTO_E's.
    let eifel = run(&{
        let mut c = cfg(26, 1, ModelTimer::Eifel, ModelSampling::EveryAck);
        c.cycles = 40;
        c.timeouts = ModelTimeouts::Eifel;
        c
    })
    .unwrap();
    let margin = |rs: &[ModelRow]| {
        let st: Vec<f64> = rs
            .iter()
            .filter(|r| r.cycle > 0)
            .map(|r| s(r.rto_prev) / s(r.rtt))
            .collect();
        st.iter().sum::<f64>() / st.len() as f64
    };
    let (agg, e) = (margin(&rows), margin(&eifel));
    assert!(agg > 1.2 && agg < 1.35 && e > 1.7, "{agg} {e}");
    // RTO_E never undershoots after the start: acting on timeouts changes none of its rows.
    assert!(eifel
        .iter()
        .filter(|r| r.cycle > 0)
        .all(|r| r.timeouts == 0));
    let shown = run(&{
        let mut c = cfg(26, 1, ModelTimer::Eifel, ModelSampling::EveryAck);
        c.cycles = 40;
        c
    })
    .unwrap();
    assert_eq!(&shown[shown.len() - 300..], &eifel[eifel.len() - 300..]);
}

#[test]
fn the_first_steady_spurious_timeout_at_explicit_times() {
    // Service 6.25 s, W 26: cycle 7's flight of load 25; the segment sent at 13256.25 s is
    // acknowledged at 13412.5 s (RTT 156.25 s), its REXMT_E (RTO 153.241 s) fires at
    // 13409.491 s, Eifel detects it on the ACK, and AGG goes from 0.6575 (0.6574 after the
    // sample's decay) halfway back to 1: 0.8287, the RTO from 153.241 s to 194.846 s.
    let rows = fig_5_18(ModelTimeouts::Eifel);
    let r = rows.iter().find(|r| r.cycle > 0 && r.timeouts > 0).unwrap();
    let prev = rows[rows.iter().position(|x| x == r).unwrap() - 1];
    assert_eq!((r.cycle, r.load), (7, 25));
    assert_eq!(r.at, SimTime(13_412_500_000_000));
    assert_eq!(r.rtt, SimDuration::from_millis(156_250));
    assert_eq!(r.rto_prev, SimDuration::from_millis(153_241));
    assert_eq!(r.timeout_at, Some(SimTime(13_409_491_000_000)));
    assert_eq!(r.rto, SimDuration::from_millis(194_846));
    assert_eq!((prev.agg, r.agg), (657_490, 828_680));
    // The rows before it in the cycle never undershoot.
    assert!(rows
        .iter()
        .filter(|x| x.cycle > 0 && x.at < r.at)
        .all(|x| x.rto_prev >= x.rtt));
}

#[test]
fn without_acting_on_its_timeouts_agg_runs_through_the_rtt() {
    // The counterfactual: the model before, which never acted on an effective timeout, gives
    // AGG nothing to learn from; it decays ~5 % a cycle for ever and the RTO falls far below
    // the RTT (every ACK of the last cycles after its timer would have fired).
    let rows = fig_5_18(ModelTimeouts::Shown);
    assert!(rows.iter().all(|r| r.timeouts == 0));
    assert!(rows.windows(2).all(|w| w[1].agg < w[0].agg));
    let last = cycle(&rows, 39);
    assert!(
        last[last.len() - 1].agg < 150_000,
        "{:?}",
        last[last.len() - 1]
    );
    assert!(last.iter().all(|r| r.rto_prev < r.rtt));
}
