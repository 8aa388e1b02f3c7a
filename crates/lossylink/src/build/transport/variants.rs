//! The `[tcp]` knobs of the LL-ELSN study's congestion responses (issue 14; eln-llelsn spec
//! §4.8-4.10, §4.13) into a controller, with a one-line error naming the field for a bad value
//! or a knob given to a scheme without that controller.

use super::CcSettings;
use crate::error::Error;
use crate::schema::{JerseyLossDoc, TcpDoc};
use crate::schemes::Modifiers;
use engine::SimDuration;
use tcp::cc::JerseyUnmarked;

/// TIBET's filter gain α when `tcp.tibet_alpha` is left out (spec §4.10: 0.99, "verify").
pub(crate) const TIBET_ALPHA_PPM: u32 = 990_000;
/// JTCP's k when `tcp.jtcp_samples` is left out (spec §4.9 gives none: [GAP]).
pub(crate) const JTCP_SAMPLES: u32 = 8;

/// The controllers this file builds, chosen by the scheme's modifiers.
pub(super) fn chosen(mods: Modifiers) -> [bool; 4] {
    [mods.jersey, mods.jtcp, mods.tibet, mods.ideal_bwe]
}

/// A knob of one controller given without it.
fn foreign(t: &TcpDoc, mods: Modifiers) -> Result<(), Error> {
    let owners = [
        (
            t.jersey_unmarked_loss.is_some(),
            mods.jersey,
            "tcp.jersey_unmarked_loss",
            "TCP-Jersey (scheme e2e-jersey or +jersey)",
        ),
        (
            t.jtcp_samples.is_some(),
            mods.jtcp,
            "tcp.jtcp_samples",
            "JTCP (scheme e2e-jtcp or +jtcp)",
        ),
        (
            t.tibet_alpha.is_some(),
            mods.tibet,
            "tcp.tibet_alpha",
            "TIBET (scheme e2e-tibet or +tibet)",
        ),
        (
            t.ideal_bwe_rate.is_some(),
            mods.ideal_bwe,
            "tcp.ideal_bwe_rate",
            "the ideal-BWE oracle (scheme e2e-ideal-bwe or +ideal-bwe)",
        ),
        (
            t.ideal_bwe_rtt.is_some(),
            mods.ideal_bwe,
            "tcp.ideal_bwe_rtt",
            "the ideal-BWE oracle (scheme e2e-ideal-bwe or +ideal-bwe)",
        ),
    ];
    for (given, mine, field, owner) in owners {
        if given && !mine {
            return Err(Error::invalid(field, format!("belongs to {owner}")));
        }
    }
    Ok(())
}

/// The controller of `+jersey`, `+jtcp`, `+tibet` or `+ideal-bwe`, if the scheme asks for one.
pub(super) fn variant_cc(t: &TcpDoc, mods: Modifiers) -> Result<Option<CcSettings>, Error> {
    foreign(t, mods)?;
    if mods.jersey {
        return Ok(Some(CcSettings::Jersey(match t.jersey_unmarked_loss {
            None | Some(JerseyLossDoc::Ownd) => JerseyUnmarked::Ownd,
            Some(JerseyLossDoc::Keep) => JerseyUnmarked::Keep,
        })));
    }
    if mods.jtcp {
        let k = t.jtcp_samples.unwrap_or(JTCP_SAMPLES);
        if !(1..=1024).contains(&k) {
            return Err(Error::invalid(
                "tcp.jtcp_samples",
                format!("must be between 1 and 1024 jitter-ratio samples, not {k}"),
            ));
        }
        return Ok(Some(CcSettings::Jtcp(k)));
    }
    if mods.tibet {
        return Ok(Some(CcSettings::Tibet(match t.tibet_alpha {
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
        })));
    }
    if mods.ideal_bwe {
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
        return Ok(Some(CcSettings::IdealBwe {
            rate_bps: t.ideal_bwe_rate.map(|r| r.0),
            rtt: t.ideal_bwe_rtt.map(|d| SimDuration(d.0)),
        }));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::tcp_settings;
    use super::*;
    use crate::schemes::lookup;
    use crate::units::{Dur, Rate};

    fn err(scheme: &str, edit: impl FnOnce(&mut TcpDoc)) -> String {
        let mut doc = TcpDoc::default();
        edit(&mut doc);
        let mods = lookup(scheme).expect("scheme").mods;
        match tcp_settings(&doc, mods) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    /// A scheme, an edit of `[tcp]`, the field its error must name.
    type Case = (&'static str, fn(&mut TcpDoc), &'static str);

    #[test]
    fn bad_or_foreign_knobs_are_one_line_errors_naming_the_field() {
        let cases: [Case; 7] = [
            ("e2e-jtcp", |d| d.jtcp_samples = Some(0), "tcp.jtcp_samples"),
            (
                "e2e-tibet",
                |d| d.tibet_alpha = Some(1.5),
                "tcp.tibet_alpha",
            ),
            (
                "e2e-tibet",
                |d| d.tibet_alpha = Some(0.1234567),
                "tcp.tibet_alpha",
            ),
            (
                "e2e-jersey",
                |d| d.tibet_alpha = Some(0.9),
                "tcp.tibet_alpha",
            ),
            (
                "e2e-westwood",
                |d| d.jersey_unmarked_loss = Some(JerseyLossDoc::Keep),
                "tcp.jersey_unmarked_loss",
            ),
            (
                "e2e-ideal-bwe",
                |d| d.ideal_bwe_rate = Some(Rate(0)),
                "tcp.ideal_bwe_rate",
            ),
            (
                "e2e-ideal-bwe",
                |d| d.ideal_bwe_rtt = Some(Dur(0)),
                "tcp.ideal_bwe_rtt",
            ),
        ];
        for (scheme, edit, field) in cases {
            let e = err(scheme, edit);
            assert!(e.contains(field) && !e.contains('\n'), "{scheme}: {e}");
        }
        assert!(err("e2e-jersey+tibet", |_| {}).contains("keep one"));
    }

    #[test]
    fn defaults_and_given_values() {
        let cc = |scheme: &str, edit: fn(&mut TcpDoc)| {
            let mut doc = TcpDoc::default();
            edit(&mut doc);
            tcp_settings(&doc, lookup(scheme).expect("scheme").mods)
                .expect("settings")
                .cc
        };
        assert_eq!(cc("e2e-tibet", |_| {}), CcSettings::Tibet(990_000));
        assert_eq!(
            cc("e2e-tibet", |d| d.tibet_alpha = Some(0.95)),
            CcSettings::Tibet(950_000)
        );
        assert_eq!(cc("e2e-jtcp", |_| {}), CcSettings::Jtcp(8));
        assert_eq!(
            cc("e2e-jersey", |_| {}),
            CcSettings::Jersey(JerseyUnmarked::Ownd)
        );
        assert_eq!(
            cc("e2e-newreno+jersey", |d| d.jersey_unmarked_loss =
                Some(JerseyLossDoc::Keep)),
            CcSettings::Jersey(JerseyUnmarked::Keep)
        );
        assert_eq!(
            cc("e2e-ideal-bwe", |d| d.ideal_bwe_rate =
                Some(Rate(1_000_000))),
            CcSettings::IdealBwe {
                rate_bps: Some(1_000_000),
                rtt: None
            }
        );
    }
}
