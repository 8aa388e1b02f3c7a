//! Packet script of ns-2.35's retransmission timer (`rto::Ns2Rto`, `tcp/tcp.cc:576-617`,
//! `tcpTick_ 0.01`, tcl/lib/ns-default.tcl:967) against RFC 6298's continuous estimator on the
//! same path and the same samples: the tick keeps a floor of three quarters of a tick under the
//! deviation (`t_rttvar_` stops at 3, since `3 >> 2` is 0), so on a steady round trip ns-2's RTO
//! stays 30 ms above the RTT where the continuous one falls to the RTT plus its 1 ms clock.
//!
//! The path: 125 ms each way, no bottleneck, so every timed segment's ACK comes exactly 250 ms
//! after it left (25 ticks whatever the tick's phase). RFC 5681 Reno held at four segments of
//! 1000 bytes: four segments every 250 ms, one timed per round trip (no timestamps), 100
//! segments in 25 rounds. The first transmission of the last segment (99, sent at 6000 ms) is
//! lost: no duplicate follows it, only the timer resends it, armed by the ACK of segment 98 at
//! 6250 ms, the 25th sample.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::RenoRecovery;
use crate::rto::{Ns2Rto, Ns2RtoConfig, TickClock};
use crate::sender::RtoPart;
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::SeqSpace;
use crate::{DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SEGMENTS: u64 = 100;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(7000) };

fn path(rto: RtoPart) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 4 * MSS, 4 * MSS).into(),
        recovery: RenoRecovery::new(3).into(),
        rto,
        eifel: None,
    };
    let s = Sender::new(SenderConfig::new(MSS, 65535), parts, SPACE, SEGMENTS * M);
    let r = Receiver::new(
        ReceiverConfig::new(MSS, 65535, DelayedAck::Off),
        SPACE,
        SEGMENTS * M,
        SeqNum(11),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(125));
    p.drop = Box::new(|_, off, n| n == 1 && off / M == SEGMENTS - 1);
    p
}

fn ns2() -> RtoPart {
    // ns-2's defaults (minrto_ 0.2, maxrto_ 60, rtxcur_init_ 3.0); ticks at 7, 17, 27, ... ms.
    Ns2Rto::new(Ns2RtoConfig::ns2(
        TickClock {
            period: SimDuration::from_millis(10),
            phase: SimDuration::from_millis(7),
        },
        false,
    ))
    .into()
}

/// (ms, segment) of the retransmissions up to `to` ms.
fn resends(p: &Path, to: u64) -> Vec<(u64, u64)> {
    p.resends_ms(to, M)
}

/// RFC 6298: SRTT 250 ms and RTTVAR 125 ms · (3/4)^24 = 0.13 ms after 25 samples, so RTO =
/// 250 + max(G = 1 ms, 4 · RTTVAR) = 251 ms: the resend at 6501 ms. ns-2: t_srtt_ 200 (25
/// ticks) and t_rttvar_ 3 after 12 samples, RTO = (3 << 3) + 200 >> 3 = 28 ticks: 6530 ms.
#[test]
fn ns2s_tick_keeps_the_rto_30_ms_above_a_steady_rtt() {
    let mut fine = path(rfc6298().into());
    fine.run_until(ms(7000));
    assert_eq!(resends(&fine, 7000), vec![(6501, SEGMENTS - 1)]);
    assert_eq!(fine.sender.stats().timeouts, 1);

    let mut tick = path(ns2());
    tick.run_until(ms(6529));
    assert_eq!(
        resends(&tick, 6529),
        vec![],
        "no resend before 6250 + 280 ms"
    );
    tick.run_until(ms(7000));
    assert_eq!(resends(&tick, 7000), vec![(6530, SEGMENTS - 1)]);
    assert_eq!(tick.sender.stats().timeouts, 1);
}
