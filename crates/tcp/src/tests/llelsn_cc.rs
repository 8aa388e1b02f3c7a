//! Packet scripts of the LL-ELSN study's congestion responses (eln-llelsn spec §4.5-4.10,
//! §4.13), with explicit times, on the two-host path of `tests/net.rs`.
//!
//! The *queue* path: 1000-byte segments, a 2 ms-per-segment bottleneck (500 kB/s) with 48 ms of
//! propagation behind it and 50 ms back, delayed ACKs off, a 20-segment window at time zero,
//! so the ACK of segment k of the first window reaches the sender at 100 + 2k ms (RTT_min
//! 100 ms: BWE·RTT_min = 50 000 bytes). Slow start then outruns the bottleneck; from about
//! 200 ms the 64 KiB window keeps 65 segments in flight, 50 on the path and 15 queued, and the
//! ACKs come every 2 ms (the bottleneck's clock). The first transmission of segment 1500 is
//! lost (sent at about 3 s, when Westwood+'s per-RTT filter, the slowest, has converged); the
//! third duplicate starts a fast retransmit with those 65 segments in flight, so Reno's
//! ssthresh is half of that, about 32 000 bytes. A loss of segment 60 instead (sent at
//! 200 ms) falls in slow start, while the queue grows: the duplicates arrive at 302, 304 and
//! 306 ms.
//!
//! The *clear* path: a 10 ms-per-segment bottleneck with 40 ms behind it and 50 ms back, the
//! receiver's window 10 segments (the bottleneck's BDP): segment k of the first window is
//! ACKed at 100 + 10k ms; from then on one segment leaves per ACK, 10 ms apart, each with an
//! RTT of 100 ms, and nothing queues. The first transmission of segment 30 (at 300 ms) is
//! lost; segments 31-33 bring the duplicates at 410, 420 and 430 ms, when cwnd has grown (slow
//! start, one segment per ACK) to 20 + 30 = 50 segments.

use crate::cc::{
    CongestionControl, IdealBweCc, JerseyCc, JerseyUnmarked, JtcpCc, RenoCc, RenoFlavor, TibetCc,
    VenoCc, WestwoodCc, WestwoodFilter,
};
use crate::recovery::RenoRecovery;
use crate::tests::net::Path;
use crate::tests::prr::{ms, rfc6298};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, SegOptions, Segment, Sender, SenderConfig, SenderEvent,
    SenderParts, SeqNum, SeqSpace,
};
use engine::{SimDuration, SimTime};

const MSS: u32 = 1000;
const M: u64 = MSS as u64;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(1000) };
const MAX: u32 = 1 << 20;
/// The segment lost in slow start, and the one lost once the estimators have converged.
const EARLY: u64 = 60;
const LATE: u64 = 1500;

