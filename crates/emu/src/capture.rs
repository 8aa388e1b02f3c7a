//! pcap of one direction of the emulated path: each real datagram as it is released to its
//! destination, stamped with the model's arrival time (nanoseconds since the start, as the
//! simulator's captures), in an Ethernet frame between the two end hosts' addresses of the
//! simulator's captures (`lossylink::pcap`, the same writer).

use engine::{NodeId, SimTime};
use lossylink::pcap::{PcapWriter, ETHERNET_HEADER};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// A pcap file of one direction.
pub struct DirCapture {
    writer: PcapWriter<BufWriter<File>>,
    header: [u8; ETHERNET_HEADER],
    frame: Vec<u8>,
}

impl DirCapture {
    /// A new file at `path` for datagrams from node `from` to node `to`.
    pub fn create(path: &Path, from: NodeId, to: NodeId) -> io::Result<Self> {
        let writer = PcapWriter::new(BufWriter::new(File::create(path)?))?;
        let mut header = [0u8; ETHERNET_HEADER];
        header[0..6].copy_from_slice(&lossylink::node_mac(to));
        header[6..12].copy_from_slice(&lossylink::node_mac(from));
        // EtherType IPv4.
        header[12..14].copy_from_slice(&0x0800u16.to_be_bytes());
        Ok(DirCapture {
            writer,
            header,
            frame: Vec::with_capacity(2048),
        })
    }

    /// Record `datagram`, released at model time `at`.
    pub fn record(&mut self, at: SimTime, datagram: &[u8]) -> io::Result<()> {
        self.frame.clear();
        self.frame.extend_from_slice(&self.header);
        self.frame.extend_from_slice(datagram);
        self.writer.frame(at.as_nanos(), &self.frame, 0)
    }

    /// Flush the file.
    pub fn finish(self) -> io::Result<()> {
        self.writer.finish().map(|_| ())
    }
}

/// pcap files of every hop direction (port) of the emulated network, named as a simulated
/// run's (`hop<i>-<hop name>-<forward|reverse>.pcap`, docs/traces.md): each real datagram when
/// its transmission starts on the port, stamped with the model's time, in the port's Ethernet
/// framing. A frame the error model corrupts is captured too (the tap is at the transmitter),
/// its TCP checksum inverted so that it does not verify, as the simulator's captures mark it.
pub struct HopCaptures {
    writers: Vec<PcapWriter<BufWriter<File>>>,
    headers: Vec<[u8; ETHERNET_HEADER]>,
    frame: Vec<u8>,
    /// The files, in port order.
    pub paths: Vec<std::path::PathBuf>,
}

impl HopCaptures {
    /// One file per port of `net` in `dir`.
    pub fn create(dir: &Path, net: &net::Network, hop_names: &[String]) -> io::Result<Self> {
        let mut c = HopCaptures {
            writers: Vec::new(),
            headers: Vec::new(),
            frame: Vec::with_capacity(2048),
            paths: Vec::new(),
        };
        for p in net.ports() {
            let path = dir.join(lossylink::port_file_name(p, hop_names));
            c.writers
                .push(PcapWriter::new(BufWriter::new(File::create(&path)?))?);
            let mut h = [0u8; ETHERNET_HEADER];
            h[0..6].copy_from_slice(&lossylink::node_mac(p.to));
            h[6..12].copy_from_slice(&lossylink::node_mac(p.from));
            h[12..14].copy_from_slice(&0x0800u16.to_be_bytes());
            c.headers.push(h);
            c.paths.push(path);
        }
        Ok(c)
    }

    /// Record `frame`, whose datagram is `datagram`.
    pub fn record(&mut self, frame: &net::tap::TappedFrame, datagram: &[u8]) -> io::Result<()> {
        let i = frame.port.index();
        let (Some(w), Some(h)) = (self.writers.get_mut(i), self.headers.get(i)) else {
            return Ok(());
        };
        self.frame.clear();
        self.frame.extend_from_slice(h);
        self.frame.extend_from_slice(datagram);
        if frame.corrupted {
            // RFC 9293 §3.1: the checksum is bytes 16-17 of the TCP header.
            let ihl = usize::from(datagram.first().map_or(0, |b| b & 0x0f)) * 4;
            let at = ETHERNET_HEADER + ihl + 16;
            if datagram.get(9) == Some(&6) && at + 2 <= self.frame.len() {
                self.frame[at] ^= 0xff;
                self.frame[at + 1] ^= 0xff;
            }
        }
        w.frame(frame.start.as_nanos(), &self.frame, 0)
    }

    /// Flush the files.
    pub fn finish(self) -> io::Result<()> {
        for w in self.writers {
            w.finish()?;
        }
        Ok(())
    }
}
