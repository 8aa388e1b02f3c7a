//! Results per flow and per link of a `[[flows]]` document, and their aggregates (the issue of
//! many flows: goodput in a measurement window, completion, the sender's recovery counters;
//! utilisation, drops and corruptions of each link direction; aggregate goodput and Jain's
//! fairness index, J = (Σx)² / (n·Σx²) over the flows' goodputs).

use crate::build::{Built, FlowPlan};
use crate::metrics::Value;
use engine::SimTime;
use net::Network;

/// Per-flow and per-link results of one run, each a list of (key, value) pairs in column
/// order. A flow's goodput is the bytes its application received inside its window (from the
/// later of `run.warmup` and its start to the earliest of its completion, its stop and the
/// end; bytes that arrived out of order before the window opened are not counted when the
/// hole below them is repaired inside it) over the window's length; NaN when the window is
/// empty (it completed before `run.warmup`; Jain's index leaves such flows out). The
/// aggregate goodput is the sum of those bytes over the common window, `run.warmup` to the
/// end, never a sum of rates over different windows. UDP background flows have rows too
/// (goodput at the sink, datagrams sent as `sender_segments`), but the aggregate goodput and
/// Jain's index are the TCP flows' (web sessions included).
#[derive(Clone, Debug, PartialEq)]
pub struct FlowResults {
    /// One row per flow, in document order.
    pub flows: Vec<Vec<(&'static str, Value)>>,
    /// One row per link direction, in port order.
    pub links: Vec<Vec<(&'static str, Value)>>,
    /// One row per 802.11 DCF member (access points and stations of DCF cells; empty without).
    pub members: Vec<Vec<(&'static str, Value)>>,
    /// Aggregates over the flows.
    pub aggregate: Vec<(&'static str, Value)>,
}

/// Jain's fairness index of `x` (1 for equal shares, 1/n when one takes everything; 1 for no
/// flows or all zero).
pub fn jain(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    if sq == 0.0 {
        1.0
    } else {
        sum * sum / (x.len() as f64 * sq)
    }
}

fn u(v: u64) -> Value {
    Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
}

/// What one flow's row says, TCP or UDP alike.
struct Row {
    bytes: u64,
    delivered: u64,
    /// Bytes received inside the window.
    in_window: u64,
    goodput: f64,
    completion: Option<SimTime>,
    counts: [u64; 6],
    /// A TCP flow's ECN counters, when it negotiates ECN.
    ecn: Option<crate::metrics::EcnMetrics>,
    /// A web session's pages (their response times in seconds, pages requested in the window)
    /// and its objects and connections.
    web: Option<WebRow>,
}

/// What a web session's row adds.
struct WebRow {
    response_s: Vec<f64>,
    objects: u64,
    connections: u64,
}

/// The web columns of `response_s` (sorted in place): pages, mean, median and 95th percentile
/// (nearest rank: the smallest value with at least 95 % of the pages at or below it); NaN
/// without pages.
fn response_columns(response_s: &mut [f64]) -> [(&'static str, Value); 4] {
    response_s.sort_by(f64::total_cmp);
    let n = response_s.len();
    let (mean, median, p95) = if n == 0 {
        (f64::NAN, f64::NAN, f64::NAN)
    } else {
        let median = if n % 2 == 1 {
            response_s[n / 2]
        } else {
            (response_s[n / 2 - 1] + response_s[n / 2]) / 2.0
        };
        let rank = (0.95 * n as f64).ceil() as usize;
        (
            response_s.iter().sum::<f64>() / n as f64,
            median,
            response_s[rank.clamp(1, n) - 1],
        )
    };
    [
        ("pages", u(n as u64)),
        ("response_mean_s", Value::Float(mean)),
        ("response_median_s", Value::Float(median)),
        ("response_p95_s", Value::Float(p95)),
    ]
}

/// The per-flow counters, in row order, after the identity columns.
const COUNT_KEYS: [&str; 6] = [
    "sender_segments",
    "sender_retransmitted_segments",
    "sender_timeouts",
    "sender_fast_retransmits",
    "sender_spurious_timeouts",
    "sender_spurious_fast_retransmits",
];

/// A sender's counters in the order of [`COUNT_KEYS`].
fn sender_counts(s: &tcp::SenderStats) -> [u64; 6] {
    [
        s.segments_sent,
        s.retransmitted_segments,
        s.timeouts,
        s.fast_retransmits,
        s.spurious_timeouts,
        s.spurious_fast_retransmits,
    ]
}

/// Megabits per second of `bytes` over `secs`; NaN for an empty window.
fn mbps(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 * 8.0 / secs / 1e6
    } else {
        f64::NAN
    }
}

fn row(network: &Network, plan: &FlowPlan, r: Row) -> Vec<(&'static str, Value)> {
    let name = |n: engine::NodeId| Value::Str(network.node(n).name.clone());
    let mut out = vec![
        ("flow", Value::Str(plan.name.clone())),
        ("scheme", Value::Str(plan.scheme_name.clone())),
        ("from", name(plan.src)),
        ("to", name(plan.dst)),
        ("start_s", Value::Float(plan.start.as_secs_f64())),
        ("bytes", u(r.bytes)),
        ("delivered_bytes", u(r.delivered)),
        ("goodput_mbps", Value::Float(r.goodput)),
        (
            "completion_s",
            Value::Float(r.completion.map_or(f64::NAN, |t| t.as_secs_f64())),
        ),
    ];
    out.extend(COUNT_KEYS.iter().zip(r.counts).map(|(&k, v)| (k, u(v))));
    if let Some(e) = r.ecn {
        out.extend(e.to_pairs());
    }
    if let Some(mut w) = r.web {
        out.extend(response_columns(&mut w.response_s));
        out.push(("objects", u(w.objects)));
        out.push(("connections", u(w.connections)));
    }
    out
}

impl FlowResults {
    /// The results of `network` after a run of `b` that ended at `end`.
    pub(crate) fn new(network: &Network, b: &Built, end: SimTime) -> Self {
        let window_open = SimTime::ZERO + b.warmup;
        let mut goodputs = Vec::with_capacity(b.flows.len());
        let mut flows = Vec::with_capacity(b.flows.len());
        let mut completed = 0u64;
        let (mut tcp, mut udp) = (network.flows().iter(), network.udp_flows().iter());
        let mut web = network.web_flows().iter();
        let mut all_pages = Vec::new();
        // The TCP flows' bytes received inside the common window.
        let mut window_bytes = 0u64;
        for plan in &b.flows {
            let from = window_open.max(plan.start);
            if plan.web.is_some() {
                let Some(w) = web.next() else { continue };
                let r = web_row(
                    network,
                    w,
                    window_open,
                    from,
                    plan.stop.map_or(end, |s| s.min(end)),
                );
                if r.goodput.is_finite() {
                    goodputs.push(r.goodput);
                }
                window_bytes += r.in_window;
                if let Some(wr) = &r.web {
                    all_pages.extend_from_slice(&wr.response_s);
                }
                flows.push(row(network, plan, r));
                continue;
            }
            if plan.udp.is_some() {
                let Some(src) = udp.next() else { continue };
                // A background source: goodput at the sink over its window, datagrams sent.
                let to = plan.stop.map_or(end, |s| s.min(end));
                let bytes = src.window_bytes();
                let r = Row {
                    bytes: 0,
                    delivered: src.delivered_bytes,
                    in_window: bytes,
                    goodput: mbps(bytes, to.saturating_since(from).as_secs_f64()),
                    completion: None,
                    counts: [src.sent, 0, 0, 0, 0, 0],
                    ecn: None,
                    web: None,
                };
                flows.push(row(network, plan, r));
                continue;
            }
            let Some(f) = tcp.next() else { continue };
            let s = f.sender.stats();
            let done = f.receiver.complete_at();
            completed += u64::from(done.is_some() && plan.bytes.is_some());
            // The window: from the later of the warm-up and the flow's start to the earliest of
            // its completion, its stop and the end of the run.
            let to = [done, plan.stop, Some(end)]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(end);
            let bytes = f.window_bytes();
            window_bytes += bytes;
            // A flow that ended before the window opened has no goodput to measure (NaN).
            let goodput = mbps(bytes, to.saturating_since(from).as_secs_f64());
            if goodput.is_finite() {
                goodputs.push(goodput);
            }
            let r = Row {
                bytes: plan.bytes.unwrap_or(0),
                delivered: f.receiver.delivered(),
                in_window: bytes,
                goodput,
                completion: done,
                counts: sender_counts(s),
                ecn: plan
                    .tcp
                    .ecn
                    .then(|| crate::metrics::EcnMetrics::of(s, f.receiver.stats())),
                web: None,
            };
            flows.push(row(network, plan, r));
        }
        let run_s = end.as_secs_f64();
        let links = network
            .ports()
            .iter()
            .map(|p| {
                let link = &b.net.topology.links[p.hop.index()];
                let dir = if p.id.index().is_multiple_of(2) {
                    "forward"
                } else {
                    "reverse"
                };
                vec![
                    ("link", Value::Str(link.hop.name.clone())),
                    ("direction", Value::Str(dir.into())),
                    ("from", Value::Str(network.node(p.from).name.clone())),
                    ("to", Value::Str(network.node(p.to).name.clone())),
                    (
                        "utilisation",
                        // The airtime inside the run (a frame still on the air at the end
                        // counts its part before it) over the run's length.
                        Value::Float(if end > SimTime::ZERO {
                            p.busy_ns_until(end) as f64 / end.as_nanos() as f64
                        } else {
                            0.0
                        }),
                    ),
                    ("data_frames", u(p.stats.data_frames)),
                    ("ack_frames", u(p.stats.ack_frames)),
                    ("queue_drops", u(p.stats.queue_drops)),
                    ("max_queue", u(u64::from(p.stats.max_queue))),
                    ("corrupted_data", u(p.stats.corrupted_data)),
                    ("corrupted_acks", u(p.stats.corrupted_acks)),
                    ("corrupted_data_runs", u(p.stats.corrupted_data_runs)),
                    ("header_hits", u(p.stats.header_hits)),
                    ("udp_frames", u(p.stats.udp_frames)),
                    ("corrupted_udp", u(p.stats.corrupted_udp)),
                ]
                .into_iter()
                .chain(crate::queue_metrics::fields(p))
                .collect()
            })
            .collect();
        let acc = network.packet_account();
        let mut aggregate = vec![
            ("flows", u(b.flows.len() as u64)),
            ("completed_flows", u(completed)),
            (
                "aggregate_goodput_mbps",
                Value::Float(mbps(
                    window_bytes,
                    end.saturating_since(window_open).as_secs_f64(),
                )),
            ),
            ("jain_index", Value::Float(jain(&goodputs))),
            ("duration_s", Value::Float(run_s)),
            ("events", u(network.events_processed())),
            ("packets_created", u(acc.created)),
        ];
        aggregate.extend(account_columns(&acc));
        if b.flows.iter().any(|f| f.web.is_some()) {
            aggregate.extend(response_columns(&mut all_pages));
        }
        FlowResults {
            flows,
            links,
            members: crate::mac_metrics::member_rows(network, &b.net.topology, end),
            aggregate,
        }
    }
}

/// The packet account's buckets as aggregate columns (`packets_<bucket>`), in its order.
fn account_columns(acc: &net::PacketAccount) -> Vec<(&'static str, Value)> {
    const KEYS: [&str; 11] = [
        "packets_delivered",
        "packets_queue_dropped",
        "packets_hold_expired",
        "packets_corrupted",
        "packets_decompressor_discarded",
        "packets_mac_dropped",
        "packets_agent_absorbed",
        "packets_proxy_absorbed",
        "packets_link_absorbed",
        "packets_unroutable",
        "packets_in_flight",
    ];
    KEYS.iter()
        .zip(acc.buckets())
        .map(|(&k, (name, v))| {
            debug_assert_eq!(k, format!("packets_{name}"));
            (k, u(v))
        })
        .collect()
}

/// A web session's row: objects' bytes at the client in the window `from..to`, the counters
/// of all its connections (requests and responses), pages requested in the window (after
/// `window_open`) with their response times.
fn web_row(
    network: &Network,
    w: &net::WebFlow,
    window_open: SimTime,
    from: SimTime,
    to: SimTime,
) -> Row {
    let mut counts = [0u64; 6];
    let (mut delivered, mut in_window) = (0u64, 0u64);
    for c in &w.connections {
        let f = &network.flows()[c.index()];
        let s = f.sender.stats();
        for (k, v) in counts.iter_mut().zip(sender_counts(s)) {
            *k += v;
        }
        if f.src == w.server {
            delivered += f.receiver.delivered();
            in_window += f.window_bytes();
        }
    }
    let pages = w.session.pages();
    Row {
        bytes: 0,
        delivered,
        in_window,
        goodput: mbps(in_window, to.saturating_since(from).as_secs_f64()),
        completion: None,
        counts,
        // A web session's connections open and close as it goes: no ECN columns.
        ecn: None,
        web: Some(WebRow {
            response_s: pages
                .iter()
                .filter(|p| p.requested >= window_open)
                .map(|p| p.response.as_secs_f64())
                .collect(),
            objects: w.session.objects(),
            connections: w.connections.len() as u64,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{jain, response_columns};
    use crate::metrics::Value;

    #[test]
    fn response_columns_give_mean_median_and_nearest_rank_p95() {
        let mut x: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        let c = response_columns(&mut x);
        assert_eq!(c[0].1, Value::Int(20));
        assert_eq!(c[1].1, Value::Float(10.5));
        assert_eq!(c[2].1, Value::Float(10.5));
        // ceil(0.95 · 20) = 19th smallest.
        assert_eq!(c[3].1, Value::Float(19.0));
        let mut one = vec![3.0];
        assert_eq!(response_columns(&mut one)[3].1, Value::Float(3.0));
        let c = response_columns(&mut []);
        assert!(matches!(c[1].1, Value::Float(v) if v.is_nan()));
    }

    #[test]
    fn jain_is_one_for_equal_shares_and_one_over_n_for_a_monopoly() {
        assert_eq!(jain(&[2.0, 2.0, 2.0]), 1.0);
        assert!((jain(&[3.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        // (1 + 3)^2 / (2 · (1 + 9)) = 0.8
        assert!((jain(&[1.0, 3.0]) - 0.8).abs() < 1e-12);
        assert_eq!(jain(&[]), 1.0);
    }
}
