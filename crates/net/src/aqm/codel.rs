//! CoDel, RFC 8289 (Nichols, Jacobson, McGregor, Iyengar 2018): a FIFO that watches each
//! packet's sojourn time at dequeue. Once the sojourn time has stayed at or above `target` for
//! `interval` (and more than one MTU is queued), CoDel enters its dropping state: it drops the
//! head packet, then the next ones at `interval / sqrt(count)` after the previous drop
//! (the control law, §5.5), until the sojourn time falls below `target`. On re-entering soon
//! after leaving (within 16 intervals), `count` resumes from its last increase (§5.6). With ECN,
//! an ECN-capable packet is marked CE instead of dropped (§5.5; Linux `codel_dequeue`).
//!
//! Defaults (RFC 8289 §4.4, Linux `codel_params_init`): target 5 ms, interval 100 ms, MTU
//! (maxpacket) 1514 bytes, limit 1000 packets (Linux `sch_codel` default). The square root is
//! computed on integers.

use super::{try_mark, QueueStats};
use crate::account::Fate;
use crate::packet::{PacketPool, PacketRef};
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// CoDel's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodelConfig {
    /// Acceptable standing queue delay (5 ms).
    pub target: SimDuration,
    /// Sliding window over which the minimum sojourn is judged (100 ms).
    pub interval: SimDuration,
    /// Hard limit, packets (1000).
    pub limit: u32,
    /// Mark ECN-capable packets CE instead of dropping (false; Linux codel `ecn` off).
    pub ecn: bool,
    /// Bytes below which the queue is never judged (one MTU, 1514).
    pub mtu: u32,
}

impl Default for CodelConfig {
    fn default() -> Self {
        CodelConfig {
            target: SimDuration::from_millis(5),
            interval: SimDuration::from_millis(100),
            limit: 1000,
            ecn: false,
            mtu: 1514,
        }
    }
}

/// floor(sqrt(n)).
fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// The control law (RFC 8289 §5.5): `t + interval / sqrt(count)`, in integer nanoseconds.
pub fn control_law(t: SimTime, interval: SimDuration, count: u32) -> SimTime {
    let c = u128::from(count.max(1));
    // interval / sqrt(c) = interval·2^32 / sqrt(c·2^64).
    let d = (u128::from(interval.as_nanos()) << 32) / isqrt(c << 64);
    t + SimDuration(d as u64)
}

/// CoDel's state of one queue (RFC 8289 §5 variables), shared with FQ-CoDel's flows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodelVars {
    /// When the sojourn time first stayed above target (+ interval), if it does.
    first_above: Option<SimTime>,
    /// When the next drop is due while dropping.
    drop_next: SimTime,
    /// Drops since entering the dropping state.
    pub count: u32,
    /// `count` when the dropping state was last left.
    last_count: u32,
    /// In the dropping state.
    pub dropping: bool,
}

/// What a dequeue from the queue under CoDel yields.
pub(crate) struct Head {
    pub pkt: PacketRef,
    pub ok_to_drop: bool,
}

impl CodelVars {
    /// RFC 8289 `dodequeue`: judge the head `(pkt, enqueued)` popped at `now` with `backlog`
    /// bytes left behind it.
    fn judge(
        &mut self,
        now: SimTime,
        head: Option<(PacketRef, SimTime)>,
        (backlog, pool): (u64, &PacketPool),
        c: &CodelConfig,
        stats: &mut QueueStats,
    ) -> Option<Head> {
        let Some((pkt, at)) = head else {
            self.first_above = None;
            return None;
        };
        let sojourn = now - at;
        stats.record(sojourn, !pool[pkt].is_udp());
        let mut ok_to_drop = false;
        if sojourn < c.target || backlog <= u64::from(c.mtu) {
            self.first_above = None;
        } else {
            match self.first_above {
                None => self.first_above = Some(now + c.interval),
                Some(t) if now >= t => ok_to_drop = true,
                Some(_) => {}
            }
        }
        Some(Head { pkt, ok_to_drop })
    }

    /// RFC 8289 `dequeue`: the next packet to send from `pop` (which pops the head with its
    /// enqueue time and the bytes left), dropping (or marking) on the way. Dropped packets
    /// leave `pool`.
    pub(crate) fn dequeue(
        &mut self,
        now: SimTime,
        c: &CodelConfig,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
        mut pop: impl FnMut(&PacketPool) -> (Option<(PacketRef, SimTime)>, u64),
    ) -> Option<PacketRef> {
        let (h, b) = pop(pool);
        let mut r = self.judge(now, h, (b, pool), c, stats);
        let Some(head) = r.as_ref() else {
            self.dropping = false;
            return None;
        };
        if self.dropping {
            if !head.ok_to_drop {
                self.dropping = false;
            }
            while self.dropping && now >= self.drop_next {
                let h = r.as_ref()?;
                self.count += 1;
                if try_mark(c.ecn, h.pkt, pool) {
                    stats.codel_marks += 1;
                    self.drop_next = control_law(self.drop_next, c.interval, self.count);
                    return Some(h.pkt);
                }
                pool.release(h.pkt, Fate::QueueDrop);
                stats.codel_drops += 1;
                let (h, b) = pop(pool);
                r = self.judge(now, h, (b, pool), c, stats);
                match r.as_ref() {
                    Some(h) if h.ok_to_drop => {
                        self.drop_next = control_law(self.drop_next, c.interval, self.count)
                    }
                    _ => self.dropping = false,
                }
            }
        } else if head.ok_to_drop {
            let marked = try_mark(c.ecn, head.pkt, pool);
            if marked {
                stats.codel_marks += 1;
            } else {
                pool.release(head.pkt, Fate::QueueDrop);
                stats.codel_drops += 1;
                let (h, b) = pop(pool);
                r = self.judge(now, h, (b, pool), c, stats);
            }
            self.dropping = true;
            // §5.6: resume near the last drop rate if the last episode ended recently.
            let delta = self.count.saturating_sub(self.last_count);
            self.count = if delta > 1
                && now.saturating_since(self.drop_next).as_nanos() < c.interval.as_nanos() * 16
            {
                delta
            } else {
                1
            };
            self.drop_next = control_law(now, c.interval, self.count);
            self.last_count = self.count;
        }
        r.map(|h| h.pkt)
    }
}

