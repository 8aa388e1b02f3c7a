//! The end of a member's exchange (crate::medium::dcf): the frame delivered, retried after a
//! doubled contention window (IEEE 802.11-1999 §9.2.4, §9.2.5.3), set aside or held for the
//! retry delay (spec Fig. 13, `ll_retry_delay`), or dropped at the retry limit; an aggregating
//! member's Block Ack outcome is crate::medium::dcf::aggregating's.

use super::member::{Aside, Phase};
use super::{aggregating, Dcf, ASIDE, REORDER};
use crate::medium::MacAir;
use engine::{SimDuration, SimTime};

impl Dcf {
    /// Member `i`'s exchange ended at `now`: delivered, retried or dropped.
    pub(super) fn outcome<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) {
        let cfg = &self.cfg;
        let m = &mut self.members[i];
        let Phase::Sending { ok, .. } = m.phase else {
            return;
        };
        m.defer = self.tm.difs;
        m.defer_at = self.exchanges;
        if m.agg.is_some() {
            aggregating::outcome(m, cfg, (now, ok), air, REORDER | i as u32);
            m.phase = Phase::Empty;
            return;
        }
        if ok {
            if let Some((port, frame, head)) = m.frame.take() {
                let d = now.saturating_since(head).as_nanos();
                m.stats.successes += 1;
                m.stats.access_delay_ns += d;
                m.stats.delays_ns.push(d);
                air.deliver(now, port, frame);
            }
            m.cw = cfg.cw_min;
            m.phase = Phase::Empty;
            return;
        }
        if !cfg.mac_ack {
            // Lost on the air; the sender never knows (no ACK, no retry).
            if let Some((port, frame, _)) = m.frame.take() {
                air.lose(now, port, frame);
            }
            m.phase = Phase::Empty;
            return;
        }
        if m.attempt >= cfg.retry_limit {
            if let Some((port, frame, _)) = m.frame.take() {
                m.stats.drops += 1;
                air.discard(now, port, frame);
            }
            m.cw = cfg.cw_min;
            m.phase = Phase::Empty;
            return;
        }
        m.cw = (2 * m.cw + 1).min(cfg.cw_max);
        if cfg.retry_delay > SimDuration::ZERO && !cfg.retry_delay_blocks {
            if let Some((port, frame, head)) = m.frame.take() {
                let until = now + cfg.retry_delay;
                m.aside.push(Aside {
                    port,
                    frame,
                    head,
                    attempt: m.attempt,
                    cw: m.cw,
                    until,
                });
                air.wake(until, ASIDE | i as u32);
            }
            m.phase = Phase::Empty;
        } else if cfg.retry_delay > SimDuration::ZERO {
            m.phase = Phase::Waiting {
                until: now + cfg.retry_delay,
            };
            self.waiting.insert(i);
        } else {
            let slots = m.draw();
            m.phase = Phase::Backoff { slots, from: None };
            self.frozen.insert(i);
        }
    }
}
