//! Per-node processing jitter against phase effects (Floyd and Jacobson, "On traffic phase
//! effects in packet-switched gateways", 1992): each packet a node with a jitter sends waits a
//! uniform random time in `[0, jitter]` before it reaches its interface queue, drawn from the
//! node's own stream (`node{n}/jitter`, crate::keys), and the packets of one interface keep
//! their order (a packet never leaves before the one handed over before it).
//!
//! This is ns-2's `overhead_` (Agent/TCP, tcp.cc `TcpAgent::send_much`: with `overhead_ != 0`
//! each segment goes out on a `delsnd_timer_` of `Random::uniform(overhead_)`, one at a time,
//! so that order is kept), applied by a node to everything it sends: its own segments, ACKs
//! and, on a router, forwarded packets. Deliberate deviation: a queue drop of a held packet is
//! not reported to the sending transport (no `tcp_quench`), since it happens after the hand-off.

use crate::packet::PacketRef;
use engine::{PortId, RngStream, SimDuration, SimTime};
use std::collections::VecDeque;

/// The jitter of one node.
pub(crate) struct NodeJitter {
    /// The largest delay, ns.
    max_ns: u64,
    rng: RngStream,
}

impl NodeJitter {
    /// A jitter of at most `max` from `rng`.
    pub(crate) fn new(max: SimDuration, rng: RngStream) -> Self {
        NodeJitter {
            max_ns: max.as_nanos(),
            rng,
        }
    }

    /// One delay, uniform over `[0, max]` in whole nanoseconds.
    fn draw(&mut self) -> SimDuration {
        SimDuration(self.rng.below(self.max_ns + 1))
    }
}

/// The jitter of every node that has one, and the packets held per port.
pub(crate) struct Jitters {
    /// By node index; `None` for nodes without jitter.
    nodes: Vec<Option<NodeJitter>>,
    /// By port index: packets waiting, with their release times, oldest first.
    held: Vec<VecDeque<(SimTime, PacketRef)>>,
}

impl Jitters {
    /// For `nodes` (by index) and `ports` ports; `None` if no node has a jitter.
    pub(crate) fn new(nodes: Vec<Option<NodeJitter>>, ports: usize) -> Option<Box<Self>> {
        if nodes.iter().all(Option::is_none) {
            return None;
        }
        Some(Box::new(Jitters {
            nodes,
            held: (0..ports).map(|_| VecDeque::new()).collect(),
        }))
    }

    /// Hold `pkt`, handed by `node` at `now` to `port`, if the node has a jitter: the time it
    /// is due at the port (never before the packet held before it).
    pub(crate) fn hold(
        &mut self,
        now: SimTime,
        node: usize,
        port: PortId,
        pkt: PacketRef,
    ) -> Option<SimTime> {
        let j = self.nodes.get_mut(node)?.as_mut()?;
        let held = &mut self.held[port.index()];
        let at = (now + j.draw()).max(held.back().map_or(now, |&(t, _)| t));
        held.push_back((at, pkt));
        Some(at)
    }

    /// Whether `node` has a jitter.
    pub(crate) fn has(&self, node: usize) -> bool {
        self.nodes.get(node).is_some_and(Option::is_some)
    }

    /// The packet due at `port` now (the oldest held).
    pub(crate) fn release(&mut self, port: PortId) -> Option<PacketRef> {
        self.held[port.index()].pop_front().map(|(_, p)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{test_packet, PacketPool};

    #[test]
    fn delays_are_uniform_within_the_bound_and_keep_the_order() {
        let mut pool = PacketPool::default();
        let nodes = vec![
            None,
            Some(NodeJitter::new(
                SimDuration::from_millis(1),
                RngStream::new(1, "node1/jitter"),
            )),
        ];
        assert!(
            Jitters::new(vec![None, None], 2).is_none(),
            "no jitter, no state"
        );
        let mut j = Jitters::new(nodes, 2).unwrap();
        let port = PortId(0);
        let r = pool.insert(test_packet(0, 0));
        assert_eq!(
            j.hold(SimTime::ZERO, 0, port, r),
            None,
            "node 0 has no jitter"
        );
        let mut last = SimTime::ZERO;
        let mut sum = 0u64;
        let n = 10_000u64;
        for i in 0..n {
            let now = SimTime(i * 2_000_000);
            let at = j.hold(now, 1, port, r).unwrap();
            assert!(at >= now && at <= now + SimDuration::from_millis(1));
            assert!(at >= last);
            last = at;
            sum += (at - now).as_nanos();
            assert_eq!(j.release(port), Some(r));
        }
        // Mean 0.5 ms within 2 %.
        let mean = sum / n;
        assert!((490_000..=510_000).contains(&mean), "mean {mean} ns");
        // Two packets handed over at once: the second is never due before the first.
        let a = j.hold(SimTime(1), 1, port, r).unwrap();
        let b = j.hold(SimTime(1), 1, port, r).unwrap();
        assert!(b >= a);
    }
}
