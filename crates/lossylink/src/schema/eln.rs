//! `[tcp.eln]`: TCP-ELN's resolutions of what its paper leaves open (spec §3.4), apart from the
//! other `[tcp]` knobs (schema/tcp.rs).

use serde::{Deserialize, Serialize};

/// `tcp.eln`: how TCP-ELN resolves what its paper leaves open (spec §3.4, C1-C6); every knob
/// defaults to the spec's recommended resolution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpElnDoc {
    /// C1: `contiguous` (min(k, outstanding) segments from snd_una) | `first`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resend: Option<ElnResendDoc>,
    /// C2: `outstanding` | `outstanding-minus-one` | `outstanding-minus-two` duplicates expected
    /// in recovery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ElnExpectedDoc>,
    /// C3: the congestion response halves the `saved-cwnd` | what the `controller` halves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<ElnBasisDoc>,
    /// C4: a counter rise inside recovery is ignored (`literal`) | resends the next segment
    /// (`eager`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_recovery: Option<ElnModeDoc>,
    /// C5: last_cc moves only at corruption retransmissions (`literal`) | also on new ACKs and
    /// timeouts (`sync`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<ElnCounterDoc>,
    /// C6: the duplicate that triggers the retransmission also inflates cwnd (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inflate_trigger: Option<bool>,
    /// How the receiver attributes a corrupted frame to its connection (spec §3.2): `oracle`
    /// (the frame's own connection) | `single-conn` (the only connection of the receiving
    /// host; refused when the host has several, §3.5) | `hack` (by the frame's header, which
    /// the HACK header checksum verifies: only frames whose header survived are counted, the
    /// header-hit probability following from the link's error model). Also spelt `identify`.
    #[serde(default, alias = "identify", skip_serializing_if = "Option::is_none")]
    pub ident: Option<ElnIdentDoc>,
}

/// How corruption is attributed to a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElnIdentDoc {
    /// The corrupted frame's own connection.
    Oracle,
    /// The receiving host's only connection.
    SingleConn,
    /// The connection named by the frame's header, if the header survived (HACK).
    Hack,
}

/// C1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElnResendDoc {
    /// min(k, outstanding) contiguous segments.
    Contiguous,
    /// Only snd_una.
    First,
}

/// C2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElnExpectedDoc {
    /// (snd_max − snd_una)/MSS at the retransmission.
    Outstanding,
    /// One fewer.
    OutstandingMinusOne,
    /// Two fewer (the lost and the triggering segment send no duplicate).
    OutstandingMinusTwo,
}

/// C3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElnBasisDoc {
    /// The stored cwnd.
    SavedCwnd,
    /// The congestion controller's own rule.
    Controller,
}

/// C4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElnModeDoc {
    /// Ignore.
    Literal,
    /// Resend the next segment.
    Eager,
}

/// C5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElnCounterDoc {
    /// Only at corruption retransmissions.
    Literal,
    /// Also on new ACKs and timeouts.
    Sync,
}
