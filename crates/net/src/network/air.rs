//! The network as a medium sees it (crate::medium): `kick` offers a medium its ports' frames,
//! `mac` delivers its wake-ups, and `AirOf` is every other part of the network, borrowed apart
//! from the media so that no medium is re-entered while it runs.

use super::agents;
use super::{AgentSlot, Event, Network};
use crate::agent::Notice;
use crate::medium::{Air, AnyMedium, Arrival, Frame, FrameInfo, Medium};
use crate::packet::PacketPool;
use crate::port::Port;
use crate::tap::Taps;
use engine::{EventQueue, NodeId, PortId, SimDuration, SimTime};

impl Network {
    /// Offer `port`'s medium `m` the port's frames (crate::medium), unless it is busy. The
    /// callers have the port at hand and pass its medium (one load fewer on the hot path).
    #[inline(always)]
    pub(crate) fn kick(&mut self, now: SimTime, m: usize, port: PortId) {
        debug_assert_eq!(self.ports[port.index()].medium, m);
        // Most offers find the medium busy: a field check.
        if !self.media[m].is_busy() {
            let (medium, mut air) = self.air(m);
            // The full-duplex and shared channels inline with the medium view kept in
            // registers; the others take it by value out of line, so that it is built in
            // memory only on their way (callgrind).
            match medium {
                AnyMedium::Duplex(d) => d.on_ready(now, port, &mut air),
                AnyMedium::Shared(s) => s.on_ready(now, port, &mut air),
                other => ready_out_of_line(other, now, port, air),
            }
        }
    }

    /// The counters of every 802.11 DCF cell, one list per cell in medium order, one entry
    /// per member (the access point first, then the stations in link order).
    pub fn dcf_stats(&self) -> Vec<Vec<crate::medium::DcfStats>> {
        self.media
            .iter()
            .filter_map(|m| match m {
                AnyMedium::Dcf(d) => Some(d.stats()),
                _ => None,
            })
            .collect()
    }

    /// Whether `port` transmits on an 802.11 DCF (a cell with `dcf`, a `medium = "dcf"` hop):
    /// its capture has 802.11 framing.
    pub fn is_dcf_port(&self, port: PortId) -> bool {
        self.ports
            .get(port.index())
            .and_then(|p| self.media.get(p.medium))
            .is_some_and(|m| matches!(m, AnyMedium::Dcf(_)))
    }

    /// The counters of every GSM link direction, in medium order.
    pub fn gsm_stats(&self) -> Vec<crate::medium::GsmStats> {
        self.media
            .iter()
            .filter_map(|m| match m {
                AnyMedium::Gsm(g) => Some(g.stats()),
                _ => None,
            })
            .collect()
    }

    /// Log the RLP events of every GSM link direction from now on (the multi-layer plot).
    pub fn enable_rlp_log(&mut self) {
        for m in &mut self.media {
            if let AnyMedium::Gsm(g) = m {
                g.enable_log();
            }
        }
    }

    /// The RLP event logs: for each GSM link direction with its log on, the port it carries and
    /// its events.
    pub fn rlp_logs(&self) -> Vec<(PortId, &[crate::medium::RlpEvent])> {
        self.media
            .iter()
            .filter_map(|m| match m {
                AnyMedium::Gsm(g) => g.log().map(|l| (g.port(), l)),
                _ => None,
            })
            .collect()
    }

    /// A wake-up of medium `m` is due.
    // Inlined into the loop, its only caller: when the loop grew (progress slices), the
    // inliner outlined it, at 5 % of the reference run's instructions (callgrind: 312.7 M ->
    // 329.0 M with the merge).
    #[inline(always)]
    pub(super) fn mac(&mut self, now: SimTime, m: usize, tag: u32) {
        let (medium, mut air) = self.air(m);
        match medium {
            AnyMedium::Duplex(d) => d.on_wake(now, tag, &mut air),
            AnyMedium::Shared(s) => s.on_wake(now, tag, &mut air),
            other => wake_out_of_line(other, now, tag, air),
        }
    }

    /// Medium `m` and the rest of the network as it sees it: disjoint borrows, so the medium
    /// can never be re-entered while it runs.
    fn air(&mut self, m: usize) -> (&mut AnyMedium, AirOf<'_>) {
        let Network {
            media,
            ports,
            pool,
            agents,
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
                agents,
                taps,
                queue,
                notices,
                headers,
                medium: m,
            },
        )
    }
}

/// [`AnyMedium::on_ready`] for the media other than the full-duplex and shared channels.
#[inline(never)]
fn ready_out_of_line(m: &mut AnyMedium, now: SimTime, port: PortId, mut air: AirOf<'_>) {
    m.on_ready(now, port, &mut air);
}

