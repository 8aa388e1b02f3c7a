//! One direction of a GSM circuit-switched data link with RLP (Ludwig2000 §2.4, §3.2.5, §4.2;
//! spec §3.5, §3.6, §3.8, experiments S1-S5).
//!
//! The channel carries one 30-byte RLP frame per 20 ms radio block (§2.4.4; 50 frames/s). RLP
//! is a byte stream: PPP frames (the IP datagram plus 7 bytes of PPP framing, §4.3.3) are laid
//! end to end and cut into frames of 24 payload bytes (6 bytes of RLP and L2R overhead, so 1200
//! B/s of user data at most, §2.4.3). Each block is erased or not by the direction's
//! block-erasure process (a trace, or a synthetic profile, crate::medium::gsm::erasure).
//!
//! - **Selective reject** (§2.4.3): an erased frame is sent again in the first block after its
//!   loss is known, one RLP round trip after it was sent (`rlp_rtt`, ≈400 ms [A], §4.2.4; the
//!   reject itself is assumed to get through); retransmissions go before new frames. The
//!   receiver delivers bytes in order: a packet leaves the link when its last byte and every
//!   byte before it have arrived, and reaches the far end after the hop's delay (interleaving,
//!   ≈90 ms one way, §2.4.4).
//! - **Persistency N2** (§2.4.3): a frame erased more than `n2` times resets the link
//!   (semi-reliable RLP): both buffers are flushed, and every PPP frame that had bytes in them
//!   fails its FCS at the far end (counted as a corrupted frame); the stream starts afresh with
//!   the next packet. `n2 = None` never gives up (fully reliable, without the call drop).
//! - **The reset is the link's** (`GsmConfig::link_reset`, the default): RLP is one balanced
//!   link whose frames carry the sequence numbers of both directions (N(S) of one, N(R) of the
//!   other); the reset "re-initializes the sequence numbers" (§2.4.3) with one SABM/UA exchange
//!   (GSM 04.22, the link reset procedure), which discards the unacknowledged I-frames of both
//!   directions. The other direction flushes its buffers at its next block boundary after the
//!   reset (the SABM/UA exchange takes at least a block): its packets fail their FCS too, and
//!   its decompressor loses step for their connections (an ACK direction's: Fig 4-9). The two
//!   directions share the reset through [`LinkReset`].
//! - **L2R flow control** (§3.2.5): the remote side drains the link at `rate` (960 B/s in the
//!   networks the dissertation measured); the sender sends at the block rate until the remote
//!   buffer holds `rate · gap_max` bytes, then pauses (XOFF) for a gap drawn uniformly from
//!   `[gap_min, gap_max]` (950-1300 ms measured, [P] the law within the range) while it drains
//!   by `rate · gap`. Saturated, the sender averages `rate` exactly, in bursts at the block rate
//!   separated by the measured gaps. Retransmissions are RLP's and are not flow-controlled.
//! - **VJ header compression** (crate::medium::gsm::vj) at the PPP ends, optional: a compressed TCP/IP
//!   header takes 4 bytes instead of 40; after a reset the connection's decompressor is out of
//!   step and every compressed packet is discarded at the far end until a full header.
//! - **Flow-adaptive** (§4.1, spec §3.7; `GsmConfig::adaptive`, off by default; the module
//!   `adaptive`): each packet's service class, by its flow's DS codepoint or else by IP
//!   protocol (the "layer-violating trick" of [LR99]), sets RLP's persistency for its bytes:
//!   fully-reliable bytes persist up to the MSL (120 s) before a reset, instead of N2
//!   retransmissions; an erased frame of only real-time bytes is not resent when the
//!   retransmission would come later than their delay bound (50 ms) after the first
//!   transmission, and its datagrams are given up (discarded at the far end) without a reset.
//!   Packets of different flows leave out of order: one whose bytes are all in no longer waits
//!   behind another flow's retransmission (no head-of-line blocking, §2.5.3); a flow's own
//!   packets stay in order, so VJ, which does not resequence, is safe (§4.1.2). A class of a
//!   better scheduling priority (interactive) has its new frames sent before other classes'
//!   due retransmissions.
//!
//! The folder holds the rest of the GSM circuit-switched data world of Ludwig (2000), Ch. 2-4:
//! the block-erasure channel below RLP ([`erasure`], [`clustered`], [`fading`]), ReTracer's best-case analysis
//! of it ([`retrace`]) and Van Jacobson header compression at the PPP ends ([`vj`]).

