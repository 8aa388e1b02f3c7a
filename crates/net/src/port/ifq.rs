//! A port of an access point's shared interface queue (crate::ifq): joining it, the arrival
//! stamp of its head, queueing with the group's stamp.

use super::Port;
use crate::packet::PacketRef;
use engine::SimTime;

impl Port {
    /// Join the access point's shared interface queue `ifq` (crate::ifq): the medium takes
    /// from it in the group's arrival order, the network queues into it.
    pub(crate) fn share_ifq(&mut self, ifq: u32) {
        self.ifq = Some(ifq);
        self.plain_offer = false;
        self.plain_take = false;
    }

    /// The arrival stamp of the head packet of a shared interface queue's port (crate::ifq).
    pub(crate) fn head_stamp(&self) -> Option<u64> {
        self.stamps.front().map(|s| s.0)
    }

    /// Queue `pkt` at `now` with its shared queue's `stamp`, at the head or the tail; the
    /// shared capacity was checked by the caller (crate::network).
    pub(crate) fn enqueue_stamped(
        &mut self,
        now: SimTime,
        pkt: PacketRef,
        stamp: u64,
        front: bool,
    ) {
        if front {
            self.queue.push_front(pkt);
            self.stamps.push_front((stamp, now));
        } else {
            self.queue.push_back(pkt);
            self.stamps.push_back((stamp, now));
        }
        self.stats.max_queue = self.stats.max_queue.max(self.queue.len() as u32);
    }
}
