//! Ports: one direction of a link, a drop-tail queue (or a queue discipline of crate::aqm), a propagation delay, an error model and
//! counters. A port transmits on a medium (crate::medium), which decides when: a full-duplex
//! link has one medium per port, a half-duplex hop one shared by both ports, a cell one shared
//! by all its links' ports.
//!
//! Airtime of a frame = the medium's access wait + per-frame fixed time + (framing + IP
//! bytes)·8 / rate.

use crate::account::Fate;
use crate::aqm::{Aqm, QueueStats};
use crate::config::{DirectionConfig, Exposure, HopRole};
use crate::delivery::DeliveryState;
use crate::error_model::ErrorModel;
use crate::fifo::Fifo;
use crate::hiccup::{Admit, Hiccups};
use crate::medium::Arrival;
use crate::packet::{FrameClass, Head, Packet, PacketPool, PacketRef};
use engine::{HopId, NodeId, PortId, RngStream, SimDuration, SimTime};

mod ifq;
mod stats;
mod wlan;

pub use stats::PortStats;

/// One direction of a hop.
pub struct Port {
    /// This port's id.
    pub id: PortId,
    /// The other direction of the same link (where link-level answers go back).
    pub peer: PortId,
    /// The hop it belongs to.
    pub hop: HopId,
    /// Role of the hop.
    pub role: HopRole,
    /// Transmitting node.
    pub from: NodeId,
    /// Receiving node.
    pub to: NodeId,
    /// Index of the medium it transmits on (crate::medium).
    pub medium: usize,
    pub(crate) cfg: DirectionConfig,
    /// Handles on the queued packets (in the network's [`PacketPool`]).
    pub(crate) queue: Fifo<PacketRef>,
    /// The frame whose transmission started and is not yet sent completely, with whether it is
    /// corrupted: a port has at most one on the air (a medium takes the next frame only after
    /// reporting the last one sent). Once sent it propagates in its `Event::Arrive`, which
    /// carries it (crate::network), so frames on the wire cost no ring here.
    pub(crate) on_air: Option<(PacketRef, Arrival)>,
    pub(crate) error: ErrorModel,
    /// The SNR channel of a DCF cell member's direction (crate::medium::dcf::snr), which then
    /// draws the frame errors instead of `error`; out of line, most ports have none.
    pub(crate) wlan: Option<Box<crate::medium::dcf::snr::Wlan>>,
    /// Whether a corrupted TCP frame's header was hit (HACK identification, drawn only for
    /// receivers that identify by the header: other runs make no draw from it).
    pub(crate) header_rng: RngStream,
    /// Where the direction is in its delivery-opportunity trace, if it has one.
    delivery: Option<DeliveryState>,
    pub(crate) hiccups: Hiccups<PacketRef>,
    /// Counters.
    pub stats: PortStats,
    /// A base-station agent runs on `from` (set with the agent): the one check the hot path
    /// makes before it looks for one (crate::network::agents).
    pub(crate) agent_from: bool,
    /// A base-station agent runs on `to`, or a split proxy on any node (set with the agent or
    /// the proxy): the one check an arrival makes before it looks for either.
    pub(crate) intercept_to: bool,
    /// Nanoseconds per bit when the rate divides a second exactly (0 otherwise): a frame's
    /// time on the air is then a product, without `SimDuration::for_bits`'s division.
    ns_per_bit: u64,
    /// A queue discipline other than drop-tail (crate::aqm) with its counters; the port's
    /// `queue` then stays empty. Out of line: most ports have none.
    pub(crate) aqm: Option<Box<Discipline>>,
    /// No queue discipline, no CW marking, no IP-stage hiccup and no processing jitter at the
    /// sending node (crate::jitter): [`Port::offer`] is the drop-tail enqueue and IP output
    /// needs no other look. Set at construction (the network clears it for a node's jitter):
    /// one check per packet instead of one per feature (callgrind, docs/performance.md).
    pub(crate) plain_offer: bool,
    /// No queue discipline and no link-stage hiccup: the next frame is the queue's head.
    pub(crate) plain_take: bool,
    /// The access point's shared interface queue this port's queue is part of (crate::ifq),
    /// by index in the network's list; `None`: its own queue.
    pub(crate) ifq: Option<u32>,
    /// With `ifq`: the group's arrival stamp of each queued packet and the time it was queued
    /// (`SimTime::MAX`: not timed, a link ACK), in queue order.
    pub(crate) stamps: Fifo<(u64, SimTime)>,
    /// The bytes beyond the IP packet the error model sees (`cfg.exposure`: the framing, or
    /// none); `None`: the payload only. Set at construction, one test per frame.
    exposed_beyond_ip: Option<u32>,
}

