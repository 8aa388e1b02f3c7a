//! FQ-CoDel, RFC 8290 (Hoeiland-Joergensen, McKenney, Taht, Gettys, Dumazet 2018): packets are
//! hashed by their flow (§4.1.1: addresses, ports and protocol; here source, destination, flow
//! and protocol, which the model maps one-to-one onto them) into `flows` queues, each with its
//! own CoDel state (§4.2, crate::aqm::codel); a deficit round robin with `quantum` bytes serves
//! the queues (§4.2), new flows (a queue that was empty) before old ones, and a new flow that
//! empties moves to the old list before it leaves (§4.2, against starvation). When the packets
//! or the bytes held exceed `limit` or `memory_limit`, the head of the queue with the largest
//! backlog is dropped (§4.1, "drops ... from the head of the queue with the largest backlog").
//!
//! Defaults are Linux's (`sch_fq_codel.c` `fq_codel_init`): 1024 flows, quantum 1514 bytes,
//! limit 10240 packets, memory_limit 32 MiB, target 5 ms, interval 100 ms, ECN on. Deliberate
//! deviations: one packet dropped per overflow (Linux drops up to half the fat queue, at most
//! 64 packets, per `fq_codel_drop` batch); the hash is FNV-1a over the tuple with a
//! perturbation drawn from the port's stream (Linux: jhash with a random seed); no hash
//! collisions are resolved (as Linux, flows sharing a bucket share a queue).

use super::codel::{CodelConfig, CodelVars};
use super::QueueStats;
use crate::account::Fate;
use crate::packet::{PacketPool, PacketRef};
use engine::{RngStream, SimTime};
use std::collections::VecDeque;

/// FQ-CoDel's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FqCodelConfig {
    /// Flow queues (1024).
    pub flows: u32,
    /// DRR quantum, bytes (1514).
    pub quantum: u32,
    /// Packets held at most (10240).
    pub limit: u32,
    /// Bytes held at most (32 MiB).
    pub memory_limit: u64,
    /// Per-flow CoDel (target 5 ms, interval 100 ms; `ecn` true as Linux fq_codel).
    pub codel: CodelConfig,
}

impl Default for FqCodelConfig {
    fn default() -> Self {
        FqCodelConfig {
            flows: 1024,
            quantum: 1514,
            limit: 10240,
            memory_limit: 32 << 20,
            codel: CodelConfig {
                ecn: true,
                limit: 10240,
                ..CodelConfig::default()
            },
        }
    }
}

/// Which list a flow queue is on (RFC 8290 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    /// Empty and on no list.
    Idle,
    /// On the new-flows list.
    New,
    /// On the old-flows list.
    Old,
}

/// One flow queue.
struct FlowQueue {
    q: VecDeque<(PacketRef, SimTime)>,
    /// Bytes queued.
    backlog: u64,
    deficit: i64,
    list: List,
    codel: CodelVars,
}

/// An FQ-CoDel queue.
pub struct FqCodel {
    cfg: FqCodelConfig,
    queues: Vec<FlowQueue>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    packets: usize,
    bytes: u64,
    perturbation: u64,
}

impl FqCodel {
    /// An empty queue; the hash perturbation from `rng`.
    pub fn new(cfg: FqCodelConfig, mut rng: RngStream) -> Self {
        let n = cfg.flows.max(1) as usize;
        FqCodel {
            queues: (0..n)
                .map(|_| FlowQueue {
                    q: VecDeque::new(),
                    backlog: 0,
                    deficit: 0,
                    list: List::Idle,
                    codel: CodelVars::default(),
                })
                .collect(),
            cfg,
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            packets: 0,
            bytes: 0,
            perturbation: rng.next_u64(),
        }
    }

