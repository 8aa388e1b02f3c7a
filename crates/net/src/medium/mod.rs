//! Media: who transmits next on a channel (DESIGN.md, "Where the structure is going": one home
//! per medium).
//!
//! A medium is sans-IO like the endpoints: it never touches queues, packets or the event queue.
//! The network tells it that one of its ports may have a frame ([`Medium::on_ready`]) and when a
//! wake-up it asked for is due ([`Medium::on_wake`]); the medium answers through the network's
//! side: the core [`Air`] every medium uses (take a port's next frame, put it on the air after an
//! access wait, ask to be woken, report a frame sent), extended by [`MacAir`] for a MAC with
//! retries and by [`FramingAir`] for a medium that frames packets on its own channel. Only the
//! network schedules events (house rule 5): `Air::wake` becomes an `Event::Mac` for this medium.
//!
//! - [`duplex::Duplex`]: one direction of a full-duplex link, frames back to back.
//! - [`shared::Shared`]: one frame on the air at a time among its ports, served in turn, with an
//!   optional access wait drawn per frame ([`Contention`]). With one port it is one direction of
//!   a full-duplex link; with two, Balakrishnan97's half-duplex WaveLAN hop; with the 2N ports of
//!   a cell's links, a shared channel without collisions.
//! - [`dcf`]: an 802.11 DCF cell (per-station backoff frozen while the medium is busy,
//!   collisions, MAC ACKs and retries), over [`MacAir`].
//! - [`gsm`]: a GSM circuit-switched data link with RLP over a block-erasure channel, over
//!   [`FramingAir`], with the rest of the GSM world (erasure traces, ReTracer, VJ compression).
//!
//! Construction is in `build.rs` (one arm per medium), the one dispatch and the one report
//! ([`MediumReport`]) in [`AnyMedium`] below. A new medium: its folder, one `AnyMedium` variant
//! with its arms, one construction arm, and its settings in the schema (docs/architecture.md,
//! "Adding a medium").

mod build;
pub mod dcf;
pub(crate) mod duplex;
pub mod gsm;
pub(crate) mod shared;

use crate::packet::PacketRef;
pub(crate) use build::LinkMedia;
use dcf::Dcf;
pub use dcf::{AmpduLimits, DcfConfig, DcfStats, McsKey};
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

/// What becomes of a frame at the far end of its hop (carried in its `Arrive` event with it).
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

/// The network's side of a medium, the core every medium uses: take a port's next frame, put
/// it on the air, ask to be woken, and report a frame sent.
pub(crate) trait Air {
    /// Take the next frame of `port` at `now` (through its queue and hiccups), to be put on the
    /// air by [`Air::transmit`] (or kept by a MAC, [`MacAir`]); `None` if the port has nothing
    /// to send now.
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
}

