//! Quantities with units, parsed exactly (no floating point for sizes and times).
//!
//! Sizes: bytes, with IEC binary prefixes (`KiB`, `MiB`, `GiB`) or SI decimal ones (`KB`, `MB`,
//! `GB`, `kB`); a bare integer is bytes. Rates: bit/s with SI prefixes (`bps`, `kbps`, `Mbps`,
//! `Gbps`, also `b/s`, `kb/s`, `Mb/s`, `Gb/s`, `bit/s`, `kbit/s`, `Mbit/s`, `Gbit/s`; a unit is
//! required). Durations: `ns`, `us`, `ms`, `s`, `min`, `h` (a unit is required). Fractions are
//! allowed, with digits on both sides of the point, (`1.5MiB`, `0.5ms`) when the result is a
//! whole number of bytes, bits per second or nanoseconds; otherwise the value is rejected, never
//! rounded.

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// Marker that classifies a serde error message as a unit error (see `scenario::classify`).
pub(crate) const UNIT_TAG: &str = "[unit] ";
/// Marker that classifies a serde error message as an out-of-range value.
pub(crate) const RANGE_TAG: &str = "[range] ";

/// Parse `text` as a non-negative decimal `mantissa / 10^scale`.
fn decimal(text: &str) -> Option<(u128, u32)> {
    let (int, frac) = match text.split_once('.') {
        // A decimal point needs digits on both sides: "12." and ".5" hide typos.
        Some((i, f)) if i.is_empty() || f.is_empty() => return None,
        Some((i, f)) => (i, f),
        None => (text, ""),
    };
    if int.is_empty() {
        return None;
    }
    if !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) || frac.len() > 18 {
        return None;
    }
    let digits = format!("{int}{frac}");
    let m: u128 = digits
        .trim_start_matches('0')
        .parse()
        .ok()
        .or(Some(0).filter(|_| !digits.is_empty()))?;
    Some((m, frac.len() as u32))
}

/// `number unit` → integer in base units, or an error message.
fn quantity(text: &str, units: &[(&str, u128)], what: &str, examples: &str) -> Result<u64, String> {
    let t = text.trim();
    let bad = || format!("{UNIT_TAG}cannot parse '{text}' as {what} (examples: {examples})");
    if t.starts_with('-') {
        return Err(format!(
            "{RANGE_TAG}'{text}' is negative; {what} must be zero or more (examples: {examples})"
        ));
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim();
    let (m, scale) = decimal(num).ok_or_else(bad)?;
    let factor = units
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, f)| *f)
        .ok_or_else(bad)?;
    let den = 10u128.pow(scale);
    let total = m.checked_mul(factor).ok_or_else(bad)?;
    if total % den != 0 {
        return Err(format!("{UNIT_TAG}'{text}' is not a whole number of base units for {what} (examples: {examples})"));
    }
    u64::try_from(total / den).map_err(|_| format!("{RANGE_TAG}'{text}' is too large for {what}"))
}

