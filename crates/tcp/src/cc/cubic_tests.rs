//! Unit tests of CUBIC (RFC 9438 and Linux's `tcp_cubic.c`) on the bare controller.

use super::*;
use engine::SimDuration;

const MSS: u32 = 1000;

fn ack(now_ms: u64, srtt_ms: u64) -> AckSample {
    AckSample {
        acked_bytes: MSS,
        flight_bytes: 10 * MSS,
        now: SimTime(now_ms * 1_000_000),
        srtt: SimDuration::from_millis(srtt_ms),
        // A sample equal to the SRTT, so that Linux's `delay_min` is the SRTT too.
        rtt: (srtt_ms > 0).then(|| SimDuration::from_millis(srtt_ms)),
        ack: 0,
        snd_nxt: 0,
    }
}

#[test]
fn the_integer_cube_root_is_exact_and_floors() {
    assert_eq!(icbrt(0), 0);
    assert_eq!(icbrt(26), 2);
    assert_eq!(icbrt(27), 3);
    assert_eq!(icbrt(1_000_000_000_000), 10_000);
    assert_eq!(icbrt(u128::MAX), 6_981_463_658_331);
}

/// Hand-computed: W_max = 100 segments, β = 0.7 → cwnd 70 after the recovery;
/// K = cbrt(30/0.4) = cbrt(75) = 4.217163 s; W(0) = 70 seg, W(K) = 100 seg,
/// W(2K) = 130 seg (point symmetry about the inflection).
#[test]
fn k_and_the_curve_after_a_loss_match_rfc_9438() {
    let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30);
    cc.on_congestion(CongestionEvent::FastRetransmit {
        flight_bytes: 100 * MSS,
        peer_window: 1 << 30,
        dupacks: 3,
    });
    assert_eq!((cc.ssthresh(), cc.cwnd()), (70 * MSS, 73 * MSS));
    cc.on_recovery_exit();
    assert_eq!(cc.cwnd(), 70 * MSS);
    cc.on_ack(ack(1000, 0));
    let k = cc.k().unwrap();
    assert!((4_217_162_000..=4_217_164_000).contains(&k), "K = {k} ns");
    assert_eq!(cc.w_max(), 100 * MSS);
    let w0 = cc.w_cubic(0, k);
    assert!((69_999..=70_001).contains(&w0), "W(0) = {w0}");
    assert_eq!(cc.w_cubic(k, k), 100 * u64::from(MSS));
    let w2k = cc.w_cubic(2 * k, k);
    assert!((129_999..=130_001).contains(&w2k), "W(2K) = {w2k}");
}

/// RFC 8511 ABE on the bare controller: an ECN response with β_ecn = 0.85 leaves 85 of 100
/// segments (a loss leaves 70), W_max is still the window before the reduction, and the
/// next epoch's K is cbrt((100 − 85)/0.4) = cbrt(37.5) = 3.347 s (a loss: 4.217 s).
#[test]
fn an_abe_response_reduces_by_beta_ecn_not_beta_cubic() {
    let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30);
    assert!(cc.on_ecn_abe(100 * MSS, 1 << 30, crate::cc::BETA_ECN_CUBIC));
    assert_eq!((cc.ssthresh(), cc.cwnd()), (85 * MSS, 85 * MSS));
    assert_eq!(cc.w_max(), 100 * MSS);
    cc.on_ack(ack(1000, 0));
    let k = cc.k().unwrap();
    assert!((3_347_000_000..=3_348_000_000).contains(&k), "K = {k} ns");
    // The 2·MSS floor (RFC 8511 §3).
    let mut small = CubicCc::new(MSS, 2 * MSS, 1 << 30);
    small.on_ecn_abe(2 * MSS, 1 << 30, crate::cc::BETA_ECN_CUBIC);
    assert_eq!(small.ssthresh(), 2 * MSS);
}

/// Fast convergence (§4.7): a second loss below the previous W_max lowers W_max to
/// cwnd·(1+β)/2.
#[test]
fn fast_convergence_lowers_the_plateau() {
    let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30);
    let fr = CongestionEvent::FastRetransmit {
        flight_bytes: 0,
        peer_window: 1 << 30,
        dupacks: 3,
    };
    cc.on_congestion(fr);
    cc.on_recovery_exit();
    cc.on_congestion(fr); // at cwnd 70 < W_last_max 100
    assert_eq!(cc.w_max(), 70 * MSS * 17 / 20);
    assert_eq!(cc.ssthresh(), 49 * MSS);
}

