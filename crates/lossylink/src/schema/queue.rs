//! `queue` of a hop, a direction or a cell: a packet count (drop-tail, today's form) or a
//! discipline as a table, `{ kind = "droptail" | "red" | "codel" | "fq_codel", ... }`
//! (crate net's `aqm` module: each kind's source and defaults).

use crate::units::{Dur, Size};
use serde::{Deserialize, Serialize};

/// A queue: packets of drop-tail, or a discipline. Read by hand (schema/either.rs) so that a
/// table's error is the discipline's own ("unknown variant `pie`", "unknown field `minth`")
/// rather than "did not match any variant".
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum QueueDoc {
    /// Drop-tail with this many packets.
    Packets(u32),
    /// A discipline with its knobs.
    Discipline(DisciplineDoc),
}

/// A queue discipline and its knobs (each left out takes the default named).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum DisciplineDoc {
    /// Drop-tail FIFO (4.4BSD ifq; the default, 50 packets).
    Droptail {
        /// Capacity, packets (50).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        packets: Option<u32>,
    },
    /// RED, Floyd and Jacobson 1993, with ns-2's defaults (Queue/RED: thresh_ 5, maxthresh_ 15,
    /// q_weight_ 0.002, linterm_ 10, gentle_ true, setbit_ false).
    Red {
        /// Hard limit, packets (50, ns-2's queue limit).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        packets: Option<u32>,
        /// min_th, packets (5).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_th: Option<f64>,
        /// max_th, packets (15).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_th: Option<f64>,
        /// Averaging weight w_q (0.002).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        w_q: Option<f64>,
        /// max_p (0.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_p: Option<f64>,
        /// Gentle mode (true).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gentle: Option<bool>,
        /// Mark ECN-capable packets instead of dropping them (false).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ecn: Option<bool>,
    },
    /// CoDel, RFC 8289 (target 5 ms, interval 100 ms; limit 1000 packets as Linux sch_codel).
    Codel {
        /// Hard limit, packets (1000).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        packets: Option<u32>,
        /// Target sojourn time (5ms).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Dur>,
        /// Interval (100ms).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interval: Option<Dur>,
        /// Mark ECN-capable packets instead of dropping them (false, as Linux codel).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ecn: Option<bool>,
    },
    /// FQ-CoDel, RFC 8290, with Linux's defaults (1024 flows, quantum 1514, limit 10240
    /// packets, memory_limit 32 MiB, target 5 ms, interval 100 ms, ECN on).
    FqCodel {
        /// Packets held at most (10240).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        packets: Option<u32>,
        /// Flow queues (1024).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        flows: Option<u32>,
        /// DRR quantum (1514 bytes).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quantum: Option<Size>,
        /// Bytes held at most (32MiB).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        memory_limit: Option<Size>,
        /// Per-flow CoDel target (5ms).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Dur>,
        /// Per-flow CoDel interval (100ms).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interval: Option<Dur>,
        /// Mark ECN-capable packets instead of dropping them (true, as Linux fq_codel).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ecn: Option<bool>,
    },
}
