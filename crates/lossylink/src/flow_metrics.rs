//! Results per flow and per link of a `[[flows]]` document, and their aggregates (the issue of
//! many flows: goodput in a measurement window, completion, the sender's recovery counters;
//! utilisation, drops and corruptions of each link direction; aggregate goodput and Jain's
//! fairness index, J = (Σx)² / (n·Σx²) over the flows' goodputs).

use crate::build::Built;
use crate::metrics::Value;
use engine::SimTime;
use net::Network;

/// Per-flow and per-link results of one run (a flow's goodput is NaN when its window is empty:
/// it completed before `run.warmup`; aggregates leave such flows out). UDP background flows
/// have rows too (goodput at the sink, datagrams sent as `sender_segments`), but the aggregate
/// goodput and Jain's index are the TCP flows'., each a list of (key, value) pairs in column order.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowResults {
    /// One row per flow, in document order.
    pub flows: Vec<Vec<(&'static str, Value)>>,
    /// One row per link direction, in port order.
    pub links: Vec<Vec<(&'static str, Value)>>,
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

impl FlowResults {
    /// The results of `network` after a run of `b` that ended at `end`.
    pub(crate) fn new(network: &Network, b: &Built, end: SimTime) -> Self {
        let window_open = SimTime::ZERO + b.warmup;
        let mut goodputs = Vec::with_capacity(b.flows.len());
        let mut flows = Vec::with_capacity(b.flows.len());
        let mut completed = 0u64;
        let (mut tcp, mut udp) = (network.flows().iter(), network.udp_flows().iter());
        for plan in &b.flows {
            let from = window_open.max(plan.start);
            if plan.udp.is_some() {
                let Some(src) = udp.next() else { continue };
                // A background source: goodput over its window, datagrams sent and lost.
                let to = plan.stop.map_or(end, |s| s.min(end));
                let secs = to.saturating_since(from).as_secs_f64();
                let bytes = src.delivered_bytes - src.delivered_at_window_start;
                let goodput = if secs > 0.0 {
                    bytes as f64 * 8.0 / secs / 1e6
                } else {
                    f64::NAN
                };
                flows.push(vec![
                    ("flow", Value::Str(plan.name.clone())),
                    ("scheme", Value::Str(plan.scheme_name.clone())),
                    (
                        "from",
                        Value::Str(network.nodes()[plan.src.index()].name.clone()),
                    ),
                    (
                        "to",
                        Value::Str(network.nodes()[plan.dst.index()].name.clone()),
                    ),
                    ("start_s", Value::Float(plan.start.as_secs_f64())),
                    ("bytes", u(0)),
                    ("delivered_bytes", u(src.delivered_bytes)),
                    ("goodput_mbps", Value::Float(goodput)),
                    ("completion_s", Value::Float(f64::NAN)),
                    ("sender_segments", u(src.sent)),
                    ("sender_retransmitted_segments", u(0)),
                    ("sender_timeouts", u(0)),
                    ("sender_fast_retransmits", u(0)),
                    ("sender_spurious_timeouts", u(0)),
                    ("sender_spurious_fast_retransmits", u(0)),
                ]);
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
            let delivered_to = f
                .delivered_at_stop
                .unwrap_or_else(|| f.receiver.delivered());
            let bytes = delivered_to.saturating_sub(f.delivered_at_window_start);
            let secs = to.saturating_since(from).as_secs_f64();
            // A flow that ended before the window opened has no goodput to measure (NaN).
            let goodput = if secs > 0.0 {
                bytes as f64 * 8.0 / secs / 1e6
            } else {
                f64::NAN
            };
            if goodput.is_finite() {
                goodputs.push(goodput);
            }
            flows.push(vec![
                ("flow", Value::Str(plan.name.clone())),
                ("scheme", Value::Str(plan.scheme_name.clone())),
                (
                    "from",
                    Value::Str(network.nodes()[plan.src.index()].name.clone()),
                ),
                (
                    "to",
                    Value::Str(network.nodes()[plan.dst.index()].name.clone()),
                ),
                ("start_s", Value::Float(plan.start.as_secs_f64())),
                ("bytes", u(plan.bytes.unwrap_or(0))),
                ("delivered_bytes", u(f.receiver.delivered())),
                ("goodput_mbps", Value::Float(goodput)),
                (
                    "completion_s",
                    Value::Float(done.map_or(f64::NAN, |t| t.as_secs_f64())),
                ),
                ("sender_segments", u(s.segments_sent)),
                ("sender_retransmitted_segments", u(s.retransmitted_segments)),
                ("sender_timeouts", u(s.timeouts)),
                ("sender_fast_retransmits", u(s.fast_retransmits)),
                ("sender_spurious_timeouts", u(s.spurious_timeouts)),
                (
                    "sender_spurious_fast_retransmits",
                    u(s.spurious_fast_retransmits),
                ),
            ]);
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
                    (
                        "from",
                        Value::Str(network.nodes()[p.from.index()].name.clone()),
                    ),
                    ("to", Value::Str(network.nodes()[p.to.index()].name.clone())),
                    (
                        "utilisation",
                        Value::Float(if run_s > 0.0 {
                            p.stats.busy_ns as f64 * 1e-9 / run_s
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
                    ("udp_frames", u(p.stats.udp_frames)),
                    ("corrupted_udp", u(p.stats.corrupted_udp)),
                ]
            })
            .collect();
        let acc = network.packet_account();
        let aggregate = vec![
            ("flows", u(b.flows.len() as u64)),
            ("completed_flows", u(completed)),
            (
                "aggregate_goodput_mbps",
                Value::Float(goodputs.iter().sum()),
            ),
            ("jain_index", Value::Float(jain(&goodputs))),
            ("duration_s", Value::Float(run_s)),
            ("events", u(network.events_processed())),
            ("packets_created", u(acc.created)),
            ("packets_delivered", u(acc.delivered)),
            ("packets_queue_dropped", u(acc.queue_drops)),
            ("packets_corrupted", u(acc.corrupted)),
            ("packets_in_flight", u(acc.in_flight)),
        ];
        FlowResults {
            flows,
            links,
            aggregate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::jain;

    #[test]
    fn jain_is_one_for_equal_shares_and_one_over_n_for_a_monopoly() {
        assert_eq!(jain(&[2.0, 2.0, 2.0]), 1.0);
        assert!((jain(&[3.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        // (1 + 3)^2 / (2 · (1 + 9)) = 0.8
        assert!((jain(&[1.0, 3.0]) - 0.8).abs() < 1e-12);
        assert_eq!(jain(&[]), 1.0);
    }
}
