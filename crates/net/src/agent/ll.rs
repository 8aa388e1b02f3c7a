//! LL and LL-TCP-AWARE (snoop): Balakrishnan97 §2.8, §2.9, §B.3, §B.10 item 6.
//!
//! Both cache every data segment forwarded to the mobile until the mobile's TCP ACK covers it,
//! keep a smoothed link round-trip estimate, and retransmit locally (at the head of the wireless
//! queue) on the `dupthresh`-th duplicate ACK or when the local timer (RTO = max(200 ms,
//! srtt + 4·rttvar), fired on 200 ms ticks) expires; repeated local retransmissions are allowed.
//!
//! - [`Mode::Plain`] (`ll`): every ACK, duplicates included, is forwarded unchanged; no in-order
//!   delivery. One dupack-triggered retransmission per lost segment and loss event; the timer
//!   repeats it if needed. The dupack threshold is the same as snoop's (2): the paper calls LL
//!   "the snoop agent that does not suppress any duplicate acknowledgments", so only the
//!   suppression differs.
//! - [`Mode::Snoop`] (`ll-tcp-aware`): additionally, a duplicate ACK for a cached segment the
//!   sender has not retransmitted is a wireless loss: it is absorbed, and the second one triggers
//!   the local retransmission. At that point the agent records the *expected* number of further
//!   duplicates (segments after the lost one that had left before the retransmission, plus one
//!   for a frame possibly on the air) and the *next expected new ACK* (the end of the highest
//!   segment that had left). Expected duplicates are absorbed; duplicates beyond them are
//!   forwarded (spec §2.9 knob: the repair failed, the sender must hear about it). If the first
//!   new ACK after the repair is below the expected one and the segment it asks for had left
//!   before the retransmission, that segment was lost in the same burst: it is retransmitted at
//!   once (§B.3's NewReno-like partial-ACK rule). A duplicate ACK for a segment that is not
//!   cached (a loss upstream of the base station) or that the sender itself retransmitted is
//!   always forwarded, so the sender's own recovery still works.
//!
//! Deliberate choices [INFERRED]: the link RTT is measured from the end of the frame's
//! transmission (not its enqueueing), so the timer does not count time spent in the interface
//! queue; no exponential backoff of the local timer.

use super::cache::{AckKind, FlowCache, Insert};
use super::{slot, Agent, AgentStats, LinkTimerConfig, Reaction, Verdict};
use crate::packet::Packet;
use engine::SimTime;
use tcp::SeqNum;

/// Which member of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `ll`: forward every ACK.
    Plain,
    /// `ll-tcp-aware` (snoop): suppress the dupacks of locally repaired losses.
    Snoop,
}

/// A local repair in progress (snoop only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Repair {
    /// Further duplicates expected after the retransmission.
    exp_dupacks: u32,
    /// The new ACK expected once the retransmission arrives.
    exp_next_ack: SeqNum,
    /// Transmissions completed before the retransmission was queued.
    tx_mark: u64,
}

#[derive(Clone, Debug, Default)]
struct FlowState {
    cache: FlowCache,
    /// The ACK value whose loss was already retransmitted on dupacks (plain LL).
    rxmt_for: Option<SeqNum>,
    repair: Option<Repair>,
}

/// The LL / snoop agent of one base station.
#[derive(Clone, Debug)]
pub struct LinkLayer {
    mode: Mode,
    cfg: LinkTimerConfig,
    flows: Vec<FlowState>,
    stats: AgentStats,
}

impl LinkLayer {
    /// A new agent.
    pub fn new(mode: Mode, cfg: LinkTimerConfig) -> Self {
        LinkLayer {
            mode,
            cfg,
            flows: Vec::new(),
            stats: AgentStats::default(),
        }
    }

    fn start_repair(st: &mut FlowState, now: SimTime) -> Packet {
        let c = &st.cache;
        let sent_after = c
            .entries
            .iter()
            .skip(1)
            .filter(|e| e.tx_at.is_some())
            .count() as u32;
        let exp_next_ack = c
            .entries
            .iter()
            .rev()
            .find(|e| e.tx_at.is_some())
            .map_or(c.entries[0].end, |e| e.end);
        st.repair = Some(Repair {
            exp_dupacks: (sent_after + 1).saturating_sub(c.dupacks),
            exp_next_ack,
            tx_mark: c.tx_mark(),
        });
        st.cache.retransmit(0, now)
    }

