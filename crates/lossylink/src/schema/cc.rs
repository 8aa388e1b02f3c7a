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

/// What the ideal-BWE oracle's rate is (eln-llelsn spec §4.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdealBweAvailableDoc {
    /// `ideal_bwe_rate` is the available rate, fixed for the run.
    Given,
    /// `ideal_bwe_rate` is the bottleneck's capacity; the network measures the available
    /// rate on every ACK: the capacity less the other flows' arrival rate over the last
    /// `ideal_bwe_rtt` (eln-llelsn spec §4.13 (c)).
    Live,
}
