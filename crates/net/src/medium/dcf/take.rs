//! How a DCF member (crate::medium::dcf) takes the next frame to contend with: a frame set
//! aside for its retry delay first, then its ports in turn (or the access point's airtime
//! scheduler's choice, crate::medium::dcf::airtime, or the oldest head of its shared interface
//! queue, crate::ifq); an aggregating member
//! (crate::medium::dcf::ampdu) resends what its last Block Ack left out before it takes a new
//! frame.

use super::super::MacAir;
use super::member::Phase;
use super::{aggregating, Dcf};
use engine::SimTime;

impl Dcf {
    /// [`Dcf::fill`] for an empty member `i`: its ports in turn. An aggregating member
    /// (crate::medium::dcf::ampdu) first resends what its last Block Ack left out; a new frame
    /// opens its port's next aggregate.
    #[inline(never)]
    pub(super) fn take_frame<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        if self.members[i].agg.is_none() {
            return self.take_one(now, i, air);
        }
        let m = &mut self.members[i];
        if aggregating::resume_retries(m) {
            let slots = m.draw();
            m.phase = Phase::Backoff { slots, from: None };
            self.frozen.insert(i);
            return true;
        }
        if !self.take_one(now, i, air) {
            return false;
        }
        aggregating::open(&mut self.members[i], air);
        true
    }

    /// [`Dcf::take_frame`] of one frame: a frame set aside first, then the ports in turn (or
    /// the access point's airtime scheduler's choice).
    fn take_one<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        let m = &mut self.members[i];
        // A frame set aside whose delay is over goes first.
        if let Some(k) = m.aside.iter().position(|a| a.until <= now) {
            let a = m.aside.remove(k);
            m.frame = Some((a.port, a.frame, a.head));
            m.attempt = a.attempt;
            m.cw = a.cw;
            let slots = m.draw();
            m.phase = Phase::Backoff { slots, from: None };
            self.frozen.insert(i);
            return true;
        }
        if i == 0 && self.wifi.as_ref().is_some_and(|w| w.shared_fifo) {
            return self.take_oldest(now, air);
        }
        if let (0, Some(s)) = (i, self.wifi.as_mut().and_then(|w| w.sched.as_mut())) {
            // Airtime fairness (crate::medium::dcf::airtime): the station the deficit scheduler picks.
            let ports = &m.ports;
            let Some((k, f)) = s.pick(|k| air.take(now, ports[k])) else {
                return false;
            };
            m.frame = Some((ports[k], f, now));
            m.attempt = 0;
            m.cw = self.cfg.cw_min;
            let slots = m.draw();
            m.phase = Phase::Backoff { slots, from: None };
            self.frozen.insert(i);
            return true;
        }
        let n = m.ports.len();
        let mut k = m.next_port;
        for _ in 0..n {
            let port = m.ports[k];
            k = if k + 1 == n { 0 } else { k + 1 };
            if let Some(f) = air.take(now, port) {
                m.next_port = k;
                m.frame = Some((port, f, now));
                m.attempt = 0;
                m.cw = self.cfg.cw_min;
                let slots = m.draw();
                m.phase = Phase::Backoff { slots, from: None };
                self.frozen.insert(i);
                return true;
            }
        }
        false
    }
}
