//! The settings, counters and event-log entries of the GSM RLP medium (crate
//! `medium::gsm`; Ludwig2000 §2.4, §3.2.5, §4.2).

use engine::{SimDuration, SimTime};
use std::sync::Arc;

/// L2R flow control from the remote side (Ludwig2000 §3.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2rConfig {
    /// The rate the remote side drains the link at, user bytes per second (960).
    pub rate: u32,
    /// Shortest XOFF gap (950 ms).
    pub gap_min: SimDuration,
    /// Longest XOFF gap (1300 ms).
    pub gap_max: SimDuration,
    /// Which realization of the gaps: 0 the run's seed's, n > 0 the n-th fixed one, the same
    /// for every seed (a campaign's runs each with their own).
    pub draw: u32,
}

/// The service classes of the flow-adaptive link layer (Ludwig2000 §4.1.2, spec §3.7; the
/// real-time classes' error resilience is not modelled: both are `RealTime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ServiceClass {
    /// Fully reliable, throughput-dominated (bulk transfer).
    Bulk,
    /// Fully reliable, delay-dominated (interactive: telnet, a web request).
    Interactive,
    /// Real-time: given up once late.
    RealTime,
}

impl ServiceClass {
    /// All classes, in the index order of [`FlowAdaptive::policies`].
    pub const ALL: [ServiceClass; 3] = [
        ServiceClass::Bulk,
        ServiceClass::Interactive,
        ServiceClass::RealTime,
    ];

    /// Its name in scenarios.
    pub fn name(self) -> &'static str {
        match self {
            ServiceClass::Bulk => "bulk",
            ServiceClass::Interactive => "interactive",
            ServiceClass::RealTime => "realtime",
        }
    }

    /// Its index in [`FlowAdaptive::policies`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How the link treats one class's bytes (§4.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassPolicy {
    /// How long after its first transmission an erased frame of the class may still be resent.
    /// Past it, a fully-reliable class resets the link (RLP can do nothing else); a real-time
    /// class gives its packets up (discarded at the far end), with no reset.
    pub persistency: SimDuration,
    /// Its packets wait for every earlier packet of any flow (RLP as GSM runs it); `false`:
    /// they leave as soon as they and their own flow's earlier packets are in (§4.1.2).
    pub in_order: bool,
    /// Scheduling priority at the RLP sender, 0 first: a new frame carrying bytes of a class
    /// of a better priority than every due retransmission goes before them.
    pub priority: u8,
}

/// The flow-adaptive link layer of Ludwig2000 §4.1 (spec §3.7, §7.1 item 9): each packet's
/// class sets RLP's persistency for its bytes, whether it may leave the link ahead of other
/// flows' packets, and its scheduling priority. The class comes from the DS codepoint the
/// packet's flow marks (the signalling §4.1.1 proposes; the dissertation defines no
/// codepoints, spec Q18, so the mapping is configurable), or, for an unmarked or unmapped
/// flow, from the IP protocol, the "layer-violating trick" of [LR99]: TCP bulk, UDP real-time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowAdaptive {
    /// The policy of each class, indexed by [`ServiceClass::index`].
    pub policies: [ClassPolicy; 3],
    /// Codepoint to class.
    pub codepoints: Arc<[(u8, ServiceClass)]>,
    /// The codepoint each marked flow's packets carry: (flow, TCP (not UDP), codepoint).
    pub marks: Arc<[(engine::FlowId, bool, u8)]>,
}

impl FlowAdaptive {
    /// The class of a packet of `flow` (`tcp`: a TCP segment, else UDP).
    pub fn class(&self, flow: engine::FlowId, tcp: bool) -> ServiceClass {
        let ds = self
            .marks
            .iter()
            .find(|m| m.0 == flow && m.1 == tcp)
            .map(|m| m.2);
        let mapped = ds.and_then(|d| self.codepoints.iter().find(|c| c.0 == d).map(|c| c.1));
        match (mapped, tcp) {
            (Some(c), _) => c,
            (None, true) => ServiceClass::Bulk,
            (None, false) => ServiceClass::RealTime,
        }
    }

    /// The policy of `class`.
    pub fn policy(&self, class: ServiceClass) -> ClassPolicy {
        self.policies[class.index()]
    }
}

