//! Per-run metrics (Balakrishnan97 §3.8): throughput at the receiver, wired and wireless goodput,
//! and the counters behind them.

/// A metric value, for bindings and writers.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Integer.
    Int(i64),
    /// Real number.
    Float(f64),
    /// Text.
    Str(String),
    /// Flag.
    Bool(bool),
}

/// The metrics of one run. Field order is the column order of every output.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Scheme name.
    pub scheme: String,
    /// Scenario name.
    pub preset: String,
    /// Master seed.
    pub seed: u64,
    /// Mean bytes between bit errors on the wireless hop's data direction (0: none or not
    /// exponential).
    pub error_every_bytes: u64,
    /// Socket buffer (`tcp.buffer` as given; with `tcp.autotune = "linux"`, the linux profile's
    /// default, the endpoints' buffers are autotuned instead).
    pub buffer_bytes: u64,
    /// Transfer size.
    pub transfer_bytes: u64,
    /// delivered·8 / (last byte delivered − first byte sent), in 10^6 bit/s, where delivered
    /// is the transfer, or what arrived in order when the run ended before the flow completed.
    pub throughput_mbps: f64,
    /// 100 · delivered / payload bytes sent on the first wired hop of the path (0 if none).
    pub wired_goodput_pct: f64,
    /// 100 · delivered / payload bytes sent on the first wireless hop of the path (0 if none).
    pub wireless_goodput_pct: f64,
    /// Time of the last in-order delivery, seconds.
    pub completion_s: f64,
    /// Sender retransmission timeouts.
    pub sender_timeouts: u64,
    /// Sender fast retransmits.
    pub sender_fast_retransmits: u64,
    /// Bytes the sender sent more than once.
    pub sender_retransmitted_bytes: u64,
    /// Retransmissions by base-station agents.
    pub local_retransmissions: u64,
    /// Queue drops at base-station interfaces.
    pub bs_queue_drops: u64,
    /// Data frames corrupted anywhere.
    pub corrupted_data_frames: u64,
    /// ACK frames corrupted anywhere.
    pub corrupted_ack_frames: u64,
    /// Events processed.
    pub events: u64,
    /// Wall-clock seconds the run took.
    pub wall_s: f64,
    /// TCP profile.
    pub profile: String,
    /// Wireless data frames sent.
    pub wireless_data_frames: u64,
    /// Measured packet error rate of wireless data frames, percent.
    pub wireless_data_per_pct: f64,
    /// Data segments sent by the sender (retransmissions included).
    pub sender_segments: u64,
    /// Duplicate ACKs received by the sender.
    pub sender_dupacks: u64,
    /// ACKs sent by the receiver.
    pub receiver_acks: u64,
    /// Queue drops anywhere.
    pub queue_drops: u64,
    /// Simulated seconds when the first byte was sent.
    pub first_send_s: f64,
    /// Segments the sender sent more than once (each carried previously sent bytes).
    pub sender_retransmitted_segments: u64,
    /// Segments the sender's own interface queue dropped (ENOBUFS, Ludwig2000 §2.3).
    pub sender_local_drops: u64,
    /// Packets IP-stage hold hiccups intercepted and flushed at their end (Ludwig2000 §10.1).
    pub hiccup_intercepted: u64,
    /// Intercepted packets an expiring hold discarded (Ludwig2000 §4.1.4).
    pub hiccup_expired: u64,
    /// Timeouts the Eifel detector found spurious (Ludwig2000 §3.1).
    pub sender_spurious_timeouts: u64,
    /// Fast retransmits the Eifel detector found spurious.
    pub sender_spurious_fast_retransmits: u64,
    /// Timeouts whose segment the receiver already held when the timer fired (the original
    /// had arrived; its ACK had not): ground truth, whatever the sender detects.
    pub sender_timeouts_after_arrival: u64,
    /// Segments the receiver got that carried only bytes it already had (needless
    /// retransmissions that reached it).
    pub receiver_duplicate_segments: u64,
    /// ACKs the receiver sent with the ELN mark.
    pub receiver_eln_acks: u64,
    /// Duplicate ACKs a base-station agent absorbed.
    pub bs_dupacks_suppressed: u64,
    /// Duplicate ACKs a base-station agent forwarded because it did not hold the missing
    /// segment (lost upstream) or the sender had retransmitted it.
    pub bs_dupacks_forwarded_uncached: u64,
    /// Local retransmissions triggered by duplicate ACKs or SMART holes.
    pub bs_dupack_retransmissions: u64,
    /// Local retransmissions triggered by the base station's local timer.
    pub bs_timer_retransmissions: u64,
    /// Local retransmissions triggered by snoop's partial-ACK rule.
    pub bs_partial_ack_retransmissions: u64,
    /// ACKs the base station marked with ELN.
    pub bs_eln_marks: u64,
    /// Seconds the source had data ready but its peer's advertised window was full while its
    /// cwnd and send buffer allowed more (with a split proxy: a full relay buffer).
    pub source_stalled_s: f64,
    /// The longest such stall, seconds.
    pub source_longest_stall_s: f64,
    /// Split-connection runs: payload bytes the fixed host sent on the wired leg (0 otherwise).
    pub wired_bytes_sent: u64,
    /// Split: segments the fixed host retransmitted.
    pub wired_retransmissions: u64,
    /// Split: retransmission timeouts of the fixed host.
    pub wired_timeouts: u64,
    /// Split: payload bytes the proxy sent on the wireless leg.
    pub wireless_bytes_sent: u64,
    /// Split: segments the proxy retransmitted on the wireless leg.
    pub wireless_retransmissions: u64,
    /// Split: retransmission timeouts of the wireless leg.
    pub wireless_timeouts: u64,
    /// Split: fast retransmits (or SMART loss episodes) of the wireless leg.
    pub wireless_fast_retransmits: u64,
    /// Split: the fullest the relay buffer got, bytes.
    pub relay_max_bytes: u64,
    /// Link-level ACK frames sent on the air (link ARQ; not counted as TCP ACK frames).
    pub link_ack_frames: u64,
    /// Link-level ACK frames corrupted (not in `corrupted_ack_frames`).
    pub corrupted_link_ack_frames: u64,
    /// Frames the link ARQ gave up after its retransmission limit.
    pub link_frames_given_up: u64,
    /// Frames the mobile's link receiver held back for in-order delivery.
    pub link_frames_held: u64,
    /// Duplicate link frames the mobile's link receiver discarded (needless link
    /// retransmissions).
    pub link_duplicate_frames: u64,
    /// Fast retransmits Eifel suppressed: the third duplicate ACK came after a timeout had
    /// already resent the segment (Ludwig2000 §3.1.2, `tcp.eifel_late_dupack`).
    pub sender_suppressed_fast_retransmits: u64,
    /// Tail loss probes the sender sent (RACK-TLP, RFC 8985 §7).
    pub sender_tlp_probes: u64,
    /// LL-ELSN: loss notifications the link layers sent (eln-llelsn spec §4.1).
    pub elsn_elns_sent: u64,
    /// LL-ELSN: retransmission-start notifications the link layers sent (§4.2).
    pub elsn_ersns_sent: u64,
    /// ELNs that reached the sender.
    pub sender_elns: u64,
    /// ... of which ESACK filtered (consecutive ELNs, §4.3).
    pub sender_elns_filtered: u64,
    /// ERSNs that restarted the sender's retransmission timer.
    pub sender_ersn_restarts: u64,
    /// The GSM RLP link's counters, when the path has one (their columns appear only then).
    pub gsm: Option<GsmMetrics>,
    /// The flow's ECN counters, when it negotiates ECN (`tcp.ecn`; their columns appear only
    /// then).
    pub ecn: Option<EcnMetrics>,
}

