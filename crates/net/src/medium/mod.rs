//! Media: who transmits next on a channel (DESIGN.md, "Where the network is going": a medium
//! decides who transmits next behind one trait, so a new medium is one module).
//!
//! A medium is sans-IO like the endpoints: it never touches queues, packets or the event queue.
//! The network tells it that one of its ports may have a frame ([`Medium::on_ready`]) and when a
//! wake-up it asked for is due ([`Medium::on_wake`]); the medium answers through [`Air`], the
//! network's side: take a port's next frame, put it on the air after an access wait, ask to be
//! woken, and hand a finished frame to the link. Only the network schedules events (house rule
//! 5): `Air::wake` becomes an `Event::Mac` for this medium.
//!
//! - [`duplex::Duplex`]: one direction of a full-duplex link, frames back to back.
//! - [`shared::Shared`]: one frame on the air at a time among its ports, served in turn, with an
//!   optional access wait drawn per frame. With one port it is one direction of a full-duplex
//!   link; with two, Balakrishnan97's half-duplex WaveLAN hop; with the 2N ports of a cell's
//!   links, a shared channel without collisions.
//!
//! An 802.11 DCF cell (per-station backoff frozen while the medium is busy, collisions, MAC ACKs
//! and retries) or a GSM block channel is another implementation of the same trait: it keeps
//! its stations' state, asks for wake-ups at slot or block boundaries, takes frames only when a
//! station wins the medium, and reports each frame's end.

mod build;
pub mod dcf;
pub(crate) mod duplex;
pub mod gsm;
pub(crate) mod shared;

use crate::packet::PacketRef;
pub(crate) use build::LinkMedia;
use dcf::Dcf;
pub use dcf::{DcfConfig, DcfStats};
use duplex::Duplex;
use engine::{PortId, SimDuration, SimTime};
use gsm::Gsm;
pub use gsm::{
    ClassPolicy, FlowAdaptive, GsmConfig, GsmStats, Handover, Handovers, L2rConfig, RlpEvent,
    RlpKind, ServiceClass,
};
pub use shared::Contention;
use shared::Shared;

/// A frame a medium took from a port and has not yet put on the air: opaque to the medium,
/// which only hands it back to [`Air::transmit`].
#[derive(Debug)]
pub(crate) struct Frame(pub(crate) PacketRef);

/// What becomes of a frame at the far end of its hop (carried on a port's wire with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arrival {
    /// Received intact.
    Intact,
    /// Corrupted on the channel (or a PPP frame that failed its check): discarded.
    Corrupted,
    /// Intact on the channel, but the header decompressor at the far end, out of step,
    /// discards it (VJ / RFC 2507 compression on a GSM link).
    Discarded,
}

impl Arrival {
    /// Intact, or corrupted when `bad`.
    #[inline(always)]
    pub(crate) fn corrupted_if(bad: bool) -> Self {
        if bad {
            Arrival::Corrupted
        } else {
            Arrival::Intact
        }
    }
}

/// The network's side of a medium: what a medium may ask for.
pub(crate) trait Air {
    /// Take the next frame of `port` at `now` (through its queue and hiccups), to be put on the
    /// air by [`Air::transmit`]; `None` if the port has nothing to send now.
    fn take(&mut self, now: SimTime, port: PortId) -> Option<Frame>;
    /// Put `frame`, just taken from `port`, on the air after an access wait of `wait`: returns
    /// its airtime (the wait included).
    fn transmit(
        &mut self,
        now: SimTime,
        port: PortId,
        frame: Frame,
        wait: SimDuration,
    ) -> SimDuration;
    /// Wake the medium at `at` with `tag` ([`Medium::on_wake`]).
    fn wake(&mut self, at: SimTime, tag: u32);
    /// The frame of `port` on the air has been sent completely: it propagates to the far end.
    fn sent(&mut self, now: SimTime, port: PortId);
    /// Put `frame` of `port` on the air for one attempt of a MAC with retries (crate::medium::
    /// dcf): its airtime and whether the channel corrupted it; the frame stays with the medium.
    fn attempt(&mut self, now: SimTime, port: PortId, frame: &Frame) -> (SimDuration, bool);
    /// Whether the MAC ACK for a frame of `port`, sent back on the reverse direction at `now`,
    /// is corrupted by that direction's channel (`bits` exposed).
    fn ack_lost(&mut self, now: SimTime, port: PortId, bits: u64) -> bool;
    /// The MAC delivered `frame` of `port`: it propagates to the far end.
    fn deliver(&mut self, now: SimTime, port: PortId, frame: Frame);
    /// The MAC gave `frame` of `port` up after its last retry (counted on the port; the hook a
    /// link-layer loss notification will use).
    fn discard(&mut self, now: SimTime, port: PortId, frame: Frame);
    /// A MAC without acknowledgements lost `frame` of `port` on the air (a collision or a
    /// corrupted frame): it propagates to the far end, which discards it (counted as corrupted).
    fn lose(&mut self, now: SimTime, port: PortId, frame: Frame);
    /// A frame of `port` starts its first retry (the cross-layer hook of agents at the sending
    /// node, crate::agent::Agent::on_first_retry).
    fn first_retry(&mut self, now: SimTime, port: PortId, frame: &Frame);
    /// The attempt of `frame` of `port` that ended at `end` was corrupted, but its protected
    /// header was not (LHP's link-layer header protection, crate::medium::dcf): the header
    /// reaches the far end after the propagation delay.
    fn header_up(&mut self, end: SimTime, port: PortId, frame: &Frame);
    /// What a medium that frames packets itself needs to know of `frame` (crate::medium::gsm).
    fn frame_info(&self, frame: &Frame) -> FrameInfo;
    /// A medium with its own channel carried `frame` of `port` over `wire_bytes` bytes and
    /// decided its fate: it is counted on the port and propagates to the far end, where it is
    /// discarded unless `arrival` is intact (a PPP frame that failed its FCS, a header that
    /// decompressed wrong).
    fn hand_over(
        &mut self,
        now: SimTime,
        port: PortId,
        frame: Frame,
        wire_bytes: u64,
        arrival: Arrival,
    );
}

