//! Unit tests of the GSM RLP medium (explicit block times against the FakeAir of shared.rs).

use super::super::shared::tests::FakeAir;
use super::*;

/// Deliver the medium's wake-ups in time order until none is left or `limit` is passed.
fn drive(m: &mut Gsm, air: &mut FakeAir, limit: SimTime) {
    while let Some(k) = (0..air.wakes.len()).min_by_key(|&i| (air.wakes[i].0, i)) {
        let (t, tag) = air.wakes.remove(k);
        if t > limit {
            return;
        }
        m.on_wake(t, tag, air);
    }
}

fn ms(x: u64) -> SimTime {
    SimTime(x * 1_000_000)
}

/// Hand-overs in the log: (time in ms, wire bytes, delivered intact).
fn overs(air: &FakeAir) -> Vec<(u64, u64, bool)> {
    air.log
        .iter()
        .filter_map(|l| {
            let v: Vec<&str> = l.split(' ').collect();
            (v.get(1) == Some(&"over")).then(|| {
                let t: u64 = v[0].parse().unwrap_or(0);
                (t / 1_000_000, v[3].parse().unwrap_or(0), v[4] == "ok")
            })
        })
        .collect()
}

fn trace(erased: &[usize]) -> Arc<BlockTrace> {
    let mut b = vec![false; 3000];
    for &i in erased {
        b[i] = true;
    }
    Arc::new(BlockTrace::new(b).unwrap_or_else(|_| unreachable!()))
}

#[test]
fn a_packet_is_cut_into_frames_of_24_bytes_one_per_block() {
    // 512 + 7 PPP bytes = 519 bytes: 22 frames (21 of 24 bytes and one of 15), 20 ms each;
    // the packet leaves with the block that carries its last byte, at 440 ms.
    let mut m = Gsm::new(
        PortId(0),
        GsmConfig::default(),
        None,
        RngStream::new(1, "l"),
    );
    let mut air = FakeAir::new(vec![1]);
    m.on_ready(ms(3), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(10_000));
    assert_eq!(overs(&air), vec![(20 + 440, 519, true)]);
    assert_eq!(m.stats().frames, 22);
    assert!(!m.is_busy());
}

#[test]
fn an_erased_frame_goes_again_one_rlp_round_trip_later_and_data_waits_in_order() {
    // Two packets (44 frames from 0 ms); block 2 (40-60 ms) is erased: that frame goes
    // again at the first block after 40 + 400 ms = 440 ms, before new frames. The first
    // packet (frames 0-21) waits for it; frames 3-21 arrived meanwhile.
    let mut m = Gsm::new(
        PortId(0),
        GsmConfig::default(),
        Some(trace(&[2])),
        RngStream::new(1, "l"),
    );
    let mut air = FakeAir::new(vec![2]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(10_000));
    // Frames 0-21 of the first packet need blocks 0-22 (one went twice); the retransmission
    // is in block 22 (440-460 ms), so packet 1 leaves at 460 ms; packet 2 (22 frames, one
    // block later) at 900 ms.
    assert_eq!(overs(&air), vec![(460, 519, true), (900, 519, true)]);
    assert_eq!((m.stats().retransmissions, m.stats().erased), (1, 1));
}

