//! The split-connection schemes (Balakrishnan97 §2.12, §B.2, Table 4): a proxy at the base
//! station ends the fixed host's connection and runs its own to the mobile.

use super::{AgentKind, Modifiers, RecoveryKind, SchemeDef, SchemeInfo, NONE, SMART_RX, SPLIT};

/// The split-connection schemes, in listing order.
pub(super) static SPLIT_CONNECTION: &[SchemeDef] = &[
    SchemeDef {
        info: SchemeInfo {
            name: "split",
            family: SPLIT,
            description: "I-TCP-style split connection: the base station acknowledges the fixed host's data into a 64 KiB relay buffer (split.buffer) and runs its own BSD Reno connection to the mobile; the source stalls when the wireless leg times out and the buffer fills (split.wireless_scheme picks another wireless-leg protocol)",
            source: "Balakrishnan97 §2.12, §B.2, Table 4 (SPLIT); Bakre & Badrinath, I-TCP",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::Split,
        mods: Modifiers::NONE,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "split-smart",
            family: SPLIT,
            description: "split connection whose wireless leg uses SMART acknowledgments and selective retransmission (the wired leg stays Reno)",
            source: "Balakrishnan97 §2.12, §B.2, Table 4 (SPLIT-SMART)",
        },
        recovery: RecoveryKind::Smart,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SMART_RX,
        agent: AgentKind::Split,
        mods: Modifiers::NONE,
    },
];
