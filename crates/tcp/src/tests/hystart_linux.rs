//! Packet script of Linux's HyStart (`tcp_cubic.c`, `hystart_linux.rs`) on HyStart++'s path
//! (`tests/hystart.rs`): a 10 Mb/s bottleneck (1040-byte frames, 0.832 ms each), 20 ms each
//! way (base RTT 40.8 ms, a BDP of 49 segments), a 300-packet queue, timestamps so that every
//! ACK is an RTT sample, an ACK per segment, IW 10. Each round's ACKs come back at the
//! bottleneck's spacing, 0.832 ms apart, a train; once a round's train is longer than half of
//! (the minimum RTT + 1 ms), about 21 ms, Linux sets ssthresh to the window and leaves slow
//! start. The round of 20 segments is a 17 ms train; in the round that starts at 40 the 26th
//! ACK crosses 21 ms, at 145 ms, with 66 segments (the BDP is 49), and no segment is lost in the
//! first second. HyStart++ on the same path enters CSS at 224 ms with 153 segments
//! (`tests/hystart.rs`).

use crate::cc::{CubicCc, RenoFriendly};
use crate::tests::bsd_reno::ms;
use crate::tests::hystart::{path_with, MSS, WIN};
use crate::tests::net::Log;

#[test]
fn linux_hystart_leaves_slow_start_on_the_ack_train() {
    let mut p = path_with(CubicCc::new(MSS, 10 * MSS, WIN).with_linux_hystart());
    let mut exit = None;
    for t in 1..=1000 {
        p.run_until(ms(t));
        if exit.is_none() && p.sender.ssthresh() != WIN {
            exit = Some((t, p.sender.ssthresh() / MSS));
        }
    }
    assert_eq!(exit, Some((145, 66)), "(ms, ssthresh in segments)");
    assert!(!p.log.iter().any(|(_, l)| matches!(l, Log::Lost { .. })));
    // Congestion avoidance after the exit: 79 segments at 1 s.
    assert_eq!(p.sender.cwnd() / MSS, 79);
}

/// The same exit with Linux's whole `bictcp_update` (`RenoFriendly::Linux`, the `linux`
/// profile's): no loss has set `last_max_cwnd`, so `cnt` is at most 20 and the window grows by
/// a twentieth a round trip from the exit at 66 segments, where RFC 9438's rules reach 79 at
/// 1 s (above: the curve from K = 0 adds 0.4·t³, W_est a segment a round trip). Once the queue
/// holds the window's excess over the BDP, a round trip is about the window times 0.832 ms, so
/// a twentieth of it a round trip is a segment every 20 · 0.832 = 16.6 ms whatever the window:
/// 12 segments per 200 ms, linear, 116 at 1 s, no loss (the queue holds 300).
#[test]
fn linux_cubic_grows_five_percent_a_round_trip_after_hystart() {
    let cc = CubicCc::new(MSS, 10 * MSS, WIN)
        .with_linux_hystart()
        .with_reno_friendly(RenoFriendly::Linux);
    let mut p = path_with(cc);
    let mut at = Vec::new();
    for t in 1..=1000 {
        p.run_until(ms(t));
        if t % 200 == 0 {
            at.push(p.sender.cwnd() / MSS);
        }
    }
    assert_eq!(p.sender.ssthresh() / MSS, 66);
    assert!(!p.log.iter().any(|(_, l)| matches!(l, Log::Lost { .. })));
    assert_eq!(at, [68, 80, 92, 104, 116]);
}