/// A flow's RFC 3168 ECN counters, with RFC 8511 ABE's share of the responses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EcnMetrics {
    /// ACKs that reached the sender with ECE.
    pub ece_acks: u64,
    /// The sender's window reductions in answer to ECE (at most one per window of data).
    pub responses: u64,
    /// Of those, the ones by ABE's β_ecn (`tcp.abe`).
    pub abe_responses: u64,
    /// Data segments that reached the receiver marked CE.
    pub ce_received: u64,
}

impl EcnMetrics {
    /// The counters of a sender and its receiver.
    pub(crate) fn of(s: &tcp::SenderStats, r: &tcp::ReceiverStats) -> Self {
        Self {
            ece_acks: s.ece_acks,
            responses: s.ecn_responses,
            abe_responses: s.abe_responses,
            ce_received: r.ce_received,
        }
    }

    /// Name/value pairs (the columns `sender_ece_acks`, `sender_ecn_responses`,
    /// `sender_abe_responses`, `receiver_ce_received`).
    pub fn to_pairs(&self) -> [(&'static str, Value); 4] {
        let i = |v: u64| Value::Int(v.min(i64::MAX as u64) as i64);
        [
            ("sender_ece_acks", i(self.ece_acks)),
            ("sender_ecn_responses", i(self.responses)),
            ("sender_abe_responses", i(self.abe_responses)),
            ("receiver_ce_received", i(self.ce_received)),
        ]
    }
}

/// Counters of a run's GSM-CSD links (Ludwig2000 §4.2), summed over both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct GsmMetrics {
    /// RLP frames sent for the first time.
    pub rlp_frames: u64,
    /// RLP frames sent again after an erasure.
    pub rlp_retransmissions: u64,
    /// Link resets (a frame erased more than N2 times).
    pub rlp_resets: u64,
    /// Packets a reset flushed.
    pub rlp_flushed_packets: u64,
    /// Packets whose VJ-compressed header decompressed wrong after a reset.
    pub vj_discards: u64,
    /// L2R XOFF gaps.
    pub l2r_gaps: u64,
    /// The data direction's utilization, % (Ludwig2000 §3.1.2, §3.2.2: 1 - (RLP idle time +
    /// link time of data sent in vain: spurious TCP retransmissions and packets the far end's
    /// header decompressor discarded) / transfer time).
    pub utilization_pct: f64,
    /// The points of utilization the packets the header decompressor discarded cost (their
    /// link time / transfer time, %): `utilization_pct` plus this counts them as useful.
    pub vj_discard_pct: f64,
}