#[test]
fn more_than_n2_erasures_of_one_frame_reset_the_link_and_flush_its_packets() {
    // N2 = 2: block 0 erased, then its retransmissions at 400 and 800 ms too: the link
    // resets when the block at 800 ms ends; both packets in RLP's buffer are flushed (they
    // fail PPP's FCS at the far end), the next one starts afresh.
    let cfg = GsmConfig {
        n2: Some(2),
        ..GsmConfig::default()
    };
    let mut m = Gsm::new(
        PortId(0),
        cfg,
        Some(trace(&[0, 20, 40])),
        RngStream::new(1, "l"),
    );
    let mut air = FakeAir::new(vec![3]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(20_000));
    let o = overs(&air);
    assert_eq!(o[0], (820, 519, false));
    assert_eq!(o[1], (820, 519, false));
    assert!(o[2].2, "the third packet gets through: {o:?}");
    assert_eq!((m.stats().resets, m.stats().flushed), (1, 2));
    // Fully reliable: no reset, the first frame gets through at 1200 ms.
    let cfg = GsmConfig {
        n2: None,
        ..GsmConfig::default()
    };
    let mut m = Gsm::new(
        PortId(0),
        cfg,
        Some(trace(&[0, 20, 40])),
        RngStream::new(1, "l"),
    );
    let mut air = FakeAir::new(vec![3]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(20_000));
    assert_eq!(m.stats().resets, 0);
    assert!(overs(&air).iter().all(|o| o.2));
}

#[test]
fn l2r_holds_the_sender_to_its_rate_in_bursts_separated_by_gaps() {
    // 200 packets of 519 bytes at 960 B/s with gaps of 950-1300 ms: the last one leaves
    // after 200 · 519 / 960 s plus at most one gap; every gap within the range.
    let cfg = GsmConfig {
        l2r: Some(L2rConfig {
            rate: 960,
            gap_min: SimDuration::from_millis(950),
            gap_max: SimDuration::from_millis(1300),
            draw: 0,
        }),
        ..GsmConfig::default()
    };
    let mut m = Gsm::new(PortId(0), cfg, None, RngStream::new(1, "l"));
    let mut air = FakeAir::new(vec![200]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(1_000_000));
    let o = overs(&air);
    assert_eq!(o.len(), 200);
    let last = o[199].0 as f64 / 1000.0;
    let ideal = 200.0 * 519.0 / 960.0;
    assert!(
        last >= ideal - 1.3 && last <= ideal + 1.3,
        "{last} s vs {ideal} s"
    );
    let s = m.stats();
    assert!(s.xoff_gaps > 15, "{s:?}");
    let mean_gap = s.xoff_ns as f64 / s.xoff_gaps as f64 / 1e9;
    assert!((0.95..=1.3).contains(&mean_gap), "{mean_gap}");
    // Between two packets' hand-overs at the peak rate there are 22 blocks (440 ms); a gap
    // shows as a longer spacing.
    let long = o.windows(2).filter(|w| w[1].0 - w[0].0 > 1000).count();
    assert!(long > 15, "{long}");
}

#[test]
fn with_vj_headers_shrink_and_a_reset_desynchronises_until_a_full_header() {
    // VJ: the first packet's header in full (519 bytes), the next ones compressed (40 -> 4:
    // 483 bytes). A reset flushes a packet: every later compressed packet of the
    // connection fails at the far end.
    let cfg = GsmConfig {
        vj: true,
        n2: Some(1),
        ..GsmConfig::default()
    };
    // Block 30 (600 ms) is in the second packet; erased, and its retransmission at
    // 1000 ms too: with N2 = 1 the link resets at 1020 ms.
    let mut m = Gsm::new(
        PortId(0),
        cfg,
        Some(trace(&[30, 50])),
        RngStream::new(1, "l"),
    );
    let mut air = FakeAir::new(vec![8]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(20_000));
    let o = overs(&air);
    assert_eq!(o[0], (440, 519, true));
    assert!(o[1..].iter().all(|x| x.1 == 483), "compressed: {o:?}");
    let s = m.stats();
    assert_eq!(s.resets, 1);
    let flushed = s.flushed as usize;
    assert!(flushed >= 2, "{s:?}");
    // The flushed packets at the reset, then every later one out of step: none arrives
    // intact, and all but the flushed ones count as VJ discards.
    assert!(o[1..=flushed].iter().all(|x| x.0 == 1020 && !x.2), "{o:?}");
    assert!(o[flushed + 1..].iter().all(|x| x.0 > 1020 && !x.2), "{o:?}");
    assert_eq!(s.vj_discards as usize, 8 - 1 - flushed);
}

