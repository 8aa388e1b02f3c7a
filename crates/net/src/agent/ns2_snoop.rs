//! ns-2's snoop (`LL/LLSnoop` and `Snoop`, ns-2.35 `tcp/snoop.cc`, `tcp/snoop.h`, defaults in
//! `tcl/lan/ns-ll.tcl`): the snoop the LL-ELSN study ran (`ll.snoop_style = "ns2"`). Read from
//! the source, not copied; line numbers are ns-2.35's.
//!
//! Where it differs from [`super::ll::LinkLayer`] in snoop mode (Balakrishnan97's reading):
//!
//! - **Local resends go to the tail of the interface queue** (`snoop_rxmit` hands the copy to
//!   `LLSnoop::sendDown`, snoop.cc:716-748, whose own comment reads "Ideally, would like to
//!   schedule snoop retransmissions at higher priority"): a resend waits behind every frame
//!   already queued, and a full queue drops it ([`Agent::local_at_tail`]).
//! - **The link round trip starts when the segment enters the link layer** (`savepkt_` stamps
//!   `sndTime` at the clock of arrival, snoop.cc:391-400; a resend restamps it, :733), so the
//!   estimate includes the time in the interface queue. One sample per new ACK, from the
//!   `sndTime` of the highest segment it frees (`snoop_cleanbufs_`, :610-652), resent or not
//!   (no Karn rule).
//! - **Estimator**: `srtt = g·srtt + (1 − g)·rtt`, `rttvar = g·|rtt − srtt| + (1 − g)·rttvar`
//!   with `g_ = 0.125` (snoop.cc:657-677: the gain weights the *old* value by 1/8), starting
//!   from `srtt_ = 0.1 s`, `rttvar_ = 0.25 s` (ns-ll.tcl:82-84). The timeout is
//!   `max(srtt + 4·rttvar, snoopTick_)` with `snoopTick_ = 0.1 s` (snoop.h:143-145, ns-ll.tcl:68,
//!   85; `SNOOP_MIN_TIMO` 0.1 s, snoop.h:61), on a continuous clock, restarted when a segment is
//!   cached and none is pending (:289-292), at every new ACK (:644-649) and at every resend
//!   (:741-746); it resends the lowest cached segment if the receiver is waiting for it
//!   (:756-771).
//! - **Duplicate ACKs** (`snoop_ack`, :407-507): the first duplicate of a loss is forwarded to
//!   the sender; the second resends locally (`RTX_THRESH` 1, :453-460) and sets the number of
//!   duplicates to absorb to the cached segments minus two (:475-479, counting segments still
//!   in the queue); those are absorbed, later ones forwarded; a duplicate for a segment the
//!   sender itself resent, or that is not cached, is forwarded. `SNOOP_MAX_RXMIT` 10 resends
//!   per segment (snoop.h:62).
//! - **Caching only while the interface queue holds fewer than its limit minus one**
//!   (snoop.cc:282: "otherwise we want congestion control to kick in"), and at most
//!   `SNOOP_MAXWIND` 100 segments (snoop.h:59; a full cache forwards without caching, :271-276).
//!
//! Deliberate deviations: ns-2's dupack counter `thresh` is a `static` shared by every snoop
//! object of the process (snoop.cc:455); here it is shared by the connections of one agent (the
//! study has one snoop node). The wireless-to-wired half (`snoop_wless_data`, ELN marking of
//! the sender's own losses) is not part of the downlink and is left out.

use super::{slot, Agent, AgentStats, QueueFill, Reaction, Verdict};
use crate::packet::Packet;
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;
use tcp::SeqNum;

/// `snoopTick_` (ns-ll.tcl:68, 85): the smallest timeout.
pub const SNOOP_TICK: SimDuration = SimDuration::from_millis(100);
/// `SNOOP_MAX_RXMIT` (snoop.h:62).
pub const MAX_RXMIT: u32 = 10;
/// `SNOOP_MAXWIND` (snoop.h:59): cache slots.
pub const MAX_WIND: usize = 100;
/// `Snoop set srtt_ 0.1` (ns-ll.tcl:82).
const SRTT_INIT: u64 = 100_000_000;
/// `Snoop set rttvar_ 0.25` (ns-ll.tcl:83).
const RTTVAR_INIT: u64 = 250_000_000;

#[derive(Clone, Copy, Debug)]
struct Entry {
    pkt: Packet,
    end: SeqNum,
    /// `sndTime`: entry into the link layer, or the last local resend.
    snd_time: SimTime,
    num_rxmit: u32,
    sender_rxmit: bool,
}