    fn snoop_ack(&mut self, now: SimTime, pkt: Packet, kind: AckKind) -> Reaction {
        let st = slot(&mut self.flows, pkt.flow);
        let mut r = Reaction::forward(pkt);
        match kind {
            AckKind::New => {
                let Some(rep) = st.repair.take() else {
                    return r;
                };
                // §B.3: the first new ACK after a repair is below the expected one and asks for
                // a segment that had left before the retransmission: lost in the same burst.
                let ack = pkt.seg.ack;
                if let Some(0) = st.cache.head_at_ack() {
                    let e = st.cache.entries[0];
                    if ack.lt(rep.exp_next_ack)
                        && !e.sender_rxmt
                        && e.tx_order.is_some_and(|o| o < rep.tx_mark)
                        && st.cache.can_retransmit(0)
                    {
                        r.local.push(Self::start_repair(st, now));
                        self.stats.partial_ack_retransmissions += 1;
                    }
                }
            }
            AckKind::Dup(n) => {
                let cached = st
                    .cache
                    .head_at_ack()
                    .is_some_and(|i| !st.cache.entries[i].sender_rxmt);
                if !cached {
                    self.stats.dupacks_forwarded_uncached += 1;
                    return r;
                }
                match &mut st.repair {
                    Some(rep) if rep.exp_dupacks > 0 => {
                        rep.exp_dupacks -= 1;
                        r.verdict = Verdict::Absorb;
                    }
                    // More duplicates than the repair explains: let the sender know.
                    Some(_) => return r,
                    None => {
                        r.verdict = Verdict::Absorb;
                        if n >= self.cfg.dupthresh && st.cache.can_retransmit(0) {
                            r.local.push(Self::start_repair(st, now));
                            self.stats.dupack_retransmissions += 1;
                        }
                    }
                }
                if r.verdict == Verdict::Absorb {
                    self.stats.dupacks_suppressed += 1;
                }
            }
            AckKind::Other => {}
        }
        r
    }

    fn plain_ack(&mut self, now: SimTime, pkt: Packet, kind: AckKind) -> Reaction {
        let st = slot(&mut self.flows, pkt.flow);
        let mut r = Reaction::forward(pkt);
        if let AckKind::Dup(n) = kind {
            let ack = pkt.seg.ack;
            if n >= self.cfg.dupthresh
                && st.rxmt_for != Some(ack)
                && st.cache.head_at_ack().is_some()
                && st.cache.can_retransmit(0)
            {
                st.rxmt_for = Some(ack);
                r.local.push(st.cache.retransmit(0, now));
                self.stats.dupack_retransmissions += 1;
            } else if st.cache.head_at_ack().is_none() {
                self.stats.dupacks_forwarded_uncached += 1;
            }
        }
        r
    }
}

impl Agent for LinkLayer {
    fn on_data(&mut self, _now: SimTime, pkt: Packet) -> Reaction {
        let st = slot(&mut self.flows, pkt.flow);
        if st.cache.insert(pkt) == Insert::SenderRetransmission {
            self.stats.sender_retransmissions_seen += 1;
        }
        Reaction::forward(pkt)
    }

    fn on_ack(&mut self, now: SimTime, pkt: Packet) -> Reaction {
        let kind = slot(&mut self.flows, pkt.flow).cache.ack(now, &pkt);
        let r = match self.mode {
            Mode::Plain => self.plain_ack(now, pkt, kind),
            Mode::Snoop => self.snoop_ack(now, pkt, kind),
        };
        self.stats.local_retransmissions += r.local.len() as u64;
        r
    }

    fn on_sent(&mut self, now: SimTime, pkt: &Packet) {
        slot(&mut self.flows, pkt.flow).cache.sent(now, pkt);
    }

