//! The scheme registry: the one list of scheme names that the CLI, Python and the docs print.
//!
//! A scheme is a preset of parts: which loss recovery and congestion response the sender uses,
//! what the receiver adds to its ACKs, and which agent (if any) runs at the base station. For a
//! split-connection scheme the sender and receiver parts are those of the wireless leg (base
//! station to mobile); the wired leg is always the profile's Reno, and `split.wireless_scheme`
//! may put the parts of any end-to-end scheme on the wireless leg instead. Timer
//! style and other TCP defaults come from the scenario's `tcp.profile`, orthogonally.
//!
//! A name may carry modifiers after `+`: `e2e-newreno+eifel` adds RFC 7323 timestamps and the
//! Eifel detector (Ludwig2000 §3.1), `+modern` selects the `modern` TCP profile (RFC 6298 timers
//! with a 200 ms minimum RTO, RFC 5681 Reno), `+lt` adds limited transmit (RFC 3042),
//! `+cubic` replaces Reno's window rule by CUBIC (RFC 9438) on the sender.
//!
//! Today's stacks (issue 14) are registered in a separate table, [`MODERN`], whose entries also
//! fix the modifiers they imply (`e2e-cubic` is SACK + CUBIC on the `modern` profile).

use crate::cc::CcKind;
use crate::error::Error;

mod aliases;
mod anchors;
mod elsn;
mod modifiers;
mod variants;

pub use aliases::{scheme_aliases, SchemeAlias};
pub(crate) use modifiers::Modifiers;
pub use modifiers::{scheme_modifiers, ModifierInfo};

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

/// Which loss-recovery part the sender uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecoveryKind {
    /// Reno (4.4BSD-Lite).
    Reno,
    /// NewReno (flavour from `tcp.newreno`).
    NewReno,
    /// SMART bitmask sender (Balakrishnan97 §2.4).
    Smart,
    /// RFC 2018 SACK sender (flavour from `tcp.sack_sender`).
    Sack,
    /// TCP-ELN's state machine over Reno (Buchholcz et al.; knobs from `tcp.eln`).
    TcpEln,
    /// TCP-DCR: the base's response to duplicates delayed by one RTT (eln-llelsn spec §4.6);
    /// `sack`: over the SACK sender (`tcp.sack_sender`), else over Reno.
    Dcr { sack: bool },
    /// ESACK, LL-ELSN's sender (eln-llelsn spec §4.3; `tcp.esack_filter`).
    Esack,
    /// TCP HACK over NewReno: NACKed segments resent at once (spec §4.12); `fixed`: their
    /// duplicates do not count (HACK-fixed).
    Hack { fixed: bool },
    /// LHP's packet list over Reno (spec §4.11): HACK-fixed's rule, a fast recovery per
    /// unlisted loss.
    Lhp,
}

/// Options the receiver adds to its ACKs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReceiverOptions {
    pub sack: bool,
    pub smart: bool,
    pub eln: bool,
    /// TCP-ELN's corruption counter on every ACK.
    pub corruption_counter: bool,
    /// HACK / LHP: an ACK naming each segment received with a corrupted payload.
    pub nack: bool,
}

/// Which agent runs at the base station.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AgentKind {
    /// Plain IP forwarding.
    None,
    /// LL (Balakrishnan97 §2.8).
    Ll,
    /// LL-TCP-AWARE, snoop (§2.9, §B.3).
    Snoop,
    /// LL-SMART (§2.10).
    Smart,
    /// LL-SMART-TCP-AWARE (§2.11).
    SmartTcpAware,
    /// ELN marked by the base station (§B.5, §5.2 (b)).
    ElnBs,
    /// A split-connection proxy (§2.12, §B.2): the scheme's parts run on the wireless leg.
    Split,
    /// Selective-repeat link ARQ with link-level ACKs and a link receiver at the mobile (§2.13).
    Arq,
    /// LL-ELSN (eln-llelsn spec §4.1-4.2): ELN and ERSN from the 802.11 MAC that sends the data.
    Elsn,
}

