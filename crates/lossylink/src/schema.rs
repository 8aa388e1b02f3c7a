//! The scenario document: what a TOML scenario file (or JSON, or a Python dict) contains.
//! Unknown keys are rejected everywhere. Meaning and defaults of each field are in
//! `docs/scenarios.md`; the shipped presets are complete examples.

use crate::units::{Dur, Rate, Size};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod cc;
mod channel;
mod dcf;
mod either;
mod eln;
mod gsm;
mod queue;
mod recovery;
mod tcp;
mod web;
mod wlan;
pub use cc::*;
pub use channel::*;
pub use dcf::*;
pub use eln::*;
pub use gsm::*;
pub use queue::*;
pub use recovery::*;
pub use tcp::*;
pub use web::*;
pub use wlan::*;

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDoc {
    /// Name (the preset's name, or the user's).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Registered scheme name (`lossylink schemes`).
    #[serde(default = "default_scheme")]
    pub scheme: String,
    /// The transfer of a chain document (`[flow]`); documents with `[[flows]]` leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow: Option<FlowDoc>,
    /// Any number of flows, each with its own ends, scheme, TCP overrides, start and workload
    /// (instead of `[flow]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<FlowSpecDoc>,
    /// TCP settings.
    #[serde(default)]
    pub tcp: TcpDoc,
    /// Nodes (in chain order for a chain document).
    pub nodes: Vec<NodeDoc>,
    /// Hops of a chain document: `hops[i]` joins `nodes[i]` and `nodes[i+1]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<HopDoc>,
    /// Point-to-point links of a topology document, each with `between = [a, b]` (instead of
    /// `hops`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<HopDoc>,
    /// Cells: one shared channel joining an access point and its stations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellDoc>,
    /// Static routes that override the shortest paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<RouteDoc>,
    /// Base-station link-layer agent knobs (used by the `ll*` schemes).
    #[serde(default, skip_serializing_if = "LlDoc::is_default")]
    pub ll: LlDoc,
    /// Split-connection proxy knobs (used by the `split*` schemes).
    #[serde(default, skip_serializing_if = "SplitDoc::is_default")]
    pub split: SplitDoc,
    /// Run control.
    #[serde(default)]
    pub run: RunDoc,
}

/// Knobs of the base-station link-layer agents (Balakrishnan97 §2.8, §B.10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LlDoc {
    /// Duplicate ACKs before a local retransmission (2, §B.10 item 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dupthresh: Option<u32>,
    /// Minimum local retransmission timeout (200ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rto: Option<Dur>,
    /// Local timer granularity: the timer fires on multiples of it (200ms; 0 = continuous).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tick: Option<Dur>,
    /// Which snoop the snoop schemes run: balakrishnan97 (default: resends at the head of the
    /// wireless queue, link RTT from the end of transmission, 200 ms floor on 200 ms ticks) |
    /// ns2 (ns-2.35's `LL/LLSnoop`, tcp/snoop.cc: resends at the tail of the interface queue,
    /// timer from link-layer entry, 100 ms floor; `ll.dupthresh`, `min_rto` and `tick` do not
    /// apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snoop_style: Option<SnoopStyleDoc>,
    /// Knobs of the `ll-arq` link ARQ.
    #[serde(default, skip_serializing_if = "ArqDoc::is_default")]
    pub arq: ArqDoc,
    /// Knobs of LL-ELSN (`ll-elsn`).
    #[serde(default, skip_serializing_if = "ElsnDoc::is_default")]
    pub elsn: ElsnDoc,
}

/// `ll.snoop_style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnoopStyleDoc {
    /// Balakrishnan97's snoop (`net::agent::ll`).
    Balakrishnan97,
    /// ns-2.35's snoop (`net::agent::ns2_snoop`).
    Ns2,
}

/// Knobs of LL-ELSN's notifications (eln-llelsn spec §4.1 (c), §4.2 (c)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ElsnDoc {
    /// Send ERSN when the MAC starts retrying a data frame (true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ersn: Option<bool>,
    /// How notifications reach the sender: control (a 40-byte packet over the wired path, the
    /// spec's default) | oracle (at once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<ElsnPathDoc>,
}

