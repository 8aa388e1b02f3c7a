#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Packet captures of whole runs: one pcap file per port whose frames match the port counters
//! (frames, payload bytes, corrupted frames) and the sender's counters, byte-identical for the
//! same scenario and seed; and the base-station trace against the agent counters.

use crate::common;
use common::scenario;
use engine::PortId;
use lossylink::{run, Column, RunOptions};
use std::collections::BTreeMap;

fn pcap_opts() -> RunOptions {
    RunOptions {
        pcap: true,
        ..RunOptions::default()
    }
}

/// Parse a classic pcap file: (timestamp µs, frame bytes) per record.
fn records(b: &[u8]) -> Vec<(u64, &[u8])> {
    assert_eq!(&b[0..4], &[0xd4, 0xc3, 0xb2, 0xa1]);
    assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()), 1);
    let mut out = Vec::new();
    let mut i = 24;
    while i < b.len() {
        let h = |k: usize| u32::from_le_bytes(b[i + k..i + k + 4].try_into().unwrap());
        let (sec, us, incl, orig) = (h(0), h(4), h(8) as usize, h(12) as usize);
        assert_eq!(incl, orig, "whole frames are captured");
        out.push((
            u64::from(sec) * 1_000_000 + u64::from(us),
            &b[i + 16..i + 16 + incl],
        ));
        i += 16 + incl;
    }
    assert_eq!(i, b.len());
    out
}

#[test]
fn each_port_file_holds_exactly_the_frames_its_counters_count() {
    let s = scenario(
        "lan",
        &[
            ("scheme", "ll-tcp-aware"),
            ("transfer", "512KiB"),
            ("error_every", "32KiB"),
        ],
    );
    let r = run(&s, 3, &pcap_opts()).unwrap();
    let cap = r.capture.as_ref().expect("capture");
    assert!(r.trace.is_none());
    let m = &r.metrics;
    assert!(m.local_retransmissions > 0, "{m:?}");
    let names: Vec<_> = cap.ports.iter().map(|p| p.file_name.as_str()).collect();
    assert_eq!(
        names,
        [
            "hop0-ethernet-forward.pcap",
            "hop0-ethernet-reverse.pcap",
            "hop1-wavelan-forward.pcap",
            "hop1-wavelan-reverse.pcap",
        ]
    );
    // The port counters are not public through the facade; rebuild them from the metrics.
    let mut data = BTreeMap::new();
    let mut corrupted = 0u64;
    let mut acks = 0u64;
    for (i, _) in cap.ports.iter().enumerate() {
        let bytes = cap.pcap_bytes(PortId(i as u32)).unwrap();
        let recs = records(&bytes);
        assert_eq!(recs.len(), cap.frame_count(PortId(i as u32)));
        let mut last = 0;
        let (mut d, mut highest, mut rexmit) = (0u64, None::<u32>, 0u64);
        for (t, f) in &recs {
            assert!(*t >= last, "timestamps in order");
            last = *t;
            let ip_len = u16::from_be_bytes([f[16], f[17]]) as usize;
            assert_eq!(ip_len + 14, f.len());
            let off = ((f[46] >> 4) as usize) * 4;
            let payload = ip_len - 20 - off;
            if payload > 0 {
                d += 1;
                let seq = u32::from_be_bytes(f[38..42].try_into().unwrap());
                let end = seq.wrapping_add(payload as u32);
                match highest {
                    Some(h) if (seq.wrapping_sub(h) as i32) < 0 => rexmit += 1,
                    _ => {}
                }
                if highest.is_none_or(|h| (end.wrapping_sub(h) as i32) > 0) {
                    highest = Some(end);
                }
            } else {
                acks += 1;
            }
            // A corrupted frame's TCP checksum does not verify.
            let tcp = &f[34..];
            let mut sum: u32 = 0;
            let mut add = |b: &[u8]| {
                for c in b.chunks(2) {
                    sum += u32::from(u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]));
                }
            };
            add(&f[26..34]);
            add(&[0, 6]);
            add(&((ip_len - 20) as u16).to_be_bytes());
            add(tcp);
            while sum > 0xffff {
                sum = (sum & 0xffff) + (sum >> 16);
            }
            corrupted += u64::from(sum != 0xffff);
        }
        data.insert(names[i], (d, rexmit));
    }
    assert_eq!(corrupted, m.corrupted_data_frames + m.corrupted_ack_frames);
    // Every ACK crosses the wireless hop; those not corrupted there nor absorbed by the base
    // station cross the wired hop too.
    assert_eq!(
        acks,
        2 * m.receiver_acks - m.corrupted_ack_frames - m.bs_dupacks_suppressed
    );
    let (d0, rx0) = data["hop0-ethernet-forward.pcap"];
    assert_eq!(d0, m.sender_segments);
    assert_eq!(rx0, m.sender_retransmitted_segments);
    let (d1, rx1) = data["hop1-wavelan-forward.pcap"];
    assert_eq!(d1, m.wireless_data_frames);
    assert_eq!(m.queue_drops, 0);
    // On the wireless hop, a repeat is a local retransmission or a sender retransmission.
    assert_eq!(
        rx1,
        m.local_retransmissions + m.sender_retransmitted_segments
    );
}