#[derive(Clone, Debug)]
struct Conn {
    /// The cache, lowest sequence first (`buftail_` .. `bufhead_`).
    cache: VecDeque<Entry>,
    /// `lastAck_`: the cumulative ACK last seen (None: no ACK yet).
    last_ack: Option<SeqNum>,
    /// `lastSeen_`: the highest segment start seen.
    last_seen: Option<SeqNum>,
    /// `expDupacks_`.
    exp_dupacks: i64,
    /// `expNextAck_` as an offset from the tail (0 or 1).
    exp_next_off: i64,
    /// The pending timeout (`toutPending_`).
    tout: Option<SimTime>,
    srtt: u64,
    rttvar: u64,
}

impl Default for Conn {
    fn default() -> Self {
        Conn {
            cache: VecDeque::new(),
            last_ack: None,
            last_seen: None,
            exp_dupacks: 0,
            exp_next_off: 0,
            tout: None,
            srtt: SRTT_INIT,
            rttvar: RTTVAR_INIT,
        }
    }
}

impl Conn {
    /// `timeout()` (snoop.h:143-145).
    fn timeout(&self) -> SimDuration {
        SimDuration(self.srtt + 4 * self.rttvar).max(SNOOP_TICK)
    }

    /// `snoop_rtt` (snoop.cc:657-677), g = 1/8 weighting the old value.
    fn sample(&mut self, rtt: u64) {
        if rtt == 0 {
            return;
        }
        self.srtt = (self.srtt + 7 * rtt) / 8;
        let delta = rtt.abs_diff(self.srtt);
        self.rttvar = if self.rttvar != 0 {
            (delta + 7 * self.rttvar) / 8
        } else {
            delta
        };
    }

    /// `snoop_insert` (snoop.cc:305-388): whether the timer must restart (`SNOOP_TAIL`).
    fn insert(&mut self, now: SimTime, pkt: Packet) -> bool {
        let seq = pkt.seg.seq;
        let end = seq.plus(pkt.seg.len);
        if self.last_ack.is_some_and(|a| end.le(a)) {
            return false;
        }
        let fresh = Entry {
            pkt,
            end,
            snd_time: now,
            num_rxmit: 0,
            sender_rxmit: false,
        };
        let in_seq = self.last_seen.is_none_or(|l| l.lt(seq));
        let at = if in_seq || self.cache.is_empty() {
            self.cache.len()
        } else if seq.lt(self.cache[0].pkt.seg.seq) {
            0
        } else if let Some(i) = self.cache.iter().position(|e| e.pkt.seg.seq == seq) {
            // Cached before: a sender retransmission (:334-339).
            let e = &mut self.cache[i];
            e.num_rxmit = 0;
            e.sender_rxmit = true;
            e.snd_time = now;
            e.pkt = pkt;
            return true;
        } else {
            self.cache
                .iter()
                .position(|e| seq.lt(e.pkt.seg.seq))
                .unwrap_or(self.cache.len())
        };
        self.cache.insert(at, fresh);
        if self.last_seen.is_some_and(|l| seq.lt(l)) {
            // Out of order or a sender retransmission not cached before (:376-383).
            if at == 0 {
                self.cache[0].sender_rxmit = true;
            }
            self.exp_next_off = 0;
            true
        } else {
            self.last_seen = Some(seq);
            false
        }
    }
}

/// ns-2's snoop agent of one node.
#[derive(Clone, Debug, Default)]
pub struct Ns2Snoop {
    conns: Vec<Conn>,
    /// ns-2's `static int thresh` (snoop.cc:455).
    thresh: u32,
    stats: AgentStats,
}

impl Ns2Snoop {
    /// A new agent with ns-2's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// `snoop_rxmit` (snoop.cc:716-748): a copy of the tail segment for the interface queue's
    /// tail, or `None` past `SNOOP_MAX_RXMIT` (then the timer is left alone).
    fn rxmit(c: &mut Conn, now: SimTime) -> Option<Packet> {
        let e = c.cache.front_mut()?;
        if e.num_rxmit >= MAX_RXMIT {
            return None;
        }
        e.snd_time = now;
        e.num_rxmit += 1;
        let p = e.pkt;
        c.tout = Some(now + c.timeout());
        Some(p)
    }

