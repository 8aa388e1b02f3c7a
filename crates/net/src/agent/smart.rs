//! LL-SMART and LL-SMART-TCP-AWARE: Balakrishnan97 §2.10, §2.11, §B.3, §B.10 item 10.
//!
//! The mobile's TCP ACKs carry the SMART trigger (the first sequence number of the data segment
//! that caused the ACK). The agent caches segments as LL does and keeps, per connection, a
//! bitmask of the cached segments the mobile has reported. An ACK triggered by segment `t` shows
//! that every cached, unreported segment between the cumulative ACK and `t` whose last
//! transmission left *before* `t`'s did not arrive: the agent retransmits exactly those, each at
//! most once per link round trip (the link RTT estimate). The local timer (200 ms minimum and
//! tick) covers a lost last segment and lost retransmissions. The SMART option is stripped before
//! the ACK is forwarded (the source is a plain Reno sender; P2 Figs 6-7).
//!
//! `tcp_aware = false` (`ll-smart`) forwards every ACK, duplicates included; `tcp_aware = true`
//! (`ll-smart-tcp-aware`) absorbs duplicate ACKs for cached segments the sender has not
//! retransmitted (the agent is repairing them) and forwards duplicates for segments it does not
//! hold or that the sender retransmitted.

use super::cache::{AckKind, FlowCache, Insert};
use super::{slot, Agent, AgentStats, LinkTimerConfig, Reaction, Verdict};
use crate::packet::Packet;
use engine::SimTime;

/// The SMART link-layer agent of one base station.
#[derive(Clone, Debug)]
pub struct SmartLinkLayer {
    tcp_aware: bool,
    cfg: LinkTimerConfig,
    flows: Vec<FlowCache>,
    stats: AgentStats,
}

impl SmartLinkLayer {
    /// A new agent; `tcp_aware` adds duplicate-ACK suppression.
    pub fn new(tcp_aware: bool, cfg: LinkTimerConfig) -> Self {
        SmartLinkLayer {
            tcp_aware,
            cfg,
            flows: Vec::new(),
            stats: AgentStats::default(),
        }
    }
}

impl Agent for SmartLinkLayer {
    fn on_data(&mut self, _now: SimTime, pkt: Packet) -> Reaction {
        if slot(&mut self.flows, pkt.flow).insert(pkt) == Insert::SenderRetransmission {
            self.stats.sender_retransmissions_seen += 1;
        }
        Reaction::forward(pkt)
    }

    fn on_ack(&mut self, now: SimTime, mut pkt: Packet) -> Reaction {
        let c = slot(&mut self.flows, pkt.flow);
        let trigger = pkt.seg.opts.smart.take();
        if trigger.is_some() {
            self.stats.smart_stripped += 1;
        }
        let kind = c.ack(now, &pkt);
        let mut local = Vec::new();
        if let Some(t) = trigger {
            let ti = c.find(t);
            if let Some(ti) = ti {
                c.entries[ti].received = true;
            }
            let t_order = ti.and_then(|i| c.entries[i].tx_order);
            // Holes: unreported cached segments below the trigger that left before it.
            let srtt = c.rtt.srtt().unwrap_or_default();
            for i in 0..c.entries.len() {
                let e = c.entries[i];
                if !e.pkt.seg.seq.lt(t) {
                    break;
                }
                let before = matches!((e.tx_order, t_order), (Some(a), Some(b)) if a < b);
                let rtt_passed = e.last_local.is_none_or(|l| now.saturating_since(l) >= srtt);
                if !e.received && before && rtt_passed && c.can_retransmit(i) {
                    local.push(c.retransmit(i, now));
                }
            }
        }
        self.stats.dupack_retransmissions += local.len() as u64;
        self.stats.local_retransmissions += local.len() as u64;
        let mut verdict = Verdict::Forward(pkt);
        if let AckKind::Dup(_) = kind {
            let cached = c.head_at_ack().is_some_and(|i| !c.entries[i].sender_rxmt);
            if !cached {
                self.stats.dupacks_forwarded_uncached += 1;
            } else if self.tcp_aware {
                verdict = Verdict::Absorb;
                self.stats.dupacks_suppressed += 1;
            }
        }
        Reaction { verdict, local }
    }

    fn on_sent(&mut self, now: SimTime, pkt: &Packet) {
        slot(&mut self.flows, pkt.flow).sent(now, pkt);
    }

    fn on_timeout(&mut self, now: SimTime) -> Vec<Packet> {
        let out: Vec<Packet> = self
            .flows
            .iter_mut()
            .filter_map(|c| c.expire(now, self.cfg.min_rto, self.cfg.tick))
            .collect();
        self.stats.timer_retransmissions += out.len() as u64;
        self.stats.local_retransmissions += out.len() as u64;
        out
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.flows
            .iter()
            .filter_map(|c| c.deadline(self.cfg.min_rto, self.cfg.tick))
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

    fn sent(a: &mut SmartLinkLayer, n: u32) {
        for i in 0..n {
            a.on_data(ms(i), data(i));
            a.on_sent(ms(i) + us(500), &data(i));
        }
    }

    #[test]
    fn smart_retransmits_exactly_the_holes_once() {
        let mut a = SmartLinkLayer::new(false, LinkTimerConfig::default());
        // 0..8 sent; 1, 2 and 5 lost.
        sent(&mut a, 8);
        a.on_ack(ms(10), smart_ack(1, 0));
        let r = a.on_ack(ms(11), smart_ack(1, 3));
        assert_eq!(seqs(&r.local), vec![1, 2], "holes below the trigger");
        assert!(forwarded(&r), "ll-smart forwards dupacks");
        let Verdict::Forward(p) = r.verdict else {
            unreachable!()
        };
        assert_eq!(p.seg.opts.smart, None, "SMART info stripped");
        let r = a.on_ack(ms(12), smart_ack(1, 4));
        assert!(
            r.local.is_empty(),
            "no second retransmission within a link RTT"
        );
        let r = a.on_ack(ms(13), smart_ack(1, 6));
        assert_eq!(seqs(&r.local), vec![5]);
        assert_eq!(a.stats().local_retransmissions, 3);
    }

    #[test]
    fn smart_tcp_aware_suppresses_dupacks_of_cached_holes_only() {
        let mut a = SmartLinkLayer::new(true, LinkTimerConfig::default());
        sent(&mut a, 4);
        a.on_ack(ms(10), smart_ack(1, 0));
        let r = a.on_ack(ms(11), smart_ack(1, 2));
        assert!(!forwarded(&r));
        assert_eq!(seqs(&r.local), vec![1]);
        // A hole the base station never saw (segment 5 lost upstream).
        a.on_data(ms(12), data(4));
        a.on_sent(ms(12), &data(4));
        a.on_data(ms(13), data(6));
        a.on_sent(ms(13), &data(6));
        a.on_sent(ms(14), &data(1));
        assert!(forwarded(&a.on_ack(ms(15), smart_ack(5, 1))));
        let r = a.on_ack(ms(16), smart_ack(5, 6));
        assert!(forwarded(&r) && r.local.is_empty());
        assert_eq!(a.stats().dupacks_forwarded_uncached, 1);
    }
}
