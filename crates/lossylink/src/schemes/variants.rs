//! The loss-coping variants of the LL-ELSN study (issue 14; eln-llelsn spec §4.5-4.13), each
//! with the modifiers it implies. On the `modern` profile (the study ran ns-2's fine-grained
//! TCP), over Reno's fast recovery.

use super::{AgentKind, Modifiers, RecoveryKind, SchemeDef, SchemeInfo, E2E};
use super::{NACK_RX, NONE, SACK_RX};
use crate::cc::{CcKind, JTCP_SAMPLES, TIBET_ALPHA_PPM};
use tcp::cc::{JerseyUnmarked, WestwoodFilter};

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
        Modifiers::modern_with(CcKind::Westwood(WestwoodFilter::Tustin)),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-dcr",
                family: E2E,
                description: "TCP-DCR over Reno: the response to duplicate ACKs waits one smoothed RTT (a timer from the first duplicate), every duplicate meanwhile clocking out one new segment; a hole repaired within it costs nothing, else Reno's fast retransmit and recovery; on the modern profile",
                source: "Bhandarkar, Sadry, Reddy, Vaidya, IEEE TMC 2005; eln-llelsn spec 4.6",
            },
            recovery: RecoveryKind::Dcr { sack: false },
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers::MODERN,
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-dcr-sack",
                family: E2E,
                description: "TCP-DCR over SACK: the response to duplicate ACKs waits one smoothed RTT (a timer from the first duplicate), every duplicate meanwhile clocking out one new segment while the SACK board follows; a hole repaired within it costs nothing, else the SACK sender's recovery (tcp.sack_sender) of every hole; the DCR paper's base and RFC 4653's; on the modern profile",
                source: "Bhandarkar, Sadry, Reddy, Vaidya, IEEE TMC 2005; RFC 4653; eln-llelsn spec 4.6",
            },
            recovery: RecoveryKind::Dcr { sack: true },
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: SACK_RX,
            agent: AgentKind::None,
        },
        Modifiers::MODERN,
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
        Modifiers::modern_with(CcKind::Veno),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-jersey",
                family: E2E,
                description: "TCP-Jersey: the available-bandwidth estimator R = (RTT R + L)/(gap + RTT) over the ACK stream; after three duplicates or a timeout the window comes from ownd = R x minimum RTT (tcp.jersey_unmarked_loss = keep: an unmarked loss only retransmits); an ACK with a congestion warning (CW) runs rcontrol() (routers mark where a link sets cw_mark); Reno's growth on the modern profile; e2e-jersey == e2e+modern+jersey",
                source: "Xu, Tian, Ansari, IEEE JSAC 22(4), 2004; eln-llelsn spec 4.8",
            },
            recovery: RecoveryKind::Reno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers::modern_with(CcKind::Jersey(JerseyUnmarked::Ownd)),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-jtcp",
                family: E2E,
                description: "JTCP: the mean jitter ratio of the last tcp.jtcp_samples (8) packets against 1/cwnd tells congestion (Reno's halving) from a wireless loss (fast retransmit, window kept); Reno otherwise, on the modern profile; e2e-jtcp == e2e+modern+jtcp",
                source: "Wu & Chen, IEEE JSAC 22(4), 2004; eln-llelsn spec 4.9",
            },
            recovery: RecoveryKind::Reno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers::modern_with(CcKind::Jtcp(JTCP_SAMPLES)),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-tibet",
                family: E2E,
                description: "TIBET: packet lengths and ACK inter-arrival times low-pass filtered separately (alpha = tcp.tibet_alpha, 0.99), BWE = their ratio; after three duplicates or a timeout ssthresh = BWE x minimum RTT as Westwood's; on the modern profile; e2e-tibet == e2e+modern+tibet",
                source: "Capone, Fratta, Martignon, IEEE TMC 3(2), 2004; eln-llelsn spec 4.10",
            },
            recovery: RecoveryKind::Reno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers::modern_with(CcKind::Tibet(TIBET_ALPHA_PPM)),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-ideal-bwe",
                family: E2E,
                description: "the ideal-BWE oracle: Westwood's rule with the ground truth, ssthresh = rate x RTT after three duplicates or a timeout, the rate and RTT given (tcp.ideal_bwe_rate, tcp.ideal_bwe_rtt; by default the slowest link on the flow's path and its propagation round trip); on the modern profile; e2e-ideal-bwe == e2e+modern+ideal-bwe",
                source: "eln-llelsn spec 4.13 (the LL-ELSN study's friendliness reference)",
            },
            recovery: RecoveryKind::Reno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE,
            agent: AgentKind::None,
        },
        Modifiers::modern_with(CcKind::IdealBwe {
            rate_bps: None,
            rtt: None,
        }),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-hack",
                family: E2E,
                description: "TCP HACK: the receiver answers a segment with a corrupted payload and an intact header at once with an ACK naming it (NACK); the sender resends it without a congestion response; the later segments' duplicates still count towards NewReno's fast retransmit; on the modern profile",
                source: "Balan et al., IEEE INFOCOM 2001; eln-llelsn spec 4.12",
            },
            recovery: RecoveryKind::Hack { fixed: false },
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NACK_RX,
            agent: AgentKind::None,
        },
        Modifiers::MODERN,
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-hack-fixed",
                family: E2E,
                description: "HACK-fixed: TCP HACK whose duplicates at a NACKed hole do not count towards the fast retransmit (the spec's reading of the study's fix); NewReno otherwise, on the modern profile",
                source: "eln-llelsn spec 4.12 (c) [PROPOSAL]; Balan et al., IEEE INFOCOM 2001",
            },
            recovery: RecoveryKind::Hack { fixed: true },
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NACK_RX,
            agent: AgentKind::None,
        },
        Modifiers::MODERN,
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-lhp",
                family: E2E,
                description: "LHP packet-list sender: segments the receiver names as corrupted (intact header) are resent at once and their duplicates kept out of the count; other losses run Reno's fast recovery each, several per window; on a chain every corrupted arrival is named, on an 802.11 cell only with dcf.header_protection (LHP's link-layer half); on the modern profile",
                source: "Gao, Diggavi, Muthukrishnan, ICC 2003; eln-llelsn spec 4.11 (c) [PROPOSAL]",
            },
            recovery: RecoveryKind::Lhp,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NACK_RX,
            agent: AgentKind::None,
        },
        Modifiers::MODERN,
    ),
];
