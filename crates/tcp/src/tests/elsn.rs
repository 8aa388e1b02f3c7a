//! Packet scripts for LL-ELSN at the sender (eln-llelsn spec §4.1-4.3): an ELN for
//! a segment the link gave up is resent at the instant it arrives, without a window cut, and
//! the duplicates its reordering causes start no recovery; an ERSN restarts the timer, so the
//! link's long retry burst ends without a spurious timeout. Explicit times throughout.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{EsackConfig, EsackRecovery, LossRecovery};
use crate::{
    LinkNotice, NoticeKind, SackBlocks, SegOptions, Segment, Sender, SenderConfig, SenderEvent,
    SenderParts, SeqNum, SeqSpace,
};
use engine::{SimTime, VecSink};

const MSS: u32 = 1000;
const BASE: SeqNum = SeqNum(1000);

fn ms(m: u64) -> SimTime {
    SimTime(m * 1_000_000)
}

/// A sender of 100 segments with an initial window of five, RFC 6298's timer with a 200 ms
/// minimum, and a 10 ms round trip measured at the handshake (so RTO = 200 ms).
fn sender(recovery: Box<dyn LossRecovery>) -> Sender {
    sender_cfg(recovery, SenderConfig::new(MSS, 65535))
}

/// [`sender`] with `cfg`.
fn sender_cfg(recovery: Box<dyn LossRecovery>, cfg: SenderConfig) -> Sender {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 5 * MSS, 65535).into(),
        recovery: recovery.into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 100 * u64::from(MSS));
    s.seed_rtt(ms(0), ms(10));
    s
}

fn esack() -> Box<dyn LossRecovery> {
    Box::new(EsackRecovery::new(EsackConfig::default(), MSS))
}

fn ack(ack: u32, sack: &[(u32, u32)]) -> Segment {
    let blocks: Vec<_> = sack
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
            sack: SackBlocks::from_slice(&blocks),
            ..SegOptions::default()
        },
    }
}

fn notice(kind: NoticeKind, segment: u32) -> LinkNotice {
    LinkNotice {
        kind,
        seq: BASE.plus(segment * MSS),
    }
}

/// Segments sent now, by index.
fn drain(s: &mut Sender, now: SimTime, t: &mut VecSink<SenderEvent>) -> Vec<u32> {
    std::iter::from_fn(|| s.poll_transmit(now, t))
        .map(|seg| seg.seq.diff(BASE) as u32 / MSS)
        .collect()
}

#[test]
fn an_eln_resends_at_once_without_a_window_cut() {
    let mut s = sender(esack());
    let mut t = VecSink::default();
    // t = 0: segments 0-4. The access point's MAC gives segment 1 up after its last attempt at
    // 6 ms; the ELN reaches the sender over the wired path at 11 ms.
    assert_eq!(drain(&mut s, ms(0), &mut t), vec![0, 1, 2, 3, 4]);
    // 10 ms: segment 0's ACK opens the window by one (slow start: +1): 5 and 6 go.
    s.on_ack(ms(10), &ack(1, &[]), &mut t);
    assert_eq!(drain(&mut s, ms(10), &mut t), vec![5, 6]);
    let cwnd = s.cwnd();
    s.on_link_notice(ms(11), notice(NoticeKind::Eln, 1), &mut t);
    // The lost segment's original has left the pipe: it is resent at 11 ms, alone.
    assert_eq!(drain(&mut s, ms(11), &mut t), vec![1]);
    assert_eq!(s.cwnd(), cwnd, "no window cut");
    // 12-16 ms: segments 2-6 arrive before the resend; five duplicates with SACK blocks.
    for (i, hi) in (3..=7).enumerate() {
        s.on_ack(ms(12 + i as u64), &ack(1, &[(2, hi)]), &mut t);
        // Each duplicate SACKs a segment: the pipe falls and new data is clocked out.
        assert_eq!(drain(&mut s, ms(12 + i as u64), &mut t), vec![7 + i as u32]);
    }
    assert_eq!(
        s.stats().fast_retransmits,
        0,
        "the reordering is no congestion"
    );
    // 21 ms: the resend arrives; the cumulative ACK jumps to 7 and the window grows on.
    s.on_ack(ms(21), &ack(7, &[]), &mut t);
    assert!(s.cwnd() > cwnd);
    assert_eq!(s.stats().retransmitted_segments, 1);
    assert_eq!(s.stats().elns_received, 1);
    assert_eq!(s.stats().timeouts, 0);
}

