//! The congestion controllers a sender may run, as data (DESIGN.md, "Controllers as data").
//!
//! [`CcKind`] is the one list of controllers. Each variant carries its settings, and this file
//! holds everything else of each controller: its `+` modifier and the line the listing and the
//! errors print ([`NAMED`], [`CcKind::name`], [`CcKind::description`]), the `[tcp]` knobs it owns
//! and their validation ([`settle`]), what it takes from the flow's path ([`CcKind::fit_path`])
//! and its construction into the sender's part ([`CcKind::build`]). The scheme modifiers' table
//! (`schemes/modifiers.rs`) takes its controller rows from [`NAMED`], and a scheme's modifiers
//! hold at most one controller, so two controllers in one scheme fail where the name is parsed.
//!
//! Adding a controller (docs/architecture.md, "Adding a congestion controller"): its
//! `tcp::cc::<x>` module, a variant here with its arms (and a row of [`NAMED`] if a modifier
//! names it), and a scheme row if it has a scheme name.

use crate::error::Error;
use crate::schema::{
    CubicFriendlyDoc, HystartDoc, IdealBweAvailableDoc, JerseyLossDoc, Profile, TcpDoc,
    WestwoodFilterDoc,
};
use engine::SimDuration;
use tcp::cc::{
    BbrCc, CubicCc, Hystart, IdealBweCc, JerseyCc, JerseyUnmarked, JtcpCc, RenoCc, RenoFlavor,
    RenoFriendly, TibetCc, VenoCc, WestwoodCc, WestwoodFilter,
};
use tcp::CcPart;

/// TIBET's filter gain α when `tcp.tibet_alpha` is left out (eln-llelsn spec §4.10: 0.99,
/// "verify").
pub(crate) const TIBET_ALPHA_PPM: u32 = 990_000;
/// JTCP's k when `tcp.jtcp_samples` is left out (spec §4.9 gives none: [GAP]).
pub(crate) const JTCP_SAMPLES: u32 = 8;

/// A sender's congestion controller with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CcKind {
    /// Reno in the profile's flavour (RFC 5681; Net/3 on the bsd profile): the default, named
    /// by no modifier.
    Reno(RenoFlavor),
    /// CUBIC (RFC 9438) with or without HyStart++ (RFC 9406; `tcp.hystart`), its Reno-friendly
    /// estimate RFC 9438's or Linux's (`tcp.cubic_friendly`); the linux
    /// profile's default (Linux's since 2.6.19).
    Cubic(Hystart, RenoFriendly),
    /// BBR v1 with pacing (draft-cardwell-iccrg-bbr-congestion-control-00).
    Bbr,
    /// Westwood+ with its bandwidth filter (eln-llelsn spec §4.5; `tcp.westwood_filter`).
    Westwood(WestwoodFilter),
    /// Veno (spec §4.7).
    Veno,
    /// TCP-Jersey with its answer to an unmarked loss (spec §4.8; `tcp.jersey_unmarked_loss`).
    Jersey(JerseyUnmarked),
    /// JTCP averaging this many jitter ratios (spec §4.9; `tcp.jtcp_samples`).
    Jtcp(u32),
    /// TIBET with α in millionths (spec §4.10; `tcp.tibet_alpha`) and, as a counterfactual
    /// only, the longest gap its interval filter takes (`tcp.tibet_max_gap`; none by default).
    Tibet(u32, Option<SimDuration>),
    /// The ideal-BWE oracle (spec §4.13): the available rate in bit/s and the round trip, each
    /// from the path when not given ([`CcKind::fit_path`]).
    IdealBwe {
        rate_bps: Option<u64>,
        rtt: Option<SimDuration>,
        /// `tcp.ideal_bwe_available = "live"`: the rate is the bottleneck's capacity and the
        /// network measures the available rate (`Network::ask_available_rate`).
        live: bool,
    },
}

/// The controllers a `+` modifier names, with their default settings (the `[tcp]` knobs refine
/// them, [`settle`]), in the order the modifier listing prints them.
pub(crate) const NAMED: [CcKind; 9] = [
    // The profile's flavour is chosen in `with_knobs`.
    CcKind::Reno(RenoFlavor::Rfc5681),
    CcKind::Cubic(Hystart::Off, RenoFriendly::Rfc9438),
    CcKind::Bbr,
    CcKind::Westwood(WestwoodFilter::Tustin),
    CcKind::Veno,
    CcKind::Jersey(JerseyUnmarked::Ownd),
    CcKind::Jtcp(JTCP_SAMPLES),
    CcKind::Tibet(TIBET_ALPHA_PPM, None),
    CcKind::IdealBwe {
        rate_bps: None,
        rtt: None,
        live: false,
    },
];

