//! The DCF as it was before its event loop was made incremental: every wake scans every member
//! of the cell. Kept only as the oracle of the differential tests (diff_tests.rs), which
//! check that the incremental medium takes the same frames, draws and schedules the same
//! wake-ups and counts the same, call for call. Not to be changed with the medium: it is the
//! behaviour the medium must keep.

#![allow(dead_code)]

use super::super::{Frame, MacAir, Medium};
use super::{DcfConfig, DcfStats};
use engine::{PortId, RngStream, SimDuration, SimTime};

/// What a member is doing.
#[derive(Debug)]
enum Phase {
    /// Nothing to send.
    Empty,
    /// Counting down `slots` more slots from `from` (none: frozen, the medium is busy).
    Backoff { slots: u32, from: Option<SimTime> },
    /// On the air; the exchange's outcome is known at `until`.
    Sending { until: SimTime, ok: bool },
    /// Waiting before it may count again (the retry delay).
    Waiting { until: SimTime },
}

struct Member {
    ports: Vec<PortId>,
    next_port: usize,
    frame: Option<(PortId, Frame, SimTime)>,
    cw: u32,
    attempt: u32,
    phase: Phase,
    /// Counting starts this long after the medium turns idle (DIFS, or EIFS after an error).
    defer: SimDuration,
    rng: RngStream,
    stats: DcfStats,
}

impl Member {
    /// Slots counted between `from` and `now`.
    fn counted(from: SimTime, now: SimTime, slot: SimDuration) -> u32 {
        let n = now.saturating_since(from).as_nanos() / slot.as_nanos().max(1);
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    fn draw(&mut self) -> u32 {
        self.rng.below(u64::from(self.cw) + 1) as u32
    }
}

/// Wake-up tags: an exchange's outcome carries its member (high bit set); everything else the
/// epoch of the schedule it belongs to, so that a stale one is ignored.
const MEMBER: u32 = 1 << 31;

/// `ScanDcf::member_of` for a port that is not the cell's.
const NO_MEMBER: u32 = u32::MAX;

/// The DCF medium of a cell.
pub(crate) struct ScanDcf {
    cfg: DcfConfig,
    members: Vec<Member>,
    /// The member of each port, by port index (`NO_MEMBER` for ports of other media).
    member_of: Vec<u32>,
    /// The members whose countdown ends in the current slot (scratch, kept to reuse its
    /// allocation).
    senders: Vec<usize>,
    /// The medium is busy until then (frames and ACKs on the air).
    busy_until: SimTime,
    epoch: u32,
    /// Slots in which several countdowns ended with collisions off (whose turn it is).
    ties: usize,
}

impl ScanDcf {
    /// A DCF over `members` (each a list of ports and its random stream).
    pub(crate) fn new(cfg: DcfConfig, members: Vec<(Vec<PortId>, RngStream)>) -> Self {
        let mut member_of = Vec::new();
        for (i, (ports, _)) in members.iter().enumerate() {
            for &p in ports {
                Self::set_member(&mut member_of, p, i);
            }
        }
        ScanDcf {
            cfg,
            member_of,
            senders: Vec::new(),
            ties: 0,
            members: members
                .into_iter()
                .map(|(ports, rng)| Member {
                    ports,
                    next_port: 0,
                    frame: None,
                    cw: cfg.cw_min,
                    attempt: 0,
                    phase: Phase::Empty,
                    defer: cfg.difs(),
                    rng,
                    stats: DcfStats::default(),
                })
                .collect(),
            busy_until: SimTime::ZERO,
            epoch: 0,
        }
    }

    /// A link of the cell: the access point's port joins member 0, the station's port becomes
    /// a member of its own drawing from `rng`.
    pub(crate) fn add_link(&mut self, ap_port: PortId, sta_port: PortId, rng: RngStream) {
        self.members[0].ports.push(ap_port);
        Self::set_member(&mut self.member_of, ap_port, 0);
        Self::set_member(&mut self.member_of, sta_port, self.members.len());
        let cfg = self.cfg;
        self.members.push(Member {
            ports: vec![sta_port],
            next_port: 0,
            frame: None,
            cw: cfg.cw_min,
            attempt: 0,
            phase: Phase::Empty,
            defer: cfg.difs(),
            rng,
            stats: DcfStats::default(),
        });
    }

