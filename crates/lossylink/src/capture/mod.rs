//! Packet captures of a run: the frames the network's link tap recorded, one classic libpcap
//! file per port (hop direction), with real Ethernet/IPv4/TCP headers (crate::pcap).
//!
//! Conventions (docs/traces.md):
//! - file `hop<i>-<hop name>-<forward|reverse>.pcap`, `i` from 0 in chain order, forward = from
//!   node `i` to node `i + 1`;
//! - node `n` (0-based, chain order) has IPv4 address 10.0.(n+1)/256.(n+1)%256 and MAC
//!   02:00:00:00:hi:lo of `n + 1` (locally administered);
//! - flow `f`: the sender uses TCP port 49152 + f, the receiver port 50001;
//! - TTL 64 at the originating host, one less per router passed;
//! - IPv4 identification = the packet's uid modulo 2^16 (local retransmissions are new
//!   packets, so they get new ids);
//! - timestamp = simulated time when the frame's transmission *started* on the port;
//! - frames the error model corrupted are captured too (the tap is at the transmitter) with a
//!   TCP checksum that does not verify, as the paper's error generator did (Balakrishnan97 §3.5);
//! - a port on an 802.11 DCF is written with 802.11 framing (crate::radiotap): every attempt
//!   of the MAC, a retry with the Retry bit, and the far end's MAC ACKs as frames of their own;
//!   beside it, `<name>-ip.pcap` has the frames the far end took, once each, as Ethernet;
//! - `index.json` and `index.csv` list the files, their counts and the nodes' addresses
//!   (capture/index.rs).

pub(crate) mod files;
pub(crate) mod index;

use crate::error::Error;
use crate::pcap::{encode_headers, encode_udp_headers, FrameMeta, PcapWriter, LINKTYPE_ETHERNET};
use crate::radiotap::{
    ack_frame, block_ack_frame, block_ack_req_frame, data_headers, DataFrame,
    LINKTYPE_IEEE802_11_RADIOTAP,
};
use engine::{NodeId, PortId};
use files::{FileCounts, FileView, WrittenFile};
use net::tap::{Control, MacAck, TappedFrame};
use net::Network;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// TCP port of the sender of flow 0 (flow `f` uses this plus `f`).
pub const SENDER_PORT_BASE: u16 = 49152;
/// TCP port of every receiver.
pub const RECEIVER_PORT: u16 = 50001;
/// UDP port of LL-ELSN's notification packets (both ends): a 20-byte control payload
/// (eln-llelsn spec §4.1 (c)), shown as UDP so that no analyser takes it for a TCP segment.
pub const NOTICE_PORT: u16 = 7010;
/// UDP source port of UDP flow 0 (flow i uses `UDP_PORT_BASE + i`).
pub const UDP_PORT_BASE: u16 = 40000;
/// UDP destination port of every UDP flow (the discard service, RFC 863).
pub const UDP_SINK_PORT: u16 = 9;
/// TTL of a datagram leaving its originating host.
pub const INITIAL_TTL: u8 = 64;

/// One port's capture file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturePort {
    /// File name (`hop1-wavelan-forward.pcap`).
    pub file_name: String,
    /// Transmitting node.
    pub from: NodeId,
    /// Receiving node.
    pub to: NodeId,
    /// Whether the port transmits on an 802.11 DCF (its file has 802.11 framing).
    pub ieee80211: bool,
    /// The 802.11 PHY mode of its frames (a DCF cell with `dcf.phy`; radiotap's MCS or VHT
    /// field for HT and VHT modes).
    pub phy: Option<net::medium::dcf::phy::Mode>,
    /// Index of its hop (link), from 0 in document order.
    pub hop: usize,
    /// Name of its hop.
    pub hop_name: String,
}

/// A flow as the capture's index names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureFlow {
    /// Name in results.
    pub name: String,
    /// Sending node.
    pub src: NodeId,
    /// Receiving node.
    pub dst: NodeId,
    /// Network flow id of a TCP flow (its sender's port is `SENDER_PORT_BASE + id`).
    pub id: u32,
    /// Index among the UDP flows of a UDP flow (its port is `UDP_PORT_BASE + i`).
    pub udp: Option<usize>,
}

