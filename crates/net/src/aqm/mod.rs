//! Active queue management: the queue disciplines a port can run instead of its plain
//! drop-tail FIFO (which stays in crate::port, today's hot path). Each discipline is a module
//! with its source:
//!
//! - [`red`]: Random Early Detection, Floyd and Jacobson 1993, with gentle mode (Floyd 2000),
//!   ns-2's defaults (`queue/red.cc`, `tcl/lib/ns-default.tcl`);
//! - [`codel`]: Controlled Delay, RFC 8289;
//! - [`fq_codel`]: flow queueing with CoDel per flow, RFC 8290.
//!
//! A discipline holds its packets itself, decides at enqueue (RED; FQ-CoDel's memory limit)
//! and at dequeue (CoDel), and marks ECN-capable packets (RFC 3168 §5: CE instead of a drop)
//! where it is configured to. Packets it drops leave the pool here and count in the port's
//! `queue_drops` (so the packet account is unchanged) and, by cause, in [`QueueStats`].

pub mod codel;
pub mod fq_codel;
pub mod red;

use crate::packet::{PacketPool, PacketRef};
use engine::{RngStream, SimDuration, SimTime};

/// A discipline's configuration (validated by the scenario builder).
#[derive(Clone, Debug, PartialEq)]
pub enum AqmConfig {
    /// RED (crate::aqm::red).
    Red(red::RedConfig),
    /// CoDel (crate::aqm::codel).
    Codel(codel::CodelConfig),
    /// FQ-CoDel (crate::aqm::fq_codel).
    FqCodel(fq_codel::FqCodelConfig),
}

/// Per-direction queue counters of a discipline (new fields beside `PortStats`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueStats {
    /// Packets dropped because the queue (or FQ-CoDel's memory) was full.
    pub overflow_drops: u64,
    /// Packets RED dropped early (probabilistically, or above its upper threshold).
    pub early_drops: u64,
    /// Packets CoDel's control law dropped at dequeue.
    pub codel_drops: u64,
    /// ECN-capable packets marked CE instead of an early drop (RED).
    pub early_marks: u64,
    /// ECN-capable packets marked CE instead of a CoDel drop.
    pub codel_marks: u64,
    /// Sojourn times of the packets dequeued (enqueue to dequeue).
    pub sojourn: Sojourn,
    /// Those of the TCP packets only (beside UDP background traffic).
    pub sojourn_tcp: Sojourn,
}

impl QueueStats {
    /// Record the sojourn `d` of a packet (`tcp`: a TCP segment).
    pub(crate) fn record(&mut self, d: SimDuration, tcp: bool) {
        self.sojourn.record(d);
        if tcp {
            self.sojourn_tcp.record(d);
        }
    }
}

impl Default for QueueStats {
    fn default() -> Self {
        QueueStats {
            overflow_drops: 0,
            early_drops: 0,
            codel_drops: 0,
            early_marks: 0,
            codel_marks: 0,
            sojourn: Sojourn::new(),
            sojourn_tcp: Sojourn::new(),
        }
    }
}

/// Sub-buckets per power of two of the sojourn histogram (a quantile within 1/16 = 6 %).
const SUB: u32 = 16;
/// Buckets: nanoseconds up to 2^40 (18 minutes).
const BUCKETS: usize = (41 * SUB) as usize;

/// A histogram of sojourn times on a log scale (integers; exact count, sum and maximum).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sojourn {
    /// Samples.
    pub count: u64,
    /// Their sum, ns.
    pub sum_ns: u64,
    /// The largest, ns.
    pub max_ns: u64,
    buckets: Vec<u64>,
}

impl Sojourn {
    fn new() -> Self {
        Sojourn {
            count: 0,
            sum_ns: 0,
            max_ns: 0,
            buckets: vec![0; BUCKETS],
        }
    }

    /// The bucket of `ns`: 16 per power of two above 16 ns, exact below.
    fn bucket(ns: u64) -> usize {
        if ns < u64::from(SUB) {
            return ns as usize;
        }
        let e = 63 - ns.leading_zeros(); // 2^e <= ns
        let frac = ((ns >> (e - 4)) & u64::from(SUB - 1)) as u32;
        (((e - 3) * SUB + frac) as usize).min(BUCKETS - 1)
    }

    /// The smallest value of bucket `b`.
    fn floor(b: usize) -> u64 {
        let b = b as u32;
        if b < SUB {
            return u64::from(b);
        }
        let e = b / SUB + 3;
        let frac = u64::from(b % SUB);
        (1u64 << e) + (frac << (e - 4))
    }

