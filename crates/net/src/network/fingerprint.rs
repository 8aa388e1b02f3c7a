//! What the event-order fingerprint (engine's `fingerprint.rs`) takes of each event
//! of the network: its kind and its target. The queue hashes them with each event's time as it
//! pops the event, on its out-of-line path, so a run without the fingerprint pays nothing.

use super::{Event, Network};

impl Event {
    /// The event's kind (a number fixed here, not the enum's layout) and its target (the port,
    /// flow, node, medium or session it concerns; two ids packed in 32-bit halves).
    fn kind_and_target(&self) -> (u8, u64) {
        let pair = |a: u32, b: u32| u64::from(a) << 32 | u64::from(b);
        match *self {
            Event::Mac { medium, tag } => (0, pair(medium, tag)),
            Event::Arrive { port, .. } => (1, u64::from(port.0)),
            Event::SenderTimer { flow } => (2, u64::from(flow.0)),
            Event::ReceiverTimer { flow } => (3, u64::from(flow.0)),
            Event::HoldEnd { port } => (4, u64::from(port.0)),
            Event::AgentTimer { node } => (5, u64::from(node.0)),
            Event::ProxyTimer { node, flow } => (6, pair(node.0, flow.0)),
            Event::FlowStart { flow } => (7, u64::from(flow.0)),
            Event::FlowStop { flow } => (8, u64::from(flow.0)),
            Event::WindowStart => (9, 0),
            Event::UdpSend { flow } => (10, u64::from(flow.0)),
            Event::WebWake { session } => (11, u64::from(session)),
            Event::Notices => (12, 0),
            Event::Headers => (13, 0),
            Event::Jittered { port } => (14, u64::from(port.0)),
        }
    }
}

impl Network {
    /// Hash every event the network handles from now on into the event-order fingerprint: a
    /// hash over each event's time, kind and target, in the order handled.
    pub fn enable_fingerprint(&mut self) {
        self.queue.enable_fingerprint(Event::kind_and_target);
    }

    /// The event-order fingerprint of the events handled since it was enabled (`None` if off).
    pub fn fingerprint(&self) -> Option<u64> {
        self.queue.fingerprint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind has its own number.
    #[test]
    fn kinds_are_distinct() {
        use engine::{FlowId, NodeId, PortId};
        let (f, n, p) = (FlowId(1), NodeId(1), PortId(1));
        let all = [
            Event::Mac { medium: 1, tag: 1 },
            Event::Arrive {
                port: p,
                slot: 1,
                kind: crate::packet::PacketKind::Data,
                arrival: crate::medium::Arrival::Intact,
            },
            Event::SenderTimer { flow: f },
            Event::ReceiverTimer { flow: f },
            Event::HoldEnd { port: p },
            Event::AgentTimer { node: n },
            Event::ProxyTimer { node: n, flow: f },
            Event::FlowStart { flow: f },
            Event::FlowStop { flow: f },
            Event::WindowStart,
            Event::UdpSend { flow: f },
            Event::WebWake { session: 1 },
            Event::Notices,
            Event::Headers,
        ];
        let kinds: std::collections::BTreeSet<u8> =
            all.iter().map(|e| e.kind_and_target().0).collect();
        assert_eq!(kinds.len(), all.len());
    }

    /// An arrival carries its frame and the event stays 16 bytes, its tag four of them (the
    /// queue moves events on every push and pop: `near`'s entries are 24 bytes, the second
    /// tier's 40).
    #[test]
    fn events_stay_sixteen_bytes_with_a_four_byte_tag() {
        assert_eq!(std::mem::size_of::<Event>(), 16);
        assert_eq!(std::mem::align_of::<Event>(), 4);
    }
}
