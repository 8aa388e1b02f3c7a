//! The loss-coping variants of the LL-ELSN study (issue 14; eln-llelsn spec §4.5-4.13), each
//! with the modifiers it implies. On the `modern` profile (the study ran ns-2's fine-grained
//! TCP), over Reno's fast recovery.

use super::{AgentKind, Modifiers, RecoveryKind, SchemeDef, SchemeInfo, E2E, MODERN_MODS, NONE};

pub(super) static VARIANTS: &[(SchemeDef, Modifiers)] = &[
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-westwood",
                family: E2E,
                description: "TCP Westwood+: one bandwidth sample per round trip (bytes acknowledged over at least one smoothed RTT), a Tustin filter (tcp.westwood_filter = linux for Linux's two EWMAs); after three duplicates or a timeout ssthresh = bandwidth x minimum RTT instead of half the flight; Reno's growth and recovery on the modern profile; e2e-westwood == e2e+modern+westwood",
                source: "Grieco & Mascolo, ACM CCR 2004; Mascolo et al., MobiCom 2001; eln-llelsn spec 4.5",
            },
            recovery: RecoveryKind::Reno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers {
            westwood: true,
            ..MODERN_MODS
        },
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-veno",
                family: E2E,
                description: "TCP Veno: the Vegas backlog N = cwnd (RTT - BaseRTT)/RTT decides: with N < 3 segments a fast retransmit cuts the window by a fifth (a random loss), else by half; in congestion avoidance with N >= 3 the window grows every other round trip; Reno's recovery on the modern profile; e2e-veno == e2e+modern+veno",
                source: "Fu & Liew, IEEE JSAC 21(2), 2003; Linux tcp_veno.c; eln-llelsn spec 4.7",
            },
            recovery: RecoveryKind::Reno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers {
            veno: true,
            ..MODERN_MODS
        },
    ),
];
