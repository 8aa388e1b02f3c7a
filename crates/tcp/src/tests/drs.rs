//! Packet script of Linux's receive-buffer autotuning (`receiver/drs.rs`): a 1 Gb/s bottleneck
//! (1448-byte segments plus 52 bytes of headers: 12 µs each), 25 ms each way (a BDP of 4 316
//! segments, 6.25 MB), a queue that never fills, timestamps on a 1 ms clock, an ACK per
//! segment, an RFC 5681 Reno sender with IW 10 whose window and send buffer are never the
//! limit. The receiver starts with Linux's 131 072-byte buffer and `tcp_rmem[2]` = 32 MiB:
//!
//! - it offers 64 512 bytes (64 088 rounded up to the 1024-byte unit of shift 10) until its
//!   first measure, a round trip after the first segment;
//! - from then on the buffer grows at each measure, once per round trip (the first segment of
//!   each new flight), about doubling as the sender's slow start doubles its flight, so the
//!   flight stays under the offered window;
//! - the buffer reaches `tcp_rmem[2]` at 480 ms: a 16 MiB window, above the BDP, so the window
//!   is no longer what limits the transfer: from 500 ms the bottleneck delivers at least 90 % of
//!   what it can carry (nothing is lost; the queue absorbs the rest of the window).
//!
//! Without autotuning the same receiver with a fixed 65 535-byte buffer holds the flight at 64
//! KiB per round trip, 10 Mb/s.

use crate::cc::{RenoCc, RenoFlavor};
use crate::recovery::NewRenoRecovery;
use crate::tests::bsd_reno::ms;
use crate::tests::net::Path;
use crate::{
    Autotune, DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum,
    SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1448;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(1000) };
const BIG: u32 = 1 << 30;

fn path(autotune: bool) -> Path {
    let parts = SenderParts {
        cc: RenoCc::new(RenoFlavor::Rfc5681, MSS, 10 * MSS, BIG).into(),
        recovery: NewRenoRecovery::new(crate::recovery::NewRenoFlavor::Rfc6582, 3).into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let ts = Some(SimDuration::from_millis(1));
    let a = Autotune {
        rmem_default: 131_072,
        rmem_max: 32 << 20,
    };
    let first = if autotune {
        a.initial_window(MSS)
    } else {
        65_535
    };
    let sender = Sender::new(
        SenderConfig {
            timestamps: ts,
            initial_peer_window: first,
            ..SenderConfig::new(MSS, BIG)
        },
        parts,
        SPACE,
        1 << 40,
    );
    let receiver = Receiver::new(
        ReceiverConfig {
            timestamps: ts,
            window_shift: autotune.then_some(10),
            autotune: autotune.then_some(a),
            ..ReceiverConfig::new(MSS, first, DelayedAck::Off)
        },
        SPACE,
        1 << 40,
        SeqNum(1),
    );
    let mut p = Path::new(sender, receiver, SPACE, SimDuration::from_millis(25));
    p.ps_per_byte = 8_000; // 1 Gb/s
    p.overhead = 52;
    p.queue_limit = 1 << 20;
    p
}

/// The buffer at the end of each round trip of slow start (the measure runs on the first
/// segment of each new flight, 25 ms + k · 50 ms): the first growth by hand, from a 50 ms
/// timestamp sample and 11 segments read against 10 in the first measure (`tcp_init_buffer_space`):
/// rcvwin = 2 · 15 928 + 16 · 1448 = 55 024, plus 2 · 55 024 · 1448 / 14 480 = 11 004, so
/// 2 · 66 028 = 132 056 bytes; the next ones by the same rule.
const GROWTH: [(u64, u64); 9] = [
    (80, 132_056),
    (130, 427_552),
    (180, 834_048),
    (230, 1_529_088),
    (280, 2_919_168),
    (330, 5_699_328),
    (380, 11_259_648),
    (430, 22_380_288),
    (480, 32 << 20),
];

#[test]
fn autotuning_grows_the_window_each_round_trip_until_the_bottleneck_is_full() {
    let mut p = path(true);
    p.run_until(ms(70));
    assert_eq!(
        p.receiver.offered_window(),
        64_512,
        "64 088 in 1024-byte units"
    );
    assert_eq!(p.receiver.autotuned().unwrap().0, 131_072);
    let mut last = 131_072;
    for (t, want) in GROWTH {
        p.run_until(ms(t - 5));
        assert_eq!(
            p.receiver.autotuned().unwrap().0,
            last,
            "no growth within the round trip before {t} ms"
        );
        p.run_until(ms(t));
        let (buf, rtt) = p.receiver.autotuned().unwrap();
        assert_eq!(buf, want, "buffer at {t} ms");
        assert!(rtt >= SimDuration::from_millis(50), "receiver RTT {rtt:?}");
        // The sender in slow start stays under the offered window.
        let flight = p.sender.snd_nxt() - p.sender.snd_una();
        assert!(
            flight <= u64::from(p.receiver.offered_window()),
            "flight {flight} at {t} ms"
        );
        last = want;
    }
    // tcp_rmem[2] reached: the window is 16 MiB, above the 6.25 MB BDP; from 500 ms the
    // bottleneck delivers at least 90 % of what it can carry (12.07 MB per 100 ms of payload).
    p.run_until(ms(500));
    assert_eq!(p.receiver.offered_window(), 16 << 20);
    let capacity = 1e9 / 8.0 * 0.1 * f64::from(MSS) / f64::from(MSS + 52);
    let mut before = p.receiver.delivered();
    for t in [600, 700, 800] {
        p.run_until(ms(t));
        let got = (p.receiver.delivered() - before) as f64;
        assert!(got >= 0.9 * capacity, "{got} bytes in the 100 ms to {t} ms");
        before = p.receiver.delivered();
    }
    assert_eq!(
        p.receiver.autotuned().unwrap().0,
        32 << 20,
        "capped at tcp_rmem[2]"
    );
    assert_eq!(p.sender.stats().retransmitted_segments, 0);
}

/// The same path without autotuning and a fixed 65 535-byte buffer: the flight never passes
/// 64 KiB, so at most 65 535 bytes arrive per 50 ms round trip.
#[test]
fn without_autotuning_a_64_kib_buffer_caps_the_flight() {
    let mut p = path(false);
    p.run_until(ms(200));
    let before = p.receiver.delivered();
    for t in (210..=1000).step_by(10) {
        p.run_until(ms(t));
        assert!(p.sender.snd_nxt() - p.sender.snd_una() <= 65_535);
        assert_eq!(p.receiver.offered_window(), 65_535);
    }
    let got = p.receiver.delivered() - before;
    assert!(
        (15 * 65_535..=17 * 65_535).contains(&got),
        "{got} bytes in 800 ms"
    );
    assert!(p.receiver.autotuned().is_none());
}
