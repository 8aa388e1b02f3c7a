//! Link hiccups: scheduled impairments of one port direction, after the `hiccup` tool of
//! Ludwig2000 §3.3.3 (spec §10.1), used for the delay-spike and reordering experiments of §5.1–
//! §5.2 (spec S8).
//!
//! - [`Hiccup::Hold`]: a delay spike from `at` for `duration`; nothing is lost by the hiccup
//!   itself. Where it acts is its [`Stage`]:
//!   - [`Stage::Link`]: the direction starts no frame. Packets keep queueing in the port's
//!     drop-tail queue (bounded by its limit) and drain at line rate when the hold ends; a
//!     frame already on the wire at `at` completes. A persistent link-layer retransmission
//!     burst or a handover.
//!   - [`Stage::Ip`]: the dissertation's tool, which sat between IP output and the interface
//!     queue (§3.3.3, spec §10.1 DELAY mode): packets handed to the interface during the hold
//!     go into a separate unbounded FIFO while the interface queue keeps draining; at the end
//!     the FIFO is flushed into the interface queue at once, where drop-tail applies (Fig 5-3:
//!     the IFQ may overflow).
//! - [`Hiccup::Reorder`]: one data packet is held back until `length` more data packets have
//!   passed and is sent right after the `length`-th (REORDER(N) of §10.1; Fig 5-4 uses N = 6,
//!   giving 6 duplicate ACKs). Pure ACKs pass without being counted. With [`Stage::Link`] the
//!   packet held is the first that would start transmission at or after `at`; with
//!   [`Stage::Ip`] it is the first handed to the interface at or after `at`, as in the tool.
//!
//! The state here only answers "may this port transmit now", "which packet goes next" and
//! "what happens to a packet handed to the interface"; the network schedules the wake-up at
//! the end of each hold (house rule 5).

use crate::fifo::Fifo;
use crate::packet::{Frame, PacketKind};
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Where a hiccup acts (Ludwig2000 §3.3.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// On the link, as frames start transmission.
    #[default]
    Link,
    /// Between IP output and the interface queue, as packets are handed to the interface.
    Ip,
}

/// One scheduled impairment of a port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hiccup {
    /// Delay everything in `[at, at + duration)`; nothing is lost by the hold itself.
    Hold {
        /// Start of the hold.
        at: SimTime,
        /// Its length.
        duration: SimDuration,
        /// Where it acts.
        stage: Stage,
        /// IP stage only: an intercepted packet is discarded this long after it was handed
        /// over (a link layer of low persistency, Ludwig2000 §4.1.4, Fig 4-4); `None` keeps
        /// everything until the flush (persistency beyond the hold).
        expire: Option<SimDuration>,
    },
    /// Hold back the first data packet due at or after `at` until `length` more have passed.
    Reorder {
        /// Earliest time of the packet to hold back (transmission start or hand-over to the
        /// interface, by stage).
        at: SimTime,
        /// Data packets that overtake it (at least 1).
        length: u32,
        /// Where it acts.
        stage: Stage,
    },
}

/// What happens to a packet handed to an interface with IP-stage hiccups.
// A return value consumed at once, never stored: boxing the packets would only add work.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Admit<F> {
    /// Into the interface queue, followed by a packet held back by a reorder that is now due.
    Pass(F, Option<F>),
    /// Intercepted by a hold (flushed into the queue when it ends).
    Intercepted,
    /// Held back by a reorder.
    HeldBack,
}

/// A packet held back by a reorder hiccup.
#[derive(Clone, Copy, Debug)]
struct Held<F> {
    pkt: F,
    /// Data packets still to pass before it goes.
    remaining: u32,
}

/// The reorders of one stage.
#[derive(Clone, Debug)]
struct Reorders<F> {
    /// `(at, length)` not yet started, sorted by `at`.
    pending: VecDeque<(SimTime, u32)>,
    /// The packet currently held back.
    held: Option<Held<F>>,
}

