//! Short scheme names a newcomer reaches for (`reno`, `cubic`, `bbr`, ...), each standing for
//! one registered scheme with its modifiers. They are not schemes of their own: a run asked for
//! `cubic` is the run of `e2e-cubic`, and `cubic+eifel` is `e2e-cubic+eifel`. All five are on
//! the `modern` TCP profile (RFC 6298 timers, 200 ms minimum RTO, RFC 5681 Reno), so that they
//! compare like with like; the papers' 4.4BSD Reno is `e2e`. `lossylink schemes` prints the
//! table after the registry, and an unknown name is matched against it for the nearest names.

/// One alias: the short name, the scheme (with modifiers) it stands for, and what that is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchemeAlias {
    /// The short name.
    pub alias: &'static str,
    /// The registered scheme, with modifiers, it means.
    pub scheme: &'static str,
    /// One line: what the scheme is.
    pub description: &'static str,
}

/// The alias table.
pub(super) static ALIASES: &[SchemeAlias] = &[
    SchemeAlias {
        alias: "reno",
        scheme: "e2e+modern",
        description:
            "Reno (RFC 5681) without SACK on the modern profile; the papers' 4.4BSD Reno is e2e",
    },
    SchemeAlias {
        alias: "newreno",
        scheme: "e2e-newreno+modern",
        description: "NewReno (RFC 6582) without SACK on the modern profile",
    },
    SchemeAlias {
        alias: "sack",
        scheme: "e2e-ietf-sack+modern",
        description: "Reno's window with SACK (RFC 2018) loss recovery on the modern profile",
    },
    SchemeAlias {
        alias: "cubic",
        scheme: "e2e-cubic",
        description: "CUBIC (RFC 9438) over SACK on the modern profile",
    },
    SchemeAlias {
        alias: "bbr",
        scheme: "e2e-bbr",
        description: "BBR v1 with pacing over SACK on the modern profile",
    },
];

/// The scheme `alias` stands for, if it is one.
pub(super) fn expand(alias: &str) -> Option<&'static str> {
    ALIASES.iter().find(|a| a.alias == alias).map(|a| a.scheme)
}

/// The alias table, in order.
pub fn scheme_aliases() -> &'static [SchemeAlias] {
    ALIASES
}
