//! The scheme registry: the one list of scheme names that the CLI, Python and the docs print.
//!
//! A scheme is a preset of parts: which loss recovery and congestion response the sender uses,
//! what the receiver adds to its ACKs, and which agent (if any) runs at the base station. For a
//! split-connection scheme the sender and receiver parts are those of the wireless leg (base
//! station to mobile); the wired leg is always the profile's Reno, and `split.wireless_scheme`
//! may put the parts of any end-to-end scheme on the wireless leg instead. Timer
//! style and other TCP defaults come from the scenario's `tcp.profile`, orthogonally.
//!
//! A name may carry modifiers after `+` (`schemes/modifiers.rs`, one table): `e2e-newreno+eifel`
//! adds RFC 7323 timestamps and the Eifel detector (Ludwig2000 §3.1), `+modern` selects the
//! `modern` TCP profile (RFC 6298 timers, RFC 5681 Reno), `+cubic` replaces Reno's window rule by
//! CUBIC (RFC 9438) on the sender, and so on; a row also fixes the modifiers it implies
//! (`e2e-cubic` is SACK + CUBIC on the `modern` profile).
//!
//! The rows are kept by family, one file each: `schemes/end_to_end.rs`, `schemes/link_layer.rs`,
//! `schemes/split.rs`; `lossylink schemes` lists them in that order, then the aliases
//! (`schemes/aliases.rs`).

use crate::error::Error;

mod aliases;
mod end_to_end;
mod link_layer;
mod modifiers;
mod split;

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
    /// TCP-ELN (Buchholcz et al.; knobs from `tcp.eln`): its state machine over Reno, or its
    /// corruption response over NewReno or SACK (`tcp.newreno`, `tcp.sack_sender`).
    TcpEln { base: ElnBase },
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

/// The recovery TCP-ELN's corruption response rides on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ElnBase {
    /// Reno: the paper's state machine (eln-llelsn spec §3.3-3.4).
    Reno,
    /// NewReno's partial ACKs repair the further holes.
    NewReno,
    /// The SACK scoreboard repairs them.
    Sack,
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
    /// The modifiers the scheme implies (`e2e-cubic` is `e2e-ietf-sack+modern+cubic`).
    pub mods: Modifiers,
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
const CC_SACK_RX: ReceiverOptions = ReceiverOptions {
    sack: true,
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

/// BSD Reno (`e2e`): the parts of the wired leg of every split-connection scheme.
pub(crate) fn reno() -> &'static SchemeDef {
    &end_to_end::END_TO_END[0]
}

/// Every registered scheme, in registry order.
pub fn schemes() -> Vec<SchemeInfo> {
    all().map(|d| d.info).collect()
}

/// Every registered scheme, by family: end-to-end, link-layer, split-connection.
fn all() -> impl Iterator<Item = &'static SchemeDef> {
    end_to_end::END_TO_END
        .iter()
        .chain(link_layer::LINK_LAYER)
        .chain(split::SPLIT_CONNECTION)
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
        .map(|d| d.info.name)
        .chain(aliases::ALIASES.iter().map(|a| a.alias));
    let mut close: Vec<(usize, &str)> = names
        .map(|n| (distance(n), n))
        .filter(|&(d, _)| d <= limit)
        .collect();
    close.sort();
    // The counts, not the names: the list grows with every scheme and controller.
    let list = format!(
        "`lossylink schemes` lists the {} schemes, {} aliases and {} +modifiers",
        all().count(),
        aliases::ALIASES.len(),
        modifiers::table().count()
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
            .find(|d| d.info.name == base)
            .map(|d| (d, d.mods))
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