impl ElsnDoc {
    fn is_default(&self) -> bool {
        *self == ElsnDoc::default()
    }
}

/// `ll.elsn.path`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElsnPathDoc {
    /// A control packet routed to the sender.
    Control,
    /// Handed to the sender at once.
    Oracle,
}

impl LlDoc {
    fn is_default(&self) -> bool {
        *self == LlDoc::default()
    }
}

/// Knobs of the split-connection proxy at the base station (Balakrishnan97 §2.12, §B.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SplitDoc {
    /// Relay buffer between the two legs; its free space is the window advertised to the fixed
    /// host (64KiB, §B.10 item 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<Size>,
    /// Run this registered end-to-end scheme (with `+` modifiers) on the wireless leg instead
    /// of the split scheme's own (Reno for `split`, SMART for `split-smart`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wireless_scheme: Option<String>,
}

impl SplitDoc {
    fn is_default(&self) -> bool {
        *self == SplitDoc::default()
    }
}

/// Knobs of the `ll-arq` selective-repeat link ARQ (Ludwig2000 §1, §3.6; Balakrishnan97 §2.13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ArqDoc {
    /// Retransmissions per frame before it is given up (6, RLP's N2), or "persistent".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_retransmissions: Option<PersistenceDoc>,
    /// Release frames to the mobile's IP in link order (false: out-of-order delivery, like LL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_order: Option<bool>,
    /// Link-layer payload bytes of a link ACK frame (8); the hop adds its framing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_size: Option<u32>,
    /// Minimum link retransmission timeout (50ms); the timer is srtt + 4·rttvar of the link
    /// round trip above it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rto: Option<Dur>,
}

impl ArqDoc {
    fn is_default(&self) -> bool {
        *self == ArqDoc::default()
    }
}

/// A retransmission limit or the word "persistent".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PersistenceDoc {
    /// At most this many retransmissions per frame.
    Limit(u32),
    /// "persistent": retransmit until acknowledged.
    Word(String),
}

fn default_scheme() -> String {
    "e2e".into()
}

/// A one-way bulk transfer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowDoc {
    /// Sending host.
    pub from: String,
    /// Receiving host.
    pub to: String,
    /// Bytes to transfer.
    pub bytes: Size,
}

/// One flow of a `[[flows]]` document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpecDoc {
    /// Name, unique among the flows (`flow{i}` when left out); names its random streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Sending host.
    pub from: String,
    /// Receiving host.
    pub to: String,
    /// Registered scheme of this flow (the document's `scheme` when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    /// Bytes to transfer; left out, the flow always has data (long-lived, until `stop` or
    /// the end of the run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<Size>,
    /// When the flow's application starts writing (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Dur>,
    /// When a long-lived flow's application stops writing (data in flight still drains).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Dur>,
    /// Overrides of the document's `[tcp]` section for this flow (same keys).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub tcp: serde_json::Map<String, serde_json::Value>,
    /// A UDP background source instead of a TCP connection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub udp: Option<UdpDoc>,
    /// A web session (server `from`, client `to`) instead of a bulk transfer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web: Option<WebDoc>,
    /// This entry is a template for this many flows (1): `{i}` in `name`, `from` and `to` is
    /// replaced by the copy's number 1..=copies (a name without `{i}` gets `-{i}` appended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies: Option<u32>,
    /// Copy `i` starts `(i − 1) · stagger` after `start` (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stagger: Option<Dur>,
    /// The DS codepoint (0-63) the flow's packets carry (RFC 2474): a flow-adaptive GSM link
    /// (`gsm.adaptive`) classes them by it (unmarked: by protocol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ds: Option<u8>,
}

/// A UDP background source (crate `net::traffic`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum UdpDoc {
    /// Constant bit rate.
    Cbr {
        /// Payload bit rate.
        rate: Rate,
        /// Payload bytes per datagram.
        size: Size,
    },
    /// Pareto ON/OFF (ns-2 `Application/Traffic/Pareto`): mean rate ≈ rate·on/(on + off).
    Pareto {
        /// Bit rate during ON periods.
        rate: Rate,
        /// Mean ON period.
        on: Dur,
        /// Mean OFF period.
        off: Dur,
        /// Shape of both periods' Pareto distributions (> 1).
        shape: f64,
        /// Payload bytes per datagram.
        size: Size,
    },
}

