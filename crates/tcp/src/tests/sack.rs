//! Packet scripts for the selective-acknowledgment senders (DESIGN.md rule 9): the paper's
//! Figure 1 (Balakrishnan97 §2.15), a window of five with the first two segments lost on the
//! wireless link, driven at explicit times.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{
    ElnRecovery, EsackConfig, EsackRecovery, LossRecovery, Phase, SackFlavor, SackRecovery,
    SmartClock, SmartRecovery,
};
use crate::rto::{BsdRto, BsdRtoConfig, TickClock};
use crate::{
    SackBlocks, SegOptions, Segment, Sender, SenderConfig, SenderEvent, SenderParts, SeqNum,
    SeqSpace,
};
use engine::{SimDuration, SimTime, VecSink};

const MSS: u32 = 1400;
const BASE: SeqNum = SeqNum(1000);

fn ms(m: u64) -> SimTime {
    SimTime(m * 1_000_000)
}

fn sender(recovery: Box<dyn LossRecovery>) -> Sender {
    sender_of(recovery, 100)
}

/// A sender with `segments` segments of data to send in all.
fn sender_of(recovery: Box<dyn LossRecovery>, segments: u64) -> Sender {
    sender_with(recovery, segments, SenderConfig::new(MSS, 32768))
}

/// The same with a given configuration.
fn sender_with(recovery: Box<dyn LossRecovery>, segments: u64, cfg: SenderConfig) -> Sender {
    let parts = SenderParts {
        cc: RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: false,
            },
            MSS,
            5 * MSS,
            65535,
        )
        .into(),
        recovery: recovery.into(),
        rto: BsdRto::new(BsdRtoConfig {
            clock: TickClock {
                period: SimDuration::from_millis(500),
                phase: SimDuration::from_millis(100),
            },
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        })
        .into(),
        eifel: None,
    };
    let mut s = Sender::new(
        cfg,
        parts,
        SeqSpace { base: BASE },
        segments * u64::from(MSS),
    );
    // A 10 ms handshake: srtt = 10 ms for the once-per-RTT rule.
    s.seed_rtt(ms(0), ms(10));
    s
}

/// An ACK of `ack` segments with SACK blocks `[l, r)` (in segments) and a SMART trigger.
fn ack(ack: u32, sack: &[(u32, u32)], smart: Option<u32>, eln: bool) -> Segment {
    let blocks: Vec<_> = sack
        .iter()
        .map(|&(l, r)| (BASE.plus(l * MSS), BASE.plus(r * MSS)))
        .collect();
    Segment {
        seq: SeqNum(0),
        ack: BASE.plus(ack * MSS),
        len: 0,
        wnd: 32768,
        ack_flag: true,
        opts: SegOptions {
            sack: SackBlocks::from_slice(&blocks),
            smart: smart.map(|t| BASE.plus(t * MSS)),
            eln,
            ..SegOptions::default()
        },
    }
}

/// Segments sent now, as (first segment index, length).
fn drain(s: &mut Sender, now: SimTime, t: &mut VecSink<SenderEvent>) -> Vec<(u32, u32)> {
    std::iter::from_fn(|| s.poll_transmit(now, t))
        .map(|seg| (seg.seq.diff(BASE) as u32 / MSS, seg.len))
        .collect()
}

fn window_of_five(s: &mut Sender, t: &mut VecSink<SenderEvent>) {
    let sent = drain(s, ms(0), t);
    assert_eq!(sent, (0..5).map(|i| (i, MSS)).collect::<Vec<_>>());
}

