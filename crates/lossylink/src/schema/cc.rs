//! Knobs of the LL-ELSN study's variants in `[tcp]` (eln-llelsn spec §4.8-4.13).

use serde::{Deserialize, Serialize};

/// TCP-Jersey's answer to a three-duplicate loss that no congestion warning marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JerseyLossDoc {
    /// rcontrol(): ssthresh = ownd, cwnd = min(cwnd, ownd).
    Ownd,
    /// A wireless loss: the retransmission only.
    Keep,
}
