//! One direction of a GSM circuit-switched data link with RLP (Ludwig2000 §2.4, §3.2.5, §4.2;
//! spec §3.5, §3.6, §3.8, experiments S1-S5).
//!
//! The channel carries one 30-byte RLP frame per 20 ms radio block (§2.4.4; 50 frames/s). RLP
//! is a byte stream: PPP frames (the IP datagram plus 7 bytes of PPP framing, §4.3.3) are laid
//! end to end and cut into frames of 24 payload bytes (6 bytes of RLP and L2R overhead, so 1200
//! B/s of user data at most, §2.4.3). Each block is erased or not by the direction's
//! block-erasure process (a trace, or a synthetic profile, crate::gsm::erasure).
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
//! - **L2R flow control** (§3.2.5): the remote side drains the link at `rate` (960 B/s in the
//!   networks the dissertation measured); the sender sends at the block rate until the remote
//!   buffer holds `rate · gap_max` bytes, then pauses (XOFF) for a gap drawn uniformly from
//!   `[gap_min, gap_max]` (950-1300 ms measured, [P] the law within the range) while it drains
//!   by `rate · gap`. Saturated, the sender averages `rate` exactly, in bursts at the block rate
//!   separated by the measured gaps. Retransmissions are RLP's and are not flow-controlled.
//! - **VJ header compression** (crate::gsm::vj) at the PPP ends, optional: a compressed TCP/IP
//!   header takes 4 bytes instead of 40; after a reset the connection's decompressor is out of
//!   step and every compressed packet is discarded at the far end until a full header.

use super::{Air, Frame, Medium};
use crate::gsm::vj::{Compressor, Decompressor, Header, FULL_HEADER};
use crate::gsm::BlockTrace;
use engine::{PortId, RngStream, SimDuration, SimTime};
use std::collections::VecDeque;
use std::sync::Arc;

/// L2R flow control from the remote side (Ludwig2000 §3.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2rConfig {
    /// The rate the remote side drains the link at, user bytes per second (960).
    pub rate: u32,
    /// Shortest XOFF gap (950 ms).
    pub gap_min: SimDuration,
    /// Longest XOFF gap (1300 ms).
    pub gap_max: SimDuration,
}

/// What is fixed for a GSM-CSD link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GsmConfig {
    /// One radio block (20 ms).
    pub block: SimDuration,
    /// RLP frame bytes, overhead included (30).
    pub frame_bytes: u32,
    /// RLP and L2R overhead per frame (6).
    pub overhead: u32,
    /// From a frame's transmission to its retransmission after an erasure (400 ms).
    pub rlp_rtt: SimDuration,
    /// Retransmissions of one frame before a reset; `None`: unlimited.
    pub n2: Option<u32>,
    /// L2R throttling, if any.
    pub l2r: Option<L2rConfig>,
    /// PPP framing bytes per packet (7).
    pub ppp_overhead: u32,
    /// VJ header compression (RFC 1144) at both PPP ends.
    pub vj: bool,
}

impl Default for GsmConfig {
    fn default() -> Self {
        GsmConfig {
            block: SimDuration::from_millis(20),
            frame_bytes: 30,
            overhead: 6,
            rlp_rtt: SimDuration::from_millis(400),
            n2: Some(6),
            l2r: None,
            ppp_overhead: 7,
            vj: false,
        }
    }
}

/// Counters of one direction of a GSM link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GsmStats {
    /// RLP frames sent (first transmissions).
    pub frames: u64,
    /// RLP frames sent again after an erasure.
    pub retransmissions: u64,
    /// Blocks that carried a frame and were erased.
    pub erased: u64,
    /// Link resets (a frame erased more than N2 times).
    pub resets: u64,
    /// Packets a reset flushed (discarded by PPP's FCS at the far end).
    pub flushed: u64,
    /// Packets discarded at the far end because their compressed header decompressed wrong.
    pub vj_discards: u64,
    /// L2R XOFF gaps.
    pub xoff_gaps: u64,
    /// User bytes delivered in order.
    pub delivered_bytes: u64,
    /// Time of XOFF gaps, nanoseconds.
    pub xoff_ns: u64,
    /// Start of the first frame and end of the last (zero before any frame).
    pub first_ns: u64,
    /// End of the last frame.
    pub last_ns: u64,
}

impl GsmStats {
    /// Dissertation §3.2.2 (spec §4.4): the share of the time from the first frame to the last
    /// that the RLP sender was busy or held back by L2R, before TCP's spurious retransmissions
    /// are taken off (the caller's part).
    pub fn busy_share(&self, block: SimDuration) -> f64 {
        let span = self.last_ns.saturating_sub(self.first_ns);
        if span == 0 {
            return 0.0;
        }
        let busy = (self.frames + self.retransmissions) * block.as_nanos() + self.xoff_ns;
        (busy as f64 / span as f64).min(1.0)
    }
}

