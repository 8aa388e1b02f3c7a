//! `dcf = { ... }` of a `[[cells]]` entry: an IEEE 802.11 DCF arbitrates the cell (crate
//! `net::medium::dcf`). Defaults are 802.11b's (IEEE 802.11b-1999 clause 18).

use super::{ErrorModelKindDoc, PathLossDoc, RateControlDoc, SnrDoc};
use crate::units::{Dur, Rate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The PLCP preamble and header of 802.11b.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PreambleDoc {
    /// 144 µs preamble + 48 µs header at 1 Mb/s: 192 µs.
    #[default]
    Long,
    /// 72 µs preamble + 24 µs header at 2 Mb/s: 96 µs.
    Short,
}

/// The PHY of a DCF cell (IEEE 802.11-2016; net::medium::dcf::phy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PhyDoc {
    /// 802.11b DSSS/HR-DSSS (clauses 15, 16): 1, 2, 5.5, 11 Mb/s; the frames' PLCP is
    /// `per_frame` (today's cells).
    #[default]
    #[serde(rename = "11b")]
    B,
    /// 802.11a OFDM (clause 17): 6-54 Mb/s, slot 9 µs, SIFS 16 µs.
    #[serde(rename = "11a")]
    A,
    /// 802.11g ERP (clause 18): ERP-OFDM 6-54 Mb/s (6 µs signal extension) and DSSS/CCK
    /// 1-11 Mb/s, SIFS 10 µs, slot 9 µs (`short_slot`) or 20 µs.
    #[serde(rename = "11g")]
    G,
    /// 802.11n HT-mixed (clause 19), 5 GHz: MCS 0-7 per stream, `streams` 1-4, 20/40 MHz.
    #[serde(rename = "11n")]
    N,
    /// 802.11ac VHT (clause 21): MCS 0-9, `streams` 1-4, 20/40/80 MHz.
    #[serde(rename = "11ac")]
    Ac,
}

/// A channel width (HT, VHT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WidthDoc {
    /// 20 MHz.
    #[default]
    #[serde(rename = "20MHz")]
    W20,
    /// 40 MHz.
    #[serde(rename = "40MHz")]
    W40,
    /// 80 MHz (VHT).
    #[serde(rename = "80MHz")]
    W80,
}

/// The guard interval of HT/VHT data symbols.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GiDoc {
    /// 800 ns.
    #[default]
    Long,
    /// 400 ns.
    Short,
}

/// How the access point chooses among its stations (net::medium::dcf::airtime).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerDoc {
    /// One frame per station in turn.
    #[default]
    Frames,
    /// Airtime fairness: Linux mac80211's airtime deficit round robin.
    Airtime,
}

/// Frame aggregation of an 802.11n/ac cell (net::medium::dcf::ampdu).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AggregationDoc {
    /// One frame per channel access, each with its ACK.
    #[default]
    Off,
    /// A-MPDUs with Block Ack.
    Ampdu,
}

/// How the access point queues its stations' packets (net::ifq).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApQueueDoc {
    /// One queue per station, served in turn (Linux mac80211's per-station queues).
    #[default]
    PerStation,
    /// One FIFO shared by every station (ns-2's and ns-3's interface queue).
    Shared,
}

