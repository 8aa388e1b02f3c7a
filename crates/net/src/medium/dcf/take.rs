//! How a DCF member (crate::medium::dcf) takes the next frame to contend with: a frame set
//! aside for its retry delay first, then its ports in turn (or the access point's airtime
//! scheduler's choice, crate::medium::dcf::airtime, or the oldest head of its shared interface
//! queue, crate::ifq); an aggregating member
//! (crate::medium::dcf::ampdu) resends what its last Block Ack left out before it takes a new
//! frame.

use super::super::{Frame, MacAir};
use super::member::Phase;
use super::{aggregating, Dcf};
use engine::{PortId, SimTime};

impl Dcf {
    /// [`Dcf::fill`] for an empty member `i`: its ports in turn. An aggregating member
    /// (crate::medium::dcf::ampdu) first resends what its last Block Ack left out; a new frame
    /// opens its port's next aggregate.
    #[inline(never)]
    pub(super) fn take_frame<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        if self.members[i].agg.is_none() {
            return self.take_one(now, i, air);
        }
        let m = &self.members[i];
        let shared = i == 0 && self.wifi.as_ref().is_some_and(|w| w.shared_fifo);
        if m.ports.len() > 1 && m.aside.is_empty() && !shared {
            return self.take_session(now, i, air);
        }
        if aggregating::resume_retries(&mut self.members[i]) {
            self.back_off(i);
            return true;
        }
        if !self.take_one(now, i, air) {
            return false;
        }
        aggregating::open(&mut self.members[i], air);
        true
    }

    /// [`Dcf::take_frame`] for an aggregating member of several ports (an access point): the
    /// next session by the airtime scheduler's choice or in turn, a session with MPDUs to
    /// resend, a BlockAckReq to send, or an MPDU an aggregate had no room for counting as one
    /// with frames, as a new frame from its port's queue does. Linux schedules both alike: a
    /// driver's per-TID retry queue (ath9k's `tid->retry_q`, where an MPDU that did not fit
    /// goes back) is served when mac80211's scheduler returns the station's TXQ
    /// (`ieee80211_next_txq()`). Served first, the leftovers kept the access point on one
    /// station until that station's queue ran dry (every aggregate takes one MPDU it has no
    /// room for), whatever the scheduler.
    fn take_session<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        let Dcf { members, wifi, .. } = self;
        let m = &mut members[i];
        let (Some(agg), ports) = (m.agg.as_deref(), &m.ports) else {
            return false;
        };
        // Some(None): the session has something to send; Some(Some(frame)): a new frame.
        let mut next = |k: usize| match agg.sessions.get(k) {
            Some(s) if s.wants_access() => Some(None),
            _ => air.take(now, ports[k]).map(Some),
        };
        let picked = if let (0, Some(s)) = (i, wifi.as_mut().and_then(|w| w.sched.as_mut())) {
            s.pick(&mut next)
        } else {
            let n = ports.len();
            let mut found = None;
            for off in 0..n {
                let k = (m.next_port + off) % n;
                if let Some(got) = next(k) {
                    found = Some((k, got));
                    break;
                }
            }
            if let Some((k, _)) = found {
                m.next_port = if k + 1 == n { 0 } else { k + 1 };
            }
            found
        };
        match picked {
            None => false,
            Some((k, None)) => {
                if let Some(agg) = m.agg.as_deref_mut() {
                    agg.cur = k;
                }
                self.back_off(i);
                true
            }
            Some((k, Some(f))) => {
                let port = m.ports[k];
                self.begin(i, port, f, now);
                aggregating::open(&mut self.members[i], air);
                true
            }
        }
    }

    /// [`Dcf::take_frame`] of one frame: a frame set aside first, then the ports in turn (or
    /// the access point's airtime scheduler's choice, or its shared interface queue's oldest
    /// head).
    fn take_one<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        let m = &mut self.members[i];
        // A frame set aside whose delay is over goes first.
        if let Some(k) = m.aside.iter().position(|a| a.until <= now) {
            let a = m.aside.remove(k);
            m.frame = Some((a.port, a.frame, a.head));
            m.attempt = a.attempt;
            m.cw = a.cw;
            self.back_off(i);
            return true;
        }
        if i == 0 && self.wifi.as_ref().is_some_and(|w| w.shared_fifo) {
            // ns-2's one interface queue (crate::ifq): the head that arrived first, whichever
            // station it is for.
            let ports = &m.ports;
            let k = crate::ifq::oldest((0..ports.len()).map(|k| (k, air.head_stamp(ports[k]))));
            let Some((port, f)) = k.and_then(|k| air.take(now, ports[k]).map(|f| (ports[k], f)))
            else {
                return false;
            };
            self.begin(i, port, f, now);
            return true;
        }
        if let (0, Some(s)) = (i, self.wifi.as_mut().and_then(|w| w.sched.as_mut())) {
            // Airtime fairness (crate::medium::dcf::airtime): the station the deficit scheduler picks.
            let ports = &m.ports;
            let Some((k, f)) = s.pick(|k| air.take(now, ports[k])) else {
                return false;
            };
            let port = ports[k];
            self.begin(i, port, f, now);
            return true;
        }
        let n = m.ports.len();
        let mut k = m.next_port;
        for _ in 0..n {
            let port = m.ports[k];
            k = if k + 1 == n { 0 } else { k + 1 };
            if let Some(f) = air.take(now, port) {
                m.next_port = k;
                self.begin(i, port, f, now);
                return true;
            }
        }
        false
    }

    /// Member `i` starts on a new `frame` of `port` taken at `now`: first attempt, CW_min,
    /// then a backoff.
    fn begin(&mut self, i: usize, port: PortId, frame: Frame, now: SimTime) {
        let m = &mut self.members[i];
        m.frame = Some((port, frame, now));
        m.attempt = 0;
        m.cw = self.cfg.cw_min;
        self.back_off(i);
    }

    /// Member `i` draws its backoff for the frame it holds and counts down from the next idle
    /// slot.
    fn back_off(&mut self, i: usize) {
        let m = &mut self.members[i];
        let slots = m.draw();
        m.phase = Phase::Backoff { slots, from: None };
        self.frozen.insert(i);
    }
}
