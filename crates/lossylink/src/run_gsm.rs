//! The GSM-CSD link's part of a run's metrics (Ludwig2000 §3.2.2, §4.2; crate
//! `net::medium::gsm`).

use crate::build::TcpSettings;
use crate::metrics::GsmMetrics;
use engine::SimDuration;
use net::Network;

/// A radio block: one RLP frame (Ludwig2000 §2.4.4).
const BLOCK: SimDuration = SimDuration::from_millis(20);
/// RLP user bytes per frame (30 bytes less 6 of overhead, §2.4.3).
const FRAME_PAYLOAD: f64 = 24.0;
/// PPP framing per packet (§4.3.3).
const PPP: u32 = 7;

/// The counters of the network's GSM links, or `None` when it has none. Utilization is the
/// data direction's (the one that sent the most frames): the share of its transfer time the RLP
/// sender was busy or held back by L2R, less the airtime of the TCP segments the receiver got
/// twice (spurious retransmissions, each `(mss + 40 + options + 7) / 24` frames).
pub(crate) fn gsm_metrics(
    network: &Network,
    tcp: &TcpSettings,
    duplicate_segments: u64,
) -> Option<GsmMetrics> {
    let dirs: Vec<net::medium::GsmStats> = network
        .medium_reports()
        .filter_map(|r| match r {
            net::medium::MediumReport::Gsm { stats, .. } => Some(stats),
            _ => None,
        })
        .collect();
    let data = dirs
        .iter()
        .max_by_key(|d| d.frames + d.retransmissions)?
        .to_owned();
    let sum = |f: fn(&net::medium::GsmStats) -> u64| dirs.iter().map(f).sum::<u64>();
    let span = data.last_ns.saturating_sub(data.first_ns);
    let options = if tcp.timestamps.is_some() { 12 } else { 0 };
    let segment_frames = f64::from(tcp.mss + 40 + options + PPP) / FRAME_PAYLOAD;
    let spurious_ns = duplicate_segments as f64 * segment_frames * BLOCK.as_nanos() as f64;
    let utilization = if span == 0 {
        0.0
    } else {
        (data.busy_share(BLOCK) - spurious_ns / span as f64).max(0.0)
    };
    Some(GsmMetrics {
        rlp_frames: sum(|d| d.frames),
        rlp_retransmissions: sum(|d| d.retransmissions),
        rlp_resets: sum(|d| d.resets),
        rlp_flushed_packets: sum(|d| d.flushed),
        vj_discards: sum(|d| d.vj_discards),
        l2r_gaps: sum(|d| d.xoff_gaps),
        utilization_pct: 100.0 * utilization,
    })
}