    fn dupack(&mut self, now: SimTime, pkt: Packet) -> Reaction {
        let mut r = Reaction::forward(pkt);
        let c = slot(&mut self.conns, pkt.flow);
        let Some(tail) = c.cache.front().copied() else {
            self.stats.dupacks_forwarded_uncached += 1;
            return r;
        };
        if tail.pkt.seg.seq != pkt.seg.ack {
            // Not cached (lost before the snoop node): the sender's business (:440-442).
            self.stats.dupacks_forwarded_uncached += 1;
            return r;
        }
        match c.exp_dupacks {
            0 => {
                // RTX_THRESH 1: the first duplicate goes on (:453-460).
                let t = self.thresh;
                self.thresh += 1;
                if t < 1 {
                    return r;
                }
                self.thresh = 0;
                if tail.sender_rxmit {
                    return r;
                }
                c.exp_dupacks = c.cache.len() as i64 - c.exp_next_off - 2;
                c.exp_next_off = 1;
                if tail.num_rxmit == 0 {
                    if let Some(p) = Self::rxmit(c, now) {
                        r.verdict = Verdict::Absorb;
                        r.local.push(p);
                        self.stats.dupack_retransmissions += 1;
                        self.stats.dupacks_suppressed += 1;
                    }
                }
            }
            n if n > 0 => {
                c.exp_dupacks -= 1;
                r.verdict = Verdict::Absorb;
                self.stats.dupacks_suppressed += 1;
            }
            -1 if tail.num_rxmit < 2 => {
                if let Some(p) = Self::rxmit(c, now) {
                    r.verdict = Verdict::Absorb;
                    r.local.push(p);
                    self.stats.dupack_retransmissions += 1;
                    self.stats.dupacks_suppressed += 1;
                }
            }
            _ => {}
        }
        r
    }

    /// A new ACK: `snoop_cleanbufs_` then `snoop_rtt` (snoop.cc:492-505, 610-652).
    fn new_ack(&mut self, now: SimTime, ack: SeqNum, flow: engine::FlowId) {
        let c = slot(&mut self.conns, flow);
        c.tout = None;
        let mut snd = None;
        while c.cache.front().is_some_and(|e| e.end.le(ack)) {
            snd = c.cache.pop_front().map(|e| e.snd_time);
        }
        if !c.cache.is_empty() {
            c.tout = Some(now + c.timeout());
        }
        if let Some(t) = snd {
            c.sample(now.saturating_since(t).as_nanos());
        }
        c.exp_dupacks = 0;
        c.exp_next_off = 0;
        c.last_ack = Some(ack);
    }
}

impl Agent for Ns2Snoop {
    fn on_data(&mut self, now: SimTime, pkt: Packet) -> Reaction {
        // Without the queue's fill: as if it had room.
        self.on_data_queued(
            now,
            pkt,
            QueueFill {
                len: 0,
                limit: usize::MAX,
            },
        )
    }

    /// `snoop_data` (snoop.cc:260-294).
    fn on_data_queued(&mut self, now: SimTime, pkt: Packet, queue: QueueFill) -> Reaction {
        let c = slot(&mut self.conns, pkt.flow);
        let seq = pkt.seg.seq;
        if c.cache.len() >= MAX_WIND {
            if c.last_seen.is_none_or(|l| l.lt(seq)) {
                c.last_seen = Some(seq);
            }
            return Reaction::forward(pkt);
        }
        let mut restart = false;
        if queue.len < queue.limit.saturating_sub(1) {
            let was = c.cache.iter().any(|e| e.pkt.seg.seq == seq);
            restart = c.insert(now, pkt);
            if was {
                self.stats.sender_retransmissions_seen += 1;
            }
        }
        if restart {
            c.tout = None;
        }
        if c.tout.is_none() && !c.cache.is_empty() {
            c.tout = Some(now + c.timeout());
        }
        Reaction::forward(pkt)
    }

    /// `snoop_ack` (snoop.cc:407-507).
    fn on_ack(&mut self, now: SimTime, pkt: Packet) -> Reaction {
        let ack = pkt.seg.ack;
        let last = slot(&mut self.conns, pkt.flow).last_ack;
        let r = match last {
            Some(l) if ack.lt(l) => Reaction::forward(pkt),
            Some(l) if ack == l && pkt.seg.len == 0 => self.dupack(now, pkt),
            Some(l) if ack == l => Reaction::forward(pkt),
            _ => {
                self.new_ack(now, ack, pkt.flow);
                Reaction::forward(pkt)
            }
        };
        self.stats.local_retransmissions += r.local.len() as u64;
        r
    }

