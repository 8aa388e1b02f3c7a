//! Unit tests of the A-MPDU builder and the Block Ack bookkeeping (crate::medium::dcf::ampdu),
//! and a script with explicit times of one A-MPDU with a corrupted MPDU (the DCF against the
//! FakeAir of shared.rs).

use super::super::phy::{Gi, Width};
use super::super::{Dcf, DcfConfig};
use super::*;
use crate::medium::shared::tests::FakeAir;
use crate::medium::Medium;
use engine::{PortId, SimDuration};

/// HT MCS 7, 20 MHz, long GI, one stream: 65 Mb/s, N_DBPS 260, a 36 µs preamble.
const MCS7: Mode = Mode::Ht {
    mcs: 7,
    nss: 1,
    width: Width::W20,
    gi: Gi::Long,
};

/// HT MCS 0 (6.5 Mb/s, N_DBPS 26).
const MCS0: Mode = Mode::Ht {
    mcs: 0,
    nss: 1,
    width: Width::W20,
    gi: Gi::Long,
};

fn lim(max_frames: u32, max_bytes: u64, max_time_us: u64) -> AmpduLimits {
    AmpduLimits {
        max_frames,
        max_bytes,
        max_time: SimDuration::from_micros(max_time_us),
    }
}

#[test]
fn the_count_limit_stops_an_aggregate() {
    let l = lim(4, 65_535, 5_484);
    let mut a = Aggregate::default();
    for _ in 0..4 {
        assert_eq!(a.admit(100, &MCS7, &l), Ok(()));
    }
    assert_eq!(a.admit(100, &MCS7, &l), Err(Full::Frames));
    // Subframes of 4 + 100 octets, a multiple of 4 already: no padding.
    assert_eq!((a.frames, a.psdu_bytes()), (4, 4 * 104));
}

#[test]
fn the_byte_limit_counts_delimiters_and_padding_but_not_the_last_pad() {
    let l = lim(64, 3_000, 5_484);
    let mut a = Aggregate::default();
    // 4 + 1501 = 1505 octets, padded to 1508 when another subframe follows.
    assert_eq!(a.admit(1501, &MCS7, &l), Ok(()));
    assert_eq!(a.psdu_bytes(), 1505);
    // 1508 + 1505 = 3013 > 3000.
    assert_eq!(a.admit(1501, &MCS7, &l), Err(Full::Bytes));
    assert_eq!(a.psdu_bytes(), 1505);
    let l = lim(64, 3_013, 5_484);
    assert_eq!(a.admit(1501, &MCS7, &l), Ok(()));
    assert_eq!(a.psdu_bytes(), 3013);
}

#[test]
fn the_time_limit_stops_an_aggregate_at_the_longest_ppdu() {
    // MCS 0 (26 data bits per 4 µs symbol after 36 µs of HT-mixed preamble): at most
    // ⌊(5484 - 36) / 4⌋ = 1362 symbols, ⌊(1362 · 26 - 16 - 6) / 8⌋ = 4423 octets of PSDU.
    let max_psdu = (1362 * 26 - 22) / 8;
    assert_eq!(max_psdu, 4423);
    let l = lim(64, 65_535, 5_484);
    let mut a = Aggregate::default();
    // Subframes of 4 + 1500 octets: two (3008) fit, a third (4512) does not.
    assert_eq!(a.admit(1500, &MCS0, &l), Ok(()));
    assert_eq!(a.admit(1500, &MCS0, &l), Ok(()));
    assert_eq!(a.admit(1500, &MCS0, &l), Err(Full::Time));
    assert!(MCS0.txtime(3008) <= SimDuration::from_micros(5484));
    assert!(MCS0.txtime(4512) > SimDuration::from_micros(5484));
    // 4423 octets fit exactly; one more does not.
    assert!(MCS0.txtime(max_psdu) <= SimDuration::from_micros(5484));
    assert!(MCS0.txtime(max_psdu + 1) > SimDuration::from_micros(5484));
    // The first MPDU always goes, however long.
    let mut b = Aggregate::default();
    assert_eq!(b.admit(9000, &MCS0, &l), Ok(()));
    assert_eq!(b.admit(10, &MCS0, &l), Err(Full::Time));
}

