//! Unit tests of the controllers' settings: knobs, their errors, and the one-controller rule.

#![allow(clippy::unwrap_used)]
use super::*;
use crate::units::{Dur, Rate};

/// The controller of `e2e-<name>`, the one its `+<name>` modifier names.
fn named(scheme: &str) -> Option<CcKind> {
    let name = scheme.split_once(['+']).map_or(scheme, |(_, m)| m);
    let name = name.strip_prefix("e2e-").unwrap_or(name);
    NAMED.into_iter().find(|k| k.name() == name)
}

fn err(scheme: &str, edit: impl FnOnce(&mut TcpDoc)) -> String {
    let mut doc = TcpDoc::default();
    edit(&mut doc);
    match settle(&doc, named(scheme)) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

/// A scheme, an edit of `[tcp]`, the field its error must name.
type Case = (&'static str, fn(&mut TcpDoc), &'static str);

#[test]
fn bad_or_foreign_knobs_are_one_line_errors_naming_the_field() {
    let cases: [Case; 9] = [
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
        (
            "e2e-tibet",
            |d| d.tibet_max_gap = Some(Dur(0)),
            "tcp.tibet_max_gap",
        ),
        (
            "e2e-westwood",
            |d| d.tibet_max_gap = Some(Dur(100_000_000)),
            "tcp.tibet_max_gap",
        ),
    ];
    for (scheme, edit, field) in cases {
        let e = err(scheme, edit);
        assert!(e.contains(field) && !e.contains('\n'), "{scheme}: {e}");
    }
}

#[test]
fn defaults_and_given_values() {
    let cc = |scheme: &str, edit: fn(&mut TcpDoc)| {
        let mut doc = TcpDoc::default();
        edit(&mut doc);
        settle(&doc, named(scheme)).unwrap()
    };
    assert_eq!(cc("e2e-tibet", |_| {}), CcKind::Tibet(990_000, None));
    assert_eq!(
        cc("e2e-tibet", |d| d.tibet_alpha = Some(0.95)),
        CcKind::Tibet(950_000, None)
    );
    assert_eq!(
        cc("e2e-tibet", |d| d.tibet_max_gap = Some(Dur(100_000_000))),
        CcKind::Tibet(990_000, Some(SimDuration::from_millis(100)))
    );
    assert_eq!(cc("e2e-jtcp", |_| {}), CcKind::Jtcp(8));
    assert_eq!(
        cc("e2e-jersey", |_| {}),
        CcKind::Jersey(JerseyUnmarked::Ownd)
    );
    assert_eq!(
        cc("e2e-newreno+jersey", |d| d.jersey_unmarked_loss =
            Some(JerseyLossDoc::Keep)),
        CcKind::Jersey(JerseyUnmarked::Keep)
    );
    assert_eq!(
        cc("e2e-ideal-bwe", |d| d.ideal_bwe_rate =
            Some(Rate(1_000_000))),
        CcKind::IdealBwe {
            rate_bps: Some(1_000_000),
            rtt: None,
            live: false
        }
    );
}
