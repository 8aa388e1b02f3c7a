//! The network's event handling: what each event does, and how a packet moves from a node
//! through a port's queue and channel to the next node (split from `network.rs`).

use super::*;

impl Network {
    // Inlined into `run`, its only caller: an outlined handler costs the reference run ~5 %
    // of its instructions (callgrind), and the inliner stops inlining it as media are added.
    #[inline(always)]
    pub(super) fn handle(&mut self, now: SimTime, ev: Event) {
        match ev {
            Event::Mac { medium, tag } => self.mac(now, medium as usize, tag),
            Event::Arrive {
                port,
                slot,
                kind,
                arrival,
            } => {
                let to = self.ports[port.index()].to;
                let r = PacketRef::from_parts(slot, kind);
                if arrival == Arrival::Intact {
                    // Most frames meet no link ARQ, proxy or agent: cheap checks first, so that
                    // the packet stays in the pool.
                    if !self.pool.head(r).plain {
                        let pkt = self.pool.take(r);
                        if let Some(pkt) = self.link_intercept(now, port, pkt) {
                            let r = self.pool.insert(pkt);
                            self.deliver(now, port, r);
                        }
                    } else {
                        self.deliver(now, port, r);
                    }
                } else {
                    let pkt = &self.pool[r];
                    let mut nack = None;
                    if pkt.dst == to && pkt.seg.is_data() && pkt.proto == Proto::Tcp {
                        // The ELN oracle: the receiving host learns which segment the link
                        // corrupted (Balakrishnan97 §2.6); receivers without ELN ignore it.
                        // A HACK receiver answers at once (eln-llelsn spec §4.12).
                        // TCP-ELN's HACK identification (eln-llelsn spec §3.2 `hack_header`):
                        // a frame whose header was hit cannot be attributed to its connection.
                        let f = pkt.flow.index();
                        let receiver = &mut self.flows[f].receiver;
                        let attributed = !receiver.identifies_by_header()
                            || !self.ports[port.index()].header_hit(pkt);
                        if attributed && receiver.on_corrupted(&pkt.seg) {
                            nack = Some(f);
                        }
                    }
                    let fate = match arrival {
                        Arrival::Discarded => Fate::Discarded,
                        _ => Fate::Corrupted,
                    };
                    self.pool.release(r, fate);
                    if let Some(f) = nack {
                        self.pump_receiver(f, now);
                    }
                }
            }
            Event::SenderTimer { flow } => {
                let f = flow.index();
                if self.flows[f].sender_wake == Some(now) {
                    self.flows[f].sender_wake = None;
                }
                let fl = &mut self.flows[f];
                let una = fl.sender.snd_una();
                let before = fl.sender.stats().timeouts;
                let (sender, sink) = fl.sender_and_sink();
                sender.on_timeout(now, sink);
                // Whether the receiver already held the oldest outstanding byte, asked only when
                // the timer did fire: a timeout moves neither `snd_una` nor the receiver, and
                // about half of the wake-ups find the timer moved on (1 000 web sessions), so
                // they need not touch the receiver's state.
                if fl.sender.stats().timeouts > before {
                    let held = fl.receiver.delivered() > una
                        || fl
                            .receiver
                            .out_of_order()
                            .iter()
                            .any(|&(a, b)| a <= una && una < b);
                    if held {
                        fl.timeouts_after_arrival += 1;
                    }
                }
                self.pump_sender(f, now);
            }
            Event::ReceiverTimer { flow } => {
                let f = flow.index();
                if self.flows[f].receiver_wake == Some(now) {
                    self.flows[f].receiver_wake = None;
                }
                self.flows[f].receiver.on_timeout(now);
                self.pump_receiver(f, now);
            }
            Event::HoldEnd { port } => {
                // Flush an IP-stage hold into the interface queue, the driver taking the first
                // packet at once as a BSD `if_output` does; drop-tail for the rest (Ludwig2000
                // §10.1, Fig 5-3).
                let released = self.ports[port.index()].release_intercepted(now, &mut self.pool);
                for pkt in released {
                    self.enqueue_and_start(now, port, pkt);
                }
                self.kick(now, self.ports[port.index()].medium, port);
            }
            Event::AgentTimer { node } => self.agent_timer(now, node),
            Event::ProxyTimer { node, flow } => self.proxy_timer(now, node, flow),
            Event::FlowStart { flow } => self.pump_sender(flow.index(), now),
            Event::FlowStop { flow } => {
                let f = &mut self.flows[flow.index()];
                f.sender.close_after_sent();
                f.delivered_at_stop = Some(f.receiver.delivered());
            }
            Event::WindowStart => {
                for f in &mut self.flows {
                    f.delivered_at_window_start = f.receiver.delivered();
                    f.held_at_window_start = f.receiver.out_of_order().to_vec();
                }
                for u in &mut self.udp {
                    u.delivered_at_window_start = u.delivered_bytes;
                }
                // The access points' queue waits count from the window on, as the goodputs do
                // (crate::ifq: head-of-line blocking measured in the window).
                for p in &mut self.ports {
                    if p.ifq.is_some() {
                        p.stats.queue_wait_ns = 0;
                        p.stats.queue_waited = 0;
                    }
                }
            }
            Event::UdpSend { flow } => self.udp_send(now, flow),
            Event::WebWake { session } => self.web_wake(now, session as usize),
            Event::Notices => self.send_notices(now),
            Event::Headers => self.headers_arrive(now),
            Event::Jittered { port } => {
                if let Some(r) = self.jitter.as_mut().and_then(|j| j.release(port)) {
                    self.offer_to(now, port, r);
                }
            }
        }
    }

