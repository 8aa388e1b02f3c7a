//! RLP's link reset (Ludwig2000 §2.4.3; GSM 04.22, the link reset procedure): a direction that
//! gives up on a frame flushes both of its buffers, and, the reset being the link's, the other
//! direction follows at its next block boundary (crate::medium::gsm, "The reset is the
//! link's").

use super::{Arrival, FramingAir, Gsm, Header, Lost, RlpKind};
use engine::SimTime;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The resets of one GSM link, shared by its two directions: a count that a direction giving
/// up on a frame raises, and that the other follows by flushing its own buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct LinkReset(Arc<AtomicU64>);

impl LinkReset {
    pub(super) fn count(&self) -> u64 {
        // One run is one thread: the count only orders the two directions' calls.
        self.0.load(Ordering::Relaxed)
    }

    pub(super) fn raise(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
}

impl Gsm {
    /// Semi-reliable RLP gives up on the frame starting at `hole`: what arrived in order before
    /// it is handed over, then both buffers are flushed and every PPP frame with bytes in them
    /// fails its FCS at the far end.
    pub(super) fn reset<A: FramingAir>(&mut self, now: SimTime, hole: u64, air: &mut A) {
        self.stats.resets += 1;
        self.record(now, RlpKind::Reset, hole);
        self.lost.push_back(Lost {
            start: hole,
            end: hole,
            rexmits: 0,
            due: now,
            first: now,
        });
        self.deliver(now, air);
        self.flush(now, air);
        if let Some((link, seen)) = self.link_reset.as_mut() {
            *seen = link.raise();
        }
    }

    /// Follow a reset of the other direction, if there was one since the last look: what
    /// arrived in order is handed over, the rest of both buffers is flushed (GSM 04.22: the
    /// link reset discards the unacknowledged I-frames of both directions).
    pub(super) fn follow_reset<A: FramingAir>(&mut self, now: SimTime, air: &mut A) {
        let Some((link, seen)) = self.link_reset.as_mut() else {
            return;
        };
        let count = link.count();
        if count == *seen {
            return;
        }
        *seen = count;
        self.stats.peer_resets += 1;
        // The frame on the air is lost with the rest: nothing from its first byte on arrives.
        if let Some(f) = self.on_air.take() {
            self.lost.push_back(Lost {
                start: f.start,
                end: f.start,
                rexmits: 0,
                due: now,
                first: now,
            });
        }
        self.deliver(now, air);
        self.flush(now, air);
    }

    /// Both buffers flushed: every packet with bytes in them fails its FCS at the far end, and
    /// its connection's decompressor loses step; the stream starts afresh.
    fn flush<A: FramingAir>(&mut self, now: SimTime, air: &mut A) {
        while let Some(q) = self.queued.pop_front() {
            self.stats.flushed += 1;
            if let Some(h) = q.header {
                self.decompressor.lose(q.flow);
                if h == Header::Full {
                    // The full header a request asked for is lost: the context may ask again.
                    self.asking.retain(|f| *f != q.flow);
                }
            }
            air.hand_over(now, self.port, q.frame, q.end - q.start, Arrival::Corrupted);
        }
        self.lost.clear();
        self.on_air = None;
        self.next_new = self.stream_end;
    }
}