/// The names a capture's index gives hops, nodes and flows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CaptureNames {
    /// Hop names, by link index.
    pub hops: Vec<String>,
    /// Node names, by node id.
    pub nodes: Vec<String>,
    /// The bulk TCP and UDP flows, in document order.
    pub flows: Vec<CaptureFlow>,
}

/// The frames a run put on its links, ready to be written as pcap files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    /// One entry per port, indexed by port id (hop `i` forward is `2i`, reverse `2i + 1`).
    pub ports: Vec<CapturePort>,
    /// Sender node of each flow, indexed by flow id.
    pub flow_senders: Vec<NodeId>,
    /// Every frame, in the order transmissions started.
    pub frames: Vec<TappedFrame>,
    /// The MAC ACKs of the DCF ports, in time order (after an A-MPDU: its Block Ack).
    pub mac_acks: Vec<MacAck>,
    /// The packets the DCF ports delivered to their far ends (port, uid), in order: the IP
    /// view of a port that aggregates (its MPDUs share one Block Ack).
    pub deliveries: Vec<(PortId, u64)>,
    /// Node names, by node id.
    pub nodes: Vec<String>,
    /// The bulk TCP and UDP flows, in document order.
    pub flows: Vec<CaptureFlow>,
}

/// IPv4 address of node `n`.
pub fn node_ip(n: NodeId) -> [u8; 4] {
    let k = n.0 + 1;
    [10, 0, (k >> 8) as u8, k as u8]
}

/// MAC address of node `n` (locally administered, unicast).
pub fn node_mac(n: NodeId) -> [u8; 6] {
    let k = n.0 + 1;
    [0x02, 0, 0, (k >> 16) as u8, (k >> 8) as u8, k as u8]
}

/// Keep letters, digits, `-`, `_` and `.`; anything else becomes `_`.
fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// File name of the capture of `port` (`hop<i>-<hop name>-<forward|reverse>.pcap`); `hop_names`
/// in chain order.
pub fn port_file_name(port: &net::Port, hop_names: &[String]) -> String {
    let hop = port.hop.index();
    let name = hop_names.get(hop).map_or("hop", String::as_str);
    let dir = if port.id.0.is_multiple_of(2) {
        "forward"
    } else {
        "reverse"
    };
    format!("hop{hop}-{}-{dir}.pcap", file_safe(name))
}

impl Capture {
    /// The capture of `network`, whose frame tap was enabled before it ran (`None` otherwise).
    pub(crate) fn from_network(network: &Network, names: CaptureNames) -> Option<Capture> {
        let frames = network.tapped_frames()?.to_vec();
        let hop_names = &names.hops;
        let ports = network
            .ports()
            .iter()
            .map(|p| CapturePort {
                file_name: port_file_name(p, hop_names),
                hop: p.hop.index(),
                hop_name: hop_names.get(p.hop.index()).cloned().unwrap_or_default(),
                from: p.from,
                to: p.to,
                ieee80211: matches!(
                    network.medium_report_of(p.id),
                    Some(net::medium::MediumReport::Dcf(_))
                ),
                phy: p.phy(),
            })
            .collect();
        let flow_senders = network.flows().iter().map(|f| f.src).collect();
        Some(Capture {
            ports,
            flow_senders,
            frames,
            mac_acks: network.tapped_mac_acks().to_vec(),
            deliveries: network.tapped_deliveries().to_vec(),
            nodes: names.nodes,
            flows: names.flows,
        })
    }

    /// Frames captured on `port`.
    pub fn frame_count(&self, port: PortId) -> usize {
        self.frames.iter().filter(|f| f.port == port).count()
    }

    /// The addressing of `frame` on its port.
    fn meta(&self, frame: &TappedFrame) -> FrameMeta {
        let p = &self.ports[frame.port.index()];
        let pkt = &frame.pkt;
        let ports = if pkt.is_udp() {
            // UDP flows have their own ids: ports from UDP_PORT_BASE up, to the discard port.
            (UDP_PORT_BASE.wrapping_add(pkt.flow.0 as u16), UDP_SINK_PORT)
        } else if matches!(pkt.proto, net::Proto::Notice(_)) {
            (NOTICE_PORT, NOTICE_PORT)
        } else {
            let sender = self.flow_senders.get(pkt.flow.index()).copied();
            let sport = SENDER_PORT_BASE.wrapping_add(pkt.flow.0 as u16);
            if sender == Some(pkt.src) {
                (sport, RECEIVER_PORT)
            } else {
                (RECEIVER_PORT, sport)
            }
        };
        let routers = p.from.0.abs_diff(pkt.src.0);
        FrameMeta {
            mac: (node_mac(p.from), node_mac(p.to)),
            ip: (node_ip(pkt.src), node_ip(pkt.dst)),
            ports,
            ip_id: pkt.uid as u16,
            ttl: INITIAL_TTL.saturating_sub(routers.min(255) as u8),
            bad_checksum: frame.corrupted,
        }
    }

