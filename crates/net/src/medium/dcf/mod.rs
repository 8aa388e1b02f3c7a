//! The IEEE 802.11 DCF as a cell's medium (IEEE Std 802.11-1999 §9.2, 802.11b clause 18
//! timing; eln-llelsn spec §8.2, "minimal faithful DCF", Option A): one collision domain, basic
//! access (no RTS/CTS), no fragmentation, no capture.
//!
//! Members are the cell's nodes: the access point (its ports towards every station, served in
//! turn) and each station (its port towards the access point). A member with a frame draws a
//! backoff of U[0, CW] slots from its own named stream; counters run only while the medium has
//! been idle for DIFS (EIFS after a frame the member heard corrupted or in a collision) and are
//! frozen while it is busy. Members whose counters reach zero in the same slot transmit together:
//! a collision, every frame lost. A frame alone on the air is received unless the error model of
//! its link direction corrupts it; the receiver answers after SIFS with a MAC ACK (which the
//! reverse direction's error model may corrupt). Without an ACK the sender waits out its ACK
//! timeout, doubles CW (up to CWmax) and retries, after `retry_delay` with its queue head
//! blocked (or, with `retry_delay_blocks` off, set aside while the frames behind it go, and
//! retried first once the delay is over); after `retry_limit` attempts in all (ns-2's semantics: the limit counts attempts) it
//! drops the frame, reported through [`Air::discard`], and resets CW. Success resets CW too and
//! is followed by a fresh backoff (post-backoff).
//!
//! With A-MPDU limits (802.11n/ac, `Dcf::set_ampdu`) a member sends A-MPDUs answered by a
//! Block Ack instead of one frame and its ACK per access (crate::medium::dcf::ampdu); the
//! contention is the same.
//!
//! Deliberate simplifications, each a common one in analytical and ns-2 models: a frame that
//! arrives at an idle member waits DIFS and its backoff like any other (no immediate access after
//! a long idle period); a member joining a countdown starts counting at the next slot boundary
//! after its DIFS; the access point serves its per-station queues in turn, or (`ap_queue =
//! shared`, crate::ifq) the one FIFO they make together, ns-2's interface queue: the port whose
//! head packet arrived first.

use super::{MacAir, Medium};
use config::Timing;
pub use config::{AmpduLimits, DcfConfig, DcfStats, McsKey};
pub use delays::Delays;
use engine::{PortId, RngStream, SimDuration, SimTime};
use member::{Member, Phase};
use set::{Bits, MemberSet};
use wifi::CellWifi;

mod aggregating;
pub mod airtime;
pub mod ampdu;
mod config;
mod delays;
mod member;
pub mod minstrel;
pub mod nist;
mod outcome;
pub mod phy;
mod reorder;
mod set;
pub mod snr;
mod take;
mod wifi;

/// Wake-up tags: an exchange's outcome carries its member (high bit set); everything else the
/// epoch of the schedule it belongs to, so that a stale one is ignored.
const MEMBER: u32 = 1 << 31;
/// Wake-up tag bit of a frame set aside whose retry delay is over (its member in the low bits).
const ASIDE: u32 = 1 << 30;
/// The bits of an epoch tag.
const EPOCH: u32 = ASIDE - 1;
/// Wake-up tag of a member's reorder timeout (crate::medium::dcf::reorder; member low bits).
const REORDER: u32 = MEMBER | ASIDE;

/// `Dcf::member_of` for a port that is not the cell's.
const NO_MEMBER: u32 = u32::MAX;

/// The DCF medium of a cell.
pub(crate) struct Dcf {
    cfg: DcfConfig,
    /// DIFS, EIFS and the ACK's intervals, from `cfg`.
    tm: Timing,
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
    ties: u32,
    /// The members counting down (`Phase::Backoff` with `from`), and the earliest end of their
    /// countdowns: a wake-up visits only the members it concerns (crate::medium::dcf::set).
    counting: MemberSet,
    counting_end: Option<SimTime>,
    /// The members whose counters are frozen or not yet started (`Phase::Backoff` without
    /// `from`).
    frozen: MemberSet,
    /// The members waiting out a retry delay (`Phase::Waiting`).
    waiting: MemberSet,
    /// The deferral every member that did not send took at the last countdown that had
    /// senders (DIFS after a clean exchange, EIFS after one heard in error), and how many such
    /// countdowns there have been (`Member::defer_at`): set once, not member by member.
    defer: SimDuration,
    exchanges: u64,
    /// Per-port ACK times of the ports' PHY modes and the access point's airtime scheduler
    /// (wifi::CellWifi), boxed: `None` for a cell without either (802.11b, frames in
    /// turn), and the medium enum stays small.
    wifi: Option<Box<CellWifi>>,
}