    fn set_member(member_of: &mut Vec<u32>, port: PortId, member: usize) {
        let i = port.index();
        if member_of.len() <= i {
            member_of.resize(i + 1, NO_MEMBER);
        }
        member_of[i] = member as u32;
    }

    /// Each member's counters, in member order.
    pub(crate) fn stats(&self) -> Vec<DcfStats> {
        self.members.iter().map(|m| m.stats.clone()).collect()
    }

    /// Member `i`, if it has no frame, takes one from its ports (in turn, from the one after
    /// the port served last) and draws a backoff; returns whether it did. A member is offered
    /// frames when one of its ports reports one (`on_ready`) and when its exchange ends, so an
    /// empty member never has a frame waiting that it could take.
    fn fill<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        let m = &mut self.members[i];
        if m.frame.is_some() || !matches!(m.phase, Phase::Empty) {
            return false;
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
                let slots = m.draw();
                m.phase = Phase::Backoff { slots, from: None };
                return true;
            }
        }
        false
    }

    /// The medium is idle at `now`: members whose wait ended rejoin, frozen counters start
    /// again after each member's deferral; then the next event is scheduled.
    fn resume<A: MacAir>(&mut self, now: SimTime, air: &mut A) {
        if now < self.busy_until {
            return;
        }
        let slot = self.cfg.slot;
        let mut next: Option<SimTime> = None;
        for m in &mut self.members {
            if let Phase::Waiting { until } = m.phase {
                if until <= now {
                    let slots = m.draw();
                    m.phase = Phase::Backoff { slots, from: None };
                }
            }
            match &mut m.phase {
                Phase::Backoff { slots, from } => {
                    let start = *from.get_or_insert(now + m.defer);
                    let t = start + slot.saturating_mul(u64::from(*slots));
                    next = Some(next.map_or(t, |n: SimTime| n.min(t)));
                }
                Phase::Waiting { until } => {
                    let t = *until;
                    next = Some(next.map_or(t, |n: SimTime| n.min(t)));
                }
                _ => {}
            }
        }
        self.epoch = self.epoch.wrapping_add(1) & (MEMBER - 1);
        if let Some(t) = next {
            air.wake(t.max(now), self.epoch);
        }
    }

    /// The countdown ended at `now` for some members: they transmit, the others freeze.
    fn countdown<A: MacAir>(&mut self, now: SimTime, air: &mut A) {
        let slot = self.cfg.slot;
        let mut senders = std::mem::take(&mut self.senders);
        senders.clear();
        for (i, m) in self.members.iter().enumerate() {
            if let Phase::Backoff {
                slots,
                from: Some(from),
            } = m.phase
            {
                if now >= from && Member::counted(from, now, slot) >= slots {
                    senders.push(i);
                }
            }
        }
        if senders.is_empty() {
            self.senders = senders;
            self.resume(now, air);
            return;
        }
        if senders.len() > 1 && !self.cfg.collisions {
            // The ablation: one sends, in turn; the others freeze with nothing left to count.
            let winner = senders[self.ties % senders.len()];
            self.ties = self.ties.wrapping_add(1);
            senders.clear();
            senders.push(winner);
        }
        for (i, m) in self.members.iter_mut().enumerate() {
            if senders.contains(&i) {
                continue;
            }
            if let Phase::Backoff { slots, from } = &mut m.phase {
                if let Some(f) = from.take() {
                    if now > f {
                        *slots = slots.saturating_sub(Member::counted(f, now, slot));
                    }
                }
            }
        }
        let collision = senders.len() > 1;
        let mut end = now;
        let mut clean = !collision;
        for &i in &senders {
            let m = &mut self.members[i];
            let Some((port, frame, _)) = m.frame.as_ref() else {
                continue;
            };
            if m.attempt == 1 {
                air.first_retry(now, *port, frame);
            }
            let (airtime, corrupted) = air.attempt(now, *port, frame);
            if corrupted && !collision && self.cfg.header_protection {
                air.header_up(now + airtime, *port, frame);
            }
            m.stats.attempts += 1;
            m.stats.airtime_ns += airtime.as_nanos();
            m.stats.airtime_until_ns = m.stats.airtime_until_ns.max((now + airtime).as_nanos());
            if m.attempt > 0 {
                m.stats.retries += 1;
            }
            m.attempt += 1;
            let data_end = now + airtime;
            if !self.cfg.mac_ack {
                // No ACK: the exchange ends with the frame, received or lost.
                let ok = !collision && !corrupted;
                if collision {
                    m.stats.collisions += 1;
                } else if !ok {
                    m.stats.errors += 1;
                }
                clean &= ok;
                m.phase = Phase::Sending {
                    until: data_end,
                    ok,
                };
                end = end.max(data_end);
                continue;
            }
            // The ACK goes out only for a frame received intact, and may itself be corrupted.
            let acked = !collision && !corrupted;
            let ok = acked && !air.ack_lost(data_end, *port, self.cfg.ack_bits);
            if collision {
                m.stats.collisions += 1;
            } else if !ok {
                m.stats.errors += 1;
            }
            clean &= ok;
            let until = if ok {
                data_end + self.cfg.sifs + self.cfg.ack_time
            } else {
                data_end + self.cfg.ack_timeout()
            };
            m.phase = Phase::Sending { until, ok };
            end = end.max(if acked {
                data_end + self.cfg.sifs + self.cfg.ack_time
            } else {
                data_end
            });
        }
        // Everyone else defers DIFS after a clean exchange, EIFS after a frame heard in error.
        for (i, m) in self.members.iter_mut().enumerate() {
            if !senders.contains(&i) {
                m.defer = if clean {
                    self.cfg.difs()
                } else {
                    self.cfg.eifs()
                };
            }
        }
        self.busy_until = end;
        for &i in &senders {
            if let Phase::Sending { until, .. } = self.members[i].phase {
                air.wake(until, MEMBER | i as u32);
            }
        }
        self.epoch = self.epoch.wrapping_add(1) & (MEMBER - 1);
        air.wake(end, self.epoch);
        self.senders = senders;
    }

    /// Member `i`'s exchange ended at `now`: delivered, retried or dropped.
    fn outcome<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) {
        let cfg = self.cfg;
        let m = &mut self.members[i];
        let Phase::Sending { ok, .. } = m.phase else {
            return;
        };
        m.defer = cfg.difs();
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
        m.phase = if cfg.retry_delay > SimDuration::ZERO {
            Phase::Waiting {
                until: now + cfg.retry_delay,
            }
        } else {
            let slots = m.draw();
            Phase::Backoff { slots, from: None }
        };
    }
}

impl ScanDcf {
    /// Whether a frame is on the air (the network then need not offer it frames).
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        // Always take offers: a member may be empty while the medium is busy.
        false
    }
}

impl<A: MacAir> Medium<A> for ScanDcf {
    fn on_ready(&mut self, now: SimTime, port: PortId, air: &mut A) {
        // Only the port's own member can take its frame; fill only moves a member from Empty
        // to a backoff: resume when it took one.
        let i = self
            .member_of
            .get(port.index())
            .copied()
            .unwrap_or(NO_MEMBER);
        if i != NO_MEMBER && self.fill(now, i as usize, air) {
            self.resume(now, air);
        }
    }

    fn on_wake(&mut self, now: SimTime, tag: u32, air: &mut A) {
        if tag & MEMBER != 0 {
            let i = (tag & !MEMBER) as usize;
            if i < self.members.len() {
                self.outcome(now, i, air);
                self.fill(now, i, air);
                self.resume(now, air);
            }
            return;
        }
        if tag != self.epoch || now < self.busy_until {
            return;
        }
        self.countdown(now, air);
    }
}