/// A cell: one shared channel joining an access point and its stations. Each station gets a
/// link to the access point with the cell's settings (rate, delay, queue, errors, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellDoc {
    /// Name.
    pub name: String,
    /// The access point (a base station or router node).
    pub access_point: String,
    /// The member stations.
    pub stations: Vec<String>,
    /// Channel-access contention before each frame (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionDoc>,
    /// An 802.11 DCF arbitrates the cell instead of the shared channel (`contention` unused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dcf: Option<DcfDoc>,
    /// Bit rate.
    pub rate: Rate,
    /// Propagation delay (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<Dur>,
    /// Queue of each member's interface: packets of drop-tail (50) or a discipline
    /// (`{ kind = "fq_codel" }`: FQ-CoDel per station, as Linux mac80211).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueDoc>,
    /// Framing bytes per frame (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framing: Option<u32>,
    /// Fixed per-frame airtime (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_frame: Option<PerFrameDoc>,
    /// Error exposure (frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposure: Option<ExposureDoc>,
    /// Per-station error models, by station name, replacing `error` on that station's link
    /// (both directions, each its own stream): a station in a bad channel (none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub station_error: BTreeMap<String, ErrorDoc>,
    /// Error model of every member's both directions, each with its own stream (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDoc>,
    /// Per-station bit rates, by station name, replacing `rate` on that station's link (both
    /// directions): a station far from the access point at a lower rate (none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub station_rate: BTreeMap<String, Rate>,
}

/// A static route: at node `at`, packets for `to` go to the neighbour `via`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteDoc {
    /// The node whose table changes.
    pub at: String,
    /// The destination.
    pub to: String,
    /// The neighbour to forward to.
    pub via: String,
}

/// Node roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKindDoc {
    /// End host.
    Host,
    /// Router.
    Router,
    /// Base station in front of the wireless hop.
    BaseStation,
}

/// A node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeDoc {
    /// Unique name.
    pub name: String,
    /// Role.
    pub kind: NodeKindDoc,
    /// Processing jitter: each packet the node sends (its own, and on a router the ones it
    /// forwards) first waits a uniform random time in `[0, jitter]` from the node's own stream,
    /// in order per interface (ns-2's `overhead_`; breaks the phase effects of identical flows,
    /// Floyd and Jacobson 1992); none by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jitter: Option<Dur>,
}

/// Hop roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoleDoc {
    /// Wired path.
    Wired,
    /// Wireless (lossy) hop.
    Wireless,
}

/// Channel sharing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MediumDoc {
    /// Two independent directions.
    #[default]
    FullDuplex,
    /// One shared channel.
    HalfDuplex,
    /// A GSM circuit-switched data link with RLP, `gsm = { ... }` (Ludwig2000 §2.4).
    GsmCsd,
    /// The two ends contend under an 802.11 DCF, `dcf = { ... }` (a two-member cell).
    Dcf,
}

/// Error-exposed part of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExposureDoc {
    /// TCP payload only.
    Payload,
    /// IP datagram.
    Ip,
    /// IP datagram plus link framing.
    Frame,
}

/// Fixed per-frame airtime: one duration, or named components that are summed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PerFrameDoc {
    /// A single duration.
    Total(Dur),
    /// Named parts (e.g. preamble, difs, sifs, link_ack), summed.
    Parts(BTreeMap<String, Dur>),
}

/// How the contention wait is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawDoc {
    /// Always the mean, cw/2 slots.
    Mean,
    /// Uniform in 0..=cw slots, from the hop's own random stream.
    Uniform,
}

/// Channel-access contention on a half-duplex medium.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentionDoc {
    /// Contention window in slots.
    pub cw: u32,
    /// Slot time.
    pub slot: Dur,
    /// Mean or random draw.
    #[serde(default = "default_draw")]
    pub draw: DrawDoc,
}