/// A port's queue discipline and its counters.
pub struct Discipline {
    pub(crate) aqm: Aqm,
    /// Counters by cause, sojourn times.
    pub stats: QueueStats,
}

impl Port {
    pub(crate) fn new(
        (id, peer): (PortId, PortId),
        hop: HopId,
        role: HopRole,
        (from, to): (NodeId, NodeId),
        medium: usize,
        cfg: DirectionConfig,
        (rng, header_rng): (RngStream, RngStream),
    ) -> Self {
        let hiccups = Hiccups::new(&cfg.hiccups);
        let plain_offer = cfg.cw_mark.is_none() && hiccups.ip_idle();
        let plain_take = hiccups.link_idle();
        let exposed_beyond_ip = match cfg.exposure {
            Exposure::Payload => None,
            Exposure::Ip => Some(0),
            Exposure::Frame => Some(cfg.framing_bytes),
        };
        let queue = Fifo::with_capacity(cfg.queue_packets.min(1024) as usize);
        let (error, wlan) = Self::channel(&cfg, rng);
        let delivery = cfg.delivery.clone().map(DeliveryState::new);
        // `for_bits` divides by the rate, at least 1 b/s.
        let rate = cfg.rate_bps.max(1);
        // A PHY's frames take its own TXTIME (crate::medium::dcf::phy), never the fast path.
        let ns_per_bit = if 1_000_000_000 % rate == 0 && cfg.phy.is_none() {
            1_000_000_000 / rate
        } else {
            0
        };
        Port {
            id,
            peer,
            hop,
            role,
            from,
            to,
            medium,
            cfg,
            queue,
            on_air: None,
            error,
            wlan,
            header_rng,
            delivery,
            hiccups,
            stats: PortStats::default(),
            agent_from: false,
            intercept_to: false,
            ns_per_bit,
            aqm: None,
            plain_offer,
            plain_take,
            ifq: None,
            stamps: Fifo::new(),
            exposed_beyond_ip,
        }
    }

    /// Run `aqm` instead of the drop-tail queue.
    pub(crate) fn set_aqm(&mut self, aqm: Aqm) {
        self.plain_offer = false;
        self.plain_take = false;
        self.aqm = Some(Box::new(Discipline {
            aqm,
            stats: QueueStats::default(),
        }));
    }

    /// The 802.11 PHY mode of the port's frames (a DCF cell's member with `dcf.phy`;
    /// crate::medium::dcf::phy), if it has one.
    pub fn phy(&self) -> Option<crate::medium::dcf::phy::Mode> {
        self.cfg.phy
    }

    /// The queue discipline's counters, if the port runs one other than drop-tail.
    pub fn queue_stats(&self) -> Option<&QueueStats> {
        self.aqm.as_ref().map(|d| &d.stats)
    }

    /// Drops of the discipline so far (every cause).
    fn aqm_drops(d: &Discipline) -> u64 {
        d.stats.overflow_drops + d.stats.early_drops + d.stats.codel_drops
    }

    /// [`Port::offer`] through the queue discipline.
    #[inline(never)]
    fn offer_aqm(&mut self, now: SimTime, pkt: PacketRef, pool: &mut PacketPool) -> bool {
        let Some(d) = self.aqm.as_mut() else {
            return self.enqueue(pkt);
        };
        let before = Self::aqm_drops(d);
        let queued = d.aqm.enqueue(now, pkt, pool, &mut d.stats);
        self.stats.queue_drops += Self::aqm_drops(d) - before;
        self.stats.max_queue = self.stats.max_queue.max(d.aqm.len() as u32);
        queued
    }

