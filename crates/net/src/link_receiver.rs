//! The mobile's half of the `ll-arq` link layer ([`crate::agent::arq`]): it answers every link
//! data frame with a selective link ACK (cumulative part + 64-bit bitmap; the network queues it
//! on the reverse direction, updating one still waiting there), discards duplicate
//! frames, and releases frames to IP either as they arrive (out-of-order delivery, like LL,
//! Balakrishnan97 §2.8) or in link order, holding the frames behind a hole until the hole is
//! repaired or given up (resequencing, like the TDMA link layer of §2.13).
//!
//! A frame is given up when a later frame's `base` (the oldest LSN the sender still holds) passes
//! it: the receiver then stops waiting for it and releases what it held behind it.

use crate::packet::{LinkAck, LinkTag, Packet};
use std::collections::BTreeMap;

/// Always-on counters of a link receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkReceiverStats {
    /// Link data frames that arrived intact.
    pub frames: u64,
    /// ... of which duplicates (already received), discarded.
    pub duplicates: u64,
    /// Frames held back for resequencing (in-order mode).
    pub held: u64,
    /// Link ACKs generated.
    pub acks: u64,
}

impl LinkReceiverStats {
    /// Field-wise sum.
    pub fn add(&mut self, o: &LinkReceiverStats) {
        self.frames += o.frames;
        self.duplicates += o.duplicates;
        self.held += o.held;
        self.acks += o.acks;
    }
}

/// What one arriving frame produces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkRx {
    /// Packets to release to IP, in order, link header removed.
    pub deliver: Vec<Packet>,
    /// The link ACK to send back.
    pub ack: Option<LinkAck>,
    /// The frame was a duplicate and is discarded (neither delivered nor held).
    pub discarded: bool,
}

/// The link receiver at the far end of the wireless hop.
#[derive(Clone, Debug)]
pub struct LinkReceiver {
    in_order: bool,
    ack_bytes: u32,
    /// Every LSN below this was received or given up.
    next: u32,
    /// Frames received above `next`: `Some` while held for resequencing, `None` once released.
    above: BTreeMap<u32, Option<Packet>>,
    stats: LinkReceiverStats,
}

impl LinkReceiver {
    /// A receiver; `in_order` turns resequencing on; link ACK frames carry `ack_bytes`.
    pub fn new(in_order: bool, ack_bytes: u32) -> Self {
        LinkReceiver {
            in_order,
            ack_bytes,
            next: 0,
            above: BTreeMap::new(),
            stats: LinkReceiverStats::default(),
        }
    }

    /// Counters so far.
    pub fn stats(&self) -> LinkReceiverStats {
        self.stats
    }

    /// Packets held now, waiting for a hole below them to be repaired (in-order mode).
    pub fn holding(&self) -> u64 {
        self.above.values().filter(|p| p.is_some()).count() as u64
    }

    /// Move `next` up to `to` (frames below given up), then over every received frame,
    /// releasing the ones held.
    fn advance(&mut self, to: u32, out: &mut Vec<Packet>) {
        while let Some((&lsn, _)) = self.above.first_key_value() {
            if lsn >= to && lsn != self.next {
                break;
            }
            if let Some((_, Some(p))) = self.above.pop_first() {
                out.push(p);
            }
            self.next = self.next.max(lsn + 1);
        }
        self.next = self.next.max(to);
    }

    fn ack(&mut self) -> LinkAck {
        self.stats.acks += 1;
        let mut bitmap = 0u64;
        for &lsn in self.above.keys() {
            let off = lsn - self.next;
            if (1..=64).contains(&off) {
                bitmap |= 1 << (off - 1);
            }
        }
        LinkAck {
            next: self.next,
            bitmap,
            bytes: self.ack_bytes,
        }
    }

