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

fn settle(s: &mut Session<u32>, ba: bool, limit: u32) -> Vec<(Fate, u32)> {
    let mut out = Vec::new();
    s.settle(ba, limit, |f, m| out.push((f, m.item)));
    out
}

#[test]
fn a_block_ack_releases_in_order_and_holds_what_follows_a_hole() {
    let l = lim(64, 65_535, 5_484);
    let mut s = Session::default();
    for i in 0..4 {
        s.push(i, 500, SimTime::ZERO);
    }
    assert_eq!(send_session(&mut s, &l, &[1]), [0, 1, 2, 3]);
    // MPDU 0 released; 2 and 3 acknowledged but held behind 1 (the reorder buffer).
    assert_eq!(settle(&mut s, true, 7), [(Fate::Delivered, 0)]);
    assert!(s.has_queued());
    s.push(4, 500, SimTime::ZERO);
    // The retry goes first, then the new MPDU; the held ones are not resent.
    assert_eq!(send_session(&mut s, &l, &[]), [1, 4]);
    assert_eq!(
        settle(&mut s, true, 7),
        [1, 2, 3, 4].map(|i| (Fate::Delivered, i))
    );
    assert!(s.is_empty());
}

#[test]
fn without_a_block_ack_every_mpdu_is_retried_and_the_last_attempt_drops_it() {
    let l = lim(64, 65_535, 5_484);
    let mut s = Session::default();
    for i in 0..3 {
        s.push(i, 500, SimTime::ZERO);
    }
    // Block Ack lost: nothing released, all three go again.
    assert_eq!(send_session(&mut s, &l, &[]), [0, 1, 2]);
    assert_eq!(settle(&mut s, false, 2), []);
    // Second attempt: 0 corrupted, the others acknowledged; 0 has had its 2 attempts and is
    // dropped, which releases 1 and 2 (the window moves past it).
    assert_eq!(send_session(&mut s, &l, &[0]), [0, 1, 2]);
    assert_eq!(
        settle(&mut s, true, 2),
        [
            (Fate::Dropped, 0),
            (Fate::Delivered, 1),
            (Fate::Delivered, 2)
        ]
    );
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
    // 0 is missing, 1-63 held: still no room.
    assert!(!s.can_grow());
    send_session(&mut s, &l, &[]);
    assert_eq!(settle(&mut s, true, 7).len(), 64);
    assert!(s.can_grow());
}

/// The script: an access point with six 512-octet frames for its station, aggregates of at
/// most 4 MPDUs at HT MCS 7, CWmin 0 (no backoff), the second MPDU corrupted.
#[test]
fn a_corrupted_mpdu_is_resent_first_in_the_next_aggregate_and_released_in_order() {
    let cfg = DcfConfig {
        slot: SimDuration::from_micros(9),
        sifs: SimDuration::from_micros(16),
        cw_min: 0,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = Dcf::new(cfg, vec![(Vec::new(), engine::RngStream::new(1, "ap"))]);
    d.set_ampdu(Some(lim(4, 65_535, 5_484)));
    d.add_link(PortId(0), PortId(1), engine::RngStream::new(1, "sta0"));
    d.set_port_mode(PortId(0), MCS7);
    d.set_port_mode(PortId(1), MCS7);
    let mut air = FakeAir::new(vec![6, 0]);
    air.bad_attempts = vec![2];
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
    // held until 2 arrived; each once.
    let us = |t: u64| SimTime(t * 1000);
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
}
