//! The opening SYN (`SenderConfig::syn`, sender/syn.rs; Ludwig2000 §4.2.2, S5) with explicit
//! times: the SYN and nothing else until its SYN-ACK, Net/3's 6 s initial RTO on the slow
//! tick, backoff, Karn's rule for the handshake's sample, and the receiver's SYN-ACK.

use crate::tests::bsd_reno::{ack, bsd_parts, drain, ms, BASE, MSS};
use crate::{
    DelayedAck, Receiver, ReceiverConfig, SegOptions, Segment, Sender, SenderConfig, SenderEvent,
    SeqNum, SeqSpace,
};
use engine::VecSink;

fn sender() -> Sender {
    let cfg = SenderConfig {
        syn: true,
        ..SenderConfig::new(MSS, 16 * MSS)
    };
    Sender::new(
        cfg,
        bsd_parts(1),
        SeqSpace { base: BASE },
        10 * u64::from(MSS),
    )
}

fn syn_ack() -> Segment {
    Segment {
        opts: SegOptions {
            syn: Some(MSS as u16),
            ..SegOptions::default()
        },
        ..ack(0, 16 * MSS)
    }
}

#[test]
fn the_syn_waits_for_its_syn_ack_and_backs_off() {
    let (mut s, mut t) = (sender(), VecSink::default());
    let seg = s.poll_transmit(ms(0), &mut t).unwrap();
    assert!(seg.opts.syn == Some(MSS as u16) && !seg.ack_flag && seg.len == 0);
    assert_eq!(seg.seq, SeqNum(BASE.0 - 1), "one below the first data byte");
    assert_eq!(seg.ip_len(), 44, "40 bytes of header and the MSS option");
    assert!(
        s.poll_transmit(ms(0), &mut t).is_none(),
        "no data before the SYN-ACK"
    );
    // 12 ticks of 500 ms (phase 100 ms) after 0: the 12th boundary is 5.6 s.
    assert_eq!(s.poll_timeout(), Some(ms(5600)));
    s.on_timeout(ms(5600), &mut t);
    let again = s.poll_transmit(ms(5600), &mut t).unwrap();
    assert!(again.opts.syn.is_some());
    // Backed off to 24 ticks: 12 s after the tick before 5.6 s.
    assert_eq!(s.poll_timeout(), Some(ms(17600)));
    assert_eq!(s.stats().syn_timeouts, 1);
    // The SYN-ACK at 7 s: open, no RTT sample (the SYN was resent), data follows.
    s.on_ack(ms(7000), &syn_ack(), &mut t);
    assert_eq!(drain(&mut s, ms(7000), &mut t), [(0, MSS)]);
    assert_eq!(s.stats().connect_ns, 7_000_000_000);
    // Still backed off: the data segment's timer runs 24 ticks (7.1 s + 23 x 500 ms).
    assert_eq!(s.poll_timeout(), Some(ms(18600)));
    // A second SYN-ACK (for the resent SYN) is not a duplicate ACK.
    s.on_ack(ms(8000), &syn_ack(), &mut t);
    assert_eq!(s.stats().fast_retransmits, 0);
    let kinds: Vec<_> = t
        .records
        .iter()
        .filter_map(|(at, e)| match e {
            SenderEvent::Syn { retransmission } => {
                Some((at.as_nanos() / 1_000_000, *retransmission as u8))
            }
            SenderEvent::SynTimeout { .. } => Some((at.as_nanos() / 1_000_000, 2)),
            SenderEvent::Established => Some((at.as_nanos() / 1_000_000, 3)),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, [(0, 0), (5600, 2), (5600, 1), (7000, 3)]);
}

#[test]
fn a_syn_answered_first_time_is_a_round_trip_sample() {
    let (mut s, mut t) = (sender(), VecSink::default());
    s.poll_transmit(ms(0), &mut t).unwrap();
    s.on_ack(ms(900), &syn_ack(), &mut t);
    // Two ticks crossed (100 ms, 600 ms): t_rtt = 3; Net/3's first sample sets srtt = 3 and
    // rttvar = 3/2, so the RTO is 3 + 4 x 1.5 = 9 ticks: the 9th boundary after 900 ms, 5.1 s.
    assert_eq!(drain(&mut s, ms(900), &mut t), [(0, MSS)]);
    assert_eq!(s.poll_timeout(), Some(ms(5100)));
}

#[test]
fn the_receiver_answers_each_syn_with_a_syn_ack() {
    let space = SeqSpace { base: BASE };
    let mut r = Receiver::new(
        ReceiverConfig::new(MSS, 16 * MSS, DelayedAck::Off),
        space,
        0,
        SeqNum(77),
    );
    let syn = Segment {
        seq: SeqNum(BASE.0 - 1),
        ack: SeqNum(0),
        len: 0,
        wnd: 16 * MSS,
        ack_flag: false,
        opts: SegOptions {
            syn: Some(MSS as u16),
            ..SegOptions::default()
        },
    };
    for at in [0, 6000] {
        r.on_segment(ms(at), &syn);
        let a = r.poll_transmit(ms(at)).unwrap();
        assert!(a.opts.syn.is_some() && a.ack_flag);
        assert_eq!(
            a.ack, BASE,
            "acknowledges the SYN: the first data byte is next"
        );
        assert!(r.poll_transmit(ms(at)).is_none());
    }
    assert_eq!(r.stats().dupacks_sent, 0);
}