    /// An intact frame arrived. Plain IP frames pass through untouched and unacknowledged.
    pub fn on_frame(&mut self, mut pkt: Packet) -> LinkRx {
        let LinkTag::Data { lsn, base } = pkt.link else {
            return LinkRx {
                deliver: vec![pkt],
                ack: None,
                discarded: false,
            };
        };
        pkt.link = LinkTag::None;
        self.stats.frames += 1;
        let mut deliver = Vec::new();
        let mut discarded = false;
        if base > self.next {
            self.advance(base, &mut deliver);
        }
        if lsn < self.next || self.above.contains_key(&lsn) {
            self.stats.duplicates += 1;
            discarded = true;
        } else if lsn == self.next {
            deliver.push(pkt);
            self.next += 1;
            self.advance(self.next, &mut deliver);
        } else if self.in_order {
            self.stats.held += 1;
            self.above.insert(lsn, Some(pkt));
        } else {
            deliver.push(pkt);
            self.above.insert(lsn, None);
        }
        LinkRx {
            deliver,
            ack: Some(self.ack()),
            discarded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::testkit::data;

    fn frame(lsn: u32, base: u32) -> Packet {
        let mut p = data(lsn);
        p.link = LinkTag::Data { lsn, base };
        p
    }
    fn idx(r: &LinkRx) -> Vec<u32> {
        crate::agent::testkit::seqs(&r.deliver)
    }

    #[test]
    fn out_of_order_mode_delivers_at_once_and_reports_the_hole() {
        let mut rx = LinkReceiver::new(false, 8);
        assert_eq!(idx(&rx.on_frame(frame(0, 0))), vec![0]);
        let r = rx.on_frame(frame(2, 0));
        assert_eq!(idx(&r), vec![2], "delivered past the hole");
        let a = r.ack.expect("acked");
        assert_eq!((a.next, a.bitmap, a.bytes), (1, 0b1, 8));
        assert!(a.covers(2) && !a.covers(1));
        let r = rx.on_frame(frame(1, 0));
        assert_eq!(idx(&r), vec![1]);
        assert_eq!(r.ack.map(|a| (a.next, a.bitmap)), Some((3, 0)));
        assert!(r.deliver.iter().all(|p| p.link == LinkTag::None));
    }

    #[test]
    fn in_order_mode_holds_frames_behind_a_hole_until_the_repair() {
        let mut rx = LinkReceiver::new(true, 8);
        rx.on_frame(frame(0, 0));
        assert!(idx(&rx.on_frame(frame(2, 0))).is_empty());
        assert!(idx(&rx.on_frame(frame(3, 0))).is_empty());
        // The packet account counts them in flight meanwhile.
        assert_eq!(rx.holding(), 2);
        let r = rx.on_frame(frame(1, 1));
        assert_eq!(idx(&r), vec![1, 2, 3]);
        assert_eq!(r.ack.map(|a| a.next), Some(4));
        assert_eq!(rx.stats().held, 2);
        assert_eq!(rx.holding(), 0);
        assert!(!r.discarded);
    }

    #[test]
    fn duplicates_are_discarded_but_acknowledged() {
        let mut rx = LinkReceiver::new(true, 8);
        rx.on_frame(frame(0, 0));
        let r = rx.on_frame(frame(0, 0));
        assert!(r.deliver.is_empty());
        assert!(r.discarded, "the account's link_absorbed bucket");
        assert_eq!(r.ack.map(|a| a.next), Some(1));
        assert_eq!(rx.stats().duplicates, 1);
    }

    #[test]
    fn a_given_up_frame_releases_the_held_ones() {
        let mut rx = LinkReceiver::new(true, 8);
        rx.on_frame(frame(0, 0));
        rx.on_frame(frame(2, 0));
        rx.on_frame(frame(3, 0));
        // The sender gave 1 up: frame 4 carries base 4.
        let r = rx.on_frame(frame(4, 4));
        assert_eq!(idx(&r), vec![2, 3, 4]);
        assert_eq!(r.ack.map(|a| (a.next, a.bitmap)), Some((5, 0)));
    }

    #[test]
    fn plain_frames_pass_without_an_ack() {
        let mut rx = LinkReceiver::new(true, 8);
        let r = rx.on_frame(data(7));
        assert_eq!((idx(&r), r.ack), (vec![7], None));
    }
}
