//! What the LL-ELSN study's examples (`llelsn_point`, `llelsn_flows`) share: the settings every
//! point takes last, and a trace table's column by name.

use lossylink::{Column, Scenario, TraceTable};

/// The last settings of a point: header protection in the cell for the senders that read
/// corrupted headers (LHP, HACK), as python/lossylink/papers/llelsn/runs.py sets it, then the
/// user's `LLELSN_SET="key=value;..."`.
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

/// Column `name` of table `t`.
pub fn col<'a>(t: &'a TraceTable, name: &str) -> Option<&'a Column> {
    t.columns.iter().find(|(n, _)| n == name).map(|(_, c)| c)
}
