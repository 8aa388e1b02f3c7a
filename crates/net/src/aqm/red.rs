//! Random Early Detection: S. Floyd and V. Jacobson, "Random Early Detection Gateways for
//! Congestion Avoidance", IEEE/ACM ToN 1(4), 1993, Figure 2, with the gentle variant (Floyd,
//! "Recommendation on using the gentle_ variant of RED", 2000). In packets, as ns-2's RED
//! without `bytes_`/`queue_in_bytes_`.
//!
//! On each arrival the average queue is updated (`avg ← (1 − w_q)·avg + w_q·q`; after an idle
//! period `avg ← (1 − w_q)^m·avg` with `m` the packets the link could have sent meanwhile, of
//! `mean_pktsize` bytes, as ns-2 `REDQueue::estimator`); between `min_th` and `max_th` the
//! packet is dropped (or, with ECN, marked CE) with `p_a = p_b / (1 − count·p_b)` where
//! `p_b = max_p·(avg − min_th)/(max_th − min_th)` and `count` counts the packets since the last
//! drop; gentle: between `max_th` and `2·max_th`, `p_b = max_p + (1 − max_p)·(avg − max_th)/max_th`;
//! above, every packet. A full buffer (`limit`) drops.
//!
//! Defaults are ns-2's (`tcl/lib/ns-default.tcl`, Queue/RED, the classic settings): `thresh_` 5,
//! `maxthresh_` 15, `q_weight_` 0.002, `linterm_` 10 (max_p = 0.1), `gentle_` true,
//! `mean_pktsize_` 500, `setbit_` false (drop; `ecn = true` marks). Deliberate deviation: the
//! averages and probabilities are `f64` (the queue lengths and times stay integers).

use super::{try_mark, QueueStats};
use crate::packet::{PacketPool, PacketRef};
use engine::{RngStream, SimTime};
use std::collections::VecDeque;

/// RED's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct RedConfig {
    /// Hard limit, packets.
    pub limit: u32,
    /// min_th, packets (ns-2 `thresh_` 5).
    pub min_th: f64,
    /// max_th, packets (ns-2 `maxthresh_` 15).
    pub max_th: f64,
    /// w_q (ns-2 `q_weight_` 0.002).
    pub w_q: f64,
    /// max_p (ns-2 1/`linterm_` = 0.1).
    pub max_p: f64,
    /// Gentle mode (ns-2 `gentle_` true).
    pub gentle: bool,
    /// Mark ECN-capable packets instead of dropping them (ns-2 `setbit_`, false).
    pub ecn: bool,
    /// Packet size for the idle-time decay, bytes (ns-2 `mean_pktsize_` 500).
    pub mean_pktsize: u32,
}

impl RedConfig {
    /// ns-2's defaults with a hard limit of `limit` packets.
    pub fn ns2(limit: u32) -> Self {
        RedConfig {
            limit,
            min_th: 5.0,
            max_th: 15.0,
            w_q: 0.002,
            max_p: 0.1,
            gentle: true,
            ecn: false,
            mean_pktsize: 500,
        }
    }
}

/// The average after one arrival that sees `q` packets (FJ93 Figure 2).
pub fn ewma(avg: f64, q: usize, w_q: f64) -> f64 {
    (1.0 - w_q) * avg + w_q * q as f64
}

/// The average after an idle period in which `m` packets could have been sent (FJ93: "m ← f(time
/// − q_time); avg ← (1 − w_q)^m avg").
pub fn idle_decay(avg: f64, m: u64, w_q: f64) -> f64 {
    avg * (1.0 - w_q).powf(m as f64)
}

/// The drop probability p_b at average `avg`; `None` above the region where every packet is
/// dropped (max_th, or 2·max_th when gentle).
pub fn p_b(avg: f64, c: &RedConfig) -> Option<f64> {
    if avg < c.min_th {
        Some(0.0)
    } else if avg < c.max_th {
        Some(c.max_p * (avg - c.min_th) / (c.max_th - c.min_th))
    } else if c.gentle && avg < 2.0 * c.max_th {
        Some(c.max_p + (1.0 - c.max_p) * (avg - c.max_th) / c.max_th)
    } else {
        None
    }
}

/// p_a = p_b / (1 − count·p_b), at most 1 (FJ93 Figure 2).
pub fn p_a(p_b: f64, count: u64) -> f64 {
    let d = 1.0 - count as f64 * p_b;
    if d <= p_b {
        1.0
    } else {
        (p_b / d).min(1.0)
    }
}

/// A RED queue.
pub struct Red {
    cfg: RedConfig,
    q: VecDeque<(PacketRef, SimTime)>,
    /// The average queue.
    pub avg: f64,
    /// Packets since the last drop in the early-drop region (-1 outside, FJ93).
    count: i64,
    /// When the queue went empty (q_time), if it is.
    idle_since: Option<SimTime>,
    /// Nanoseconds one `mean_pktsize` packet takes at the link rate.
    pkt_ns: u64,
    rng: RngStream,
}

impl Red {
    /// A queue for a link of `rate_bps`.
    pub fn new(cfg: RedConfig, rate_bps: u64, rng: RngStream) -> Self {
        let pkt_ns = (u64::from(cfg.mean_pktsize) * 8 * 1_000_000_000 / rate_bps.max(1)).max(1);
        Red {
            cfg,
            q: VecDeque::new(),
            avg: 0.0,
            count: -1,
            idle_since: Some(SimTime::ZERO),
            pkt_ns,
            rng,
        }
    }

