//! The network as a medium sees it (crate::medium): `kick` offers a medium its ports' frames,
//! `mac` delivers its wake-ups (both through the one dispatch, `AnyMedium::on_ready` and
//! `on_wake`), and `AirOf` is every other part of the network, borrowed apart from the media so
//! that no medium is re-entered while it runs: the core [`Air`] and its extensions for MAC-style
//! ([`MacAir`]) and framing ([`FramingAir`]) media. What the media report goes out through
//! [`MediumReport`].

use super::node::Node;
use super::{Event, Network};
use crate::agent::Notice;
use crate::medium::{Air, AnyMedium, Arrival, Frame, FrameInfo, FramingAir, MacAir, MediumReport};
use crate::packet::PacketPool;
use crate::port::Port;
use crate::tap::{Control, Taps};
use engine::{EventQueue, NodeId, PortId, SimDuration, SimTime};

impl Network {
    /// Offer `port`'s medium `m` the port's frames (crate::medium), unless it is busy. The
    /// callers have the port at hand and pass its medium (one load fewer on the hot path).
    #[inline(always)]
    pub(crate) fn kick(&mut self, now: SimTime, m: usize, port: PortId) {
        debug_assert_eq!(self.ports[port.index()].medium, m);
        // Most offers find the medium busy: a field check.
        if !self.media[m].is_busy() {
            let (medium, air) = self.air(m);
            medium.on_ready(now, port, air);
        }
    }

    /// What each medium reports of the run (crate::medium::MediumReport), in medium order:
    /// a link's media in link order, a cell's medium where its first link is.
    pub fn medium_reports(&self) -> impl Iterator<Item = MediumReport<'_>> {
        self.media.iter().map(AnyMedium::report)
    }

    /// What the medium `port` transmits on reports (`None` for no such port).
    pub fn medium_report_of(&self, port: PortId) -> Option<MediumReport<'_>> {
        self.ports
            .get(port.index())
            .and_then(|p| self.media.get(p.medium))
            .map(AnyMedium::report)
    }

    /// Record the media's events from now on (the RLP log of each GSM link direction, the
    /// multi-layer plot; media without a log ignore it).
    pub fn enable_medium_logs(&mut self) {
        for m in &mut self.media {
            m.enable_log();
        }
    }

    /// A wake-up of medium `m` is due.
    // Inlined into the loop, its only caller: when the loop grew (progress slices), the
    // inliner outlined it, at 5 % of the reference run's instructions (callgrind: 312.7 M ->
    // 329.0 M with the merge).
    #[inline(always)]
    pub(super) fn mac(&mut self, now: SimTime, m: usize, tag: u32) {
        let (medium, air) = self.air(m);
        medium.on_wake(now, tag, air);
    }

    /// Medium `m` and the rest of the network as it sees it: disjoint borrows, so the medium
    /// can never be re-entered while it runs.
    fn air(&mut self, m: usize) -> (&mut AnyMedium, AirOf<'_>) {
        let Network {
            media,
            ports,
            pool,
            nodes,
            taps,
            queue,
            notices,
            headers,
            ..
        } = self;
        (
            &mut media[m],
            AirOf {
                ports,
                pool,
                nodes,
                taps,
                queue,
                notices,
                headers,
                medium: m,
            },
        )
    }
}

/// The network as medium `medium` sees it (crate::medium::Air): every part of it but the media.
struct AirOf<'a> {
    ports: &'a mut [Port],
    pool: &'a mut PacketPool,
    nodes: &'a mut [Node],
    taps: &'a mut Taps,
    queue: &'a mut EventQueue<Event>,
    notices: &'a mut Vec<(NodeId, Notice)>,
    headers: &'a mut Vec<(SimTime, engine::FlowId, tcp::Segment)>,
    medium: usize,
}

impl AirOf<'_> {
    /// An agent's notification, delivered by the event loop right after this medium call
    /// (`Event::Notices`, at the same instant, after the events already due).
    #[cold]
    fn notify(&mut self, now: SimTime, from: NodeId, n: Notice) {
        if self.notices.is_empty() {
            self.queue.schedule(now, Event::Notices);
        }
        self.notices.push((from, n));
    }

    /// A frame a MAC or a framing medium finished with goes on the wire to the far end. One
    /// out-of-line place for the media other than the full-duplex and shared channels, so that
    /// their extra call sites leave the hot path's `transmit` as the compiler laid it out.
    #[inline(never)]
    fn onto_wire(&mut self, now: SimTime, port: PortId, r: crate::packet::PacketRef, a: Arrival) {
        self.ports[port.index()].on_air = Some((r, a));
        self.sent(now, port);
    }
}

