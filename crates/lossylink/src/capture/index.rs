//! The index of a run's capture directory (`index.json` and `index.csv` beside the pcap files):
//! what each file holds, counted while it was written, and who the addresses in them are.
//!
//! Why an index and not a merged capture per node (docs/traces.md, "The index"): a router's
//! merged file would hold every forwarded segment twice (in on one link, out on the next), which
//! TCP analysers flag as retransmissions; a station's file would mix 802.11 and Ethernet link
//! types, which classic pcap cannot hold; and every frame would be stored a second time. The
//! index names, per node, the files to merge when a merged view is wanted (`mergecap`), and per
//! file the counts to check a reader against.
//!
//! `index.json`: `{"nodes": [...], "flows": [...], "files": [...]}`; `index.csv`: the `files`
//! rows, one per pcap file, the columns of [`CSV_COLUMNS`].

use super::files::{FileView, WrittenFile};
use super::{
    node_ip, node_mac, Capture, RECEIVER_PORT, SENDER_PORT_BASE, UDP_PORT_BASE, UDP_SINK_PORT,
};
use crate::error::Error;
use engine::NodeId;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Name of the JSON index in a capture directory.
pub const INDEX_JSON: &str = "index.json";
/// Name of the CSV index (the files only) in a capture directory.
pub const INDEX_CSV: &str = "index.csv";
/// Columns of `index.csv`, in order.
pub const CSV_COLUMNS: [&str; 16] = [
    "file",
    "hop",
    "hop_name",
    "direction",
    "from",
    "to",
    "link_type",
    "view",
    "frames",
    "data_frames",
    "retries",
    "mac_acks",
    "corrupted",
    "first_s",
    "last_s",
    "holds",
];

#[derive(Serialize)]
struct NodeRow<'a> {
    node: u32,
    name: &'a str,
    ip: String,
    mac: String,
    /// Ethernet-framed files the node sends or receives on (link views, and the IP views of
    /// its 802.11 ports): `mergecap -F pcap -w node.pcap <files>` merges them.
    files: Vec<&'a str>,
    /// Its 802.11 (radiotap) files.
    wlan_files: Vec<&'a str>,
}

#[derive(Serialize)]
struct FlowRow<'a> {
    flow: &'a str,
    protocol: &'static str,
    sender: &'a str,
    receiver: &'a str,
    sender_port: u16,
    receiver_port: u16,
}

#[derive(Serialize)]
struct FileRow<'a> {
    file: &'a str,
    hop: usize,
    hop_name: &'a str,
    direction: &'static str,
    from: &'a str,
    to: &'a str,
    link_type: &'static str,
    /// The pcap header's link type number.
    linktype: u32,
    view: &'static str,
    frames: u64,
    data_frames: u64,
    retries: u64,
    mac_acks: u64,
    corrupted: u64,
    first_s: Option<f64>,
    last_s: Option<f64>,
    holds: &'static str,
}

#[derive(Serialize)]
struct Index<'a> {
    nodes: Vec<NodeRow<'a>>,
    flows: Vec<FlowRow<'a>>,
    files: Vec<FileRow<'a>>,
}

/// `a.b.c.d`.
fn dotted(ip: [u8; 4]) -> String {
    format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3])
}

/// `02:00:00:00:00:01`.
fn colons(mac: [u8; 6]) -> String {
    mac.map(|b| format!("{b:02x}")).join(":")
}

/// Seconds with the microseconds of a pcap record, as a string (`12.000345`).
fn seconds(us: u64) -> String {
    format!("{}.{:06}", us / 1_000_000, us % 1_000_000)
}

/// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Capture {
    fn node_name(&self, n: NodeId) -> &str {
        self.nodes.get(n.index()).map_or("?", String::as_str)
    }

    fn index<'a>(&'a self, files: &'a [WrittenFile]) -> Index<'a> {
        let file_rows = files
            .iter()
            .map(|f| {
                let p = &self.ports[f.port.index()];
                FileRow {
                    file: &f.file_name,
                    hop: p.hop,
                    hop_name: &p.hop_name,
                    direction: if f.port.0.is_multiple_of(2) {
                        "forward"
                    } else {
                        "reverse"
                    },
                    from: self.node_name(p.from),
                    to: self.node_name(p.to),
                    link_type: f.view.link_type(),
                    linktype: match f.view {
                        FileView::Ieee80211 => crate::radiotap::LINKTYPE_IEEE802_11_RADIOTAP,
                        _ => crate::pcap::LINKTYPE_ETHERNET,
                    },
                    view: f.view.key(),
                    frames: f.counts.frames,
                    data_frames: f.counts.data_frames,
                    retries: f.counts.retries,
                    mac_acks: f.counts.mac_acks,
                    corrupted: f.counts.corrupted,
                    // Exact: the nearest double to a decimal with six places prints back as it.
                    first_s: f.counts.span_us.map(|(a, _)| a as f64 / 1e6),
                    last_s: f.counts.span_us.map(|(_, b)| b as f64 / 1e6),
                    holds: f.view.holds(),
                }
            })
            .collect();
        let nodes = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let n = NodeId(i as u32);
                let touches = |f: &&WrittenFile| {
                    let p = &self.ports[f.port.index()];
                    p.from == n || p.to == n
                };
                let of = |wlan: bool| {
                    files
                        .iter()
                        .filter(touches)
                        .filter(|f| (f.view == FileView::Ieee80211) == wlan)
                        .map(|f| f.file_name.as_str())
                        .collect()
                };
                NodeRow {
                    node: n.0,
                    name,
                    ip: dotted(node_ip(n)),
                    mac: colons(node_mac(n)),
                    files: of(false),
                    wlan_files: of(true),
                }
            })
            .collect();
        let flows = self
            .flows
            .iter()
            .map(|f| FlowRow {
                flow: &f.name,
                protocol: if f.udp.is_some() { "udp" } else { "tcp" },
                sender: self.node_name(f.src),
                receiver: self.node_name(f.dst),
                sender_port: match f.udp {
                    Some(i) => UDP_PORT_BASE.wrapping_add(i as u16),
                    None => SENDER_PORT_BASE.wrapping_add(f.id as u16),
                },
                receiver_port: if f.udp.is_some() {
                    UDP_SINK_PORT
                } else {
                    RECEIVER_PORT
                },
            })
            .collect();
        Index {
            nodes,
            flows,
            files: file_rows,
        }
    }

    /// Write `index.json` and `index.csv` into `dir` for `files` (in the order written);
    /// returns their paths.
    pub(crate) fn write_index(
        &self,
        dir: &Path,
        files: &[WrittenFile],
    ) -> Result<[PathBuf; 2], Error> {
        let index = self.index(files);
        let json_path = dir.join(INDEX_JSON);
        let io = |path: &Path, e: String| Error::Io {
            path: path.display().to_string(),
            message: e,
        };
        let mut json =
            serde_json::to_string_pretty(&index).map_err(|e| io(&json_path, e.to_string()))?;
        json.push('\n');
        std::fs::write(&json_path, json).map_err(|e| io(&json_path, e.to_string()))?;
        let mut csv = CSV_COLUMNS.join(",");
        csv.push('\n');
        for (r, f) in index.files.iter().zip(files) {
            let (first, last) = f
                .counts
                .span_us
                .map_or((String::new(), String::new()), |(a, b)| {
                    (seconds(a), seconds(b))
                });
            let cells = [
                csv_field(r.file),
                r.hop.to_string(),
                csv_field(r.hop_name),
                r.direction.to_string(),
                csv_field(r.from),
                csv_field(r.to),
                r.link_type.to_string(),
                r.view.to_string(),
                r.frames.to_string(),
                r.data_frames.to_string(),
                r.retries.to_string(),
                r.mac_acks.to_string(),
                r.corrupted.to_string(),
                first,
                last,
                csv_field(r.holds),
            ];
            csv.push_str(&cells.join(","));
            csv.push('\n');
        }
        let csv_path = dir.join(INDEX_CSV);
        std::fs::write(&csv_path, csv).map_err(|e| io(&csv_path, e.to_string()))?;
        Ok([json_path, csv_path])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::files::FileCounts;

    #[test]
    fn counts_follow_the_records_and_fields_are_quoted() {
        let mut c = FileCounts::default();
        assert_eq!(c.span_us, None);
        c.record(5_000_999, true, false, false);
        c.record(2_000_000, false, false, true);
        c.record(9_123_456_789, true, true, false);
        assert_eq!(
            c,
            FileCounts {
                frames: 3,
                data_frames: 2,
                retries: 1,
                mac_acks: 1,
                corrupted: 1,
                span_us: Some((2_000, 9_123_456)),
            }
        );
        assert_eq!(seconds(9_123_456), "9.123456");
        assert_eq!(seconds(7), "0.000007");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(colons([2, 0, 0, 0, 1, 0x2c]), "02:00:00:00:01:2c");
        assert_eq!(dotted([10, 0, 1, 44]), "10.0.1.44");
    }
}