    pub(super) fn enqueue(
        &mut self,
        now: SimTime,
        pkt: PacketRef,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> bool {
        self.avg = match self.idle_since {
            Some(t) if self.q.is_empty() => {
                idle_decay(self.avg, (now - t).as_nanos() / self.pkt_ns, self.cfg.w_q)
            }
            _ => ewma(self.avg, self.q.len(), self.cfg.w_q),
        };
        self.idle_since = None;
        let early = match p_b(self.avg, &self.cfg) {
            Some(pb) if pb > 0.0 => {
                self.count += 1;
                let pa = p_a(pb, self.count.max(0) as u64);
                self.rng.unit_open0() <= pa
            }
            Some(_) => {
                self.count = -1;
                false
            }
            None => true,
        };
        if early {
            self.count = 0;
            if try_mark(self.cfg.ecn, pkt, pool) {
                stats.early_marks += 1;
            } else {
                stats.early_drops += 1;
                return false;
            }
        }
        if self.q.len() >= self.cfg.limit as usize {
            stats.overflow_drops += 1;
            return false;
        }
        self.q.push_back((pkt, now));
        true
    }

    pub(super) fn enqueue_front(&mut self, now: SimTime, pkt: PacketRef) {
        self.q.push_front((pkt, now));
    }

    pub(super) fn dequeue(
        &mut self,
        now: SimTime,
        pool: &PacketPool,
        stats: &mut QueueStats,
    ) -> Option<PacketRef> {
        let (p, at) = self.q.pop_front()?;
        stats.record(now - at, !pool[p].is_udp());
        if self.q.is_empty() {
            self.idle_since = Some(now);
        }
        Some(p)
    }

    pub(super) fn len(&self) -> usize {
        self.q.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::account::Fate;
    use crate::packet::test_packet;

    #[test]
    fn the_average_and_the_probabilities_follow_floyd_jacobson() {
        let c = RedConfig::ns2(1000);
        // A queue of 10 packets seen by n arrivals from avg 0: avg = 10·(1 − (1 − w)^n).
        let mut avg = 0.0;
        for _ in 0..500 {
            avg = ewma(avg, 10, c.w_q);
        }
        let want = 10.0 * (1.0 - (1.0f64 - 0.002).powi(500));
        assert!((avg - want).abs() < 1e-9, "{avg} vs {want}");
        // Idle for m packet times: avg·(1 − w)^m.
        assert!((idle_decay(6.0, 100, 0.002) - 6.0 * 0.998f64.powi(100)).abs() < 1e-12);
        // p_b: 0 below min_th, linear to max_p at max_th, gentle to 1 at 2·max_th.
        assert_eq!(p_b(4.9, &c), Some(0.0));
        assert!((p_b(10.0, &c).unwrap() - 0.05).abs() < 1e-12);
        assert!((p_b(15.0, &c).unwrap() - 0.1).abs() < 1e-12);
        assert!((p_b(22.5, &c).unwrap() - 0.55).abs() < 1e-12);
        assert_eq!(p_b(30.0, &c), None);
        assert_eq!(
            p_b(
                15.0,
                &RedConfig {
                    gentle: false,
                    ..c.clone()
                }
            ),
            None
        );
        // p_a = p_b / (1 − count·p_b): 0.05 → 0.05, 0.0556 after 1, 1/9·… up to 1.
        assert!((p_a(0.05, 0) - 0.05).abs() < 1e-12);
        assert!((p_a(0.05, 1) - 0.05 / 0.95).abs() < 1e-12);
        assert!((p_a(0.05, 10) - 0.1).abs() < 1e-12);
        assert_eq!(p_a(0.05, 19), 1.0);
    }

    #[test]
    fn a_standing_queue_is_dropped_at_the_predicted_rate() {
        // Hold the queue at 10 packets (avg → 10, p_b = 0.05): with the count rule (count
        // incremented before p_a, reset to 0 by a drop: FJ93 Figure 2, ns-2 `REDQueue::enque`)
        // each gap between drops is 1..=1/p_b − 1 arrivals with equal probability p_b/(1 − p_b),
        // one drop per 1/(2·p_b) = 10 arrivals (FJ93 §7: "X uniform").
        let mut pool = PacketPool::default();
        let mut st = QueueStats::default();
        let mut red = Red::new(RedConfig::ns2(1000), 10_000_000, RngStream::new(1, "red"));
        red.avg = 10.0;
        let mut drops = 0u64;
        let n = 200_000u64;
        for i in 0..n {
            let t = SimTime(i * 1000);
            let r = pool.insert(test_packet(i, 1000));
            if red.enqueue(t, r, &mut pool, &mut st) {
                if red.len() > 10 {
                    let p = red.dequeue(t, &pool, &mut st).unwrap();
                    pool.release(p, Fate::QueueDrop);
                }
            } else {
                drops += 1;
                pool.release(r, Fate::QueueDrop);
            }
        }
        let per = n as f64 / drops as f64;
        assert!((per - 10.0).abs() < 0.3, "one drop per {per} arrivals");
        assert_eq!(st.early_drops, drops);
    }
}