impl Dcf {
    /// A DCF over `members` (each a list of ports and its random stream).
    pub(crate) fn new(cfg: DcfConfig, members: Vec<(Vec<PortId>, RngStream)>) -> Self {
        let mut member_of = Vec::new();
        for (i, (ports, _)) in members.iter().enumerate() {
            for &p in ports {
                Self::set_member(&mut member_of, p, i);
            }
        }
        let mut d = Dcf {
            cfg,
            tm: Timing::of(&cfg),
            member_of,
            senders: Vec::new(),
            ties: 0,
            counting: MemberSet::default(),
            counting_end: None,
            frozen: MemberSet::default(),
            waiting: MemberSet::default(),
            defer: cfg.difs(),
            exchanges: 0,
            members: members
                .into_iter()
                .map(|(ports, rng)| Member {
                    ports,
                    next_port: 0,
                    frame: None,
                    aside: Vec::new(),
                    cw: cfg.cw_min,
                    attempt: 0,
                    phase: Phase::Empty,
                    defer: cfg.difs(),
                    defer_at: 0,
                    rng,
                    stats: DcfStats::default(),
                    agg: None,
                })
                .collect(),
            busy_until: SimTime::ZERO,
            epoch: 0,
            wifi: None,
        };
        d.grow_sets();
        d
    }

    /// A link of the cell: the access point's port joins member 0, the station's port becomes
    /// a member of its own drawing from `rng`.
    pub(crate) fn add_link(&mut self, ap_port: PortId, sta_port: PortId, rng: RngStream) {
        self.members[0].ports.push(ap_port);
        if let Some(a) = self.members[0].agg.as_deref_mut() {
            a.sessions.push(ampdu::Session::default());
        }
        Self::set_member(&mut self.member_of, ap_port, 0);
        Self::set_member(&mut self.member_of, sta_port, self.members.len());
        let cfg = self.cfg;
        let aggregates = self.ampdu_limits().is_some();
        self.members.push(Member {
            ports: vec![sta_port],
            next_port: 0,
            frame: None,
            aside: Vec::new(),
            cw: cfg.cw_min,
            attempt: 0,
            phase: Phase::Empty,
            defer: cfg.difs(),
            defer_at: self.exchanges,
            rng,
            stats: DcfStats::default(),
            agg: aggregates.then(|| {
                let mut a = Box::<ampdu::Agg>::default();
                a.sessions.push(ampdu::Session::default());
                a
            }),
        });
        self.grow_sets();
    }

    /// Each member's counters, in member order (its recipients' reorder counters added).
    pub(crate) fn stats(&self) -> Vec<DcfStats> {
        self.members.iter().map(aggregating::stats).collect()
    }

    /// Member `i`, if it has no frame, takes one from its ports (in turn, from the one after
    /// the port served last) and draws a backoff; returns whether it did. A member is offered
    /// frames when one of its ports reports one (`on_ready`) and when its exchange ends, so an
    /// empty member never has a frame waiting that it could take.
    /// The check is inlined into the callers: most offers find the member busy with a frame.
    #[inline(always)]
    fn fill<A: MacAir>(&mut self, now: SimTime, i: usize, air: &mut A) -> bool {
        let m = &self.members[i];
        if m.frame.is_some() || !matches!(m.phase, Phase::Empty) {
            return false;
        }
        self.take_frame(now, i, air)
    }

    /// The medium is idle at `now`: members whose wait ended rejoin, frozen counters start
    /// again after each member's deferral (IEEE 802.11-1999 §9.2.5.2: a backoff counts only
    /// while the medium has been idle for DIFS, or EIFS after an error, §9.2.3.4); then the
    /// next event is scheduled. Counters already running keep their end (`counting_end`), so
    /// only the waiting and frozen members are visited, in member order.
    fn resume<A: MacAir>(&mut self, now: SimTime, air: &mut A) {
        if now < self.busy_until {
            return;
        }
        let slot = self.cfg.slot;
        let Dcf {
            members,
            counting,
            counting_end,
            frozen,
            waiting,
            defer,
            exchanges,
            ..
        } = self;
        let mut next_wait: Option<SimTime> = None;
        for w in 0..waiting.words() {
            let mut done = 0;
            for b in Bits(waiting.word(w)) {
                let m = &mut members[64 * w + b];
                if let Phase::Waiting { until } = m.phase {
                    if until <= now {
                        let slots = m.draw();
                        m.phase = Phase::Backoff { slots, from: None };
                        done |= 1 << b;
                    } else {
                        next_wait = Some(next_wait.map_or(until, |n: SimTime| n.min(until)));
                    }
                }
            }
            if done != 0 {
                waiting.remove_word(w, done);
                frozen.add_word(w, done);
            }
        }
        let mut end = *counting_end;
        for w in 0..frozen.words() {
            let bits = frozen.take_word(w);
            if bits == 0 {
                continue;
            }
            counting.add_word(w, bits);
            for b in Bits(bits) {
                let m = &mut members[64 * w + b];
                let d = if m.defer_at == *exchanges {
                    m.defer
                } else {
                    *defer
                };
                if let Phase::Backoff { slots, from } = &mut m.phase {
                    let start = *from.get_or_insert(now + d);
                    let t = start + slot.saturating_mul(u64::from(*slots));
                    end = Some(end.map_or(t, |n: SimTime| n.min(t)));
                }
            }
        }
        *counting_end = end;
        let next = match (end, next_wait) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.epoch = self.epoch.wrapping_add(1) & EPOCH;
        if let Some(t) = next {
            air.wake(t.max(now), self.epoch);
        }
    }

