//! Per-direction metrics of a queue discipline, appended to a link direction's row
//! only where the port runs one other than drop-tail (the rows of drop-tail links keep their
//! columns): sojourn time (mean, 95th percentile, maximum, in ms; mean and 95th percentile of TCP segments alone), drops and marks by cause.

use crate::Value;

/// The columns of a port's queue discipline, if it runs one.
pub(crate) fn fields(p: &net::Port) -> Vec<(&'static str, Value)> {
    let Some(q) = p.queue_stats() else {
        return Vec::new();
    };
    let ms = |ns: u64| Value::Float(ns as f64 * 1e-6);
    let u = |v: u64| Value::Int(v as i64);
    vec![
        ("sojourn_mean_ms", ms(q.sojourn.mean_ns())),
        ("sojourn_p95_ms", ms(q.sojourn.quantile_ns(950))),
        ("sojourn_max_ms", ms(q.sojourn.max_ns)),
        ("tcp_sojourn_mean_ms", ms(q.sojourn_tcp.mean_ns())),
        ("tcp_sojourn_p95_ms", ms(q.sojourn_tcp.quantile_ns(950))),
        ("overflow_drops", u(q.overflow_drops)),
        ("early_drops", u(q.early_drops)),
        ("codel_drops", u(q.codel_drops)),
        ("early_marks", u(q.early_marks)),
        ("codel_marks", u(q.codel_marks)),
    ]
}