    /// [`Port::next_frame`] through the queue discipline: packets it drops on the way leave
    /// `pool` and count as queue drops.
    fn next_frame_aqm(&mut self, now: SimTime, pool: &mut PacketPool) -> Option<PacketRef> {
        // Frames that bypass the discipline (a link ARQ's ACKs) wait in the plain FIFO: first.
        if let Some(p) = self.queue.pop_front() {
            return Some(p);
        }
        let d = self.aqm.as_mut()?;
        let (p, dropped) = d.aqm.dequeue(now, pool, &mut d.stats);
        self.stats.queue_drops += dropped;
        p
    }

    /// Queue a packet; `false` if the queue was full and the packet was dropped (its slot is
    /// left to the caller to free).
    #[inline(always)]
    pub(crate) fn enqueue(&mut self, pkt: PacketRef) -> bool {
        if self.queue.len() >= self.cfg.queue_packets as usize {
            self.stats.queue_drops += 1;
            return false;
        }
        self.queue.push_back(pkt);
        self.stats.max_queue = self.stats.max_queue.max(self.queue.len() as u32);
        true
    }

    /// A packet handed to this interface at `now` by its node (IP output): through the
    /// IP-stage hiccups, then into the drop-tail queue. `false` only if the queue dropped it
    /// (the local-drop signal a BSD host's TCP gets as ENOBUFS, Ludwig2000 §2.3); a packet a
    /// hiccup holds counts as accepted. A dropped `pkt` is left in `pool` for the caller; a
    /// held-back packet released behind it and dropped is freed here.
    // Inlined into the network's IP output as before the queue disciplines: the extra check
    // made the compiler outline it, at ~6 % of the reference run's instructions (callgrind).
    // Most ports: one flag, then the drop-tail queue; the features out of line.
    #[inline(always)]
    pub(crate) fn offer(&mut self, now: SimTime, pkt: PacketRef, pool: &mut PacketPool) -> bool {
        if self.plain_offer {
            return self.enqueue(pkt);
        }
        self.offer_general(now, pkt, pool)
    }

    /// [`Port::offer`] through the queue discipline, CW marking or the IP-stage hiccups.
    #[inline(never)]
    fn offer_general(&mut self, now: SimTime, pkt: PacketRef, pool: &mut PacketPool) -> bool {
        if self.aqm.is_some() {
            // The builder refuses hiccups, CW marking and link ARQ beside a discipline.
            return self.offer_aqm(now, pkt, pool);
        }
        if let Some(threshold) = self.cfg.cw_mark {
            self.mark_cw(threshold, pkt, pool);
        }
        if self.hiccups.ip_idle() {
            return self.enqueue(pkt);
        }
        match self.hiccups.admit(now, pkt) {
            Admit::Intercepted => {
                self.stats.intercepted += 1;
                true
            }
            Admit::HeldBack => true,
            Admit::Pass(pkt, released) => {
                let queued = self.enqueue(pkt);
                if let Some(held) = released {
                    let queued = self.enqueue(held);
                    if !queued {
                        pool.release(held, Fate::QueueDrop);
                    }
                    self.stats.reordered += u64::from(queued);
                }
                queued
            }
        }
    }

    /// TCP-Jersey's CW marking (spec §4.8): a data packet offered to a queue holding at least
    /// `threshold` packets is marked. Deliberate deviation: the instantaneous queue length, not
    /// RED's average.
    #[inline(never)]
    fn mark_cw(&mut self, threshold: u32, pkt: PacketRef, pool: &mut PacketPool) {
        let p = &pool[pkt];
        if self.queue.len() >= threshold as usize && p.seg.is_data() && !p.is_udp() {
            pool.update(pkt, |p| p.seg.opts.cw = true);
            self.stats.cw_marks += 1;
        }
    }