/// Reno-friendly region (§4.3): with a small window and a long RTT, W_est grows faster
/// than the cubic curve, and cwnd follows W_est = cwnd_epoch + 9/17 segment per window.
#[test]
fn the_reno_friendly_region_follows_w_est() {
    let mut cc = CubicCc::new(MSS, 10 * MSS, 1 << 30);
    cc.on_congestion(CongestionEvent::Timeout {
        flight_bytes: 10 * MSS,
        peer_window: 1 << 30,
    });
    assert_eq!((cc.ssthresh(), cc.cwnd()), (7 * MSS, MSS));
    // Slow start back to ssthresh: 1 → 7 segments, two segments per two-segment ACK.
    for i in 0..3 {
        cc.on_ack(AckSample {
            acked_bytes: 2 * MSS,
            ..ack(i, 0)
        });
    }
    assert_eq!(cc.cwnd(), 7 * MSS);
    // The first congestion avoidance after a timeout (§4.8): K = 0, W_max = cwnd_epoch = 7
    // segments. Over the first 100 ms the cubic curve grows by 0.4·0.1³ = 0.0004 segment,
    // W_est by 9/17 per 7 segments acked: one window of ACKs (7 at 10 ms intervals, srtt 0).
    for i in 0..7 {
        cc.on_ack(ack(10 + 10 * i, 0));
    }
    // W_est += 9/17 · 1000·1000/cwnd per ACK, cwnd = W_est: 7075, 7150, 7224, 7297, 7370,
    // 7442, 7513 bytes (by hand, flooring each step).
    let c = cc.cwnd();
    assert_eq!(c, 7_513, "cwnd follows W_est");
    let t = 70_000_000;
    let k = cc.k().unwrap();
    assert_eq!((k, cc.w_max()), (0, 7 * MSS));
    assert!(cc.w_cubic(t, k) < u64::from(c), "cubic curve below W_est");
}

/// Linux's Reno-friendly region (`tcp_cubic.c` `bictcp_update`): the estimate counts whole
/// segments and cwnd moves towards it by (tcp_cwnd − cwnd)/cwnd segment per segment
/// acknowledged (`max_cnt = cwnd / delta`), or along the curve when that is faster (the smaller
/// `cnt` wins). The set-up above (cwnd 7 segments, one-segment ACKs 10 ms apart, SRTT 0, K =
/// cbrt(3/0.4) s): W_est grows by about 8/15 · 1000·1000/7000 = 76 bytes per ACK and stays
/// above W_cubic(t), which climbs about 46 bytes per 10 ms; while the estimate is 7 whole
/// segments cwnd follows the curve (7 107 after one window, 7 300 after 13 ACKs; a rule that
/// follows the estimate alone keeps 7 000 there); the 14th ACK takes W_est to 8 049 bytes, 8
/// whole segments, and cwnd grows by (8 000 − 7 300)·1000/7300 = 96 bytes to 7 396.
#[test]
fn linux_trails_the_whole_segment_estimate() {
    // A fast retransmit, not the timeout of the set-up above: after a timeout Linux forgets
    // the plateau (`bictcp_reset`) and its curve starts at K = 0.
    let mut cc = CubicCc::new(MSS, 10 * MSS, 1 << 30).with_reno_friendly(RenoFriendly::Linux);
    cut(&mut cc, 10 * MSS);
    assert_eq!(cc.cwnd(), 7 * MSS);
    let mut cwnd = Vec::new();
    for i in 0..14 {
        cc.on_ack(ack(10 + 10 * i, 0));
        cwnd.push(cc.cwnd());
    }
    let e = cc.epoch.unwrap();
    assert!(cc.w_cubic(130_000_000, e.k_ns) < e.w_est / EST_SCALE);
    assert_eq!((cwnd[6], cwnd[12]), (7_107, 7_300), "the curve's growth");
    assert_eq!(cwnd[13], 7_396, "towards the estimate's 8 whole segments");
    assert_eq!(e.w_est / EST_SCALE, 8_049);
}

