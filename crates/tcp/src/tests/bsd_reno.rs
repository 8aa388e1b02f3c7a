//! Packet scripts: the signature behaviours of the BSD Reno sender and receiver, driven segment
//! by segment at explicit times (DESIGN.md rule 9).

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::{Phase, RenoRecovery};
use crate::rto::{BsdRto, BsdRtoConfig, TickClock};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, Rexmt, SegOptions, Segment, Sender, SenderConfig,
    SenderEvent, SenderParts, SeqNum, SeqSpace,
};
use engine::{SimDuration, SimTime, VecSink};

pub(crate) const MSS: u32 = 1400;
pub(crate) const BASE: SeqNum = SeqNum(1000);

pub(crate) fn ms(m: u64) -> SimTime {
    SimTime(m * 1_000_000)
}

pub(crate) fn slow_clock() -> TickClock {
    TickClock {
        period: SimDuration::from_millis(500),
        phase: SimDuration::from_millis(100),
    }
}

fn sender(initial_cwnd_segments: u32, buffer: u32) -> Sender {
    sender_with(initial_cwnd_segments, SenderConfig::new(MSS, buffer))
}

/// The parts of the BSD Reno sender of these scripts: Net/3 Reno, the 500 ms slow timer with
/// a 100 ms phase, no Eifel.
pub(crate) fn bsd_parts(initial_cwnd_segments: u32) -> SenderParts {
    SenderParts {
        cc: RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: false,
            },
            MSS,
            initial_cwnd_segments * MSS,
            65535,
        )
        .into(),
        recovery: RenoRecovery::new(3).into(),
        rto: BsdRto::new(BsdRtoConfig {
            clock: slow_clock(),
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        })
        .into(),
        eifel: None,
    }
}

fn sender_with(initial_cwnd_segments: u32, cfg: SenderConfig) -> Sender {
    let parts = bsd_parts(initial_cwnd_segments);
    let mut s = Sender::new(cfg, parts, SeqSpace { base: BASE }, 100 * u64::from(MSS));
    // A 10 ms handshake: one tick-count sample, RTO = 3 ticks.
    s.seed_rtt(ms(0), ms(10));
    s
}

/// A BSD Reno sender of 100 segments with a send buffer of `buffer`, for the relay scripts.
pub(crate) fn sender_for_relay(buffer: u32) -> Sender {
    sender(10, buffer)
}

pub(crate) fn ack(off: u32, wnd: u32) -> Segment {
    Segment {
        seq: SeqNum(0),
        ack: BASE.plus(off),
        len: 0,
        wnd,
        ack_flag: true,
        opts: SegOptions::default(),
    }
}

pub(crate) fn drain(s: &mut Sender, now: SimTime, t: &mut VecSink<SenderEvent>) -> Vec<(u32, u32)> {
    std::iter::from_fn(|| s.poll_transmit(now, t))
        .map(|seg| (seg.seq.diff(BASE) as u32, seg.len))
        .collect()
}

