//! What a direction's channel does to frames: `error = { model = ... }` (the error models of
//! `net::error_model`) and `hiccups = [...]` (scheduled holds and reorders, `net::hiccup`).

use crate::units::{Dur, Size};
use serde::{Deserialize, Serialize};

/// How burst starts are spaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BurstSpacingDoc {
    /// Exponentially distributed gaps with mean `every`.
    Exponential,
    /// Exactly `every` apart (the first at a random phase within one gap).
    Fixed,
}

/// An error model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ErrorDoc {
    /// No errors.
    None,
    /// Exponentially distributed bit errors: give `every` (mean bytes between errors) or `ber`.
    Exponential {
        /// Mean distance between bit errors in bytes (0 = no errors).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        every: Option<Size>,
        /// Bit-error rate (0 = no errors).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ber: Option<f64>,
    },
    /// Independent per-frame loss.
    Bernoulli {
        /// Loss probability per frame.
        p: f64,
    },
    /// Bursts of `length` consecutive lost frames, starting on average once per `every` bytes
    /// (exponential gaps on the exposed-bits clock, or exactly `every` apart; Balakrishnan97
    /// §3.6, §B.3).
    Burst {
        /// Mean bytes between burst starts (0 = no errors).
        every: Size,
        /// Frames per burst (at least 1).
        length: u32,
        /// `exponential` (default) or `fixed` gaps between burst starts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spacing: Option<BurstSpacingDoc>,
    },
    /// A two-state Gilbert–Elliott chain stepped per frame: give `p_gb` and `p_bb`, or
    /// `mean_error_rate` and `mean_burst` (frames).
    Gilbert {
        /// P(Good → Bad) per frame.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        p_gb: Option<f64>,
        /// P(Bad → Bad) per frame.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        p_bb: Option<f64>,
        /// Long-run fraction of frames lost, in (0, 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mean_error_rate: Option<f64>,
        /// Mean length of a loss burst in frames (≥ 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mean_burst: Option<f64>,
        /// Loss probability of a frame in the Good state (0).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        loss_good: Option<f64>,
        /// Loss probability of a frame in the Bad state (1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        loss_bad: Option<f64>,
        /// Step the chain once per slot of this length, idle time included, instead of once
        /// per frame (the spec leaves the time step open, §5.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<Dur>,
    },
    /// A recorded erasure trace: a file of `0`/`1` lines (`#` comments), one per frame, or one
    /// per time slot of length `slot`.
    Trace {
        /// Path of the trace file (relative to the working directory).
        file: String,
        /// Per time slot of this length instead of per frame.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<Dur>,
        /// Repeat the trace past its end (true) or leave the channel clean there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        repeat: Option<bool>,
    },
    /// Independent frame errors with rate `fer` for a frame of `reference` exposed bytes,
    /// scaled to each frame's length through the equivalent bit-error rate.
    Fer {
        /// Frame-error rate at the reference length, in [0, 1).
        fer: f64,
        /// Exposed bytes of the reference frame (e.g. 1068B: a 1000-byte segment, TCP/IP and
        /// MAC headers).
        reference: Size,
    },
}

/// A scheduled link impairment of one direction (Ludwig2000 §10.1, the `hiccup` tool).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum HiccupDoc {
    /// A delay spike from `at` for `duration`. At stage `link` the direction transmits nothing
    /// (packets keep queueing, drop-tail limit applies, and drain at line rate afterwards); at
    /// stage `ip` the packets handed to the interface are intercepted while the queue keeps
    /// draining, and flushed into the queue at once when the hold ends (drop-tail).
    Hold {
        /// Start, in simulated time.
        at: Dur,
        /// Length of the hold (> 0).
        duration: Dur,
        /// Where it acts: `link` (default) or `ip` (the dissertation's tool).
        #[serde(default, skip_serializing_if = "StageDoc::is_link")]
        stage: StageDoc,
        /// Stage `ip` only: discard an intercepted packet this long after it was handed over (a
        /// link layer of low persistency); by default nothing expires.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expire: Option<Dur>,
    },
    /// The first data packet due at or after `at` is held back until `length` more data packets
    /// have passed, then sent right after them.
    Reorder {
        /// Earliest time of the packet to hold back: its transmission start (stage `link`) or
        /// its hand-over to the interface (stage `ip`).
        at: Dur,
        /// Data packets that overtake it (≥ 1).
        length: u32,
        /// Where it acts: `link` (default) or `ip` (the dissertation's tool).
        #[serde(default, skip_serializing_if = "StageDoc::is_link")]
        stage: StageDoc,
    },
}

/// Where a hiccup acts (Ludwig2000 §3.3.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageDoc {
    /// On the link, as frames start transmission.
    #[default]
    Link,
    /// Between IP output and the interface queue, as in the dissertation's `hiccup` tool.
    Ip,
}

impl StageDoc {
    fn is_link(&self) -> bool {
        *self == StageDoc::Link
    }
}