/// E2E-SMART: the first ACK (from segment 2) shows holes 0 and 1; both are resent at once, the
/// window is cut once, and the later ACKs neither cut again nor resend within the round trip.
#[test]
fn smart_resends_both_holes_on_the_first_ack_and_halves_once() {
    let mut t = VecSink::default();
    let mut s = sender(Box::new(SmartRecovery::new(MSS)));
    window_of_five(&mut s, &mut t);
    s.on_ack(ms(10), &ack(0, &[], Some(2), false), &mut t);
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!((s.ssthresh(), s.cwnd()), (2 * MSS, 2 * MSS));
    assert_eq!(drain(&mut s, ms(10), &mut t), vec![(0, MSS), (1, MSS)]);
    s.on_ack(ms(11), &ack(0, &[], Some(3), false), &mut t);
    s.on_ack(ms(12), &ack(0, &[], Some(4), false), &mut t);
    assert!(drain(&mut s, ms(12), &mut t).is_empty(), "pipe = cwnd");
    assert_eq!(s.stats().fast_retransmits, 1, "one cut per episode");
    // The first retransmission arrives within the 10 ms round trip (so segment 1 is not resent
    // again): partial ACK; the pipe drops by one, new data goes.
    s.on_ack(ms(18), &ack(1, &[], Some(0), false), &mut t);
    assert_eq!(drain(&mut s, ms(18), &mut t), vec![(5, MSS)]);
    // The second: everything up to recover; the episode ends with cwnd = ssthresh.
    s.on_ack(ms(19), &ack(5, &[], Some(1), false), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.cwnd(), 2 * MSS);
    assert_eq!(drain(&mut s, ms(19), &mut t), vec![(6, MSS)]);
    assert_eq!(s.stats().retransmitted_bytes, 2 * u64::from(MSS));
    assert_eq!(s.stats().timeouts, 0);
}

/// E2E-SMART's once-per-RTT rule on BSD/OS's clocks: Figure 1, but the resent
/// segment 0 is lost again. The resent segment 1 arrives at 20 ms (ACK with trigger 1). On the
/// fine clock a round trip (10 ms) has passed since the resend at 10 ms, so segment 0 goes again
/// at 20 ms (with new segment 5, as segment 1 has left the pipe); on the tick clock the smoothed RTT is 1 tick (the handshake's sample) and no tick has
/// passed, so only segment 5 goes and, with no further ACK, the coarse timeout at 1100 ms (three ticks
/// after the first send: RTO = srtt 1 + 4·rttvar/4 2 = 3 ticks) resends it.
#[test]
fn smart_on_ticks_leaves_a_lost_retransmission_to_the_timeout() {
    let clock = TickClock {
        period: SimDuration::from_millis(500),
        phase: SimDuration::from_millis(100),
    };
    for (smart, resent_at_20, timeouts) in [
        (SmartClock::Fine, vec![(0, MSS), (5, MSS)], 0),
        (SmartClock::Ticks(clock), vec![(5, MSS)], 1),
    ] {
        let mut t = VecSink::default();
        let mut s = sender(Box::new(SmartRecovery::new(MSS).with_clock(smart)));
        window_of_five(&mut s, &mut t);
        s.on_ack(ms(10), &ack(0, &[], Some(2), false), &mut t);
        assert_eq!(drain(&mut s, ms(10), &mut t), vec![(0, MSS), (1, MSS)]);
        s.on_ack(ms(11), &ack(0, &[], Some(3), false), &mut t);
        s.on_ack(ms(12), &ack(0, &[], Some(4), false), &mut t);
        s.on_ack(ms(20), &ack(0, &[], Some(1), false), &mut t);
        assert_eq!(drain(&mut s, ms(20), &mut t), resent_at_20, "{smart:?}");
        if timeouts == 1 {
            let fire = s.poll_timeout().unwrap();
            assert_eq!(fire, ms(1100));
            s.on_timeout(fire, &mut t);
            assert_eq!(
                drain(&mut s, fire, &mut t),
                vec![(0, MSS)],
                "go-back-N skips 1-4"
            );
        }
        assert_eq!(s.stats().timeouts, timeouts);
    }
}

/// E2E-IETF-SACK (Fall & Floyd): nothing happens on the first two dupacks; the third halves the
/// window and both holes go out before any new data; recovery ends at `recover`.
#[test]
fn ietf_sack_waits_for_the_third_dupack_then_resends_both_holes() {
    let mut t = VecSink::default();
    let mut s = sender(Box::new(SackRecovery::new(SackFlavor::FallFloyd, MSS, 3)));
    window_of_five(&mut s, &mut t);
    s.on_ack(ms(10), &ack(0, &[(2, 3)], None, false), &mut t);
    s.on_ack(ms(11), &ack(0, &[(2, 4)], None, false), &mut t);
    assert!(
        drain(&mut s, ms(11), &mut t).is_empty(),
        "no action before 3"
    );
    assert_eq!(s.stats().fast_retransmits, 0);
    s.on_ack(ms(12), &ack(0, &[(2, 5)], None, false), &mut t);
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!((s.ssthresh(), s.cwnd()), (2 * MSS, 2 * MSS));
    assert_eq!(
        drain(&mut s, ms(12), &mut t),
        vec![(0, MSS), (1, MSS)],
        "holes before new data"
    );
    assert!(matches!(s.phase(), Phase::Recovery { .. }));
    s.on_ack(ms(22), &ack(1, &[(2, 5)], None, false), &mut t);
    assert_eq!(drain(&mut s, ms(22), &mut t), vec![(5, MSS)]);
    s.on_ack(ms(23), &ack(5, &[], None, false), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.stats().retransmitted_bytes, 2 * u64::from(MSS));
    assert_eq!(s.stats().timeouts, 0);
}

