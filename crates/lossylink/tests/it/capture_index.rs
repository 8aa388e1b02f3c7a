//! The index of a capture directory (`index.json`, `index.csv`; crate::capture::index): exactly
//! the pcap files written, each with the frame count and first and last timestamps of the file
//! itself, the 802.11 files' retries and MAC ACKs as their records show them, and the nodes'
//! addresses and the flows' ports as the frames carry them.

use crate::common::scenario;
use lossylink::{run, RunOptions, RunResult, Scenario, CSV_COLUMNS, INDEX_CSV, INDEX_JSON};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn pcap_opts() -> RunOptions {
    RunOptions {
        pcap: true,
        ..RunOptions::default()
    }
}

/// A fresh directory under the temporary directory.
fn fresh(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("lossylink-index-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// One record of a classic pcap file: (timestamp µs, frame bytes).
struct File {
    link_type: u32,
    records: Vec<(u64, Vec<u8>)>,
}

fn read_pcap(path: &Path) -> File {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[0..4], &[0xd4, 0xc3, 0xb2, 0xa1]);
    let word = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    let link_type = word(20);
    let mut records = Vec::new();
    let mut i = 24;
    while i < b.len() {
        let (sec, us, incl) = (word(i), word(i + 4), word(i + 8) as usize);
        records.push((
            u64::from(sec) * 1_000_000 + u64::from(us),
            b[i + 16..i + 16 + incl].to_vec(),
        ));
        i += 16 + incl;
    }
    File { link_type, records }
}

/// Write the capture of `r` into `dir`; returns the pcap paths and the parsed index.json.
fn write(r: &RunResult, dir: &Path) -> (Vec<PathBuf>, Value) {
    let paths = r.capture.as_ref().unwrap().write_dir(dir).unwrap();
    let json = std::fs::read_to_string(dir.join(INDEX_JSON)).unwrap();
    (paths, serde_json::from_str(&json).unwrap())
}

/// Every `*.pcap` in `dir`, sorted.
fn pcaps_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".pcap"))
        .collect();
    v.sort();
    v
}

/// Check each entry of `index` against its file: count, first and last timestamp, link type;
/// and that the entries are exactly the files in `dir` and the paths returned.
fn check_files(dir: &Path, paths: &[PathBuf], index: &Value) {
    let files = index["files"].as_array().unwrap();
    let mut listed: Vec<String> = files
        .iter()
        .map(|f| f["file"].as_str().unwrap().to_string())
        .collect();
    let returned: Vec<String> = paths
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, returned, "in the order written");
    listed.sort();
    assert_eq!(listed, pcaps_in(dir));
    for f in files {
        let file = read_pcap(&dir.join(f["file"].as_str().unwrap()));
        assert_eq!(
            f["frames"].as_u64().unwrap(),
            file.records.len() as u64,
            "{f}"
        );
        assert_eq!(f["linktype"].as_u64().unwrap(), u64::from(file.link_type));
        let ts: Vec<u64> = file.records.iter().map(|r| r.0).collect();
        let us = |v: &Value| v.as_f64().map(|s| (s * 1e6).round() as u64);
        assert_eq!(us(&f["first_s"]), ts.iter().min().copied(), "{f}");
        assert_eq!(us(&f["last_s"]), ts.iter().max().copied(), "{f}");
    }
    // index.csv: the same rows, the documented columns.
    let csv = std::fs::read_to_string(dir.join(INDEX_CSV)).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), CSV_COLUMNS.join(","));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), files.len());
    for (row, f) in rows.iter().zip(files) {
        let cells: Vec<&str> = row.splitn(CSV_COLUMNS.len(), ',').collect();
        assert_eq!(cells[0], f["file"].as_str().unwrap());
        assert_eq!(cells[8], f["frames"].to_string());
        if let Some(s) = f["first_s"].as_f64() {
            assert_eq!(cells[13].parse::<f64>().unwrap(), s);
        }
    }
}