/// A cell's DCF knobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DcfDoc {
    /// Slot time (20 µs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Dur>,
    /// SIFS (10 µs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sifs: Option<Dur>,
    /// CWmin in slots (31).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cw_min: Option<u32>,
    /// CWmax in slots (1023).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cw_max: Option<u32>,
    /// Attempts per frame, the first included (7, ns-2's ShortRetryLimit semantics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_limit: Option<u32>,
    /// Rate of control frames (MAC ACKs): 1, 2, 5.5 or 11 Mb/s (1 Mb/s; ns-2 accepts any
    /// `basicRate_`, mac/mac-802_11.cc:243-247).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basic_rate: Option<Rate>,
    /// PLCP preamble of the MAC ACKs (long).
    #[serde(default)]
    pub preamble: PreambleDoc,
    /// A fixed wait before each retry, the queue head blocked (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_delay: Option<Dur>,
    /// Whether the retry delay blocks the queue (true) or sets the frame aside while later
    /// frames go (false: the retried frame is reordered behind them; Fig. 13 of the LL-ELSN
    /// study).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_delay_blocks: Option<bool>,
    /// MAC ACKs and retries (802.11, true) or none (CSMA/CA as the 915 MHz WaveLAN had: a
    /// frame goes once, collided or corrupted ones are lost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac_ack: Option<bool>,
    /// Whether simultaneous backoff ends collide (true). false is an ablation: the members
    /// take turns instead (no collision losses; the LL-ELSN study's T004-3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collisions: Option<bool>,
    /// LHP's link-layer header protection (false): a corrupted frame's header still reaches
    /// the receiver, which a NACK receiver (e2e-lhp, e2e-hack) answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header_protection: Option<bool>,
    /// The PHY: "11b" (default), "11a", "11g", "11n", "11ac"; its timing (slot, SIFS, CW,
    /// preambles) and the rates `rate` and `station_rate` may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phy: Option<PhyDoc>,
    /// Channel width of 11n/11ac ("20MHz", "40MHz", "80MHz"; 20MHz).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<WidthDoc>,
    /// Guard interval of 11n/11ac data ("long" 800 ns, "short" 400 ns; long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_interval: Option<GiDoc>,
    /// Spatial streams of 11n/11ac, 1-4 (1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams: Option<u8>,
    /// 11g's short slot (9 µs, every member an ERP station; true) or the long 20 µs slot and
    /// CWmin 31 of a BSS with 802.11b members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_slot: Option<bool>,
    /// The access point's per-station scheduler: "frames" (round robin, default) or
    /// "airtime" (airtime fairness, Linux mac80211's deficit scheduler).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<SchedulerDoc>,
    /// The airtime scheduler's quantum (256 µs, Linux's default station weight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub airtime_quantum: Option<Dur>,
    /// Frame aggregation of 11n/11ac: "off" (default) or "ampdu" (A-MPDUs with Block Ack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregation: Option<AggregationDoc>,
    /// MPDUs per A-MPDU, 1-64 (64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ampdu_max_frames: Option<u32>,
    /// Octets per A-MPDU (the PHY's maximum A-MPDU length: 65535 for 11n, 1048575 for 11ac).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ampdu_max_bytes: Option<u64>,
    /// The access point's queue: "per-station" (default: one queue of `queue` packets per
    /// station, served in turn) or "shared" (one drop-tail FIFO of `queue` packets for every
    /// station, ns-2's interface queue: a frame the MAC retries holds everyone's packets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap_queue: Option<ApQueueDoc>,
    /// Where frame errors come from: "rate" (default: the cell's `error` and `station_error`)
    /// or "snr" (11a/g/n/ac: each frame from its length, mode and the station's SNR through the
    /// NIST OFDM error model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_model: Option<ErrorModelKindDoc>,
    /// Every station's SNR with `error_model = "snr"`: dB, a trace of [time, dB] pairs, or
    /// `{ distance_m = d }` with `path_loss`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snr: Option<SnrDoc>,
    /// Per-station SNRs, by station name, replacing `snr` (both directions of its link).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub station_snr: BTreeMap<String, SnrDoc>,
    /// Log-distance path loss with shadowing for SNRs given as distances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_loss: Option<PathLossDoc>,
    /// How each frame's mode is chosen: "fixed" (default: `rate`, `station_rate`), "ideal"
    /// (the highest mode whose frame error rate at the current SNR is below `ideal_per`) or
    /// "minstrel-ht" (Linux mac80211's Minstrel-HT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_control: Option<RateControlDoc>,
    /// The frame error rate an ideal pick stays below (0.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ideal_per: Option<f64>,
}