/// E2E-SACK-ELN: the ELN-marked third dupack resends both holes with no window cut; the pipe lets
/// new data follow at once.
#[test]
fn sack_eln_resends_both_holes_without_a_cut() {
    let mut t = VecSink::default();
    let inner = Box::new(SackRecovery::new(SackFlavor::FallFloyd, MSS, 3));
    let mut s = sender(Box::new(ElnRecovery::new(inner, 3)));
    window_of_five(&mut s, &mut t);
    s.on_ack(ms(10), &ack(0, &[(2, 3)], None, true), &mut t);
    s.on_ack(ms(11), &ack(0, &[(2, 4)], None, true), &mut t);
    assert!(drain(&mut s, ms(11), &mut t).is_empty());
    s.on_ack(ms(12), &ack(0, &[(2, 5)], None, true), &mut t);
    assert_eq!(s.stats().fast_retransmits, 0, "no congestion response");
    assert_eq!(s.cwnd(), 5 * MSS);
    // Both holes once each, then new data up to pipe = cwnd (2 resent + 3 new).
    assert_eq!(
        drain(&mut s, ms(12), &mut t),
        vec![(0, MSS), (1, MSS), (5, MSS), (6, MSS), (7, MSS)]
    );
    s.on_ack(ms(22), &ack(5, &[], None, false), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.cwnd(), 5 * MSS, "no deflation either");
    assert_eq!(s.stats().retransmitted_bytes, 2 * u64::from(MSS));
}

/// RFC 6675 §2's duplicate acknowledgment: an ACK that moves the cumulative
/// point *and* SACKs new octets counts as the first duplicate. Five segments out, 1 lost: the
/// ACK at 10 ms acknowledges 0 and SACKs 2. Slow start lets 5 and 6 go; with limited transmit
/// the RFC 6675 sender also sends 7 for this duplicate, where RFC 5681's definition (the
/// `rfc6675-basic` sender) sees a plain new ACK. At 11 ms the ACK for 3 is the second duplicate
/// (RFC 6675) and releases 8; the first (RFC 5681), which releases 7.
#[test]
fn rfc6675_counts_a_cumulative_ack_with_new_sack_blocks_as_a_duplicate() {
    for (flavor, at10, at11) in [
        (SackFlavor::Rfc6675, vec![5, 6, 7], vec![8]),
        (SackFlavor::Rfc6675Basic, vec![5, 6], vec![7]),
    ] {
        let mut t = VecSink::default();
        let cfg = SenderConfig {
            limited_transmit: true,
            ..SenderConfig::new(MSS, 32768)
        };
        let mut s = sender_with(Box::new(SackRecovery::new(flavor, MSS, 3)), 100, cfg);
        window_of_five(&mut s, &mut t);
        s.on_ack(ms(10), &ack(1, &[(2, 3)], None, false), &mut t);
        let seg = |v: Vec<(u32, u32)>| v.into_iter().map(|x| x.0).collect::<Vec<_>>();
        assert_eq!(seg(drain(&mut s, ms(10), &mut t)), at10, "{flavor:?}");
        s.on_ack(ms(11), &ack(1, &[(2, 4)], None, false), &mut t);
        assert_eq!(seg(drain(&mut s, ms(11), &mut t)), at11, "{flavor:?}");
        assert_eq!(s.stats().fast_retransmits, 0);
    }
}

