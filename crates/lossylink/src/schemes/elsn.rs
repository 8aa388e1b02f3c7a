//! LL-ELSN (issue 15; eln-llelsn spec §4.1-4.3): the link layer of the hop that carries the
//! data notifies the sender of every frame the 802.11 MAC gave up (ELN) and of every
//! retransmission it starts (ERSN); the sender runs ESACK. On the `modern` profile, like the
//! study's other variants (ns-2's fine-grained TCP).

use super::NACK_RX;
use super::{AgentKind, Modifiers, RecoveryKind, SchemeDef, SchemeInfo, LL, SACK_RX};

pub(super) static ELSN: &[(SchemeDef, Modifiers)] = &[
    (
        SchemeDef {
            info: SchemeInfo {
                name: "snoop-newreno",
                family: LL,
                description: "snoop (ll-tcp-aware) at the base station with NewReno senders, as the LL-ELSN study ran it (ns-2's snoop with NewReno); on the modern profile",
                source: "Balakrishnan97 2.9, B.3; eln-llelsn spec 4.4 (\"We use NewReno when evaluating the performance of Snoop\")",
            },
            recovery: RecoveryKind::NewReno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: super::NONE,
            agent: AgentKind::Snoop,
        },
        Modifiers::MODERN,
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "ll-elsn",
                family: LL,
                description: "LL-ELSN with ESACK: the 802.11 MAC that sends the data (access point downlink, the station itself uplink) reports each frame it gave up after its last retry (ELN) and each first retry (ERSN, elsn.ersn) to the sender (elsn.path = control | oracle); ESACK resends an ELN'd segment without a window cut, keeps ELN holes out of its SACK congestion test, filters runs of consecutive ELNs (tcp.esack_filter) and halves once per congestion episode; on the modern profile",
                source: "Cross-layer explicit link status notification, EURASIP JWCN 2009 (eln-llelsn spec 4.1-4.3, [PROPOSAL] readings)",
            },
            recovery: RecoveryKind::Esack,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: SACK_RX,
            agent: AgentKind::Elsn,
        },
        Modifiers::MODERN,
    ),
    elsn_with("ll-elsn-hack", "LL-ELSN's ELNs to a TCP HACK sender (the study's Fig. 14): an ELN is handled as HACK's NACK, resent without a congestion response, the later duplicates still count towards NewReno's fast retransmit; on the modern profile", RecoveryKind::Hack { fixed: false }),
    elsn_with("ll-elsn-hack-fixed", "LL-ELSN's ELNs to a HACK-fixed sender (Fig. 14): duplicates at an ELN'd hole do not count; NewReno otherwise; on the modern profile", RecoveryKind::Hack { fixed: true }),
    elsn_with("ll-elsn-lhp", "LL-ELSN's ELNs to LHP's packet-list sender (Fig. 14): ELN'd segments are resent at once and kept out of the duplicate count, other losses run one Reno fast recovery each; on the modern profile", RecoveryKind::Lhp),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-esack",
                family: super::E2E,
                description: "ESACK without a link layer that notifies: RFC 6675-style SACK recovery that halves once per congestion episode; what an LL-ELSN sender does where no ELN arrives (the friendliness baseline of the study)",
                source: "eln-llelsn spec 4.3 ([PROPOSAL]: reduces to RFC 3517/6675 SACK without ELN)",
            },
            recovery: RecoveryKind::Esack,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: SACK_RX,
            agent: AgentKind::None,
        },
        Modifiers::MODERN,
    ),
];

/// LL-ELSN's agent with another notified sender (eln-llelsn spec §5.4.2, Fig. 14: "LL-ELSN with
/// HACK, HACK-fixed, LHP packet list"); ERSN restarts its timer as ESACK's.
const fn elsn_with(
    name: &'static str,
    description: &'static str,
    recovery: RecoveryKind,
) -> (SchemeDef, Modifiers) {
    (
        SchemeDef {
            info: SchemeInfo {
                name,
                family: LL,
                description,
                source: "eln-llelsn spec 5.4.2 (Fig. 14), 4.11-4.12; Balan et al., INFOCOM 2001; Gao et al., ICC 2003",
            },
            recovery,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NACK_RX,
            agent: AgentKind::Elsn,
        },
        Modifiers::MODERN,
    )
}