/// The facts of a flow's path an oracle controller takes (eln-llelsn spec §4.13).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PathFacts {
    /// The rate of the slowest link on the data path, bit/s.
    pub slowest_bps: Option<u64>,
    /// The propagation round trip of the path.
    pub propagation_rtt: SimDuration,
}

/// What every controller is built from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CcInit {
    pub mss: u32,
    /// The initial window, bytes.
    pub initial_cwnd: u32,
    /// The window's cap, bytes.
    pub max_window: u32,
    /// The flow's initial sequence number (a seed for controllers that draw, BBR's phase).
    pub isn: u32,
}

impl CcKind {
    /// Its `+` modifier, and its name in messages (`reno` for the default).
    pub(crate) fn name(self) -> &'static str {
        match self {
            CcKind::Reno(_) => "reno",
            CcKind::Cubic(..) => "cubic",
            CcKind::Bbr => "bbr",
            CcKind::Westwood(_) => "westwood",
            CcKind::Veno => "veno",
            CcKind::Jersey(_) => "jersey",
            CcKind::Jtcp(_) => "jtcp",
            CcKind::Tibet(..) => "tibet",
            CcKind::IdealBwe { .. } => "ideal-bwe",
        }
    }

    /// One line: what the modifier puts on the sender, for the listing.
    pub(crate) fn description(self) -> &'static str {
        match self {
            CcKind::Reno(_) => {
                "Reno's window rule instead of the profile's controller: RFC 5681's, Linux's \
                 tcp_reno_cong_avoid on the linux profile, Net/3's on bsd"
            }
            CcKind::Cubic(..) => "CUBIC instead of Reno's window rule on the sender (RFC 9438)",
            CcKind::Bbr => "BBR v1 instead of Reno on the sender, with pacing",
            CcKind::Westwood(_) => {
                "Westwood+ instead of Reno's congestion response (eln-llelsn spec §4.5)"
            }
            CcKind::Veno => "Veno instead of Reno (eln-llelsn spec §4.7)",
            CcKind::Jersey(_) => "TCP-Jersey (eln-llelsn spec §4.8)",
            CcKind::Jtcp(_) => "JTCP (eln-llelsn spec §4.9)",
            CcKind::Tibet(..) => "TIBET (eln-llelsn spec §4.10)",
            CcKind::IdealBwe { .. } => "the ideal-BWE oracle (eln-llelsn spec §4.13)",
        }
    }

    /// Its name in prose, for the errors.
    pub(crate) fn title(self) -> &'static str {
        match self {
            CcKind::Reno(_) => "Reno",
            CcKind::Cubic(..) => "CUBIC",
            CcKind::Bbr => "BBR",
            CcKind::Westwood(_) => "Westwood+",
            CcKind::Veno => "Veno",
            CcKind::Jersey(_) => "TCP-Jersey",
            CcKind::Jtcp(_) => "JTCP",
            CcKind::Tibet(..) => "TIBET",
            CcKind::IdealBwe { .. } => "the ideal-BWE oracle",
        }
    }

    /// The controller sets its own window in a loss recovery (BBR's packet conservation), so
    /// PRR has nothing to pace.
    pub(crate) fn owns_recovery_window(self) -> bool {
        matches!(self, CcKind::Bbr)
    }

    /// The `[tcp]` knobs of this controller from `t`, validated (each error one line naming
    /// the field and what is allowed).
    fn with_knobs(self, t: &TcpDoc) -> Result<CcKind, Error> {
        Ok(match self {
            // The profile's Reno: Linux's `reno` module (per segment acknowledged) on linux,
            // RFC 5681 on modern, Net/3 on bsd.
            CcKind::Reno(_) => CcKind::Reno(match t.profile {
                Profile::Linux => RenoFlavor::Linux,
                Profile::Modern => RenoFlavor::Rfc5681,
                Profile::Bsd => RenoFlavor::Net3 {
                    extra_mss_over_8: t.ca_extra_mss_over_8.unwrap_or(false),
                },
            }),
            CcKind::Bbr | CcKind::Veno => self,
            // RFC 9406 HyStart++ (`tcp.hystart`): on by default on the linux profile (Linux runs
            // CUBIC with its HyStart, `hystart = 1`; no existing golden row changes), else off.
            CcKind::Cubic(..) => CcKind::Cubic(
                match t.hystart {
                    Some(HystartDoc::Rfc9406) => Hystart::Rfc9406,
                    Some(HystartDoc::Linux) => Hystart::Linux,
                    // The kernel's own HyStart on the linux profile (tcp_cubic.c, hystart = 1).
                    None if t.profile == Profile::Linux => Hystart::Linux,
                    None | Some(HystartDoc::Off) => Hystart::Off,
                },
                // Linux's tcp_cubic.c keeps α_cubic (no RFC 9438 §4.3 switch to 1) on the
                // linux profile; RFC 9438 elsewhere.
                match t.cubic_friendly {
                    Some(CubicFriendlyDoc::Linux) => RenoFriendly::Linux,
                    None if t.profile == Profile::Linux => RenoFriendly::Linux,
                    None | Some(CubicFriendlyDoc::Rfc9438) => RenoFriendly::Rfc9438,
                },
            ),
            CcKind::Westwood(_) => CcKind::Westwood(match t.westwood_filter {
                None | Some(WestwoodFilterDoc::Tustin) => WestwoodFilter::Tustin,
                Some(WestwoodFilterDoc::Linux) => WestwoodFilter::Linux,
            }),
            CcKind::Jersey(_) => CcKind::Jersey(match t.jersey_unmarked_loss {
                None | Some(JerseyLossDoc::Ownd) => JerseyUnmarked::Ownd,
                Some(JerseyLossDoc::Keep) => JerseyUnmarked::Keep,
            }),
            CcKind::Jtcp(_) => {
                let k = t.jtcp_samples.unwrap_or(JTCP_SAMPLES);
                if !(1..=1024).contains(&k) {
                    return Err(Error::invalid(
                        "tcp.jtcp_samples",
                        format!("must be between 1 and 1024 jitter-ratio samples, not {k}"),
                    ));
                }
                CcKind::Jtcp(k)
            }
            CcKind::Tibet(..) => CcKind::Tibet(
                match t.tibet_alpha {
                    None => TIBET_ALPHA_PPM,
                    Some(a) => {
                        let ppm = a * 1e6;
                        if !(a > 0.0 && a < 1.0) || (ppm - ppm.round()).abs() > 1e-6 {
                            return Err(Error::invalid(
                                "tcp.tibet_alpha",
                                format!("must be a number between 0 and 1 (exclusive) with at most six decimals, not {a}"),
                            ));
                        }
                        ppm.round() as u32
                    }
                },
                match t.tibet_max_gap {
                    Some(d) if d.0 == 0 => {
                        return Err(Error::invalid(
                            "tcp.tibet_max_gap",
                            "must be greater than zero",
                        ))
                    }
                    d => d.map(|d| SimDuration(d.0)),
                },
            ),
            CcKind::IdealBwe { .. } => {
                if t.ideal_bwe_rate.is_some_and(|r| r.0 == 0) {
                    return Err(Error::invalid(
                        "tcp.ideal_bwe_rate",
                        "must be greater than zero",
                    ));
                }
                if t.ideal_bwe_rtt.is_some_and(|d| d.0 == 0) {
                    return Err(Error::invalid(
                        "tcp.ideal_bwe_rtt",
                        "must be greater than zero",
                    ));
                }
                CcKind::IdealBwe {
                    rate_bps: t.ideal_bwe_rate.map(|r| r.0),
                    rtt: t.ideal_bwe_rtt.map(|d| SimDuration(d.0)),
                    live: t.ideal_bwe_available == Some(IdealBweAvailableDoc::Live),
                }
            }
        })
    }

    /// Every `[tcp]` knob a controller owns: its field, whether `t` gives it, and the
    /// controller's name. (`tcp.ca_extra_mss_over_8` is Reno's, and given only when true.)
    fn knobs(t: &TcpDoc) -> [(&'static str, bool, &'static str); 11] {
        [
            (
                "tcp.hystart",
                matches!(t.hystart, Some(HystartDoc::Rfc9406 | HystartDoc::Linux)),
                "cubic",
            ),
            ("tcp.cubic_friendly", t.cubic_friendly.is_some(), "cubic"),
            (
                "tcp.ca_extra_mss_over_8",
                t.ca_extra_mss_over_8 == Some(true),
                "reno",
            ),
            (
                "tcp.westwood_filter",
                t.westwood_filter.is_some(),
                "westwood",
            ),
            (
                "tcp.jersey_unmarked_loss",
                t.jersey_unmarked_loss.is_some(),
                "jersey",
            ),
            ("tcp.jtcp_samples", t.jtcp_samples.is_some(), "jtcp"),
            ("tcp.tibet_alpha", t.tibet_alpha.is_some(), "tibet"),
            ("tcp.tibet_max_gap", t.tibet_max_gap.is_some(), "tibet"),
            (
                "tcp.ideal_bwe_rate",
                t.ideal_bwe_rate.is_some(),
                "ideal-bwe",
            ),
            ("tcp.ideal_bwe_rtt", t.ideal_bwe_rtt.is_some(), "ideal-bwe"),
            (
                "tcp.ideal_bwe_available",
                t.ideal_bwe_available.is_some(),
                "ideal-bwe",
            ),
        ]
    }

    /// Fill in what the controller takes from the flow's path when `[tcp]` left it out: the
    /// ideal-BWE oracle's ground truth is the slowest link on the data path and the propagation
    /// round trip (eln-llelsn spec §4.13). `path` is `None` where the build has no path to give
    /// (a split connection's wireless leg); a controller that needs one then says which knob
    /// to set.
    pub(crate) fn fit_path(
        &mut self,
        path: impl FnOnce() -> Option<PathFacts>,
    ) -> Result<(), Error> {
        if let CcKind::IdealBwe { rate_bps, rtt, .. } = self {
            match path() {
                Some(p) => {
                    *rate_bps = rate_bps.or(p.slowest_bps);
                    *rtt = rtt.or(Some(p.propagation_rtt));
                }
                None if rate_bps.is_none() => {
                    return Err(Error::invalid(
                        "tcp.ideal_bwe_rate",
                        "the ideal-BWE oracle on a split connection's wireless leg needs the rate given",
                    ))
                }
                None => {}
            }
        }
        Ok(())
    }

    /// The sender's part.
    pub(crate) fn build(self, i: CcInit) -> CcPart {
        let (mss, init, max) = (i.mss, i.initial_cwnd, i.max_window);
        match self {
            CcKind::Reno(flavor) => RenoCc::new(flavor, mss, init, max).into(),
            CcKind::Cubic(hystart, friendly) => {
                let c = CubicCc::new(mss, init, max).with_reno_friendly(friendly);
                CcPart::custom(match hystart {
                    Hystart::Off => c,
                    Hystart::Rfc9406 => c.with_hystart(),
                    Hystart::Linux => c.with_linux_hystart(),
                })
            }
            // The ProbeBW phase BBR enters is drawn from the flow's initial sequence number.
            CcKind::Bbr => CcPart::custom(BbrCc::new(mss, init, max, i.isn)),
            CcKind::Westwood(filter) => CcPart::custom(WestwoodCc::new(filter, mss, init, max)),
            CcKind::Veno => CcPart::custom(VenoCc::new(mss, init, max)),
            CcKind::Jersey(u) => CcPart::custom(JerseyCc::new(u, mss, init, max)),
            CcKind::Jtcp(k) => CcPart::custom(JtcpCc::new(k, mss, init, max)),
            CcKind::Tibet(a, cap) => {
                let t = TibetCc::new(a, mss, init, max);
                CcPart::custom(match cap {
                    Some(c) => t.with_max_gap(c),
                    None => t,
                })
            }
            // The build fills in the path's rate for a flow; a split leg's oracle without a
            // given rate is refused there ([`CcKind::fit_path`]).
            CcKind::IdealBwe { rate_bps, rtt, .. } => CcPart::custom(IdealBweCc::new(
                rate_bps.unwrap_or(0) / 8,
                rtt,
                mss,
                init,
                max,
            )),
        }
    }
}

