//! UDP background flows (crate::traffic): sources on hosts, counting sinks, in their own flow-id
//! space (packets with `Proto::Udp`).

use super::{Event, Network};
use crate::packet::{LinkTag, Packet, Proto};
use crate::traffic::UdpSource;
use engine::{FlowId, NodeId, SimTime};

/// A UDP background flow: a source on `src`, a counting sink on `dst` (crate::traffic).
pub struct UdpFlow {
    /// Its id, in the UDP flows' own id space.
    pub id: FlowId,
    /// Node of the source.
    pub src: NodeId,
    /// Node of the sink.
    pub dst: NodeId,
    pub(super) source: UdpSource,
    /// When the source stops (none: at the end of the run).
    pub stop: Option<SimTime>,
    /// Datagrams sent.
    pub sent: u64,
    /// Datagrams received at the sink.
    pub delivered: u64,
    /// Payload bytes received at the sink.
    pub delivered_bytes: u64,
    /// `delivered_bytes` when the measurement window opened.
    pub delivered_at_window_start: u64,
    /// Payload bytes received at the sink until the source stopped (its goodput window ends
    /// there, as a TCP flow's does).
    pub delivered_by_stop: u64,
}

impl UdpFlow {
    /// Payload bytes received at the sink inside the measurement window: from its opening to
    /// the source's stop (or the end).
    pub fn window_bytes(&self) -> u64 {
        self.delivered_by_stop
            .saturating_sub(self.delivered_at_window_start)
    }
}

impl Network {
    /// Add a UDP source from `src` to `dst`, its first datagram at `start`, sending until
    /// `stop` (or the end of the run).
    pub fn add_udp_flow(
        &mut self,
        src: NodeId,
        dst: NodeId,
        source: UdpSource,
        stop: Option<SimTime>,
    ) -> FlowId {
        let id = FlowId(self.udp.len() as u32);
        self.udp.push(UdpFlow {
            id,
            src,
            dst,
            source,
            stop,
            sent: 0,
            delivered: 0,
            delivered_bytes: 0,
            delivered_at_window_start: 0,
            delivered_by_stop: 0,
        });
        id
    }

    /// The UDP background flows.
    pub fn udp_flows(&self) -> &[UdpFlow] {
        &self.udp
    }

    /// A UDP source's datagram leaves its host; the next is scheduled (until the source stops).
    pub(super) fn udp_send(&mut self, now: SimTime, flow: FlowId) {
        let u = &mut self.udp[flow.index()];
        u.sent += 1;
        let (src, dst) = (u.src, u.dst);
        let seg = tcp::Segment {
            seq: tcp::SeqNum(0),
            ack: tcp::SeqNum(0),
            len: u.source.config().size(),
            wnd: 0,
            ack_flag: false,
            opts: tcp::SegOptions::default(),
        };
        let next = u.source.next_departure();
        if u.stop.is_none_or(|stop| next < stop) {
            self.queue.schedule(next, Event::UdpSend { flow });
        }
        let r = self.pool.insert(Packet {
            uid: self.next_uid,
            flow,
            src,
            dst,
            seg,
            link: LinkTag::None,
            proto: Proto::Udp,
        });
        self.next_uid += 1;
        // A datagram the host's own queue drops is only counted there (UDP has no ENOBUFS
        // reaction).
        self.send_from(now, src, r);
    }
}