/// A registered scheme: its description and its parts.
pub(crate) struct SchemeDef {
    pub info: SchemeInfo,
    pub recovery: RecoveryKind,
    /// ELN at the sender, with this ELN duplicate-ACK threshold.
    pub eln_dupthresh: Option<u32>,
    /// RFC 3042 limited transmit.
    pub limited_transmit: bool,
    pub receiver: ReceiverOptions,
    /// The base-station agent.
    pub agent: AgentKind,
}

/// A scheme name resolved to its definition and modifiers.
#[derive(Clone, Copy)]
pub(crate) struct Resolved {
    pub def: &'static SchemeDef,
    pub mods: Modifiers,
}

const E2E: &str = "end-to-end";
const LL: &str = "link-layer";
/// The family of the split-connection schemes.
pub(crate) const SPLIT: &str = "split-connection";
const SMART_RX: ReceiverOptions = ReceiverOptions {
    sack: false,
    smart: true,
    eln: false,
    corruption_counter: false,
    nack: false,
};
const NONE: ReceiverOptions = ReceiverOptions {
    sack: false,
    smart: false,
    eln: false,
    corruption_counter: false,
    nack: false,
};
const SACK_RX: ReceiverOptions = ReceiverOptions {
    sack: true,
    smart: false,
    eln: false,
    corruption_counter: false,
    nack: false,
};
const SACK_ELN_RX: ReceiverOptions = ReceiverOptions {
    sack: true,
    smart: false,
    eln: true,
    corruption_counter: false,
    nack: false,
};
const CC_RX: ReceiverOptions = ReceiverOptions {
    sack: false,
    smart: false,
    eln: false,
    corruption_counter: true,
    nack: false,
};
const ELN_RX: ReceiverOptions = ReceiverOptions {
    sack: false,
    smart: false,
    eln: true,
    corruption_counter: false,
    nack: false,
};
const NACK_RX: ReceiverOptions = ReceiverOptions {
    sack: false,
    smart: false,
    eln: false,
    corruption_counter: false,
    nack: true,
};

