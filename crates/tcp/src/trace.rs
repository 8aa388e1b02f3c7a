//! Sender trace events and counters.

use crate::recovery::Phase;

/// One typed record of the sender's trace. Sequence values are stream offsets (bytes since
/// the first data byte), convenient for plotting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenderEvent {
    /// A data segment left the sender.
    Sent {
        /// Stream offset of the first byte.
        seq: u64,
        /// Payload bytes.
        len: u32,
        /// Whether any of it had been sent before.
        retransmission: bool,
    },
    /// A cumulative ACK advanced `snd_una` to `ack`.
    Acked {
        /// New `snd_una`.
        ack: u64,
    },
    /// Fast retransmit of the segment at `seq`.
    FastRetransmit {
        /// Stream offset retransmitted.
        seq: u64,
    },
    /// Coarse (retransmission) timeout; `backoff` is the shift after it.
    Timeout {
        /// Stream offset to be resent.
        seq: u64,
        /// Backoff shift after the timeout.
        backoff: u32,
    },
    /// The host's own interface queue dropped the segment at `seq` (ENOBUFS).
    LocalDrop {
        /// Stream offset of the dropped segment.
        seq: u64,
    },
    /// Eifel judged the last retransmission spurious and restored the window; `ack` is the
    /// new `snd_una`.
    SpuriousUndo {
        /// New `snd_una`.
        ack: u64,
    },
    /// Eifel suppressed the fast retransmit of the segment at `seq`: its third duplicate ACK
    /// arrived after a timeout had already resent it (Ludwig2000 §3.1.2, Q3).
    SuppressedFastRetransmit {
        /// Stream offset whose fast retransmit was suppressed.
        seq: u64,
    },
    /// A tail loss probe is due (RFC 8985 §7.3); `seq` is `snd_max`.
    LossProbe {
        /// `snd_max` when the probe timer fired.
        seq: u64,
    },
    /// An ACK showed that a retransmitted probe repaired a loss (RFC 8985 §7.4); the window
    /// was reduced once.
    LossProbeRecovery {
        /// The cumulative ACK.
        ack: u64,
    },
    /// The estimator took a round-trip sample (every ACK of new data with timestamps, the
    /// timed segment's ACK without): the round trip as the estimator saw it (on the timestamp
    /// clock with timestamps), the RTO after it, and when the retransmission timer, re-armed
    /// on this ACK, expires (0 when nothing is outstanding). Ludwig2000 §5.3 (S9).
    RttSample {
        /// The sample, nanoseconds.
        rtt_ns: u64,
        /// The RTO after the sample, nanoseconds.
        rto_ns: u64,
        /// The retransmission timer's deadline after this ACK (0: stopped).
        rexmt_at_ns: u64,
    },
    /// The SYN left (`SenderConfig::syn`), first or again after its timer expired.
    Syn {
        /// Whether a SYN had been sent before.
        retransmission: bool,
    },
    /// The SYN's timer expired; `backoff` is the shift after it.
    SynTimeout {
        /// Backoff shift after the expiry.
        backoff: u32,
    },
    /// The SYN-ACK arrived: the connection is open.
    Established,
    /// Window state after an input was processed.
    Window {
        /// Congestion window, bytes.
        cwnd: u32,
        /// Slow-start threshold, bytes.
        ssthresh: u32,
        /// Oldest unacked stream offset.
        snd_una: u64,
        /// Next stream offset to send.
        snd_nxt: u64,
        /// Current RTO in nanoseconds.
        rto_ns: u64,
        /// Recovery phase.
        phase: Phase,
    },
}

/// Always-on sender counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Payload bytes sent, retransmissions included.
    pub bytes_sent: u64,
    /// Segments that carried previously sent bytes.
    pub retransmitted_segments: u64,
    /// Previously sent bytes sent again.
    pub retransmitted_bytes: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Fast retransmits.
    pub fast_retransmits: u64,
    /// Segments the host's own interface queue dropped (ENOBUFS), retransmissions included.
    pub local_drops: u64,
    /// Timeouts Eifel found spurious.
    pub spurious_timeouts: u64,
    /// Fast retransmits Eifel found spurious.
    pub spurious_fast_retransmits: u64,
    /// Fast retransmits Eifel suppressed because a timeout had already resent the segment
    /// (the late third duplicate ACK, Ludwig2000 §3.1.2).
    pub suppressed_fast_retransmits: u64,
    /// Duplicate ACKs received.
    pub dupacks_received: u64,
    /// Nanoseconds during which ready data was held back by a full peer window while cwnd and
    /// the send buffer would have allowed more (receiver-limited time).
    pub peer_window_stalled_ns: u64,
    /// The longest such period, nanoseconds.
    pub longest_peer_window_stall_ns: u64,
    /// Tail loss probes sent (RFC 8985 §7).
    pub tlp_probes: u64,
    /// Retransmitted probes found to have repaired a loss (one window reduction each).
    pub tlp_recoveries: u64,
    /// LL-ELSN loss notifications received (eln-llelsn spec §4.1).
    pub elns_received: u64,
    /// ... of which ESACK filtered as part of a run of consecutive ELNs (§4.3).
    pub elns_filtered: u64,
    /// LL-ELSN retransmission-start notifications received (§4.2).
    pub ersns_received: u64,
    /// ... of which restarted the retransmission timer (the segment was outstanding).
    pub ersn_timer_restarts: u64,
    /// When the first data byte was sent.
    pub first_send: Option<engine::SimTime>,
    /// Expiries of the SYN's timer (`SenderConfig::syn`).
    pub syn_timeouts: u64,
    /// When the SYN-ACK arrived, nanoseconds (0: no handshake).
    pub connect_ns: u64,
    /// ACKs that carried ECE (RFC 3168).
    pub ece_acks: u64,
    /// Window reductions in answer to ECE (at most one per window of data).
    pub ecn_responses: u64,
    /// Of those, reductions by RFC 8511 ABE's β_ecn (`SenderConfig::abe`).
    pub abe_responses: u64,
}