/// Send what the session chooses, the MPDUs in `bad` (by sequence number) corrupted.
fn send_session(s: &mut Session<u32>, l: &AmpduLimits, bad: &[u32]) -> Vec<u32> {
    let mut a = Aggregate::default();
    s.choose(&mut a, &MCS7, l);
    let mut sent = Vec::new();
    for m in s.on_air() {
        sent.push(m.seq);
        m.attempts += 1;
        let intact = !bad.contains(&m.seq);
        Session::set_intact(m, intact);
    }
    sent
}

/// One exchange's end for the session: the recipient takes what arrived; with a Block Ack
/// (`ba`) the originator learns it, without one it owes a BlockAckReq. Fates by item
/// (`Acked` as `u32::MAX`, `GaveUp` as `u32::MAX - 1`).
fn settle(s: &mut Session<u32>, ba: bool, limit: u32) -> Vec<(char, u32)> {
    let mut out = Vec::new();
    let mut f = |x: Fate<u32>| out.push(name(x));
    s.receive(SimTime::ZERO, &mut f);
    if ba {
        s.block_ack(limit, &mut f);
    } else {
        s.missed();
    }
    out
}

fn name(f: Fate<u32>) -> (char, u32) {
    match f {
        Fate::Released(i) => ('R', i),
        Fate::Late(i) => ('L', i),
        Fate::Acked { .. } => ('A', 0),
        Fate::Dropped(i) => ('D', i),
        Fate::GaveUp => ('G', 0),
    }
}

/// The BlockAckReq's exchange: answered (`ba`) or not.
fn bar(s: &mut Session<u32>, ba: bool, limit: u32) -> Vec<(char, u32)> {
    let mut out = Vec::new();
    let mut f = |x: Fate<u32>| out.push(name(x));
    if ba {
        s.block_ack(limit, &mut f);
    } else {
        s.bar_failed(limit, &mut f);
    }
    out
}

const A: (char, u32) = ('A', 0);

#[test]
fn a_block_ack_releases_in_order_and_holds_what_follows_a_hole() {
    let l = lim(64, 65_535, 5_484);
    let mut s = Session::default();
    for i in 0..4 {
        s.push(i, 500, SimTime::ZERO);
    }
    assert_eq!(send_session(&mut s, &l, &[1]), [0, 1, 2, 3]);
    // MPDU 0 released; 2 and 3 held behind 1 in the recipient's reorder buffer, and
    // acknowledged with 0 by the Block Ack.
    assert_eq!(settle(&mut s, true, 7), [('R', 0), A, A, A]);
    assert_eq!(s.rx.held(), 2);
    assert!(s.has_queued());
    s.push(4, 500, SimTime::ZERO);
    // The retry goes first, then the new MPDU; the held ones are not resent.
    assert_eq!(send_session(&mut s, &l, &[]), [1, 4]);
    assert_eq!(
        settle(&mut s, true, 7),
        [('R', 1), ('R', 2), ('R', 3), ('R', 4), A, A]
    );
    assert!(s.is_empty());
    assert_eq!(s.rx.held_total, 2);
}

#[test]
fn a_lost_block_ack_calls_for_a_block_ack_request_and_only_the_missing_mpdus_go_again() {
    let l = lim(64, 65_535, 5_484);
    let mut s = Session::default();
    for i in 0..4 {
        s.push(i, 500, SimTime::ZERO);
    }
    // MPDU 1 corrupted, the Block Ack lost: the recipient still releases 0 and holds 2, 3;
    // the originator knows nothing and owes a BlockAckReq (nothing is queued for a retry).
    assert_eq!(send_session(&mut s, &l, &[1]), [0, 1, 2, 3]);
    assert_eq!(settle(&mut s, false, 7), [('R', 0)]);
    assert_eq!(
        (s.bar, s.has_queued(), s.wants_access()),
        (Some(0), false, true)
    );
    // The BlockAckReq unanswered once, then answered: 0, 2, 3 acknowledged, 1 queued.
    assert_eq!(bar(&mut s, false, 7), []);
    assert_eq!(s.bar, Some(1));
    assert_eq!(bar(&mut s, true, 7), [A, A, A]);
    assert_eq!((s.bar, s.has_queued()), (None, true));
    assert_eq!(send_session(&mut s, &l, &[]), [1]);
    assert_eq!(settle(&mut s, true, 7), [('R', 1), ('R', 2), ('R', 3), A]);
    assert!(s.is_empty());
}

