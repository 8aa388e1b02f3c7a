//! Validated network configuration. The facade parses user input (TOML, flags) into these types;
//! everything here is already checked and in integer units.

use crate::delivery::DeliveryTrace;
use crate::error_model::ErrorModelConfig;
pub use crate::hiccup::Hiccup;
pub use crate::medium::Contention;
use engine::{NodeId, SimDuration};

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An end host running transport endpoints.
    Host,
    /// A router that forwards by static route.
    Router,
    /// The base station in front of the wireless hop: a router where base-station agents run and
    /// whose queue drops are reported separately.
    BaseStation,
}

/// A node of the chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeConfig {
    /// Unique name.
    pub name: String,
    /// Role.
    pub kind: NodeKind,
    /// Processing jitter: each packet the node sends waits uniform `[0, jitter]` first
    /// (crate::jitter; ns-2's `overhead_`); zero for none.
    pub jitter: SimDuration,
}

/// Whether a hop is part of the wired or the wireless path (for the goodput metrics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HopRole {
    /// Wired.
    Wired,
    /// Wireless (lossy).
    Wireless,
}

/// Which bits of a frame a bit error can hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exposure {
    /// TCP payload only.
    Payload,
    /// The IP datagram.
    Ip,
    /// The IP datagram plus the link framing bytes (MAC header, FCS, LLC).
    Frame,
}

/// How the two directions of a hop share the channel.
// A link's medium is cloned once, when the network is built (the GSM settings share their
// handover table); that variant is larger than the others, which costs nothing at run time.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Medium {
    /// Two independent simplex links.
    FullDuplex,
    /// One channel used by one frame at a time, in either direction; stations alternate when
    /// both have frames waiting.
    HalfDuplex {
        /// Channel-access wait before each frame.
        contention: Contention,
    },
    /// A GSM circuit-switched data link with RLP, each direction its own block channel
    /// (crate::medium::gsm).
    Gsm(crate::medium::GsmConfig),
    /// The two ends contend under an 802.11 DCF (crate::medium::dcf): a two-member cell.
    Dcf(crate::medium::DcfConfig),
}

/// One direction of a hop.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionConfig {
    /// Bit rate of the payload-carrying part of a frame.
    pub rate_bps: u64,
    /// Propagation (plus fixed processing) delay.
    pub delay: SimDuration,
    /// Drop-tail interface queue capacity in packets (4.4BSD ifq: 50).
    pub queue_packets: u32,
    /// The queue is the sending node's own interface queue: a drop of a packet its transport
    /// handed over is reported back (ENOBUFS, Ludwig2000 §2.3).
    pub host_queue: bool,
    /// Link framing bytes sent at `rate_bps` with every frame (MAC header, FCS, ...).
    pub framing_bytes: u32,
    /// TCP-Jersey's congestion warning (Xu, Tian, Ansari 2004; eln-llelsn spec §4.8): a TCP
    /// data packet offered while the queue holds at least this many packets is marked CW;
    /// `None`, the default, marks nothing.
    pub cw_mark: Option<u32>,
    /// Fixed airtime per frame not proportional to its size (preamble, inter-frame space,
    /// link-level acknowledgment).
    pub per_frame: SimDuration,
    /// Which bits are exposed to errors.
    pub exposure: Exposure,
    /// The error process of this direction.
    pub error: ErrorModelConfig,
    /// Scheduled impairments (Ludwig2000 §10.1); empty for a well-behaved link.
    pub hiccups: Vec<Hiccup>,
    /// A delivery-opportunity trace (crate::delivery) that decides when frames leave, instead
    /// of `rate_bps` (which then only estimates the idle round trip).
    pub delivery: Option<DeliveryTrace>,
    /// The block-erasure channel of a GSM link's direction (crate::medium::gsm): erased or not
    /// per 20 ms radio block, the trace repeating; `None` for an error-free channel.
    /// Boxed: every port keeps its direction's configuration, and the hot path should not pay
    /// for the size of a field only GSM links read.
    pub blocks: Option<Box<BlockSource>>,
    /// A queue discipline instead of the drop-tail queue (crate::aqm); `None`: drop-tail of
    /// `queue_packets`.
    pub aqm: Option<crate::aqm::AqmConfig>,
    /// The 802.11 PHY mode of a DCF cell member's frames (crate::medium::dcf::phy): their airtime is
    /// the mode's TXTIME of the frame (plus `per_frame`), and the MAC ACK after them is in the
    /// mode's control-response rate. `None`: `per_frame` plus the bits at `rate_bps`.
    pub phy: Option<crate::medium::dcf::phy::Mode>,
    /// The SNR channel of a DCF cell member's direction (`dcf.error_model = "snr"`,
    /// crate::medium::dcf::snr): frame errors from the NIST OFDM model instead of `error`, and
    /// the rate control that picks `phy` per frame. Boxed, as `blocks`.
    pub wlan: Option<Box<crate::medium::dcf::snr::WlanConfig>>,
}