#[test]
fn an_ersn_restarts_the_timer_through_a_long_link_retry_burst() {
    let run = |ersn: bool| {
        let mut s = sender(esack());
        let mut t = VecSink::default();
        assert_eq!(drain(&mut s, ms(0), &mut t), vec![0, 1, 2, 3, 4]);
        // The link retries segment 0 with 100 ms between attempts (the spec's Fig. 13
        // setting): its ERSN, sent at the first retry, reaches the sender at 105 ms; the frame
        // gets through on the third attempt and the ACK covering 0-4 arrives at 280 ms.
        // RTO = 200 ms from the send at 0.
        if ersn {
            s.on_link_notice(ms(105), notice(NoticeKind::Ersn, 0), &mut t);
        }
        let deadline = s.poll_timeout();
        s.on_timeout(ms(200), &mut t);
        let at_200 = drain(&mut s, ms(200), &mut t);
        s.on_ack(ms(280), &ack(5, &[]), &mut t);
        (deadline, at_200, s.stats().timeouts)
    };
    // Without ERSN the timer fires at 200 ms and resends segment 0: a spurious timeout.
    assert_eq!(run(false), (Some(ms(200)), vec![0], 1));
    // With it the deadline moved to 105 + 200 ms: the wake-up at 200 ms finds nothing due,
    // and the ACK at 280 ms ends the burst without a timeout.
    assert_eq!(run(true), (Some(ms(305)), vec![], 0));
}

#[test]
fn with_ersn_restart_oldest_only_the_guarded_segment_moves_the_timer() {
    // tcp.ersn_restart = "oldest": segment 0 is lost and waits for the timer;
    // ERSNs for segments 2 and 3 (other frames the link retries) arrive at 105 and 190 ms.
    let run = |oldest: bool| {
        let cfg = SenderConfig {
            ersn_oldest_only: oldest,
            ..SenderConfig::new(MSS, 65535)
        };
        let mut s = sender_cfg(esack(), cfg);
        let mut t = VecSink::default();
        assert_eq!(drain(&mut s, ms(0), &mut t), vec![0, 1, 2, 3, 4]);
        s.on_link_notice(ms(105), notice(NoticeKind::Ersn, 2), &mut t);
        s.on_link_notice(ms(190), notice(NoticeKind::Ersn, 3), &mut t);
        let deadline = s.poll_timeout();
        s.on_timeout(ms(200), &mut t);
        (
            deadline,
            drain(&mut s, ms(200), &mut t),
            s.stats().ersn_timer_restarts,
        )
    };
    // The spec's reading: each ERSN for an outstanding segment restarts the timer (190 +
    // 200 ms), and segment 0's repair waits for it.
    assert_eq!(run(false), (Some(ms(390)), vec![], 2));
    // Oldest only: neither names segment 0; the timer fires at 200 ms and resends it.
    assert_eq!(run(true), (Some(ms(200)), vec![0], 0));
}

#[test]
fn a_run_of_consecutive_elns_past_the_filter_is_left_to_the_timer() {
    // ESACK's ELN filter (spec §4.3, tcp.esack_filter = 3): the receiver disconnects, so the
    // link gives up every frame. ELNs for segments 1, 2, 3 arrive at 11, 12, 13 ms and each is
    // resent at once; the fourth consecutive one (segment 4, 14 ms) is filtered: it is not
    // resent, and the retransmission timer (200 ms after the last ACK at 10 ms) probes at 210 ms.
    let mut s = sender(esack());
    let mut t = VecSink::default();
    assert_eq!(drain(&mut s, ms(0), &mut t), vec![0, 1, 2, 3, 4]);
    s.on_ack(ms(10), &ack(1, &[]), &mut t);
    assert_eq!(drain(&mut s, ms(10), &mut t), vec![5, 6]);
    for (i, seg) in (1..=3).enumerate() {
        let at = ms(11 + i as u64);
        s.on_link_notice(at, notice(NoticeKind::Eln, seg), &mut t);
        assert_eq!(
            drain(&mut s, at, &mut t),
            vec![seg],
            "ELN {seg} resent at once"
        );
    }
    s.on_link_notice(ms(14), notice(NoticeKind::Eln, 4), &mut t);
    // Held: not resent; its original has left the pipe, so new data (segment 7) may go.
    assert_eq!(drain(&mut s, ms(14), &mut t), vec![7], "the fourth is held");
    assert_eq!(s.stats().elns_received, 4);
    assert_eq!(s.stats().elns_filtered, 1);
    assert_eq!(s.stats().retransmitted_segments, 3);
    assert_eq!(s.poll_timeout(), Some(ms(210)));
    s.on_timeout(ms(210), &mut t);
    assert_eq!(s.stats().timeouts, 1);
    assert_eq!(
        drain(&mut s, ms(210), &mut t).first(),
        Some(&1),
        "the timer probes from snd_una"
    );
}
