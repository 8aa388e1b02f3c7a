#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Today's anchors on the Balakrishnan97 `lan` and `wan` presets with one error per
//! 64 KiB: every new scheme runs to completion for 10 seeds, and the conservation checks hold
//! (each flow delivers exactly its bytes; every packet created is delivered, dropped by a
//! queue, corrupted or still in flight). The presets' single `[flow]` is written as one
//! `[[flows]]` entry so that the per-flow account is kept.
//!
//! Beside them, each scheme's signature (a scheme test checks the behaviour that
//! defines the scheme), measured from traced runs of the same presets with losses at chosen
//! wireless data frames, each beside the base scheme without the mechanism:
//! `modern/loss_response.rs` (the window a controller leaves after a loss: CUBIC, Westwood+,
//! TIBET, the ideal-BWE oracle, Veno, JTCP, Jersey) and `modern/recovery.rs` (what is resent
//! when, and how sending is spaced: PRR, RACK, F-RTO, DCR, HACK, HACK-fixed, LHP, BBR, the
//! `linux` profile); `modern/sig.rs` reads the traces.

use crate::common;
#[path = "modern/loss_response.rs"]
mod loss_response;
#[path = "modern/recovery.rs"]
mod recovery;
#[path = "modern/sig.rs"]
mod sig;
#[path = "modern/validation_path.rs"]
mod validation_path;
use common::{accounted, num};
use lossylink::{run, RunOptions, Scenario};

/// The new schemes, each checked on both presets.
const NEW: &[&str] = &[
    "e2e-cubic",
    "e2e-prr",
    "e2e-rack",
    "e2e-frto",
    "e2e-bbr",
    "e2e-linux",
    "e2e-westwood",
    "e2e-veno",
    "e2e-dcr",
    "e2e-dcr-sack",
    "e2e-jersey",
    "e2e-jtcp",
    "e2e-tibet",
    "e2e-ideal-bwe",
    "e2e-hack",
    "e2e-hack-fixed",
    "e2e-lhp",
];

fn as_flows(preset: &str, scheme: &str) -> Scenario {
    let text = Scenario::preset_toml(preset).unwrap().replace(
        "[flow]\n",
        &format!("[[flows]]\nname = \"f\"\nscheme = \"{scheme}\"\n"),
    );
    let mut s = Scenario::from_toml_str(&text).expect("the preset as a [[flows]] document");
    s.set("error_every", "64KiB").unwrap();
    s
}

#[test]
fn new_schemes_complete_with_conservation_on_lan_and_wan() {
    for preset in ["lan", "wan"] {
        for scheme in NEW {
            let s = as_flows(preset, scheme);
            for seed in 1..=10 {
                let r = run(&s, seed, &RunOptions::default())
                    .unwrap_or_else(|e| panic!("{preset} {scheme} seed {seed}: {e}"));
                let fr = r.flows.expect("per-flow results");
                let f = &fr.flows[0];
                assert!(num(f, "bytes") > 0.0);
                assert_eq!(
                    num(f, "delivered_bytes"),
                    num(f, "bytes"),
                    "{preset} {scheme} seed {seed}: {f:?}"
                );
                let a = &fr.aggregate;
                let parts = accounted(a);
                assert_eq!(
                    parts,
                    num(a, "packets_created"),
                    "{preset} {scheme} seed {seed}"
                );
                assert!(num(a, "packets_corrupted") > 0.0, "errors were injected");
            }
        }
    }
}

/// Bad combinations are one-line errors naming the field.
#[test]
fn todays_knobs_reject_parts_that_cannot_carry_them() {
    let err = |sets: &[(&str, &str)]| -> String {
        let mut s = Scenario::preset("lan").unwrap();
        for (k, v) in sets {
            if let Err(e) = s.set(k, v) {
                return e.to_string();
            }
        }
        run(&s, 1, &RunOptions::default())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let e = err(&[("scheme", "e2e+prr")]);
    assert!(e.contains("scheme") && e.contains("SACK or NewReno"), "{e}");
    let e = err(&[("scheme", "e2e-prr"), ("tcp.prr", "off")]);
    assert!(e.contains("tcp.prr"), "{e}");
    assert!(err(&[("tcp.prr", "fast")]).contains("prr"));
    let e = err(&[
        ("scheme", "e2e-newreno"),
        ("tcp.prr", "crb"),
        ("transfer", "200KB"),
    ]);
    assert_eq!(e, "", "PRR-CRB with NewReno runs");
    let e = err(&[("scheme", "e2e-newreno+rack")]);
    assert!(e.contains("SACK scheme"), "{e}");
    let e = err(&[("scheme", "e2e-rack"), ("tcp.rack", "false")]);
    assert!(e.contains("tcp.rack"), "{e}");
    let e = err(&[("scheme", "e2e-linux+modern")]);
    assert!(e.contains("+linux"), "{e}");
    let e = err(&[("scheme", "e2e-bbr+cubic")]);
    assert!(e.contains("+bbr"), "{e}");
    let e = err(&[("scheme", "e2e-bbr+prr")]);
    assert!(e.contains("tcp.prr") && e.contains("BBR"), "{e}");
    let e = err(&[("scheme", "e2e-frto+eifel")]);
    assert!(e.contains("tcp.frto") && e.contains("Eifel"), "{e}");
}

/// TCP-Jersey's CW marks come from a link direction that asks for them (`cw_mark`); a bad
/// threshold is a one-line error naming the field, and marks change Jersey's run.
#[test]
fn jersey_cw_marks_come_from_links_that_set_cw_mark() {
    let mut s = Scenario::preset("wan").unwrap();
    s.set("scheme", "e2e-jersey").unwrap();
    s.set("error_every", "64KiB").unwrap();
    let plain = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    let mut bad = s.clone();
    let e = match bad.set("hops.0.cw_mark", "0") {
        Err(e) => e.to_string(),
        Ok(()) => run(&bad, 1, &RunOptions::default())
            .err()
            .unwrap()
            .to_string(),
    };
    assert!(
        e.contains("hops[0].forward.cw_mark") && !e.contains('\n'),
        "{e}"
    );
    s.set("hops.0.cw_mark", "3").unwrap();
    let marked = run(&s, 1, &RunOptions::default()).unwrap().metrics;
    assert_ne!(plain.sender_timeouts, marked.sender_timeouts);
}