#[test]
fn the_event_log_records_first_transmissions_retransmissions_and_resets() {
    // As above with N2 = 2: block 0 erased, its retransmissions at 400 and 800 ms too. The
    // log: the first frame (stream bytes 0-24) at 0 ms, new frames every 20 ms, the
    // retransmissions of bytes ..24 at 400 and 800 ms, and the reset when the block at 800 ms
    // ends, at the hole (offset 0).
    let cfg = GsmConfig {
        n2: Some(2),
        ..GsmConfig::default()
    };
    let mut m = Gsm::new(
        PortId(0),
        cfg,
        Some(trace(&[0, 20, 40])),
        RngStream::new(1, "l"),
    );
    m.enable_log();
    let mut air = FakeAir::new(vec![3]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(20_000));
    let log = m.log().unwrap_or_default();
    let at = |k: RlpKind| -> Vec<(u64, u64)> {
        log.iter()
            .filter(|e| e.kind == k)
            .map(|e| (e.at.as_nanos() / 1_000_000, e.offset))
            .collect()
    };
    assert_eq!(at(RlpKind::Data)[..2], [(0, 24), (20, 48)]);
    assert_eq!(at(RlpKind::Xmit), [(400, 24), (800, 24)]);
    assert_eq!(at(RlpKind::Reset), [(820, 0)]);
    assert!(at(RlpKind::Xoff).is_empty());
    // Without the log nothing is kept.
    let m = Gsm::new(
        PortId(0),
        GsmConfig::default(),
        None,
        RngStream::new(1, "l"),
    );
    assert!(m.log().is_none());
}

#[test]
fn the_event_log_pairs_each_l2r_gap_with_its_xon() {
    let cfg = GsmConfig {
        l2r: Some(L2rConfig {
            rate: 960,
            gap_min: SimDuration::from_millis(950),
            gap_max: SimDuration::from_millis(1300),
            draw: 0,
        }),
        ..GsmConfig::default()
    };
    let mut m = Gsm::new(PortId(0), cfg, None, RngStream::new(1, "l"));
    m.enable_log();
    let mut air = FakeAir::new(vec![20]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(60_000));
    let log = m.log().unwrap_or_default();
    let offs: Vec<_> = log.iter().filter(|e| e.kind == RlpKind::Xoff).collect();
    let ons: Vec<_> = log.iter().filter(|e| e.kind == RlpKind::Xon).collect();
    assert_eq!(offs.len() as u64, m.stats().xoff_gaps);
    assert!(!offs.is_empty());
    for (off, on) in offs.iter().zip(&ons) {
        let gap = on.at.saturating_since(off.at).as_nanos() / 1_000_000;
        assert!((950..=1300).contains(&gap), "{gap} ms");
        assert_eq!(off.offset, on.offset);
        // No new frame inside a gap.
        assert!(!log
            .iter()
            .any(|e| e.kind == RlpKind::Data && e.at > off.at && e.at < on.at));
    }
}

fn adaptive() -> GsmConfig {
    GsmConfig {
        adaptive: Some(FlowAdaptive::default()),
        ..GsmConfig::default()
    }
}