/// The dissertation's classes (§4.1.2): both fully-reliable classes persist up to the MSL
/// (120 s), real-time bytes are given up past 50 ms, and every class may leave ahead of other
/// flows' packets. The interactive class is scheduled first (its "lowest per-packet delay";
/// the dissertation names stronger FEC, which GSM's fixed channel coding cannot give here);
/// real-time frames, never resent at RLP's 400 ms round trip, keep the common priority. Codepoints [P] (the
/// dissertation gives none, spec Q18; these follow RFC 4594's service classes): AF11 (10)
/// bulk, AF21 (18) interactive ("low-latency data"), EF (46) real-time.
impl Default for FlowAdaptive {
    fn default() -> Self {
        let reliable = ClassPolicy {
            persistency: SimDuration::from_secs(120),
            in_order: false,
            priority: 1,
        };
        FlowAdaptive {
            policies: [
                reliable,
                ClassPolicy {
                    priority: 0,
                    ..reliable
                },
                ClassPolicy {
                    persistency: SimDuration::from_millis(50),
                    in_order: false,
                    priority: 1,
                },
            ],
            codepoints: Arc::from(
                &[
                    (10, ServiceClass::Bulk),
                    (18, ServiceClass::Interactive),
                    (46, ServiceClass::RealTime),
                ][..],
            ),
            marks: Arc::from(&[][..]),
        }
    }
}

/// A handover of the mobile between cells (Ludwig2000 §2.4.2, spec §7.1 item 11, S13): the
/// radio channel is interrupted from `at` for `duration`. In GSM-CSD only data on the air
/// interface can be lost (the queues are before the anchor point, the IWF, and RLP ends there);
/// a `lossless` handover holds the RLP sender for the interruption (the data is late, nothing
/// is lost), a lossy one loses every frame sent in it (the blocks are erased: RLP resends them,
/// or resets after N2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handover {
    /// When the interruption starts.
    pub at: SimTime,
    /// How long it lasts.
    pub duration: SimDuration,
    /// Whether the air interface's data survives it.
    pub lossless: bool,
}

impl Handover {
    /// Whether `t` falls in the interruption.
    pub fn covers(&self, t: SimTime) -> bool {
        t >= self.at && t < self.at + self.duration
    }
}

/// A link's handovers in time order, none overlapping the next (checked where the scenario is
/// built, crate `lossylink`'s `gsm.handovers`). Shared, so the settings stay cheap to clone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handovers(Arc<[Handover]>);

impl Handovers {
    /// `list` as given, if it is in time order with no interruption overlapping the next;
    /// otherwise the index of the first one that starts before the previous one ended.
    pub fn new(list: Vec<Handover>) -> Result<Self, usize> {
        if let Some(i) =
            (1..list.len()).find(|&i| list[i].at < list[i - 1].at + list[i - 1].duration)
        {
            return Err(i);
        }
        Ok(Handovers(list.into()))
    }

    /// All of them, in time order.
    pub fn as_slice(&self) -> &[Handover] {
        &self.0
    }

    /// The handover whose interruption covers `t`, if any (a binary search: the list is in
    /// time order and its intervals are disjoint).
    pub fn at(&self, t: SimTime) -> Option<&Handover> {
        let i = self.0.partition_point(|h| h.at <= t);
        i.checked_sub(1).map(|i| &self.0[i]).filter(|h| h.covers(t))
    }
}

/// What is fixed for a GSM-CSD link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsmConfig {
    /// One radio block (20 ms).
    pub block: SimDuration,
    /// RLP frame bytes, overhead included (30).
    pub frame_bytes: u32,
    /// RLP and L2R overhead per frame (6).
    pub overhead: u32,
    /// From a frame's transmission to its retransmission after an erasure (400 ms).
    pub rlp_rtt: SimDuration,
    /// Retransmissions of one frame before a reset; `None`: unlimited.
    pub n2: Option<u32>,
    /// L2R throttling, if any.
    pub l2r: Option<L2rConfig>,
    /// PPP framing bytes per packet (7).
    pub ppp_overhead: u32,
    /// TCP/IP header compression at both PPP ends: VJ (RFC 1144), or RFC 2507 with `twice`.
    pub vj: bool,
    /// With `vj`: RFC 2507's decompressor, which repairs one lost delta (the twice algorithm).
    pub twice: bool,
    /// With `twice`: RFC 2507's header request; a context the decompressor cannot repair is
    /// named in a one-frame request over the reverse channel, answered with a full header.
    pub header_request: bool,
    /// One-way delay between the link's ends (interleaving, 90 ms): the request's trip.
    pub delay: SimDuration,
    /// The flow-adaptive link layer (per-class persistency, out-of-order delivery across
    /// flows); `None`: RLP as GSM runs it (one persistency, in-order delivery).
    pub adaptive: Option<FlowAdaptive>,
    /// Handovers, in time order.
    pub handovers: Handovers,
    /// A reset is the link's (`true`, GSM's RLP): when one direction gives up on a frame, the
    /// other flushes its buffers too. `false`: each direction resets alone (the counterfactual).
    pub link_reset: bool,
}