#[test]
fn a_block_ack_request_given_up_drops_what_the_recipient_lacks_and_moves_its_window() {
    let l = lim(64, 65_535, 5_484);
    let mut s = Session::default();
    for i in 0..3 {
        s.push(i, 500, SimTime::ZERO);
    }
    assert_eq!(send_session(&mut s, &l, &[1]), [0, 1, 2]);
    assert_eq!(settle(&mut s, false, 3), [('R', 0)]);
    assert_eq!(bar(&mut s, false, 3), []);
    assert_eq!(bar(&mut s, false, 3), []);
    // The third attempt (the limit): 0 and 2 given up (the recipient had them), 1 dropped;
    // the window moves past 1 and releases 2.
    assert_eq!(
        bar(&mut s, false, 3),
        [('G', 0), ('D', 1), ('G', 0), ('R', 2)]
    );
    assert!(s.is_empty() && !s.wants_access());
}

#[test]
fn the_last_attempt_drops_an_mpdu_and_the_window_moves_past_it() {
    let l = lim(64, 65_535, 5_484);
    let mut s = Session::default();
    for i in 0..3 {
        s.push(i, 500, SimTime::ZERO);
    }
    assert_eq!(send_session(&mut s, &l, &[0]), [0, 1, 2]);
    assert_eq!(settle(&mut s, true, 2), [A, A]);
    // Second attempt of 0, corrupted again: dropped at its limit of 2, which releases 1 and
    // 2 (the window moves past it).
    assert_eq!(send_session(&mut s, &l, &[0]), [0]);
    assert_eq!(settle(&mut s, true, 2), [('D', 0), ('R', 1), ('R', 2)]);
    assert!(s.is_empty());
}

#[test]
fn the_window_holds_sequence_numbers_within_64_of_the_oldest_unreleased() {
    let l = lim(64, 1 << 20, 1_000_000);
    let mut s = Session::default();
    for i in 0..64 {
        assert!(s.can_grow());
        s.push(i, 100, SimTime::ZERO);
    }
    assert!(!s.can_grow());
    send_session(&mut s, &l, &[0]);
    settle(&mut s, true, 7);
    // 0 is missing, 1-63 acknowledged and held: WinStart_O is still 0, no room.
    assert!(!s.can_grow());
    send_session(&mut s, &l, &[]);
    let out = settle(&mut s, true, 7);
    assert_eq!(out.iter().filter(|f| f.0 == 'R').count(), 64);
    assert!(s.can_grow());
}