#[test]
fn flow_adaptive_a_udp_packet_overtakes_a_tcp_packet_waiting_for_a_retransmission() {
    // A 512-byte TCP packet (519 bytes, frames 0-21) then a 200-byte UDP datagram (207
    // bytes, frames 21-30, the last in block 30, 600-620 ms); block 2 (40-60 ms) is erased
    // and, with an RLP round trip of 1 s, resent in block 52 (1040-1060 ms). In order the
    // datagram waits for it (head-of-line blocking, §2.5.3); flow-adaptive it leaves at 620 ms
    // and the TCP packet, still in order for its own flow, at 1060 ms.
    let run = |adaptive: Option<FlowAdaptive>| {
        let cfg = GsmConfig {
            rlp_rtt: SimDuration::from_millis(1000),
            adaptive,
            ..GsmConfig::default()
        };
        let mut m = Gsm::new(PortId(0), cfg, Some(trace(&[2])), RngStream::new(1, "l"));
        let mut air = FakeAir::new(vec![2]);
        air.udp = vec![2];
        m.on_ready(ms(0), PortId(0), &mut air);
        drive(&mut m, &mut air, ms(10_000));
        (overs(&air), m.stats())
    };
    let (in_order, s) = run(None);
    assert_eq!(in_order, [(1060, 519, true), (1060, 207, true)]);
    assert_eq!(s.out_of_order, 0);
    let (adaptive, s) = run(Some(FlowAdaptive::default()));
    assert_eq!(adaptive, [(620, 207, true), (1060, 519, true)]);
    assert_eq!((s.out_of_order, s.retransmissions), (1, 1));
}

#[test]
fn flow_adaptive_gives_up_real_time_bytes_and_persists_for_tcp() {
    // Block 25 (500-520 ms) carries only the UDP datagram's bytes: in-order RLP resends it at
    // 900 ms and the datagram arrives intact at 920 ms; flow-adaptive, a retransmission 400 ms
    // later is past the 50 ms bound: the datagram is given up (discarded at the far end when
    // its last frame is in, 620 ms) and nothing is resent.
    let run = |cfg: GsmConfig, erased: &[usize]| {
        let mut m = Gsm::new(PortId(0), cfg, Some(trace(erased)), RngStream::new(1, "l"));
        let mut air = FakeAir::new(vec![2]);
        air.udp = vec![2];
        m.on_ready(ms(0), PortId(0), &mut air);
        drive(&mut m, &mut air, ms(20_000));
        (overs(&air), m.stats())
    };
    let (o, s) = run(GsmConfig::default(), &[25]);
    assert_eq!(o, [(440, 519, true), (920, 207, true)]);
    assert_eq!(s.retransmissions, 1);
    let (o, s) = run(adaptive(), &[25]);
    assert_eq!(o, [(440, 519, true), (620, 207, false)]);
    assert_eq!((s.retransmissions, s.realtime_dropped, s.resets), (0, 1, 0));
    // The TCP packet's first frame erased 8 times (blocks 0, 20, ..., 140: each retransmission
    // 400 ms after the last): N2 = 6 resets the link; flow-adaptive persists (up to 120 s) and
    // the packet gets through with the ninth transmission, in block 160 (3200-3220 ms); the
    // datagram behind it leaves first (640 ms).
    let erased: Vec<usize> = (0..8).map(|k| 20 * k).collect();
    let (_, s) = run(GsmConfig::default(), &erased);
    assert_eq!(s.resets, 1);
    let (o, s) = run(adaptive(), &erased);
    assert_eq!(s.resets, 0);
    assert_eq!(o, [(640, 207, true), (3220, 519, true)]);
}

#[test]
fn rfc2507_twice_repairs_a_reset_that_lost_one_packet_where_vj_stays_out_of_step() {
    // Eight packets, headers compressed after the first (483 bytes each). Packet 2 is bytes
    // 519-1002, frames 21-41. With an RLP round trip of 200 ms and N2 = 1, block 22 (frame
    // 22) and its retransmission in block 32 are erased: the link resets at 660 ms with only
    // packet 2 in RLP's buffer (packet 3 is pulled in at block 41), so one delta is lost.
    let run = |twice: bool| {
        let cfg = GsmConfig {
            vj: true,
            twice,
            n2: Some(1),
            rlp_rtt: SimDuration::from_millis(200),
            ..GsmConfig::default()
        };
        let mut m = Gsm::new(
            PortId(0),
            cfg,
            Some(trace(&[22, 32])),
            RngStream::new(1, "l"),
        );
        let mut air = FakeAir::new(vec![8]);
        m.on_ready(ms(0), PortId(0), &mut air);
        drive(&mut m, &mut air, ms(20_000));
        (overs(&air), m.stats())
    };
    let (vj, s) = run(false);
    assert_eq!((s.resets, s.flushed), (1, 1));
    assert_eq!(vj[1], (660, 483, false), "the flushed packet");
    // VJ: every later compressed packet out of step.
    assert!(vj[2..].iter().all(|o| !o.2), "{vj:?}");
    assert_eq!(s.vj_discards, 6);
    // RLP carried the six intact: their 6 x 483 wire bytes were sent in vain (Ludwig2000
    // §3.1.2), the flushed packet's are not counted (its bytes never arrived).
    assert_eq!(s.discarded_bytes, 6 * 483);
    // RFC 2507: the next delta applied twice puts it back in step: all six arrive intact.
    let (rfc, s) = run(true);
    assert_eq!(rfc[1], (660, 483, false));
    assert!(rfc[2..].iter().all(|o| o.2), "{rfc:?}");
    assert_eq!((s.flushed, s.vj_discards, s.discarded_bytes), (1, 0, 0));
}