impl Air for AirOf<'_> {
    #[inline(always)]
    fn take(&mut self, now: SimTime, port: PortId) -> Option<Frame> {
        self.ports[port.index()]
            .next_frame(now, self.pool)
            .map(Frame)
    }

    #[inline(always)]
    fn transmit(
        &mut self,
        now: SimTime,
        port: PortId,
        Frame(r): Frame,
        wait: SimDuration,
    ) -> SimDuration {
        let p = &mut self.ports[port.index()];
        // Most nodes run no agent: a flag of the port, checked inline.
        if p.agent_from {
            self.nodes[p.from.index()].transmit(now, p, self.pool, r);
        }
        let pkt = &self.pool[r];
        let (airtime, corrupted) = p.transmit(now, self.pool.head(r), wait);
        self.taps.frame(now, port, pkt, corrupted);
        p.on_air = Some((r, Arrival::corrupted_if(corrupted)));
        airtime
    }

    #[inline(always)]
    fn wake(&mut self, at: SimTime, tag: u32) {
        let medium = self.medium as u32;
        self.queue.schedule(at, Event::Mac { medium, tag });
    }

    #[inline(always)]
    fn sent(&mut self, now: SimTime, port: PortId) {
        // One index for both the agent's flag and the delay (the agent cannot change the port).
        let p = &mut self.ports[port.index()];
        let delay = p.delay();
        let Some((r, arrival)) = p.on_air.take() else {
            debug_assert!(false, "a frame sent that was never on the air");
            return;
        };
        if p.agent_from {
            self.nodes[p.from.index()].sent(now, p, r, self.pool, self.queue);
        }
        let (slot, kind) = r.into_parts();
        self.queue.schedule(
            now + delay,
            Event::Arrive {
                port,
                slot,
                kind,
                arrival,
            },
        );
    }
}