/// Balakrishnan97 Figure 1: a window of 5, segment 2 lost; with Reno the third duplicate ACK
/// triggers exactly one retransmission of it and halves the window.
#[test]
fn reno_fast_retransmit_on_third_dupack() {
    let mut t = VecSink::default();
    let mut s = sender(5, 32768);
    let sent = drain(&mut s, ms(0), &mut t);
    assert_eq!(
        sent,
        (0..5).map(|i| (i * MSS, MSS)).collect::<Vec<_>>(),
        "a window of five full segments"
    );
    // Segment 1 arrives and is acknowledged; segment 2 is lost; 3, 4, 5 produce dupacks.
    s.on_ack(ms(10), &ack(MSS, 32768), &mut t);
    let after_first = drain(&mut s, ms(10), &mut t);
    assert_eq!(
        after_first.len(),
        2,
        "slow start: the window slides by one and grows by one"
    );
    s.on_ack(ms(11), &ack(MSS, 32768), &mut t);
    s.on_ack(ms(12), &ack(MSS, 32768), &mut t);
    assert!(
        drain(&mut s, ms(12), &mut t).is_empty(),
        "no retransmission before the third dupack"
    );
    s.on_ack(ms(13), &ack(MSS, 32768), &mut t);
    assert_eq!(s.stats().fast_retransmits, 1);
    let rexmit = drain(&mut s, ms(13), &mut t);
    assert_eq!(rexmit[0], (MSS, MSS), "retransmits the lost segment first");
    // cwnd was 6 MSS: ssthresh = 3 MSS, cwnd = ssthresh + 3 MSS.
    assert_eq!(s.ssthresh(), 3 * MSS);
    assert_eq!(s.cwnd(), 6 * MSS);
    assert!(matches!(s.phase(), Phase::Recovery { .. }));
    // The retransmission is acknowledged together with everything up to segment 6.
    s.on_ack(ms(20), &ack(6 * MSS, 32768), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(
        s.cwnd(),
        4 * MSS,
        "deflated to ssthresh, then one slow-start step (Net/3: cwnd <= ssthresh)"
    );
    assert_eq!(s.stats().retransmitted_bytes, u64::from(MSS));
    assert_eq!(s.stats().timeouts, 0);
}

/// The BSD coarse timer: a lost segment is resent at the third 500 ms tick after the timer was
/// armed, cwnd drops to one segment, and the next timeout is backed off to six ticks.
#[test]
fn bsd_coarse_timeout_goes_back_n_on_the_tick() {
    let mut t = VecSink::default();
    let mut s = sender(2, 32768);
    assert_eq!(drain(&mut s, ms(0), &mut t).len(), 2);
    // Ticks at 100, 600, 1100 ms: armed at 0 with 3 ticks → fires at 1.1 s.
    assert_eq!(s.poll_timeout(), Some(ms(1100)));
    s.on_timeout(ms(1099), &mut t);
    assert_eq!(s.stats().timeouts, 0, "not before the deadline");
    s.on_timeout(ms(1100), &mut t);
    assert_eq!(s.stats().timeouts, 1);
    assert_eq!(s.cwnd(), MSS);
    assert_eq!(s.ssthresh(), 2 * MSS);
    assert_eq!(
        drain(&mut s, ms(1100), &mut t),
        vec![(0, MSS)],
        "go-back-N: only snd_una fits in cwnd"
    );
    // Backed off: 6 ticks after 1.1 s → 1.6, 2.1, ..., 4.1 s.
    assert_eq!(s.poll_timeout(), Some(ms(4100)));
    assert!(
        t.records
            .iter()
            .any(|(at, e)| *at == ms(1100)
                && matches!(e, SenderEvent::Timeout { seq: 0, backoff: 1 }))
    );
}

/// Reno (not NewReno): a partial ACK ends fast recovery.
#[test]
fn reno_partial_ack_leaves_recovery() {
    let mut t = VecSink::default();
    let mut s = sender(8, 32768);
    drain(&mut s, ms(0), &mut t);
    for i in 0..3 {
        s.on_ack(ms(10 + i), &ack(0, 32768), &mut t);
    }
    assert!(matches!(s.phase(), Phase::Recovery { .. }));
    drain(&mut s, ms(12), &mut t);
    s.on_ack(ms(30), &ack(3 * MSS, 32768), &mut t);
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(s.stats().fast_retransmits, 1);
}

/// A duplicate ACK that changes the window is not counted (Net/3 and RFC 5681 §2).
#[test]
fn window_change_breaks_the_dupack_count() {
    let mut t = VecSink::default();
    let mut s = sender(8, 32768);
    drain(&mut s, ms(0), &mut t);
    s.on_ack(ms(10), &ack(0, 32768), &mut t);
    s.on_ack(ms(11), &ack(0, 30000), &mut t);
    s.on_ack(ms(12), &ack(0, 30000), &mut t);
    s.on_ack(ms(13), &ack(0, 30000), &mut t);
    assert_eq!(s.stats().fast_retransmits, 0);
    s.on_ack(ms(14), &ack(0, 30000), &mut t);
    assert_eq!(
        s.stats().fast_retransmits,
        1,
        "three unchanged-window dupacks after the change"
    );
}

fn receiver(delack: DelayedAck) -> Receiver {
    Receiver::new(
        ReceiverConfig::new(MSS, 32768, delack),
        SeqSpace { base: BASE },
        100 * u64::from(MSS),
        SeqNum(77),
    )
}

fn data(off: u32) -> Segment {
    Segment {
        seq: BASE.plus(off),
        ack: SeqNum(77),
        len: MSS,
        wnd: 32768,
        ack_flag: true,
        opts: SegOptions::default(),
    }
}

/// BSD receiver: every second full segment is acknowledged at once; a lone segment waits for the
/// next 200 ms fast-timer tick; out-of-order data gets an immediate duplicate ACK; the segment
/// that fills the hole gets an immediate ACK for everything.
#[test]
fn bsd_receiver_ack_policy() {
    let tick = TickClock {
        period: SimDuration::from_millis(200),
        phase: SimDuration::from_millis(50),
    };
    let mut r = receiver(DelayedAck::Tick(tick));
    r.on_segment(ms(0), &data(0));
    assert!(
        r.poll_transmit(SimTime::ZERO).is_none(),
        "first segment: delayed"
    );
    assert_eq!(r.poll_timeout(), Some(ms(50)), "next fast tick");
    r.on_segment(ms(7), &data(MSS));
    let a = r
        .poll_transmit(SimTime::ZERO)
        .expect("second segment: ACK at once");
    assert_eq!(a.ack, BASE.plus(2 * MSS));
    r.on_segment(ms(14), &data(2 * MSS));
    assert!(r.poll_transmit(SimTime::ZERO).is_none());
    r.on_timeout(ms(49));
    assert!(r.poll_transmit(SimTime::ZERO).is_none());
    r.on_timeout(ms(50));
    assert_eq!(
        r.poll_transmit(SimTime::ZERO).map(|a| a.ack),
        Some(BASE.plus(3 * MSS)),
        "delayed ACK on the tick"
    );
    // Segment at 3 MSS lost; 4 and 5 arrive out of order.
    r.on_segment(ms(60), &data(4 * MSS));
    assert_eq!(
        r.poll_transmit(SimTime::ZERO).map(|a| a.ack),
        Some(BASE.plus(3 * MSS)),
        "immediate dupack"
    );
    r.on_segment(ms(61), &data(5 * MSS));
    assert_eq!(
        r.poll_transmit(SimTime::ZERO).map(|a| a.ack),
        Some(BASE.plus(3 * MSS))
    );
    r.on_segment(ms(70), &data(3 * MSS));
    assert_eq!(
        r.poll_transmit(SimTime::ZERO).map(|a| a.ack),
        Some(BASE.plus(6 * MSS)),
        "hole filled: cumulative ACK at once"
    );
    assert_eq!(r.stats().dupacks_sent, 2);
    // An old duplicate is acknowledged at once too.
    r.on_segment(ms(80), &data(0));
    assert_eq!(
        r.poll_transmit(SimTime::ZERO).map(|a| a.ack),
        Some(BASE.plus(6 * MSS))
    );
    assert_eq!(r.stats().duplicate_segments, 1);
}

/// A local drop (ENOBUFS from the host's interface queue) of the fourth segment of a
/// 10-segment initial window: with `quench` the window collapses to one segment at that
/// instant and nothing more is sent until an ACK opens it (4.4BSD `tcp_quench`, Ludwig2000
/// §2.3); without it the sender goes on sending and leaves the loss to recovery.
#[test]
fn a_local_drop_quenches_the_window_to_one_segment() {
    for quench in [true, false] {
        let cfg = SenderConfig {
            quench,
            ..SenderConfig::new(MSS, 65535)
        };
        let mut s = sender_with(10, cfg);
        let mut t = VecSink::default();
        let sent: Vec<Segment> = (0..4)
            .map(|_| s.poll_transmit(ms(20), &mut t).unwrap())
            .collect();
        s.on_local_drop(ms(20), &sent[3], &mut t);
        assert_eq!(s.stats().local_drops, 1);
        let drop = SenderEvent::LocalDrop {
            seq: 3 * u64::from(MSS),
        };
        assert!(t.records.iter().any(|(at, e)| *at == ms(20) && *e == drop));
        let more = drain(&mut s, ms(20), &mut t);
        if quench {
            assert_eq!((s.cwnd(), s.ssthresh()), (MSS, 65535), "ssthresh untouched");
            assert!(more.is_empty(), "four segments out, one allowed: {more:?}");
            // An ACK of two segments: slow start to 2 MSS against 2 outstanding, still nothing.
            s.on_ack(ms(40), &ack(2 * MSS, 65535), &mut t);
            assert_eq!(s.cwnd(), 2 * MSS);
            assert!(drain(&mut s, ms(40), &mut t).is_empty());
        } else {
            assert_eq!(s.cwnd(), 10 * MSS);
            assert_eq!(more.len(), 6, "the rest of the window: {more:?}");
        }
    }
}

/// The timer re-armed by an ACK that leaves one segment outstanding (Ludwig2000 §5.3.3,
/// §5.4.5). Slow-timer ticks at 100 ms + k·500 ms. Segment 0 leaves at 20 ms, segment 1 at
/// 300 ms, the ACK of segment 0 arrives at 700 ms (its 680 ms sample makes RTO = 4 ticks).
/// Restart (4.4BSD): 4 ticks after the ACK, 2600 ms, about one RTT "above" the RTO. Precise:
/// 4 ticks after segment 1 left, 2100 ms.
#[test]
fn the_precise_timer_counts_from_the_oldest_segment_not_from_the_ack() {
    for (rexmt, fires) in [(Rexmt::Restart, 2600), (Rexmt::Precise, 2100)] {
        let cfg = SenderConfig {
            rexmt,
            ..SenderConfig::new(MSS, 65535)
        };
        let mut s = sender_with(10, cfg);
        let mut t = VecSink::default();
        assert!(s.poll_transmit(ms(20), &mut t).is_some());
        assert_eq!(s.poll_timeout(), Some(ms(1100)), "armed by the first send");
        assert!(s.poll_transmit(ms(300), &mut t).is_some());
        s.on_ack(ms(700), &ack(MSS, 65535), &mut t);
        assert_eq!(s.poll_timeout(), Some(ms(fires)), "{rexmt:?}");
    }
}