    /// The pcap file of `port` as bytes.
    pub fn pcap_bytes(&self, port: PortId) -> Result<Vec<u8>, Error> {
        let name = self.ports.get(port.index()).map_or("", |p| &p.file_name);
        let io = |e: std::io::Error| Error::Io {
            path: name.to_string(),
            message: e.to_string(),
        };
        let mut w = PcapWriter::with_link_type(Vec::new(), self.link_type(port)).map_err(io)?;
        self.write_port(port, &mut w, name, false)?;
        w.finish().map_err(io)
    }

    /// The pcap link type of `port`'s file.
    fn link_type(&self, port: PortId) -> u32 {
        match self.ports.get(port.index()) {
            Some(p) if p.ieee80211 => LINKTYPE_IEEE802_11_RADIOTAP,
            _ => LINKTYPE_ETHERNET,
        }
    }

    /// Write the frames of `port`: every one, with 802.11 framing on a DCF port; or, with
    /// `delivered_only` (DCF ports), the frames the far end took, with Ethernet framing.
    fn write_port<W: std::io::Write>(
        &self,
        port: PortId,
        w: &mut PcapWriter<W>,
        name: &str,
        delivered_only: bool,
    ) -> Result<FileCounts, Error> {
        let mut counts = FileCounts::default();
        let ieee80211 = self.ports.get(port.index()).is_some_and(|p| p.ieee80211);
        let wifi = ieee80211 && !delivered_only;
        let kept = (ieee80211 && delivered_only).then(|| self.delivered(port));
        let mut acks = self.mac_acks.iter().filter(|a| a.port == port).peekable();
        let write_err = |e: std::io::Error| Error::Io {
            path: name.to_string(),
            message: e.to_string(),
        };
        let seqs = if wifi { self.mac_seqs() } else { Vec::new() };
        // The port's frames by index, to tell an A-MPDU's last subframe; the aggregate before
        // the next Block Ack (its first sequence number and the bitmap of its intact MPDUs).
        let on_port: Vec<usize> = (0..self.frames.len())
            .filter(|&i| self.frames[i].port == port)
            .collect();
        let mut block: Option<(u32, u16, u64)> = None;
        for (k, (i, f)) in self
            .frames
            .iter()
            .enumerate()
            .filter(|(_, f)| f.port == port)
            .enumerate()
        {
            if kept
                .as_ref()
                .is_some_and(|d| !d.get(k).copied().unwrap_or(false))
            {
                continue;
            }
            // The MAC ACKs that went before this frame, in time order among the data frames.
            while let Some(a) = acks.next_if(|a| wifi && a.at <= f.start) {
                self.write_ack(a, block, w, &mut counts)
                    .map_err(write_err)?;
            }
            let meta = self.meta(f);
            let notice = matches!(f.pkt.proto, net::Proto::Notice(_));
            let payload = if notice {
                net::NOTICE_BYTES - 28
            } else {
                f.pkt.seg.len
            };
            let headers = if f.pkt.is_udp() || notice {
                encode_udp_headers(payload, &meta)
            } else {
                encode_headers(&f.pkt.seg, &meta)
            }
            .map_err(|message| Error::Simulation {
                message: format!("pcap {name}: {message}"),
            })?;
            let headers = if wifi {
                let seq = seqs.get(i).copied().unwrap_or(0);
                if let Some(r) = f.ampdu {
                    let bit = |s: u16| {
                        if f.corrupted {
                            0
                        } else {
                            1u64 << s
                        }
                    };
                    block = match block {
                        Some((b, start, map)) if b == r => {
                            let off = seq.wrapping_sub(start) & 0x0fff;
                            Some((r, start, map | if off < 64 { bit(off) } else { 0 }))
                        }
                        _ => Some((r, seq, bit(0))),
                    };
                }
                let last = on_port
                    .get(k + 1)
                    .is_none_or(|&j| self.frames[j].ampdu != f.ampdu);
                let mut d = self.data_frame(f, seq);
                d.ampdu = f.ampdu.map(|r| (r, last));
                data_headers(&d, &headers)
            } else {
                headers
            };
            w.frame(f.start.as_nanos(), &headers, payload)
                .map_err(write_err)?;
            counts.record(f.start.as_nanos(), true, wifi && f.retry, f.corrupted);
        }
        for a in acks.filter(|_| wifi) {
            self.write_ack(a, block, w, &mut counts)
                .map_err(write_err)?;
        }
        Ok(counts)
    }

