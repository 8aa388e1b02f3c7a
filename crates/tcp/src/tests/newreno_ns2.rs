//! Packet script of ns-2.35's NewReno timer rule (`tcp/tcp-newreno.cc:91-104`,
//! `newreno_changes1_ 1`, tcl/lib/ns-default.tcl:1099): only the first partial ACK of a recovery
//! restarts the retransmission timer, so a window with many holes, repaired one per round trip,
//! ends in a timeout; RFC 6582's flavour here restarts the timer on every partial ACK (RFC 6298
//! (5.3)) and repairs every hole without one.
//!
//! The path of `frto.rs`: 1 ms per 1000-byte segment at the bottleneck, 49 ms of propagation
//! behind it and 50 ms back (100 ms round trip); RFC 5681 Reno's window, initial window 10, the
//! RFC 6298 timer seeded with SRTT 100 ms (200 ms minimum). The first transmissions of segments
//! 2, 4, 6 and 8 are lost.

use crate::recovery::{NewRenoFlavor, NewRenoRecovery};
use crate::tests::net::Path;
use crate::tests::ns2_path::reno_path_100ms;
use crate::tests::prr::ms;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;

fn path(flavor: NewRenoFlavor) -> Path {
    reno_path_100ms(NewRenoRecovery::new(flavor, 3).into(), &[2, 4, 6, 8])
}

/// (ms, segment) of the retransmissions up to `to` ms.
fn resends(p: &Path, to: u64) -> Vec<(u64, u64)> {
    p.resends_ms(to, M)
}

/// The third duplicate (107 ms) resends segment 2; its partial ACK (207 ms) resends 4, whose
/// partial ACK (307 ms) resends 6, whose partial ACK (407 ms) resends 8. RFC 6582's flavour
/// restarts the timer on each and the ACK at 507 ms ends the recovery: four resends, no
/// timeout. ns-2's restarts it at 207 ms only (RTO 250 ms): it fires at 457 ms, before the
/// last hole's ACK, resends segment 8 a second time and goes back N from there.
#[test]
fn ns2_times_out_after_the_first_partial_ack_where_rfc6582_repairs_every_hole() {
    let holes = vec![(107, 2), (207, 4), (307, 6), (407, 8)];
    let mut rfc = path(NewRenoFlavor::Rfc6582);
    rfc.run_until(ms(1000));
    assert_eq!(resends(&rfc, 1000), holes);
    assert_eq!(rfc.sender.stats().timeouts, 0);

    let mut ns2 = path(NewRenoFlavor::Ns2);
    ns2.run_until(ms(456));
    assert_eq!(
        resends(&ns2, 456),
        holes,
        "the same repairs up to the timeout"
    );
    assert_eq!(ns2.sender.stats().timeouts, 0);
    ns2.run_until(ms(458));
    assert_eq!(ns2.sender.stats().timeouts, 1, "207 ms + RTO 250 ms");
    assert_eq!(resends(&ns2, 458)[4], (457, 8));
}
