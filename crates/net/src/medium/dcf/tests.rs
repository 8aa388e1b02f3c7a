//! Unit tests of the 802.11 DCF (explicit times against the FakeAir of shared.rs).

use super::super::shared::tests::FakeAir;
use super::*;

/// Run the medium: deliver its wake-ups in time order (ties in the order asked) until none
/// is left or `limit` is passed.
fn drive(m: &mut Dcf, air: &mut FakeAir, limit: SimTime) {
    loop {
        let Some((k, _)) = air
            .wakes
            .iter()
            .enumerate()
            .min_by_key(|(i, (t, _))| (*t, *i))
        else {
            return;
        };
        let (t, tag) = air.wakes.remove(k);
        if t > limit {
            return;
        }
        m.on_wake(t, tag, air);
    }
}

/// Report every port that has frames at time zero, one call each, as the network does.
fn ready(d: &mut Dcf, air: &mut FakeAir) {
    let ports: Vec<PortId> = (0..air.waiting.len())
        .filter(|&p| air.waiting[p] > 0)
        .map(|p| PortId(p as u32))
        .collect();
    for p in ports {
        d.on_ready(SimTime::ZERO, p, air);
    }
}

/// A cell of an access point and `stations` stations (ports 2s and 2s + 1), seeds fixed.
pub(super) fn cell(cfg: DcfConfig, stations: u32) -> Dcf {
    let mut d = Dcf::new(cfg, vec![(Vec::new(), RngStream::new(1, "ap"))]);
    for s in 0..stations {
        d.add_link(
            PortId(2 * s),
            PortId(2 * s + 1),
            RngStream::new(1, &format!("sta{s}")),
        );
    }
    d
}

fn us(t: u64) -> String {
    (t * 1000).to_string()
}

#[test]
fn one_frame_waits_difs_and_its_backoff_then_is_acknowledged() {
    let cfg = DcfConfig::B_LONG_1M;
    let mut d = cell(cfg, 1);
    let mut air = FakeAir::new(vec![1, 0]);
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    // The access point's draw from its own stream.
    let b = RngStream::new(1, "ap").below(32);
    let t = 50 + 20 * b;
    let tries: Vec<&String> = air.log.iter().filter(|l| !l.starts_with("wake")).collect();
    assert_eq!(
        tries,
        [
            &format!("{} try port0", us(t)),
            // 1000 µs on the air, SIFS 10 µs, the ACK 304 µs.
            &format!("{} deliver port0", us(t + 1000 + 10 + 304)),
        ]
    );
    let s = &d.stats()[0];
    assert_eq!((s.attempts, s.successes, s.collisions), (1, 1, 0));
}

