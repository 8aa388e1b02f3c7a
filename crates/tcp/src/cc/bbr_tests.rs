//! Unit tests of BBR v1: its gains, states and recovery, by hand-made rate samples.

use super::*;
use crate::cc::test_kit::{sample_ms, MSS};

/// A sample at `t` ms delivering `bw` bytes/s over one 40 ms interval (RTT 40 ms), with
/// `total` bytes delivered so far and `prior` when the sampled segment left.
fn rs(t: u64, bw: u64, total: u64, prior: u64, in_flight: u64) -> RateSample {
    RateSample {
        delivered: bw * 40 / 1000,
        prior_delivered: prior,
        delivered_total: total,
        prior_in_flight: in_flight,
        in_flight,
        ..sample_ms(t, u64::from(MSS), 40)
    }
}

#[test]
fn gains_and_the_inflight_target_by_hand() {
    assert_eq!(
        (HIGH_GAIN, DRAIN_GAIN),
        (739, 88),
        "2/ln 2 and ln 2/2 in 1/256"
    );
    let mut b = BbrCc::new(MSS, 10 * MSS, 1 << 30, 0);
    assert_eq!(b.inflight(UNIT), 10_000, "the initial window before RTprop");
    // One round at 1 250 000 B/s (10 Mb/s) and RTT 40 ms: BDP = 50 000 bytes.
    b.on_rate_sample(&rs(40, 1_250_000, 50_000, 0, 10_000));
    assert_eq!(b.btl_bw(), 1_250_000);
    // Pacing at 2.885 · 1.25 MB/s = 3.61 MB/s (above 24 Mb/s): quantum = 1 ms of it.
    let rate = 1_250_000 * 739 / 256;
    assert_eq!(b.pacing_rate(), Some(rate));
    let quantum = rate / 1000;
    assert_eq!(b.inflight(2 * UNIT), 100_000 + 3 * quantum);
}

/// Startup's exit by hand: BtlBw per round 100, 200, 400, 800, 1000, 1100, 1150, 1150 kB/s.
/// full_bw follows while it grows by 25 % (1000 ≥ 1.25 · 800 still counts); 1100, 1150 and
/// 1150 are below 1.25 · 1000: the third such round fills the pipe and BBR drains, pacing
/// at ln 2/2.
#[test]
fn startup_ends_after_three_rounds_without_25_percent_growth() {
    let mut b = BbrCc::new(MSS, 10 * MSS, 1 << 30, 0);
    let mut total = 0;
    for (i, kbs) in [100, 200, 400, 800, 1000, 1100, 1150, 1150]
        .iter()
        .enumerate()
    {
        let prior = total;
        total += kbs * 40;
        b.on_rate_sample(&rs(40 * (i as u64 + 1), kbs * 1000, total, prior, 1 << 20));
        let want = if i < 7 {
            BbrMode::Startup
        } else {
            BbrMode::Drain
        };
        assert_eq!(b.mode(), want, "round {}", i + 1);
    }
    assert_eq!(b.model().map(|m| (m.round, m.pacing_gain)), Some((8, 88)));
    // Drained: the flight is down to one BDP (1.15 MB/s · 40 ms = 46 000 bytes + quanta).
    b.on_rate_sample(&rs(360, 1_150_000, total + 1000, total, 40_000));
    assert_eq!(b.mode(), BbrMode::ProbeBw);
}