/// RFC 9438 §4.3 switches W_est's α from 9/17 to 1 once W_est regains cwnd_prior (the
/// window before the reduction, 10 segments here); Linux's `tcp_cubic.c` keeps its 8/15.
/// The same set-up as above, one-segment ACKs at 10 ms: both estimates climb alike to 10
/// segments (Linux's cwnd trailing its estimate, above), then RFC 9438 gains a segment per
/// window and Linux's estimate about half of one: 8/15 of MSS²/cwnd per ACK, 533-570 bytes
/// over ten ACKs with its cwnd between 9.4 and 10 segments.
#[test]
fn linux_keeps_alpha_where_rfc_9438_switches_to_one() {
    let run = |friendly| {
        let mut cc = CubicCc::new(MSS, 10 * MSS, 1 << 30).with_reno_friendly(friendly);
        cc.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 10 * MSS,
            peer_window: 1 << 30,
        });
        for i in 0..3 {
            cc.on_ack(AckSample {
                acked_bytes: 2 * MSS,
                ..ack(i, 0)
            });
        }
        (0..80)
            .map(|i| {
                cc.on_ack(ack(10 + 10 * i, 0));
                cc.epoch.map(|e| e.w_est / EST_SCALE).unwrap() as u32
            })
            .collect::<Vec<u32>>()
    };
    let (rfc, linux) = (run(RenoFriendly::Rfc9438), run(RenoFriendly::Linux));
    let past = rfc.iter().position(|&c| c >= 10 * MSS).unwrap();
    assert_eq!(past, 47);
    // Up to there α differs only by 9/17 against 8/15 (and Linux divides by its lower
    // cwnd, 9.4-9.9 segments against 10): within 4 %.
    assert!(
        linux[past].abs_diff(rfc[past]) < 400,
        "{} {}",
        linux[past],
        rfc[past]
    );
    // The next ten ACKs: about MSS²/cwnd each with α = 1 (959 bytes), 8/15 of that on
    // Linux.
    assert_eq!(rfc[past + 10] - rfc[past], 959);
    let d = linux[past + 10] - linux[past];
    assert!((533..=570).contains(&d), "{d}");
}

#[test]
fn undo_restores_the_plateau() {
    let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30);
    cc.on_congestion(CongestionEvent::Timeout {
        flight_bytes: 0,
        peer_window: 1 << 30,
    });
    assert_eq!(cc.w_max(), 100 * MSS);
    cc.on_congestion(CongestionEvent::Timeout {
        flight_bytes: 0,
        peer_window: 1 << 30,
    });
    assert_eq!(cc.w_max(), MSS * 17 / 20);
    cc.undo(60 * MSS, 40 * MSS);
    assert_eq!(
        (cc.cwnd(), cc.ssthresh(), cc.w_max()),
        (60 * MSS, 40 * MSS, 100 * MSS)
    );
}

/// Linux's `bictcp_update` before any reduction (`last_max_cwnd == 0`): `cnt` is at most 20, a
/// segment per 20 acknowledged, so one window of ACKs adds 5 %. Congestion avoidance at 100
/// segments without a loss (ssthresh = cwnd, as HyStart leaves it), one-segment ACKs 1 ms
/// apart with an SRTT of 100 ms: the curve from K = 0 adds 0.4·0.2³ = 0.0032 segment over the
/// window, so RFC 9438 follows W_est, which grows by α = 1 at once (no window before a
/// reduction to regain): about a segment per window, 995 bytes. Linux's floor: (cwnd/20)·1000/cwnd = 50 bytes per
/// ACK, 5 % of the window over the 100 ACKs (104 999: one byte lost to the integer division). After a reduction the
/// floor is gone: the same window after a fast retransmit grows by the curve alone.
#[test]
fn linux_grows_five_percent_a_round_trip_before_the_first_loss() {
    let window = |friendly, loss: bool| {
        let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(friendly);
        if loss {
            cc.on_congestion(CongestionEvent::FastRetransmit {
                flight_bytes: 100 * MSS,
                peer_window: 1 << 30,
                dupacks: 3,
            });
            cc.on_recovery_exit();
        }
        let w = cc.cwnd();
        cc.on_idle_restart(w, w);
        for i in 0..100 {
            cc.on_ack(ack(1000 + i, 100));
        }
        (w, cc.cwnd())
    };
    assert_eq!(window(RenoFriendly::Rfc9438, false), (100_000, 100_995));
    assert_eq!(window(RenoFriendly::Linux, false), (100_000, 104_999));
    // After the loss: 70 segments, K = cbrt(30/0.4) s ≈ 4.2 s; the curve's steep start adds
    // (W(t + SRTT) − cwnd)/cwnd ≈ 0.4·(4.22³ − 4.12³)·1000/70 ≈ 30 bytes per ACK at first,
    // 2 486 over the window, where the floor would add 35 per ACK (3 500).
    // The estimate's whole segments add 7 bytes where they pass the curve's target.
    let (w, after) = window(RenoFriendly::Linux, true);
    assert_eq!((w, after), (70_000, 72_493));
}