#[test]
fn a_frame_sent_in_vain_costs_its_share_of_the_busy_time() {
    // 100 new frames and 20 retransmissions of 20 ms, 600 ms of XOFF, over 3 s: each new
    // frame costs (120 * 20 + 600) / 100 = 30 ms of link time; 10 of them 300 ms, 10 %.
    let s = GsmStats {
        frames: 100,
        retransmissions: 20,
        xoff_ns: 600_000_000,
        first_ns: 1_000_000_000,
        last_ns: 4_000_000_000,
        ..GsmStats::default()
    };
    let block = SimDuration::from_millis(20);
    assert!((s.busy_share(block) - 1.0).abs() < 1e-12);
    assert!((s.frames_share(block, 10.0) - 0.1).abs() < 1e-12);
    assert_eq!(GsmStats::default().frames_share(block, 10.0), 0.0);
}

#[test]
fn a_lossless_handover_delays_the_data_and_a_lossy_one_makes_rlp_resend_it() {
    // One packet (22 frames, 440 ms on a clean channel); a handover at 100 ms for 300 ms.
    let run = |lossless: bool| {
        let cfg = GsmConfig {
            handovers: Handovers::new(vec![Handover {
                at: ms(100),
                duration: SimDuration::from_millis(300),
                lossless,
            }])
            .unwrap_or_else(|_| unreachable!()),
            ..GsmConfig::default()
        };
        let mut m = Gsm::new(PortId(0), cfg, None, RngStream::new(1, "l"));
        let mut air = FakeAir::new(vec![1]);
        m.on_ready(ms(0), PortId(0), &mut air);
        drive(&mut m, &mut air, ms(10_000));
        (overs(&air), m.stats())
    };
    // Lossless: frames 0-4 before it, the sender holds from 100 to 400 ms, frames 5-21 after:
    // 300 ms late (740 ms), nothing resent.
    let (o, s) = run(true);
    assert_eq!(o, [(740, 519, true)]);
    assert_eq!((s.frames, s.retransmissions), (22, 0));
    // Lossy: frames 5-19 go into the interrupted blocks (100-400 ms) and are lost; each is
    // resent one RLP round trip later (500-780 ms), after frames 20 and 21 (400-440 ms): the
    // packet is complete when the last resent frame's block ends, 800 ms.
    let (o, s) = run(false);
    assert_eq!(o, [(800, 519, true)]);
    assert_eq!((s.frames, s.retransmissions, s.erased), (22, 15, 15));
}

