//! Unit tests of the scheme registry: lookups, modifiers, and the errors for unknown names.

use super::*;
use crate::cc::CcKind;
use crate::schema::Profile;

#[test]
fn an_unknown_scheme_gets_its_nearest_names_not_the_whole_registry() {
    let e = lookup("e2e-newrno")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("nearest: e2e-newreno"), "{e}");
    assert!(e.contains("`lossylink schemes` lists the"), "{e}");
    let e = lookup("zzzzzzzzzzzz")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(!e.contains("nearest"), "{e}");
    // One line: the counts, not the 40-odd scheme names or the 17 modifiers.
    assert!(e.len() < 160, "{e}");
    assert!(e.contains("+modifiers"), "{e}");
}

#[test]
fn modifiers_parse_and_unknown_ones_are_named() {
    let r = lookup("e2e-newreno+eifel+modern").unwrap();
    assert_eq!(r.def.info.name, "e2e-newreno");
    assert!(r.mods.eifel && (r.mods.profile == Some(Profile::Modern)) && !r.mods.limited_transmit);
    let e = lookup("e2e+fast").err().unwrap().to_string();
    assert!(e.contains("+fast"), "{e}");
    assert!(lookup("nope").is_err());
}

#[test]
fn e2e_cubic_is_sack_with_modern_and_cubic() {
    let r = lookup("e2e-cubic").unwrap();
    assert_eq!(r.def.recovery, RecoveryKind::Sack);
    assert!(
        (r.mods.cc
            == Some(CcKind::Cubic(
                tcp::cc::Hystart::Off,
                tcp::cc::RenoFriendly::Rfc9438
            )))
            && (r.mods.profile == Some(Profile::Modern))
            && !r.mods.eifel
    );
    assert!(lookup("e2e-cubic+eifel").unwrap().mods.eifel);
    assert!(
        lookup("e2e-newreno+cubic").unwrap().mods.cc
            == Some(CcKind::Cubic(
                tcp::cc::Hystart::Off,
                tcp::cc::RenoFriendly::Rfc9438
            ))
    );
    assert!(schemes().iter().any(|i| i.name == "e2e-cubic"));
}

#[test]
fn todays_anchors_are_registered_with_their_modifiers() {
    let r = lookup("e2e-prr").unwrap();
    assert_eq!(r.def.recovery, RecoveryKind::Sack);
    assert!(
        r.mods.prr
            && (r.mods.profile == Some(Profile::Modern))
            && !(r.mods.cc
                == Some(CcKind::Cubic(
                    tcp::cc::Hystart::Off,
                    tcp::cc::RenoFriendly::Rfc9438
                )))
    );
    assert!(lookup("e2e-newreno+prr").unwrap().mods.prr);
    let r = lookup("e2e-rack").unwrap();
    assert_eq!(r.def.recovery, RecoveryKind::Sack);
    assert!(r.mods.rack && (r.mods.profile == Some(Profile::Modern)));
    let r = lookup("e2e-frto").unwrap();
    assert_eq!(r.def.recovery, RecoveryKind::NewReno);
    assert!(r.mods.frto && (r.mods.profile == Some(Profile::Modern)) && !r.mods.eifel);
    assert!(lookup("e2e+frto").unwrap().mods.frto);
    let r = lookup("e2e-bbr").unwrap();
    assert_eq!(r.def.recovery, RecoveryKind::Sack);
    assert!(
        (r.mods.cc == Some(CcKind::Bbr))
            && (r.mods.profile == Some(Profile::Modern))
            && !(r.mods.cc
                == Some(CcKind::Cubic(
                    tcp::cc::Hystart::Off,
                    tcp::cc::RenoFriendly::Rfc9438
                )))
    );
    let r = lookup("e2e-linux").unwrap();
    assert_eq!(r.def.recovery, RecoveryKind::Sack);
    assert!((r.mods.profile == Some(Profile::Linux)) && !(r.mods.profile == Some(Profile::Modern)));
    assert!(lookup("e2e-newreno+linux").unwrap().mods.profile == Some(Profile::Linux));
    let e = lookup("e2e+bogus").err().unwrap().to_string();
    assert!(e.contains("+prr"), "{e}");
}

#[test]
fn aliases_stand_for_their_schemes_with_their_modifiers() {
    for a in scheme_aliases() {
        let via_alias = lookup(a.alias).unwrap();
        let direct = lookup(a.scheme).unwrap();
        assert_eq!(via_alias.def.info.name, direct.def.info.name, "{}", a.alias);
        assert_eq!(via_alias.mods, direct.mods, "{}", a.alias);
        // An alias is never a registered name (it would hide it).
        assert!(schemes().iter().all(|s| s.name != a.alias), "{}", a.alias);
    }
    let r = lookup("reno").unwrap();
    assert_eq!(r.def.info.name, "e2e");
    assert!(
        (r.mods.profile == Some(Profile::Modern))
            && !(r.mods.cc
                == Some(CcKind::Cubic(
                    tcp::cc::Hystart::Off,
                    tcp::cc::RenoFriendly::Rfc9438
                )))
    );
    let r = lookup("cubic+eifel").unwrap();
    assert_eq!(r.def.info.name, "e2e-cubic");
    assert!(
        (r.mods.cc
            == Some(CcKind::Cubic(
                tcp::cc::Hystart::Off,
                tcp::cc::RenoFriendly::Rfc9438
            )))
            && (r.mods.profile == Some(Profile::Modern))
            && r.mods.eifel
    );
    assert!(lookup("bbr").unwrap().mods.cc == Some(CcKind::Bbr));
    assert_eq!(lookup("sack").unwrap().def.recovery, RecoveryKind::Sack);
    assert_eq!(
        lookup("newreno").unwrap().def.recovery,
        RecoveryKind::NewReno
    );
}

#[test]
fn near_misses_are_matched_against_aliases_and_short_names() {
    let hint = |name: &str| {
        lookup(name)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(
        hint("cubik").contains("nearest: cubic"),
        "{}",
        hint("cubik")
    );
    assert!(
        hint("westwood").contains("nearest: e2e-westwood"),
        "{}",
        hint("westwood")
    );
    assert!(hint("bbr2").contains("bbr"), "{}", hint("bbr2"));
    assert!(hint("zzzzzzzzzzzz").contains("aliases"));
}

#[test]
fn two_controllers_or_two_profiles_fail_where_the_name_is_parsed() {
    for two in [
        "e2e-jersey+tibet",
        "e2e-cubic+bbr",
        "cubic+westwood",
        "e2e-linux+modern",
    ] {
        let e = lookup(two).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.starts_with("scheme: +") && e.contains("keep one") && !e.contains('\n'),
            "{two}: {e}"
        );
    }
    // The same choice twice is one choice.
    assert!(lookup("e2e-westwood+westwood").is_ok());
    assert!(lookup("e2e-cubic+modern").is_ok());
    // Every modifier of the table parses, and the error lists them all.
    let e = lookup("e2e+nope").err().unwrap().to_string();
    for m in scheme_modifiers() {
        assert!(lookup(&format!("e2e+{}", m.name)).is_ok(), "{}", m.name);
        assert!(e.contains(&format!("+{}", m.name)), "{e}");
    }
}
