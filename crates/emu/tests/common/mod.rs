//! What the emulation tests share: whether emulation can run here, and a reader of the pcap
//! files the emulator writes (classic libpcap, Ethernet, IPv4, TCP; RFC 791 §3.1, RFC 9293
//! §3.1), independent of the writer.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

/// Why emulation cannot run here, if it cannot.
pub fn skip_reason() -> Option<String> {
    if let Err(e) = emu::netns::check_privileges() {
        return Some(e.to_string());
    }
    if !std::path::Path::new("/dev/net/tun").exists() {
        return Some("no /dev/net/tun".to_string());
    }
    let probe = std::process::Command::new("ip")
        .args(["netns", "list"])
        .output();
    match probe {
        Ok(o) if o.status.success() => None,
        _ => Some("iproute2's `ip netns` is not available".to_string()),
    }
}

/// Fail the test, saying why, when emulation cannot run here. The emulation tests are
/// `#[ignore]`d, so the default run lists them as skipped; `make test-emulation` runs them where
/// emulation can run and says in one line why it skips them where it cannot. A test that is
/// asked to run here and cannot therefore fails: it never returns early to pass.
#[macro_export]
macro_rules! require_emulation {
    () => {
        if let Some(why) = common::skip_reason() {
            panic!("emulation unavailable: {why}");
        }
    };
}

/// One TCP segment of a capture.
#[derive(Clone, Copy, Debug)]
pub struct Seg {
    /// When the capture saw it, in microseconds (the record's timestamp).
    pub at_us: u64,
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    pub seq: u32,
    pub ack: u32,
    pub len: u32,
    pub flags: u8,
}

impl Seg {
    /// A pure ACK: no payload, no SYN, no FIN.
    pub fn is_pure_ack(&self) -> bool {
        self.len == 0 && self.flags & 0x03 == 0 && self.flags & 0x10 != 0
    }
}

/// The TCP segments of a pcap file, in file order.
pub fn read_pcap(path: &Path) -> Vec<Seg> {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[0..4], &0xa1b2c3d4u32.to_le_bytes(), "{}", path.display());
    let mut o = 24;
    let mut out = Vec::new();
    let be32 = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    while o + 16 <= b.len() {
        let le32 = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let at_us = u64::from(le32(o)) * 1_000_000 + u64::from(le32(o + 4));
        let cap = le32(o + 8) as usize;
        let d = &b[o + 16 + 14..o + 16 + cap];
        o += 16 + cap;
        if d[9] != 6 {
            continue;
        }
        let ihl = usize::from(d[0] & 0x0f) * 4;
        let total = usize::from(u16::from_be_bytes([d[2], d[3]]));
        let t = &d[ihl..total];
        let off = usize::from(t[12] >> 4) * 4;
        out.push(Seg {
            at_us,
            src: Ipv4Addr::new(d[12], d[13], d[14], d[15]),
            dst: Ipv4Addr::new(d[16], d[17], d[18], d[19]),
            seq: be32(&t[4..8]),
            ack: be32(&t[8..12]),
            len: (total - ihl - off) as u32,
            flags: t[13],
        });
    }
    out
}

/// The capture of hop `hop` in direction `dir` (`forward`, `reverse`) in `dir_path`.
pub fn hop_file(dir_path: &Path, hop: usize, dir: &str) -> PathBuf {
    let prefix = format!("hop{hop}-");
    let suffix = format!("-{dir}.pcap");
    std::fs::read_dir(dir_path)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(&prefix) && n.ends_with(&suffix)
        })
        .unwrap_or_else(|| panic!("no {prefix}*{suffix} in {}", dir_path.display()))
}

/// Copies of each data segment (by sequence number).
pub fn data_copies(segs: &[Seg]) -> BTreeMap<u32, u32> {
    let mut m = BTreeMap::new();
    for s in segs.iter().filter(|s| s.len > 0) {
        *m.entry(s.seq).or_insert(0) += 1;
    }
    m
}

/// Duplicate ACKs per acknowledgment number: pure ACKs that repeat the previous ACK's number
/// (what a base-station agent counts as a duplicate).
pub fn dupacks(segs: &[Seg]) -> BTreeMap<u32, u32> {
    let mut m = BTreeMap::new();
    for s in dupack_segs(segs) {
        *m.entry(s.ack).or_insert(0) += 1;
    }
    m
}

/// How many of the duplicate ACKs of [`dupacks`] were captured after `at_us`.
pub fn dupacks_after(segs: &[Seg], at_us: u64) -> u32 {
    dupack_segs(segs).filter(|s| s.at_us > at_us).count() as u32
}

/// The duplicate ACKs of [`dupacks`], in capture order.
fn dupack_segs(segs: &[Seg]) -> impl Iterator<Item = &Seg> {
    let mut last = None;
    segs.iter()
        .filter(|s| s.is_pure_ack())
        .filter(move |s| last.replace(s.ack) == Some(s.ack))
}

/// A fresh directory for one test's captures.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ll-emu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}