#[test]
fn handovers_are_any_number_in_time_order_and_found_by_time() {
    // Twenty lossy handovers of 100 ms, one every second from 1 s: each block that starts in
    // one is found, the blocks between them are not, and any overlap or disorder is refused
    // with the index of the first offender.
    let h = |at: u64, d: u64| Handover {
        at: ms(at),
        duration: SimDuration::from_millis(d),
        lossless: false,
    };
    let list: Vec<Handover> = (1..=20).map(|k| h(1000 * k, 100)).collect();
    let hs = Handovers::new(list).unwrap_or_else(|_| unreachable!());
    assert_eq!(hs.as_slice().len(), 20);
    assert_eq!(hs.at(ms(999)), None);
    assert_eq!(hs.at(ms(1000)).map(|x| x.at), Some(ms(1000)));
    assert_eq!(hs.at(ms(1099)).map(|x| x.at), Some(ms(1000)));
    assert_eq!(hs.at(ms(1100)), None);
    assert_eq!(hs.at(ms(20_050)).map(|x| x.at), Some(ms(20_000)));
    assert_eq!(hs.at(ms(20_100)), None);
    // Back to back is fine; overlapping or out of order is not.
    assert!(Handovers::new(vec![h(0, 100), h(100, 100)]).is_ok());
    assert_eq!(Handovers::new(vec![h(0, 100), h(99, 100)]), Err(1));
    assert_eq!(
        Handovers::new(vec![h(0, 10), h(500, 10), h(200, 10)]),
        Err(2)
    );
    // On the link: four 519-byte packets (87 frames), 20 lossy handovers of 40 ms (two
    // blocks each) every 100 ms from 0 ms, RLP fully reliable. Every block is used until the
    // end, so exactly the 40 blocks in handovers are erased (a retransmission may be erased
    // again), each costs one retransmission, and the last packet leaves after 87 + 40 = 127
    // blocks, at 2540 ms.
    let cfg = GsmConfig {
        n2: None,
        handovers: Handovers::new((0..20).map(|k| h(100 * k, 40)).collect())
            .unwrap_or_else(|_| unreachable!()),
        ..GsmConfig::default()
    };
    let mut m = Gsm::new(PortId(0), cfg, None, RngStream::new(1, "l"));
    let mut air = FakeAir::new(vec![4]);
    m.on_ready(ms(0), PortId(0), &mut air);
    drive(&mut m, &mut air, ms(20_000));
    let s = m.stats();
    assert_eq!((s.frames, s.erased, s.retransmissions), (87, 40, 40));
    assert_eq!(overs(&air).last(), Some(&(2540, 519, true)));
}

#[test]
fn flow_adaptive_an_interactive_packet_goes_before_bulk_retransmissions_and_overtakes_them() {
    // A bulk TCP packet (519 bytes: frames 0-21, the last shared) then an interactive one of
    // flow 2 (100 + 7 bytes: stream bytes 519-626, frames 21-26). Blocks 2-7 (40-160 ms) are
    // erased: their frames are due again from 440 ms, when frame 22, the first of only
    // interactive bytes, is ready too.
    let run = |marked: bool, in_order: bool| {
        let mut a = FlowAdaptive::default();
        if marked {
            // Flow 2 marks AF21 (18), the interactive class's codepoint.
            a.marks = Arc::from(&[(engine::FlowId(2), true, 18u8)][..]);
        }
        a.policies[ServiceClass::Interactive.index()].in_order = in_order;
        let cfg = GsmConfig {
            adaptive: Some(a),
            ..GsmConfig::default()
        };
        let erased: Vec<usize> = (2..8).collect();
        let mut m = Gsm::new(PortId(0), cfg, Some(trace(&erased)), RngStream::new(1, "l"));
        let mut air = FakeAir::new(vec![2]);
        air.interactive = vec![2];
        m.on_ready(ms(0), PortId(0), &mut air);
        drive(&mut m, &mut air, ms(10_000));
        (overs(&air), m.stats())
    };
    // Unmarked, flow 2 is bulk by its protocol: the six retransmissions take blocks 22-27
    // (440-560 ms), the bulk packet is complete at 560 ms, and the interactive packet's
    // frames 22-26 follow in blocks 28-32: it leaves at 660 ms.
    let (o, s) = run(false, false);
    assert_eq!(o, [(560, 519, true), (660, 107, true)]);
    assert_eq!(s.retransmissions, 6);
    // Marked interactive (scheduled first): its frames take blocks 22-26 ahead of the due
    // retransmissions, and it leaves at 540 ms, ahead of the bulk packet, which waits for
    // its retransmissions in blocks 27-32 (660 ms).
    let (o, s) = run(true, false);
    assert_eq!(o, [(540, 107, true), (660, 519, true)]);
    assert_eq!((s.retransmissions, s.out_of_order), (6, 1));
    // The class asking for in-order delivery: sent first all the same, but it waits for the
    // bulk packet before it (RLP's head-of-line blocking, §2.5.3).
    let (o, _) = run(true, true);
    assert_eq!(o, [(660, 519, true), (660, 107, true)]);
}

