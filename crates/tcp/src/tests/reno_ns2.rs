//! Packet script of ns-2.35's `bugFix_` on Reno (`Agent/TCP set bugFix_ true`,
//! tcl/lib/ns-default.tcl:954; `RenoTcpAgent::dupack_action`, `tcp/tcp-reno.cc:171-212`): after
//! a fast retransmit no other starts until the cumulative ACK passes the highest segment sent at
//! it, so a second loss in the window waits for the timer; Net/3's Reno (lossylink's `e2e`)
//! fast-retransmits it on its own three duplicates and halves again.
//!
//! The path of `newreno_ns2.rs`: 1 ms per 1000-byte segment at the bottleneck, 49 ms of
//! propagation behind it and 50 ms back (100 ms round trip); RFC 5681 Reno's window, initial
//! window 10, the RFC 6298 timer seeded with SRTT 100 ms. The first transmissions of segments 2
//! and 6 are lost.

use crate::recovery::RenoRecovery;
use crate::tests::net::Path;
use crate::tests::ns2_path::reno_path_100ms;
use crate::tests::prr::ms;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;

fn path(bugfix: bool) -> Path {
    reno_path_100ms(RenoRecovery::new(3).with_bugfix(bugfix).into(), &[2, 6])
}

/// (ms, segment) of the retransmissions up to `to` ms.
fn resends(p: &Path, to: u64) -> Vec<(u64, u64)> {
    p.resends_ms(to, M)
}

/// The third duplicate for segment 2 (105 ms) resends it on either; its ACK (205 ms) is
/// partial (segment 6 is missing) and ends Reno's recovery. The duplicates for 6 that follow
/// (300-302 ms): Net/3 fast-retransmits 6 at 302 ms and halves a second time; with ns-2's
/// `bugFix_` the ACK (6000) has not passed `recover_` (the highest segment sent at 105 ms), so
/// nothing happens and 6 waits for the timer, restarted by the ACK at 205 ms (RTO 250 ms): a
/// timeout at 455 ms.
#[test]
fn ns2_bugfix_leaves_the_second_loss_of_a_window_to_the_timer() {
    let mut net3 = path(false);
    net3.run_until(ms(1000));
    assert_eq!(resends(&net3, 1000), vec![(105, 2), (302, 6)]);
    assert_eq!(net3.sender.stats().fast_retransmits, 2);
    assert_eq!(net3.sender.stats().timeouts, 0);

    let mut ns2 = path(true);
    ns2.run_until(ms(454));
    assert_eq!(
        resends(&ns2, 454),
        vec![(105, 2)],
        "no second fast retransmit"
    );
    assert_eq!(
        ns2.sender.stats().dupacks_received,
        14,
        "the same duplicates arrived"
    );
    ns2.run_until(ms(1000));
    assert_eq!(resends(&ns2, 1000), vec![(105, 2), (455, 6)]);
    assert_eq!(ns2.sender.stats().fast_retransmits, 1);
    assert_eq!(ns2.sender.stats().timeouts, 1);
}