    /// The countdown ended at `now` for some members: they transmit, the others freeze.
    fn countdown<A: MacAir>(&mut self, now: SimTime, air: &mut A) {
        let slot = self.cfg.slot;
        self.senders.clear();
        // Only counting members can end their countdown (§9.2.5.2: transmit when the backoff
        // timer reaches zero).
        for w in 0..self.counting.words() {
            for b in Bits(self.counting.word(w)) {
                let i = 64 * w + b;
                if let Phase::Backoff {
                    slots,
                    from: Some(from),
                } = self.members[i].phase
                {
                    if now >= from && Member::counted(from, now, slot) >= slots {
                        self.senders.push(i);
                    }
                }
            }
        }
        if self.senders.is_empty() {
            self.resume(now, air);
            return;
        }
        if self.senders.len() > 1 && !self.cfg.collisions {
            // The ablation: one sends, in turn; the others freeze with nothing left to count.
            let winner = self.senders[self.ties as usize % self.senders.len()];
            self.ties = self.ties.wrapping_add(1);
            self.senders.clear();
            self.senders.push(winner);
        }
        let collision = self.senders.len() > 1;
        let mut end = now;
        let mut clean = !collision;
        for &i in &self.senders {
            let m = &mut self.members[i];
            let sent = match self.wifi.as_deref() {
                Some(w) if w.ampdu.is_some() => {
                    aggregating::send(m, w, &self.cfg, (now, collision), air)
                }
                _ => None,
            };
            if let Some(a) = sent {
                // An A-MPDU and its Block Ack (crate::medium::dcf::ampdu).
                if let Some(s) = self.wifi.as_mut().and_then(|w| w.sched.as_mut()) {
                    if i == 0 {
                        s.charge(a.k, a.airtime);
                    } else if a.any_intact {
                        s.charge(i - 1, a.airtime);
                    }
                }
                clean &= a.ok;
                m.phase = Phase::Sending {
                    until: a.until,
                    ok: a.ok,
                };
                end = end.max(a.busy_end);
                continue;
            }
            let Some((port, frame, _)) = m.frame.as_ref() else {
                continue;
            };
            if m.attempt == 1 {
                air.first_retry(now, *port, frame);
            }
            let adapted = Self::adapt(
                self.wifi.as_deref(),
                &self.cfg,
                (now, *port, m.attempt),
                frame,
                air,
            );
            let (airtime, corrupted) = air.attempt(now, *port, frame);
            if let Some(s) = self.wifi.as_mut().and_then(|w| w.sched.as_mut()) {
                // TX airtime of the access point's attempts to its station; RX airtime of a
                // station's frame the access point received (crate::medium::dcf::airtime).
                if i == 0 {
                    s.charge(m.next_port_of(*port), airtime);
                } else if !collision && !corrupted {
                    s.charge(i - 1, airtime);
                }
            }
            if corrupted && !collision && self.cfg.header_protection {
                air.header_up(now + airtime, *port, frame);
            }
            m.stats.attempts += 1;
            // The mode sent in: the rate control's, else the member's configured one.
            m.stats.count_ppdu(match adapted {
                Some((_, _, mode)) => wifi::mcs_key(mode),
                None => self.wifi.as_deref().and_then(|w| w.mcs_of(*port)),
            });
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
            let (sifs_ack, ack_timeout) = adapted.map_or_else(
                || Self::ack_of(self.wifi.as_deref(), &self.tm, *port),
                |(a, t, _)| (a, t),
            );
            let ok = acked && !air.ack_lost(data_end, *port, self.cfg.ack_bits);
            if adapted.is_some() {
                air.rate_report(now, *port, (1, u32::from(ok)));
            }
            if collision {
                m.stats.collisions += 1;
            } else if !ok {
                m.stats.errors += 1;
            }
            clean &= ok;
            let until = if ok {
                data_end + sifs_ack
            } else {
                data_end + ack_timeout
            };
            m.phase = Phase::Sending { until, ok };
            end = end.max(if acked { data_end + sifs_ack } else { data_end });
        }
        // Everyone else freezes its counter with the slots it has left (§9.2.5.2: the backoff
        // timer is suspended while the medium is busy) and defers DIFS after a clean exchange,
        // EIFS after a frame heard in error (§9.2.3.4). The senders keep their own deferral:
        // it is made theirs before the cell's changes. Only the counting members have counters
        // to freeze; `senders` is in member order.
        for &i in &self.senders {
            let m = &mut self.members[i];
            if m.defer_at != self.exchanges {
                m.defer = self.defer;
            }
        }
        self.exchanges += 1;
        self.defer = if clean { self.tm.difs } else { self.tm.eifs };
        let mut next_sender = 0;
        let mut end_counting: Option<SimTime> = None;
        for w in 0..self.counting.words() {
            let bits = self.counting.take_word(w);
            let (mut stopped, mut still) = (0, 0);
            for b in Bits(bits) {
                let i = 64 * w + b;
                let m = &mut self.members[i];
                if self.senders.get(next_sender) == Some(&i) {
                    next_sender += 1;
                    m.defer_at = self.exchanges;
                    // A sender is on the air now; one with no frame (none has) counts on.
                    if let Phase::Backoff {
                        slots,
                        from: Some(f),
                    } = m.phase
                    {
                        still |= 1 << b;
                        let t = f + slot.saturating_mul(u64::from(slots));
                        end_counting = Some(end_counting.map_or(t, |n: SimTime| n.min(t)));
                    }
                    continue;
                }
                if let Phase::Backoff { slots, from } = &mut m.phase {
                    if let Some(f) = from.take() {
                        if now > f {
                            *slots = slots.saturating_sub(Member::counted(f, now, slot));
                        }
                    }
                }
                stopped |= 1 << b;
            }
            self.frozen.add_word(w, stopped);
            self.counting.add_word(w, still);
        }
        self.counting_end = end_counting;
        self.busy_until = end;
        for &i in &self.senders {
            if let Phase::Sending { until, .. } = self.members[i].phase {
                air.wake(until, MEMBER | i as u32);
            }
        }
        self.epoch = self.epoch.wrapping_add(1) & EPOCH;
        air.wake(end, self.epoch);
    }