impl Default for GsmConfig {
    fn default() -> Self {
        GsmConfig {
            block: SimDuration::from_millis(20),
            frame_bytes: 30,
            overhead: 6,
            rlp_rtt: SimDuration::from_millis(400),
            n2: Some(6),
            l2r: None,
            ppp_overhead: 7,
            vj: false,
            twice: false,
            header_request: false,
            delay: SimDuration::ZERO,
            adaptive: None,
            handovers: Handovers::default(),
            link_reset: true,
        }
    }
}

/// Counters of one direction of a GSM link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GsmStats {
    /// RLP frames sent (first transmissions).
    pub frames: u64,
    /// RLP frames sent again after an erasure.
    pub retransmissions: u64,
    /// Blocks that carried a frame and were erased.
    pub erased: u64,
    /// Link resets (a frame erased more than N2 times).
    pub resets: u64,
    /// Packets a reset flushed (discarded by PPP's FCS at the far end).
    pub flushed: u64,
    /// Packets discarded at the far end because their compressed header decompressed wrong.
    pub vj_discards: u64,
    /// Wire bytes (PPP framing included) of the packets in `vj_discards`: RLP carried them
    /// intact and the far end discarded them.
    pub discarded_bytes: u64,
    /// L2R XOFF gaps.
    pub xoff_gaps: u64,
    /// User bytes delivered in order.
    pub delivered_bytes: u64,
    /// Time of XOFF gaps, nanoseconds.
    pub xoff_ns: u64,
    /// Start of the first frame and end of the last (zero before any frame).
    pub first_ns: u64,
    /// End of the last frame.
    pub last_ns: u64,
    /// Flow-adaptive: real-time packets given up after an erasure.
    pub realtime_dropped: u64,
    /// Flow-adaptive: packets handed over ahead of an earlier packet of another flow.
    pub out_of_order: u64,
    /// RFC 2507 header requests that reached the compressor.
    pub header_requests: u64,
    /// RFC 2507 header requests lost on the reverse channel (erased more than N2 times).
    pub header_requests_lost: u64,
    /// Resets of the other direction this one followed (a link-wide reset flushed its
    /// buffers; not counted in `resets`).
    pub peer_resets: u64,
}

impl GsmStats {
    /// Dissertation §3.2.2 (spec §4.4): the share of the time from the first frame to the last
    /// that the RLP sender was busy or held back by L2R, before TCP's spurious retransmissions
    /// are taken off (the caller's part).
    pub fn busy_share(&self, block: SimDuration) -> f64 {
        let span = self.last_ns.saturating_sub(self.first_ns);
        if span == 0 {
            return 0.0;
        }
        (self.busy_ns(block) as f64 / span as f64).min(1.0)
    }

    fn busy_ns(&self, block: SimDuration) -> u64 {
        (self.frames + self.retransmissions) * block.as_nanos() + self.xoff_ns
    }

    /// The share of the span that `frames` frames of new data cost this direction: each new
    /// frame's part of the busy time, its RLP retransmissions and its share of L2R's XOFF gaps
    /// included (held to 960 B/s, a frame of 24 bytes costs 25 ms of link time, not the 20 ms
    /// of its block). What the airtime of data sent in vain (a segment the receiver got twice,
    /// a packet the far end's decompressor discarded) takes off the utilization.
    pub fn frames_share(&self, block: SimDuration, frames: f64) -> f64 {
        let span = self.last_ns.saturating_sub(self.first_ns);
        if span == 0 || self.frames == 0 {
            return 0.0;
        }
        frames * (self.busy_ns(block) as f64 / self.frames as f64) / span as f64
    }
}

/// What an RLP event log entry records (rlpdump's events, Ludwig2000 §3.5; the curves of the
/// multi-layer plot, spec §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RlpKind {
    /// A frame's first transmission (`RlpSnd_Data`).
    Data,
    /// A retransmission after an erasure (`RlpSnd_Xmit`).
    Xmit,
    /// L2R stops the sender (`RlpRcv_XOFF`).
    Xoff,
    /// L2R lets it go again (`RlpRcv_XON`).
    Xon,
    /// A link reset (`RlpSnd_Rst`).
    Reset,
}

/// One entry of the RLP event log: when, what, and the end of the frame's bytes in the RLP
/// byte stream (PPP framing, IP and TCP headers included; the stream is the link's, not the
/// TCP sequence space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlpEvent {
    /// When it happened (a frame: the start of its block).
    pub at: SimTime,
    /// What happened.
    pub kind: RlpKind,
    /// Stream offset: the end of the frame's bytes (the stream position for XOFF/XON/reset).
    pub offset: u64,
}