    fn on_sent(&mut self, _now: SimTime, _pkt: &Packet) {}

    /// `SnoopRxmitHandler::handle` (snoop.cc:755-771).
    fn on_timeout(&mut self, now: SimTime) -> Vec<Packet> {
        let mut out = Vec::new();
        for c in &mut self.conns {
            if c.tout.is_none_or(|t| t > now) {
                continue;
            }
            c.tout = None;
            let Some(tail) = c.cache.front() else {
                continue;
            };
            if c.last_ack.is_some_and(|a| a != tail.pkt.seg.seq) {
                continue;
            }
            if let Some(p) = Self::rxmit(c, now) {
                c.exp_next_off = 1;
                out.push(p);
            }
        }
        self.stats.timer_retransmissions += out.len() as u64;
        self.stats.local_retransmissions += out.len() as u64;
        out
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.conns.iter().filter_map(|c| c.tout).min()
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }

    fn local_at_tail(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;

    fn room() -> QueueFill {
        QueueFill { len: 0, limit: 50 }
    }

    #[test]
    fn first_dupack_goes_on_the_second_resends_and_the_expected_ones_are_absorbed() {
        let mut a = Ns2Snoop::new();
        for i in 0..6 {
            a.on_data_queued(ms(i), data(i), room());
        }
        assert!(forwarded(&a.on_ack(ms(10), ack(1))));
        let r = a.on_ack(ms(11), ack(1));
        assert!(
            forwarded(&r) && r.local.is_empty(),
            "first duplicate forwarded"
        );
        let r = a.on_ack(ms(12), ack(1));
        assert!(!forwarded(&r));
        assert_eq!(seqs(&r.local), vec![1], "second duplicate: local resend");
        // Five cached (1..5), minus two: three more duplicates absorbed, the next forwarded.
        for t in 13..16 {
            assert!(!forwarded(&a.on_ack(ms(t), ack(1))));
        }
        assert!(forwarded(&a.on_ack(ms(16), ack(1))));
        let s = a.stats();
        assert_eq!((s.dupacks_suppressed, s.local_retransmissions), (4, 1));
    }

    #[test]
    fn the_timer_starts_at_link_layer_entry_with_ns2s_initial_estimate() {
        let mut a = Ns2Snoop::new();
        a.on_data_queued(ms(0), data(0), room());
        // srtt 0.1 + 4 · 0.25 = 1.1 s from the entry into the link layer.
        assert_eq!(a.poll_timeout(), Some(ms(1100)));
        // The ACK at 30 ms: a 30 ms sample from entry; srtt = (100 + 7·30)/8 = 38.75 ms,
        // rttvar = (|30 − 38.75| + 7·250)/8 = 219.84375 ms.
        a.on_data_queued(ms(5), data(1), room());
        a.on_ack(ms(30), ack(1));
        let c = &a.conns[0];
        assert_eq!((c.srtt, c.rttvar), (38_750_000, 219_843_750));
        // The timer restarted at the ACK with the timeout from before the sample (1.1 s).
        assert_eq!(a.poll_timeout(), Some(ms(1130)));
        let out = a.on_timeout(ms(1130));
        assert_eq!(seqs(&out), vec![1]);
        assert_eq!(
            a.poll_timeout(),
            Some(ms(1130) + SimDuration(38_750_000 + 4 * 219_843_750))
        );
    }

    #[test]
    fn caches_only_below_the_queue_limit_minus_one_and_forwards_dupacks_for_the_rest() {
        let mut a = Ns2Snoop::new();
        a.on_data_queued(ms(0), data(0), room());
        a.on_data_queued(ms(1), data(1), QueueFill { len: 49, limit: 50 });
        a.on_data_queued(ms(2), data(2), QueueFill { len: 48, limit: 50 });
        a.on_ack(ms(10), ack(1));
        for t in 11..14 {
            let r = a.on_ack(ms(t), ack(1));
            assert!(
                forwarded(&r) && r.local.is_empty(),
                "segment 1 is not cached"
            );
        }
        assert_eq!(a.conns[0].cache.len(), 1);
    }

    #[test]
    fn the_estimate_floor_is_snoop_tick() {
        let mut c = Conn::default();
        for _ in 0..40 {
            c.sample(1_000_000);
        }
        assert_eq!(c.timeout(), SNOOP_TICK);
    }
}