    /// Record one sample.
    pub fn record(&mut self, d: SimDuration) {
        let ns = d.as_nanos();
        self.count += 1;
        self.sum_ns = self.sum_ns.saturating_add(ns);
        self.max_ns = self.max_ns.max(ns);
        self.buckets[Self::bucket(ns)] += 1;
    }

    /// Mean, ns (0 without samples).
    pub fn mean_ns(&self) -> u64 {
        self.sum_ns.checked_div(self.count).unwrap_or(0)
    }

    /// The `q`-quantile (0 < q <= 1, in per mille), ns: the lower edge of the bucket holding
    /// it (within 6 % below the sample), the maximum for the top one.
    pub fn quantile_ns(&self, per_mille: u64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = (self.count * per_mille).div_ceil(1000).max(1);
        if rank >= self.count {
            return self.max_ns;
        }
        let mut seen = 0;
        for (b, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Self::floor(b).min(self.max_ns);
            }
        }
        self.max_ns
    }
}

/// A discipline with its state.
pub enum Aqm {
    /// RED.
    Red(red::Red),
    /// CoDel.
    Codel(codel::Codel),
    /// FQ-CoDel.
    FqCodel(Box<fq_codel::FqCodel>),
}

impl Aqm {
    /// The discipline `cfg` for a port sending at `rate_bps`, drawing from `rng`.
    pub fn new(cfg: &AqmConfig, rate_bps: u64, rng: RngStream) -> Self {
        match cfg {
            AqmConfig::Red(c) => Aqm::Red(red::Red::new(c.clone(), rate_bps, rng)),
            AqmConfig::Codel(c) => Aqm::Codel(codel::Codel::new(c.clone())),
            AqmConfig::FqCodel(c) => Aqm::FqCodel(Box::new(fq_codel::FqCodel::new(c.clone(), rng))),
        }
    }

    /// Offer `pkt` at `now`: `false` if it was dropped (left in `pool` for the caller, as the
    /// drop-tail queue does); a discipline that drops another packet instead releases it.
    pub(crate) fn enqueue(
        &mut self,
        now: SimTime,
        pkt: PacketRef,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> bool {
        match self {
            Aqm::Red(q) => q.enqueue(now, pkt, pool, stats),
            Aqm::Codel(q) => q.enqueue(now, pkt, pool, stats),
            Aqm::FqCodel(q) => q.enqueue(now, pkt, pool, stats),
        }
    }

    /// Put `pkt` at the head (a base-station agent's local retransmission), past any limit.
    pub(crate) fn enqueue_front(&mut self, now: SimTime, pkt: PacketRef, pool: &PacketPool) {
        match self {
            Aqm::Red(q) => q.enqueue_front(now, pkt),
            Aqm::Codel(q) => q.enqueue_front(now, pkt, pool),
            Aqm::FqCodel(q) => q.enqueue_front(now, pkt, pool),
        }
    }

    /// The next packet to send at `now`; packets the discipline drops on the way leave `pool`
    /// (their number is returned beside it, for the port's `queue_drops`).
    pub(crate) fn dequeue(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> (Option<PacketRef>, u64) {
        match self {
            Aqm::Red(q) => (q.dequeue(now, pool, stats), 0),
            Aqm::Codel(q) => q.dequeue(now, pool, stats),
            Aqm::FqCodel(q) => q.dequeue(now, pool, stats),
        }
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        match self {
            Aqm::Red(q) => q.len(),
            Aqm::Codel(q) => q.len(),
            Aqm::FqCodel(q) => q.len(),
        }
    }

    /// Whether no packet is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Mark `pkt` CE if it is ECN-capable (RFC 3168 §5) and the discipline marks: whether it was
/// marked (otherwise the caller drops it).
pub(crate) fn try_mark(ecn: bool, pkt: PacketRef, pool: &mut PacketPool) -> bool {
    if !ecn || !pool[pkt].seg.opts.ecn.ect {
        return false;
    }
    pool.update(pkt, |p| p.seg.opts.ecn.ce = true);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_finds_quantiles_within_its_resolution() {
        let mut s = Sojourn::new();
        for ms in 1..=100u64 {
            s.record(SimDuration::from_millis(ms));
        }
        assert_eq!(s.mean_ns(), 50_500_000);
        let p95 = s.quantile_ns(950);
        assert!((89_000_000..=95_000_000).contains(&p95), "{p95}");
        assert_eq!(s.quantile_ns(1000), 100_000_000);
        for ns in [0u64, 5, 15, 16, 17, 1000, 123_456_789] {
            let b = Sojourn::bucket(ns);
            assert!(
                Sojourn::floor(b) <= ns && ns - Sojourn::floor(b) <= ns / 16,
                "{ns}"
            );
        }
    }
}