/// Where a GSM link's block erasures come from.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockSource {
    /// A recorded or prepared trace.
    Trace(std::sync::Arc<crate::medium::gsm::BlockTrace>),
    /// A synthetic profile (crate::medium::gsm::Profile), `minutes` long, drawn per seed.
    Profile {
        /// The profile.
        profile: crate::medium::gsm::Profile,
        /// Minutes to draw before the trace repeats.
        minutes: usize,
        /// 0: drawn from the run's seed; n > 0: the n-th fixed realization, the same for every
        /// seed.
        draw: u32,
        /// Deep fades laid over the profile (crate::medium::gsm::DeepFades), drawn per link from
        /// the same realization; `None`: none.
        fades: Option<crate::medium::gsm::DeepFades>,
        /// The profile's erasures clustered into fades of a sub-minute time scale
        /// (crate::medium::gsm::Clustered); `None`: the chain itself.
        clustering: Option<crate::medium::gsm::Clustering>,
    },
}

/// A hop between node `i` and node `i + 1` of the chain.
#[derive(Clone, Debug, PartialEq)]
pub struct HopConfig {
    /// Name, for reports and random-stream keys.
    pub name: String,
    /// Wired or wireless.
    pub role: HopRole,
    /// Channel sharing.
    pub medium: Medium,
    /// Direction from node `i` to node `i + 1`.
    pub forward: DirectionConfig,
    /// Direction from node `i + 1` to node `i`.
    pub reverse: DirectionConfig,
}

/// A chain topology: `hops[i]` connects `nodes[i]` and `nodes[i + 1]`. Shorthand for the
/// [`TopologyConfig`] it lowers into ([`ChainConfig::topology`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChainConfig {
    /// Nodes in chain order.
    pub nodes: Vec<NodeConfig>,
    /// Hops, one fewer than nodes.
    pub hops: Vec<HopConfig>,
}

impl ChainConfig {
    /// The general topology of this chain: link `i` is hop `i` from node `i` to node `i + 1`,
    /// named in random-stream keys `hop{i}` as before (so every chain keeps its channels).
    pub fn topology(&self) -> TopologyConfig {
        TopologyConfig {
            nodes: self.nodes.clone(),
            links: self
                .hops
                .iter()
                .enumerate()
                .map(|(i, h)| LinkConfig {
                    a: NodeId(i as u32),
                    b: NodeId(i as u32 + 1),
                    key: format!("hop{i}"),
                    hop: h.clone(),
                })
                .collect(),
            cells: Vec::new(),
            routes: Vec::new(),
        }
    }
}

/// A link between two nodes of a topology: a hop's settings with its two ends. `forward` is
/// the direction from `a` to `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkConfig {
    /// One end.
    pub a: NodeId,
    /// The other end.
    pub b: NodeId,
    /// The stem of its random-stream keys (`hop{i}` for a chain's hops, `link:<name>` else).
    pub key: String,
    /// Rates, delays, queues, channels and the medium of both directions.
    pub hop: HopConfig,
}

/// A cell: one shared channel joining an access point and its stations (one frame on the air
/// at a time, members served in turn). Each station has a link to the access point (indices
/// into [`TopologyConfig::links`]); the cell makes them share one channel.
#[derive(Clone, Debug, PartialEq)]
pub struct CellConfig {
    /// Name.
    pub name: String,
    /// The access point.
    pub access_point: NodeId,
    /// The links between the access point and each station, in member order.
    pub links: Vec<usize>,
    /// Channel-access wait before each frame (the shared channel without a MAC).
    pub contention: Contention,
    /// An 802.11 DCF arbitrates the cell instead (crate::medium::dcf).
    pub dcf: Option<crate::medium::DcfConfig>,
    /// How a DCF cell's access point chooses among its stations (crate::medium::dcf::airtime).
    pub ap_scheduler: crate::medium::dcf::airtime::ApScheduler,
    /// A DCF cell's A-MPDU limits (802.11n/ac; crate::medium::dcf::ampdu); `None`: one frame
    /// per channel access.
    pub ampdu: Option<crate::medium::AmpduLimits>,
    /// Whether a DCF cell's access point queues per station or in one shared FIFO
    /// (crate::ifq).
    pub ap_queue: crate::ifq::ApQueue,
    /// The stem of its random-stream keys (`cell:<name>`).
    pub key: String,
}

/// A static route that overrides the computed one: at `at`, packets for `dst` leave towards the
/// neighbour `via`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteOverride {
    /// The node whose table changes.
    pub at: NodeId,
    /// The destination.
    pub dst: NodeId,
    /// The neighbour to forward to.
    pub via: NodeId,
}

/// Any topology: nodes, point-to-point links, cells and route overrides.
#[derive(Clone, Debug, PartialEq)]
pub struct TopologyConfig {
    /// The nodes; `NodeId(i)` is `nodes[i]`.
    pub nodes: Vec<NodeConfig>,
    /// The links; link `i` has ports `2i` (a to b) and `2i + 1` (b to a).
    pub links: Vec<LinkConfig>,
    /// Cells sharing one channel among several links.
    pub cells: Vec<CellConfig>,
    /// Explicit routes, applied over the computed shortest paths.
    pub routes: Vec<RouteOverride>,
}