static REGISTRY: &[SchemeDef] = &[
    SchemeDef {
        info: SchemeInfo {
            name: "e2e",
            family: E2E,
            description: "TCP Reno as in 4.4BSD-Lite: fast retransmit on the 3rd dupack, Reno fast recovery, go-back-N after a coarse timeout; plain IP forwarding at the base station",
            source: "Balakrishnan97 §2.1-2.2, Table 1 (E2E); RFC 5681",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-newreno",
            family: E2E,
            description: "NewReno: a partial ACK keeps the sender in fast recovery and resends the next hole at once, one hole per round trip, one halving per window (tcp.newreno = paper | rfc6582)",
            source: "Balakrishnan97 §2.3, Table 1 (E2E-NEWRENO); RFC 6582",
        },
        recovery: RecoveryKind::NewReno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-smart",
            family: E2E,
            description: "SMART selective acks: each ACK names the segment that triggered it; the sender keeps a bitmask, resends every gap at once (once per round trip per segment) and halves once per loss episode",
            source: "Balakrishnan97 §2.4, Table 1 (E2E-SMART); Keshav & Morgan SMART",
        },
        recovery: RecoveryKind::Smart,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SMART_RX,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-ietf-sack",
            family: E2E,
            description: "RFC 2018 SACK (up to 3 blocks) with a scoreboard sender: recovery on the 3rd dupack, one halving, holes resent before new data under pipe < cwnd (tcp.sack_sender = fall-floyd | rfc6675 | rfc6675-basic)",
            source: "Balakrishnan97 §2.5, §B.1, Table 1 (E2E-IETF-SACK); RFC 2018; Fall & Floyd 1996; RFC 6675",
        },
        recovery: RecoveryKind::Sack,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SACK_RX,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-eln",
            family: E2E,
            description: "Explicit Loss Notification: the receiver marks dupacks for segments corrupted on the wireless hop (oracle); on the 3rd marked dupack the sender resends without any congestion response",
            source: "Balakrishnan97 §2.6, Table 1 (E2E-ELN)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: Some(3),
        limited_transmit: false,
        receiver: ELN_RX,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-eln-rxmt",
            family: E2E,
            description: "ELN with retransmission on the first marked duplicate ACK, once per round trip, no congestion response",
            source: "Balakrishnan97 §2.7, Table 1 (E2E-ELN-RXMT)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: Some(1),
        limited_transmit: false,
        receiver: ELN_RX,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-sack-eln",
            family: E2E,
            description: "SACK plus ELN: the SACK scoreboard finds every hole, and an ELN-marked 3rd dupack resends without any congestion response",
            source: "Balakrishnan97 §6.5 (§7 future work: couple SACKs and ELN), §B.1",
        },
        recovery: RecoveryKind::Sack,
        eln_dupthresh: Some(3),
        limited_transmit: false,
        receiver: SACK_ELN_RX,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "tcp-eln",
            family: E2E,
            description: "TCP-ELN: the receiver counts segments corrupted on the last hop and every ACK carries the count; a rise resends at once, keeps cwnd and restores it on the recovery ACK",
            source: "Buchholcz et al. (TCP-ELN), eln-llelsn spec §3.2-3.4",
        },
        recovery: RecoveryKind::TcpEln,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: CC_RX,
        agent: AgentKind::None,
    },

    SchemeDef {
        info: SchemeInfo {
            name: "e2e-limited-transmit",
            family: E2E,
            description: "Reno plus limited transmit: one new segment on each of the first two dupacks, so small windows still reach three dupacks (the paper's §5.3 proposal)",
            source: "Balakrishnan97 §B.5 (§5.3); RFC 3042",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: true,
        receiver: NONE,
        agent: AgentKind::None,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "ll",
            family: LL,
            description: "base-station link layer: caches segments, retransmits locally on the 2nd dupack or a 200 ms-tick local timer, forwards every ACK (dupacks too), no in-order delivery (ll.dupthresh, ll.min_rto, ll.tick)",
            source: "Balakrishnan97 §2.8, Table 2 (LL)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::Ll,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "ll-tcp-aware",
            family: LL,
            description: "snoop: LL plus suppression of the dupacks of locally repaired losses, expected-dupack bookkeeping and the partial-ACK rule; dupacks for segments it does not hold are forwarded",
            source: "Balakrishnan97 §2.9, §B.3, Table 2 (LL-TCP-AWARE)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::Snoop,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "ll-smart",
            family: LL,
            description: "link layer with SMART selective repeat: the mobile's ACKs carry the triggering segment, the base station retransmits exactly the holes (once per link RTT), strips the option, forwards every ACK",
            source: "Balakrishnan97 §2.10, Table 2 (LL-SMART)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SMART_RX,
        agent: AgentKind::Smart,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "ll-smart-tcp-aware",
            family: LL,
            description: "LL-SMART plus snoop's suppression of dupacks for segments being repaired locally",
            source: "Balakrishnan97 §2.11, Table 2 (LL-SMART-TCP-AWARE)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SMART_RX,
        agent: AgentKind::SmartTcpAware,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "eln-bs",
            family: LL,
            description: "ELN generated by the base station: it marks dupacks asking for a segment it forwarded (lost on the wireless hop); the sender is e2e-eln's, the receiver needs no oracle",
            source: "Balakrishnan97 §B.5 (§5.2 strategy (b)), §2.6",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: Some(3),
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::ElnBs,
    },
    SchemeDef {
        info: SchemeInfo {
            name: "ll-arq",
            family: LL,
            description: "beyond the paper: selective-repeat link ARQ with its own link ACK frames (cumulative + bitmap) from the mobile, retransmission on a gap report or a link timer, a retransmission limit or persistent, optional in-order delivery at the mobile (ll.arq.max_retransmissions, ll.arq.in_order, ll.arq.ack_size, ll.arq.min_rto)",
            source: "Balakrishnan97 §2.13 (TDMA in-order, CDMA limited retry), §4.2; Ludwig2000 §1, §3.6 (RLP SREJ, N2)",
        },
        recovery: RecoveryKind::Reno,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: NONE,
        agent: AgentKind::Arq,
    },
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
    },
];

