//! Packet script of Linux's CUBIC after a retransmission timeout: `cubictcp_state` on
//! `TCP_CA_Loss` calls `bictcp_reset`, which zeroes `last_max_cwnd` and `delay_min`, so after
//! the slow start back to ssthresh the curve starts at K = 0 from the window it has, with the
//! 5 %-a-round-trip floor of a connection that never reduced. RFC 9438 §4.8 keeps W_max until
//! the first congestion avoidance after the timeout, which then starts at K = 0 with W_max the
//! window it starts with. The path of `cubic_friendly.rs` (1000-byte segments, a
//! 1 ms-per-segment bottleneck, 9 ms forward and 10 ms back), and a long fat variant of it;
//! every first transmission of segments 30 and up sent before a time is lost, so no duplicate
//! ACK comes and the timer fires.

use crate::cc::RenoFriendly;
use crate::tests::cubic_friendly::{path, MSS};
use crate::tests::net::Path;
use crate::tests::prr::ms;
use engine::{SimDuration, SimTime};

/// (cwnd in segments at each of `at` ms, timeouts, fast retransmits) for the `friendly` CUBIC
/// on the path of `cubic_friendly.rs`, the first transmissions from segment 30 on lost until
/// 100 ms.
fn after_timeout(friendly: RenoFriendly, at: &[u64]) -> (Vec<u32>, u64, u64) {
    windows_at(path(friendly), 100, at)
}

/// (cwnd in segments at each of `at` ms, timeouts, fast retransmits) on `p`, the first
/// transmissions from segment 30 on lost until `until_ms`.
fn windows_at(mut p: Path, until_ms: u64, at: &[u64]) -> (Vec<u32>, u64, u64) {
    p.drop = Box::new(move |t: SimTime, off, n| {
        n == 1 && off >= 30 * u64::from(MSS) && t < ms(until_ms)
    });
    let cwnd = at
        .iter()
        .map(|&t| {
            p.run_until(ms(t));
            p.sender.cwnd() / MSS
        })
        .collect();
    let s = p.sender.stats();
    (cwnd, s.timeouts, s.fast_retransmits)
}

/// One timeout (by 259 ms, the window 40 segments: ssthresh 28), no fast retransmit, under both
/// rules, and the same slow start back to 28 segments by 400 ms. Then Linux grows by its floor
/// from K = 0, a segment per 20 acknowledged: with the window's excess queued at the 1 ms
/// bottleneck, 100 segments acknowledged per 100 ms, so 5 segments per 100 ms whatever the
/// window (84, 109, 134, 159 segments at 1.5, 2, 2.5, 3 s). RFC 9438's curve starts at K = 0
/// too (§4.8) but without the floor: it adds 0.4·t³ segment, 7 by 3 s, and its Reno-friendly
/// estimate, a segment a round trip once past the 40 before the cut, carries it: 48, 57, 65, 72.
/// (Before §4.8 was followed the curve aimed at the 40 of the cut, K ≈ 3.1 s from 28: the same
/// windows, the estimate leading either way; the next script tells the two apart.)
#[test]
fn linux_cubic_regrows_from_the_window_after_a_timeout() {
    let at = [1500, 2000, 2500, 3000];
    let (linux, to, fr) = after_timeout(RenoFriendly::Linux, &at);
    assert_eq!((to, fr), (1, 0));
    assert_eq!(linux, [84, 109, 134, 159]);
    let (rfc, to, fr) = after_timeout(RenoFriendly::Rfc9438, &at);
    assert_eq!((to, fr), (1, 0));
    assert_eq!(rfc, [48, 57, 65, 72]);
}

/// RFC 9438 §4.8 where the curve leads: a 200 ms round trip (99 ms forward, 100 ms back) over a
/// 0.1 ms-per-segment bottleneck, no queue below 2000 segments; the first transmissions from
/// segment 30 on lost until 700 ms. One timeout at the window of 40 (ssthresh 28), the slow
/// start back to 28 by 2 s, then congestion avoidance from K = 0 with W_max = 28: W_cubic(t) =
/// 28 + 0.4·t³ segments, aimed a round trip ahead, 33, 58 and 120 segments at 4, 6 and 8 s. The
/// curve towards the cut's 40 (K = cbrt(12/0.4) ≈ 3.1 s) gave 39, 40 and 52: concave up to the
/// plateau, then the slow start of the convex region. Linux's `bictcp_reset` takes it to K = 0
/// as well, with its floor of 5 % a round trip: 47, 76 and 121.
#[test]
fn rfc_9438_starts_the_first_avoidance_after_a_timeout_at_k_0() {
    let long_fat = |friendly| {
        let mut p = path(friendly);
        p.fwd_delay = SimDuration::from_millis(99);
        p.rev_delay = SimDuration::from_millis(100);
        p.ps_per_byte = 100_000;
        p
    };
    let at = [2000, 4000, 6000, 8000];
    let (rfc, to, fr) = windows_at(long_fat(RenoFriendly::Rfc9438), 700, &at);
    assert_eq!((to, fr), (1, 0));
    assert_eq!(rfc, [28, 33, 58, 120]);
    let (linux, to, fr) = windows_at(long_fat(RenoFriendly::Linux), 700, &at);
    assert_eq!((to, fr), (1, 0));
    assert_eq!(linux, [29, 47, 76, 121]);
}