/// RFC 6675 NextSeg rule (3) at the tail of a transfer: segments 0 and 3 of the last five are
/// lost. The third duplicate (at 12 ms) makes 0 lost and resends it; 3 has only one SACKed
/// segment above it, so IsLost(3) never holds. When the partial ACK for 0 arrives (22 ms) there
/// is no new data, so rule (3) resends 3 at once; `rfc6675-basic` (the old sender) sends
/// nothing and waits for the timeout.
#[test]
fn rfc6675_rule3_resends_a_not_yet_lost_hole_when_no_new_data_can_go() {
    for (flavor, after_partial) in [
        (SackFlavor::Rfc6675, vec![(3, MSS)]),
        (SackFlavor::Rfc6675Basic, vec![]),
    ] {
        let mut t = VecSink::default();
        let mut s = sender_of(Box::new(SackRecovery::new(flavor, MSS, 3)), 5);
        window_of_five(&mut s, &mut t);
        s.on_ack(ms(10), &ack(0, &[(1, 2)], None, false), &mut t);
        s.on_ack(ms(11), &ack(0, &[(1, 3)], None, false), &mut t);
        assert!(drain(&mut s, ms(11), &mut t).is_empty(), "{flavor:?}");
        s.on_ack(ms(12), &ack(0, &[(4, 5), (1, 3)], None, false), &mut t);
        assert_eq!(s.stats().fast_retransmits, 1);
        assert_eq!(drain(&mut s, ms(12), &mut t), vec![(0, MSS)], "{flavor:?}");
        s.on_ack(ms(22), &ack(3, &[(4, 5)], None, false), &mut t);
        assert!(matches!(s.phase(), Phase::Recovery { .. }));
        assert_eq!(drain(&mut s, ms(22), &mut t), after_partial, "{flavor:?}");
    }
}

/// RFC 6675 NextSeg rule (4), the rescue retransmission: the last of five segments and the
/// first are lost. After the partial ACK for 0 (22 ms) nothing is SACKed, so neither rule (1)
/// nor (3) applies, and no new data is left: the highest unSACKed segment, 4, is resent once.
/// A second opportunity in the same episode (23 ms, a duplicate) sends nothing more;
/// `rfc6675-basic` sends nothing at all.
#[test]
fn rfc6675_rule4_rescues_the_tail_once_per_recovery() {
    for (flavor, after_partial) in [
        (SackFlavor::Rfc6675, vec![(4, MSS)]),
        (SackFlavor::Rfc6675Basic, vec![]),
    ] {
        let mut t = VecSink::default();
        let mut s = sender_of(Box::new(SackRecovery::new(flavor, MSS, 3)), 5);
        window_of_five(&mut s, &mut t);
        s.on_ack(ms(10), &ack(0, &[(1, 2)], None, false), &mut t);
        s.on_ack(ms(11), &ack(0, &[(1, 3)], None, false), &mut t);
        s.on_ack(ms(12), &ack(0, &[(1, 4)], None, false), &mut t);
        assert_eq!(drain(&mut s, ms(12), &mut t), vec![(0, MSS)], "{flavor:?}");
        s.on_ack(ms(22), &ack(4, &[], None, false), &mut t);
        assert!(matches!(s.phase(), Phase::Recovery { .. }));
        assert_eq!(drain(&mut s, ms(22), &mut t), after_partial, "{flavor:?}");
        s.on_ack(ms(23), &ack(4, &[], None, false), &mut t);
        assert!(drain(&mut s, ms(23), &mut t).is_empty(), "{flavor:?}");
    }
}

/// RFC 6675 §5.1 across a timeout: of five segments 0 and 1 are lost, 2 and 3 arrive (two
/// duplicates at 10 and 11 ms, no recovery), 4 is lost too, and the timer fires. In the
/// go-back-N that follows (each segment acknowledged 5 ms after it goes, by a receiver that
/// holds 2 and 3), `rfc6675` skips the SACKed 2 and 3; `rfc6675-basic` (the board cleared,
/// RFC 2018 §8) resends 2 needlessly (3 is then covered by the cumulative ACK).
#[test]
fn rfc6675_go_back_n_after_a_timeout_skips_what_was_sacked() {
    for (flavor, resent) in [
        (SackFlavor::Rfc6675, vec![0, 1, 4]),
        (SackFlavor::Rfc6675Basic, vec![0, 1, 2, 4]),
    ] {
        let mut t = VecSink::default();
        let mut s = sender_of(Box::new(SackRecovery::new(flavor, MSS, 3)), 5);
        window_of_five(&mut s, &mut t);
        s.on_ack(ms(10), &ack(0, &[(2, 3)], None, false), &mut t);
        s.on_ack(ms(11), &ack(0, &[(2, 4)], None, false), &mut t);
        assert!(drain(&mut s, ms(11), &mut t).is_empty());
        let fire = s.poll_timeout().unwrap();
        s.on_timeout(fire, &mut t);
        assert_eq!(s.stats().timeouts, 1);
        let mut held = [false, false, true, true, false];
        let mut sent = Vec::new();
        for step in 0..5u64 {
            let now = fire + SimDuration::from_millis(10 * step);
            for (i, _) in drain(&mut s, now, &mut t) {
                held[i as usize] = true;
                sent.push(i);
            }
            let cum = held.iter().position(|h| !h).unwrap_or(5) as u32;
            let later = now + SimDuration::from_millis(5);
            s.on_ack(later, &ack(cum, &[], None, false), &mut t);
        }
        assert_eq!(sent, resent, "{flavor:?}");
    }
}

