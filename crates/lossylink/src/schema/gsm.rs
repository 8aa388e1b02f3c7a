//! `medium = "gsm-csd"` hops: a GSM circuit-switched data link with RLP (crate
//! `net::medium::gsm`; Ludwig2000 §2.4, §3.2.5, §4.2). Defaults are the dissertation's.

use crate::units::Dur;
use serde::{Deserialize, Serialize};

/// The `gsm = { ... }` table of a GSM hop.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GsmDoc {
    /// Retransmissions of one RLP frame before the link resets (6, GSM's default N2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n2: Option<u32>,
    /// Never reset (an infinitely persistent RLP; false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reliable: Option<bool>,
    /// From a frame's transmission to its retransmission after an erasure (400 ms, the RLP
    /// round trip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rlp_rtt: Option<Dur>,
    /// L2R flow control from the remote side (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2r: Option<L2rDoc>,
    /// VJ TCP/IP header compression at the PPP ends (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vj: Option<bool>,
    /// Header compression at the PPP ends: `vj` (RFC 1144, the same as `vj = true`) or
    /// `rfc2507` (its decompressor repairs one lost delta with the twice algorithm); none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hc: Option<String>,
    /// With `hc = "rfc2507"`: RFC 2507's header request, a context the decompressor cannot
    /// repair asked for in full over the reverse link (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hc_header_request: Option<bool>,
    /// Whose buffers a reset flushes: `link` (both directions', as GSM's RLP: one link, one
    /// reset procedure) or `direction` (only the direction that gave up; the counterfactual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset: Option<String>,
    /// PPP framing bytes per packet (7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ppp: Option<u32>,
    /// The flow-adaptive link layer of Ludwig2000 §4.1 (none): per-class persistency (TCP
    /// fully reliable, UDP real-time) and out-of-order delivery across flows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveDoc>,
    /// Handovers of the mobile (Ludwig2000 §2.4.2): interruptions of the radio channel, in time
    /// order and not overlapping (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handovers: Option<Vec<HandoverDoc>>,
}

/// One handover: the channel is interrupted from `at` for `duration`; `lossless` holds the
/// data (late), otherwise the frames sent in it are lost (RLP resends them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandoverDoc {
    /// When it starts.
    pub at: Dur,
    /// How long the channel is interrupted.
    pub duration: Dur,
    /// Whether the air interface's data survives it (true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lossless: Option<bool>,
}

/// `gsm.adaptive`: the classes' error control (Ludwig2000 §4.1.2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveDoc {
    /// How long a TCP (fully-reliable) frame may persist before the link resets (120 s, the
    /// MSL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistency: Option<Dur>,
    /// Delay bound of UDP (real-time) bytes: a retransmission later than this after the first
    /// transmission is not made (50 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_bound: Option<Dur>,
    /// Per-class policies and codepoints: `bulk`, `interactive`, `realtime`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes: Option<ClassesDoc>,
}

/// `gsm.adaptive.classes`: the service classes of Ludwig2000 §4.1.2.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassesDoc {
    /// Fully reliable, throughput-dominated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk: Option<ClassDoc>,
    /// Fully reliable, delay-dominated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interactive: Option<ClassDoc>,
    /// Real-time (given up once late).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime: Option<ClassDoc>,
}

/// One class's policy; what is left out keeps the dissertation's default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDoc {
    /// The DS codepoints (0-63) of the class (bulk [10], interactive [18], realtime [46]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ds: Option<Vec<u8>>,
    /// How long after its first transmission an erased frame of the class may be resent
    /// (fully-reliable classes: `persistency`; realtime: `realtime_bound`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistency: Option<Dur>,
    /// Its packets wait for every earlier packet of any flow (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_order: Option<bool>,
    /// Scheduling priority at the RLP sender, 0 first (interactive 0, the others 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<u8>,
}

/// L2R's throttle (Ludwig2000 §3.2.5: 960 B/s, XOFF gaps of 950-1300 ms).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L2rDoc {
    /// Average user bytes per second (960).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<u32>,
    /// Shortest gap (950 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap_min: Option<Dur>,
    /// Longest gap (1300 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap_max: Option<Dur>,
    /// Which realization of the gaps (0: the run's seed's; n: the n-th fixed one, the same for
    /// every seed, for campaigns of runs that differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<u32>,
}

/// The block-erasure channel of a GSM hop direction: a synthetic profile or a trace file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlocksDoc {
    /// `good` (trace_A-like), `poor-b` or `poor-c` (crate `net::medium::gsm::Profile`), or a
    /// poor one clustered into fades of mean length `T_c`: `poor-c@2s`, `poor-b@500ms:dense`
    /// (crate `net::medium::gsm::Clustered`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Minutes of the synthetic trace before it repeats (60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Which realization of the synthetic channel (0: the one of the run's seed; n: the n-th
    /// fixed one, the same for every seed, for campaigns over several channels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<u32>,
    /// A `block_trace` file: one line per block, `1` erased.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Deep fades laid over the profile (`net::medium::gsm::DeepFades`): none by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fades: Option<FadesDoc>,
}

/// Deep fades of a synthetic GSM channel: every block erased for `length`, starting `per_hour`
/// times an hour (a Poisson process, drawn per link: both directions fade together).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FadesDoc {
    /// Fade starts per hour of trace.
    pub per_hour: f64,
    /// Length of each fade (whole 20 ms blocks).
    pub length: Dur,
}
