//! Today's anchors beyond CUBIC (issue 14; docs/modern.md): PRR, RACK-TLP, F-RTO, BBRv1 and
//! the `linux` profile, each with the modifiers it implies. A separate table so that the
//! loss-coping variants of the same issue grow [`super::MODERN`] without touching this one.

use super::{
    AgentKind, Modifiers, RecoveryKind, SchemeDef, SchemeInfo, E2E, NONE as NONE_RX, SACK_RX,
};
use crate::cc::CcKind;
use crate::schema::Profile;

pub(super) static ANCHORS: &[(SchemeDef, Modifiers)] = &[
    (
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-prr",
            family: E2E,
            description: "Proportional Rate Reduction in fast recovery: each ACK clocks out ssthresh/RecoverFS of what it delivered while pipe > ssthresh, then the slow-start reduction bound brings pipe back to ssthresh; over the RFC 6675 SACK sender with RFC 5681 Reno on the modern profile; e2e-prr == e2e-ietf-sack+modern+prr",
            source: "RFC 6937; RFC 6675; RFC 2018",
        },
        recovery: RecoveryKind::Sack,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SACK_RX,
        agent: AgentKind::None,
    },
    Modifiers {
            prr: true,
            ..Modifiers::MODERN
        },
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-rack",
                family: E2E,
                description: "RACK-TLP loss detection: a segment is lost once one sent after it was delivered and a reordering window (min RTT/4, 0 with 3 SACKed and no reordering seen) has passed, lost retransmissions included; a tail loss probe after 2 SRTT instead of the RTO; over SACK with RFC 5681 Reno on the modern profile; e2e-rack == e2e-ietf-sack+modern+rack",
                source: "RFC 8985; RFC 6675; RFC 2018",
            },
            recovery: RecoveryKind::Sack,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: SACK_RX,
            agent: AgentKind::None,
        },
        Modifiers {
            rack: true,
            ..Modifiers::MODERN
        },
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-frto",
                family: E2E,
                description: "F-RTO spurious-timeout detection without timestamps: after a timeout only the first segment is resent; if the next ACK advances snd_una two new segments go instead of the go-back-N, and a second advancing ACK shows the timeout spurious (RFC 4015 response: ssthresh and most of cwnd restored); over NewReno on the modern profile; e2e-frto == e2e-newreno+modern+frto",
                source: "RFC 5682; RFC 4015; RFC 6582",
            },
            recovery: RecoveryKind::NewReno,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: NONE_RX,
            agent: AgentKind::None,
        },
        Modifiers {
            frto: true,
            ..Modifiers::MODERN
        },
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-bbr",
                family: E2E,
                description: "BBR v1: paces at gain x the windowed-max delivery rate of the last 10 round trips and caps the flight at 2 BDP (min RTT over 10 s); Startup at 2/ln2 until the rate stops growing 25 % in three rounds, Drain, ProbeBW gains 5/4, 3/4, 1 x6, ProbeRTT (4 segments for 200 ms every 10 s); loss only triggers packet conservation; over SACK on the modern profile; e2e-bbr == e2e-ietf-sack+modern+bbr",
                source: "draft-cardwell-iccrg-bbr-congestion-control-00; Cardwell et al., ACM Queue 14(5) 2016; draft-cheng-iccrg-delivery-rate-estimation-00",
            },
            recovery: RecoveryKind::Sack,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: SACK_RX,
            agent: AgentKind::None,
        },
        Modifiers::modern_with(CcKind::Bbr),
    ),
    (
        SchemeDef {
            info: SchemeInfo {
                name: "e2e-linux",
                family: E2E,
                description: "a current Linux sender's defaults (the linux profile): initial window 10, SACK with RACK-TLP loss detection, PRR, CUBIC, F-RTO, timestamps, RTO = SRTT + max(4 RTTVAR, 200 ms), delayed ACKs with quick-ack mode at the start, every second segment, 40 ms ACK timeout; departures from Linux in docs/modern.md; e2e-linux == e2e-ietf-sack+linux",
                source: "Linux net/ipv4 (tcp_input.c, tcp_output.c, tcp_recovery.c, tcp_cubic.c); RFC 8985; RFC 6937; RFC 9438; RFC 5682",
            },
            recovery: RecoveryKind::Sack,
            eln_dupthresh: None,
            limited_transmit: false,
            receiver: SACK_RX,
            agent: AgentKind::None,
        },
        Modifiers {
            profile: Some(Profile::Linux),
            ..Modifiers::NONE
        },
    ),
];
