//! Packet scripts for TCP-ELN (eln-llelsn spec §3.1 point 11, Fig. 4; §3.6 tests 2-4), with
//! explicit times: a steady window of eight segments, one of them lost to corruption on the
//! last hop; the seven segments behind it produce seven duplicate ACKs that carry the receiver's
//! corruption counter (1). TCP-ELN resends at once and keeps its window; Reno halves.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{LossRecovery, RenoRecovery, TcpElnConfig, TcpElnRecovery};
use crate::rto::{BsdRto, BsdRtoConfig};
use crate::tests::bsd_reno::{ack, drain, ms, slow_clock, BASE, MSS};
use crate::{SegOptions, Segment, Sender, SenderConfig, SenderParts, SeqSpace};
use engine::VecSink;

const W: u32 = 8;

fn build(recovery: Box<dyn LossRecovery>) -> Sender {
    let parts = SenderParts {
        cc: RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: false,
            },
            MSS,
            W * MSS,
            65535,
        )
        .into(),
        recovery: recovery.into(),
        rto: BsdRto::new(BsdRtoConfig {
            clock: slow_clock(),
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        })
        .into(),
        eifel: None,
    };
    let mut s = Sender::new(
        SenderConfig::new(MSS, 65535),
        parts,
        SeqSpace { base: BASE },
        100 * u64::from(MSS),
    );
    s.seed_rtt(ms(0), ms(10));
    s
}

/// An ACK of `off` carrying the corruption count `cc` (none: the option left out).
fn cc_ack(off: u32, cc: Option<u32>) -> Segment {
    Segment {
        opts: SegOptions {
            cc,
            ..SegOptions::default()
        },
        ..ack(off, 65535)
    }
}

/// Eight segments out at 0 ms; the first lost to corruption; the other seven produce duplicate
/// ACKs at 10..16 ms carrying `cc`. Returns what the sender sent on each duplicate.
fn fig4(
    s: &mut Sender,
    cc: Option<u32>,
    t: &mut VecSink<crate::SenderEvent>,
) -> Vec<Vec<(u32, u32)>> {
    assert_eq!(drain(s, ms(0), t).len(), W as usize);
    (0..W - 1)
        .map(|i| {
            s.on_ack(ms(10 + u64::from(i)), &cc_ack(0, cc), t);
            drain(s, ms(10 + u64::from(i)), t)
        })
        .collect()
}

/// TCP-ELN: the first duplicate (10 ms) resends segment 0; no halving; each further duplicate
/// inflates cwnd by one segment, sending one new segment; the recovery ACK at 20 ms (all
/// eight original segments) restores cwnd to the stored eight segments.
#[test]
fn tcp_eln_resends_on_the_first_duplicate_keeps_and_restores_its_window() {
    let mut t = VecSink::default();
    let mut s = build(Box::new(TcpElnRecovery::new(TcpElnConfig::default())));
    let sent = fig4(&mut s, Some(1), &mut t);
    assert_eq!(sent[0], vec![(0, MSS)], "resent on the first duplicate");
    assert_eq!(s.ssthresh(), 65535, "ssthresh untouched");
    for (i, burst) in sent.iter().enumerate().skip(1) {
        // cwnd = W + i segments; flight is W segments: one new segment per duplicate.
        assert_eq!(burst.len(), 1, "duplicate {i}: {burst:?}");
        assert_eq!(burst[0].0, (W + i as u32 - 1) * MSS);
    }
    assert_eq!(s.cwnd(), (W + 6) * MSS);
    assert_eq!(s.stats().fast_retransmits, 0);
    // The retransmission arrives: the ACK covers the eight original segments (full recovery).
    s.on_ack(ms(20), &cc_ack(W * MSS, Some(1)), &mut t);
    assert_eq!(s.cwnd(), W * MSS, "restored, not halved");
}

/// Reno on the same script: the third duplicate (12 ms) halves (Net/3: ssthresh = 4 segments,
/// cwnd = ssthresh + 3), the recovery ACK deflates to four segments.
#[test]
fn reno_halves_on_the_same_script() {
    let mut t = VecSink::default();
    let mut s = build(Box::new(RenoRecovery::new(3)));
    let sent = fig4(&mut s, None, &mut t);
    assert!(sent[0].is_empty() && sent[1].is_empty());
    assert_eq!(sent[2], vec![(0, MSS)], "resent on the third duplicate");
    s.on_ack(ms(20), &ack(W * MSS, 65535), &mut t);
    // Deflated to ssthresh (four segments), then this ACK's increase: Net/3 opens by a whole
    // segment while cwnd is not above ssthresh.
    assert_eq!(s.ssthresh(), W / 2 * MSS);
    assert_eq!(s.cwnd(), (W / 2 + 1) * MSS);
}

/// Spec §3.6 test 3: the retransmission is corrupted again. ELN_REC expects as many duplicates
/// as segments were outstanding at the retransmission (C2: eight), counted after the one that
/// triggered it; duplicates 2-7 are six of them, the new segments sent during recovery bring
/// the 7th and 8th (17, 18 ms; a counter rise inside recovery is ignored, C4 literal), and the
/// 9th (19 ms) exceeds them: the retransmission was lost, one Reno halving from the stored
/// window (C3): ssthresh = 4 segments, segment 0 resent.
#[test]
fn more_duplicates_than_expected_halve_once_from_the_stored_window() {
    let mut t = VecSink::default();
    let mut s = build(Box::new(TcpElnRecovery::new(TcpElnConfig::default())));
    fig4(&mut s, Some(1), &mut t);
    for m in [17, 18] {
        s.on_ack(ms(m), &cc_ack(0, Some(2)), &mut t);
        drain(&mut s, ms(m), &mut t);
    }
    assert_eq!(s.stats().fast_retransmits, 0);
    s.on_ack(ms(19), &cc_ack(0, Some(2)), &mut t);
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.ssthresh(), W / 2 * MSS);
    assert_eq!(s.cwnd(), (W / 2 + 3) * MSS);
    assert_eq!(drain(&mut s, ms(19), &mut t).first(), Some(&(0, MSS)));
}

/// Spec §3.6 test 4: two corruptions in one window; the recovery ACK covers only the first
/// hole (partial): taken as congestion, the second hole is resent with one halving.
#[test]
fn a_partial_recovery_ack_is_congestion() {
    let mut t = VecSink::default();
    let mut s = build(Box::new(TcpElnRecovery::new(TcpElnConfig::default())));
    assert_eq!(drain(&mut s, ms(0), &mut t).len(), W as usize);
    // Segments 0 and 3 corrupted: segments 1, 2 produce duplicates carrying cc = 1, then 2.
    s.on_ack(ms(10), &cc_ack(0, Some(1)), &mut t);
    assert_eq!(drain(&mut s, ms(10), &mut t), vec![(0, MSS)]);
    s.on_ack(ms(11), &cc_ack(0, Some(2)), &mut t);
    // The retransmitted segment 0 fills the first hole: the ACK stops at segment 3.
    s.on_ack(ms(20), &cc_ack(3 * MSS, Some(2)), &mut t);
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.ssthresh(), W / 2 * MSS);
    assert_eq!(drain(&mut s, ms(20), &mut t).first(), Some(&(3 * MSS, MSS)));
}