    /// At the end of a hold: what IP-stage holds intercepted and did not expire, to be flushed
    /// into the queue at once (empty while another IP-stage hold is still active). Expired
    /// packets leave `pool`.
    pub(crate) fn release_intercepted(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
    ) -> Vec<PacketRef> {
        let (kept, expired) = self
            .hiccups
            .release_intercepted(now, |p| pool.release(p, Fate::HoldExpired));
        self.stats.hiccup_expired += expired;
        kept
    }

    /// The next frame to start at `now`, if any: none during a hold; a packet held back by a
    /// reorder hiccup goes as soon as it is due; through the queue discipline if the port
    /// runs one (packets it drops on the way leave `pool`).
    #[inline(always)]
    pub(crate) fn next_frame(&mut self, now: SimTime, pool: &mut PacketPool) -> Option<PacketRef> {
        // Most ports: the queue's order.
        if self.plain_take {
            return self.queue.pop_front();
        }
        self.next_frame_general(now, pool)
    }

    /// [`Port::next_frame`] with a queue discipline or a link-stage hiccup (out of line).
    #[inline(never)]
    fn next_frame_general(&mut self, now: SimTime, pool: &mut PacketPool) -> Option<PacketRef> {
        if self.ifq.is_some() {
            // A shared interface queue's part (crate::ifq): drop-tail, no hiccups (the builder
            // refuses a discipline beside it; a cell's links have no hiccups).
            if let Some((_, at)) = self.stamps.pop_front() {
                if at != SimTime::MAX {
                    self.stats.queue_wait_ns += now.saturating_since(at).as_nanos();
                    self.stats.queue_waited += 1;
                }
            }
            return self.queue.pop_front();
        }
        if self.aqm.is_some() {
            return self.next_frame_aqm(now, pool);
        }
        // A port after its last reorder: the queue's order.
        if self.hiccups.link_idle() {
            return self.queue.pop_front();
        }
        self.next_frame_hiccups(now)
    }

    /// [`Port::next_frame`] with a link-stage hiccup set (out of line: most ports have none).
    #[inline(never)]
    fn next_frame_hiccups(&mut self, now: SimTime) -> Option<PacketRef> {
        if self.hiccups.blocked(now) {
            return None;
        }
        let due = self.hiccups.release_due();
        let pkt = self.hiccups.next(now, &mut self.queue)?;
        self.stats.reordered += u64::from(due);
        Some(pkt)
    }

    /// Queue a local retransmission at the head, regardless of the capacity (a base-station
    /// agent's priority retransmission, Balakrishnan97 §2.8).
    pub(crate) fn enqueue_front(&mut self, now: SimTime, pkt: PacketRef, pool: &PacketPool) {
        if let Some(d) = self.aqm.as_mut() {
            d.aqm.enqueue_front(now, pkt, pool);
            return;
        }
        self.queue.push_front(pkt);
        self.stats.max_queue = self.stats.max_queue.max(self.queue.len() as u32);
    }

    /// Queue a link ACK frame at the tail, or, if one is already waiting, update it in place:
    /// the newest status (cumulative part + bitmap) supersedes the older one. Returns `false`
    /// only if a new frame was dropped because the queue was full. Either way `pkt` leaves
    /// `pool` unless it was queued.
    pub(crate) fn enqueue_link_ack(&mut self, pkt: PacketRef, pool: &mut PacketPool) -> bool {
        if let Some(&waiting) = self.queue.iter().find(|&&q| pool[q].is_link_ack()) {
            let link = pool.take(pkt).link;
            pool.retire(Fate::LinkAbsorbed);
            pool.update(waiting, |w| w.link = link);
            return true;
        }
        let queued = self.enqueue(pkt);
        if !queued {
            pool.release(pkt, Fate::QueueDrop);
        } else if self.ifq.is_some() {
            // In a shared interface queue a link ACK goes before the data (stamp 0).
            self.stamps.push_back((0, SimTime::MAX));
        }
        queued
    }