#[test]
fn captures_are_deterministic_and_off_by_default() {
    let s = scenario(
        "lan",
        &[("scheme", "e2e-ietf-sack+eifel"), ("transfer", "256KiB")],
    );
    let a = run(&s, 9, &pcap_opts()).unwrap();
    let b = run(&s, 9, &pcap_opts()).unwrap();
    let (ca, cb) = (a.capture.unwrap(), b.capture.unwrap());
    for i in 0..ca.ports.len() {
        let p = PortId(i as u32);
        assert_eq!(ca.pcap_bytes(p).unwrap(), cb.pcap_bytes(p).unwrap());
    }
    let dir = std::env::temp_dir().join(format!("lossylink-pcap-test-{}", std::process::id()));
    let paths = ca.write_dir(&dir).unwrap();
    assert_eq!(paths.len(), 4);
    for (i, p) in paths.iter().enumerate() {
        assert_eq!(
            std::fs::read(p).unwrap(),
            ca.pcap_bytes(PortId(i as u32)).unwrap()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(run(&s, 9, &RunOptions::default())
        .unwrap()
        .capture
        .is_none());
    // Capturing does not change the run.
    let mut plain = run(&s, 9, &RunOptions::default()).unwrap().metrics;
    let mut captured = a.metrics;
    plain.wall_s = 0.0;
    captured.wall_s = 0.0;
    assert_eq!(plain, captured);
}

#[test]
fn the_base_station_table_lists_each_local_retransmission() {
    let s = scenario(
        "lan",
        &[
            ("scheme", "ll-tcp-aware"),
            ("transfer", "512KiB"),
            ("error_every", "32KiB"),
        ],
    );
    let r = run(&s, 3, &RunOptions::traced()).unwrap();
    let m = &r.metrics;
    let trace = r.trace.unwrap();
    let bs = trace
        .tables
        .iter()
        .find(|t| t.name == "base_station")
        .unwrap();
    let col = |n: &str| &bs.columns.iter().find(|(c, _)| c == n).unwrap().1;
    let Column::Str(kind) = col("kind") else {
        panic!()
    };
    let Column::Str(trigger) = col("trigger") else {
        panic!()
    };
    let Column::I64(seq) = col("seq") else {
        panic!()
    };
    let local = kind.iter().filter(|k| *k == "local-retransmit").count() as u64;
    assert_eq!(local, m.local_retransmissions);
    let suppressed = kind.iter().filter(|k| *k == "dupack-suppressed").count() as u64;
    assert_eq!(suppressed, m.bs_dupacks_suppressed);
    let by = |t: &str| {
        kind.iter()
            .zip(trigger)
            .filter(|(k, tr)| *k == "local-retransmit" && *tr == t)
            .count() as u64
    };
    assert_eq!(by("timer"), m.bs_timer_retransmissions);
    assert_eq!(
        by("dupack") + by("partial-ack") + by("other"),
        m.bs_dupack_retransmissions + m.bs_partial_ack_retransmissions
    );
    assert!(seq.iter().all(|&s| (0..512 * 1024).contains(&s)));
    // Without an agent there is no such table.
    let e2e = run(
        &scenario("lan", &[("transfer", "64KiB")]),
        1,
        &RunOptions::traced(),
    )
    .unwrap();
    let names: Vec<_> = e2e
        .trace
        .unwrap()
        .tables
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["sender", "events", "rtt", "receiver"]);
}
