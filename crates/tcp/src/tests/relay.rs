//! Packet scripts for the two endpoint features the split proxy is made of (Balakrishnan97
//! §2.12): an application-limited sender (it may send only what its relay buffer holds) and a
//! receiver whose application reads on demand (its window is the free relay space).

use crate::tests::bsd_reno::{ack, ms, MSS};
use crate::{DelayedAck, Receiver, ReceiverConfig, SegOptions, Segment, SeqNum, SeqSpace};
use engine::{SimDuration, VecSink};

const BASE: SeqNum = crate::tests::bsd_reno::BASE;

fn data(off: u32) -> Segment {
    Segment {
        seq: BASE.plus(off),
        ack: SeqNum(0),
        len: MSS,
        wnd: 65535,
        ack_flag: true,
        opts: SegOptions::default(),
    }
}

/// The sender sends nothing the application has not written, resumes when more is written,
/// and a short final piece waits for Nagle only at the true end of what was written.
#[test]
fn app_limited_sender_sends_only_written_bytes() {
    let mut t = VecSink::default();
    let mut s = crate::tests::bsd_reno::sender_for_relay(32768).with_app_limit(0);
    assert_eq!(s.app_limit(), 0);
    assert!(s.poll_transmit(ms(0), &mut t).is_none());
    assert_eq!(s.poll_timeout(), None, "nothing sent, no timer");
    s.set_app_limit(2 * u64::from(MSS));
    let a: Vec<_> = std::iter::from_fn(|| s.poll_transmit(ms(1), &mut t)).collect();
    assert_eq!(a.len(), 2);
    assert!(s.poll_timeout().is_some());
    // A smaller limit is ignored.
    s.set_app_limit(0);
    assert_eq!(s.app_limit(), 2 * u64::from(MSS));
    // Half a segment written: it waits (Nagle) while data is outstanding...
    s.set_app_limit(2 * u64::from(MSS) + 700);
    assert!(s.poll_transmit(ms(2), &mut t).is_none());
    // ...and goes once everything is acknowledged.
    s.on_ack(ms(12), &ack(2 * MSS, 32768), &mut t);
    let seg = s.poll_transmit(ms(12), &mut t).expect("short piece");
    assert_eq!(seg.len, 700);
    assert_eq!(s.stats().peer_window_stalled_ns, 0);
}

/// A full peer window that holds back ready data counts as a stall, from the poll that found
/// it blocked until the poll after the window opened.
#[test]
fn peer_window_stall_is_timed() {
    let mut t = VecSink::default();
    let mut s = crate::tests::bsd_reno::sender_for_relay(32768);
    // The peer advertises two segments only.
    s.on_ack(ms(0), &ack(0, 2 * MSS), &mut t);
    let n = std::iter::from_fn(|| s.poll_transmit(ms(0), &mut t)).count();
    assert_eq!(n, 2);
    // Both acknowledged, window zero: still stalled.
    s.on_ack(ms(10), &ack(2 * MSS, 0), &mut t);
    assert!(s.poll_transmit(ms(10), &mut t).is_none());
    // The window update at 250 ms ends the stall.
    s.on_ack(ms(250), &ack(2 * MSS, 4 * MSS), &mut t);
    assert!(s.poll_transmit(ms(250), &mut t).is_some());
    assert_eq!(
        s.stats().peer_window_stalled_ns,
        SimDuration::from_millis(250).as_nanos()
    );
    assert_eq!(
        s.stats().longest_peer_window_stall_ns,
        SimDuration::from_millis(250).as_nanos()
    );
}

fn relay_receiver(buffer: u32) -> Receiver {
    Receiver::new(
        ReceiverConfig::new(MSS, buffer, DelayedAck::Off),
        SeqSpace { base: BASE },
        1 << 30,
        SeqNum(7),
    )
    .reading_on_demand()
}

/// Unread bytes shrink the window; it closes to zero below one segment (silly-window
/// avoidance), and a read that opens it by two segments sends a window update.
#[test]
fn on_demand_reads_advertise_free_space_and_update_the_window() {
    let buf = 8 * MSS;
    let mut r = relay_receiver(buf);
    let mut wnds = vec![];
    for i in 0..8 {
        r.on_segment(ms(i), &data(i as u32 * MSS));
        let a = r.poll_transmit(ms(i)).expect("ack");
        wnds.push(a.wnd);
    }
    assert_eq!(wnds[0], 7 * MSS);
    assert_eq!(wnds[6], MSS);
    assert_eq!(wnds[7], 0, "full buffer: zero window");
    assert_eq!(r.unread(), u64::from(buf));
    // One segment read: not enough for an update (less than 2 MSS and half the buffer).
    r.set_app_read(u64::from(MSS));
    assert!(r.poll_transmit(ms(20)).is_none());
    // Two read: the update advertises the free space.
    r.set_app_read(2 * u64::from(MSS));
    let up = r.poll_transmit(ms(21)).expect("window update");
    assert_eq!(up.wnd, 2 * MSS);
    assert_eq!(up.ack, BASE.plus(8 * MSS));
    // A bulk receiver ignores reads.
    let mut plain = Receiver::new(
        ReceiverConfig::new(MSS, buf, DelayedAck::Off),
        SeqSpace { base: BASE },
        1 << 30,
        SeqNum(7),
    );
    plain.on_segment(ms(0), &data(0));
    plain.set_app_read(0);
    assert_eq!(plain.poll_transmit(ms(0)).expect("ack").wnd, buf);
}
