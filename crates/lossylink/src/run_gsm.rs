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
/// data direction's (the one that sent the most frames), Ludwig2000 §3.1.2: "the fraction of T
/// during which *useful* data, i.e., excluding packets/frames which had already been
/// successfully transmitted, is transmitted over the link". It is the share of the transfer
/// time the RLP sender was busy or held back by L2R, less the link time of two kinds of data
/// sent in vain: the TCP segments the receiver got twice (spurious retransmissions, each
/// `(mss + 40 + options + 7) / 24` frames), and the packets RLP carried intact that the far
/// end's header decompressor discarded (out of step after a reset, `vj_discards`): the link had
/// transmitted them successfully and TCP must send them again. MultiTracer (§3.2.4) counts the
/// same: a discarded segment shows in the receiver's tcpdump trace (decoded as an earlier
/// segment, Fig 4-8), so its retransmission reads as one the receiver already had. Each frame
/// sent in vain costs its share of the busy time (`GsmStats::frames_share`: RLP's
/// retransmissions and L2R's gaps included). `vj_discard_pct` is the discards' part.
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
    let options = if tcp.timestamps.is_some() { 12 } else { 0 };
    let segment_frames = f64::from(tcp.mss + 40 + options + PPP) / FRAME_PAYLOAD;
    let spurious = data.frames_share(BLOCK, duplicate_segments as f64 * segment_frames);
    let discarded = data.frames_share(BLOCK, data.discarded_bytes as f64 / FRAME_PAYLOAD);
    let utilization = if data.last_ns <= data.first_ns {
        0.0
    } else {
        (data.busy_share(BLOCK) - spurious - discarded).max(0.0)
    };
    Some(GsmMetrics {
        rlp_frames: sum(|d| d.frames),
        rlp_retransmissions: sum(|d| d.retransmissions),
        rlp_resets: sum(|d| d.resets),
        rlp_flushed_packets: sum(|d| d.flushed),
        vj_discards: sum(|d| d.vj_discards),
        l2r_gaps: sum(|d| d.xoff_gaps),
        utilization_pct: 100.0 * utilization,
        vj_discard_pct: 100.0 * discarded,
    })
}
