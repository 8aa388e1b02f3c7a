//! The access point's shared interface queue (crate::ifq) as the network fills it: every path
//! that queues a packet at a port (IP output, an agent's local resends, a hold's flush) goes
//! through [`Network::enqueue_at`], which for a port of a shared queue checks the group's
//! capacity and stamps the packet with the group's arrival order.

use super::Network;
use crate::agent::QueueFill;
use crate::config::TopologyConfig;
use crate::ifq::{ApQueue, SharedIfq};
use crate::packet::PacketRef;
use crate::port::Port;
use engine::{PortId, SimTime};

impl Network {
    /// The access points' queues of `cfg`'s `dcf` cells: with [`ApQueue::Shared`] one group
    /// of the access point's port of each of the cell's links, with the smallest of their
    /// queue limits; per station, a group of its own for each drop-tail port (the same queue
    /// as before, timed: `PortStats::queue_wait_ns`). Each port joins its group.
    pub(super) fn shared_ifqs(cfg: &TopologyConfig, ports: &mut [Port]) -> Vec<SharedIfq> {
        let mut out = Vec::new();
        for cell in &cfg.cells {
            if cell.dcf.is_none() {
                continue;
            }
            let members: Vec<PortId> = cell
                .links
                .iter()
                .map(|&l| {
                    let fwd = PortId(2 * l as u32);
                    if cfg.links[l].a == cell.access_point {
                        fwd
                    } else {
                        PortId(fwd.0 + 1)
                    }
                })
                .collect();
            if cell.ap_queue == ApQueue::PerStation {
                for p in members {
                    if ports[p.index()].aqm.is_some() {
                        continue;
                    }
                    let limit = ports[p.index()].cfg.queue_packets as usize;
                    ports[p.index()].share_ifq(out.len() as u32);
                    out.push(SharedIfq::new(vec![p], limit));
                }
                continue;
            }
            let limit = members
                .iter()
                .map(|p| ports[p.index()].cfg.queue_packets as usize)
                .min()
                .unwrap_or(0);
            let g = out.len() as u32;
            for p in &members {
                ports[p.index()].share_ifq(g);
            }
            out.push(SharedIfq::new(members, limit));
        }
        out
    }

    /// Packets the ports of shared queue `g` hold between them.
    fn ifq_len(&self, g: u32) -> usize {
        self.ifqs[g as usize]
            .ports
            .iter()
            .map(|p| self.ports[p.index()].queue.len())
            .sum()
    }

    /// How full the queue of `port` is for an agent that asks (ns-2's snoop reads its
    /// interface queue's length: for a shared queue, the whole queue's).
    pub(super) fn queue_fill(&self, port: PortId) -> QueueFill {
        let p = &self.ports[port.index()];
        match p.ifq {
            Some(g) => QueueFill {
                len: self.ifq_len(g),
                limit: self.ifqs[g as usize].limit,
            },
            None => QueueFill {
                len: p.queue.len(),
                limit: p.cfg.queue_packets as usize,
            },
        }
    }

    /// Queue `r` at the tail of `port` (drop-tail: `false` if it was full, the drop counted on
    /// the port and `r` left to the caller) or at its head (always queued: a priority resend).
    /// A port of a shared queue counts the whole queue and stamps the packet.
    pub(super) fn enqueue_at(
        &mut self,
        now: SimTime,
        port: PortId,
        r: PacketRef,
        front: bool,
    ) -> bool {
        let Some(g) = self.ports[port.index()].ifq else {
            let p = &mut self.ports[port.index()];
            if front {
                p.enqueue_front(now, r, &self.pool);
                return true;
            }
            return p.enqueue(r);
        };
        if !front && !self.ifqs[g as usize].admits(self.ifq_len(g)) {
            self.ports[port.index()].stats.queue_drops += 1;
            return false;
        }
        let stamp = self.ifqs[g as usize].stamp(front);
        self.ports[port.index()].enqueue_stamped(now, r, stamp, front);
        true
    }
}