    /// The queue of `pkt` (RFC 8290 §4.1.1).
    fn classify(&self, pkt: PacketRef, pool: &PacketPool) -> usize {
        let p = &pool[pkt];
        let h = tuple_hash(self.perturbation, [p.src.0, p.dst.0, p.flow.0], p.is_udp());
        // The remainder, by a mask when the count is a power of two (Linux's 1024): no division.
        let n = self.queues.len() as u64;
        let i = if n.is_power_of_two() {
            h & (n - 1)
        } else {
            h % n
        };
        i as usize
    }

    fn push(&mut self, i: usize, at_front: bool, now: SimTime, pkt: PacketRef, pool: &PacketPool) {
        let len = u64::from(pool.ip_len(pkt));
        let f = &mut self.queues[i];
        if at_front {
            f.q.push_front((pkt, now));
        } else {
            f.q.push_back((pkt, now));
        }
        f.backlog += len;
        self.packets += 1;
        self.bytes += len;
        if f.list == List::Idle {
            f.list = List::New;
            f.deficit = i64::from(self.cfg.quantum);
            self.new_flows.push_back(i);
        }
    }

    pub(super) fn enqueue(
        &mut self,
        now: SimTime,
        pkt: PacketRef,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> bool {
        let i = self.classify(pkt, pool);
        self.push(i, false, now, pkt, pool);
        let mut kept = true;
        while self.packets > self.cfg.limit as usize || self.bytes > self.cfg.memory_limit {
            // §4.1: drop from the head of the fattest queue.
            let Some(fat) = (0..self.queues.len()).max_by_key(|&k| (self.queues[k].backlog, k))
            else {
                break;
            };
            let Some((victim, _)) = self.queues[fat].q.pop_front() else {
                break;
            };
            let len = u64::from(pool.ip_len(victim));
            self.queues[fat].backlog -= len;
            self.packets -= 1;
            self.bytes -= len;
            stats.overflow_drops += 1;
            if victim == pkt {
                kept = false;
            } else {
                pool.release(victim, Fate::QueueDrop);
            }
        }
        kept
    }

    pub(super) fn enqueue_front(&mut self, now: SimTime, pkt: PacketRef, pool: &PacketPool) {
        let i = self.classify(pkt, pool);
        self.push(i, true, now, pkt, pool);
    }

    pub(super) fn dequeue(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> (Option<PacketRef>, u64) {
        let before = stats.codel_drops;
        loop {
            let (i, new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return (None, stats.codel_drops - before),
            };
            let quantum = i64::from(self.cfg.quantum);
            if self.queues[i].deficit <= 0 {
                self.queues[i].deficit += quantum;
                self.pop_list(new);
                self.queues[i].list = List::Old;
                self.old_flows.push_back(i);
                continue;
            }
            let FqCodel {
                queues,
                packets,
                bytes,
                cfg,
                ..
            } = self;
            let f = &mut queues[i];
            let (q, backlog) = (&mut f.q, &mut f.backlog);
            let p = f.codel.dequeue(now, &cfg.codel, pool, stats, |pool| {
                let h = q.pop_front();
                if let Some((r, _)) = h {
                    let len = u64::from(pool.ip_len(r));
                    *backlog -= len;
                    *packets -= 1;
                    *bytes -= len;
                }
                // Linux passes the whole qdisc's backlog to codel_dequeue.
                (h, *bytes)
            });
            match p {
                Some(p) => {
                    f.deficit -= i64::from(pool.ip_len(p));
                    return (Some(p), stats.codel_drops - before);
                }
                None => {
                    self.pop_list(new);
                    if new {
                        // §4.2: an emptied new flow goes to the old list first.
                        self.queues[i].list = List::Old;
                        self.old_flows.push_back(i);
                    } else {
                        self.queues[i].list = List::Idle;
                    }
                }
            }
        }
    }

    fn pop_list(&mut self, new: bool) {
        if new {
            self.new_flows.pop_front();
        } else {
            self.old_flows.pop_front();
        }
    }

    pub(super) fn len(&self) -> usize {
        self.packets
    }
}

/// FNV-1a's offset basis and prime (64-bit).
const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a, from `FNV_BASIS ^ perturbation`, over the little-endian bytes of `ids` and of
/// `udp`, each widened to eight bytes. A zero byte leaves the hash as it is before its
/// multiplication, so each widened id's four zero bytes are one multiplication by the prime's
/// fourth power, and the flag's byte and seven zeros one by its eighth: 16 dependent
/// multiplications instead of 32, the same value (a test holds it to the byte-wise definition).
fn tuple_hash(perturbation: u64, ids: [u32; 3], udp: bool) -> u64 {
    const P4: u64 = FNV_PRIME
        .wrapping_mul(FNV_PRIME)
        .wrapping_mul(FNV_PRIME)
        .wrapping_mul(FNV_PRIME);
    const P8: u64 = P4.wrapping_mul(P4);
    let mut h = FNV_BASIS ^ perturbation;
    for v in ids {
        for b in v.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
        h = h.wrapping_mul(P4);
    }
    (h ^ u64::from(udp)).wrapping_mul(P8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::test_packet;
    use engine::FlowId;

    #[test]
    fn drr_shares_the_link_between_a_fat_and_a_thin_flow_and_overflow_hits_the_fat_one() {
        let mut pool = PacketPool::default();
        let mut st = QueueStats::default();
        let cfg = FqCodelConfig {
            limit: 100,
            ..FqCodelConfig::default()
        };
        let mut q = FqCodel::new(cfg, RngStream::new(1, "fq"));
        // Flow 0 floods 200 packets at t = 0; flow 1 sends 10.
        for k in 0..200 {
            let r = pool.insert(test_packet(k, 1460));
            if !q.enqueue(SimTime::ZERO, r, &mut pool, &mut st) {
                pool.release(r, Fate::QueueDrop);
            }
        }
        for k in 0..10 {
            let mut p = test_packet(1000 + k, 1460);
            p.flow = FlowId(1);
            let r = pool.insert(p);
            assert!(
                q.enqueue(SimTime::ZERO, r, &mut pool, &mut st),
                "the thin flow is kept"
            );
        }
        assert_eq!(q.len(), 100);
        assert_eq!(st.overflow_drops, 110, "all from the fat flow");
        // Served alternately, one quantum (one packet) each: the thin flow's 10 within 21.
        let mut order = Vec::new();
        while let (Some(p), _) = q.dequeue(SimTime(1000), &mut pool, &mut st) {
            order.push(pool[p].flow.0);
            pool.release(p, Fate::QueueDrop);
        }
        assert_eq!(order.len(), 100);
        let last_thin = order.iter().rposition(|&f| f == 1).unwrap();
        assert!(last_thin <= 21, "{order:?}");
    }

    /// The folded hash is FNV-1a over the tuple's bytes, each field widened to eight.
    #[test]
    fn the_tuple_hash_is_fnv_1a_over_the_widened_fields() {
        let bytewise = |perturbation: u64, fields: [u64; 4]| {
            let mut h = FNV_BASIS ^ perturbation;
            for v in fields {
                for b in v.to_le_bytes() {
                    h ^= u64::from(b);
                    h = h.wrapping_mul(FNV_PRIME);
                }
            }
            h
        };
        let mut rng = RngStream::new(7, "tuple");
        for _ in 0..1000 {
            let pert = rng.next_u64();
            let ids = [
                rng.next_u64() as u32,
                rng.next_u64() as u32,
                rng.next_u64() as u32,
            ];
            let udp = rng.next_u64() & 1 == 1;
            let fields = [
                u64::from(ids[0]),
                u64::from(ids[1]),
                u64::from(ids[2]),
                u64::from(udp),
            ];
            assert_eq!(tuple_hash(pert, ids, udp), bytewise(pert, fields));
        }
        assert_eq!(tuple_hash(0, [0; 3], false), bytewise(0, [0; 4]));
    }
}