const SIZE_UNITS: &[(&str, u128)] = &[
    ("", 1),
    ("B", 1),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("KB", 1_000),
    ("kB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
];
const RATE_UNITS: &[(&str, u128)] = &[
    ("bps", 1),
    ("b/s", 1),
    ("bit/s", 1),
    ("kbps", 1_000),
    ("kb/s", 1_000),
    ("kbit/s", 1_000),
    ("Mbps", 1_000_000),
    ("Mb/s", 1_000_000),
    ("Mbit/s", 1_000_000),
    ("Gbps", 1_000_000_000),
    ("Gb/s", 1_000_000_000),
    ("Gbit/s", 1_000_000_000),
];
const TIME_UNITS: &[(&str, u128)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("min", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Parse a size in bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    quantity(text, SIZE_UNITS, "a size", "1400, 64KiB, 8MiB, 1.5MB")
}
/// Parse a bit rate in bit/s. A bare number without unit is rejected (`7` is far more often a
/// forgotten `Mbps` than seven bits per second).
pub fn parse_rate(text: &str) -> Result<u64, String> {
    quantity(text, RATE_UNITS, "a rate", "2Mbps, 10Mb/s, 1544kbps")
}
/// Parse a duration in nanoseconds. A bare number without unit is rejected (ambiguous).
pub fn parse_duration(text: &str) -> Result<u64, String> {
    quantity(
        text,
        TIME_UNITS,
        "a duration",
        "10ms, 500us, 1.5s, 2min, 3h",
    )
}

/// Render bytes with the largest exact binary unit.
pub fn format_size(b: u64) -> String {
    for (u, f) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if b >= f && b.is_multiple_of(f) {
            return format!("{}{u}", b / f);
        }
    }
    format!("{b}")
}
/// Render a rate with the largest exact SI unit.
pub fn format_rate(r: u64) -> String {
    for (u, f) in [
        ("Gbps", 1_000_000_000u64),
        ("Mbps", 1_000_000),
        ("kbps", 1_000),
    ] {
        if r >= f && r.is_multiple_of(f) {
            return format!("{}{u}", r / f);
        }
    }
    format!("{r}bps")
}
/// Render a duration with the largest exact unit.
pub fn format_duration(ns: u64) -> String {
    if ns == 0 {
        return "0s".into();
    }
    for (u, f) in [("s", 1_000_000_000u64), ("ms", 1_000_000), ("us", 1_000)] {
        if ns.is_multiple_of(f) {
            return format!("{}{u}", ns / f);
        }
    }
    format!("{ns}ns")
}

macro_rules! unit_type {
    ($(#[$m:meta])* $name:ident, $parse:ident, $format:ident, $expect:literal, $ints:expr) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub u64);

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&$format(self.0))
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($expect)
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        $parse(v).map($name).map_err(E::custom)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        if $ints { Ok($name(v)) } else { $parse(&v.to_string()).map($name).map_err(E::custom) }
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        if v < 0 {
                            return Err(E::custom(format!("{RANGE_TAG}{v} is negative; expected {}", $expect)));
                        }
                        self.visit_u64(v as u64)
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$name, E> {
                        $parse(&v.to_string()).map($name).map_err(E::custom)
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

unit_type!(
    /// A size in bytes.
    Size, parse_size, format_size, "a size such as 1400, 64KiB or 8MiB", true
);
unit_type!(
    /// A bit rate in bit/s.
    Rate, parse_rate, format_rate, "a rate such as 2Mbps or 10Mb/s", false
);
unit_type!(
    /// A duration in nanoseconds (a unit is required).
    Dur, parse_duration, format_duration, "a duration such as 10ms, 500us or 1.5s", false
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64KiB"), Ok(65536));
        assert_eq!(parse_size("64 KiB"), Ok(65536));
        assert_eq!(parse_size("8MiB"), Ok(8_388_608));
        assert_eq!(parse_size("1.5MB"), Ok(1_500_000));
        assert_eq!(parse_size("1400"), Ok(1400));
        assert_eq!(parse_size("0"), Ok(0));
        assert!(parse_size("-5KiB").unwrap_err().starts_with(RANGE_TAG));
        assert!(parse_size("64KiBB").unwrap_err().starts_with(UNIT_TAG));
        assert!(parse_size("1.5").unwrap_err().contains("whole number"));
        assert!(parse_size("").is_err());
        assert!(parse_size(".").is_err());
        // A point needs digits on both sides.
        assert!(parse_size("12.KiB").is_err());
        assert!(parse_size(".5MB").is_err());
    }

    #[test]
    fn rates_and_durations() {
        assert_eq!(parse_rate("2Mbps"), Ok(2_000_000));
        assert_eq!(parse_rate("1.544Mb/s"), Ok(1_544_000));
        assert_eq!(parse_duration("500us"), Ok(500_000));
        assert_eq!(parse_duration("1.5s"), Ok(1_500_000_000));
        assert_eq!(parse_duration("2min"), Ok(120_000_000_000));
        assert_eq!(parse_duration("3h"), Ok(10_800_000_000_000));
        assert_eq!(parse_duration("0.5h"), Ok(1_800_000_000_000));
        assert!(parse_duration("10").is_err(), "a duration needs a unit");
        assert!(parse_duration("0.5ns").is_err());
        assert!(parse_rate("7").is_err(), "a rate needs a unit");
        assert!(parse_rate("7").unwrap_err().contains("2Mbps"));
    }

    proptest! {
        #[test]
        fn formatting_round_trips(b in 0u64..(1 << 40), r in 1u64..(1 << 40), t in 0u64..(1 << 50)) {
            prop_assert_eq!(parse_size(&format_size(b)), Ok(b));
            prop_assert_eq!(parse_rate(&format_rate(r)), Ok(r));
            prop_assert_eq!(parse_duration(&format_duration(t)), Ok(t));
        }
    }
}