/// What a MAC with acknowledgements and retries (crate::medium::dcf) asks of the network
/// beyond [`Air`]: it keeps a frame across attempts and decides its fate itself.
pub(crate) trait MacAir: Air {
    /// Put `frame` of `port` on the air for one attempt: its airtime and whether the channel
    /// corrupted it; the frame stays with the medium.
    fn attempt(&mut self, now: SimTime, port: PortId, frame: &Frame) -> (SimDuration, bool);
    /// Whether the MAC ACK for a frame of `port`, sent back on the reverse direction at `now`,
    /// is corrupted by that direction's channel (`bits` exposed).
    fn ack_lost(&mut self, now: SimTime, port: PortId, bits: u64) -> bool;
    /// Whether a control frame of `port` sent at `now` in `mode` (a BlockAckReq,
    /// crate::medium::dcf::ampdu) is corrupted by the port's own channel (`bits` exposed; an
    /// SNR channel draws it in `mode`).
    fn control_lost(&mut self, now: SimTime, port: PortId, bits: u64, mode: dcf::phy::Mode)
        -> bool;
    /// A control frame of `port` (a BlockAckReq) went on the air at `now` in `mode`, `lost`
    /// (corrupted or collided): for the frame tap. Nothing by default.
    fn control_sent(&mut self, _now: SimTime, _port: PortId, _mode: dcf::phy::Mode, _lost: bool) {}
    /// Whether the answer to a control frame of `port` sent in `mode` (the Block Ack to a
    /// BlockAckReq), sent back at `now`, is corrupted by the reverse direction's channel (an
    /// SNR channel draws it in `mode`'s control response mode). By default as a MAC ACK.
    fn control_answer_lost(
        &mut self,
        now: SimTime,
        port: PortId,
        bits: u64,
        _mode: dcf::phy::Mode,
    ) -> bool {
        self.ack_lost(now, port, bits)
    }
    /// The MAC delivered `frame` of `port`: it propagates to the far end.
    fn deliver(&mut self, now: SimTime, port: PortId, frame: Frame);
    /// The MAC gave `frame` of `port` up after its last retry (counted on the port; the hook a
    /// link-layer loss notification uses).
    fn discard(&mut self, now: SimTime, port: PortId, frame: Frame);
    /// A MAC without acknowledgements lost `frame` of `port` on the air (a collision or a
    /// corrupted frame): it propagates to the far end, which discards it (counted as corrupted).
    fn lose(&mut self, now: SimTime, port: PortId, frame: Frame);
    /// A frame of `port` starts its first retry (the cross-layer hook of agents at the sending
    /// node, crate::agent::Agent::on_first_retry).
    fn first_retry(&mut self, now: SimTime, port: PortId, frame: &Frame);
    /// The attempt of `frame` of `port` that ended at `end` was corrupted, but its protected
    /// header was not (LHP's link-layer header protection): the header reaches the far end
    /// after the propagation delay.
    fn header_up(&mut self, end: SimTime, port: PortId, frame: &Frame);
    /// The octets of `frame` of `port` as an MPDU (MAC header, body, FCS), for an A-MPDU's
    /// limits and airtime (crate::medium::dcf::ampdu).
    fn mpdu_bytes(&self, port: PortId, frame: &Frame) -> u64;
    /// Put `frame` of `port` on the air as one MPDU of an A-MPDU, its part of the PPDU
    /// `part` (start, duration): whether the channel corrupted it (the frame stays with the
    /// medium).
    /// `first`: the aggregate's first MPDU; `retry`: an MPDU sent before (the capture's
    /// A-MPDU reference and Retry bit).
    fn attempt_mpdu(
        &mut self,
        part: (SimTime, SimDuration),
        port: PortId,
        frame: &Frame,
        first_retry: (bool, bool),
    ) -> bool;
    /// The arrival stamp of the head packet of `port`, a port of the access point's shared
    /// interface queue (crate::ifq): the DCF serves the oldest head. `None`: nothing queued,
    /// or not a shared queue's port.
    fn head_stamp(&self, _port: PortId) -> Option<u64> {
        None
    }
    /// The PHY mode of `port`'s next frame (or aggregate) of `bytes` octets when its rate
    /// control picks one per frame (crate::medium::dcf::snr); `None`: its fixed mode.
    fn select_mode(
        &mut self,
        _now: SimTime,
        _port: PortId,
        (_bytes, _attempt): (u64, u32),
    ) -> Option<dcf::phy::Mode> {
        None
    }
    /// The outcome of an attempt of `port` whose mode the rate control picked: `sent` MPDUs,
    /// `acked` of them acknowledged (crate::medium::dcf::snr).
    fn rate_report(&mut self, _now: SimTime, _port: PortId, (_sent, _acked): (u32, u32)) {}
    /// Whether the mode [`MacAir::select_mode`] last picked for `port` is the rate control's
    /// sample (Minstrel-HT's probe, sent without aggregation).
    fn probing(&self, _port: PortId) -> bool {
        false
    }
}

/// What a medium that frames packets on its own channel (crate::medium::gsm) asks of the
/// network beyond [`Air`]: the facts of a frame, and the hand-over of a frame whose fate it
/// decided.
pub(crate) trait FramingAir: Air {
    /// What the medium needs to know of `frame`.
    fn frame_info(&self, frame: &Frame) -> FrameInfo;
    /// The medium carried `frame` of `port` over `wire_bytes` bytes and decided its fate: it is
    /// counted on the port and propagates to the far end, where it is discarded unless
    /// `arrival` is intact (a PPP frame that failed its FCS, a header that decompressed wrong).
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
    /// TCP acknowledgment number (a duplicate ACK crosses VJ in full).
    pub ack: u32,
    /// TCP option bytes (they cross a compressed header uncompressed, crate::medium::gsm::vj).
    pub options: u32,
}

/// A medium: decides which of its ports transmits when, through the network's side `A` (the
/// core [`Air`], or an extension, [`MacAir`] or [`FramingAir`], for the media that need one).
/// Generic, so that the network's calls are static and inlined (the event loop's hot path).
/// Whether a frame is on the air is each medium's `is_busy`, read through
/// [`AnyMedium::is_busy`].
pub(crate) trait Medium<A: Air> {
    /// `port`, one of the medium's ports, may have a frame to send (a packet was queued, a
    /// hold ended, a local retransmission was put at the head). Each such change is reported
    /// for its own port, so a medium may look at that port only.
    fn on_ready(&mut self, now: SimTime, port: PortId, air: &mut A);
    /// A wake-up asked for with [`Air::wake`] is due.
    fn on_wake(&mut self, now: SimTime, tag: u32, air: &mut A);
}

