//! Words for what a scenario asks for and this build does not model. Without them a user who
//! writes `ecn = true` or `queue = { kind = "red" }` reads serde's "unknown field" or "invalid
//! type: map, expected u32" and cannot tell a typo from a missing feature. Each entry names the
//! feature and what the build has instead; the entry of a feature goes when the feature lands
//! (an accepted field is never rejected, so a stale entry is silent, not wrong).

/// Unknown keys that ask for a feature, and what to say: (keys, words).
const FEATURES: &[(&[&str], &str)] = &[
    (
        &["ecn"],
        "ECN (RFC 3168) is not modelled yet: no queue marks packets and no sender reacts to marks; leave it out",
    ),
    (
        &["aqm", "qdisc", "discipline", "red", "codel", "fq_codel", "pie"],
        QUEUES,
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

const QUEUES: &str = "queue disciplines other than drop-tail (RED, CoDel, FQ-CoDel, PIE) are not modelled yet: `queue = N` is a drop-tail queue of N packets";

/// What to say instead of serde's `message` about `field`, if it asks for something this build
/// does not model.
pub(crate) fn explain(field: &str, message: &str) -> Option<String> {
    let last = field.rsplit('.').next().unwrap_or(field);
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default();
        return FEATURES
            .iter()
            .find(|(keys, _)| keys.contains(&key))
            .map(|(_, words)| (*words).to_string());
    }
    // `queue = { ... }` or `queue = "red"` where a packet count is expected.
    if last == "queue" && message.starts_with("invalid type") && message.contains("expected u32") {
        return Some(format!("{QUEUES} (e.g. queue = 50)"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_asked_for_get_words_other_errors_none() {
        let e = explain(
            "tcp.ecn",
            "unknown field `ecn`, expected one of `profile`, `mss`",
        );
        assert!(e.unwrap().starts_with("ECN (RFC 3168) is not modelled yet"));
        let q = explain("links[1].queue", "invalid type: map, expected u32").unwrap();
        assert!(
            q.starts_with("queue disciplines other than drop-tail"),
            "{q}"
        );
        assert!(explain("tcp.msss", "unknown field `msss`, expected one of `mss`").is_none());
        assert!(explain(
            "links[1].queue",
            "invalid value: integer `-1`, expected u32"
        )
        .is_none());
        assert!(explain("links[1].rate", "invalid type: map, expected u32").is_none());
    }
}