impl<F: Frame> Reorders<F> {
    fn new(mut list: Vec<(SimTime, u32)>) -> Self {
        list.sort_by_key(|&(at, _)| at);
        Reorders {
            pending: list.into(),
            held: None,
        }
    }

    /// Whether no reorder is pending or holding a packet: every packet passes untouched.
    fn idle(&self) -> bool {
        self.held.is_none() && self.pending.is_empty()
    }

    /// Whether the held-back packet is due (it goes next).
    fn release_due(&self) -> bool {
        matches!(self.held, Some(Held { remaining: 0, .. }))
    }

    /// Pass data packet `pkt` at `now` through the reorder: `None` if it is the one held back
    /// now; otherwise `pkt`, counted against the held one.
    fn pass(&mut self, now: SimTime, pkt: F) -> Option<F> {
        if let Some(h) = self.held.as_mut() {
            h.remaining -= 1;
            return Some(pkt);
        }
        match self.pending.front() {
            Some(&(at, length)) if at <= now => {
                self.pending.pop_front();
                self.held = Some(Held {
                    pkt,
                    remaining: length,
                });
                None
            }
            _ => Some(pkt),
        }
    }

    /// The held-back packet, if it is due.
    fn take_due(&mut self) -> Option<F> {
        if self.release_due() {
            self.held.take().map(|h| h.pkt)
        } else {
            None
        }
    }
}

/// The hiccup state of one port, over what its queue holds (handles on pooled packets in the
/// network, packets themselves in tests).
#[derive(Clone, Debug)]
pub(crate) struct Hiccups<F> {
    /// Link-stage hold windows `[start, end)`, sorted by start.
    holds: Vec<(SimTime, SimTime)>,
    /// IP-stage hold windows `[start, end)` with their expiry, sorted by start.
    ip_holds: Vec<(SimTime, SimTime, Option<SimDuration>)>,
    /// Packets an IP-stage hold intercepted, in order, with the instant each expires.
    intercepted: VecDeque<(F, Option<SimTime>)>,
    /// Link-stage reorders.
    reorders: Reorders<F>,
    /// IP-stage reorders.
    ip_reorders: Reorders<F>,
}

impl<F: Frame> Hiccups<F> {
    /// The state for `list` (any order; equal times keep their order).
    pub(crate) fn new(list: &[Hiccup]) -> Self {
        let (mut holds, mut ip_holds) = (Vec::new(), Vec::new());
        let (mut reorders, mut ip_reorders) = (Vec::new(), Vec::new());
        for h in list {
            match *h {
                Hiccup::Hold {
                    at,
                    duration,
                    stage,
                    expire,
                } => match stage {
                    Stage::Link => holds.push((at, at + duration)),
                    Stage::Ip => ip_holds.push((at, at + duration, expire)),
                },
                Hiccup::Reorder { at, length, stage } => match stage {
                    Stage::Link => reorders.push((at, length.max(1))),
                    Stage::Ip => ip_reorders.push((at, length.max(1))),
                },
            }
        }
        holds.sort_by_key(|&(s, _)| s);
        ip_holds.sort_by_key(|&(s, _, _)| s);
        Hiccups {
            holds,
            ip_holds,
            intercepted: VecDeque::new(),
            reorders: Reorders::new(reorders),
            ip_reorders: Reorders::new(ip_reorders),
        }
    }