/// The facts of a packet a framing medium needs (its size and, for header compression, its
/// connection and sequence numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameInfo {
    /// IP datagram bytes.
    pub ip_len: u32,
    /// The connection.
    pub flow: engine::FlowId,
    /// A TCP segment (not UDP, not a link ACK).
    pub tcp: bool,
    /// TCP sequence number and payload length.
    pub seq: u32,
    /// Payload bytes.
    pub len: u32,
    /// TCP option bytes (they cross a compressed header uncompressed, crate::medium::gsm::vj).
    pub options: u32,
}

/// A medium: decides which of its ports transmits when. Generic over the [`Air`] it is given,
/// so that the network's calls are static and inlined (the event loop's hot path).
pub(crate) trait Medium {
    /// `port`, one of the medium's ports, may have a frame to send (a packet was queued, a
    /// hold ended, a local retransmission was put at the head). Each such change is reported
    /// for its own port, so a medium may look at that port only.
    fn on_ready<A: Air>(&mut self, now: SimTime, port: PortId, air: &mut A);
    /// A wake-up asked for with [`Air::wake`] is due.
    fn on_wake<A: Air>(&mut self, now: SimTime, tag: u32, air: &mut A);
    /// Whether a frame is on the air (the network then need not offer it frames).
    fn is_busy(&self) -> bool;
}

/// Every medium the network can hold, dispatched statically (a new medium is its module and a
/// variant here).
pub(crate) enum AnyMedium {
    /// [`Duplex`].
    Duplex(Duplex),
    /// [`Shared`].
    Shared(Shared),
    /// [`Dcf`].
    Dcf(Dcf),
    /// [`Gsm`].
    Gsm(Box<Gsm>),
}

impl AnyMedium {
    /// Whether a frame is on the air.
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        match self {
            AnyMedium::Duplex(m) => m.is_busy(),
            AnyMedium::Shared(m) => m.is_busy(),
            AnyMedium::Dcf(m) => m.is_busy(),
            AnyMedium::Gsm(m) => m.is_busy(),
        }
    }

    /// [`Medium::on_ready`].
    #[inline(always)]
    pub(crate) fn on_ready<A: Air>(&mut self, now: SimTime, port: PortId, air: &mut A) {
        match self {
            AnyMedium::Duplex(m) => m.on_ready(now, port, air),
            AnyMedium::Shared(m) => m.on_ready(now, port, air),
            AnyMedium::Dcf(m) => dcf_ready(m, now, port, air),
            AnyMedium::Gsm(m) => gsm_ready(m, now, port, air),
        }
    }

    /// [`Medium::on_wake`].
    #[inline(always)]
    pub(crate) fn on_wake<A: Air>(&mut self, now: SimTime, tag: u32, air: &mut A) {
        match self {
            AnyMedium::Duplex(m) => m.on_wake(now, tag, air),
            AnyMedium::Shared(m) => m.on_wake(now, tag, air),
            AnyMedium::Dcf(m) => dcf_wake(m, now, tag, air),
            AnyMedium::Gsm(m) => gsm_wake(m, now, tag, air),
        }
    }
}

/// The DCF's calls kept out of line, so that the full-duplex and shared paths of the event loop
/// stay small (the reference run does not use a DCF).
#[inline(never)]
fn dcf_ready<A: Air>(m: &mut Dcf, now: SimTime, port: PortId, air: &mut A) {
    m.on_ready(now, port, air);
}

#[inline(never)]
fn dcf_wake<A: Air>(m: &mut Dcf, now: SimTime, tag: u32, air: &mut A) {
    m.on_wake(now, tag, air);
}

#[inline(never)]
fn gsm_ready<A: Air>(m: &mut Gsm, now: SimTime, port: PortId, air: &mut A) {
    m.on_ready(now, port, air);
}

#[inline(never)]
fn gsm_wake<A: Air>(m: &mut Gsm, now: SimTime, tag: u32, air: &mut A) {
    m.on_wake(now, tag, air);
}