    /// Start the transmission of `pkt` after a contention wait of `wait`: its airtime (the
    /// wait, the per-frame time and the bits at the port's rate), accounted for with the
    /// frame, and whether the error model corrupts it.
    // Inlined into the medium's take (and `account` into it): a call with its stack frame per
    // frame cost the reference run ~3 % of its instructions (callgrind).
    #[inline(always)]
    pub(crate) fn transmit(
        &mut self,
        now: SimTime,
        pkt: &Head,
        wait: SimDuration,
    ) -> (SimDuration, bool) {
        let ip = u64::from(pkt.ip_len);
        let bits = (ip + u64::from(self.cfg.framing_bytes)) * 8;
        let on_air = match &mut self.delivery {
            // bits·10⁹/rate is a whole number of nanoseconds, bits·ns_per_bit (saturating as
            // `for_bits` does).
            None if self.ns_per_bit != 0 => {
                self.cfg.per_frame + SimDuration(bits.saturating_mul(self.ns_per_bit))
            }
            None => match &self.cfg.phy {
                None => self.cfg.per_frame + SimDuration::for_bits(bits, self.cfg.rate_bps),
                // An 802.11 PHY's PPDU (preamble, symbols, signal extension) for the frame.
                Some(mode) => self.cfg.per_frame + mode.txtime(bits / 8),
            },
            // The trace decides when the last byte leaves (crate::delivery).
            Some(d) => {
                let ready = now + wait + self.cfg.per_frame;
                let bytes = (bits / 8).min(u64::from(u32::MAX)) as u32;
                d.finish(ready, bytes).saturating_since(now + wait)
            }
        };
        let airtime = wait + on_air;
        (airtime, self.account(pkt, (now + wait, on_air), airtime))
    }

    /// One attempt of a MAC with retries (crate::medium::dcf): like [`Port::transmit`], but a
    /// corrupted attempt is not a corrupted packet (the MAC retries it, and a frame it gives up
    /// is counted in `mac_drops`), so the packet counters of conservation count each packet
    /// once.
    pub(crate) fn attempt(&mut self, now: SimTime, pkt: &Head) -> (SimDuration, bool) {
        let (airtime, corrupted) = self.transmit(now, pkt, SimDuration::ZERO);
        if corrupted {
            self.stats.mac_errors += 1;
            *self.corrupted_counter(pkt) -= 1;
        }
        (airtime, corrupted)
    }

    /// One MPDU of an A-MPDU (crate::medium::dcf::ampdu): its part of the PPDU is `on_air`
    /// from `start`, counted like an attempt; whether the error model corrupted it (drawn on
    /// the frame's own exposed bits, each MPDU with its own FCS).
    pub(crate) fn attempt_mpdu(
        &mut self,
        (start, on_air): (SimTime, SimDuration),
        pkt: &Head,
    ) -> bool {
        let corrupted = self.account(pkt, (start, on_air), on_air);
        if corrupted {
            self.stats.mac_errors += 1;
            *self.corrupted_counter(pkt) -= 1;
        }
        corrupted
    }

    /// The octets of an MPDU carrying `ip_len` bytes of IP: the MAC header and FCS
    /// (`framing_bytes`) around them.
    pub(crate) fn mpdu_bytes(&self, ip_len: u32) -> u64 {
        u64::from(ip_len) + u64::from(self.cfg.framing_bytes)
    }

    /// A MAC without acknowledgements lost its attempt at `pkt` (collided or corrupted): the
    /// packet is lost to the channel after all, counted as corrupted.
    pub(crate) fn count_lost_attempt(&mut self, pkt: &Head) {
        *self.corrupted_counter(pkt) += 1;
    }

    /// The corrupted-frame counter of `pkt`'s kind.
    fn corrupted_counter(&mut self, pkt: &Head) -> &mut u64 {
        let s = &mut self.stats;
        match pkt.class {
            FrameClass::LinkAck => &mut s.corrupted_link_acks,
            FrameClass::Udp => &mut s.corrupted_udp,
            FrameClass::Data => &mut s.corrupted_data,
            FrameClass::Ack => &mut s.corrupted_acks,
        }
    }