    /// The instants at which a hold of either stage ends (the network wakes the port then).
    pub(crate) fn hold_ends(&self) -> impl Iterator<Item = SimTime> + '_ {
        let ip = self.ip_holds.iter().map(|&(_, e, _)| e);
        self.holds.iter().map(|&(_, e)| e).chain(ip)
    }

    /// Whether no IP-stage hiccup is left: [`Hiccups::admit`] passes every packet untouched
    /// (most ports; the caller skips it, moving the packet once instead of through `Admit`).
    pub(crate) fn ip_idle(&self) -> bool {
        self.ip_holds.is_empty() && self.ip_reorders.idle()
    }

    /// Whether no link-stage hiccup is set: no hold ever blocks the port and the queue's order
    /// is kept ([`Hiccups::blocked`] is false, [`Hiccups::next`] pops the queue).
    pub(crate) fn link_idle(&self) -> bool {
        self.holds.is_empty() && self.reorders.idle()
    }

    /// A packet handed to the interface at `now` (IP stage): intercepted by a hold, held back
    /// by a reorder, or passed on to the queue (with a held-back packet now due after it).
    pub(crate) fn admit(&mut self, now: SimTime, pkt: F) -> Admit<F> {
        if let Some(&(_, _, expire)) = self.ip_hold_at(now) {
            self.intercepted.push_back((pkt, expire.map(|x| now + x)));
            return Admit::Intercepted;
        }
        if pkt.kind() == PacketKind::Ack {
            return Admit::Pass(pkt, None);
        }
        match self.ip_reorders.pass(now, pkt) {
            Some(pkt) => Admit::Pass(pkt, self.ip_reorders.take_due()),
            None => Admit::HeldBack,
        }
    }

    fn ip_hold_at(&self, now: SimTime) -> Option<&(SimTime, SimTime, Option<SimDuration>)> {
        self.ip_holds.iter().find(|&&(s, e, _)| s <= now && now < e)
    }

    /// The packets intercepted by IP-stage holds that have not expired, if no hold is still
    /// active at `now` (the flush at the end of a hold, in the order they were handed over),
    /// and how many expired. Nothing leaves the FIFO during a hold, so discarding the expired
    /// ones at the flush is the same as discarding each at its own deadline. Each expired
    /// packet is handed to `discard`.
    pub(crate) fn release_intercepted(
        &mut self,
        now: SimTime,
        mut discard: impl FnMut(F),
    ) -> (Vec<F>, u64) {
        if self.ip_hold_at(now).is_some() {
            return (Vec::new(), 0);
        }
        let all = std::mem::take(&mut self.intercepted);
        let mut kept = Vec::with_capacity(all.len());
        let mut expired = 0;
        for (p, exp) in all {
            if exp.is_none_or(|x| x > now) {
                kept.push(p);
            } else {
                discard(p);
                expired += 1;
            }
        }
        (kept, expired)
    }

    /// Whether a hold forbids starting a frame at `now`.
    pub(crate) fn blocked(&self, now: SimTime) -> bool {
        self.holds.iter().any(|&(s, e)| s <= now && now < e)
    }

    /// Whether a packet held back by a link-stage reorder is due (it goes before anything
    /// queued).
    pub(crate) fn release_due(&self) -> bool {
        self.reorders.release_due()
    }

    /// The packet to transmit at `now`, taken from `queue` unless a held-back one is due.
    /// Holds are not checked here (see [`Hiccups::blocked`]).
    pub(crate) fn next(&mut self, now: SimTime, queue: &mut Fifo<F>) -> Option<F> {
        // Fast path (most ports, and after the last reorder): the queue's order.
        if self.reorders.idle() {
            return queue.pop_front();
        }
        if let Some(pkt) = self.reorders.take_due() {
            return Some(pkt);
        }
        loop {
            let pkt = queue.pop_front()?;
            if pkt.kind() == PacketKind::Ack {
                return Some(pkt);
            }
            if let Some(pkt) = self.reorders.pass(now, pkt) {
                return Some(pkt);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;

    fn pkt(uid: u64, len: u32) -> Packet {
        crate::packet::test_packet(uid, len)
    }

    fn t(s: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_secs(s)
    }

    #[test]
    fn hold_blocks_its_window_only() {
        let h: Hiccups<Packet> = Hiccups::new(&[Hiccup::Hold {
            at: t(30),
            duration: SimDuration::from_secs(13),
            stage: Stage::Link,
            expire: None,
        }]);
        assert!(!h.blocked(t(29)));
        assert!(h.blocked(t(30)));
        assert!(h.blocked(t(42)));
        assert!(!h.blocked(t(43)));
        assert_eq!(h.hold_ends().collect::<Vec<_>>(), vec![t(43)]);
    }

    #[test]
    fn reorder_sends_the_held_packet_after_length_others() {
        let mut h: Hiccups<Packet> = Hiccups::new(&[Hiccup::Reorder {
            at: t(10),
            length: 3,
            stage: Stage::Link,
        }]);
        let mut q: Fifo<Packet> = (0..6).map(|i| pkt(i, 100)).collect();
        // Before `at` nothing is held.
        assert_eq!(h.next(t(9), &mut q).map(|p| p.uid), Some(0));
        let mut order = Vec::new();
        while let Some(p) = h.next(t(10), &mut q) {
            order.push(p.uid);
        }
        assert_eq!(order, vec![2, 3, 4, 1, 5]);
        // One reorder only.
        q.push_back(pkt(6, 100));
        q.push_back(pkt(7, 100));
        assert_eq!(h.next(t(11), &mut q).map(|p| p.uid), Some(6));
    }

    #[test]
    fn acks_pass_uncounted_and_the_held_packet_waits_for_data() {
        let mut h: Hiccups<Packet> = Hiccups::new(&[Hiccup::Reorder {
            at: t(0),
            length: 1,
            stage: Stage::Link,
        }]);
        let mut q: Fifo<Packet> = [pkt(0, 100), pkt(1, 0)].into();
        assert_eq!(h.next(t(1), &mut q).map(|p| p.uid), Some(1));
        assert_eq!(
            h.next(t(1), &mut q),
            None,
            "held until one data packet passes"
        );
        assert!(!h.release_due());
        q.push_back(pkt(2, 100));
        assert_eq!(h.next(t(2), &mut q).map(|p| p.uid), Some(2));
        assert!(h.release_due());
        assert_eq!(h.next(t(2), &mut q).map(|p| p.uid), Some(0));
    }

    fn uids(a: Admit<Packet>) -> (Option<u64>, Option<u64>) {
        match a {
            Admit::Pass(p, r) => (Some(p.uid), r.map(|r| r.uid)),
            Admit::Intercepted | Admit::HeldBack => (None, None),
        }
    }

    #[test]
    fn an_ip_stage_hold_intercepts_and_releases_in_order_at_its_end() {
        let mut h: Hiccups<Packet> = Hiccups::new(&[Hiccup::Hold {
            at: t(30),
            duration: SimDuration::from_secs(13),
            stage: Stage::Ip,
            expire: None,
        }]);
        // The link is never blocked by an IP-stage hold; its end still wakes the port.
        assert!(!h.blocked(t(35)));
        assert_eq!(h.hold_ends().collect::<Vec<_>>(), vec![t(43)]);
        assert_eq!(uids(h.admit(t(29), pkt(0, 100))), (Some(0), None));
        assert!(matches!(h.admit(t(30), pkt(1, 100)), Admit::Intercepted));
        assert!(
            matches!(h.admit(t(31), pkt(2, 0)), Admit::Intercepted),
            "ACKs too"
        );
        assert!(
            h.release_intercepted(t(42), |_| {}).0.is_empty(),
            "still holding"
        );
        let (out, expired) = h.release_intercepted(t(43), |_| {});
        assert_eq!(out.iter().map(|p| p.uid).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(expired, 0);
        assert_eq!(uids(h.admit(t(43), pkt(3, 100))), (Some(3), None));
    }

    #[test]
    fn an_expiring_hold_discards_what_waited_longer_than_the_expiry() {
        let mut h: Hiccups<Packet> = Hiccups::new(&[Hiccup::Hold {
            at: t(10),
            duration: SimDuration::from_secs(23),
            stage: Stage::Ip,
            expire: Some(SimDuration::from_millis(500)),
        }]);
        for (uid, at) in [(1, t(10)), (2, t(20)), (3, SimTime(t(33).0 - 400_000_000))] {
            assert!(matches!(h.admit(at, pkt(uid, 0)), Admit::Intercepted));
        }
        let (out, expired) = h.release_intercepted(t(33), |_| {});
        assert_eq!(out.iter().map(|p| p.uid).collect::<Vec<_>>(), vec![3]);
        assert_eq!(expired, 2);
    }

    #[test]
    fn an_ip_stage_reorder_releases_the_held_packet_behind_the_length_th() {
        let mut h: Hiccups<Packet> = Hiccups::new(&[Hiccup::Reorder {
            at: t(10),
            length: 2,
            stage: Stage::Ip,
        }]);
        assert_eq!(uids(h.admit(t(9), pkt(0, 100))), (Some(0), None));
        assert!(matches!(h.admit(t(10), pkt(1, 100)), Admit::HeldBack));
        assert_eq!(
            uids(h.admit(t(10), pkt(2, 0))),
            (Some(2), None),
            "ACK uncounted"
        );
        assert_eq!(uids(h.admit(t(11), pkt(3, 100))), (Some(3), None));
        assert_eq!(uids(h.admit(t(11), pkt(4, 100))), (Some(4), Some(1)));
        assert_eq!(uids(h.admit(t(12), pkt(5, 100))), (Some(5), None), "once");
        // The link-stage path is untouched by an IP-stage reorder.
        let mut q: Fifo<Packet> = [pkt(6, 100)].into();
        assert_eq!(h.next(t(12), &mut q).map(|p| p.uid), Some(6));
    }

    proptest::proptest! {
        /// Every packet handed to the interface comes out exactly once (passed, released
        /// behind the reorder, flushed at a hold's end) or is counted expired, or is the one
        /// packet still held back by a reorder.
        #[test]
        fn ip_stage_hiccups_lose_and_duplicate_nothing(
            gaps in proptest::collection::vec(0u64..400, 1..80),
            acks in proptest::collection::vec(proptest::bool::ANY, 80),
            hold_at in 0u64..5_000, hold_len in 1u64..5_000, expire in proptest::option::of(1u64..3_000),
            reorder_at in 0u64..10_000, length in 1u32..8,
        ) {
            let ms = |m: u64| SimTime(m * 1_000_000);
            let mut h: Hiccups<Packet> = Hiccups::new(&[
                Hiccup::Hold {
                    at: ms(hold_at),
                    duration: SimDuration::from_millis(hold_len),
                    stage: Stage::Ip,
                    expire: expire.map(SimDuration::from_millis),
                },
                Hiccup::Reorder { at: ms(reorder_at), length, stage: Stage::Ip },
            ]);
            let end = ms(hold_at + hold_len);
            let (mut out, mut expired, mut now, mut released) = (Vec::new(), 0u64, 0u64, false);
            for (k, gap) in gaps.iter().enumerate() {
                now += gap;
                if !released && ms(now) >= end {
                    let (kept, x) = h.release_intercepted(end, |_| {});
                    out.extend(kept.iter().map(|p| p.uid));
                    expired += x;
                    released = true;
                }
                let p = pkt(k as u64, if acks[k] { 0 } else { 100 });
                match h.admit(ms(now), p) {
                    Admit::Pass(p, r) => {
                        out.push(p.uid);
                        out.extend(r.map(|r| r.uid));
                    }
                    Admit::Intercepted | Admit::HeldBack => {}
                }
            }
            if !released {
                let (kept, x) = h.release_intercepted(end.max(ms(now + 1)), |_| {});
                out.extend(kept.iter().map(|p| p.uid));
                expired += x;
            }
            let held = u64::from(h.ip_reorders.held.is_some());
            let mut sorted = out.clone();
            sorted.sort_unstable();
            sorted.dedup();
            proptest::prop_assert_eq!(sorted.len(), out.len(), "a packet came out twice");
            proptest::prop_assert_eq!(out.len() as u64 + expired + held, gaps.len() as u64);
        }
    }
}