/// What an RLP event log entry records (rlpdump's events, Ludwig2000 §3.5; the curves of the
/// multi-layer plot, spec §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RlpKind {
    /// A frame's first transmission (`RlpSnd_Data`).
    Data,
    /// A retransmission after an erasure (`RlpSnd_Xmit`).
    Xmit,
    /// L2R stops the sender (`RlpRcv_XOFF`).
    Xoff,
    /// L2R lets it go again (`RlpRcv_XON`).
    Xon,
    /// A link reset (`RlpSnd_Rst`).
    Reset,
}

/// One entry of the RLP event log: when, what, and the end of the frame's bytes in the RLP
/// byte stream (PPP framing, IP and TCP headers included; the stream is the link's, not the
/// TCP sequence space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlpEvent {
    /// When it happened (a frame: the start of its block).
    pub at: SimTime,
    /// What happened.
    pub kind: RlpKind,
    /// Stream offset: the end of the frame's bytes (the stream position for XOFF/XON/reset).
    pub offset: u64,
}

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
}

/// The frame on the air in the current block.
#[derive(Clone, Copy, Debug)]
struct OnAir {
    start: u64,
    end: u64,
    rexmits: u32,
    sent: SimTime,
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
            decompressor: Decompressor::default(),
            stats: GsmStats::default(),
            log: None,
        }
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
        match &self.erasure {
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
    fn fill<A: Air>(&mut self, now: SimTime, air: &mut A) {
        while self.stream_end - self.next_new < self.payload() {
            let Some(frame) = air.take(now, self.port) else {
                return;
            };
            let info = air.frame_info(&frame);
            let header = (self.cfg.vj && info.tcp)
                .then(|| self.compressor.header(info.flow, info.seq, info.len));
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
            });
            self.stream_end += bytes;
        }
    }

    /// Hand over every packet whose bytes have all arrived in order.
    fn deliver<A: Air>(&mut self, now: SimTime, air: &mut A) {
        let upto = self.in_order();
        while self.queued.front().is_some_and(|q| q.end <= upto) {
            let Some(q) = self.queued.pop_front() else {
                break;
            };
            let ok = match q.header {
                Some(h) => self.decompressor.receive(q.flow, h),
                None => true,
            };
            self.stats.vj_discards += u64::from(!ok);
            self.stats.delivered_bytes += q.end - q.start;
            air.hand_over(now, self.port, q.frame, q.end - q.start, !ok);
        }
    }

    /// Semi-reliable RLP gives up on the frame starting at `hole`: what arrived in order before
    /// it is handed over, then both buffers are flushed and every PPP frame with bytes in them
    /// fails its FCS at the far end.
    fn reset<A: Air>(&mut self, now: SimTime, hole: u64, air: &mut A) {
        self.stats.resets += 1;
        self.record(now, RlpKind::Reset, hole);
        self.lost.push_back(Lost {
            start: hole,
            end: hole,
            rexmits: 0,
            due: now,
        });
        self.deliver(now, air);
        while let Some(q) = self.queued.pop_front() {
            self.stats.flushed += 1;
            if q.header.is_some() {
                self.decompressor.lose(q.flow);
            }
            air.hand_over(now, self.port, q.frame, q.end - q.start, true);
        }
        self.lost.clear();
        self.on_air = None;
        self.next_new = self.stream_end;
    }

    /// The block that carried `f` ended at `now`.
    fn finish<A: Air>(&mut self, now: SimTime, f: OnAir, air: &mut A) {
        if !self.erased(f.sent) {
            return;
        }
        self.stats.erased += 1;
        if self.cfg.n2.is_some_and(|n2| f.rexmits >= n2) {
            self.reset(now, f.start, air);
            return;
        }
        self.lost.push_back(Lost {
            start: f.start,
            end: f.end,
            rexmits: f.rexmits,
            due: f.sent + self.cfg.rlp_rtt,
        });
    }

    /// The next frame to put on the air at block boundary `now`, if any.
    fn next<A: Air>(&mut self, now: SimTime, air: &mut A) -> Option<OnAir> {
        // Selective reject: the earliest retransmission that is due goes first.
        if let Some(i) = (0..self.lost.len())
            .filter(|&i| self.lost[i].due <= now)
            .min_by_key(|&i| (self.lost[i].due, self.lost[i].start))
        {
            let l = self.lost.remove(i)?;
            self.stats.retransmissions += 1;
            self.record(now, RlpKind::Xmit, l.end);
            return Some(OnAir {
                start: l.start,
                end: l.end,
                rexmits: l.rexmits + 1,
                sent: now,
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
        })
    }

    /// At block boundary `now`: finish the frame on the air, hand over what arrived in order,
    /// start the next frame, and ask for the next wake-up.
    fn tick<A: Air>(&mut self, now: SimTime, air: &mut A) {
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
                [due, xoff]
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

impl Medium for Gsm {
    fn on_ready<A: Air>(&mut self, now: SimTime, _port: PortId, air: &mut A) {
        if !self.ticking {
            self.ticking = true;
            air.wake(self.boundary(now), 0);
        }
    }

    fn on_wake<A: Air>(&mut self, now: SimTime, _tag: u32, air: &mut A) {
        self.tick(now, air);
    }

    fn is_busy(&self) -> bool {
        self.ticking
    }
}

#[cfg(test)]
#[path = "gsm_tests.rs"]
mod tests;