#[test]
fn the_index_lists_each_file_with_its_own_counts_and_names_the_addresses() {
    let s = scenario(
        "lan",
        &[
            ("scheme", "ll-tcp-aware"),
            ("transfer", "256KiB"),
            ("error_every", "32KiB"),
        ],
    );
    let r = run(&s, 3, &pcap_opts()).unwrap();
    let dir = fresh("lan");
    let (paths, index) = write(&r, &dir);
    check_files(&dir, &paths, &index);
    let files = index["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    let f = &files[2];
    assert_eq!(f["file"], "hop1-wavelan-forward.pcap");
    assert_eq!(
        (f["hop"].as_u64(), f["hop_name"].as_str()),
        (Some(1), Some("wavelan"))
    );
    assert_eq!(
        (f["from"].as_str(), f["to"].as_str()),
        (Some("bs"), Some("mobile"))
    );
    assert_eq!(
        (f["link_type"].as_str(), f["view"].as_str()),
        (Some("ethernet"), Some("link"))
    );
    // Corrupted frames: the bad checksums of all files are the run's corruption counters.
    let corrupted: u64 = files.iter().map(|f| f["corrupted"].as_u64().unwrap()).sum();
    let m = &r.metrics;
    assert!(m.corrupted_data_frames > 0);
    assert_eq!(corrupted, m.corrupted_data_frames + m.corrupted_ack_frames);
    // Nodes: the addresses the frames carry.
    let nodes = index["nodes"].as_array().unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["source", "bs", "mobile"]);
    assert_eq!(nodes[2]["ip"], "10.0.0.3");
    assert_eq!(nodes[2]["mac"], "02:00:00:00:00:03");
    let first = read_pcap(&dir.join("hop1-wavelan-forward.pcap"));
    let frame = &first.records[0].1;
    assert_eq!(
        &frame[30..34],
        &[10, 0, 0, 3],
        "the destination IP is the mobile's"
    );
    assert_eq!(
        nodes[1]["files"],
        serde_json::json!([
            "hop0-ethernet-forward.pcap",
            "hop0-ethernet-reverse.pcap",
            "hop1-wavelan-forward.pcap",
            "hop1-wavelan-reverse.pcap"
        ])
    );
    let flows = index["flows"].as_array().unwrap();
    assert_eq!(flows.len(), 1);
    assert_eq!(flows[0]["sender"], "source");
    assert_eq!(flows[0]["sender_port"], 49152);
    assert_eq!(u16::from_be_bytes([frame[34], frame[35]]), 49152);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_802_11_file_lists_its_retries_and_mac_acks_and_its_ip_view() {
    let mut s =
        Scenario::from_toml_str(include_str!("../../../../docs/examples/wifi-cell.toml")).unwrap();
    for (k, v) in [
        ("flows.0.copies", "2"),
        ("run.warmup", "0s"),
        ("run.duration", "2s"),
        ("scheme", "e2e-newreno"),
    ] {
        s.set(k, v).unwrap();
    }
    s.set("cells.0.error", "{ model = \"bernoulli\", p = 0.1 }")
        .unwrap();
    let r = run(&s, 3, &pcap_opts()).unwrap();
    let dir = fresh("wifi");
    let (paths, index) = write(&r, &dir);
    check_files(&dir, &paths, &index);
    let files = index["files"].as_array().unwrap();
    let by_name = |n: &str| files.iter().find(|f| f["file"] == n).unwrap();
    let wlan = by_name("hop2-cell_sta1-forward.pcap");
    assert_eq!(wlan["link_type"], "ieee802_11_radiotap");
    assert_eq!(wlan["view"], "802.11");
    // Count the Retry bits and the ACK frames in the file itself (radiotap header 9 bytes).
    let file = read_pcap(&dir.join("hop2-cell_sta1-forward.pcap"));
    let acks = file.records.iter().filter(|r| r.1[9] == 0xd4).count() as u64;
    let retries = file
        .records
        .iter()
        .filter(|r| r.1[9] == 0x08 && r.1[10] & 0x08 != 0)
        .count() as u64;
    assert!(retries > 3 && acks > 30, "{retries} {acks}");
    assert_eq!(wlan["retries"].as_u64(), Some(retries));
    assert_eq!(wlan["mac_acks"].as_u64(), Some(acks));
    assert_eq!(
        wlan["data_frames"].as_u64().unwrap() + acks,
        wlan["frames"].as_u64().unwrap()
    );
    let ip = by_name("hop2-cell_sta1-forward-ip.pcap");
    assert_eq!(
        (ip["view"].as_str(), ip["link_type"].as_str()),
        (Some("ip"), Some("ethernet"))
    );
    assert_eq!(ip["retries"], 0);
    assert!(ip["frames"].as_u64() < wlan["data_frames"].as_u64());
    // A station's Ethernet-framed files are its IP views; its 802.11 files are listed apart.
    let sta1 = index["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "sta1")
        .unwrap();
    assert_eq!(
        sta1["files"],
        serde_json::json!([
            "hop2-cell_sta1-forward-ip.pcap",
            "hop2-cell_sta1-reverse-ip.pcap"
        ])
    );
    assert_eq!(
        sta1["wlan_files"],
        serde_json::json!(["hop2-cell_sta1-forward.pcap", "hop2-cell_sta1-reverse.pcap"])
    );
    let flows = index["flows"].as_array().unwrap();
    let ports: Vec<(&str, u64)> = flows
        .iter()
        .map(|f| {
            (
                f["flow"].as_str().unwrap(),
                f["sender_port"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(ports, [("dl1", 49152), ("dl2", 49153)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An 802.11n cell that aggregates, over a lossy channel: its capture carries each data
/// frame's rate in radiotap's MCS field and its A-MPDU in the A-MPDU status field, resent
/// MPDUs with the Retry bit and the sequence number they first had, a Block Ack after each
/// aggregate that got one, and an IP view with each delivered packet once. Read back from the
/// file's bytes (the radiotap header's present bits and fields), and by tshark where it is
/// installed.
#[test]
fn an_802_11n_capture_carries_the_mcs_and_the_a_mpdu_of_its_frames() {
    let mut s =
        Scenario::from_toml_str(include_str!("../../../../docs/examples/wifi-cell.toml")).unwrap();
    for (k, v) in [
        ("run.warmup", "0s"),
        ("run.duration", "1s"),
        (
            "cells.0",
            "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\", \"sta5\", \"sta6\", \"sta7\", \"sta8\", \"sta9\", \"sta10\"], rate = \"300Mbps\", delay = \"1us\", queue = 50, framing = 36, error = { model = \"bernoulli\", p = 0.1 }, dcf = { phy = \"11n\", width = \"40MHz\", streams = 2, guard_interval = \"short\", aggregation = \"ampdu\" } }",
        ),
    ] {
        s.set(k, v).unwrap();
    }
    let r = run(&s, 1, &pcap_opts()).unwrap();
    let dir = fresh("mcs");
    write(&r, &dir);
    let path = dir.join("hop2-cell_sta1-forward.pcap");
    let file = read_pcap(&path);
    assert_eq!(file.link_type, 127);
    let after = |b: &Vec<u8>| usize::from(u16::from_le_bytes([b[2], b[3]]));
    let data: Vec<&Vec<u8>> = file
        .records
        .iter()
        .map(|r| &r.1)
        .filter(|b| b[after(b)] == 0x08)
        .collect();
    let block_acks = file
        .records
        .iter()
        .filter(|r| r.1[after(&r.1)] == 0x94)
        .count();
    assert!(data.len() > 10, "{} data frames", data.len());
    let mut new = 0;
    let (mut retries, mut seqs, mut refs) = (
        0,
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    for b in &data {
        let present = u32::from_le_bytes(b[4..8].try_into().unwrap());
        // Flags (bit 1) at offset 8, MCS (bit 19) after it: known, flags, index; the A-MPDU
        // status (bit 20) aligned to 4 at 12: reference, flags.
        assert_eq!(present, (1 << 1) | (1 << 19) | (1 << 20));
        assert_eq!(after(b), 20);
        let (known, flags, index) = (b[9], b[10], b[11]);
        assert_eq!(known & 0x07, 0x07, "bandwidth, MCS and GI known");
        assert_eq!(flags & 0x03, 1, "40 MHz");
        assert_eq!(flags & 0x04, 0x04, "short guard interval");
        assert_eq!(index, 15, "MCS 15: two streams of MCS 7");
        refs.insert(u32::from_le_bytes(b[12..16].try_into().unwrap()));
        assert_eq!(b[16] & 0x04, 0x04, "last subframe known");
        // A resent MPDU has the sequence number of one sent before on this port (the access
        // point's numbers, shared by its ten stations, wrap at 4096 within the run).
        let seq = u16::from_le_bytes([b[42], b[43]]) >> 4;
        if b[21] & 0x08 != 0 {
            retries += 1;
            assert!(seqs.contains(&seq), "resent MPDU {seq} never sent before");
        } else {
            seqs.insert(seq);
            new += 1;
        }
    }
    // Fewer aggregates than MPDUs; one Block Ack for most of them.
    assert!(refs.len() * 2 < data.len(), "{} aggregates", refs.len());
    assert!(
        block_acks * 10 > refs.len() * 8,
        "{block_acks} Block Acks, {} A-MPDUs",
        refs.len()
    );
    // Only corrupted MPDUs are resent (a lost Block Ack is followed by a BlockAckReq, not by
    // the whole aggregate again): 10 on this port in the second.
    assert!(retries >= 5, "{retries} resent MPDUs");
    // The IP view: every packet once (a resent MPDU keeps its sequence number). MPDUs still
    // in the session or held in the reorder buffer behind a hole when the run ends are not in
    // it: at most a Block Ack window (64) of them (11 here; the access point serves its ten
    // stations in turn, so each waits for its next aggregate; none is dropped or given up).
    let ip = read_pcap(&dir.join("hop2-cell_sta1-forward-ip.pcap"));
    assert_eq!(data.len(), new + retries);
    assert!(
        ip.records.len() <= new && ip.records.len() + 64 >= new,
        "{} {new}",
        ip.records.len(),
    );
    if let Ok(v) = std::process::Command::new("tshark").arg("-v").output() {
        assert!(v.status.success());
        let out = std::process::Command::new("tshark")
            .arg("-r")
            .arg(&path)
            .args([
                "-Y",
                "wlan.fc.type == 2",
                "-T",
                "fields",
                "-e",
                "radiotap.mcs.index",
                "-e",
                "radiotap.mcs.bw",
                "-e",
                "radiotap.mcs.gi",
                "-e",
                "radiotap.ampdu.reference",
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        eprintln!(
            "tshark: {} data frames, first {:?}; {} A-MPDUs, {block_acks} Block Acks, {retries} resent MPDUs",
            lines.len(),
            lines.first(),
            refs.len()
        );
        assert_eq!(lines.len(), data.len());
        assert!(
            lines.iter().all(|l| l.starts_with("15\t1\t1\t")),
            "{lines:?}"
        );
        let tshark_refs: std::collections::BTreeSet<&str> =
            lines.iter().filter_map(|l| l.split('\t').nth(3)).collect();
        assert_eq!(tshark_refs.len(), refs.len());
    } else {
        eprintln!("NOTICE: tshark not installed; the fields are read from the bytes only");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// With a rate control (net::medium::dcf::snr) each data frame's radiotap MCS is the mode the
/// frame went in, not the port's first: the download to sta1, whose SNR steps from 35 to 12 dB
/// at 500 ms under ideal rate control, is captured at MCS 7 before the step and at MCS 2 from
/// it on (each frame's mode decided at its start, the record's time).
#[test]
fn a_rate_controlled_capture_carries_each_frames_own_mcs() {
    let mut s =
        Scenario::from_toml_str(include_str!("../../../../docs/examples/wifi-cell.toml")).unwrap();
    for (k, v) in [
        ("run.warmup", "0s"),
        ("run.duration", "1s"),
        (
            "cells.0",
            "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\", \"sta5\", \"sta6\", \"sta7\", \"sta8\", \"sta9\", \"sta10\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", error_model = \"snr\", rate_control = \"ideal\", snr = 35, station_snr = { sta1 = [[\"0s\", 35], [\"500ms\", 12]] } } }",
        ),
    ] {
        s.set(k, v).unwrap();
    }
    let r = run(&s, 1, &pcap_opts()).unwrap();
    let dir = fresh("rate-control");
    write(&r, &dir);
    let file = read_pcap(&dir.join("hop2-cell_sta1-forward.pcap"));
    let after = |b: &Vec<u8>| usize::from(u16::from_le_bytes([b[2], b[3]]));
    let (mut before, mut later) = (0, 0);
    for (t_us, b) in file.records.iter().filter(|r| r.1[after(&r.1)] == 0x08) {
        // Flags at 8, then the MCS field: known, flags, index.
        let index = b[11];
        if *t_us < 500_000 {
            assert_eq!(index, 7, "at {t_us} µs");
            before += 1;
        } else {
            assert_eq!(index, 2, "at {t_us} µs");
            later += 1;
        }
    }
    assert!(before > 50 && later > 50, "{before} before, {later} after");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// BlockAckReqs in the 802.11 capture (net::medium::dcf::ampdu, crate::radiotap): in an
/// HT20 MCS 7 cell of ten stations with a bit error every 4 KiB (the cell of golden row
/// `wlan-11n-ampdu-bar`) Block Acks are lost, and each BlockAckReq the access point sent is a
/// record of control subtype 8 (`0x84`) in the file of the station it went to, with
/// radiotap's Rate field at 6 Mb/s (12 in 500 kb/s units, the lowest basic rate), from the
/// access point to that station, followed by its Block Ack (subtype 9) at 6 Mb/s unless the
/// BlockAckReq or its answer was lost: as many records as the access point's
/// `block_ack_requests`. The Block Acks after A-MPDUs carry no Rate field.
#[test]
fn a_block_ack_request_and_its_block_ack_are_in_the_capture_with_their_rate() {
    let mut s =
        Scenario::from_toml_str(include_str!("../../../../docs/examples/wifi-cell.toml")).unwrap();
    for (k, v) in [
        ("run.warmup", "0s"),
        ("run.duration", "1s"),
        (
            "cells.0",
            "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\", \"sta5\", \"sta6\", \"sta7\", \"sta8\", \"sta9\", \"sta10\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, error = { model = \"exponential\", every = \"4KiB\" }, dcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = 16 } }",
        ),
    ] {
        s.set(k, v).unwrap();
    }
    let r = run(&s, 1, &pcap_opts()).unwrap();
    let ap = r
        .flows
        .as_ref()
        .unwrap()
        .members
        .iter()
        .find(|m| {
            m.iter()
                .any(|(k, v)| *k == "role" && *v == lossylink::Value::Str("access-point".into()))
        })
        .cloned()
        .unwrap();
    let bars_sent = match ap.iter().find(|(k, _)| *k == "block_ack_requests") {
        Some((_, lossylink::Value::Int(n))) => *n as usize,
        other => panic!("{other:?}"),
    };
    let dir = fresh("bar");
    write(&r, &dir);
    let after = |b: &Vec<u8>| usize::from(u16::from_le_bytes([b[2], b[3]]));
    let (mut bars, mut answered, mut plain_block_acks) = (0, 0, 0);
    for sta in 1..=10u8 {
        let file = read_pcap(&dir.join(format!("hop{}-cell_sta{sta}-forward.pcap", sta + 1)));
        let recs: Vec<&Vec<u8>> = file.records.iter().map(|r| &r.1).collect();
        for (i, b) in recs.iter().enumerate() {
            let h = after(b);
            if b[h] == 0x94 && h == 9 {
                plain_block_acks += 1;
            }
            if b[h] != 0x84 {
                continue;
            }
            bars += 1;
            let present = u32::from_le_bytes(b[4..8].try_into().unwrap());
            assert_eq!(present, (1 << 1) | (1 << 2), "Flags and Rate");
            assert_eq!(b[9], 12, "6 Mb/s");
            // Node ids: server 0, router 1, ap 2, sta1 3, ...; MAC 02:00:00:00:00:(id + 1).
            assert_eq!(
                &b[h + 4..h + 10],
                &[2, 0, 0, 0, 0, sta + 3],
                "to the station"
            );
            assert_eq!(
                &b[h + 10..h + 16],
                &[2, 0, 0, 0, 0, 3],
                "from the access point"
            );
            if let Some(n) = recs
                .get(i + 1)
                .filter(|n| n[after(n)] == 0x94 && after(n) == 10)
            {
                assert_eq!(n[9], 12, "its Block Ack at 6 Mb/s");
                answered += 1;
            }
        }
    }
    eprintln!("{bars} BlockAckReqs in the capture, {answered} followed by their Block Ack, {plain_block_acks} Block Acks after A-MPDUs; the access point counted {bars_sent}");
    assert!(bars > 10, "{bars}");
    assert_eq!(bars, bars_sent);
    assert!(answered * 10 > bars * 5, "{answered} of {bars}");
    assert!(plain_block_acks > bars, "{plain_block_acks}");
    // tshark, where installed, reads them as BlockAckReqs (type/subtype 0x0018) at 6 Mb/s.
    if std::process::Command::new("tshark")
        .arg("-v")
        .output()
        .is_ok_and(|v| v.status.success())
    {
        let mut rates = Vec::new();
        for sta in 1..=10u8 {
            let out = std::process::Command::new("tshark")
                .arg("-r")
                .arg(dir.join(format!("hop{}-cell_sta{sta}-forward.pcap", sta + 1)))
                .args(["-Y", "wlan.fc.type_subtype == 0x0018", "-T", "fields"])
                .args(["-e", "radiotap.datarate"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            rates.extend(text.lines().map(str::to_owned));
        }
        eprintln!(
            "tshark: {} BlockAckReqs, first at {:?} Mb/s",
            rates.len(),
            rates.first()
        );
        assert_eq!(rates.len(), bars);
        assert!(
            rates.iter().all(|r| r.trim().parse::<f64>() == Ok(6.0)),
            "{rates:?}"
        );
    } else {
        eprintln!("NOTICE: tshark not installed; the fields are read from the bytes only");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Legacy data frames carry radiotap's Rate field (crate::radiotap; present bit 2, 500 kb/s
/// units) as the BlockAckReqs do: in an 802.11g cell (the cell of golden row
/// `wlan-11g-mixed-rates`, ten stations) with sta1 at 1 Mb/s DSSS (`station_rate`) among
/// ERP-OFDM 54 Mb/s stations, every data frame to sta1 says 2 (1 Mb/s), every one to sta2
/// 108 (54 Mb/s), and tshark (where installed) reads `radiotap.datarate` 1 and 54.
#[test]
fn legacy_data_frames_carry_their_rate_in_radiotap() {
    let mut s =
        Scenario::from_toml_str(include_str!("../../../../docs/examples/wifi-cell.toml")).unwrap();
    for (k, v) in [
        ("run.warmup", "0s"),
        ("run.duration", "1s"),
        (
            "cells.0",
            "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\", \"sta5\", \"sta6\", \"sta7\", \"sta8\", \"sta9\", \"sta10\"], rate = \"54Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11g\" }, station_rate = { sta1 = \"1Mbps\" } }",
        ),
    ] {
        s.set(k, v).unwrap();
    }
    let r = run(&s, 1, &pcap_opts()).unwrap();
    let dir = fresh("legacy-rate");
    write(&r, &dir);
    let after = |b: &Vec<u8>| usize::from(u16::from_le_bytes([b[2], b[3]]));
    for (sta, rate) in [(1u8, 2u8), (2, 108)] {
        let name = format!("hop{}-cell_sta{sta}-forward.pcap", sta + 1);
        let file = read_pcap(&dir.join(&name));
        let data: Vec<&Vec<u8>> = file
            .records
            .iter()
            .map(|r| &r.1)
            .filter(|b| b[after(b)] == 0x08)
            .collect();
        assert!(data.len() > 20, "{name}: {} data frames", data.len());
        for b in &data {
            let present = u32::from_le_bytes(b[4..8].try_into().unwrap());
            assert_eq!(present, (1 << 1) | (1 << 2), "{name}: Flags and Rate");
            assert_eq!((after(b), b[9]), (10, rate), "{name}");
        }
        if std::process::Command::new("tshark")
            .arg("-v")
            .output()
            .is_ok_and(|v| v.status.success())
        {
            let out = std::process::Command::new("tshark")
                .arg("-r")
                .arg(dir.join(&name))
                .args(["-Y", "wlan.fc.type_subtype == 0x0020", "-T", "fields"])
                .args(["-e", "radiotap.datarate"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let rates: Vec<&str> = text.lines().collect();
            assert_eq!(rates.len(), data.len(), "{name}");
            let mbps = f64::from(rate) / 2.0;
            assert!(
                rates.iter().all(|r| r.trim().parse::<f64>() == Ok(mbps)),
                "{name}: {rates:?}"
            );
        } else {
            eprintln!("NOTICE: tshark not installed; the fields are read from the bytes only");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
