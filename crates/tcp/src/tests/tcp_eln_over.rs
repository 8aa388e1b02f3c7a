//! Packet scripts for TCP-ELN over NewReno and over SACK ([`crate::recovery::TcpElnOver`]),
//! with explicit times: ten segments out at 0 ms, segments 0 and 5 corrupted on the last hop.
//! Segments 1-4 produce duplicate ACKs at 10-13 ms carrying the receiver's corruption counter 1,
//! segments 6-9 at 15-18 ms carrying 2; the retransmission of segment 0 arrives at 20 ms (a
//! partial ACK up to segment 5). Over NewReno and SACK neither hole cuts the window; TCP-ELN on
//! Reno takes the partial ACK as congestion (spec §3.6 test 4).

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{
    LossRecovery, NewRenoFlavor, NewRenoRecovery, Phase, SackFlavor, SackRecovery, TcpElnConfig,
    TcpElnOver, TcpElnRecovery,
};
use crate::rto::{BsdRto, BsdRtoConfig};
use crate::tests::bsd_reno::{drain, ms, slow_clock, BASE, MSS};
use crate::{SackBlocks, SegOptions, Segment, Sender, SenderConfig, SenderParts, SeqNum, SeqSpace};
use engine::VecSink;

const W: u32 = 10;

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

/// An ACK of segment `ack` with counter `cc` and SACK blocks `[l, r)` in segments.
fn ack(ack: u32, cc: u32, sack: &[(u32, u32)]) -> Segment {
    let blocks: Vec<(SeqNum, SeqNum)> = sack
        .iter()
        .map(|&(l, r)| (BASE.plus(l * MSS), BASE.plus(r * MSS)))
        .collect();
    Segment {
        seq: SeqNum(0),
        ack: BASE.plus(ack * MSS),
        len: 0,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions {
            cc: Some(cc),
            sack: SackBlocks::from_slice(&blocks),
            ..SegOptions::default()
        },
    }
}

/// The script up to and including the partial ACK at 20 ms; `sack` adds the receiver's blocks.
/// Returns the segment indices sent at each step.
fn script(s: &mut Sender, sack: bool) -> Vec<(u64, Vec<u32>)> {
    let mut t = VecSink::default();
    let mut out = Vec::new();
    assert_eq!(drain(s, ms(0), &mut t).len(), W as usize);
    for (m, upto, cc) in [
        (10, 2, 1),
        (11, 3, 1),
        (12, 4, 1),
        (13, 5, 1),
        (15, 7, 2),
        (16, 8, 2),
        (17, 9, 2),
        (18, 10, 2),
    ] {
        let blocks: Vec<(u32, u32)> = match (sack, upto > 5) {
            (false, _) => vec![],
            (true, false) => vec![(1, upto)],
            (true, true) => vec![(6, upto), (1, 5)],
        };
        s.on_ack(ms(m), &ack(0, cc, &blocks), &mut t);
        let sent = drain(s, ms(m), &mut t);
        out.push((m, sent.into_iter().map(|(o, _)| o / MSS).collect()));
    }
    let blocks: Vec<(u32, u32)> = if sack { vec![(6, 10)] } else { vec![] };
    s.on_ack(ms(20), &ack(5, 2, &blocks), &mut t);
    let sent = drain(s, ms(20), &mut t);
    out.push((20, sent.into_iter().map(|(o, _)| o / MSS).collect()));
    out
}

fn newreno() -> Box<dyn LossRecovery> {
    Box::new(NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3))
}

/// Over NewReno: segment 0 resent at 10 ms, each later duplicate sends one new segment (10-16),
/// the partial ACK at 20 ms resends segment 5 with no cut (ssthresh untouched, no fast
/// retransmit counted); the ACK of everything at 30 ms restores the stored ten segments.
#[test]
fn over_newreno_the_partial_ack_resends_the_second_corrupted_hole_without_a_cut() {
    let mut s = build(Box::new(TcpElnOver::new(
        newreno(),
        TcpElnConfig::default(),
        "tcp-eln-newreno",
    )));
    let sent = script(&mut s, false);
    assert_eq!(sent[0], (10, vec![0]));
    let new: Vec<u32> = sent[1..8].iter().flat_map(|(_, v)| v.clone()).collect();
    assert_eq!(new, (10..17).collect::<Vec<_>>());
    assert_eq!(
        sent[8].1.first(),
        Some(&5),
        "second hole at the partial ACK"
    );
    assert_eq!(s.ssthresh(), 65535);
    assert_eq!(s.stats().fast_retransmits, 0);
    let mut t = VecSink::default();
    let top = 17 + sent[8].1.len() as u32 - 1;
    s.on_ack(ms(30), &ack(top, 2, &[]), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.cwnd(), W * MSS, "restored, not halved");
}

/// TCP-ELN on Reno, the same script: the partial ACK at 20 ms is congestion, one halving.
#[test]
fn on_reno_the_same_partial_ack_halves() {
    let mut s = build(Box::new(TcpElnRecovery::new(TcpElnConfig::default())));
    let sent = script(&mut s, false);
    assert_eq!(sent[0], (10, vec![0]));
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.ssthresh(), W / 2 * MSS);
    assert_eq!(sent[8].1.first(), Some(&5));
}

/// Plain NewReno halves at the third duplicate (12 ms).
#[test]
fn plain_newreno_halves_at_the_third_duplicate() {
    let mut s = build(newreno());
    let sent = script(&mut s, false);
    assert!(sent[0].1.is_empty() && sent[1].1.is_empty());
    assert_eq!(sent[2], (12, vec![0]));
    assert_eq!(s.ssthresh(), W / 2 * MSS);
}

/// Over SACK (RFC 6675): segment 0 resent at 10 ms; the board marks segment 5 lost once three
/// segments above it are SACKed (17 ms, IsLost) and resends it before the partial ACK, no cut.
#[test]
fn over_sack_the_board_resends_the_second_corrupted_hole_without_a_cut() {
    let base = SackRecovery::new(SackFlavor::Rfc6675, MSS, 3);
    let mut s = build(Box::new(TcpElnOver::new(
        Box::new(base),
        TcpElnConfig::default(),
        "tcp-eln-sack",
    )));
    let sent = script(&mut s, true);
    assert_eq!(sent[0], (10, vec![0]));
    let five: Vec<u64> = sent
        .iter()
        .filter(|(_, v)| v.contains(&5))
        .map(|(m, _)| *m)
        .collect();
    assert_eq!(five, [17], "{sent:?}");
    assert_eq!(s.ssthresh(), 65535);
    assert_eq!(s.stats().fast_retransmits, 0);
    let top = sent
        .iter()
        .flat_map(|(_, v)| v.iter())
        .max()
        .map_or(W, |m| m + 1);
    let mut t = VecSink::default();
    s.on_ack(ms(30), &ack(top, 2, &[]), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.cwnd(), W * MSS, "restored, not halved");
}