    /// The 802.11 addressing of `f` on its DCF port: receiver, transmitter, sequence number
    /// `seq`, and as BSSID the lower-numbered end's address (one per cell: a cell's access
    /// point comes before its stations unless the document names them first).
    fn data_frame(&self, f: &TappedFrame, seq: u16) -> DataFrame {
        let p = &self.ports[f.port.index()];
        DataFrame {
            receiver: node_mac(p.to),
            transmitter: node_mac(p.from),
            bssid: node_mac(p.from.min(p.to)),
            seq,
            retry: f.retry,
            corrupted: f.corrupted,
            mode: f.mode.or(p.phy),
            ampdu: None,
        }
    }

    /// The 802.11 sequence number of every frame (by index; 0 off DCF ports): per transmitting
    /// node, counted over its new frames on DCF ports modulo 4096; a retry repeats the number of
    /// the frame it retries (a DCF member holds one frame until it is delivered or dropped).
    fn mac_seqs(&self) -> Vec<u16> {
        let mut next: Vec<u16> = Vec::new();
        let mut last: Vec<u16> = Vec::new();
        // An A-MPDU's resent MPDU keeps the number it first had (node, uid).
        let mut first: std::collections::BTreeMap<(usize, u64), u16> = Default::default();
        self.frames
            .iter()
            .map(|f| {
                let p = &self.ports[f.port.index()];
                if !p.ieee80211 {
                    return 0;
                }
                let n = p.from.index();
                if next.len() <= n {
                    next.resize(n + 1, 0);
                    last.resize(n + 1, 0);
                }
                if f.ampdu.is_some() {
                    if let Some(&s) = f.retry.then(|| first.get(&(n, f.pkt.uid))).flatten() {
                        return s;
                    }
                    let s = next[n];
                    next[n] = (next[n] + 1) % 4096;
                    first.insert((n, f.pkt.uid), s);
                    return s;
                }
                if !f.retry {
                    last[n] = next[n];
                    next[n] = (next[n] + 1) % 4096;
                }
                last[n]
            })
            .collect()
    }

    /// For each frame of the DCF port `port`, in order, whether the far end took it: a MAC
    /// ACK that the channel spared followed it (a frame received intact whose ACK was lost is
    /// retried, and taken then). Without MAC ACKs (`mac_ack = false`), the frames the channel
    /// did not corrupt (a collided one among them: the tap cannot tell).
    fn delivered(&self, port: PortId) -> Vec<bool> {
        let frames: Vec<&TappedFrame> = self.frames.iter().filter(|f| f.port == port).collect();
        if frames.iter().any(|f| f.ampdu.is_some()) {
            // A-MPDUs: the last attempt at each packet the far end took (the DCF's
            // deliveries; a packet is delivered once, its earlier attempts were lost or their
            // Block Ack was).
            let taken: std::collections::BTreeSet<u64> = self
                .deliveries
                .iter()
                .filter(|d| d.0 == port)
                .map(|d| d.1)
                .collect();
            let mut later = std::collections::BTreeSet::new();
            let mut out = vec![false; frames.len()];
            for (k, f) in frames.iter().enumerate().rev() {
                out[k] = taken.contains(&f.pkt.uid) && later.insert(f.pkt.uid);
            }
            return out;
        }
        let acks: Vec<&MacAck> = self.mac_acks.iter().filter(|a| a.port == port).collect();
        if acks.is_empty() {
            return frames.iter().map(|f| !f.corrupted).collect();
        }
        let mut j = 0;
        (0..frames.len())
            .map(|k| {
                while acks.get(j).is_some_and(|a| a.at <= frames[k].start) {
                    j += 1; // the ACKs of earlier frames
                }
                match (acks.get(j), frames.get(k + 1)) {
                    (Some(a), Some(next)) if a.at <= next.start => !a.lost,
                    (Some(a), None) => !a.lost,
                    _ => false,
                }
            })
            .collect()
    }