#[test]
fn flow_adaptive_classes_by_codepoint_then_by_protocol() {
    let a = FlowAdaptive {
        marks: Arc::from(
            &[
                (engine::FlowId(0), true, 18u8),
                (engine::FlowId(1), false, 10),
                (engine::FlowId(2), true, 7),
            ][..],
        ),
        ..FlowAdaptive::default()
    };
    assert_eq!(a.class(engine::FlowId(0), true), ServiceClass::Interactive);
    // UDP flow 1 marked AF11: bulk; TCP flow 1 unmarked: bulk by protocol.
    assert_eq!(a.class(engine::FlowId(1), false), ServiceClass::Bulk);
    assert_eq!(a.class(engine::FlowId(1), true), ServiceClass::Bulk);
    // An unmapped codepoint falls back to the protocol: TCP bulk, UDP real-time.
    assert_eq!(a.class(engine::FlowId(2), true), ServiceClass::Bulk);
    assert_eq!(a.class(engine::FlowId(0), false), ServiceClass::RealTime);
    assert_eq!(a.policy(ServiceClass::Interactive).priority, 0);
    assert_eq!(a.policy(ServiceClass::Bulk).priority, 1);
}

#[test]
fn rfc2507_header_request_resynchronises_after_one_link_round_trip() {
    // Twelve packets, headers compressed after the first (483 bytes, 21 blocks each less the
    // shared ones). Block 30 (600 ms, in packet 2) is erased and so is its retransmission at
    // 1000 ms: with N2 = 1 the link resets at 1020 ms and flushes the packets in RLP's buffer.
    let run = |request: bool, reverse: Option<Arc<BlockTrace>>| {
        let cfg = GsmConfig {
            vj: true,
            twice: true,
            header_request: request,
            delay: SimDuration::from_millis(90),
            n2: Some(1),
            ..GsmConfig::default()
        };
        let mut m = Gsm::new(
            PortId(0),
            cfg,
            Some(trace(&[30, 50])),
            RngStream::new(1, "l"),
        )
        .with_reverse(reverse);
        let mut air = FakeAir::new(vec![12]);
        m.on_ready(ms(0), PortId(0), &mut air);
        drive(&mut m, &mut air, ms(30_000));
        (overs(&air), m.stats())
    };
    // Without the request: the two flushed packets (1020 ms), then every compressed packet
    // out of step (the twice algorithm cannot repair two lost deltas): nine discards.
    let (o, s) = run(false, None);
    assert_eq!(o[1..3], [(1020, 483, false), (1020, 483, false)]);
    assert!(o[3..].iter().all(|x| !x.2), "{o:?}");
    assert_eq!((s.flushed, s.vj_discards, s.header_requests), (2, 9, 0));
    // With it: the first packet after the reset fails at the far end at 1440 + 90 ms; the
    // request takes the reverse block 1540-1560 ms and reaches the compressor 90 ms later, at
    // 1650 ms. The packet already in RLP's buffer (taken in at about 1420 ms) fails too
    // (1840 ms); the next goes with a full header (519 bytes, 2260 ms) and all after it
    // arrive intact: two discards, one link round trip's worth.
    let (o, s) = run(true, None);
    assert_eq!(
        o[3..6],
        [(1440, 483, false), (1840, 483, false), (2260, 519, true)]
    );
    assert!(o[6..].iter().all(|x| x.2 && x.1 == 483), "{o:?}");
    assert_eq!(
        (s.vj_discards, s.header_requests, s.header_requests_lost),
        (2, 1, 0)
    );
    // The request's blocks erased on the reverse channel (1540 ms and its retransmission at
    // 1940 ms; N2 = 1): it is lost. The failure at 1840 ms asks again: block 1940 ms erased,
    // its retransmission at 2340 ms gets through, at the compressor at 2450 ms; the full
    // header arrives at 3080 ms: four discards.
    let (o, s) = run(true, Some(trace(&[77, 97])));
    assert_eq!(o[7], (3080, 519, true));
    assert!(
        o[3..7].iter().all(|x| !x.2) && o[8..].iter().all(|x| x.2),
        "{o:?}"
    );
    assert_eq!(
        (s.vj_discards, s.header_requests, s.header_requests_lost),
        (4, 1, 1)
    );
}

