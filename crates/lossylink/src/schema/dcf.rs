//! `dcf = { ... }` of a `[[cells]]` entry: an IEEE 802.11 DCF arbitrates the cell (crate
//! `net::medium::dcf`). Defaults are 802.11b's (IEEE 802.11b-1999 clause 18).

use crate::units::{Dur, Rate};
use serde::{Deserialize, Serialize};

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
}