pub mod clustered;
pub mod erasure;
pub mod fading;
pub mod retrace;
pub mod vj;

pub use clustered::{Clustered, Clustering, FadeDensity};
pub use erasure::{BlockTrace, BurstMix, DeepFades, MinuteBler, Profile, TraceError};
pub use fading::{max_retransmissions, Fading};
pub use retrace::{retrace_e2e, retrace_rlp, E2eRetrace, Packing, RetraceError, RlpRetrace};

mod types;
use super::{Arrival, Frame, FramingAir, Medium};
use engine::{PortId, RngStream, SimDuration, SimTime};
use std::collections::VecDeque;
use std::sync::Arc;
pub use types::{
    ClassPolicy, FlowAdaptive, GsmConfig, GsmStats, Handover, Handovers, L2rConfig, RlpEvent,
    RlpKind, ServiceClass,
};
use vj::{Compressor, Decompressor, Header, FULL_HEADER};

/// A packet in the byte stream.
#[derive(Debug)]
struct Queued {
    frame: Frame,
    /// `[start, end)` in the stream.
    start: u64,
    end: u64,
    flow: engine::FlowId,
    /// `None` for a packet that is not compressed (UDP, no VJ).
    header: Option<Header>,
    /// A TCP segment (UDP and TCP flows number their ids apart: a flow is (id, tcp)).
    tcp: bool,
    /// Flow-adaptive: its service class (`Bulk` when the link is not flow-adaptive).
    class: ServiceClass,
    /// Flow-adaptive: given up after an erasure (discarded at the far end).
    failed: bool,
}

/// An RLP frame that was erased and waits for its retransmission.
#[derive(Clone, Copy, Debug)]
struct Lost {
    start: u64,
    end: u64,
    /// Retransmissions so far.
    rexmits: u32,
    /// When it may go again.
    due: SimTime,
    /// Its first transmission.
    first: SimTime,
}

/// The frame on the air in the current block.
#[derive(Clone, Copy, Debug)]
struct OnAir {
    start: u64,
    end: u64,
    rexmits: u32,
    sent: SimTime,
    first: SimTime,
}

/// L2R's view of the remote buffer.
#[derive(Debug)]
struct L2r {
    cfg: L2rConfig,
    /// Remote buffer level in micro-bytes, as of `at`.
    level_ub: u64,
    at: SimTime,
    /// XOFF until.
    xoff_until: SimTime,
    rng: RngStream,
}

impl L2r {
    fn drain(&mut self, now: SimTime) {
        let gone = u64::from(self.cfg.rate)
            .saturating_mul(now.saturating_since(self.at).as_nanos())
            / 1000;
        self.level_ub = self.level_ub.saturating_sub(gone);
        self.at = now;
    }

    /// Whether new data may go at `now`.
    fn xon(&mut self, now: SimTime) -> bool {
        now >= self.xoff_until
    }

    /// `bytes` of user data went; returns whether an XOFF gap starts.
    fn sent(&mut self, now: SimTime, bytes: u32) -> bool {
        self.drain(now);
        self.level_ub += u64::from(bytes) * 1_000_000;
        let high = u64::from(self.cfg.rate) * self.cfg.gap_max.as_nanos() / 1000;
        if self.level_ub < high {
            return false;
        }
        let (lo, hi) = (self.cfg.gap_min.as_nanos(), self.cfg.gap_max.as_nanos());
        let gap = lo + self.rng.below(hi - lo + 1);
        self.xoff_until = now + SimDuration(gap);
        true
    }
}