static MODERN: &[(SchemeDef, Modifiers)] = &[(
    SchemeDef {
        info: SchemeInfo {
            name: "e2e-cubic",
            family: E2E,
            description: "CUBIC window growth W(t) = C(t-K)^3 + W_max with its Reno-friendly region and fast convergence, beta 0.7, over the RFC 2018 SACK sender on the modern profile (RFC 6298 timer, 200 ms minimum RTO); e2e-cubic == e2e-ietf-sack+modern+cubic",
            source: "RFC 9438; RFC 2018; RFC 6298",
        },
        recovery: RecoveryKind::Sack,
        eln_dupthresh: None,
        limited_transmit: false,
        receiver: SACK_RX,
        agent: AgentKind::None,
    },
    Modifiers::modern_with(CcKind::Cubic),
)];

/// BSD Reno (`e2e`): the parts of the wired leg of every split-connection scheme.
pub(crate) fn reno() -> &'static SchemeDef {
    &REGISTRY[0]
}

/// Every registered scheme, in registry order.
pub fn schemes() -> Vec<SchemeInfo> {
    all().map(|(d, _)| d.info).collect()
}

/// Every registered scheme with the modifiers it implies: the 1997 table, then today's.
fn all() -> impl Iterator<Item = (&'static SchemeDef, Modifiers)> {
    REGISTRY
        .iter()
        .map(|d| (d, Modifiers::NONE))
        .chain(MODERN.iter().map(|(d, m)| (d, *m)))
        .chain(anchors::ANCHORS.iter().map(|(d, m)| (d, *m)))
        .chain(variants::VARIANTS.iter().map(|(d, m)| (d, *m)))
        .chain(elsn::ELSN.iter().map(|(d, m)| (d, *m)))
}

/// What to say of an unknown scheme `base`: the registered names and aliases closest to it (at
/// most three, by edit distance to the name or to the name without its `e2e-` prefix, within a
/// third of its length) and where the whole list is. The registry grows with every variant, so
/// the error line does not list it.
fn nearest(base: &str) -> String {
    let limit = (base.chars().count() / 3).max(2);
    let distance = |name: &str| {
        let short = name.strip_prefix("e2e-").unwrap_or(name);
        strsim::levenshtein(base, name).min(strsim::levenshtein(base, short))
    };
    let names = all()
        .map(|(d, _)| d.info.name)
        .chain(aliases::ALIASES.iter().map(|a| a.alias));
    let mut close: Vec<(usize, &str)> = names
        .map(|n| (distance(n), n))
        .filter(|&(d, _)| d <= limit)
        .collect();
    close.sort();
    let list = format!(
        "`lossylink schemes` lists the {} schemes and {} aliases; modifiers: {}",
        all().count(),
        aliases::ALIASES.len(),
        modifiers::list()
    );
    match close.len() {
        0 => list,
        _ => format!(
            "nearest: {}; {list}",
            close
                .iter()
                .take(3)
                .map(|&(_, n)| n)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Look a scheme up by name, with its `+` modifiers.
pub(crate) fn lookup(name: &str) -> Result<Resolved, Error> {
    let mut parts = name.split('+');
    let base = parts.next().unwrap_or_default().trim();
    // An alias stands for a registered scheme with its modifiers (`cubic` = `e2e-cubic`); the
    // name's own modifiers are added to them.
    let (def, mut mods) = match aliases::expand(base) {
        Some(target) => {
            let r = lookup(target)?;
            (r.def, r.mods)
        }
        None => all()
            .find(|(d, _)| d.info.name == base)
            .ok_or_else(|| Error::UnknownScheme {
                name: name.to_string(),
                allowed: nearest(base),
            })?,
    };
    for m in parts {
        let m = m.trim();
        let Some(modifier) = modifiers::find(m) else {
            return Err(Error::UnknownScheme {
                name: name.to_string(),
                allowed: format!(
                    "modifier '+{m}' is not one of {}; `lossylink schemes` lists the {} schemes",
                    modifiers::list(),
                    all().count()
                ),
            });
        };
        mods = mods
            .with(modifier)
            .map_err(|message| Error::invalid("scheme", message))?;
    }
    Ok(Resolved { def, mods })
}

#[cfg(test)]
mod tests;