/// The controller of a sender on the profile of `t`: the one the scheme's modifiers `chosen`,
/// else the profile's (CUBIC on linux; Reno in the profile's flavour otherwise), with its
/// `[tcp]` knobs. A knob of another controller is an error naming the field and its owner.
pub(crate) fn settle(t: &TcpDoc, chosen: Option<CcKind>) -> Result<CcKind, Error> {
    let kind = match (chosen, t.profile) {
        (Some(k), _) => k,
        (None, Profile::Linux) => CcKind::Cubic(Hystart::Off, RenoFriendly::Rfc9438),
        (None, Profile::Modern) => CcKind::Reno(RenoFlavor::Rfc5681),
        // Off by default: see docs/calibration.md, "The Net/3 MSS/8 term" (4.4BSD-Lite has it,
        // FreeBSD dropped it in 1994; the paper's E2E numbers match the stack without it).
        (None, Profile::Bsd) => CcKind::Reno(RenoFlavor::Net3 {
            extra_mss_over_8: t.ca_extra_mss_over_8.unwrap_or(false),
        }),
    };
    if t.profile != Profile::Bsd && t.ca_extra_mss_over_8 == Some(true) {
        return Err(Error::invalid(
            "tcp.ca_extra_mss_over_8",
            "only the bsd profile has the Net/3 MSS/8 term",
        ));
    }
    for (field, given, owner) in CcKind::knobs(t) {
        if !given || owner == kind.name() {
            continue;
        }
        let message = match NAMED.iter().find(|k| k.name() == owner) {
            Some(o) => format!(
                "belongs to {} (+{owner}); the scheme runs {}",
                o.title(),
                kind.title()
            ),
            None => format!("is a Net/3 Reno term; the scheme asks for +{}", kind.name()),
        };
        return Err(Error::invalid(field, message));
    }
    kind.with_knobs(t)
}

#[cfg(test)]
mod tests;
