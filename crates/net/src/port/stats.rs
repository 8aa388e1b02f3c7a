//! A port's always-on counters (crate::port).

/// Always-on counters of one port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortStats {
    /// Data frames whose transmission started.
    pub data_frames: u64,
    /// Payload bytes of those data frames (retransmissions and corrupted frames included).
    pub data_payload_bytes: u64,
    /// ACK frames whose transmission started.
    pub ack_frames: u64,
    /// All bytes on the wire (IP + framing).
    pub wire_bytes: u64,
    /// Data frames corrupted by the error model.
    pub corrupted_data: u64,
    /// ACK frames corrupted by the error model.
    pub corrupted_acks: u64,
    /// Runs of consecutive corrupted data frames (a corrupted data frame after an intact one,
    /// or the first): `corrupted_data / corrupted_data_runs` is the realised loss-run length
    /// in data frames of this direction.
    pub corrupted_data_runs: u64,
    /// Whether the last data frame was corrupted (for the runs).
    pub last_data_corrupted: bool,
    /// Corrupted TCP frames whose header was hit, drawn for receivers that identify a frame's
    /// connection by its header (TCP-ELN's HACK identification).
    pub header_hits: u64,
    /// Data packets marked with TCP-Jersey's congestion warning.
    pub cw_marks: u64,
    /// Packets dropped because the queue was full.
    pub queue_drops: u64,
    /// Longest queue seen, in packets.
    pub max_queue: u32,
    /// Total airtime used, in nanoseconds (a frame still on the air counted whole: see
    /// [`Port::busy_ns_until`]).
    pub busy_ns: u64,
    /// When the airtime counted last ends, in nanoseconds since the start.
    pub busy_until_ns: u64,
    /// Data frames a reorder hiccup held back and sent late.
    pub reordered: u64,
    /// Packets an IP-stage hold hiccup intercepted (and flushed into the queue at its end).
    pub intercepted: u64,
    /// Intercepted packets an expiring hold discarded.
    pub hiccup_expired: u64,
    /// Link-level ACK frames (of a link ARQ) whose transmission started; not in `ack_frames`.
    pub link_ack_frames: u64,
    /// Link-level ACK frames corrupted by the error model; not in `corrupted_acks`.
    pub corrupted_link_acks: u64,
    /// UDP datagrams whose transmission started (background traffic; not in the TCP counts).
    pub udp_frames: u64,
    /// Payload bytes of those datagrams.
    pub udp_payload_bytes: u64,
    /// UDP datagrams corrupted by the error model.
    pub corrupted_udp: u64,
    /// MAC ACK frames sent on this direction by an 802.11 MAC (crate::medium::dcf).
    pub mac_ack_frames: u64,
    /// Of those, corrupted by the error model.
    pub corrupted_mac_acks: u64,
    /// Frames the MAC of this direction gave up after its last retry.
    pub mac_drops: u64,
    /// MAC attempts the channel corrupted (each retried or, after the last, a `mac_drop`).
    pub mac_errors: u64,
    /// A DCF access point's port (crate::ifq): the time its packets waited in the queue before
    /// the MAC took them, summed, ns (head-of-line blocking behind another station's retries
    /// shows here), from the measurement window's start (`run.warmup`) on.
    pub queue_wait_ns: u64,
    /// Packets counted in `queue_wait_ns`.
    pub queue_waited: u64,
}