    /// Write the MAC ACK `a`, or, after an A-MPDU (`block`: its reference, first sequence
    /// number and the bitmap of its intact MPDUs), its Block Ack, or a BlockAckReq asking
    /// about that A-MPDU.
    fn write_ack<W: std::io::Write>(
        &self,
        a: &MacAck,
        block: Option<(u32, u16, u64)>,
        w: &mut PcapWriter<W>,
        counts: &mut FileCounts,
    ) -> std::io::Result<()> {
        let p = &self.ports[a.port.index()];
        let (from, to) = (node_mac(p.from), node_mac(p.to));
        let frame = match (a.kind, block) {
            (Control::BlockAckReq, _) => {
                let start = block.map_or(0, |b| b.1);
                block_ack_req_frame((to, from), start, (a.lost, a.mode))
            }
            (Control::Ack, Some((_, start, map))) => {
                block_ack_frame((from, to), start, map, (a.lost, a.mode))
            }
            (Control::Ack, None) => ack_frame(from, a.lost),
        };
        w.frame(a.at.as_nanos(), &frame, 0)?;
        counts.record(a.at.as_nanos(), false, false, a.lost);
        Ok(())
    }

    /// Write one pcap file per port into `dir` (created if needed); returns the paths, in port
    /// order. Files of ports that carried nothing are written too (header only). A DCF port's
    /// file (802.11 framing, every attempt) is followed by `<name>-ip.pcap`: the frames the far
    /// end took, once each, with Ethernet framing. Then `index.json` and `index.csv` list the
    /// files, what each holds and its counts, and the nodes and flows (capture/index.rs;
    /// their paths are not in the returned list).
    pub fn write_dir(&self, dir: &Path) -> Result<Vec<PathBuf>, Error> {
        let io = |path: &Path, e: std::io::Error| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let mut out = Vec::with_capacity(self.ports.len());
        let mut written = Vec::with_capacity(self.ports.len());
        for (i, p) in self.ports.iter().enumerate() {
            let path = dir.join(&p.file_name);
            let file = File::create(&path).map_err(|e| io(&path, e))?;
            let link_type = self.link_type(PortId(i as u32));
            let mut w = PcapWriter::with_link_type(BufWriter::new(file), link_type)
                .map_err(|e| io(&path, e))?;
            let counts =
                self.write_port(PortId(i as u32), &mut w, &path.display().to_string(), false)?;
            w.finish().map_err(|e| io(&path, e))?;
            out.push(path);
            written.push(WrittenFile {
                file_name: p.file_name.clone(),
                port: PortId(i as u32),
                view: if p.ieee80211 {
                    FileView::Ieee80211
                } else {
                    FileView::Link
                },
                counts,
            });
            if p.ieee80211 {
                let stem = p.file_name.strip_suffix(".pcap").unwrap_or(&p.file_name);
                let name = format!("{stem}-ip.pcap");
                let path = dir.join(&name);
                let file = File::create(&path).map_err(|e| io(&path, e))?;
                let mut w = PcapWriter::new(BufWriter::new(file)).map_err(|e| io(&path, e))?;
                let counts =
                    self.write_port(PortId(i as u32), &mut w, &path.display().to_string(), true)?;
                w.finish().map_err(|e| io(&path, e))?;
                out.push(path);
                written.push(WrittenFile {
                    file_name: name,
                    port: PortId(i as u32),
                    view: FileView::Ip,
                    counts,
                });
            }
        }
        self.write_index(dir, &written)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_per_node() {
        assert_eq!(node_ip(NodeId(0)), [10, 0, 0, 1]);
        assert_eq!(node_ip(NodeId(299)), [10, 0, 1, 44]);
        assert_eq!(node_mac(NodeId(2)), [2, 0, 0, 0, 0, 3]);
        assert_eq!(file_safe("wave lan/1"), "wave_lan_1");
    }
}