impl Metrics {
    /// Name/value pairs in a stable order (the JSON and table column order).
    pub fn to_pairs(&self) -> Vec<(&'static str, Value)> {
        use Value::*;
        let i = |v: u64| Int(v.min(i64::MAX as u64) as i64);
        let mut pairs = vec![
            ("scheme", Str(self.scheme.clone())),
            ("preset", Str(self.preset.clone())),
            ("seed", i(self.seed)),
            ("error_every_bytes", i(self.error_every_bytes)),
            ("buffer_bytes", i(self.buffer_bytes)),
            ("transfer_bytes", i(self.transfer_bytes)),
            ("throughput_mbps", Float(self.throughput_mbps)),
            ("wired_goodput_pct", Float(self.wired_goodput_pct)),
            ("wireless_goodput_pct", Float(self.wireless_goodput_pct)),
            ("completion_s", Float(self.completion_s)),
            ("sender_timeouts", i(self.sender_timeouts)),
            ("sender_fast_retransmits", i(self.sender_fast_retransmits)),
            (
                "sender_retransmitted_bytes",
                i(self.sender_retransmitted_bytes),
            ),
            ("local_retransmissions", i(self.local_retransmissions)),
            ("bs_queue_drops", i(self.bs_queue_drops)),
            ("corrupted_data_frames", i(self.corrupted_data_frames)),
            ("corrupted_ack_frames", i(self.corrupted_ack_frames)),
            ("events", i(self.events)),
            ("wall_s", Float(self.wall_s)),
            ("profile", Str(self.profile.clone())),
            ("wireless_data_frames", i(self.wireless_data_frames)),
            ("wireless_data_per_pct", Float(self.wireless_data_per_pct)),
            ("sender_segments", i(self.sender_segments)),
            ("sender_dupacks", i(self.sender_dupacks)),
            ("receiver_acks", i(self.receiver_acks)),
            ("queue_drops", i(self.queue_drops)),
            ("first_send_s", Float(self.first_send_s)),
            (
                "sender_retransmitted_segments",
                i(self.sender_retransmitted_segments),
            ),
            ("sender_local_drops", i(self.sender_local_drops)),
            ("hiccup_intercepted", i(self.hiccup_intercepted)),
            ("hiccup_expired", i(self.hiccup_expired)),
            ("sender_spurious_timeouts", i(self.sender_spurious_timeouts)),
            (
                "sender_spurious_fast_retransmits",
                i(self.sender_spurious_fast_retransmits),
            ),
            (
                "sender_timeouts_after_arrival",
                i(self.sender_timeouts_after_arrival),
            ),
            (
                "receiver_duplicate_segments",
                i(self.receiver_duplicate_segments),
            ),
            ("receiver_eln_acks", i(self.receiver_eln_acks)),
            ("bs_dupacks_suppressed", i(self.bs_dupacks_suppressed)),
            (
                "bs_dupacks_forwarded_uncached",
                i(self.bs_dupacks_forwarded_uncached),
            ),
            (
                "bs_dupack_retransmissions",
                i(self.bs_dupack_retransmissions),
            ),
            ("bs_timer_retransmissions", i(self.bs_timer_retransmissions)),
            (
                "bs_partial_ack_retransmissions",
                i(self.bs_partial_ack_retransmissions),
            ),
            ("bs_eln_marks", i(self.bs_eln_marks)),
            ("source_stalled_s", Float(self.source_stalled_s)),
            ("source_longest_stall_s", Float(self.source_longest_stall_s)),
            ("wired_bytes_sent", i(self.wired_bytes_sent)),
            ("wired_retransmissions", i(self.wired_retransmissions)),
            ("wired_timeouts", i(self.wired_timeouts)),
            ("wireless_bytes_sent", i(self.wireless_bytes_sent)),
            ("wireless_retransmissions", i(self.wireless_retransmissions)),
            ("wireless_timeouts", i(self.wireless_timeouts)),
            (
                "wireless_fast_retransmits",
                i(self.wireless_fast_retransmits),
            ),
            ("relay_max_bytes", i(self.relay_max_bytes)),
            ("link_ack_frames", i(self.link_ack_frames)),
            (
                "corrupted_link_ack_frames",
                i(self.corrupted_link_ack_frames),
            ),
            ("link_frames_given_up", i(self.link_frames_given_up)),
            ("link_frames_held", i(self.link_frames_held)),
            ("link_duplicate_frames", i(self.link_duplicate_frames)),
            (
                "sender_suppressed_fast_retransmits",
                i(self.sender_suppressed_fast_retransmits),
            ),
            ("sender_tlp_probes", i(self.sender_tlp_probes)),
            ("elsn_elns_sent", i(self.elsn_elns_sent)),
            ("elsn_ersns_sent", i(self.elsn_ersns_sent)),
            ("sender_elns", i(self.sender_elns)),
            ("sender_elns_filtered", i(self.sender_elns_filtered)),
            ("sender_ersn_restarts", i(self.sender_ersn_restarts)),
        ];
        if let Some(g) = &self.gsm {
            pairs.extend([
                ("rlp_frames", i(g.rlp_frames)),
                ("rlp_retransmissions", i(g.rlp_retransmissions)),
                ("rlp_resets", i(g.rlp_resets)),
                ("rlp_flushed_packets", i(g.rlp_flushed_packets)),
                ("vj_discards", i(g.vj_discards)),
                ("l2r_gaps", i(g.l2r_gaps)),
                ("utilization_pct", Float(g.utilization_pct)),
                ("vj_discard_pct", Float(g.vj_discard_pct)),
            ]);
        }
        if let Some(e) = &self.ecn {
            pairs.extend(e.to_pairs());
        }
        pairs
    }
}
