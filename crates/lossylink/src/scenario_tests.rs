//! Unit tests of the `scenario` module.

use super::*;
use crate::error::ErrorKind;

#[test]
fn presets_load_and_round_trip() {
    for name in Scenario::preset_names() {
        let s = Scenario::preset(name).unwrap();
        let back = Scenario::from_toml_str(&s.to_toml_string()).unwrap();
        assert_eq!(s, back, "{name} TOML round trip");
        let back = Scenario::from_json_str(&s.to_json_string()).unwrap();
        assert_eq!(s, back, "{name} JSON round trip");
    }
}

/// Settings that only make sense together may be given in either order to `set_all`, and
/// a refused batch leaves the scenario as it was; `set` one at a time refuses the first.
#[test]
fn set_all_validates_once_at_the_end() {
    let mut one = Scenario::preset("wan").unwrap();
    let e = one.set("tcp.buffer", "1MiB").unwrap_err();
    assert!(e.to_string().starts_with("tcp.buffer:"), "{e}");
    for order in [
        [("tcp.buffer", "1MiB"), ("tcp.window_scaling", "true")],
        [("tcp.window_scaling", "true"), ("tcp.buffer", "1MiB")],
    ] {
        let mut s = Scenario::preset("wan").unwrap();
        s.set_all(order).unwrap();
        assert!(
            s.to_toml_string().contains("buffer = \"1MiB\""),
            "{order:?}"
        );
    }
    let mut s = Scenario::preset("wan").unwrap();
    let before = s.clone();
    let e = s
        .set_all([("tcp.window_scaling", "true"), ("tcp.buffer", "2GiB")])
        .unwrap_err();
    assert!(e.to_string().starts_with("tcp.buffer:"), "{e}");
    assert_eq!(s, before, "a refused batch changes nothing");
}

#[test]
fn errors_name_the_field() {
    let kind = |r: Result<Scenario, Error>| r.unwrap_err();
    let e = kind(Scenario::preset("moon"));
    assert_eq!(e.kind(), ErrorKind::UnknownPreset);
    assert!(e.to_string().contains("lan, wan, hiccup"), "{e}");
    let mut s = Scenario::preset("lan").unwrap();
    let e = s.set("buffer", "-5KiB").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e}");
    assert!(e.to_string().starts_with("tcp.buffer:"), "{e}");
    let e = s.set("error_every", "64Kib").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadUnit, "{e}");
    assert!(e.to_string().starts_with("error_every:"), "{e}");
    let e = s.set("scheme", "e2e-foo").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownScheme);
    let e = s.set("hops.1.forward.qeueu", "3").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownField, "{e}");
    assert!(e.to_string().contains("qeueu"), "{e}");
    let e = s.set("hops.7.queue", "3").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownField, "{e}");
    let text = Scenario::preset_toml("lan")
        .unwrap()
        .replace("[tcp]", "[tcp]\nbogus = 1");
    let e = Scenario::from_toml_str(&text).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownField, "{e}");
    assert!(e.to_string().starts_with("tcp"), "{e}");
    let e = Scenario::from_toml_str("name = [").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(!e.to_string().contains('\n'));
    // A syntax error names its line and column.
    let e = Scenario::from_toml_str("name = \"x\"\n\n[tcp\nbuffer = 1").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.to_string().contains("line 3, column"), "{e}");
    // A second [[flow]] points at [[flows]] instead of a serde type error.
    let text = Scenario::preset_toml("lan")
        .unwrap()
        .replace("[flow]", "[[flow]]")
        .replace(
            "\n[[flow]]",
            "\n[[flow]]\nfrom = \"a\"\nto = \"b\"\nbytes = 1\n[[flow]]",
        );
    let e = Scenario::from_toml_str(&text).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e}");
    assert!(e.to_string().starts_with("flow: 2 [[flow]] entries"), "{e}");
    assert!(e.to_string().contains("[[flows]]"), "{e}");
}

#[test]
fn overrides_apply() {
    let mut s = Scenario::preset("lan").unwrap();
    s.set("buffer", "8KiB").unwrap();
    assert_eq!(s.doc.tcp.buffer, Size(8192));
    s.set("error_every", "0").unwrap();
    assert!(s
        .doc
        .hops
        .iter()
        .filter(|h| h.role == RoleDoc::Wireless)
        .all(|h| h.error == Some(ErrorDoc::None)));
    s.set("hops.0.queue", "20").unwrap();
    assert_eq!(
        s.doc.hops[0].queue,
        Some(crate::schema::QueueDoc::Packets(20))
    );
    s.set("tcp.profile", "modern").unwrap();
    s.set("transfer", "1MiB").unwrap();
    assert_eq!(s.doc.flow.as_ref().map(|f| f.bytes), Some(Size(1 << 20)));
    s.set("hops[1].forward.queue", "7").unwrap();
    assert_eq!(
        s.doc.hops[1].forward.queue,
        Some(crate::schema::QueueDoc::Packets(7))
    );
}

#[test]
fn hiccups_set_by_path_and_round_trip() {
    let mut s = Scenario::preset("hiccup").unwrap();
    s.set(
        "hops[0].forward.hiccups",
        r#"[{ kind = "hold", at = "30s", duration = "13s" }, { kind = "reorder", at = "37.7s", length = 6 }]"#,
    )
    .unwrap();
    assert_eq!(s.doc.hops[0].forward.hiccups.len(), 2);
    let back = Scenario::from_toml_str(&s.to_toml_string()).unwrap();
    assert_eq!(s, back);
    let back = Scenario::from_json_str(&s.to_json_string()).unwrap();
    assert_eq!(s, back);
}

#[test]
fn sack_sender_knob_parses_and_names_the_field() {
    let mut s = Scenario::preset("lan").unwrap();
    s.set("tcp.sack_sender", "rfc6675").unwrap();
    assert_eq!(
        s.doc.tcp.sack_sender,
        Some(crate::schema::SackSenderDoc::Rfc6675)
    );
    let e = s.set("tcp.sack_sender", "fast").unwrap_err();
    assert!(e.to_string().contains("sack_sender"), "{e}");
    assert!(e.to_string().contains("fall-floyd"), "{e}");
}