fn sender(cc: Box<dyn CongestionControl>, total: u64, peer: u32) -> Sender {
    let parts = SenderParts {
        cc: cc.into(),
        recovery: RenoRecovery::new(3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        initial_peer_window: peer,
        ..SenderConfig::new(MSS, 65535)
    };
    let mut s = Sender::new(cfg, parts, SPACE, total);
    s.seed_rtt(ms(0), ms(100));
    s
}

fn receiver(total: u64) -> Receiver {
    Receiver::new(
        ReceiverConfig::new(MSS, 65535, DelayedAck::Off),
        SPACE,
        total,
        SeqNum(7),
    )
}

/// The queue path (module documentation) losing segment `lost`, run to 4 s.
fn queue_path(cc: Box<dyn CongestionControl>, lost: u64) -> Path {
    let mut p = queue_path_at_zero(cc, lost);
    p.run_until(ms(4000));
    p
}

/// The queue path before anything ran.
fn queue_path_at_zero(cc: Box<dyn CongestionControl>, lost: u64) -> Path {
    let mut p = Path::new(
        sender(cc, 2000 * M, 65535),
        receiver(2000 * M),
        SPACE,
        SimDuration::from_millis(50),
    );
    p.ps_per_byte = 2_000_000;
    p.fwd_delay = SimDuration::from_millis(48);
    p.drop = Box::new(move |_, off, n| off == lost * M && n == 1);
    p
}

/// The clear path (module documentation), run to 700 ms.
fn clear_path(cc: Box<dyn CongestionControl>) -> Path {
    let mut p = Path::new(
        sender(cc, 200 * M, 10 * MSS),
        receiver(200 * M),
        SPACE,
        SimDuration::from_millis(50),
    );
    p.ps_per_byte = 10_000_000;
    p.fwd_delay = SimDuration::from_millis(40);
    p.ack_window = Some(10 * MSS);
    p.drop = Box::new(|_, off, n| off == 30 * M && n == 1);
    p.run_until(ms(700));
    p
}

/// When the (only) fast retransmit happened.
fn fast_retransmit_at(p: &Path) -> SimTime {
    let frs: Vec<SimTime> = p
        .trace
        .records
        .iter()
        .filter(|(_, e)| matches!(e, SenderEvent::FastRetransmit { .. }))
        .map(|&(t, _)| t)
        .collect();
    assert_eq!(frs.len(), 1, "one fast retransmit");
    assert_eq!(p.sender.stats().timeouts, 0, "no timeout");
    frs[0]
}

fn reno() -> Box<dyn CongestionControl> {
    Box::new(RenoCc::new(RenoFlavor::Rfc5681, MSS, 20 * MSS, MAX))
}

/// Reno on the queue path: ssthresh is half the flight of about 65 segments.
fn reno_queue_ssthresh(lost: u64) -> u32 {
    let p = queue_path(reno(), lost);
    fast_retransmit_at(&p);
    p.sender.ssthresh()
}

#[test]
fn westwood_sets_ssthresh_to_bandwidth_times_rtt_min_after_three_duplicates() {
    let reno = reno_queue_ssthresh(LATE);
    assert!((30 * MSS..=34 * MSS).contains(&reno), "Reno {reno}");
    let p = queue_path(
        Box::new(WestwoodCc::new(WestwoodFilter::Tustin, MSS, 20 * MSS, MAX)),
        LATE,
    );
    let at = fast_retransmit_at(&p);
    assert!(at > ms(3000) && at < ms(3300), "{at:?}");
    // The bottleneck's 500 kB/s times RTT_min 100 ms: 50 000 bytes (the per-RTT samples
    // measure the ACK clock, which the bottleneck sets once slow start has filled it).
    let s = p.sender.ssthresh();
    assert!((45_000..=52_000).contains(&s), "Westwood+ {s}");
}

#[test]
fn tibet_sets_ssthresh_from_its_filtered_lengths_and_intervals() {
    let p = queue_path(Box::new(TibetCc::new(990_000, MSS, 20 * MSS, MAX)), LATE);
    fast_retransmit_at(&p);
    let s = p.sender.ssthresh();
    assert!((45_000..=52_000).contains(&s), "TIBET {s}");
}

/// `tcp.tibet_max_gap` (a counterfactual, not TIBET's filter): on the queue path the ACKs come
/// 2 ms apart; with each gap capped at 1 ms the interval filter sees 1000 bytes per 1 ms, so
/// the estimate (1 MB/s) and the ssthresh after the loss of segment 1500 double, to about
/// 100 000 bytes. A cap above every gap of the run (1 s) leaves the published filter's 50 000.
#[test]
fn tibet_with_its_gaps_capped_takes_each_ack_gap_as_the_cap_at_most() {
    let capped = |cap: u64| {
        let cc =
            TibetCc::new(990_000, MSS, 20 * MSS, MAX).with_max_gap(SimDuration::from_millis(cap));
        let p = queue_path(Box::new(cc), LATE);
        fast_retransmit_at(&p);
        p.sender.ssthresh()
    };
    let s = capped(1);
    assert!(
        (90_000..=104_000).contains(&s),
        "TIBET, gaps capped at 1 ms: {s}"
    );
    let s = capped(1000);
    assert!(
        (45_000..=52_000).contains(&s),
        "TIBET, gaps capped at 1 s: {s}"
    );
}

#[test]
fn jersey_sets_the_window_from_its_rate_estimate_on_a_loss() {
    let p = queue_path(
        Box::new(JerseyCc::new(JerseyUnmarked::Ownd, MSS, 20 * MSS, MAX)),
        LATE,
    );
    fast_retransmit_at(&p);
    let s = p.sender.ssthresh();
    assert!((42_000..=52_000).contains(&s), "Jersey {s}");
}

#[test]
fn the_ideal_bwe_oracle_uses_the_given_rate_and_rtt_exactly() {
    let p = queue_path(
        Box::new(IdealBweCc::new(
            500_000,
            Some(SimDuration::from_millis(100)),
            MSS,
            20 * MSS,
            MAX,
        )),
        LATE,
    );
    fast_retransmit_at(&p);
    assert_eq!(p.sender.ssthresh(), 50_000);
}

/// The live oracle (`tcp.ideal_bwe_available = "live"`): the network hands the sender its
/// available rate (`Sender::set_available_rate`); the fast retransmit takes the latest value
/// before it. Given 500 000 B/s at build time, handed 250 000 B/s at 1 s: ssthresh 25 000
/// bytes at the fast retransmit (about 3 s); handed 250 000 B/s only after it (3.9 s): the
/// ssthresh of the given rate, 50 000, stays.
#[test]
fn the_live_ideal_bwe_oracle_takes_the_latest_rate_the_network_handed_it() {
    let oracle = || {
        Box::new(IdealBweCc::new(
            500_000,
            Some(SimDuration::from_millis(100)),
            MSS,
            20 * MSS,
            MAX,
        ))
    };
    let mut p = queue_path_at_zero(oracle(), LATE);
    p.run_until(ms(1000));
    p.sender.set_available_rate(250_000);
    p.run_until(ms(4000));
    let at = fast_retransmit_at(&p);
    assert!(at > ms(1000) && at < ms(3900), "{at:?}");
    assert_eq!(p.sender.ssthresh(), 25_000);

    let mut p = queue_path_at_zero(oracle(), LATE);
    p.run_until(ms(3900));
    p.sender.set_available_rate(250_000);
    p.run_until(ms(4000));
    fast_retransmit_at(&p);
    assert_eq!(p.sender.ssthresh(), 50_000);
}

/// Veno: on the clear path the backlog N is 0 < β = 3: the third duplicate (430 ms) cuts cwnd
/// (50 segments) by a fifth, to 40; on the queue path N is far above β and Veno halves as
/// Reno does.
#[test]
fn veno_cuts_by_a_fifth_only_with_a_small_backlog() {
    let p = clear_path(Box::new(VenoCc::new(MSS, 20 * MSS, MAX)));
    assert_eq!(fast_retransmit_at(&p), ms(430));
    assert_eq!(p.sender.ssthresh(), 40 * MSS);
    let reno = reno_queue_ssthresh(LATE);
    let p = queue_path(Box::new(VenoCc::new(MSS, 20 * MSS, MAX)), LATE);
    fast_retransmit_at(&p);
    assert_eq!(
        p.sender.ssthresh(),
        reno,
        "a congestive loss: Reno's halving"
    );
}

/// JTCP: on the clear path sends and arrivals are equally spaced, the mean jitter ratio is 0,
/// not above 1/cwnd: the loss is wireless and the window is kept (ssthresh = the 50 segments
/// of cwnd at 430 ms). On the queue path in slow start (segment 60 lost) the growing queue
/// makes the arrivals spread out more than the sends: a congestion loss, Reno's halving. (A
/// standing queue, as at segment 1500, keeps the ratio flat: JTCP takes that loss for a
/// wireless one.)
#[test]
fn jtcp_keeps_the_window_when_the_jitter_ratio_is_flat() {
    let p = clear_path(Box::new(JtcpCc::new(8, MSS, 20 * MSS, MAX)));
    assert_eq!(fast_retransmit_at(&p), ms(430));
    assert_eq!(p.sender.ssthresh(), 50 * MSS);
    let reno_clear = clear_path(reno());
    assert_eq!(reno_clear.sender.ssthresh(), 5 * MSS, "Reno: half of 10");
    let reno = reno_queue_ssthresh(EARLY);
    let p = queue_path(Box::new(JtcpCc::new(8, MSS, 20 * MSS, MAX)), EARLY);
    assert_eq!(fast_retransmit_at(&p), ms(306));
    assert_eq!(p.sender.ssthresh(), reno);
}

/// TCP-Jersey's congestion warning, sender side: a window of 20 segments at time zero, ACKed
/// one per 5 ms from 100 ms (ABE climbs towards the ACK clock's 200 kB/s with a time constant
/// of one RTT, about half-way by 200 ms: ownd about 10 000 bytes of the 20 000 it tends to);
/// an ACK at 200 ms that carries CW runs rcontrol(): ssthresh = ownd and cwnd comes down to
/// it (then grows by the ACK's congestion-avoidance share). Three unmarked duplicates then resend without a cut with `Keep`.
#[test]
fn jersey_answers_a_congestion_warning_with_its_rate_window() {
    let mut s = sender(
        Box::new(JerseyCc::new(JerseyUnmarked::Keep, MSS, 20 * MSS, MAX)),
        400 * M,
        65535,
    );
    let mut t = engine::VecSink::default();
    let ack = |k: u64, cw: bool| Segment {
        seq: SeqNum(7),
        ack: SPACE.base.plus((k * M) as u32),
        len: 0,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions {
            cw,
            ..SegOptions::default()
        },
    };
    while s.poll_transmit(ms(0), &mut t).is_some() {}
    for k in 1..=20 {
        let now = ms(95 + 5 * k);
        s.on_ack(now, &ack(k, false), &mut t);
        while s.poll_transmit(now, &mut t).is_some() {}
    }
    let before = s.cwnd();
    assert_eq!(before, 40 * MSS, "slow start");
    s.on_ack(ms(200), &ack(21, true), &mut t);
    let (ss, cwnd) = (s.ssthresh(), s.cwnd());
    assert!((8_000..=20_000).contains(&ss), "ownd {ss}");
    assert!(
        cwnd >= ss && cwnd < ss + MSS,
        "rcontrol, then the ACK's own growth: {cwnd}"
    );
    // Three unmarked duplicates 300 ms later (beyond one RTT of the warning): no cut.
    while s.poll_transmit(ms(200), &mut t).is_some() {}
    let cwnd = s.cwnd();
    for i in 0..3 {
        s.on_ack(ms(500 + i), &ack(21, false), &mut t);
    }
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.ssthresh(), cwnd, "a wireless loss keeps the window");
}