/// A CoDel FIFO.
pub struct Codel {
    cfg: CodelConfig,
    q: VecDeque<(PacketRef, SimTime)>,
    /// Bytes queued.
    backlog: u64,
    /// The control state.
    pub vars: CodelVars,
}

impl Codel {
    /// An empty queue.
    pub fn new(cfg: CodelConfig) -> Self {
        Codel {
            cfg,
            q: VecDeque::new(),
            backlog: 0,
            vars: CodelVars::default(),
        }
    }

    pub(super) fn enqueue(
        &mut self,
        now: SimTime,
        pkt: PacketRef,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> bool {
        if self.q.len() >= self.cfg.limit as usize {
            stats.overflow_drops += 1;
            return false;
        }
        self.backlog += u64::from(pool.ip_len(pkt));
        self.q.push_back((pkt, now));
        true
    }

    pub(super) fn enqueue_front(&mut self, now: SimTime, pkt: PacketRef, pool: &PacketPool) {
        self.backlog += u64::from(pool.ip_len(pkt));
        self.q.push_front((pkt, now));
    }

    pub(super) fn dequeue(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        stats: &mut QueueStats,
    ) -> (Option<PacketRef>, u64) {
        let before = stats.codel_drops;
        let (q, backlog) = (&mut self.q, &mut self.backlog);
        let p = self.vars.dequeue(now, &self.cfg, pool, stats, |pool| {
            let h = q.pop_front();
            if let Some((r, _)) = h {
                *backlog -= u64::from(pool.ip_len(r));
            }
            (h, *backlog)
        });
        (p, stats.codel_drops - before)
    }

    pub(super) fn len(&self) -> usize {
        self.q.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::test_packet;

    #[test]
    fn the_control_law_spaces_drops_by_interval_over_sqrt_count() {
        let i = SimDuration::from_millis(100);
        assert_eq!(control_law(SimTime::ZERO, i, 1), SimTime(100_000_000));
        assert_eq!(control_law(SimTime::ZERO, i, 4), SimTime(50_000_000));
        // 100 ms / sqrt(2) = 70.710678 ms.
        assert_eq!(control_law(SimTime::ZERO, i, 2).0 / 1000, 70_710);
        assert_eq!(isqrt(99), 9);
        assert_eq!(isqrt(100), 10);
    }

    /// Packet script (explicit times): a link that takes one 1000-byte packet every 1 ms while
    /// two arrive every 1 ms from t = 0, so the sojourn time grows by 0.5 ms per ms. The sojourn
    /// reaches target (5 ms) at 9 ms; first_above = 9 + 100 ms; the first drop comes at the
    /// dequeue at 109 ms, count 1; the k-th drop after it at interval/√k after the previous one
    /// (RFC 8289 §5.5): 209, 279.7, 337.4, 387.4 ms (at the next whole-ms dequeue).
    #[test]
    fn first_drop_after_an_interval_above_target_then_at_interval_over_sqrt_count() {
        let mut pool = PacketPool::default();
        let mut st = QueueStats::default();
        let mut q = Codel::new(CodelConfig::default());
        let mut drops = Vec::new();
        let mut uid = 0;
        for ms in 0..400u64 {
            let now = SimTime(ms * 1_000_000);
            for _ in 0..2 {
                let r = pool.insert(test_packet(uid, 1000 - 40));
                uid += 1;
                assert!(q.enqueue(now, r, &mut pool, &mut st));
            }
            let before = st.codel_drops;
            let (p, n) = q.dequeue(now, &mut pool, &mut st);
            assert_eq!(n, st.codel_drops - before);
            for _ in 0..n {
                drops.push(ms);
            }
            if let Some(p) = p {
                pool.release(p, Fate::QueueDrop);
            }
        }
        // Sojourn at the dequeue at t ms is t − ⌊t/2⌋ ms (the head entered at ⌊t/2⌋): not below
        // target from 9 ms (9 − 4 = 5) → first_above = 109 ms, the first drop.
        assert_eq!(drops[0], 109);
        let mut want = vec![109u64];
        let mut next = 109_000_000u64;
        for count in 1..=6u32 {
            next = control_law(SimTime(next), SimDuration::from_millis(100), count).0;
            want.push(next.div_ceil(1_000_000));
        }
        want.retain(|&t| t < 400);
        assert_eq!(drops, want, "drops at {drops:?}");
        assert_eq!(want, [109, 209, 280, 338, 388]);
        assert_eq!(st.codel_drops, 5);
    }
}