    /// An intact packet (link header handled) arrives through `port`: a proxy or an agent at
    /// the node it reaches may take it, else it is received there.
    #[inline(always)]
    pub(super) fn deliver(&mut self, now: SimTime, port: PortId, r: PacketRef) {
        let p = &self.ports[port.index()];
        // Most arrivals meet no proxy (none anywhere) and no agent: one flag of the port,
        // checked inline; the rest out of line.
        if p.intercept_to {
            self.deliver_intercepted(now, port, r);
        } else {
            self.receive(now, p.to, r);
        }
    }

    /// [`Network::deliver`] where a proxy runs somewhere or an agent at the node reached.
    #[inline(never)]
    fn deliver_intercepted(&mut self, now: SimTime, port: PortId, r: PacketRef) {
        let to = self.ports[port.index()].to;
        if self.proxy_absorbs(now, to, r) {
            return;
        }
        if !self.agent_at(port, &self.pool[r]) {
            self.receive(now, to, r);
        } else {
            let pkt = self.pool.take(r);
            if let Some(pkt) = self.agent_intercept(now, port, pkt) {
                let r = self.pool.insert(pkt);
                self.receive(now, to, r);
            }
        }
    }

    /// A packet arrives intact at `node`: deliver it locally or forward it (inline: a router
    /// forwards without entering the receiving path's frame).
    #[inline(always)]
    pub(super) fn receive(&mut self, now: SimTime, node: NodeId, r: PacketRef) {
        if self.pool.head(r).dst != node {
            self.send_from(now, node, r);
        } else {
            self.receive_here(now, r);
        }
    }