#[test]
fn a_reset_is_the_links_and_flushes_the_other_direction_too() {
    // GSM 04.22: one reset procedure for the link. The forward direction (N2 = 1, RLP round
    // trip 200 ms) resets at 660 ms (block 22 and its retransmission in block 32 erased). The
    // reverse direction sends two packets on a clean channel: the first leaves at 440 ms, the
    // second is on the air (frames 22-43, 440-880 ms) when the link resets; it follows at its
    // block boundary at 660 ms: the frame on the air and the rest of the packet are lost, the
    // packet fails its FCS at 660 ms. Per direction (`link_reset = false`) it arrives intact at
    // 880 ms.
    let run = |link_reset: bool| {
        let cfg = GsmConfig {
            n2: Some(1),
            rlp_rtt: SimDuration::from_millis(200),
            link_reset,
            ..GsmConfig::default()
        };
        let link = LinkReset::default();
        let mut fwd = Gsm::new(
            PortId(0),
            cfg.clone(),
            Some(trace(&[22, 32])),
            RngStream::new(1, "f"),
        )
        .with_link_reset(&link);
        let mut rev = Gsm::new(PortId(1), cfg, None, RngStream::new(1, "r")).with_link_reset(&link);
        let (mut fa, mut ra) = (FakeAir::new(vec![4]), FakeAir::new(vec![0, 2]));
        fwd.on_ready(ms(0), PortId(0), &mut fa);
        rev.on_ready(ms(0), PortId(1), &mut ra);
        // Both directions' wake-ups in time order, the forward one first at equal times.
        loop {
            let f = (0..fa.wakes.len()).min_by_key(|&i| (fa.wakes[i].0, i));
            let r = (0..ra.wakes.len()).min_by_key(|&i| (ra.wakes[i].0, i));
            let forward = match (f, r) {
                (None, None) => break,
                (Some(i), Some(j)) => fa.wakes[i].0 <= ra.wakes[j].0,
                (f, _) => f.is_some(),
            };
            if let (true, Some(i)) = (forward, f) {
                let (t, tag) = fa.wakes.remove(i);
                fwd.on_wake(t, tag, &mut fa);
            } else if let Some(j) = r {
                let (t, tag) = ra.wakes.remove(j);
                rev.on_wake(t, tag, &mut ra);
            }
        }
        (overs(&ra), fwd.stats(), rev.stats())
    };
    let (rev, f, r) = run(true);
    assert_eq!(f.resets, 1);
    assert_eq!(rev, [(440, 519, true), (660, 519, false)]);
    assert_eq!((r.resets, r.peer_resets, r.flushed), (0, 1, 1));
    let (rev, f, r) = run(false);
    assert_eq!(f.resets, 1);
    assert_eq!(rev, [(440, 519, true), (880, 519, true)]);
    assert_eq!((r.resets, r.peer_resets, r.flushed), (0, 0, 0));
}
