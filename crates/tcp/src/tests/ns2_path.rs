//! The 100 ms path the ns-2 packet scripts share (`reno_ns2.rs`, `newreno_ns2.rs`).

use crate::cc::{RenoCc, RenoFlavor};
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum, SeqSpace,
};
use engine::SimDuration;

/// The 100 ms path of the ns-2 packet scripts (`reno_ns2.rs`, `newreno_ns2.rs`): 1 ms per
/// 1000-byte segment at the bottleneck, 49 ms of propagation behind it and 50 ms back; RFC 5681
/// Reno's window (initial window 10) with `recovery`, the RFC 6298 timer seeded with SRTT
/// 100 ms, 40 segments of 1000 bytes; the first transmission of each segment numbered in `lost`
/// is dropped.
pub(crate) fn reno_path_100ms(recovery: crate::RecoveryPart, lost: &'static [u64]) -> Path {
    const MSS: u32 = 1000;
    const M: u64 = MSS as u64;
    const SPACE: SeqSpace = SeqSpace { base: SeqNum(3000) };
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 65535).into(),
        recovery,
        rto: rfc6298().into(),
        eifel: None,
    };
    let mut s = Sender::new(SenderConfig::new(MSS, 65535), parts, SPACE, 40 * M);
    s.seed_rtt(ms(0), ms(100));
    let r = Receiver::new(
        ReceiverConfig::new(MSS, 65535, DelayedAck::Off),
        SPACE,
        40 * M,
        SeqNum(11),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(50));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(49);
    p.drop = Box::new(move |_, off, n| n == 1 && lost.contains(&(off / M)));
    p
}
