//! Link hiccups: scheduled impairments of one port direction, after the `hiccup` tool of
//! Ludwig2000 §3.3.3 (spec §10.1), used for the delay-spike and reordering experiments of §5.1–
//! §5.2 (spec S8).
//!
//! - [`Hiccup::Hold`]: from `at` for `duration` the direction starts no frame. Packets keep
//!   queueing in the port's drop-tail queue (so nothing is lost except by its normal limit),
//!   and when the hold ends the queue drains at line rate. A frame already on the wire at `at`
//!   completes. This models a persistent link-layer retransmission burst or a handover; it is
//!   the dissertation's DELAY mode (§10.1), with one deliberate deviation: the dissertation
//!   intercepts packets in a separate unbounded FIFO and flushes it into the interface queue
//!   at once, whereas here they wait in the interface queue itself, bounded by its limit.
//! - [`Hiccup::Reorder`]: the first data packet that would start transmission at or after `at`
//!   is held back, the next `length` data packets pass, and the held one is sent right after
//!   the `length`-th (REORDER(N) of §10.1; Fig 5-4 uses N = 6, giving 6 duplicate ACKs).
//!   Pure ACKs pass without being counted.
//!
//! The state here only answers "may this port transmit now" and "which packet goes next"; the
//! network schedules the wake-up at the end of each hold (house rule 5).

use crate::packet::{Packet, PacketKind};
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// One scheduled impairment of a port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hiccup {
    /// Transmit nothing in `[at, at + duration)`; packets wait in the queue.
    Hold {
        /// Start of the hold.
        at: SimTime,
        /// Its length.
        duration: SimDuration,
    },
    /// Hold back the first data packet due at or after `at` until `length` more have passed.
    Reorder {
        /// Earliest transmission start of the packet to hold back.
        at: SimTime,
        /// Data packets that overtake it (at least 1).
        length: u32,
    },
}

/// A packet held back by a reorder hiccup.
#[derive(Clone, Copy, Debug)]
struct Held {
    pkt: Packet,
    /// Data packets still to pass before it goes.
    remaining: u32,
}

/// The hiccup state of one port.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hiccups {
    /// Hold windows `[start, end)`, sorted by start.
    holds: Vec<(SimTime, SimTime)>,
    /// Reorders `(at, length)` not yet started, sorted by `at`.
    reorders: VecDeque<(SimTime, u32)>,
    /// The packet currently held back.
    held: Option<Held>,
}

impl Hiccups {
    /// The state for `list` (any order; equal times keep their order).
    pub(crate) fn new(list: &[Hiccup]) -> Self {
        let mut holds = Vec::new();
        let mut reorders = Vec::new();
        for h in list {
            match *h {
                Hiccup::Hold { at, duration } => holds.push((at, at + duration)),
                Hiccup::Reorder { at, length } => reorders.push((at, length.max(1))),
            }
        }
        holds.sort_by_key(|&(s, _)| s);
        reorders.sort_by_key(|&(at, _)| at);
        Hiccups {
            holds,
            reorders: reorders.into(),
            held: None,
        }
    }

    /// The instants at which a hold ends (the network wakes the channel then).
    pub(crate) fn hold_ends(&self) -> impl Iterator<Item = SimTime> + '_ {
        self.holds.iter().map(|&(_, e)| e)
    }

    /// Whether a hold forbids starting a frame at `now`.
    pub(crate) fn blocked(&self, now: SimTime) -> bool {
        self.holds.iter().any(|&(s, e)| s <= now && now < e)
    }

    /// Whether a held-back packet is due (it goes before anything queued).
    pub(crate) fn release_due(&self) -> bool {
        matches!(self.held, Some(Held { remaining: 0, .. }))
    }

    /// The packet to transmit at `now`, taken from `queue` unless a held-back one is due.
    /// Holds are not checked here (see [`Hiccups::blocked`]).
    pub(crate) fn next(&mut self, now: SimTime, queue: &mut VecDeque<Packet>) -> Option<Packet> {
        if self.release_due() {
            return self.held.take().map(|h| h.pkt);
        }
        loop {
            let pkt = queue.pop_front()?;
            if pkt.kind() == PacketKind::Ack {
                return Some(pkt);
            }
            if let Some(h) = self.held.as_mut() {
                h.remaining -= 1;
                return Some(pkt);
            }
            match self.reorders.front() {
                Some(&(at, length)) if at <= now => {
                    self.reorders.pop_front();
                    self.held = Some(Held {
                        pkt,
                        remaining: length,
                    });
                }
                _ => return Some(pkt),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::LinkTag;
    use engine::{FlowId, NodeId};
    use tcp::{SegOptions, Segment, SeqNum};

    fn pkt(uid: u64, len: u32) -> Packet {
        Packet {
            uid,
            flow: FlowId(0),
            src: NodeId(0),
            dst: NodeId(1),
            seg: Segment {
                seq: SeqNum(uid as u32 * 100),
                ack: SeqNum(0),
                len,
                wnd: 8192,
                ack_flag: true,
                opts: SegOptions::default(),
            },
            link: LinkTag::None,
        }
    }

    fn t(s: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_secs(s)
    }

    #[test]
    fn hold_blocks_its_window_only() {
        let h = Hiccups::new(&[Hiccup::Hold {
            at: t(30),
            duration: SimDuration::from_secs(13),
        }]);
        assert!(!h.blocked(t(29)));
        assert!(h.blocked(t(30)));
        assert!(h.blocked(t(42)));
        assert!(!h.blocked(t(43)));
        assert_eq!(h.hold_ends().collect::<Vec<_>>(), vec![t(43)]);
    }

    #[test]
    fn reorder_sends_the_held_packet_after_length_others() {
        let mut h = Hiccups::new(&[Hiccup::Reorder {
            at: t(10),
            length: 3,
        }]);
        let mut q: VecDeque<Packet> = (0..6).map(|i| pkt(i, 100)).collect();
        // Before `at` nothing is held.
        assert_eq!(h.next(t(9), &mut q).map(|p| p.uid), Some(0));
        let mut order = Vec::new();
        while let Some(p) = h.next(t(10), &mut q) {
            order.push(p.uid);
        }
        assert_eq!(order, vec![2, 3, 4, 1, 5]);
        // One reorder only.
        q.extend([pkt(6, 100), pkt(7, 100)]);
        assert_eq!(h.next(t(11), &mut q).map(|p| p.uid), Some(6));
    }

    #[test]
    fn acks_pass_uncounted_and_the_held_packet_waits_for_data() {
        let mut h = Hiccups::new(&[Hiccup::Reorder {
            at: t(0),
            length: 1,
        }]);
        let mut q: VecDeque<Packet> = [pkt(0, 100), pkt(1, 0)].into();
        assert_eq!(h.next(t(1), &mut q).map(|p| p.uid), Some(1));
        assert_eq!(
            h.next(t(1), &mut q),
            None,
            "held until one data packet passes"
        );
        assert!(!h.release_due());
        q.push_back(pkt(2, 100));
        assert_eq!(h.next(t(2), &mut q).map(|p| p.uid), Some(2));
        assert!(h.release_due());
        assert_eq!(h.next(t(2), &mut q).map(|p| p.uid), Some(0));
    }
}
