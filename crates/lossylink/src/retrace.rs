//! ReTracer for the front end (Ludwig2000 §3.1.4, §4.3; `net::medium::gsm::retrace`): a block-erasure
//! trace in the `block_trace` text format, a list of RLP frame sizes and a list of MTUs in,
//! tables out (the S6 and S7 targets of `lossylink reproduce ludwig2000`, `lossylink retrace`).
//! The synthetic traces of `net::medium::gsm::erasure` are drawn here too, from the stream
//! `gsm/{profile}/erasures` of a seed, as `crates/net/tests/gsm_retrace.rs` draws them.

use crate::trace::{Column, Trace, TraceTable};
use crate::Error;
use engine::RngStream;
use net::medium::gsm::clustered::Clustered;
use net::medium::gsm::erasure::{BlockTrace, Profile};
use net::medium::gsm::fading::Fading;
use net::medium::gsm::retrace::{
    retrace_e2e, retrace_rlp, tcp_over_rlp_bps, Packing, RLP_OVERHEAD_BYTES, TCP_IP_BYTES,
};

/// VJ-compressed TCP/IP header bytes per packet on average (§4.3.3).
pub const VJ_HEADER_BYTES: u32 = 6;

fn parse(trace: &str) -> Result<BlockTrace, Error> {
    BlockTrace::parse(trace).map_err(|e| Error::invalid("trace", e.to_string()))
}

/// Retrace `trace` (the `block_trace` text: one `0` or `1` per 20 ms block, `#` comments) for
/// each RLP frame size in `frames` (bytes, multiples of 30) and for pure end-to-end recovery at
/// each MTU in `mtus` (`packing`: `continuous` | `aligned`). Tables:
///
/// - `rlp`: `frame_bytes`, `throughput_bps`, `retransmission_fraction`, `frames_sent`,
///   `frames_delivered`;
/// - `e2e`: `mtu`, `throughput_bps`, `retransmission_fraction`, `multi_loss_share`,
///   `packets_sent`, `packets_delivered`, and the link-ARQ rows of Tab 4-14 at the best frame of
///   `frames`: `rlp_bps` (no compression), `rlp_vj_bps` (VJ, 6-byte headers);
/// - `loss_runs`: `mtu`, `length`: every run of back-to-back lost packets (Fig 4-15);
/// - `trace`: `blocks`, `erasures`, `bler`.
pub fn retrace(trace: &str, frames: &[u32], mtus: &[u32], packing: &str) -> Result<Trace, Error> {
    let t = parse(trace)?;
    let packing = match packing {
        "continuous" => Packing::Continuous,
        "aligned" => Packing::BlockAligned,
        _ => return Err(Error::invalid("packing", "must be continuous or aligned")),
    };
    let mut rlp = Vec::with_capacity(frames.len());
    for &f in frames {
        rlp.push(
            retrace_rlp(&t, f, RLP_OVERHEAD_BYTES)
                .map_err(|e| Error::invalid("frame", e.to_string()))?,
        );
    }
    let channel = rlp.iter().map(|r| r.throughput_bps()).fold(0.0, f64::max);
    let mut e2e = Vec::with_capacity(mtus.len());
    for &m in mtus {
        e2e.push(retrace_e2e(&t, m, packing).map_err(|e| Error::invalid("mtu", e.to_string()))?);
    }
    let int = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let rlp_table = TraceTable {
        name: "rlp".into(),
        columns: vec![
            (
                "frame_bytes".into(),
                Column::I64(rlp.iter().map(|r| i64::from(r.frame_blocks) * 30).collect()),
            ),
            (
                "throughput_bps".into(),
                Column::F64(rlp.iter().map(|r| r.throughput_bps()).collect()),
            ),
            (
                "retransmission_fraction".into(),
                Column::F64(rlp.iter().map(|r| r.retransmission_fraction()).collect()),
            ),
            (
                "frames_sent".into(),
                Column::I64(rlp.iter().map(|r| int(r.frames_sent)).collect()),
            ),
            (
                "frames_delivered".into(),
                Column::I64(rlp.iter().map(|r| int(r.frames_delivered)).collect()),
            ),
        ],
    };
    let e2e_table = TraceTable {
        name: "e2e".into(),
        columns: vec![
            (
                "mtu".into(),
                Column::I64(e2e.iter().map(|r| i64::from(r.mtu)).collect()),
            ),
            (
                "throughput_bps".into(),
                Column::F64(e2e.iter().map(|r| r.throughput_bps()).collect()),
            ),
            (
                "retransmission_fraction".into(),
                Column::F64(e2e.iter().map(|r| r.retransmission_fraction()).collect()),
            ),
            (
                "multi_loss_share".into(),
                Column::F64(e2e.iter().map(|r| r.multi_loss_share()).collect()),
            ),
            (
                "packets_sent".into(),
                Column::I64(e2e.iter().map(|r| int(r.packets_sent)).collect()),
            ),
            (
                "packets_delivered".into(),
                Column::I64(e2e.iter().map(|r| int(r.packets_delivered)).collect()),
            ),
            (
                "rlp_bps".into(),
                Column::F64(
                    e2e.iter()
                        .map(|r| tcp_over_rlp_bps(channel, r.mtu, TCP_IP_BYTES))
                        .collect(),
                ),
            ),
            (
                "rlp_vj_bps".into(),
                Column::F64(
                    e2e.iter()
                        .map(|r| tcp_over_rlp_bps(channel, r.mtu, VJ_HEADER_BYTES))
                        .collect(),
                ),
            ),
        ],
    };
    let (mut run_mtu, mut run_len) = (Vec::new(), Vec::new());
    for r in &e2e {
        for &l in &r.loss_runs {
            run_mtu.push(i64::from(r.mtu));
            run_len.push(i64::from(l));
        }
    }
    let runs = TraceTable {
        name: "loss_runs".into(),
        columns: vec![
            ("mtu".into(), Column::I64(run_mtu)),
            ("length".into(), Column::I64(run_len)),
        ],
    };
    let summary = TraceTable {
        name: "trace".into(),
        columns: vec![
            ("blocks".into(), Column::I64(vec![int(t.len() as u64)])),
            (
                "erasures".into(),
                Column::I64(vec![int(t.erasures() as u64)]),
            ),
            ("bler".into(), Column::F64(vec![t.bler()])),
        ],
    };
    Ok(Trace {
        tables: vec![rlp_table, e2e_table, runs, summary],
    })
}

