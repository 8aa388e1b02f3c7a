//! A member of a DCF cell (crate::medium::dcf): its ports, the frame it contends with, the
//! frames it set aside for the retry delay, its contention window, phase and counters.

use super::super::Frame;
use super::DcfStats;
use engine::{PortId, RngStream, SimDuration, SimTime};

/// What a member is doing.
#[derive(Debug)]
pub(super) enum Phase {
    /// Nothing to send.
    Empty,
    /// Counting down `slots` more slots from `from` (none: frozen, the medium is busy).
    Backoff { slots: u32, from: Option<SimTime> },
    /// On the air; the exchange's outcome is known at `until`.
    Sending { until: SimTime, ok: bool },
    /// Waiting before it may count again (the retry delay).
    Waiting { until: SimTime },
}

/// A frame set aside for the retry delay (`retry_delay_blocks` off).
pub(super) struct Aside {
    pub(super) port: PortId,
    pub(super) frame: Frame,
    /// When it reached the head of its queue (access delay).
    pub(super) head: SimTime,
    pub(super) attempt: u32,
    pub(super) cw: u32,
    /// When it may be retried.
    pub(super) until: SimTime,
}

/// A member of the cell: the access point or a station.
pub(super) struct Member {
    pub(super) ports: Vec<PortId>,
    pub(super) next_port: usize,
    pub(super) frame: Option<(PortId, Frame, SimTime)>,
    /// Frames set aside for the retry delay, oldest first.
    pub(super) aside: Vec<Aside>,
    pub(super) cw: u32,
    pub(super) attempt: u32,
    pub(super) phase: Phase,
    /// Counting starts this long after the medium turns idle (DIFS, or EIFS after an error):
    /// this member's own deferral if `defer_at` is the cell's `exchanges` (set by its own
    /// exchange's end, or kept through a countdown it sent in), the cell's `defer` otherwise.
    pub(super) defer: SimDuration,
    pub(super) defer_at: u64,
    pub(super) rng: RngStream,
    pub(super) stats: DcfStats,
    /// Its Block Ack sessions when the cell aggregates (crate::medium::dcf::ampdu); `frame`
    /// then only carries a frame from its port to its session.
    pub(super) agg: Option<Box<super::ampdu::Agg>>,
}

impl Member {
    /// The place of `port` among the member's ports (the access point's station index,
    /// crate::medium::dcf::airtime).
    pub(super) fn next_port_of(&self, port: PortId) -> usize {
        self.ports.iter().position(|&p| p == port).unwrap_or(0)
    }

    /// Slots counted between `from` and `now`.
    pub(super) fn counted(from: SimTime, now: SimTime, slot: SimDuration) -> u32 {
        let n = now.saturating_since(from).as_nanos() / slot.as_nanos().max(1);
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    pub(super) fn draw(&mut self) -> u32 {
        self.rng.below(u64::from(self.cw) + 1) as u32
    }
}
