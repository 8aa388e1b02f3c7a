//! Scripts of the split proxy with explicit times (DESIGN.md rule 9): a fixed host's BSD Reno
//! sender, the proxy, and a mobile receiver, moved by hand at 1 ms per hop in each direction.

use crate::split::SplitProxy;
use engine::{FlowId, NullSink, SimDuration, SimTime};
use tcp::cc::{RenoCc, RenoFlavor};
use tcp::recovery::RenoRecovery;
use tcp::rto::{BsdRto, BsdRtoConfig, TickClock};
use tcp::{
    DelayedAck, Receiver, ReceiverConfig, Segment, Sender, SenderConfig, SenderParts, SeqNum,
    SeqSpace,
};

const MSS: u32 = 1000;
const RELAY: u32 = 8 * MSS;
const TOTAL: u64 = 300 * MSS as u64;
const WIRED: SeqSpace = SeqSpace {
    base: SeqNum(5_000),
};
const WIRELESS: SeqSpace = SeqSpace {
    base: SeqNum(900_000),
};

fn ms(n: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(n)
}

fn reno(buffer: u32, peer_window: u32, phase_ms: u64) -> Sender {
    let parts = SenderParts {
        cc: RenoCc::new(
            RenoFlavor::Net3 {
                extra_mss_over_8: false,
            },
            MSS,
            4 * MSS,
            65535,
        )
        .into(),
        recovery: RenoRecovery::new(3).into(),
        rto: BsdRto::new(BsdRtoConfig {
            clock: TickClock {
                period: SimDuration::from_millis(500),
                phase: SimDuration::from_millis(phase_ms),
            },
            min_ticks: 2,
            max_ticks: 128,
            initial_ticks: 12,
        })
        .into(),
        eifel: None,
    };
    let mut s = Sender::new(
        SenderConfig {
            initial_peer_window: peer_window,
            ..SenderConfig::new(MSS, buffer)
        },
        parts,
        if phase_ms == 100 { WIRED } else { WIRELESS },
        TOTAL,
    );
    // A 2 ms handshake: RTO = the 1 s minimum.
    s.seed_rtt(ms(0), ms(2));
    s
}

fn receiver(buffer: u32, space: SeqSpace) -> Receiver {
    Receiver::new(
        ReceiverConfig::new(MSS, buffer, DelayedAck::Off),
        space,
        TOTAL,
        SeqNum(1),
    )
}

/// What happened, per millisecond.
#[derive(Default)]
struct Log {
    /// (time ms, stream offset) of the fixed host's data segments.
    source_sends: Vec<(u64, u64)>,
    /// (time ms, relay occupancy) after each input at the proxy.
    occupancy: Vec<(u64, u64)>,
}

/// Run the script: the wireless hop loses every frame (both directions) in `[down, up)` ms.
fn script(down: u64, up: u64, until: u64) -> (Sender, SplitProxy, Receiver, Log) {
    let mut source = reno(32768, 32768, 100);
    let wired = receiver(RELAY, WIRED).reading_on_demand();
    let mut proxy = SplitProxy::new(
        FlowId(0),
        wired,
        reno(RELAY, 32768, 300),
        u64::from(RELAY),
        false,
    );
    let mut mobile = receiver(32768, WIRELESS);
    let mut sink = NullSink;
    let mut log = Log::default();
    // Segments in flight, arriving one millisecond after they were sent.
    let (mut to_proxy, mut to_source, mut to_mobile, mut to_bs): (
        Vec<Segment>,
        Vec<Segment>,
        Vec<Segment>,
        Vec<Segment>,
    ) = Default::default();
    for t in 0..until {
        let now = ms(t);
        let lossy = (down..up).contains(&t);
        for s in std::mem::take(&mut to_source) {
            source.on_ack(now, &s, &mut sink);
        }
        for s in std::mem::take(&mut to_proxy) {
            proxy.on_data(now, &s);
            log.occupancy.push((t, proxy.occupancy()));
        }
        for s in std::mem::take(&mut to_bs) {
            if !lossy {
                proxy.on_ack(now, &s);
                log.occupancy.push((t, proxy.occupancy()));
            }
        }
        for s in std::mem::take(&mut to_mobile) {
            if !lossy {
                mobile.on_segment(now, &s);
            }
        }
        if source.poll_timeout().is_some_and(|w| w <= now) {
            source.on_timeout(now, &mut sink);
        }
        if proxy.poll_timeout().is_some_and(|w| w <= now) {
            proxy.on_timeout(now);
        }
        while let Some(s) = source.poll_transmit(now, &mut sink) {
            log.source_sends
                .push((t, u64::from(s.seq.diff(WIRED.base) as u32)));
            to_proxy.push(s);
        }
        while let Some(s) = proxy.poll_wired(now) {
            to_source.push(s);
        }
        while let Some(s) = proxy.poll_wireless(now) {
            to_mobile.push(s);
        }
        while let Some(s) = mobile.poll_transmit(now) {
            to_bs.push(s);
        }
    }
    (source, proxy, mobile, log)
}