    /// A packet arrives intact at its destination.
    fn receive_here(&mut self, now: SimTime, r: PacketRef) {
        let pkt = &self.pool[r];
        if !pkt.is_tcp() {
            self.receive_other(now, r);
            return;
        }
        let f = pkt.flow.index();
        match pkt.kind() {
            PacketKind::Data => {
                let ev = crate::tap::ReceiverEvent::Data {
                    seq: pkt.seg.seq,
                    len: pkt.seg.len,
                };
                self.taps.receiver(now, pkt.flow, ev);
                if let Some(o) = self.oracle.as_deref_mut() {
                    o.arrived(pkt.flow, now, pkt.seg.len);
                }
                let receiver = &mut self.flows[f].receiver;
                receiver.on_segment(now, &pkt.seg);
                // A run can complete only when a transfer does: the segment that delivered its
                // last byte (now) has the loop look.
                if self.completes && receiver.complete_at() == Some(now) {
                    self.completion_due = true;
                }
                self.pool.release(r, Fate::Delivered);
                self.pump_receiver_inline(f, now);
                if let Some((w, end)) = self.flows[f].web {
                    self.web_progress(now, f, w, end);
                }
            }
            PacketKind::Ack => {
                let fl = &mut self.flows[f];
                if let Some(rate) = self
                    .oracle
                    .as_deref()
                    .and_then(|o| o.available(pkt.flow, now))
                {
                    fl.sender.set_available_rate(rate);
                }
                let (sender, sink) = fl.sender_and_sink();
                sender.on_ack(now, &pkt.seg, sink);
                self.pool.release(r, Fate::Delivered);
                self.pump_sender(f, now);
            }
        }
    }

    /// A link notice, an emulated datagram or a UDP datagram reaches its destination (out of
    /// line: `receive` keeps only the TCP segments' path in its frame).
    #[inline(never)]
    fn receive_other(&mut self, now: SimTime, r: PacketRef) {
        let pkt = &self.pool[r];
        if let Proto::Notice(kind) = pkt.proto {
            let (flow, seq) = (pkt.flow, pkt.seg.seq);
            self.pool.release(r, Fate::Delivered);
            self.notice_arrived(now, flow, tcp::LinkNotice { kind, seq });
        } else if pkt.is_emulated() {
            self.pool.retire(Fate::Delivered);
            self.emulated_out.push((now, self.pool.take(r)));
        } else {
            debug_assert!(pkt.is_udp());
            let u = &mut self.udp[pkt.flow.index()];
            u.delivered += 1;
            u.delivered_bytes += u64::from(pkt.seg.len);
            if u.stop.is_none_or(|stop| now <= stop) {
                u.delivered_by_stop += u64::from(pkt.seg.len);
            }
            self.pool.release(r, Fate::Delivered);
        }
    }

    pub(super) fn pump_sender(&mut self, f: usize, now: SimTime) {
        loop {
            let fl = &mut self.flows[f];
            let (sender, sink) = fl.sender_and_sink();
            let seg = sender.poll_transmit(now, sink);
            let Some(seg) = seg else { break };
            let src = fl.src;
            let pkt = Packet {
                uid: self.next_uid,
                flow: fl.id,
                src,
                dst: fl.dst,
                seg,
                link: LinkTag::None,
                proto: Proto::Tcp,
            };
            self.next_uid += 1;
            // Most senders' nodes run no agent: one insertion of the packet as built, no copy
            // back from the agent's answer (callgrind; built in the insertion itself, the
            // packet is copied field by field instead of by `memcpy`, which costs more).
            let r = if !self.nodes[src.index()].has_agent() {
                self.pool.insert(pkt)
            } else {
                match self.agent_outgoing(now, src, pkt) {
                    Some(p) => self.pool.insert(p),
                    None => continue,
                }
            };
            if let Some(dropped) = self.send_from(now, src, r) {
                // ENOBUFS from the host's own interface queue (Ludwig2000 §2.3).
                let (sender, sink) = self.flows[f].sender_and_sink();
                sender.on_local_drop(now, &dropped.seg, sink);
            }
        }
        let fl = &mut self.flows[f];
        if let Some(t) = fl.sender.poll_timeout() {
            if fl.sender_wake.is_none_or(|w| t < w) {
                fl.sender_wake = Some(t);
                self.queue
                    .schedule(t.max(now), Event::SenderTimer { flow: fl.id });
            }
        }
    }

    #[inline(never)]
    pub(super) fn pump_receiver(&mut self, f: usize, now: SimTime) {
        self.pump_receiver_inline(f, now);
    }