/// Byte offsets and lengths of the segments sent now.
fn drain_bytes(s: &mut Sender, now: SimTime, t: &mut VecSink<SenderEvent>) -> Vec<(u64, u32)> {
    std::iter::from_fn(|| s.poll_transmit(now, t))
        .map(|seg| (seg.seq.diff(BASE) as u64, seg.len))
        .collect()
}

/// A SACK block that reaches snd_max inside a segment slot SACKs the short top slot, but what
/// is sent into that slot afterwards is not SACKed. Segments 0 and 1 and a 300-byte piece (the
/// application's data so far) go at 0 ms; 0 is lost, and the ACK at 10 ms SACKs 1 and the
/// piece. The application writes on, and the sender sends from 2·MSS + 300, into the slot the
/// board holds SACKed; all of it is lost, and the timer fires. Once the resent 0 is
/// acknowledged (up to 2·MSS + 300), the go-back-N must resend from there, with each sender
/// that keeps the SACKed bits across a timeout (RFC 6675 §5.1: `rfc6675` and ESACK). Before,
/// the board kept the slot SACKed (and learned of the new data only at the next ACK), the
/// go-back-N skipped from 2·MSS to 3·MSS and the bytes in between were never resent: the timer
/// backed off with nothing to send (LL-ELSN under the llelsn preset's window rule,
/// docs/llelsn.md).
#[test]
fn a_go_back_n_resends_what_was_sent_into_a_sacked_short_segment() {
    let recoveries: [fn() -> Box<dyn LossRecovery>; 2] = [
        || Box::new(SackRecovery::new(SackFlavor::Rfc6675, MSS, 3)),
        || {
            let cfg = EsackConfig {
                dupthresh: 3,
                filter: 3,
            };
            Box::new(EsackRecovery::new(cfg, MSS))
        },
    ];
    for (name, recovery) in ["rfc6675", "esack"].into_iter().zip(recoveries) {
        let mut t = VecSink::default();
        let cfg = SenderConfig {
            nagle_minshall: true,
            ..SenderConfig::new(MSS, 32768)
        };
        let piece = u64::from(2 * MSS + 300);
        let mut s = sender_with(recovery(), 10, cfg).with_app_limit(piece);
        let m = u64::from(MSS);
        assert_eq!(
            drain_bytes(&mut s, ms(0), &mut t),
            vec![(0, MSS), (m, MSS), (2 * m, 300)]
        );
        let mut a = ack(0, &[], None, false);
        a.opts.sack = SackBlocks::from_slice(&[(BASE.plus(MSS), BASE.plus(2 * MSS + 300))]);
        s.on_ack(ms(10), &a, &mut t);
        s.set_app_limit(10 * m);
        assert_eq!(
            drain_bytes(&mut s, ms(10), &mut t).first(),
            Some(&(piece, MSS)),
            "{name}"
        );
        let fire = s.poll_timeout().unwrap();
        s.on_timeout(fire, &mut t);
        assert_eq!(drain_bytes(&mut s, fire, &mut t), vec![(0, MSS)], "{name}");
        let later = fire + SimDuration::from_millis(5);
        let mut a = ack(0, &[], None, false);
        a.ack = BASE.plus(2 * MSS + 300);
        s.on_ack(later, &a, &mut t);
        assert_eq!(
            drain_bytes(&mut s, later, &mut t).first(),
            Some(&(piece, MSS)),
            "{name}"
        );
    }
}
