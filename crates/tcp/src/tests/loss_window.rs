//! Packet script of the loss response's flight under limited transmit
//! (`SenderConfig::loss_of_window`, `tcp.loss_window`). ns-2.35's Reno with `singledup_ 1`
//! (tcl/lib/ns-default.tcl:1002) sends one new segment on each of the first two duplicates
//! (`send_one`, tcp/tcp-reno.cc:125-126) without touching `cwnd_`, and its fast retransmit
//! halves `windowd()`, `min(cwnd_, wnd_)` (`slowdown`, tcp/tcp.cc:1252-1290), so the two new
//! segments do not count; RFC 5681 §3.2 (2) likewise leaves data sent by limited transmit out of
//! FlightSize ("additional data sent in limited transmit MUST NOT be included in this
//! calculation"), and lossylink's RFC 5681 Reno does so by default: the data sent since
//! limited transmit first let a segment go in the run of duplicates is taken off the flight.
//!
//! Four segments in flight at 0 ms (RFC 5681 Reno, window 4), the first lost: the duplicates at
//! 10 and 11 ms each release one new segment (4 and 5), the third at 12 ms fast-retransmits 0.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::RenoRecovery;
use crate::rto::{BsdRto, BsdRtoConfig};
use crate::tests::bsd_reno::{ack, drain, ms, slow_clock, BASE, MSS};
use crate::{Sender, SenderConfig, SenderParts, SeqSpace};
use engine::VecSink;

fn sender(loss_of_window: bool) -> Sender {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 4 * MSS, 65535).into(),
        recovery: RenoRecovery::new(3).into(),
        rto: BsdRto::new(BsdRtoConfig {
            clock: slow_clock(),
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        })
        .into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        limited_transmit: true,
        loss_of_window,
        ..SenderConfig::new(MSS, 32768)
    };
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 100 * u64::from(MSS));
    s.seed_rtt(ms(0), ms(10));
    s
}

/// ssthresh (segments) right after the fast retransmit at 12 ms, with six segments (0-5)
/// outstanding.
fn after_fast_retransmit(loss_of_window: bool) -> u32 {
    let mut t = VecSink::default();
    let mut s = sender(loss_of_window);
    assert_eq!(drain(&mut s, ms(0), &mut t).len(), 4);
    s.on_ack(ms(10), &ack(0, 32768), &mut t);
    assert_eq!(drain(&mut s, ms(10), &mut t), vec![(4 * MSS, MSS)]);
    s.on_ack(ms(11), &ack(0, 32768), &mut t);
    assert_eq!(drain(&mut s, ms(11), &mut t), vec![(5 * MSS, MSS)]);
    assert_eq!(s.cwnd(), 4 * MSS, "limited transmit leaves cwnd alone");
    s.on_ack(ms(12), &ack(0, 32768), &mut t);
    assert_eq!(drain(&mut s, ms(12), &mut t).first(), Some(&(0, MSS)));
    assert_eq!(s.stats().fast_retransmits, 1);
    s.ssthresh() / MSS
}

/// Six segments outstanding at the fast retransmit, two of them limited transmit's: RFC 5681
/// halves the four before them (ssthresh 2; halving all six would give 3), and ns-2's window
/// rule halves cwnd 4, the same.
#[test]
fn limited_transmits_segments_stay_out_of_the_halving_under_either_rule() {
    assert_eq!(after_fast_retransmit(false), 2);
    assert_eq!(after_fast_retransmit(true), 2);
}