/// ProbeBW's cycle with seed 0: it enters at index 7 − 0 + 1 = 0 (gain 5/4), which ends
/// after one RTprop once the flight reaches 5/4 BDP; 3/4 ends at once when the flight is
/// down to one BDP; then six phases at 1, each one RTprop (40 ms) long.
#[test]
fn probe_bw_cycles_its_gains() {
    let mut b = BbrCc::new(MSS, 10 * MSS, 1 << 30, 0);
    let mut total = 0;
    let mut t = 0;
    let mut step = |b: &mut BbrCc, dt: u64, in_flight: u64| {
        t += dt;
        let prior = total;
        total += 50_000;
        b.on_rate_sample(&rs(t, 1_250_000, total, prior, in_flight));
        b.model().map(|m| m.pacing_gain)
    };
    for _ in 0..4 {
        step(&mut b, 40, 1 << 20);
    }
    assert_eq!(b.mode(), BbrMode::Drain);
    assert_eq!(step(&mut b, 1, 10_000), Some(320), "ProbeBW at 5/4");
    assert_eq!(b.mode(), BbrMode::ProbeBw);
    // Not yet one RTprop: stays at 5/4 even with a big flight.
    assert_eq!(step(&mut b, 20, 100_000), Some(320));
    // A full RTprop and the flight at 5/4 BDP (62 500 + quanta): 3/4.
    assert_eq!(step(&mut b, 21, 100_000), Some(192));
    // 3/4 ends as soon as the flight is at most one BDP.
    assert_eq!(step(&mut b, 1, 40_000), Some(256));
    let mut gains = Vec::new();
    for _ in 0..7 {
        gains.push(step(&mut b, 41, 50_000));
    }
    assert_eq!(gains[..5], [Some(256); 5]);
    assert_eq!(
        gains[5..],
        [Some(320), Some(320)],
        "six phases at 1, then 5/4 again"
    );
}

/// ProbeRTT: no lower RTT for 10 s; cwnd to 4 segments; once the flight is down to it,
/// 200 ms and a round trip, then back to ProbeBW with the window before.
#[test]
fn probe_rtt_after_ten_seconds_holds_four_segments_for_200_ms() {
    let mut b = BbrCc::new(MSS, 10 * MSS, 1 << 30, 0);
    let mut total = 0;
    let mut feed = |b: &mut BbrCc, t: u64, in_flight: u64| {
        let prior = total;
        total += 50_000;
        b.on_rate_sample(&rs(t, 1_250_000, total, prior, in_flight));
    };
    for k in 1..=4 {
        feed(&mut b, 40 * k, 1 << 20);
    }
    feed(&mut b, 161, 10_000);
    assert_eq!(b.mode(), BbrMode::ProbeBw);
    let before = b.cwnd();
    feed(&mut b, 10_039, 50_000);
    assert_eq!(
        b.mode(),
        BbrMode::ProbeBw,
        "10 s not over (RTprop set at 40 ms)"
    );
    feed(&mut b, 10_041, 50_000);
    assert_eq!(b.mode(), BbrMode::ProbeRtt);
    assert_eq!(b.cwnd(), 4 * MSS);
    feed(&mut b, 10_060, 4000);
    feed(&mut b, 10_200, 4000);
    assert_eq!(
        b.mode(),
        BbrMode::ProbeRtt,
        "200 ms from 10 060 ms not over"
    );
    feed(&mut b, 10_261, 4000);
    assert_eq!(b.mode(), BbrMode::ProbeBw);
    assert!(b.cwnd() >= before, "{} < {before}", b.cwnd());
}

/// Loss: packet conservation in the first round of a fast recovery (cwnd = flight +
/// delivered), the window before it restored at the end.
#[test]
fn recovery_conserves_packets_and_restores_the_window() {
    let mut b = BbrCc::new(MSS, 10 * MSS, 1 << 30, 0);
    b.on_rate_sample(&rs(40, 1_250_000, 50_000, 0, 20_000));
    let before = b.cwnd();
    b.on_congestion(CongestionEvent::FastRetransmit {
        flight_bytes: 20_000,
        peer_window: 1 << 20,
        dupacks: 3,
    });
    let mut r = rs(41, 1_250_000, 51_000, 1000, 12_000);
    r.phase = Phase::Recovery { recover: 60_000 };
    b.on_rate_sample(&r);
    assert_eq!(b.cwnd(), 12_000 + 1000, "flight + delivered");
    let mut r = rs(82, 1_250_000, 60_000, 51_000, 30_000);
    r.phase = Phase::Open;
    b.on_rate_sample(&r);
    assert!(b.cwnd() >= before, "restored: {} < {before}", b.cwnd());
}
