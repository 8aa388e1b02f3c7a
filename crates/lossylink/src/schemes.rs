//! The scheme registry: the one list of scheme names that the CLI, Python and the docs print.
//!
//! A scheme is a preset of parts: which loss recovery and congestion response the sender uses,
//! what the receiver adds to its ACKs, and which agent (if any) runs at the base station. Timer
//! style and other TCP defaults come from the scenario's `tcp.profile`, orthogonally.

use crate::error::Error;
use tcp::recovery::{LossRecovery, RenoRecovery};

/// What a user sees of a scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchemeInfo {
    /// Registered name.
    pub name: &'static str,
    /// "end-to-end", "link-layer" or "split-connection".
    pub family: &'static str,
    /// One line.
    pub description: &'static str,
    /// Where the mechanism is specified.
    pub source: &'static str,
}

/// A registered scheme: its description and how to build its parts.
pub(crate) struct SchemeDef {
    pub info: SchemeInfo,
    /// The sender's loss-recovery part, given the duplicate-ACK threshold.
    pub recovery: fn(dupthresh: u32) -> Box<dyn LossRecovery>,
}

fn reno_recovery(dupthresh: u32) -> Box<dyn LossRecovery> {
    Box::new(RenoRecovery::new(dupthresh))
}

static REGISTRY: &[SchemeDef] = &[SchemeDef {
    info: SchemeInfo {
        name: "e2e",
        family: "end-to-end",
        description: "TCP Reno as in 4.4BSD-Lite: fast retransmit on the 3rd dupack, Reno fast recovery, go-back-N after a coarse timeout; plain IP forwarding at the base station",
        source: "Balakrishnan97 §2.1-2.2, Table 1 (E2E); RFC 5681",
    },
    recovery: reno_recovery,
}];

/// Every registered scheme, in registry order.
pub fn schemes() -> Vec<SchemeInfo> {
    REGISTRY.iter().map(|d| d.info).collect()
}

/// Look a scheme up by name.
pub(crate) fn lookup(name: &str) -> Result<&'static SchemeDef, Error> {
    REGISTRY
        .iter()
        .find(|d| d.info.name == name)
        .ok_or_else(|| Error::UnknownScheme {
            name: name.to_string(),
            allowed: REGISTRY
                .iter()
                .map(|d| d.info.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}