impl MacAir for AirOf<'_> {
    fn attempt(&mut self, now: SimTime, port: PortId, frame: &Frame) -> (SimDuration, bool) {
        let p = &mut self.ports[port.index()];
        let pkt = &self.pool[frame.0];
        let (airtime, corrupted) = p.attempt(now, self.pool.head(frame.0));
        self.taps.attempt(now, port, pkt, corrupted);
        if let (true, Some(m)) = (p.wlan.is_some(), p.cfg.phy) {
            self.taps.set_mode(m);
        }
        (airtime, corrupted)
    }

    fn mpdu_bytes(&self, port: PortId, frame: &Frame) -> u64 {
        self.ports[port.index()].mpdu_bytes(self.pool.ip_len(frame.0))
    }

    fn attempt_mpdu(
        &mut self,
        part: (SimTime, SimDuration),
        port: PortId,
        frame: &Frame,
        first_retry: (bool, bool),
    ) -> bool {
        let p = &mut self.ports[port.index()];
        let pkt = &self.pool[frame.0];
        let corrupted = p.attempt_mpdu(part, self.pool.head(frame.0));
        self.taps
            .attempt_mpdu((part.0, port), pkt, corrupted, first_retry);
        if let (true, Some(m)) = (p.wlan.is_some(), p.cfg.phy) {
            self.taps.set_mode(m);
        }
        corrupted
    }

    fn ack_lost(&mut self, now: SimTime, port: PortId, bits: u64) -> bool {
        let peer = self.ports[port.index()].peer;
        // The data's mode only for an SNR channel (the ACK's control response mode).
        let mode = match self.ports[peer.index()].wlan {
            Some(_) => self.ports[port.index()].cfg.phy,
            None => None,
        };
        let lost = self.ports[peer.index()].mac_ack(now, bits, mode);
        self.taps.mac_ack(now, port, lost);
        lost
    }

    fn control_lost(
        &mut self,
        now: SimTime,
        port: PortId,
        bits: u64,
        mode: crate::medium::dcf::phy::Mode,
    ) -> bool {
        self.ports[port.index()].control_lost(now, bits, mode)
    }

    fn control_answer_lost(
        &mut self,
        now: SimTime,
        port: PortId,
        bits: u64,
        mode: crate::medium::dcf::phy::Mode,
    ) -> bool {
        let peer = self.ports[port.index()].peer;
        let lost = self.ports[peer.index()].mac_ack(now, bits, Some(mode));
        self.taps
            .control((now, port), Control::Ack, mode.response(0), lost);
        lost
    }

    fn control_sent(
        &mut self,
        now: SimTime,
        port: PortId,
        mode: crate::medium::dcf::phy::Mode,
        lost: bool,
    ) {
        self.taps
            .control((now, port), Control::BlockAckReq, mode, lost);
    }

    fn deliver(&mut self, now: SimTime, port: PortId, Frame(r): Frame) {
        if self.taps.on() {
            self.taps.delivered(port, self.pool[r].uid);
        }
        self.onto_wire(now, port, r, Arrival::Intact);
    }

    fn discard(&mut self, now: SimTime, port: PortId, Frame(r): Frame) {
        let p = &mut self.ports[port.index()];
        p.stats.mac_drops += 1;
        let from = p.from;
        let notice =
            self.nodes[from.index()].mac_drop(now, &self.ports[port.index()], self.pool, r);
        if let Some(n) = notice {
            self.notify(now, from, n);
        }
        self.nodes[from.index()].pump_agent(now, self.queue);
        self.pool.release(r, crate::account::Fate::MacDrop);
    }

    fn lose(&mut self, now: SimTime, port: PortId, Frame(r): Frame) {
        self.ports[port.index()].count_lost_attempt(self.pool.head(r));
        self.onto_wire(now, port, r, Arrival::Corrupted);
    }

    fn first_retry(&mut self, now: SimTime, port: PortId, frame: &Frame) {
        let from = self.ports[port.index()].from;
        if let Some(n) = self.nodes[from.index()].first_retry(now, self.pool, frame.0) {
            self.notify(now, from, n);
        }
    }

    fn head_stamp(&self, port: PortId) -> Option<u64> {
        self.ports[port.index()].head_stamp()
    }

    fn select_mode(
        &mut self,
        now: SimTime,
        port: PortId,
        (bytes, attempt): (u64, u32),
    ) -> Option<crate::medium::dcf::phy::Mode> {
        self.ports[port.index()].select_mode(now, bytes, attempt)
    }

    fn rate_report(&mut self, now: SimTime, port: PortId, (sent, acked): (u32, u32)) {
        self.ports[port.index()].rate_report(now, sent, acked);
    }

    fn probing(&self, port: PortId) -> bool {
        self.ports[port.index()].probing()
    }

    #[cold]
    fn header_up(&mut self, end: SimTime, port: PortId, frame: &Frame) {
        let p = &self.ports[port.index()];
        let pkt = &self.pool[frame.0];
        // Only a TCP segment for the host at the far end has a receiver to name it to.
        if pkt.is_tcp() && pkt.seg.is_data() && pkt.dst == p.to {
            let at = end + p.delay();
            self.headers.push((at, pkt.flow, pkt.seg));
            self.queue.schedule(at, Event::Headers);
        }
    }
}

impl FramingAir for AirOf<'_> {
    fn frame_info(&self, frame: &Frame) -> FrameInfo {
        let p = &self.pool[frame.0];
        FrameInfo {
            ip_len: self.pool.ip_len(frame.0),
            flow: p.flow,
            tcp: p.is_tcp() && !p.is_link_ack(),
            seq: p.seg.seq.0,
            len: p.seg.len,
            ack: p.seg.ack.0,
            options: p.seg.options_len(),
        }
    }

    fn hand_over(
        &mut self,
        now: SimTime,
        port: PortId,
        Frame(r): Frame,
        wire_bytes: u64,
        arrival: Arrival,
    ) {
        let pkt = &self.pool[r];
        // A frame the far end discards counts as corrupted on the link (the port's and the
        // taps' per-frame counts); the packet account tells the two apart.
        let bad = arrival != Arrival::Intact;
        self.taps.frame(now, port, pkt, bad);
        self.ports[port.index()].count_carried(self.pool.head(r), wire_bytes, bad);
        self.onto_wire(now, port, r, arrival);
    }
}