/// [`AnyMedium::on_wake`] for the media other than the full-duplex and shared channels.
#[inline(never)]
fn wake_out_of_line(m: &mut AnyMedium, now: SimTime, tag: u32, mut air: AirOf<'_>) {
    // A DCF cell's stale countdown wake-ups, a third of its wake-ups, end here, before the
    // medium's call (crate::medium::dcf::Dcf::ignores); asked here, not in `mac`, so that the
    // full-duplex and shared paths of the event loop stay as they are.
    if let AnyMedium::Dcf(d) = m {
        if d.ignores(now, tag) {
            return;
        }
    }
    m.on_wake(now, tag, &mut air);
}

/// The network as medium `medium` sees it (crate::medium::Air): every part of it but the media.
struct AirOf<'a> {
    ports: &'a mut [Port],
    pool: &'a mut PacketPool,
    agents: &'a mut [Option<AgentSlot>],
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
        self.ports[port.index()].wire.push_back((r, a));
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
        agents::agent_transmit(self.ports, self.pool, self.agents, now, port, r);
        let p = &mut self.ports[port.index()];
        let pkt = &self.pool[r];
        let (airtime, corrupted) = p.transmit(now, (pkt, self.pool.ip_len(r)), wait);
        self.taps.frame(now, port, pkt, corrupted);
        p.wire.push_back((r, Arrival::corrupted_if(corrupted)));
        airtime
    }

    #[inline(always)]
    fn wake(&mut self, at: SimTime, tag: u32) {
        let medium = self.medium as u32;
        self.queue.schedule(at, Event::Mac { medium, tag });
    }

    fn attempt(&mut self, now: SimTime, port: PortId, frame: &Frame) -> (SimDuration, bool) {
        let p = &mut self.ports[port.index()];
        let pkt = &self.pool[frame.0];
        let (airtime, corrupted) = p.attempt(now, (pkt, self.pool.ip_len(frame.0)));
        self.taps.attempt(now, port, pkt, corrupted);
        (airtime, corrupted)
    }

    fn ack_lost(&mut self, now: SimTime, port: PortId, bits: u64) -> bool {
        let peer = self.ports[port.index()].peer;
        let lost = self.ports[peer.index()].mac_ack(now, bits);
        self.taps.mac_ack(now, port, lost);
        lost
    }

    fn deliver(&mut self, now: SimTime, port: PortId, Frame(r): Frame) {
        self.onto_wire(now, port, r, Arrival::Intact);
    }

    fn discard(&mut self, now: SimTime, port: PortId, Frame(r): Frame) {
        self.ports[port.index()].stats.mac_drops += 1;
        let node = self.ports[port.index()].from;
        if let Some((agent, _)) = self.agents[node.index()].as_mut() {
            let pkt = &self.pool[r];
            // The frame was on the air, as a corrupted one would have been: the agents that
            // cache and time their data frames (snoop, LL) see it leave, or they would wait
            // for a frame that never went and absorb the duplicates it causes.
            if self.ports[port.index()].role == crate::config::HopRole::Wireless
                && pkt.kind() == crate::packet::PacketKind::Data
                && pkt.is_tcp_segment()
            {
                agent.on_sent(now, pkt);
            }
            if let Some(n) = agent.on_mac_drop(now, pkt) {
                self.notify(now, node, n);
            }
            agents::pump_agent(self.agents, self.queue, node, now);
        }
        self.pool.release(r, crate::account::Fate::MacDrop);
    }

    fn lose(&mut self, now: SimTime, port: PortId, Frame(r): Frame) {
        self.ports[port.index()].count_lost_attempt(&self.pool[r]);
        self.onto_wire(now, port, r, Arrival::Corrupted);
    }

    fn first_retry(&mut self, now: SimTime, port: PortId, frame: &Frame) {
        let node = self.ports[port.index()].from;
        if let Some((agent, _)) = self.agents[node.index()].as_mut() {
            if let Some(n) = agent.on_first_retry(now, &self.pool[frame.0]) {
                self.notify(now, node, n);
            }
        }
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

    fn frame_info(&self, frame: &Frame) -> FrameInfo {
        let p = &self.pool[frame.0];
        FrameInfo {
            ip_len: self.pool.ip_len(frame.0),
            flow: p.flow,
            tcp: p.is_tcp() && !p.is_link_ack(),
            seq: p.seg.seq.0,
            len: p.seg.len,
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
        self.ports[port.index()].count_carried(pkt, wire_bytes, bad);
        self.onto_wire(now, port, r, arrival);
    }

    #[inline(always)]
    fn sent(&mut self, now: SimTime, port: PortId) {
        agents::agent_sent(self.ports, self.pool, self.agents, self.queue, now, port);
        let delay = self.ports[port.index()].delay();
        self.queue.schedule(now + delay, Event::Arrive { port });
    }
}
