//! Packet script of Linux's CUBIC after a retransmission timeout: `cubictcp_state` on
//! `TCP_CA_Loss` calls `bictcp_reset`, which zeroes `last_max_cwnd` and `delay_min`, so after
//! the slow start back to ssthresh the curve starts at K = 0 from the window it has, with the
//! 5 %-a-round-trip floor of a connection that never reduced; RFC 9438 keeps the plateau. The path of `cubic_friendly.rs` (1000-byte
//! segments, a 1 ms-per-segment bottleneck, 9 ms forward and 10 ms back); every first
//! transmission of segments 30 and up sent before 100 ms is lost, so no duplicate ACK comes and
//! the timer fires.

use crate::cc::RenoFriendly;
use crate::tests::cubic_friendly::{path, MSS};
use crate::tests::prr::ms;
use engine::SimTime;

/// (cwnd in segments at each of `at` ms, timeouts, fast retransmits) for the `friendly` CUBIC.
fn after_timeout(friendly: RenoFriendly, at: &[u64]) -> (Vec<u32>, u64, u64) {
    let mut p = path(friendly);
    p.drop = Box::new(|t: SimTime, off, n| n == 1 && off >= 30 * u64::from(MSS) && t < ms(100));
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
/// window (84, 109, 134, 159 segments at 1.5, 2, 2.5, 3 s). RFC 9438 keeps the plateau of 40
/// segments (K = cbrt(12/0.4) ≈ 3.1 s from 28), and its Reno-friendly estimate, a segment a
/// round trip once past the 40 before the cut, carries it: 48, 57, 65, 72.
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
