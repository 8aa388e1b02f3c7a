//! The event-order fingerprint: a hash over the time, kind and target of every event the loop
//! pops, in order, as OMNeT++'s fingerprint tests hash the events of a run (OMNeT++ Simulation
//! Manual, "Fingerprint tests"). Two runs with equal fingerprints handled the same events in the
//! same order, not only reached the same results; a change of the scheduler must leave it
//! unchanged (issue 37). Off unless enabled ([`Network::enable_fingerprint`]): the event loop
//! is compiled twice, so the plain loop carries no test of the flag per event.

use super::{Event, Network};
use engine::SimTime;

/// FNV-1a, 64 bits, over the little-endian bytes of each event's time (8 bytes), kind (1 byte)
/// and target (8 bytes): the offset basis and prime of Fowler, Noll and Vo
/// (draft-eastlake-fnv-21 §2.1 and §5); integer operations only, the same on every platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fingerprint(u64);

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Fingerprint {
    pub(super) const fn new() -> Self {
        Fingerprint(FNV_OFFSET)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    }

    /// Add one popped event.
    #[inline(never)]
    pub(super) fn add(&mut self, now: SimTime, ev: &Event) {
        let (kind, target) = ev.kind_and_target();
        self.bytes(&now.as_nanos().to_le_bytes());
        self.bytes(&[kind]);
        self.bytes(&target.to_le_bytes());
    }

    pub(super) const fn value(self) -> u64 {
        self.0
    }
}

impl Event {
    /// The event's kind (a number fixed here, not the enum's layout) and its target (the port,
    /// flow, node, medium or session it concerns; two ids packed in 32-bit halves).
    fn kind_and_target(&self) -> (u8, u64) {
        let pair = |a: u32, b: u32| u64::from(a) << 32 | u64::from(b);
        match *self {
            Event::Mac { medium, tag } => (0, pair(medium, tag)),
            Event::Arrive { port } => (1, u64::from(port.0)),
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
        }
    }
}

impl Network {
    /// Hash every event [`Network::run`] pops from now on into the event-order fingerprint.
    pub fn enable_fingerprint(&mut self) {
        self.fingerprint.get_or_insert(Fingerprint::new());
    }

    /// The event-order fingerprint of the events popped since it was enabled (`None` if off).
    pub fn fingerprint(&self) -> Option<u64> {
        self.fingerprint.map(Fingerprint::value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a's published test vectors (draft-eastlake-fnv-21, Appendix C: "" and "a").
    #[test]
    fn fnv1a_test_vectors() {
        let mut h = Fingerprint::new();
        assert_eq!(h.value(), 0xcbf2_9ce4_8422_2325);
        h.bytes(b"a");
        assert_eq!(h.value(), 0xaf63_dc4c_8601_ec8c);
    }

    /// The order of events, not only their set, changes the fingerprint.
    #[test]
    fn order_matters() {
        let a = Event::Arrive {
            port: engine::PortId(1),
        };
        let b = Event::SenderTimer {
            flow: engine::FlowId(1),
        };
        let (mut x, mut y) = (Fingerprint::new(), Fingerprint::new());
        x.add(SimTime(5), &a);
        x.add(SimTime(5), &b);
        y.add(SimTime(5), &b);
        y.add(SimTime(5), &a);
        assert_ne!(x, y);
    }
}
