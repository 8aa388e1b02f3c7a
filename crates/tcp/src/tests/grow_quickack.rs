//! Packet script of Linux's quick ACK while the offered window opens (`receiver/drs.rs`,
//! `receiver/quickack.rs`; net/ipv4/tcp_input.c `tcp_grow_window`: each in-order segment that
//! raises `rcv_ssthresh` sets `icsk_ack.quick |= 1`, so `__tcp_ack_snd_check` acknowledges it at
//! once). Found by `lossylink validate linux` (docs/validation.md): the kernel's receiver
//! acknowledged 171 of 193 slow-start ACKs one segment at a time on a 10 Mb/s, 100 ms path, the
//! model's one in two, and the ACK train of Linux's HyStart broke on the model's 2.4 ms gaps.
//!
//! A receiver with Linux's delayed ACKs and autotuning from a 40 000-byte buffer, 1000-byte
//! segments, timestamps on a 1 ms clock. By hand (`Drs::new`): the first window is 20 000 bytes,
//! the clamp one segment below it (19 000) and `rcv_ssthresh` = 19 000, so the window does not
//! open until autotuning grows the buffer; the quick-ack budget is 20 000 / 2000 = 10.
//!
//! - 0-9 ms: segments 0-9, each acknowledged at once (quick-ack mode at the start);
//! - 50 ms: segment 10 echoes TSval 1 (the first ACK's): a 50 ms RTT sample, and 50 ms after the
//!   first measure the buffer grows: 11 000 bytes read against 10 000, so rcvwin = 2 · 11 000 +
//!   16 · 1000 = 38 000 plus 2 · 38 000 · 1000 / 10 000 = 7 600, a clamp of 45 600 (the growth
//!   runs after the window check, so segment 10 itself raises nothing and waits);
//! - 51-64 ms: segments 11-24 each raise `rcv_ssthresh` by 2000 (19 000 -> 45 000, then 45 600
//!   at the clamp) and each is acknowledged at once: one ACK per segment;
//! - 65-69 ms: segments 25-29 raise nothing: an ACK every second segment (26, 28), 29 waits.
//!
//! The same receiver without the rule would acknowledge 11, 13, ..., 29 (every second segment).

use crate::segment::{SegOptions, Segment, Timestamps};
use crate::{Autotune, DelayedAck, Receiver, ReceiverConfig, SeqNum, SeqSpace};
use engine::{SimDuration, SimTime};

const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(5000) };

fn ms(m: u64) -> SimTime {
    SimTime(m * 1_000_000)
}

fn receiver() -> Receiver {
    let a = Autotune {
        rmem_default: 40_000,
        rmem_max: 1 << 20,
    };
    Receiver::new(
        ReceiverConfig {
            timestamps: Some(SimDuration::from_millis(1)),
            autotune: Some(a),
            ..ReceiverConfig::new(
                MSS,
                a.initial_window(MSS),
                DelayedAck::Linux(SimDuration::from_millis(200)),
            )
        },
        SPACE,
        1 << 30,
        SeqNum(7),
    )
}

fn data(k: u64, ecr: u32) -> Segment {
    Segment {
        seq: SPACE.seq(k * u64::from(MSS)),
        ack: SeqNum(8),
        len: MSS,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions {
            ts: Some(Timestamps { val: 1, ecr }),
            ..SegOptions::default()
        },
    }
}

/// (arrival ms, segment, echoed TSval) in, (ms, segments acknowledged) out, ACKs sent at once.
fn run(arrivals: &[(u64, u64, u32)]) -> Vec<(u64, u64)> {
    let mut r = receiver();
    let mut acks = Vec::new();
    for &(t, k, ecr) in arrivals {
        r.on_segment(ms(t), &data(k, ecr));
        while let Some(a) = r.poll_transmit(ms(t)) {
            acks.push((t, a.ack.diff(SPACE.base) as u64 / u64::from(MSS)));
        }
    }
    acks
}

#[test]
fn every_segment_that_opens_the_window_is_acknowledged_at_once() {
    let mut arrivals: Vec<(u64, u64, u32)> = (0..10).map(|k| (k, k, 0)).collect();
    arrivals.extend((10..30).map(|k| (40 + k, k, 1)));
    let acks = run(&arrivals);
    let mut want: Vec<(u64, u64)> = (0..10).map(|k| (k, k + 1)).collect();
    want.extend((11..25).map(|k| (40 + k, k + 1)));
    want.extend([(66, 27), (68, 29)]);
    assert_eq!(acks, want);
}
