//! Knobs of today's anchors in `[tcp]` (docs/modern.md): PRR, RACK-TLP, F-RTO.

use serde::{Deserialize, Serialize};

/// Proportional Rate Reduction during fast recovery (RFC 6937).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrrDoc {
    /// The recovery part's own window rules.
    Off,
    /// PRR with the slow-start reduction bound (PRR-SSRB, the RFC's recommendation).
    Ssrb,
    /// PRR with the conservative reduction bound (PRR-CRB).
    Crb,
}