    /// [`Network::pump_receiver`], inlined where a data segment was received (callgrind: the
    /// call's frame cost the reference run 2.2 M instructions; inlined into `run` as well, the
    /// forwarding `send_from` costs more than its call saves).
    #[inline(always)]
    fn pump_receiver_inline(&mut self, f: usize, now: SimTime) {
        while let Some(seg) = self.flows[f].receiver.poll_transmit(now) {
            let fl = &self.flows[f];
            let ev = crate::tap::ReceiverEvent::Ack { ack: seg.ack };
            self.taps.receiver(now, fl.id, ev);
            let src = fl.dst;
            let r = self.pool.insert(Packet {
                uid: self.next_uid,
                flow: fl.id,
                src,
                dst: fl.src,
                seg,
                link: LinkTag::None,
                proto: Proto::Tcp,
            });
            self.next_uid += 1;
            self.send_from(now, src, r);
        }
        let fl = &mut self.flows[f];
        if let Some(t) = fl.receiver.poll_timeout() {
            if fl.receiver_wake.is_none_or(|w| t < w) {
                fl.receiver_wake = Some(t);
                self.queue
                    .schedule(t.max(now), Event::ReceiverTimer { flow: fl.id });
            }
        }
    }

    /// The port `from` sends a packet for `to` through, if any.
    #[inline]
    pub(super) fn route(&self, from: NodeId, to: NodeId) -> Option<PortId> {
        self.routes[from.index() * self.nodes.len() + to.index()]
    }

    /// Hand the packet of `r` to the port `node` routes it through (IP output). The packet,
    /// taken out of the pool, if the port's queue dropped it and is the node's own interface
    /// queue: the local-drop signal (Ludwig2000 §2.3).
    pub(super) fn send_from(&mut self, now: SimTime, node: NodeId, r: PacketRef) -> Option<Packet> {
        let Some(port) = self.route(node, self.pool.head(r).dst) else {
            self.pool.release(r, Fate::Unroutable);
            return None;
        };
        // A node's jitter clears its ports' `plain_offer` (crate::port): one check per packet.
        if !self.ports[port.index()].plain_offer
            && self.jitter.is_some()
            && self.jitter_hold(now, node, port, r)
        {
            return None;
        }
        self.offer_to(now, port, r)
    }

    /// Hold `r` for `node`'s processing jitter, if the node has one (crate::jitter): whether
    /// it was held (out of line: most runs have no jitter).
    #[inline(never)]
    fn jitter_hold(&mut self, now: SimTime, node: NodeId, port: PortId, r: PacketRef) -> bool {
        let Some(at) = self
            .jitter
            .as_mut()
            .and_then(|j| j.hold(now, node.index(), port, r))
        else {
            return false;
        };
        self.queue.schedule(at, Event::Jittered { port });
        true
    }

    /// Offer the packet of `r` to `port` (IP output past routing and jitter); the packet if
    /// the port's queue dropped it and is its node's own interface queue. Inlined into
    /// `send_from`, as it was part of it.
    #[inline(always)]
    fn offer_to(&mut self, now: SimTime, port: PortId, r: PacketRef) -> Option<Packet> {
        let p = &mut self.ports[port.index()];
        let mut dropped = None;
        // A port of the access point's shared interface queue (crate::ifq) is never plain:
        // most ports decide on the first flag.
        let queued = if p.plain_offer || p.ifq.is_none() {
            p.offer(now, r, &mut self.pool)
        } else {
            self.enqueue_at(now, port, r, false)
        };
        let p = &self.ports[port.index()];
        if !queued {
            let pkt = self.pool.take(r);
            self.pool.retire(Fate::QueueDrop);
            if p.cfg.host_queue {
                dropped = Some(pkt);
            }
        }
        let m = p.medium;
        self.kick(now, m, port);
        dropped
    }

    /// Put the packet of `r` straight into `port`'s queue (below the IP-stage hiccups; a drop
    /// there is counted by the port and reported to no one) and start its channel if idle.
    pub(super) fn enqueue_and_start(&mut self, now: SimTime, port: PortId, r: PacketRef) {
        let m = self.ports[port.index()].medium;
        if !self.enqueue_at(now, port, r, false) {
            self.pool.release(r, Fate::QueueDrop);
        } else {
            self.kick(now, m, port);
        }
    }
}