/// Linux's `bictcp_update` takes the smaller `cnt` of the curve and the Reno-friendly estimate,
/// so neither stops the other: in the Reno-friendly region (W_cubic(t) < W_est) whose estimate
/// has not yet gained a whole segment, cwnd still moves towards the curve's target
/// W_cubic(t + RTT). A window of 100 segments after a fast retransmit (W_max 100 segments) and
/// an idle restart at 100: K = 0, so W_cubic(t) = 100 + 0.4·t³ segments stays below W_est
/// (100 + 8/15 of a segment per window) for the first 1.15 s; with an SRTT of 1 s and
/// one-segment ACKs 10 ms apart the target is 100 + 0.4·(t + 1)³ segments, 400 bytes above
/// cwnd at first, 3 200 after a second. Over those 100 ACKs the estimate stays at 100 whole
/// segments, so a rule that follows only the estimate there keeps cwnd at 100 000; the curve
/// adds (target − cwnd)/cwnd per segment acknowledged.
#[test]
fn linux_follows_the_curve_where_the_estimate_has_not_gained_a_segment() {
    let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(RenoFriendly::Linux);
    cut(&mut cc, 100 * MSS);
    cc.on_idle_restart(100 * MSS, 100 * MSS);
    let mut cwnd = Vec::new();
    for i in 0..100 {
        cc.on_ack(ack(10_000 + 10 * i, 1000));
        cwnd.push(cc.cwnd());
    }
    let e = cc.epoch.unwrap();
    assert_eq!(e.k_ns, 0);
    let t_last = 990_000_000;
    assert!(
        cc.w_cubic(t_last, 0) < e.w_est / EST_SCALE,
        "Reno-friendly region throughout"
    );
    assert_eq!(
        e.w_est / EST_SCALE / u64::from(MSS),
        100,
        "no whole segment gained"
    );
    assert!(cwnd.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(cwnd[0], 100_004);
    assert_eq!(cwnd[99], 101_083);
}

/// A fast retransmit at `cwnd` bytes, then the recovery's end.
fn cut(cc: &mut CubicCc, cwnd: u32) {
    cc.on_idle_restart(cwnd, cwnd);
    cc.on_congestion(CongestionEvent::FastRetransmit {
        flight_bytes: cwnd,
        peer_window: 1 << 30,
        dupacks: 3,
    });
    cc.on_recovery_exit();
}

/// RFC 9438 §4.7 and `cubictcp_recalc_ssthresh`: fast convergence lowers the plateau when the
/// window at a loss is below the *plateau* the last loss set (after its own fast convergence),
/// not below the window at that loss (RFC 8312's W_last_max). Losses at 100, 90 and 80
/// segments: 90 < 100 gives 90·0.85 = 76.5 segments; 80 is above 76.5, so the plateau is 80
/// (RFC 8312's rule, 80 < 90, would give 68). Where the two variants part: an epoch that
/// starts above the plateau raises RFC 9438's W_max to the window (§4.2) but not Linux's
/// `last_max_cwnd`, so a loss at 110 segments after an epoch at 120 converges under the RFC
/// (110 < 120: 93.5) and not under Linux (110 > 100).
#[test]
fn fast_convergence_compares_with_the_last_plateau() {
    for friendly in [RenoFriendly::Rfc9438, RenoFriendly::Linux] {
        let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(friendly);
        let mut plateaus = Vec::new();
        for w in [100, 90, 80] {
            cut(&mut cc, w * MSS);
            plateaus.push(cc.w_max());
        }
        assert_eq!(plateaus, [100_000, 76_500, 80_000], "{friendly:?}");
        let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(friendly);
        cut(&mut cc, 100 * MSS);
        cc.on_idle_restart(120 * MSS, 120 * MSS);
        cc.on_ack(ack(10, 20));
        assert_eq!(cc.w_max(), 120 * MSS, "the epoch's plateau, {friendly:?}");
        cut(&mut cc, 110 * MSS);
        let expect = match friendly {
            RenoFriendly::Rfc9438 => 93_500,
            RenoFriendly::Linux => 110_000,
        };
        assert_eq!(cc.w_max(), expect, "{friendly:?}");
    }
}

/// Linux aims at `W_cubic(t + delay_min)` (`bictcp_update`), the least RTT sample, where RFC
/// 9438 aims a smoothed RTT ahead: with samples of 20 ms and an SRTT of 200 ms, Linux's
/// window grows as with an SRTT of 20 ms, and slower than when the samples are 200 ms too
/// (the curve's steep start after a cut at 100 segments, K ≈ 4.2 s). A smaller sample in the
/// first second of an epoch is left out (`cubictcp_acked`), one after it counts.
#[test]
fn linux_aims_a_minimum_rtt_ahead() {
    let grow = |friendly, srtt_ms: u64, rtt_ms: u64| {
        let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(friendly);
        cut(&mut cc, 100 * MSS);
        for i in 0..70 {
            cc.on_ack(AckSample {
                rtt: Some(SimDuration::from_millis(rtt_ms)),
                ..ack(10 + i, srtt_ms)
            });
        }
        cc.cwnd()
    };
    let linux = |srtt, rtt| grow(RenoFriendly::Linux, srtt, rtt);
    assert_eq!(linux(200, 20), linux(20, 20));
    assert!(linux(200, 200) > linux(200, 20));
    let rfc = |srtt, rtt| grow(RenoFriendly::Rfc9438, srtt, rtt);
    assert_eq!(rfc(200, 20), rfc(200, 200));
    assert!(rfc(200, 20) > rfc(20, 20));

    let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(RenoFriendly::Linux);
    cut(&mut cc, 100 * MSS);
    cc.on_ack(ack(0, 40));
    assert_eq!(cc.delay_min, Some(SimDuration::from_millis(40)));
    cc.on_ack(ack(999, 10));
    assert_eq!(cc.delay_min, Some(SimDuration::from_millis(40)), "settling");
    cc.on_ack(ack(1000, 10));
    assert_eq!(cc.delay_min, Some(SimDuration::from_millis(10)));
}

/// `cubictcp_state(TCP_CA_Loss)` calls `bictcp_reset`: after a timeout Linux's CUBIC has no
/// plateau and no minimum RTT, so its next epoch starts at K = 0 with the 5 %-a-round-trip
/// floor of a connection that never reduced. RFC 9438 §4.8 keeps W_max (101 segments) until
/// the first congestion avoidance after the timeout, which starts at K = 0 with W_max = 70
/// segments, its window; no floor, so over the 70 ACKs the Reno-friendly estimate leads:
/// 9/17 of a segment per window, 527 bytes (the curve adds 0.4·0.07³ segment).
#[test]
fn linux_forgets_the_plateau_and_the_minimum_rtt_at_a_timeout() {
    let after = |friendly| {
        let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(friendly);
        cc.on_ack(ack(0, 20));
        cc.on_congestion(CongestionEvent::Timeout {
            flight_bytes: 100 * MSS,
            peer_window: 1 << 30,
        });
        // The sample's ACK grew the slow start to 101 segments.
        assert_eq!(cc.ssthresh(), 70_700);
        let forgot = (cc.w_max(), cc.delay_min);
        cc.on_idle_restart(70 * MSS, 70 * MSS);
        for i in 0..70 {
            cc.on_ack(ack(10 + i, 20));
        }
        (forgot, cc.k(), cc.cwnd())
    };
    let (forgot, k, cwnd) = after(RenoFriendly::Linux);
    assert_eq!(forgot, (0, None));
    assert_eq!(k, Some(0));
    // (cwnd/20)·1000/cwnd = 50 bytes per ACK: 5 % of 70 segments over 70 ACKs.
    assert_eq!(cwnd, 73_499);
    let (forgot, k, cwnd) = after(RenoFriendly::Rfc9438);
    assert_eq!(forgot.0, 101 * MSS);
    assert_eq!((k, cwnd), (Some(0), 70_527));
}

/// Linux's undo is `tcp_reno_undo_cwnd`: the window and ssthresh come back, the plateau the
/// spurious cut set stays; RFC 9438 §4.9 restores the plateau too.
#[test]
fn linux_undo_keeps_the_plateau_of_the_cut() {
    for (friendly, plateau) in [
        (RenoFriendly::Rfc9438, 100_000),
        (RenoFriendly::Linux, 59_500),
    ] {
        let mut cc = CubicCc::new(MSS, 100 * MSS, 1 << 30).with_reno_friendly(friendly);
        cut(&mut cc, 100 * MSS);
        cut(&mut cc, 70 * MSS);
        assert_eq!(cc.w_max(), 59_500);
        cc.undo(100 * MSS, 70 * MSS);
        assert_eq!(
            (cc.cwnd(), cc.w_max()),
            (100 * MSS, plateau),
            "{friendly:?}"
        );
    }
}