/// One direction of a GSM-CSD link.
#[derive(Debug)]
pub(crate) struct Gsm {
    port: PortId,
    cfg: GsmConfig,
    erasure: Option<Arc<BlockTrace>>,
    queued: VecDeque<Queued>,
    /// Bytes put into the stream so far; the next new frame starts at `next_new`.
    stream_end: u64,
    next_new: u64,
    lost: VecDeque<Lost>,
    on_air: Option<OnAir>,
    /// A wake-up is pending.
    ticking: bool,
    l2r: Option<L2r>,
    compressor: Compressor,
    decompressor: Decompressor,
    stats: GsmStats,
    /// The event log, when asked for (`enable_log`).
    log: Option<Vec<RlpEvent>>,
    /// The reverse direction's block erasures (RFC 2507's header requests cross it).
    reverse: Option<Arc<BlockTrace>>,
    /// Header requests on their way: when each reaches the compressor, and its context.
    requests: Vec<(SimTime, engine::FlowId)>,
    /// Contexts with a request out (until their full header arrives or the request is lost).
    asking: Vec<engine::FlowId>,
    /// The link's resets, shared with the other direction, and how many of them this direction
    /// has followed (`None`: it resets alone).
    link_reset: Option<(LinkReset, u64)>,
}

impl Gsm {
    /// The direction of `port`, its blocks erased as `erasure` says (index = block number since
    /// time zero, the trace repeating); `rng` draws L2R's gaps.
    pub(crate) fn new(
        port: PortId,
        cfg: GsmConfig,
        erasure: Option<Arc<BlockTrace>>,
        rng: RngStream,
    ) -> Self {
        let twice = cfg.twice;
        let l2r = cfg.l2r.map(|c| L2r {
            cfg: c,
            level_ub: 0,
            at: SimTime::ZERO,
            xoff_until: SimTime::ZERO,
            rng,
        });
        Gsm {
            port,
            cfg,
            erasure,
            queued: VecDeque::new(),
            stream_end: 0,
            next_new: 0,
            lost: VecDeque::new(),
            on_air: None,
            ticking: false,
            l2r,
            compressor: Compressor::default(),
            decompressor: if twice {
                Decompressor::twice()
            } else {
                Decompressor::vj()
            },
            stats: GsmStats::default(),
            log: None,
            reverse: None,
            requests: Vec::new(),
            asking: Vec::new(),
            link_reset: None,
        }
    }

    /// The resets of the link this direction belongs to (shared with the other direction),
    /// when its resets are the link's (`GsmConfig::link_reset`).
    pub(crate) fn with_link_reset(mut self, link: &LinkReset) -> Self {
        if self.cfg.link_reset {
            self.link_reset = Some((link.clone(), link.count()));
        }
        self
    }

    /// The reverse direction's block erasures (the channel RFC 2507's header requests cross).
    pub(crate) fn with_reverse(mut self, reverse: Option<Arc<BlockTrace>>) -> Self {
        self.reverse = reverse;
        self
    }