    fn on_timeout(&mut self, now: SimTime) -> Vec<Packet> {
        let mut out = Vec::new();
        for st in &mut self.flows {
            if let Some(p) = st.cache.expire(now, self.cfg.min_rto, self.cfg.tick) {
                // A timer retransmission starts a new loss event.
                st.repair = None;
                out.push(p);
            }
        }
        self.stats.timer_retransmissions += out.len() as u64;
        self.stats.local_retransmissions += out.len() as u64;
        out
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.flows
            .iter()
            .filter_map(|s| s.cache.deadline(self.cfg.min_rto, self.cfg.tick))
            .min()
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;

    fn snoop() -> LinkLayer {
        LinkLayer::new(Mode::Snoop, LinkTimerConfig::default())
    }

    #[test]
    fn snoop_absorbs_the_dupacks_of_a_local_repair_and_retransmits_on_the_second() {
        let mut a = snoop();
        // Segments 0..5 forwarded and sent; segment 1 is lost on the air.
        for i in 0..5 {
            a.on_data(ms(i), data(i));
            a.on_sent(ms(i) + us(500), &data(i));
        }
        assert!(forwarded(&a.on_ack(ms(10), ack(1))));
        // Dupacks from segments 2, 3, 4.
        let r = a.on_ack(ms(11), ack(1));
        assert!(
            !forwarded(&r) && r.local.is_empty(),
            "first dupack absorbed"
        );
        let r = a.on_ack(ms(12), ack(1));
        assert!(!forwarded(&r));
        assert_eq!(
            seqs(&r.local),
            vec![1],
            "second dupack: local retransmission"
        );
        let r = a.on_ack(ms(13), ack(1));
        assert!(
            !forwarded(&r) && r.local.is_empty(),
            "expected dupack absorbed"
        );
        a.on_sent(ms(14), &data(1));
        assert!(forwarded(&a.on_ack(ms(16), ack(5))));
        let s = a.stats();
        assert_eq!((s.dupacks_suppressed, s.local_retransmissions), (3, 1));
    }

    #[test]
    fn snoop_forwards_dupacks_for_an_uncached_segment() {
        let mut a = snoop();
        // Segment 1 never reached the base station (lost upstream).
        for i in [0, 2, 3, 4] {
            a.on_data(ms(i), data(i));
            a.on_sent(ms(i) + us(500), &data(i));
        }
        a.on_ack(ms(10), ack(1));
        for t in 11..14 {
            let r = a.on_ack(ms(t), ack(1));
            assert!(forwarded(&r) && r.local.is_empty());
        }
        assert_eq!(a.stats().dupacks_forwarded_uncached, 3);
        assert_eq!(a.stats().dupacks_suppressed, 0);
    }

    #[test]
    fn snoop_partial_ack_rule_repairs_the_next_hole_of_a_burst() {
        let mut a = snoop();
        // Segments 1 and 2 lost; 0, 3..6 arrive.
        for i in 0..7 {
            a.on_data(ms(i), data(i));
            a.on_sent(ms(i) + us(500), &data(i));
        }
        a.on_ack(ms(10), ack(1));
        a.on_ack(ms(11), ack(1));
        let r = a.on_ack(ms(12), ack(1));
        assert_eq!(seqs(&r.local), vec![1]);
        a.on_sent(ms(13), &data(1));
        // The retransmission of 1 arrives: new ACK for 2 < expected 7, and 2 had left before.
        let r = a.on_ack(ms(14), ack(2));
        assert!(forwarded(&r));
        assert_eq!(seqs(&r.local), vec![2], "partial ACK: next hole at once");
        assert_eq!(a.stats().partial_ack_retransmissions, 1);
    }

    #[test]
    fn plain_ll_forwards_every_dupack_and_retransmits_once() {
        let mut a = LinkLayer::new(Mode::Plain, LinkTimerConfig::default());
        for i in 0..6 {
            a.on_data(ms(i), data(i));
            a.on_sent(ms(i) + us(500), &data(i));
        }
        a.on_ack(ms(10), ack(1));
        let mut local = Vec::new();
        for t in 11..15 {
            let r = a.on_ack(ms(t), ack(1));
            assert!(forwarded(&r));
            local.extend(seqs(&r.local));
        }
        assert_eq!(local, vec![1]);
        assert_eq!(a.stats().dupacks_suppressed, 0);
    }

    #[test]
    fn local_timer_retransmits_on_200ms_ticks_repeatedly() {
        let mut a = snoop();
        a.on_data(ms(0), data(0));
        a.on_sent(ms(1), &data(0));
        // No sample yet: initial 1 s RTO from the transmission, on a tick.
        assert_eq!(a.poll_timeout(), Some(ms(1001).max(ms(1200))));
        a.on_ack(ms(21), ack(1)); // sample 20 ms
        a.on_data(ms(30), data(1));
        a.on_sent(ms(31), &data(1));
        // RTO = max(200 ms, 20 + 40 ms) from the later of progress (21 ms) and sending (31 ms).
        assert_eq!(a.poll_timeout(), Some(ms(400)));
        assert!(a.on_timeout(ms(200)).is_empty());
        assert_eq!(seqs(&a.on_timeout(ms(400))), vec![1]);
        assert_eq!(a.poll_timeout(), None, "retransmission queued");
        a.on_sent(ms(401), &data(1));
        assert_eq!(a.poll_timeout(), Some(ms(800)));
        assert_eq!(seqs(&a.on_timeout(ms(800))), vec![1]);
        assert_eq!(a.stats().timer_retransmissions, 2);
    }
}
