//! The `+` modifiers of a scheme name (`e2e-newreno+eifel+cubic`), parsed through one table,
//! [`table`]: the rows of this file, then one per named controller (`cc.rs`, [`NAMED`]). The
//! parser, the error that lists the allowed modifiers and the public listing
//! ([`scheme_modifiers`]) all read it.
//!
//! A choice made by a modifier is held as a value, not a flag per modifier: at most one TCP
//! profile (`+modern`, `+linux`) and at most one congestion controller, so two of either in one
//! scheme (`e2e-cubic+bbr`, or an alias's and the name's) fail when the name is parsed.

use crate::cc::{CcKind, NAMED};
use crate::schema::Profile;

/// What a modifier adds to a scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Modifier {
    /// RFC 7323 timestamps and the Eifel detector.
    Eifel,
    /// The TCP profile.
    Profile(Profile),
    /// RFC 3042 limited transmit.
    LimitedTransmit,
    /// Proportional Rate Reduction.
    Prr,
    /// RACK-TLP.
    Rack,
    /// F-RTO.
    Frto,
    /// RFC 3168 ECN.
    Ecn,
    /// A congestion controller.
    Cc(CcKind),
}

/// A modifier as the listing shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModifierInfo {
    /// What follows the `+`.
    pub name: &'static str,
    /// One line: what it adds.
    pub description: &'static str,
}

/// The modifiers that are not controllers, in listing order.
const ROWS: [(&str, Modifier, &str); 8] = [
    (
        "eifel",
        Modifier::Eifel,
        "RFC 7323 timestamps and the Eifel detector (Ludwig2000 §3.1; tcp.eifel)",
    ),
    (
        "modern",
        Modifier::Profile(Profile::Modern),
        "the modern TCP profile: RFC 6298 timers, RFC 5681 Reno (tcp.profile)",
    ),
    (
        "linux",
        Modifier::Profile(Profile::Linux),
        "the linux TCP profile: a current Linux sender's defaults (tcp.profile; docs/modern.md)",
    ),
    (
        "lt",
        Modifier::LimitedTransmit,
        "limited transmit (RFC 3042; tcp.limited_transmit)",
    ),
    (
        "prr",
        Modifier::Prr,
        "Proportional Rate Reduction in fast recovery (RFC 6937; tcp.prr)",
    ),
    (
        "rack",
        Modifier::Rack,
        "RACK-TLP loss detection instead of the SACK sender's (RFC 8985; tcp.rack)",
    ),
    (
        "frto",
        Modifier::Frto,
        "F-RTO spurious-timeout detection (RFC 5682; tcp.frto)",
    ),
    ("ecn", Modifier::Ecn, "RFC 3168 ECN on both ends (tcp.ecn)"),
];

/// Every modifier: name, meaning, one line.
pub(crate) fn table() -> impl Iterator<Item = (&'static str, Modifier, &'static str)> {
    ROWS.into_iter().chain(
        NAMED
            .into_iter()
            .map(|k| (k.name(), Modifier::Cc(k), k.description())),
    )
}

/// The modifier named `name` (without its `+`).
pub(crate) fn find(name: &str) -> Option<Modifier> {
    table().find(|&(n, _, _)| n == name).map(|(_, m, _)| m)
}

/// The modifiers as the errors list them: `+eifel, +modern, ...`.
pub(crate) fn list() -> String {
    table()
        .map(|(n, _, _)| format!("+{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every modifier a scheme name may carry, in listing order.
pub fn scheme_modifiers() -> Vec<ModifierInfo> {
    table()
        .map(|(name, _, description)| ModifierInfo { name, description })
        .collect()
}

/// The modifiers a scheme carries: those its registry row implies and those after `+` in its
/// name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Modifiers {
    /// The TCP profile a modifier chose (`+modern`, `+linux`).
    pub profile: Option<Profile>,
    /// The congestion controller a modifier chose, with its default settings.
    pub cc: Option<CcKind>,
    pub eifel: bool,
    pub limited_transmit: bool,
    /// Proportional Rate Reduction in fast recovery (RFC 6937).
    pub prr: bool,
    /// RACK-TLP loss detection instead of the SACK sender's (RFC 8985).
    pub rack: bool,
    /// F-RTO spurious-timeout detection (RFC 5682).
    pub frto: bool,
    /// RFC 3168 ECN on both ends (`tcp.ecn`).
    pub ecn: bool,
}

impl Modifiers {
    /// No modifier.
    pub(crate) const NONE: Modifiers = Modifiers {
        profile: None,
        cc: None,
        eifel: false,
        limited_transmit: false,
        prr: false,
        rack: false,
        frto: false,
        ecn: false,
    };

    /// The `modern` profile, as the study variants and today's anchors imply it.
    pub(crate) const MODERN: Modifiers = Modifiers {
        profile: Some(Profile::Modern),
        ..Modifiers::NONE
    };

    /// The `modern` profile with the controller `cc`.
    pub(crate) const fn modern_with(cc: CcKind) -> Modifiers {
        Modifiers {
            cc: Some(cc),
            ..Modifiers::MODERN
        }
    }

    /// These modifiers and `m`; a second profile or a second controller is refused (the same
    /// one again is not a second).
    pub(crate) fn with(mut self, m: Modifier) -> Result<Modifiers, String> {
        match m {
            Modifier::Eifel => self.eifel = true,
            Modifier::LimitedTransmit => self.limited_transmit = true,
            Modifier::Prr => self.prr = true,
            Modifier::Rack => self.rack = true,
            Modifier::Frto => self.frto = true,
            Modifier::Ecn => self.ecn = true,
            Modifier::Profile(p) => match self.profile {
                Some(q) if q != p => {
                    let name = |p| {
                        ROWS.iter()
                            .find(|r| r.1 == Modifier::Profile(p))
                            .map_or("?", |r| r.0)
                    };
                    return Err(format!(
                        "+{} and +{} both choose the TCP profile; keep one",
                        name(q),
                        name(p)
                    ));
                }
                _ => self.profile = Some(p),
            },
            Modifier::Cc(k) => match self.cc {
                Some(c) if c.name() != k.name() => {
                    return Err(format!(
                        "+{} and +{} both choose the congestion controller; keep one",
                        c.name(),
                        k.name()
                    ))
                }
                Some(_) => {}
                None => self.cc = Some(k),
            },
        }
        Ok(self)
    }

    /// These modifiers and all of `other`'s (a split scheme's name's, for its wireless leg).
    pub(crate) fn merge(self, other: Modifiers) -> Result<Modifiers, String> {
        let flags = [
            (other.eifel, Modifier::Eifel),
            (other.limited_transmit, Modifier::LimitedTransmit),
            (other.prr, Modifier::Prr),
            (other.rack, Modifier::Rack),
            (other.frto, Modifier::Frto),
            (other.ecn, Modifier::Ecn),
        ];
        let choices = [
            other.profile.map(Modifier::Profile),
            other.cc.map(Modifier::Cc),
        ];
        flags
            .into_iter()
            .filter_map(|(on, m)| on.then_some(m))
            .chain(choices.into_iter().flatten())
            .try_fold(self, Modifiers::with)
    }
}
