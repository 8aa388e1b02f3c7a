//! Packet scripts of TCP-DCR (eln-llelsn spec §4.6) over its two bases. Twenty segments of
//! 1000 bytes, an initial window of ten leaving at time zero through a 1 ms-per-segment
//! bottleneck with 9 ms of propagation behind it and 10 ms back (segment k of the first window
//! reaches the receiver at 10 + k ms, its ACK the sender at 20 + k ms; delayed ACKs off). The
//! first transmissions of segments 2 and 5 are lost, so two holes are open in one window.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{DcrRecovery, LossRecovery, RenoRecovery, SackFlavor, SackRecovery};
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::tests::rack::resent;
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum, SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(5000) };
const TOTAL: u64 = 20;

fn path(recovery: Box<dyn LossRecovery>, sack: bool) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, 65535).into(),
        recovery: recovery.into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let mut s = Sender::new(SenderConfig::new(MSS, 65535), parts, SPACE, TOTAL * M);
    s.seed_rtt(ms(0), ms(20));
    let r = Receiver::new(
        ReceiverConfig {
            sack,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        TOTAL * M,
        SeqNum(9),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(10));
    p.ps_per_byte = 1_000_000;
    p.fwd_delay = SimDuration::from_millis(9);
    p.drop = Box::new(|_, off, n| n == 1 && (off / M == 2 || off / M == 5));
    p
}

fn dcr(sack: bool) -> Path {
    if sack {
        let base = SackRecovery::new(SackFlavor::Rfc6675, MSS, 3);
        path(
            Box::new(DcrRecovery::new(Box::new(base), 3, "dcr-sack")),
            true,
        )
    } else {
        let base = RenoRecovery::new(3);
        path(Box::new(DcrRecovery::new(Box::new(base), 3, "dcr")), false)
    }
}

/// New segments the duplicates clocked out during τ, as (ms, segment).
fn new_after_first_dup(p: &Path) -> Vec<(u64, u64)> {
    p.sent_between(ms(22), ms(42))
        .into_iter()
        .filter(|&(_, _, r)| !r)
        .map(|(t, off, _)| (t.as_nanos() / 1_000_000, off / M))
        .collect()
}

/// The first duplicate (the ACK of segment 3) arrives at 23 ms and starts τ = SRTT = 20 ms.
/// Until 43 ms there is no fast retransmit although the third duplicate came at 26 ms: each
/// duplicate (23, 24, 26-29 ms; segment 5's ACK never comes) clocks out one new segment, 14-19.
/// At 43 ms over Reno only segment 2 is resent; its ACK at 53 ms is partial and exits Reno's
/// recovery, no duplicates follow (everything above segment 5 has arrived), and segment 5
/// waits for the retransmission timer: 263 ms, the transfer done at 273 ms. Over SACK the
/// board that followed the wait marks both holes lost: segments 2 and 5 go at 43 ms in one
/// recovery (and RFC 6675's rescue retransmission of the highest unSACKed segment, 19), done
/// at 54 ms without a timeout.
#[test]
fn dcr_waits_one_rtt_then_sack_repairs_both_holes_where_reno_times_out() {
    let mut reno = dcr(false);
    reno.run_until(ms(3000));
    let clocked = vec![(23, 14), (24, 15), (26, 16), (27, 17), (28, 18), (29, 19)];
    assert_eq!(new_after_first_dup(&reno), clocked);
    assert_eq!(resent(&reno), vec![(43, 2), (263, 5)]);
    let st = *reno.sender.stats();
    assert_eq!((st.fast_retransmits, st.timeouts), (1, 1));
    assert_eq!(reno.receiver.complete_at(), Some(ms(273)));

    let mut sack = dcr(true);
    sack.run_until(ms(3000));
    assert_eq!(new_after_first_dup(&sack), clocked);
    assert_eq!(resent(&sack), vec![(43, 2), (43, 5), (43, 19)]);
    let st = *sack.sender.stats();
    assert_eq!((st.fast_retransmits, st.timeouts), (1, 0));
    assert_eq!(sack.receiver.complete_at(), Some(ms(54)));
}