/// A synthetic block-erasure trace of `minutes` from the named `profile`: the chains `good`,
/// `poor-b`, `poor-c` (`net::medium::gsm::erasure::Profile`), the fading channel `fading-c`
/// (`net::medium::gsm::fading::Fading`) or a clustered reading such as `poor-c@2s` or
/// `poor-b@500ms:dense` (`net::medium::gsm::clustered::Clustered`: fades of mean length
/// `T_c`), drawn from the stream `gsm/{profile}/erasures` of `seed`; with
/// `even`, its `_even` version (the same erasures, isolated and evenly spaced). The
/// `block_trace` text.
pub fn erasure_trace(profile: &str, minutes: u32, seed: u64, even: bool) -> Result<String, Error> {
    if minutes == 0 {
        return Err(Error::invalid("minutes", "must be at least 1"));
    }
    let mut rng = RngStream::new(seed, &format!("gsm/{profile}/erasures"));
    let t = if let Some(p) = Profile::named(profile) {
        p.generate(minutes as usize, &mut rng)
    } else if let Some(f) = Fading::named(profile) {
        f.generate(minutes as usize, &mut rng)
    } else if let Some(c) = Clustered::named(profile) {
        // The minutes from `gsm/<chain>/minutes`, the fades from `gsm/{profile}/erasures`.
        c.trace(profile, minutes as usize, seed)
    } else {
        let known: Vec<&str> = Profile::NAMES
            .iter()
            .chain(&Fading::NAMES)
            .copied()
            .collect();
        return Err(Error::invalid(
            "profile",
            format!(
                "unknown {profile:?} (known: {}, or clustered {})",
                known.join(", "),
                Clustered::SYNTAX
            ),
        ));
    };
    Ok(if even { t.even() } else { t }.to_text())
}

/// Statistics of a trace that the dissertation publishes for its own (RT28): the per-minute
/// block erasure rates and the lengths of the erasure bursts. Tables `minutes` (`bler`) and
/// `bursts` (`length`).
pub fn erasure_stats(trace: &str) -> Result<Trace, Error> {
    let t = parse(trace)?;
    Ok(Trace {
        tables: vec![
            TraceTable {
                name: "minutes".into(),
                columns: vec![("bler".into(), Column::F64(t.minute_blers()))],
            },
            TraceTable {
                name: "bursts".into(),
                columns: vec![(
                    "length".into(),
                    Column::I64(t.burst_lengths().into_iter().map(i64::from).collect()),
                )],
            },
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_trace_gives_the_overhead_bounds() {
        let clean = "0\n".repeat(3000);
        let tr = retrace(&clean, &[30, 210], &[576], "continuous").unwrap();
        let rlp = &tr.tables[0];
        let Column::F64(bps) = &rlp.columns[1].1 else {
            panic!("f64 column")
        };
        // 50 blocks/s: (30 - 6) · 50 = 1200 B/s, (210 - 6) / 7 · 50 = 1457 B/s.
        assert!((bps[0] - 1200.0).abs() < 1e-9);
        assert!((bps[1] - 204.0 / 7.0 * 50.0).abs() < 1e-9);
        let Column::F64(rate) = &tr.tables[1].columns[2].1 else {
            panic!("f64 column")
        };
        assert_eq!(rate[0], 0.0);
    }

    #[test]
    fn bad_input_names_its_field() {
        assert!(matches!(
            retrace("2\n", &[30], &[], "continuous"),
            Err(Error::InvalidValue { ref field, .. }) if field == "trace"
        ));
        assert!(matches!(
            retrace("0\n", &[31], &[], "continuous"),
            Err(Error::InvalidValue { ref field, .. }) if field == "frame"
        ));
        assert!(matches!(
            erasure_trace("nope", 1, 1, false),
            Err(Error::InvalidValue { ref field, .. }) if field == "profile"
        ));
    }

    #[test]
    fn the_trace_is_the_profiles_stream() {
        let a = erasure_trace("poor-c", 2, 7, false).unwrap();
        assert_eq!(a, erasure_trace("poor-c", 2, 7, false).unwrap());
        assert_eq!(a.lines().count(), 2 * 3000);
        // A clustered reading: its own stream, the same length; a bad T_c names the field.
        let c = erasure_trace("poor-c@2s:dense", 2, 7, false).unwrap();
        assert_eq!(c.lines().count(), 2 * 3000);
        assert_ne!(c, a);
        assert!(matches!(
            erasure_trace("poor-c@1ms", 1, 1, false),
            Err(Error::InvalidValue { ref field, .. }) if field == "profile"
        ));
        let even = erasure_trace("poor-c", 2, 7, true).unwrap();
        assert_eq!(
            a.matches('1').count(),
            even.matches('1').count(),
            "the same erasures"
        );
    }
}