    /// Record every RLP event from now on.
    pub(crate) fn enable_log(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The event log, in time order of recording (`None` if it is off).
    pub(crate) fn log(&self) -> Option<&[RlpEvent]> {
        self.log.as_deref()
    }

    /// The port whose packets this direction carries.
    pub(crate) fn port(&self) -> PortId {
        self.port
    }

    fn record(&mut self, at: SimTime, kind: RlpKind, offset: u64) {
        if let Some(log) = self.log.as_mut() {
            log.push(RlpEvent { at, kind, offset });
        }
    }

    /// The counters.
    pub(crate) fn stats(&self) -> GsmStats {
        self.stats
    }

    fn payload(&self) -> u64 {
        u64::from(
            self.cfg
                .frame_bytes
                .saturating_sub(self.cfg.overhead)
                .max(1),
        )
    }

    /// The first block boundary at or after `t`.
    fn boundary(&self, t: SimTime) -> SimTime {
        let b = self.cfg.block.as_nanos().max(1);
        SimTime(t.as_nanos().div_ceil(b) * b)
    }

    fn erased(&self, block_start: SimTime) -> bool {
        self.erased_in(self.erasure.as_ref(), block_start)
    }

    /// Whether the block at `block_start` of a channel with erasures `trace` is erased.
    fn erased_in(&self, trace: Option<&Arc<BlockTrace>>, block_start: SimTime) -> bool {
        // A lossy handover loses what is on the air.
        if self
            .cfg
            .handovers
            .at(block_start)
            .is_some_and(|h| !h.lossless)
        {
            return true;
        }
        match trace {
            Some(t) if !t.is_empty() => {
                let i = block_start.as_nanos() / self.cfg.block.as_nanos().max(1);
                t.erased()[(i % t.len() as u64) as usize]
            }
            _ => false,
        }
    }

    /// Bytes delivered in order: up to the first byte not yet received.
    fn in_order(&self) -> u64 {
        let lost = self.lost.iter().map(|l| l.start).min();
        let air = self.on_air.map(|a| a.start);
        [lost, air]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(self.next_new)
    }

    /// Take packets from the port into the stream until a whole frame's payload is waiting.
    fn fill<A: FramingAir>(&mut self, now: SimTime, air: &mut A) {
        while self.stream_end - self.next_new < self.payload() {
            let Some(frame) = air.take(now, self.port) else {
                return;
            };
            let info = air.frame_info(&frame);
            self.answer_requests(now);
            let header = (self.cfg.vj && info.tcp).then(|| {
                self.compressor
                    .header(info.flow, info.seq, info.len, info.ack)
            });
            let ip = match header {
                Some(h) => info.ip_len - FULL_HEADER + h.bytes(),
                None => info.ip_len,
            };
            let bytes = u64::from(ip + self.cfg.ppp_overhead);
            self.queued.push_back(Queued {
                frame,
                start: self.stream_end,
                end: self.stream_end + bytes,
                flow: info.flow,
                header,
                tcp: info.tcp,
                class: self
                    .cfg
                    .adaptive
                    .as_ref()
                    .map_or(ServiceClass::Bulk, |a| a.class(info.flow, info.tcp)),
                failed: false,
            });
            self.stream_end += bytes;
        }
    }

    /// Hand over every packet whose bytes have all arrived in order.
    fn deliver<A: FramingAir>(&mut self, now: SimTime, air: &mut A) {
        let upto = self.in_order();
        while self.queued.front().is_some_and(|q| q.end <= upto) {
            let Some(q) = self.queued.pop_front() else {
                break;
            };
            self.hand(now, q, air);
        }
        self.deliver_across_flows(now, air);
    }

    /// Hand `q` over to the far end, intact unless given up or out of step with VJ.
    fn hand<A: FramingAir>(&mut self, now: SimTime, q: Queued, air: &mut A) {
        let ok = match q.header {
            Some(h) => {
                let ok = self.decompressor.receive(q.flow, h);
                self.header_request(now, q.flow, h, ok);
                ok
            }
            None => true,
        } && !q.failed;
        if !ok && !q.failed {
            // RLP carried it intact; the far end throws it away (Ludwig2000 §3.1.2: its
            // airtime is not useful, the segment must be sent again).
            self.stats.vj_discards += 1;
            self.stats.discarded_bytes += q.end - q.start;
        }
        self.stats.delivered_bytes += q.end - q.start;
        let arrival = if q.failed {
            Arrival::Corrupted
        } else if !ok {
            Arrival::Discarded
        } else {
            Arrival::Intact
        };
        air.hand_over(now, self.port, q.frame, q.end - q.start, arrival);
    }

    /// The block that carried `f` ended at `now`.
    fn finish<A: FramingAir>(&mut self, now: SimTime, f: OnAir, air: &mut A) {
        if !self.erased(f.sent) {
            return;
        }
        self.stats.erased += 1;
        let give_up = match &self.cfg.adaptive {
            // §4.1.2: each class's bytes persist as long as its policy says.
            Some(_) => match self.adaptive_verdict(&f) {
                Verdict::Resend => false,
                Verdict::GiveUp => return,
                Verdict::Reset => true,
            },
            None => self.cfg.n2.is_some_and(|n2| f.rexmits >= n2),
        };
        if give_up {
            self.reset(now, f.start, air);
            return;
        }
        self.lost.push_back(Lost {
            start: f.start,
            end: f.end,
            rexmits: f.rexmits,
            due: f.sent + self.cfg.rlp_rtt,
            first: f.first,
        });
    }

    /// The next frame to put on the air at block boundary `now`, if any.
    /// The end of the lossless handover in progress at `now`, if any.
    fn held_until(&self, now: SimTime) -> Option<SimTime> {
        self.cfg
            .handovers
            .at(now)
            .filter(|h| h.lossless)
            .map(|h| h.at + h.duration)
    }

    fn next<A: FramingAir>(&mut self, now: SimTime, air: &mut A) -> Option<OnAir> {
        if self.held_until(now).is_some() {
            // A lossless handover: the sender holds everything until it is over.
            return None;
        }
        // Selective reject: the earliest retransmission that is due goes first, unless a new
        // frame of a class scheduled before it waits (flow-adaptive).
        if let Some(i) = (0..self.lost.len())
            .filter(|&i| self.lost[i].due <= now)
            .min_by_key(|&i| (self.lost[i].due, self.lost[i].start))
            .filter(|&i| !self.new_frame_first(now, i, air))
        {
            let l = self.lost.remove(i)?;
            self.stats.retransmissions += 1;
            self.record(now, RlpKind::Xmit, l.end);
            return Some(OnAir {
                start: l.start,
                end: l.end,
                rexmits: l.rexmits + 1,
                sent: now,
                first: l.first,
            });
        }
        if let Some(l) = self.l2r.as_mut() {
            if !l.xon(now) {
                return None;
            }
        }
        self.fill(now, air);
        if self.stream_end == self.next_new {
            return None;
        }
        let start = self.next_new;
        let end = self.stream_end.min(start + self.payload());
        self.next_new = end;
        self.stats.frames += 1;
        self.record(now, RlpKind::Data, end);
        let mut gap = None;
        if let Some(l) = self.l2r.as_mut() {
            // The frame's bytes reach the remote buffer, and a gap starts, when its block ends.
            let end_at = now + self.cfg.block;
            if l.sent(end_at, (end - start) as u32) {
                self.stats.xoff_gaps += 1;
                self.stats.xoff_ns += l.xoff_until.saturating_since(end_at).as_nanos();
                gap = Some((end_at, l.xoff_until));
            }
        }
        if let Some((off, on)) = gap {
            self.record(off, RlpKind::Xoff, end);
            self.record(on, RlpKind::Xon, end);
        }
        Some(OnAir {
            start,
            end,
            rexmits: 0,
            sent: now,
            first: now,
        })
    }

    /// At block boundary `now`: finish the frame on the air, hand over what arrived in order,
    /// start the next frame, and ask for the next wake-up.
    fn tick<A: FramingAir>(&mut self, now: SimTime, air: &mut A) {
        self.follow_reset(now, air);
        if let Some(f) = self.on_air.take() {
            self.finish(now, f, air);
        }
        self.deliver(now, air);
        self.on_air = self.next(now, air);
        if self.on_air.is_some() {
            if self.stats.frames + self.stats.retransmissions == 1 {
                self.stats.first_ns = now.as_nanos();
            }
            self.stats.last_ns = (now + self.cfg.block).as_nanos();
        }
        let wake = match self.on_air {
            Some(_) => Some(now + self.cfg.block),
            None => {
                // Idle until a retransmission is due or XOFF ends (if data waits), else until
                // a packet arrives (Medium::on_ready).
                let due = self.lost.iter().map(|l| l.due).min();
                // Packets may wait in the port's queue behind XOFF.
                let xoff = self
                    .l2r
                    .as_ref()
                    .filter(|l| l.xoff_until > now)
                    .map(|l| l.xoff_until);
                [due, xoff, self.held_until(now)]
                    .into_iter()
                    .flatten()
                    .min()
                    .map(|t| self.boundary(t.max(now + SimDuration(1))))
            }
        };
        self.ticking = wake.is_some();
        if let Some(at) = wake {
            air.wake(at, 0);
        }
    }
}

impl Gsm {
    /// Whether a frame is on the air (the network then need not offer it frames).
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        self.ticking
    }
}

impl<A: FramingAir> Medium<A> for Gsm {
    fn on_ready(&mut self, now: SimTime, _port: PortId, air: &mut A) {
        if !self.ticking {
            // Idle, its buffers are empty: a reset of the other direction meanwhile flushes
            // nothing of what comes now.
            if let Some((link, seen)) = self.link_reset.as_mut() {
                *seen = link.count();
            }
            self.ticking = true;
            air.wake(self.boundary(now), 0);
        }
    }

    fn on_wake(&mut self, now: SimTime, _tag: u32, air: &mut A) {
        self.tick(now, air);
    }
}

mod adaptive;
mod request;
mod reset;
use adaptive::Verdict;
pub(crate) use reset::LinkReset;

#[cfg(test)]
mod tests;