    /// Whether the wake-up `tag` due at `now` is one [`Medium::on_wake`] ignores: a countdown's
    /// from a schedule a later one replaced (each member that joins, and each exchange,
    /// reschedules), or one due while the medium is busy (a countdown frozen by a frame on the
    /// air, §9.2.5.2). Most of a cell's countdown wake-ups are: the network asks before it
    /// calls the medium out of line.
    #[inline(always)]
    pub(crate) fn ignores(&self, now: SimTime, tag: u32) -> bool {
        tag & (MEMBER | ASIDE) == 0 && (tag != self.epoch || now < self.busy_until)
    }
}

impl Dcf {
    /// Whether a frame is on the air (the network then need not offer it frames).
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        // Always take offers: a member may be empty while the medium is busy.
        false
    }
}

impl<A: MacAir> Medium<A> for Dcf {
    fn on_ready(&mut self, now: SimTime, port: PortId, air: &mut A) {
        // Only the port's own member can take its frame; fill only moves a member from Empty
        // to a backoff: resume when it took one.
        let i = self
            .member_of
            .get(port.index())
            .copied()
            .unwrap_or(NO_MEMBER);
        if i == 0 {
            if let Some(s) = self.wifi.as_mut().and_then(|w| w.sched.as_mut()) {
                s.activate(self.members[0].next_port_of(port));
            }
        }
        if i != NO_MEMBER && self.fill(now, i as usize, air) {
            self.resume(now, air);
        }
    }

    fn on_wake(&mut self, now: SimTime, tag: u32, air: &mut A) {
        if tag & REORDER == REORDER {
            if let Some(m) = self.members.get_mut((tag & EPOCH) as usize) {
                aggregating::reorder_timeout(m, now, air, tag);
            }
            return;
        }
        if tag & ASIDE != 0 {
            // A frame's retry delay is over: an empty member takes it now; a busy one after
            // its exchange.
            let i = (tag & EPOCH) as usize;
            if i < self.members.len() && self.fill(now, i, air) {
                self.resume(now, air);
            }
            return;
        }
        if tag & MEMBER != 0 {
            let i = (tag & !MEMBER) as usize;
            if i < self.members.len() {
                self.outcome(now, i, air);
                self.fill(now, i, air);
                self.resume(now, air);
            }
            return;
        }
        if self.ignores(now, tag) {
            return;
        }
        self.countdown(now, air);
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod oracle;

#[cfg(test)]
mod diff_tests;
