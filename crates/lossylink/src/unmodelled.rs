//! Words for what a scenario asks for and this build does not model. Without them a user who
//! writes `rts_cts = true` or `fading = ...` reads serde's "unknown field" and cannot tell a
//! typo from a missing feature (ECN, queue disciplines and A-MPDUs had entries until they landed). Each entry names the
//! feature and what the build has instead; the entry of a feature goes when the feature lands
//! (an accepted field is never rejected, so a stale entry is silent, not wrong).

/// Unknown keys that ask for a feature, and what to say: (keys, words).
const FEATURES: &[(&[&str], &str)] = &[
    (
        &["pie"],
        "the PIE queue discipline is not modelled yet: a queue is drop-tail, red, codel or fq_codel (queue = { kind = \"codel\" }; docs/scenarios.md)",
    ),
    (
        &["rts_cts", "rts", "rts_threshold"],
        "RTS/CTS is not modelled yet: the DCF uses basic access (data frame, then the MAC ACK); leave it out",
    ),
    (
        &["fading", "rayleigh", "rician"],
        "fading channels are not modelled yet; the error models are none, exponential, bernoulli, burst, gilbert, fer, trace (docs/scenarios.md)",
    ),
];

/// What to say instead of serde's `message` about `field`, if it asks for something this build
/// does not model.
pub(crate) fn explain(field: &str, message: &str) -> Option<String> {
    let _ = field;
    // An unknown field (`rts_cts = true`) or an unknown kind (`queue = { kind = "pie" }`).
    let rest = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"));
    if let Some(rest) = rest {
        let key = rest.split('`').next().unwrap_or_default();
        return FEATURES
            .iter()
            .find(|(keys, _)| keys.contains(&key))
            .map(|(_, words)| (*words).to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_asked_for_get_words_other_errors_none() {
        let e = explain(
            "cells[0].dcf.rts_cts",
            "unknown field `rts_cts`, expected one of `slot`",
        );
        assert!(e.unwrap().starts_with("RTS/CTS is not modelled yet"));
        // A-MPDUs landed (dcf.aggregation = "ampdu"): a misspelt knob is serde's own error.
        assert!(explain(
            "cells[0].dcf.ampdu",
            "unknown field `ampdu`, expected one of `slot`"
        )
        .is_none());
        assert!(explain("tcp.msss", "unknown field `msss`, expected one of `mss`").is_none());
        let e = explain(
            "links[1].queue.kind",
            "unknown variant `pie`, expected one of `droptail`, `red`",
        );
        assert!(e
            .unwrap()
            .starts_with("the PIE queue discipline is not modelled yet"));
        assert!(explain(
            "links[1].queue",
            "invalid value: integer `-1`, expected u32"
        )
        .is_none());
        assert!(explain("links[1].rate", "invalid type: map, expected u32").is_none());
    }

    /// docs/scenarios.md's "Not modelled yet" list is this table's features, no more, no less:
    /// each entry's words open with the feature's name.
    #[test]
    fn the_scenarios_page_lists_what_is_not_modelled() {
        let page = include_str!("../../../docs/scenarios.md").replace('\n', " ");
        let start = page.find("Not modelled yet: ").expect("the sentence") + 18;
        let end = start + page[start..].find(" (asking").expect("its end");
        let mut rest = page[start..end].to_string();
        for (_, words) in FEATURES {
            let name = words
                .split(" is not modelled yet")
                .next()
                .and_then(|w| w.split(" are not modelled yet").next())
                .unwrap_or_default();
            assert!(rest.contains(name), "{name:?} missing from {rest:?}");
            rest = rest.replacen(name, "", 1);
        }
        let left: String = rest.replace(" and ", " ").replace(',', " ");
        assert!(left.trim().is_empty(), "not in the table: {left:?}");
    }
}