fn default_draw() -> DrawDoc {
    DrawDoc::Mean
}

/// Settings of one direction; anything left out is taken from the hop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DirectionDoc {
    /// Bit rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// Propagation delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<Dur>,
    /// Queue: packets of drop-tail, or a discipline (see the hop's field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueDoc>,
    /// Whether the queue is the sending node's own interface queue (see the hop's field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_queue: Option<bool>,
    /// TCP-Jersey's CW marking threshold (see the hop's field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cw_mark: Option<u32>,
    /// Framing bytes per frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framing: Option<u32>,
    /// Fixed per-frame airtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_frame: Option<PerFrameDoc>,
    /// Error exposure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposure: Option<ExposureDoc>,
    /// Error model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDoc>,
    /// Scheduled impairments of this direction (none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hiccups: Vec<HiccupDoc>,
    /// A Mahimahi delivery-opportunity trace file for this direction (see the hop's field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<String>,
    /// The block-erasure channel of a `gsm-csd` hop direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<BlocksDoc>,
}

/// A hop of a chain or a link of a topology. Hop-level settings apply to both directions unless
/// a direction overrides them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HopDoc {
    /// Name.
    pub name: String,
    /// The two nodes a link joins (`[[links]]` only; a chain's hops join neighbours in order).
    /// `forward` is the direction from the first to the second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub between: Option<[String; 2]>,
    /// Wired or wireless.
    pub role: RoleDoc,
    /// Channel sharing.
    #[serde(default)]
    pub medium: MediumDoc,
    /// Contention (half-duplex only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionDoc>,
    /// Bit rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// Propagation delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<Dur>,
    /// Queue: packets of drop-tail (50), or a discipline as a table, `{ kind = "droptail" |
    /// "red" | "codel" | "fq_codel", ... }` (docs/scenarios.md, "Queue disciplines").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueDoc>,
    /// Whether the queue is the sending node's own interface queue (true): a packet its own
    /// TCP hands over and the queue drops is reported back (ENOBUFS; `tcp.quench`). False for
    /// a hop that stands for a path whose bottleneck queue is a router's (the wan preset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_queue: Option<bool>,
    /// TCP-Jersey's congestion warning (eln-llelsn spec §4.8): a TCP data packet offered
    /// while the queue holds at least this many packets is marked CW (none: no marking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cw_mark: Option<u32>,
    /// Framing bytes per frame (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framing: Option<u32>,
    /// Fixed per-frame airtime (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_frame: Option<PerFrameDoc>,
    /// Error exposure (frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposure: Option<ExposureDoc>,
    /// Error model (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDoc>,
    /// A Mahimahi delivery-opportunity trace file (one millisecond timestamp per line, each an
    /// opportunity to deliver 1500 bytes, repeating): frames leave when the trace says, instead
    /// of at `rate` (which, when given, only estimates the idle round trip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<String>,
    /// The DCF of a `dcf` hop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dcf: Option<DcfDoc>,
    /// The RLP link of a `gsm-csd` hop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gsm: Option<GsmDoc>,
    /// The block-erasure channel of both directions of a `gsm-csd` hop (each its own draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<BlocksDoc>,
    /// Overrides for node i → node i+1.
    #[serde(default)]
    pub forward: DirectionDoc,
    /// Overrides for node i+1 → node i.
    #[serde(default)]
    pub reverse: DirectionDoc,
}

/// Run control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunDoc {
    /// Simulated-time limit; a transfer not finished by then is an error.
    #[serde(default = "default_time_limit")]
    pub time_limit: Dur,
    /// Fixed length of the run: it ends then whatever the flows are doing (long-lived flows
    /// need it); finite flows not complete by then report what they delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<Dur>,
    /// Start of the goodput measurement window (0): bytes delivered before it are left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup: Option<Dur>,
}

fn default_time_limit() -> Dur {
    Dur(3600 * 1_000_000_000)
}

impl Default for RunDoc {
    fn default() -> Self {
        RunDoc {
            time_limit: default_time_limit(),
            duration: None,
            warmup: None,
        }
    }
}
