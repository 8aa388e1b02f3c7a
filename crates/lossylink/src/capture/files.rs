//! What a capture run wrote: each file, the view of its port it holds, and its counts, taken
//! as the records are written (capture/mod.rs writes them, capture/index.rs lists them).

use engine::PortId;

/// What a capture file shows of its port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileView {
    /// Every frame whose transmission started on a point-to-point (or shared, non-802.11)
    /// port, with Ethernet framing.
    Link,
    /// Every attempt of an 802.11 DCF member and the far end's MAC ACKs, with radiotap + 802.11
    /// framing.
    Ieee80211,
    /// The frames the far end of an 802.11 DCF port took, once each, with Ethernet framing.
    Ip,
}

impl FileView {
    pub(crate) fn key(self) -> &'static str {
        match self {
            FileView::Link => "link",
            FileView::Ieee80211 => "802.11",
            FileView::Ip => "ip",
        }
    }

    pub(crate) fn link_type(self) -> &'static str {
        match self {
            FileView::Ieee80211 => "ieee802_11_radiotap",
            FileView::Link | FileView::Ip => "ethernet",
        }
    }

    pub(crate) fn holds(self) -> &'static str {
        match self {
            FileView::Link => {
                "every frame whose transmission started on the link, retransmissions and \
                 corrupted frames (bad TCP checksum) included; queue drops absent"
            }
            FileView::Ieee80211 => {
                "every 802.11 attempt (Retry bit on MAC retries, bad-FCS flag on corrupted \
                 frames) and the far end's MAC ACKs"
            }
            FileView::Ip => {
                "the frames the far end took, once each, as Ethernet: TCP's retransmissions \
                 and nothing of the MAC's"
            }
        }
    }
}

/// What was written into one file, counted as it was written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// Records in the file.
    pub frames: u64,
    /// Records carrying an IP packet (all but MAC ACKs).
    pub data_frames: u64,
    /// Data records with the 802.11 Retry bit.
    pub retries: u64,
    /// Control frame records: MAC ACKs, Block Acks and BlockAckReqs.
    pub mac_acks: u64,
    /// Records marked corrupted (a TCP/UDP checksum that fails; on 802.11 also the bad-FCS flag).
    pub corrupted: u64,
    /// Earliest and latest record timestamp, microseconds (as written: truncated).
    pub span_us: Option<(u64, u64)>,
}

impl FileCounts {
    /// Count one record stamped `time_ns`.
    pub(crate) fn record(&mut self, time_ns: u64, data: bool, retry: bool, corrupted: bool) {
        let us = time_ns / 1_000;
        self.frames += 1;
        self.data_frames += u64::from(data);
        self.mac_acks += u64::from(!data);
        self.retries += u64::from(retry);
        self.corrupted += u64::from(corrupted);
        self.span_us = Some(match self.span_us {
            None => (us, us),
            Some((a, b)) => (a.min(us), b.max(us)),
        });
    }
}

/// One file the run wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFile {
    /// File name inside the directory.
    pub file_name: String,
    /// The port it captures.
    pub port: PortId,
    /// What it shows of the port.
    pub view: FileView,
    /// What it holds.
    pub counts: FileCounts,
}
