//! Unit tests of the `receiver` module.

use super::*;
use crate::segment::SegOptions;
use proptest::prelude::*;

#[test]
fn ranges_merge() {
    let mut r = vec![];
    insert_range(&mut r, 10, 20);
    insert_range(&mut r, 30, 40);
    insert_range(&mut r, 20, 30);
    assert_eq!(r, vec![(10, 40)]);
    insert_range(&mut r, 0, 5);
    insert_range(&mut r, 50, 60);
    assert_eq!(r, vec![(0, 5), (10, 40), (50, 60)]);
    insert_range(&mut r, 3, 55);
    assert_eq!(r, vec![(0, 60)]);
}

#[test]
fn sack_blocks_leave_room_for_timestamps_and_eln() {
    let space = SeqSpace { base: SeqNum(1000) };
    let cfg = ReceiverConfig {
        sack: true,
        eln: true,
        timestamps: Some(SimDuration::from_millis(1)),
        ..ReceiverConfig::new(100, 65535, DelayedAck::Off)
    };
    let mut r = Receiver::new(cfg, space, 10_000, SeqNum(5));
    let seg = |off: u64| Segment {
        seq: space.seq(off),
        ack: SeqNum(5),
        len: 100,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions::default(),
    };
    let t = SimTime::ZERO;
    r.on_corrupted(&seg(0));
    for off in [200, 400, 600] {
        r.on_segment(t, &seg(off));
    }
    let ack = r.poll_transmit(t).unwrap();
    assert!(ack.opts.eln && ack.opts.ts.is_some());
    // Three islands, but 12 (timestamps) + 4 (ELN) + 4 + 8·3 would be 44 bytes.
    assert_eq!(ack.opts.sack.as_slice().len(), 2);
    assert_eq!(ack.options_len(), 12 + 4 + 4 + 2 * 8);
    assert_eq!(
        ack.opts.sack.as_slice()[0].0,
        space.seq(600),
        "most recent first"
    );
}

#[test]
fn the_corruption_counter_counts_every_report_and_rides_every_ack_once_nonzero() {
    let space = SeqSpace { base: SeqNum(1000) };
    let cfg = ReceiverConfig {
        corruption_counter: true,
        ..ReceiverConfig::new(100, 65535, DelayedAck::Off)
    };
    let mut r = Receiver::new(cfg, space, 10_000, SeqNum(5));
    let seg = |off: u64| Segment {
        seq: space.seq(off),
        ack: SeqNum(5),
        len: 100,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions::default(),
    };
    let t = SimTime::ZERO;
    r.on_segment(t, &seg(0));
    let a = r.poll_transmit(t).unwrap();
    assert_eq!((a.opts.cc, a.options_len()), (None, 0), "clean: Reno's ACK");
    // Two reports (one a repeat of the same segment): no ACK of their own, count 2.
    r.on_corrupted(&seg(100));
    r.on_corrupted(&seg(100));
    assert_eq!(r.poll_transmit(t), None);
    r.on_segment(t, &seg(200));
    let a = r.poll_transmit(t).unwrap();
    assert_eq!((a.opts.cc, a.options_len()), (Some(2), 8));
    r.on_segment(t, &seg(100));
    assert_eq!(r.poll_transmit(t).unwrap().opts.cc, Some(2), "every ACK");
    // Without the option, reports are not counted.
    let mut plain = Receiver::new(
        ReceiverConfig::new(100, 65535, DelayedAck::Off),
        space,
        10_000,
        SeqNum(5),
    );
    plain.on_corrupted(&seg(0));
    assert_eq!(plain.stats().corruption_count, 0);
}

#[test]
fn a_nack_receiver_names_each_corrupted_segment_at_once_and_echoes_cw() {
    let space = SeqSpace { base: SeqNum(1000) };
    let cfg = ReceiverConfig {
        nack: true,
        ..ReceiverConfig::new(100, 65535, DelayedAck::Off)
    };
    let mut r = Receiver::new(cfg, space, 10_000, SeqNum(5));
    let seg = |off: u64, cw: bool| Segment {
        seq: space.seq(off),
        ack: SeqNum(5),
        len: 100,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions {
            cw,
            ..SegOptions::default()
        },
    };
    let t = SimTime::ZERO;
    r.on_segment(t, &seg(0, true));
    let a = r.poll_transmit(t).unwrap();
    assert!(a.opts.cw && a.opts.nack.is_none(), "CW echoed once");
    // Two corrupted arrivals: one ACK each, naming them in order (8 option bytes).
    assert!(r.on_corrupted(&seg(100, false)));
    assert!(r.on_corrupted(&seg(200, false)));
    assert!(!r.on_corrupted(&seg(200, false)), "already to be named");
    let a = r.poll_transmit(t).unwrap();
    assert_eq!(
        (a.opts.nack, a.ack, a.options_len()),
        (Some(space.seq(100)), space.seq(100), 8)
    );
    assert!(!a.opts.cw);
    assert_eq!(r.poll_transmit(t).unwrap().opts.nack, Some(space.seq(200)));
    assert_eq!(r.poll_transmit(t), None);
    assert_eq!(r.stats().nacks_sent, 2);
    // Old data is not named.
    r.on_segment(t, &seg(100, false));
    r.poll_transmit(t);
    assert!(!r.on_corrupted(&seg(100, false)));
}

proptest! {
    #[test]
    fn ranges_stay_sorted_disjoint_and_cover_inserts(ins in proptest::collection::vec((0u64..200, 1u64..20), 0..40)) {
        let mut r = vec![];
        let mut covered = [false; 220];
        for (s, l) in ins {
            insert_range(&mut r, s, s + l);
            for x in s..s + l { covered[x as usize] = true; }
        }
        for w in r.windows(2) { prop_assert!(w[0].1 < w[1].0); }
        for (x, c) in covered.iter().enumerate() {
            let inside = r.iter().any(|&(s, e)| (x as u64) >= s && (x as u64) < e);
            prop_assert_eq!(inside, *c);
        }
    }
}

#[test]
fn an_unbounded_receiver_advertises_more_than_the_16_bit_field() {
    // ns-2's TCPSink advertises no window: `max_window` above 65535.
    let cfg = ReceiverConfig {
        window_cap: 1 << 30,
        ..ReceiverConfig::new(1000, 1 << 30, DelayedAck::Off)
    };
    let r = Receiver::new(cfg, SeqSpace { base: SeqNum(1) }, 1 << 20, SeqNum(1));
    assert_eq!(r.window(), 1 << 30);
    let r = Receiver::new(
        ReceiverConfig::new(1000, 1 << 30, DelayedAck::Off),
        SeqSpace { base: SeqNum(1) },
        1 << 20,
        SeqNum(1),
    );
    assert_eq!(r.window(), 65535);
}