/// The wireless hop goes dark at 40 ms: the wireless leg times out again and again, the relay
/// fills, and the fixed host's last segment is exactly the one that fills it; nothing more
/// leaves the fixed host until the mobile acknowledges data again.
#[test]
fn source_stops_exactly_when_the_relay_is_full() {
    let (source, proxy, mobile, log) = script(10, 8_000, 8_000);
    let wl = proxy.wireless().stats();
    assert!(wl.timeouts >= 2, "wireless-leg timeouts: {}", wl.timeouts);
    assert_eq!(source.stats().timeouts, 0, "the fixed host never times out");
    let &(t_stop, last_off) = log.source_sends.last().expect("sends");
    // The relay fills (and empties) many times before the outage; it stays full from the
    // entry after the last one below capacity.
    let last_below = log
        .occupancy
        .iter()
        .rposition(|&(_, o)| o < u64::from(RELAY))
        .expect("below capacity at first");
    let t_full = log.occupancy[last_below + 1].0;
    // The segment sent at t_stop arrives at t_stop + 1 and fills the relay.
    assert_eq!(t_full, t_stop + 1);
    assert_eq!(proxy.occupancy(), u64::from(RELAY));
    assert_eq!(
        last_off + u64::from(MSS),
        proxy.wireless().snd_una() + u64::from(RELAY),
        "the fixed host sent exactly up to the relay's capacity"
    );
    assert!(t_stop < 100, "stopped at {t_stop} ms");
    assert!(log.occupancy.iter().all(|&(_, o)| o <= u64::from(RELAY)));
    assert!(mobile.delivered() < TOTAL);
}

/// When the hop comes back, the mobile's ACKs free relay space, a window update reopens the
/// fixed host's window (no persist timer needed: the wired side loses nothing), and the
/// transfer completes. The fixed host's stall is counted from the zero window to the update.
#[test]
fn window_update_restarts_the_source_after_the_outage() {
    let (source, proxy, mobile, log) = script(10, 2_000, 12_000);
    assert_eq!(mobile.delivered(), TOTAL);
    assert!(source.is_done());
    assert!(proxy.wireless().stats().timeouts >= 2);
    let resumed = log
        .source_sends
        .iter()
        .find(|&&(t, _)| t >= 2_000)
        .map(|&(t, _)| t)
        .expect("the source resumes");
    // The first wireless retransmission after 2 s is on a 500 ms tick with backoff, then its
    // ACK frees space; the source resumes within a few ticks of the hop's return.
    assert!(resumed < 6_000, "resumed at {resumed} ms");
    let stalled = source.stats().longest_peer_window_stall_ns;
    assert!(
        stalled >= SimDuration::from_millis(1_900).as_nanos(),
        "longest stall {stalled} ns"
    );
    assert_eq!(source.stats().retransmitted_segments, 0);
}