#[test]
fn equal_counters_collide_and_both_retry_with_a_doubled_window() {
    // CWmin 0: both draw 0 and end their DIFS in the same slot.
    let cfg = DcfConfig {
        cw_min: 0,
        cw_max: 1023,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = cell(cfg, 1);
    // The access point towards the station, and the station towards the access point.
    let mut air = FakeAir::new(vec![1, 1]);
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    let tries: Vec<&String> = air.log.iter().filter(|l| l.contains("try")).collect();
    assert_eq!(tries[0], &format!("{} try port0", us(50)));
    assert_eq!(tries[1], &format!("{} try port1", us(50)));
    let st = d.stats();
    // Every collision involves both; with CW 1 after the first they may meet again.
    assert_eq!(st[0].collisions, st[1].collisions);
    assert!(st[0].collisions >= 1);
    // Both delivered in the end, each after at least one retry.
    assert_eq!(air.log.iter().filter(|l| l.contains("deliver")).count(), 2);
    assert!(st[0].retries + st[1].retries >= 2);
}

#[test]
fn with_collisions_off_equal_counters_take_turns() {
    // The ablation (dcf.collisions = false): CWmin 0 as above, but the access point sends at
    // 50 us and the station, whose count also ended, waits: after the exchange (1000 us on the
    // air, SIFS, the 304 us ACK) and DIFS, it goes with nothing left to count.
    let cfg = DcfConfig {
        cw_min: 0,
        cw_max: 1023,
        collisions: false,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = cell(cfg, 1);
    let mut air = FakeAir::new(vec![1, 1]);
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    let tries: Vec<&String> = air.log.iter().filter(|l| l.contains("try")).collect();
    assert_eq!(
        tries,
        [
            &format!("{} try port0", us(50)),
            &format!("{} try port1", us(50 + 1314 + 50)),
        ]
    );
    let st = d.stats();
    assert_eq!((st[0].collisions, st[1].collisions), (0, 0));
    assert_eq!((st[0].retries, st[1].retries), (0, 0));
}

#[test]
fn a_backoff_freezes_while_the_medium_is_busy_and_resumes_after_difs() {
    // The access point (port 0) and the station (port 1) each have a frame at 0 and draw
    // their backoffs from their own streams. The shorter one goes first; the other's
    // counter stops with the remaining slots while that exchange is on the air (1000 µs,
    // SIFS, ACK 304 µs) and runs again DIFS after it: it goes exactly the difference in
    // slots later than DIFS after the first exchange's end.
    let cfg = DcfConfig::B_LONG_1M;
    let mut d = cell(cfg, 1);
    let mut air = FakeAir::new(vec![1, 1]);
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    let ba = RngStream::new(1, "ap").below(32);
    let bs = RngStream::new(1, "sta0").below(32);
    assert_ne!(ba, bs, "the two streams' first draws differ");
    let (first, second) = if ba < bs {
        ("port0", "port1")
    } else {
        ("port1", "port0")
    };
    let t1 = 50 + 20 * ba.min(bs);
    let end1 = t1 + 1000 + 10 + 304;
    let t2 = end1 + 50 + 20 * ba.abs_diff(bs);
    let tries: Vec<&String> = air.log.iter().filter(|l| l.contains("try")).collect();
    assert_eq!(
        tries,
        [
            &format!("{} try {first}", us(t1)),
            &format!("{} try {second}", us(t2)),
        ]
    );
}

#[test]
fn the_access_points_frame_for_a_bad_station_blocks_the_others_behind_it() {
    // Head-of-line blocking (spec T004-17): the access point holds one frame at a time. Its
    // frame for station 0 (port 0, in a bad channel: every attempt corrupted) is tried
    // retry_limit = 4 times and dropped before its frame for station 1 (port 2) goes at
    // all, although that channel is clean.
    let cfg = DcfConfig {
        retry_limit: 4,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = cell(cfg, 2);
    let mut air = FakeAir::new(vec![1, 0, 1, 0]);
    air.bad_ports = vec![PortId(0)];
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    let events: Vec<&str> = air
        .log
        .iter()
        .filter(|l| !l.starts_with("wake") && !l.contains("resend1"))
        .map(|l| l.split_once(' ').map_or("", |x| x.1))
        .collect();
    assert_eq!(
        events,
        [
            "try port0",
            "try port0",
            "try port0",
            "try port0",
            "drop port0",
            "try port2",
            "deliver port2"
        ]
    );
    assert_eq!(d.stats()[0].drops, 1);
    assert_eq!(d.stats()[0].successes, 1);
}

#[test]
fn a_frame_is_dropped_after_the_retry_limit_and_the_window_resets() {
    let cfg = DcfConfig {
        retry_limit: 3,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = cell(cfg, 1);
    let mut air = FakeAir::new(vec![1, 0]);
    air.corrupt = true;
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    assert_eq!(air.log.iter().filter(|l| l.contains("try")).count(), 3);
    assert_eq!(
        air.log.iter().filter(|l| l.contains("drop port0")).count(),
        1
    );
    let s = &d.stats()[0];
    assert_eq!((s.attempts, s.errors, s.retries, s.drops), (3, 3, 2, 1));
    assert_eq!(d.members[0].cw, cfg.cw_min);
    // The cross-layer hooks (crate::agent::Agent::on_first_retry, on_mac_drop): the first
    // retry is announced once, just before the second attempt, and the drop after the last.
    let events: Vec<&str> = air
        .log
        .iter()
        .filter_map(|l| l.split(' ').nth(1))
        .filter(|k| matches!(*k, "try" | "resend1" | "drop"))
        .collect();
    assert_eq!(events, ["try", "resend1", "try", "try", "drop"]);
}

#[test]
fn with_header_protection_a_corrupted_attempt_hands_its_header_up_at_its_end() {
    // LHP (eln-llelsn spec §4.11): each corrupted attempt's header reaches the far end when the
    // attempt ends (FakeAir: 1 ms of airtime); without the knob nothing is handed up.
    let run = |protect: bool| {
        let cfg = DcfConfig {
            retry_limit: 2,
            header_protection: protect,
            ..DcfConfig::B_LONG_1M
        };
        let mut d = cell(cfg, 1);
        let mut air = FakeAir::new(vec![1, 0]);
        air.bad_ports = vec![PortId(0)];
        ready(&mut d, &mut air);
        drive(&mut d, &mut air, SimTime(1_000_000_000));
        air.log
            .iter()
            .filter(|l| l.contains(" try ") || l.contains(" header "))
            .map(|l| {
                let (t, what) = l.split_once(' ').unwrap();
                (t.parse::<u64>().unwrap(), what.to_string())
            })
            .collect::<Vec<_>>()
    };
    let on = run(true);
    assert_eq!(on.len(), 4, "{on:?}");
    for pair in on.chunks(2) {
        assert_eq!(pair[0].1, "try port0");
        assert_eq!(pair[1], (pair[0].0 + 1_000_000, "header port0".to_string()));
    }
    let off = run(false);
    assert_eq!(off.len(), 2, "{off:?}");
    assert!(off.iter().all(|(_, w)| w == "try port0"));
}

#[test]
fn a_collision_hands_no_header_up() {
    // CWmin 0: both draw 0 and collide at 50 us; nothing of either frame is decodable. Every
    // attempt is corrupted by the channel as well, so each attempt that did not collide (the
    // retries, once the windows differ) hands its header up and no collided one does.
    let cfg = DcfConfig {
        cw_min: 0,
        retry_limit: 3,
        header_protection: true,
        ..DcfConfig::B_LONG_1M
    };
    let mut d = cell(cfg, 1);
    let mut air = FakeAir::new(vec![1, 1]);
    air.corrupt = true;
    ready(&mut d, &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    let first: Vec<&String> = air.log.iter().take_while(|l| !l.contains("wake")).collect();
    assert!(air.log.contains(&format!("{} try port0", us(50))));
    assert!(air.log.contains(&format!("{} try port1", us(50))));
    assert!(
        !air.log.contains(&format!("{} header port0", us(1050))),
        "{first:?}"
    );
    assert!(!air.log.contains(&format!("{} header port1", us(1050))));
    let st = d.stats();
    let attempts: u64 = st.iter().map(|s| s.attempts).sum();
    let collided: u64 = st.iter().map(|s| s.collisions).sum();
    let headers = air.log.iter().filter(|l| l.contains(" header ")).count() as u64;
    assert!(collided >= 2);
    assert_eq!(headers, attempts - collided);
}

#[test]
fn a_non_blocking_retry_delay_lets_the_frames_behind_go_first() {
    // The LL-ELSN study's Fig. 13: the first attempt of frame 1 is lost;
    // with a 100 ms retry delay that does not block, frames 2 and 3 are delivered while frame
    // 1 waits, and frame 1 is retried once the delay is over. Blocking: 2 and 3 wait behind it.
    let run = |blocks: bool| {
        let cfg = DcfConfig {
            retry_delay: SimDuration::from_millis(100),
            retry_delay_blocks: blocks,
            ..DcfConfig::B_LONG_1M
        };
        let mut d = cell(cfg, 1);
        let mut air = FakeAir::new(vec![3, 0]);
        air.bad_attempts = vec![1];
        ready(&mut d, &mut air);
        drive(&mut d, &mut air, SimTime(1_000_000_000));
        let events: Vec<(u64, String)> = air
            .log
            .iter()
            .filter_map(|l| {
                let mut w = l.split(' ');
                let t = w.next()?.parse().ok()?;
                let k = w.next()?;
                matches!(k, "try" | "resend1" | "deliver").then(|| (t, k.to_string()))
            })
            .collect();
        (events, d.stats()[0].clone())
    };
    let (aside, s) = run(false);
    let kinds: Vec<&str> = aside.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(
        kinds,
        ["try", "try", "deliver", "try", "deliver", "resend1", "try", "deliver"]
    );
    let first = aside[0].0;
    // The lost attempt ends at first + 1000 us, its ACK timeout after; then 100 ms.
    let resend = aside[5].0;
    assert!(resend >= first + 100_000_000, "{aside:?}");
    // Frames 2 and 3 were delivered long before: within a few ms of the loss.
    assert!(aside[4].0 < first + 10_000_000, "{aside:?}");
    assert_eq!((s.attempts, s.successes, s.retries), (4, 3, 1));

    let (blocked, _) = run(true);
    let kinds: Vec<&str> = blocked.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(
        kinds,
        ["try", "resend1", "try", "deliver", "try", "deliver", "try", "deliver"]
    );
    // Blocking: frame 2 waits for frame 1's delay.
    assert!(blocked[4].0 >= blocked[0].0 + 100_000_000, "{blocked:?}");
}
