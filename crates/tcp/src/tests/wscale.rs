//! Packet scripts of RFC 7323 window scaling (`crate::wscale`), with explicit times.
//!
//! 1. A receiver with a 1 MiB buffer (shift 5) answers segments arriving at 0, 1 and 2 ms: each
//!    ACK advertises the free space rounded up to 32 bytes, far above 65 535, and its 16-bit
//!    field holds the window shifted right by 5.
//! 2. A sender with a cwnd of 100 segments of 1000 bytes on a 20 ms round trip: against a
//!    receiver with window scaling (1 MiB) it has all 100 segments in flight in the first round
//!    trip; against one without (64 KiB) only 65.

use crate::cc::CubicCc;
use crate::recovery::RenoRecovery;
use crate::tests::bsd_reno::{ms, BASE};
use crate::tests::net::Path;
use crate::wscale::{field, shift_for};
use crate::{
    CcPart, DelayedAck, Receiver, ReceiverConfig, SegOptions, Segment, Sender, SenderConfig,
    SenderParts, SeqSpace,
};
use engine::SimDuration;

const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: BASE };

fn data(off: u32) -> Segment {
    Segment {
        seq: BASE.plus(off),
        ack: crate::SeqNum(1),
        len: MSS,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions::default(),
    }
}

#[test]
fn acks_carry_the_scaled_window() {
    let buffer = 1 << 20;
    let shift = shift_for(buffer);
    assert_eq!(shift, 5);
    let cfg = ReceiverConfig {
        window_shift: Some(shift),
        ..ReceiverConfig::new(MSS, buffer, DelayedAck::Off)
    };
    let mut r = Receiver::new(cfg, SPACE, 1 << 30, crate::SeqNum(1)).reading_on_demand();
    let mut wire = Vec::new();
    for (t, off) in [(0, 0), (1, MSS), (2, 2 * MSS)] {
        r.on_segment(ms(t), &data(off));
        let a = r.poll_transmit(ms(t)).expect("an ACK per segment");
        wire.push((t, a.wnd, a.opts.wnd_shift, field(a.wnd, a.opts.wnd_shift)));
    }
    // Free space 1 048 576 - 1000·k, rounded up to a multiple of 32.
    assert_eq!(
        wire,
        vec![
            (0, 1_047_584, 5, 32_737),
            (1, 1_046_592, 5, 32_706),
            (2, 1_045_600, 5, 32_675),
        ]
    );
    // The application reads everything at 3 ms: the window opens to the whole buffer.
    r.set_app_read(3 * u64::from(MSS));
    let a = r.poll_transmit(ms(3)).expect("a window update");
    assert_eq!((a.wnd, field(a.wnd, 5)), (1 << 20, 32_768));
}

/// A sender with 100 segments of cwnd and the peer's window `peer`, to a receiver with
/// `buffer` bytes (scaled if above 65 535) over a 20 ms round trip: segments sent in the
/// first round trip.
fn first_round(buffer: u32) -> (usize, u32) {
    let shift = (buffer > 65535).then(|| shift_for(buffer));
    let window = crate::wscale::max_window(shift);
    let parts = SenderParts {
        cc: CcPart::custom(CubicCc::new(MSS, 100 * MSS, window)),
        recovery: RenoRecovery::new(3).into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let sender = Sender::new(
        SenderConfig {
            window_shift: shift,
            initial_peer_window: buffer.min(window),
            ..SenderConfig::new(MSS, buffer)
        },
        parts,
        SPACE,
        1 << 30,
    );
    let receiver = Receiver::new(
        ReceiverConfig {
            window_shift: shift,
            ..ReceiverConfig::new(MSS, buffer, DelayedAck::Off)
        },
        SPACE,
        1 << 30,
        crate::SeqNum(1),
    );
    let mut p = Path::new(sender, receiver, SPACE, SimDuration::from_millis(10));
    p.run_until(ms(19));
    let sent = p.sent_between(ms(0), ms(20)).len();
    (sent, p.sender.cwnd())
}

#[test]
fn a_scaled_window_lets_more_than_64_kib_fly_per_round_trip() {
    // All 100 segments leave at 0 ms: the peer's 1 MiB window does not bind.
    assert_eq!(first_round(1 << 20), (100, 100 * MSS));
    // Without scaling the peer's 65 535 bytes let 65 segments go.
    assert_eq!(first_round(65535).0, 65);
}