/// Every medium the network can hold, dispatched statically: a new medium is its folder, a
/// variant here with its arms below, a construction arm (medium/build.rs) and a report arm.
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

/// What a medium reports of a run, beyond its ports' counters ([`AnyMedium::report`]).
#[derive(Clone, Debug)]
pub enum MediumReport<'a> {
    /// A direction of a full-duplex link or a shared channel: nothing of its own.
    Plain,
    /// An 802.11 DCF cell: one entry per member (the access point first, then the stations in
    /// link order).
    Dcf(Vec<DcfStats>),
    /// A GSM link direction.
    Gsm {
        /// The port whose packets it carries.
        port: PortId,
        /// Its counters.
        stats: GsmStats,
        /// Its RLP events, if its log is on ([`AnyMedium::enable_log`]).
        log: Option<&'a [RlpEvent]>,
    },
}

impl AnyMedium {
    /// Whether a frame is on the air (the network then need not offer it frames).
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        match self {
            AnyMedium::Duplex(m) => m.is_busy(),
            AnyMedium::Shared(m) => m.is_busy(),
            AnyMedium::Dcf(m) => m.is_busy(),
            AnyMedium::Gsm(m) => m.is_busy(),
        }
    }

    /// [`Medium::on_ready`], the one dispatch. The full-duplex and shared channels inline with
    /// the network's view `air` kept in registers; the others take it by value out of line, so
    /// that it is built in memory only on their way (callgrind; the reference run uses only
    /// the first two).
    #[inline(always)]
    pub(crate) fn on_ready<A: MacAir + FramingAir>(
        &mut self,
        now: SimTime,
        port: PortId,
        mut air: A,
    ) {
        match self {
            AnyMedium::Duplex(m) => m.on_ready(now, port, &mut air),
            AnyMedium::Shared(m) => m.on_ready(now, port, &mut air),
            AnyMedium::Dcf(m) => dcf_ready(m, now, port, air),
            AnyMedium::Gsm(m) => gsm_ready(m, now, port, air),
        }
    }

    /// [`Medium::on_wake`], the one dispatch, laid out as [`AnyMedium::on_ready`].
    #[inline(always)]
    pub(crate) fn on_wake<A: MacAir + FramingAir>(&mut self, now: SimTime, tag: u32, mut air: A) {
        match self {
            AnyMedium::Duplex(m) => m.on_wake(now, tag, &mut air),
            AnyMedium::Shared(m) => m.on_wake(now, tag, &mut air),
            AnyMedium::Dcf(m) => dcf_wake(m, now, tag, air),
            AnyMedium::Gsm(m) => gsm_wake(m, now, tag, air),
        }
    }

    /// What the medium reports of the run.
    pub(crate) fn report(&self) -> MediumReport<'_> {
        match self {
            AnyMedium::Duplex(_) | AnyMedium::Shared(_) => MediumReport::Plain,
            AnyMedium::Dcf(d) => MediumReport::Dcf(d.stats()),
            AnyMedium::Gsm(g) => MediumReport::Gsm {
                port: g.port(),
                stats: g.stats(),
                log: g.log(),
            },
        }
    }

    /// Record the medium's events from now on (the GSM RLP log; the others keep none).
    pub(crate) fn enable_log(&mut self) {
        if let AnyMedium::Gsm(g) = self {
            g.enable_log();
        }
    }
}

/// The DCF's and the GSM link's calls, out of line.
#[inline(never)]
fn dcf_ready<A: MacAir>(m: &mut Dcf, now: SimTime, port: PortId, mut air: A) {
    m.on_ready(now, port, &mut air);
}

#[inline(never)]
fn dcf_wake<A: MacAir>(m: &mut Dcf, now: SimTime, tag: u32, mut air: A) {
    // A DCF cell's stale countdown wake-ups, a third of its wake-ups, end here, before the
    // medium's call (Dcf::ignores).
    if m.ignores(now, tag) {
        return;
    }
    m.on_wake(now, tag, &mut air);
}

#[inline(never)]
fn gsm_ready<A: FramingAir>(m: &mut Gsm, now: SimTime, port: PortId, mut air: A) {
    m.on_ready(now, port, &mut air);
}

#[inline(never)]
fn gsm_wake<A: FramingAir>(m: &mut Gsm, now: SimTime, tag: u32, mut air: A) {
    m.on_wake(now, tag, &mut air);
}
