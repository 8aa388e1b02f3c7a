//! What the LL-ELSN study's examples (`fig6_point`, `llelsn_point`, `llelsn_flows`) share: the
//! base scenario of a point, the settings every point takes last, the seed range argument, and
//! small readers of the results.

// Each example includes this module and uses part of it.
#![allow(dead_code)]

use lossylink::{Column, Scenario, TraceTable};

/// The `llelsn` preset with `scheme`, 200 s long, as python/lossylink/papers/llelsn/runs.py
/// starts every point.
pub fn base(scheme: &str) -> Result<Scenario, Box<dyn std::error::Error>> {
    let mut s = Scenario::preset("llelsn")?;
    s.set("scheme", scheme)?;
    s.set("run.duration", "200s")?;
    Ok(s)
}

/// The cell's error model for a uniform FER of `pct` % on a full data frame (1000 payload + 40
/// TCP/IP + 36 MAC framing bytes, spec §5.4.3), scaled to each frame's length.
pub fn fer(pct: f64) -> String {
    format!(
        "{{ model = \"fer\", fer = {}, reference = \"1076B\" }}",
        pct / 100.0
    )
}

/// The last settings of a point: header protection in the cell for the senders that read
/// corrupted headers (LHP, HACK), as runs.py sets it, then the user's
/// `LLELSN_SET="key=value;..."`.
pub fn finish(s: &mut Scenario, scheme: &str) -> Result<(), Box<dyn std::error::Error>> {
    if matches!(scheme, "e2e-lhp" | "e2e-hack" | "e2e-hack-fixed") {
        s.set("cells.0.dcf.header_protection", "true")?;
    }
    for kv in std::env::var("LLELSN_SET").unwrap_or_default().split(';') {
        if let Some((k, v)) = kv.split_once('=') {
            s.set(k.trim(), v.trim())?;
        }
    }
    Ok(())
}

/// The seeds of a `first-last` (or single seed) argument.
pub fn seeds(arg: &str) -> Result<std::ops::RangeInclusive<u64>, Box<dyn std::error::Error>> {
    let (lo, hi) = arg.split_once('-').unwrap_or((arg, arg));
    Ok(lo.parse()?..=hi.parse()?)
}

/// Column `name` of table `t`.
pub fn col<'a>(t: &'a TraceTable, name: &str) -> Option<&'a Column> {
    t.columns.iter().find(|(n, _)| n == name).map(|(_, c)| c)
}

/// The median (upper middle) of `v`, sorting it; NaN when empty.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
