//! The access point's interface queue of a DCF cell: one queue per station (each AP port its
//! own drop-tail queue, served by the DCF in turn: what Linux mac80211's per-station TXQs do) or
//! one queue shared by every station, first in first out (ns-2's and ns-3's wireless node: one
//! interface queue between the link layer and the MAC).
//!
//! ns-2.35 gives a mobile node one interface queue per interface, whatever the number of
//! neighbours: `Node/MobileNode instproc add-interface` makes `set ifq_($t) [new $qtype]`
//! (`tcl/lib/ns-mobilenode.tcl:366-376`), the link layer sends into it (`$ll down-target $ifq`,
//! `:440`) and it feeds the one MAC with `limit_ $qlen` (`:453-454`; `$qlen` is node-config's
//! `-ifqLen`, `tcl/lib/ns-lib.tcl:695-696`, 50 in the examples, `tcl/ex/simple-wireless.tcl:45`).
//! The MAC takes the next packet only when it is done with the last (`Mac802_11::recv` keeps
//! the queue's `callback_`, `mac/mac-802_11.cc:1520`, and calls it in `tx_resume`, `:635-637`),
//! so a frame the MAC retries for one station holds every station's packets behind it.
//!
//! lossylink keeps a port per station at the access point (routing, counters and agents stay
//! per link); the shared queue is those ports' queues taken together: a packet offered to any
//! of them is dropped when the ports hold `limit` packets between them (drop-tail on the
//! total), and each queued packet carries a stamp of the group's arrival order, so that the DCF
//! serves the port whose head arrived first ([`oldest`]): one FIFO. A packet put at the head
//! (a base-station agent's priority resend) takes a stamp before every other. Per station, each
//! drop-tail port is a group of its own (the same queue and order as a plain port); either way
//! the port times each packet's wait before the MAC takes it (`PortStats::queue_wait_ns`:
//! head-of-line blocking measured).

use engine::PortId;

/// How the access point of a DCF cell queues its stations' packets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ApQueue {
    /// One drop-tail queue per station, served in turn (each of the link's `queue` packets).
    #[default]
    PerStation,
    /// One drop-tail FIFO shared by every station (ns-2's interface queue).
    Shared,
}

/// The stamps of a shared queue's arrival order: packets at the tail take rising stamps from the
/// middle of the range, packets put at the head falling ones below it.
#[derive(Clone, Debug)]
pub(crate) struct SharedIfq {
    /// The access point's ports that share it (one per station, in link order).
    pub(crate) ports: Vec<PortId>,
    /// Packets the ports may hold between them.
    pub(crate) limit: usize,
    back: u64,
    front: u64,
}

impl SharedIfq {
    /// A queue of `limit` packets over `ports`.
    pub(crate) fn new(ports: Vec<PortId>, limit: usize) -> Self {
        SharedIfq {
            ports,
            limit,
            back: 1 << 63,
            front: (1 << 63) - 1,
        }
    }

    /// Whether a packet offered at the tail is queued when the ports hold `len` (drop-tail).
    pub(crate) fn admits(&self, len: usize) -> bool {
        len < self.limit
    }

    /// The stamp of a packet queued now at the tail (after every packet queued so far) or at
    /// the head (before them).
    pub(crate) fn stamp(&mut self, front: bool) -> u64 {
        if front {
            self.front -= 1;
            self.front + 1
        } else {
            self.back += 1;
            self.back - 1
        }
    }
}

/// Of `heads` (a port's place and the stamp of its head packet, if it has one), the place of
/// the port whose head arrived first: the next packet of the shared FIFO.
pub(crate) fn oldest(heads: impl Iterator<Item = (usize, Option<u64>)>) -> Option<usize> {
    heads
        .filter_map(|(k, s)| s.map(|s| (s, k)))
        .min()
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Three stations' queues taken together serve in arrival order, whatever the station:
    /// A1 A2 B1 A3 C1 arrive; the FIFO sends them in that order (per station in turn would send
    /// A1 B1 C1 A2 A3). A packet put at the head goes first; a full queue refuses the tail.
    #[test]
    fn stamps_make_one_fifo_of_the_stations_queues() {
        let mut q = SharedIfq::new(vec![PortId(0), PortId(2), PortId(4)], 5);
        let mut ports: Vec<VecDeque<(u64, &str)>> = vec![VecDeque::new(); 3];
        let mut len = 0;
        for (k, name) in [(0, "A1"), (0, "A2"), (1, "B1"), (0, "A3"), (2, "C1")] {
            assert!(q.admits(len));
            ports[k].push_back((q.stamp(false), name));
            len += 1;
        }
        // Full: drop-tail on the total, whichever station the packet is for.
        assert!(!q.admits(len));
        // A priority resend for C goes before everything.
        ports[2].push_front((q.stamp(true), "C0"));
        let mut order = Vec::new();
        while let Some(k) = oldest(
            ports
                .iter()
                .enumerate()
                .map(|(k, p)| (k, p.front().map(|h| h.0))),
        ) {
            order.push(ports[k].pop_front().unwrap().1);
        }
        assert_eq!(order, ["C0", "A1", "A2", "B1", "A3", "C1"]);
        assert_eq!(oldest([(0, None), (1, None)].into_iter()), None);
    }
}