/// A script's cell: an access point with six 512-octet frames for its station, aggregates of
/// at most 4 MPDUs at HT MCS 7, CWmin = CWmax = 0 (no backoff, even after a failure), and
/// `retry_limit` attempts; `setup` marks what the channel loses. Runs every wake-up in time
/// order and returns the medium and the air.
fn script(retry_limit: u32, setup: impl FnOnce(&mut FakeAir)) -> (Dcf, FakeAir) {
    let cfg = DcfConfig {
        slot: SimDuration::from_micros(9),
        sifs: SimDuration::from_micros(16),
        cw_min: 0,
        cw_max: 0,
        retry_limit,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = Dcf::new(cfg, vec![(Vec::new(), engine::RngStream::new(1, "ap"))]);
    d.set_ampdu(Some(lim(4, 65_535, 5_484)));
    d.add_link(PortId(0), PortId(1), engine::RngStream::new(1, "sta0"));
    d.set_port_mode(PortId(0), MCS7);
    d.set_port_mode(PortId(1), MCS7);
    let mut air = FakeAir::new(vec![6, 0]);
    setup(&mut air);
    d.on_ready(SimTime::ZERO, PortId(0), &mut air);
    while let Some((k, _)) = air
        .wakes
        .iter()
        .enumerate()
        .min_by_key(|(i, (t, _))| (*t, *i))
    {
        let (t, tag) = air.wakes.remove(k);
        d.on_wake(t, tag, &mut air);
    }
    (d, air)
}

/// The MPDUs, BlockAckReqs and lost acknowledgements of a script's log.
fn frames(air: &FakeAir) -> Vec<&str> {
    air.log
        .iter()
        .filter(|l| l.contains("mpdu") || l.contains("bar") || l.contains("ack lost"))
        .map(String::as_str)
        .collect()
}

fn us(t: u64) -> SimTime {
    SimTime(t * 1000)
}

/// The script of the issue: the second MPDU of four corrupted.
#[test]
fn a_corrupted_mpdu_is_resent_first_in_the_next_aggregate_and_released_in_order() {
    let (d, air) = script(7, |air| air.bad_attempts = vec![2]);
    let mpdus: Vec<&str> = air
        .log
        .iter()
        .filter(|l| l.contains("mpdu"))
        .map(String::as_str)
        .collect();
    // DIFS 34 µs. Four subframes of 516 octets: 2064 octets, ⌈(16512 + 22) / 260⌉ = 64
    // symbols, 36 + 256 = 292 µs; each MPDU 64 µs of it, the preamble with the first.
    // MPDU 5 was taken too, and waits: the count limit.
    assert_eq!(
        mpdus,
        [
            "34000 mpdu port0 #1 100000",
            "134000 mpdu port0 #2 64000",
            "198000 mpdu port0 #3 64000",
            "262000 mpdu port0 #4 64000",
            // The Block Ack (32 octets at 24 Mb/s: 32 µs) after SIFS ends at 326 + 48 = 374;
            // DIFS again: 408. MPDU 2 first, then 5 and 6: 1548 octets, 48 symbols, 228 µs.
            "408000 mpdu port0 #2 100000",
            "508000 mpdu port0 #5 64000",
            "572000 mpdu port0 #6 64000",
        ]
    );
    // MPDU 1 at the first Block Ack; 2 to 6 in order at the second (636 + 48 µs), 3 and 4
    // held in the recipient's reorder buffer until 2 arrived; each once.
    assert_eq!(
        air.delivered,
        [
            (us(374), PortId(0), 1),
            (us(684), PortId(0), 2),
            (us(684), PortId(0), 3),
            (us(684), PortId(0), 4),
            (us(684), PortId(0), 5),
            (us(684), PortId(0), 6),
        ]
    );
    let st = &d.stats()[0];
    assert_eq!(
        (st.ampdus, st.ampdu_mpdus, st.attempts, st.successes),
        (2, 7, 7, 6)
    );
    assert_eq!((st.retries, st.errors, st.block_acks_missed), (1, 1, 0));
    assert_eq!(st.airtime_ns, 292_000 + 228_000);
    assert_eq!(
        (st.reorder_held, st.reorder_timed_out, st.block_ack_requests),
        (2, 0, 0)
    );
}

/// The script with the first Block Ack lost as well: the BlockAckReq after the Block Ack
/// timeout, its Block Ack, and only the missing MPDU in the next A-MPDU.
#[test]
fn a_lost_block_ack_is_followed_by_a_block_ack_request_and_only_the_missing_mpdu_is_resent() {
    let (d, air) = script(7, |air| {
        air.bad_attempts = vec![2];
        air.lost_acks = vec![1];
    });
    assert_eq!(
        frames(&air),
        [
            "34000 mpdu port0 #1 100000",
            "134000 mpdu port0 #2 64000",
            "198000 mpdu port0 #3 64000",
            "262000 mpdu port0 #4 64000",
            "326000 ack lost port0",
            // The Block Ack timeout: 326 + SIFS 16 + Block Ack 32 + a slot 9 = 383 µs; DIFS
            // 34, no backoff (CW 0): the BlockAckReq at 417 µs (24 octets at 6 Mb/s, the lowest basic
            // rate: 56 µs).
            "417000 bar port0",
            // Its Block Ack (6 Mb/s, 68 µs) ends at 473 + 16 + 68 = 557 µs; DIFS: 591. Only MPDU 2 is resent
            // (1, 3 and 4 were in the bitmap), with 5 and 6: 228 µs as before.
            "591000 mpdu port0 #2 100000",
            "691000 mpdu port0 #5 64000",
            "755000 mpdu port0 #6 64000",
        ]
    );
    // The recipient released MPDU 1 at the end of the first exchange (the timeout, 383 µs)
    // and held 3 and 4, whatever the Block Ack; 2 to 6 at the last Block Ack, 819 + 48 µs.
    assert_eq!(
        air.delivered,
        [
            (us(383), PortId(0), 1),
            (us(867), PortId(0), 2),
            (us(867), PortId(0), 3),
            (us(867), PortId(0), 4),
            (us(867), PortId(0), 5),
            (us(867), PortId(0), 6),
        ]
    );
    let st = &d.stats()[0];
    assert_eq!(
        (st.ampdus, st.ampdu_mpdus, st.successes, st.drops),
        (2, 7, 6, 0)
    );
    assert_eq!(
        (
            st.block_acks_missed,
            st.block_ack_requests,
            st.block_ack_requests_missed
        ),
        (1, 1, 0)
    );
    assert_eq!(st.airtime_ns, 292_000 + 56_000 + 228_000);
}

/// The script with MPDU 2 corrupted on both its attempts (retry limit 2): the originator drops
/// it and the recipient's window moves past it, releasing 3 and 4 (held) with 5 and 6; a
/// BlockAckReq follows and takes its airtime.
#[test]
fn an_mpdu_dropped_at_its_retry_limit_moves_the_recipients_window() {
    let (d, air) = script(2, |air| air.bad_attempts = vec![2, 5]);
    assert_eq!(
        air.delivered,
        [
            (us(374), PortId(0), 1),
            (us(684), PortId(0), 3),
            (us(684), PortId(0), 4),
            (us(684), PortId(0), 5),
            (us(684), PortId(0), 6),
        ]
    );
    assert_eq!(air.dropped, [(us(684), PortId(0), 2)]);
    // The drop calls for a BlockAckReq to move the recipient's window (ath9k's
    // `ath_send_bar`): after DIFS (CW 0) at 718 µs, 56 µs at 6 Mb/s, its Block Ack after SIFS.
    assert_eq!(frames(&air).last(), Some(&"718000 bar port0"));
    let st = &d.stats()[0];
    assert_eq!((st.successes, st.drops, st.reorder_held), (5, 1, 4));
    assert_eq!(
        (st.block_ack_requests, st.block_ack_requests_missed),
        (1, 0)
    );
    assert_eq!(st.airtime_ns, 292_000 + 228_000 + 56_000);
}

/// The script with MPDU 2 in a fade for 101 ms (every attempt that starts before is
/// corrupted) and a retry limit it does not reach: the recipient holds 3 to 6 until 3 has
/// waited mac80211's 100 ms, releases them past the hole, and discards 2 when it arrives late.
#[test]
fn the_reorder_timeout_releases_past_a_hole_after_100_ms() {
    let (d, air) = script(10_000, |air| air.bad_ids_until = (vec![2], us(101_000)));
    // 3 and 4 were held at 374 µs: released at 100.374 ms with 5 and 6 (held since 684 µs,
    // now in order at the window's start).
    assert_eq!(
        air.delivered,
        [
            (us(374), PortId(0), 1),
            (us(100_374), PortId(0), 3),
            (us(100_374), PortId(0), 4),
            (us(100_374), PortId(0), 5),
            (us(100_374), PortId(0), 6),
        ]
    );
    // MPDU 2 gets through after the fade, behind the window: discarded by the recipient.
    assert_eq!(air.dropped.len(), 1);
    assert!(
        air.dropped[0].0 > us(101_000) && air.dropped[0].2 == 2,
        "{:?}",
        air.dropped
    );
    let st = &d.stats()[0];
    assert_eq!(
        (st.reorder_held, st.reorder_timed_out, st.reorder_late),
        (4, 2, 1)
    );
    assert_eq!((st.successes, st.drops), (6, 0));
}

/// A BlockAckReq goes at the lowest basic rate, OFDM 6 Mb/s, whatever the data's mode
/// (mac80211's `rate_control_send_low` for frames that are not data): 24 octets in
/// ⌈(16 + 192 + 6) / 24⌉ = 9 symbols, 56 µs; its Block Ack answers at 6 Mb/s, 12 symbols, 68 µs.
/// The Block Ack after an MCS 7 A-MPDU comes at 24 Mb/s (32 µs).
#[test]
fn a_block_ack_request_goes_at_the_lowest_basic_rate() {
    use super::super::aggregating::bar_mode;
    let ht7 = Mode::Ht {
        mcs: 7,
        nss: 2,
        width: Width::W40,
        gi: Gi::Long,
    };
    let bar = bar_mode(ht7);
    assert_eq!(bar, Mode::ofdm(6, false).unwrap());
    assert_eq!(
        bar.txtime(BLOCK_ACK_REQ_BYTES),
        SimDuration::from_micros(56)
    );
    assert_eq!(
        bar.response(0).txtime(BLOCK_ACK_BYTES),
        SimDuration::from_micros(68)
    );
    assert_eq!(
        ht7.response(0).txtime(BLOCK_ACK_BYTES),
        SimDuration::from_micros(32)
    );
}
