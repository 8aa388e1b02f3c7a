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
