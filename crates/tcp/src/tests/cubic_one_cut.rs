//! Packet script of CUBIC's one multiplicative decrease per congestion event (RFC 9438 §4.6;
//! Linux's `tcp_cubic.c`, whose `bictcp_recalc_ssthresh` runs once as `tcp_enter_recovery`
//! enters recovery): two segments of one window lost, the second while the first recovery
//! runs, cut the window once. The path of `cubic_friendly.rs`: 1000-byte segments through a
//! 1 ms-per-segment bottleneck, 9 ms forward and 10 ms back, every segment acknowledged, the
//! `linux` profile's CUBIC (Linux's Reno-friendly estimate) with RFC 6675 SACK recovery.

use crate::cc::RenoFriendly;
use crate::tests::cubic_friendly::{path, MSS};
use crate::tests::net::Log;
use crate::tests::prr::ms;

/// The ssthresh readings (segments) every ms to 400 ms, as (from ms, value) steps, and the
/// fast retransmits, with the first transmissions of `lost` (segment numbers) dropped.
fn cuts(lost: &'static [u64]) -> (Vec<(u64, u32)>, u64) {
    let mut p = path(RenoFriendly::Linux);
    p.drop = Box::new(move |_, off, n| n == 1 && lost.iter().any(|&k| off == k * u64::from(MSS)));
    let mut steps: Vec<(u64, u32)> = Vec::new();
    for t in 1..=400 {
        p.run_until(ms(t));
        let ss = p.sender.ssthresh() / MSS;
        if steps.last().map(|&(_, v)| v) != Some(ss) {
            steps.push((t, ss));
        }
    }
    let lost_logged = p
        .log
        .iter()
        .filter(|(_, l)| matches!(l, Log::Lost { .. }))
        .count();
    assert_eq!(lost_logged, lost.len());
    (steps, p.sender.stats().fast_retransmits)
}

/// Segment 20 is lost in slow start; segment 30, sent before its loss was seen, is lost too.
/// Both are repaired in one recovery with one cut: the same ssthresh, set at the same instant,
/// as with segment 20 alone (the third duplicate ACK at 53 ms: 21 segments, 0.7 of the window
/// then), and one fast retransmit.
#[test]
fn two_losses_in_one_window_cut_cubic_once() {
    let (one, fr1) = cuts(&[20]);
    let (two, fr2) = cuts(&[20, 30]);
    assert_eq!(one.len(), 2, "one reduction: {one:?}");
    assert_eq!(two, one);
    assert_eq!((fr1, fr2), (1, 1));
    assert_eq!(one[1], (53, 21));
}