    /// Count the frame of `pkt` on the air over `(start, length)` (its access wait before it,
    /// `airtime` with the wait) and draw whether it is corrupted.
    #[inline(always)]
    fn account(
        &mut self,
        pkt: &Head,
        (start, on_air): (SimTime, SimDuration),
        airtime: SimDuration,
    ) -> bool {
        let ip = u64::from(pkt.ip_len);
        self.stats.wire_bytes += ip + u64::from(self.cfg.framing_bytes);
        self.stats.busy_ns += airtime.as_nanos();
        // A port's frames take the air one after another: the last one ends last.
        let until = (start + on_air).as_nanos();
        self.stats.busy_until_ns = self.stats.busy_until_ns.max(until);
        let exposed = match self.exposed_beyond_ip {
            None => u64::from(pkt.payload),
            Some(extra) => ip + u64::from(extra),
        };
        let corrupted = match self.wlan.as_deref_mut() {
            None => self.error.frame_at(start, on_air, exposed * 8),
            Some(_) => self.snr_draw(start, ip),
        };
        self.count(pkt, corrupted);
        corrupted
    }

    /// Whether the TCP/IP header of a corrupted frame carrying `pkt` was hit, drawn with the
    /// error model's header-hit probability ([`ErrorModel::header_hit_probability`]) over the
    /// bits this direction exposes (a payload-only exposure never hits the header).
    pub(crate) fn header_hit(&mut self, pkt: &Packet) -> bool {
        let ip = u64::from(pkt.ip_len());
        let header = ip.saturating_sub(u64::from(pkt.seg.len));
        let (exposed, header) = match self.cfg.exposure {
            Exposure::Payload => (u64::from(pkt.seg.len), 0),
            Exposure::Ip => (ip, header),
            Exposure::Frame => (ip + u64::from(self.cfg.framing_bytes), header),
        };
        let q = ErrorModel::header_hit_probability(&self.cfg.error, exposed * 8, header * 8);
        let hit = self.header_rng.bernoulli(q);
        self.stats.header_hits += u64::from(hit);
        hit
    }

    /// Count a frame by kind, and whether it was corrupted.
    #[inline(always)]
    fn count(&mut self, pkt: &Head, corrupted: bool) {
        match pkt.class {
            // A corrupted frame is rare: its counts behind a branch, not computed for every
            // frame (callgrind, the reference run).
            FrameClass::Data => {
                self.stats.data_frames += 1;
                self.stats.data_payload_bytes += u64::from(pkt.payload);
                if corrupted {
                    self.stats.corrupted_data += 1;
                    self.stats.corrupted_data_runs += u64::from(!self.stats.last_data_corrupted);
                }
                self.stats.last_data_corrupted = corrupted;
            }
            FrameClass::Ack => {
                self.stats.ack_frames += 1;
                if corrupted {
                    self.stats.corrupted_acks += 1;
                }
            }
            FrameClass::LinkAck => {
                self.stats.link_ack_frames += 1;
                self.stats.corrupted_link_acks += u64::from(corrupted);
            }
            FrameClass::Udp => {
                self.stats.udp_frames += 1;
                self.stats.udp_payload_bytes += u64::from(pkt.payload);
                self.stats.corrupted_udp += u64::from(corrupted);
            }
        }
    }

    /// A frame a medium with its own channel (the GSM RLP link, crate::medium::gsm) carried
    /// over `wire_bytes` bytes of its stream and decided the fate of: counted as sent, and as
    /// corrupted if the far end will discard it.
    pub(crate) fn count_carried(&mut self, pkt: &Head, wire_bytes: u64, corrupted: bool) {
        self.stats.wire_bytes += wire_bytes;
        self.count(pkt, corrupted);
    }

    /// Airtime used up to `end`: the part of a frame still on the air after `end` left out
    /// (the port's frames are on the air one after another, so only the last can cross it).
    /// Never more than `end`.
    pub fn busy_ns_until(&self, end: SimTime) -> u64 {
        let after = self.stats.busy_until_ns.saturating_sub(end.as_nanos());
        self.stats.busy_ns.saturating_sub(after)
    }

    /// Propagation delay to the far end.
    pub(crate) fn delay(&self) -> SimDuration {
        self.cfg.delay
    }
}

#[cfg(test)]
mod tests;
