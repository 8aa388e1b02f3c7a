//! The TCP receiver of a one-way transfer, modelling the 4.4BSD-Lite ACK policy
//! (Balakrishnan97 §2.1, §7.4):
//!
//! - an in-order segment with nothing waiting out of order is acknowledged lazily: the
//!   application reads at once, and the window-update rule of `tcp_output` sends an ACK as soon
//!   as the window has moved by two full segments (or by half the buffer); otherwise the delayed
//!   ACK goes out on the next tick of the 200 ms fast timer;
//! - a segment that is out of order, fills (part of) a hole, or is an old duplicate is
//!   acknowledged at once (the duplicate ACKs that drive fast retransmit);
//! - the advertised window is the receive buffer (the reader keeps up; out-of-order data sits
//!   in the reassembly queue, which BSD does not charge to the socket buffer).
//!
//! Options (each a knob, off for the paper's plain Reno receiver):
//! - SACK (RFC 2018 §4): up to three blocks; the first holds the most recently received
//!   segment, the others repeat the most recently reported blocks;
//! - SMART (Balakrishnan97 §2.4): every ACK carries the sequence number of the data segment
//!   that triggered it;
//! - ELN by oracle (Balakrishnan97 §2.6, the paper's experiments): the network tells the
//!   receiver which segments were corrupted on the way ([`Receiver::on_corrupted`]); an ACK
//!   whose cumulative acknowledgment is the start of such a missing segment carries the mark;
//! - HACK's NACK / LHP's notification (eln-llelsn spec §4.11-4.12): a segment that arrives
//!   with a corrupted payload but an intact header is answered at once by an ACK naming it
//!   (every corrupted arrival the network reports is taken to have an intact header);
//! - TCP-Jersey's congestion warning (spec §4.8): a data segment's CW mark is echoed on the
//!   next ACK (always on; nothing marks unless a router does);
//! - timestamps (RFC 7323 §4.3): TS.Recent is taken only from a segment at the left edge of
//!   the window (`SEG.SEQ <= Last.ACK.sent`) whose TSval is not older, and echoed in every ACK,
//!   so the ACK of an original transmission echoes the original's TSval (Ludwig2000 §2.1).
//!
//! By default the application reads every in-order byte at once. A receiver built with
//! [`Receiver::reading_on_demand`] keeps delivered bytes in its buffer until
//! [`Receiver::set_app_read`] says they were consumed (the split proxy's relay buffer,
//! Balakrishnan97 §2.12): the advertised window is then the free space, with the receiver side
//! of silly-window avoidance (no window below a quarter of the buffer and below one segment),
//! the right edge never moves left, and a window update goes out when the window has opened by
//! two segments or by half the buffer (4.4BSD-Lite `tcp_output`, called from `PRU_RCVD`).
//!
//! Delayed-ACK timing is a knob: BSD's global 200 ms tick, a per-connection deadline
//! (RFC 1122/5681 style, the `modern` profile), or no delay at all.

mod ack;
mod drs;
mod quickack;

use crate::rto::TickClock;
use crate::segment::{SackBlocks, Segment, MAX_SACK_BLOCKS};
use crate::seq::{SeqNum, SeqSpace};
pub use drs::Autotune;
use drs::Drs;
use engine::{SimDuration, SimTime};
use quickack::QuickAck;

/// When a delayed ACK is sent if no other rule sends it first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayedAck {
    /// On the next tick of a periodic fast timer (Net/3: 200 ms).
    Tick(TickClock),
    /// A fixed time after the first unacknowledged segment arrived.
    Deadline(SimDuration),
    /// Every segment is acknowledged at once.
    Off,
    /// As Linux: quick-ack mode at the start (`receiver/quickack.rs`), then an ACK every second
    /// full segment or after the adaptive ACK timeout (40 ms at least, at most this cap).
    Linux(SimDuration),
}

/// Fixed knobs of a receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverConfig {
    /// Maximum segment size expected from the peer.
    pub mss: u32,
    /// Receive socket buffer in bytes (the advertised window; at most 65535 without scaling).
    pub recv_buffer: u32,
    /// Delayed-ACK timer.
    pub delayed_ack: DelayedAck,
    /// Send RFC 2018 SACK blocks.
    pub sack: bool,
    /// Send the SMART trigger sequence number.
    pub smart: bool,
    /// Mark ACKs for corrupted segments with ELN (oracle).
    pub eln: bool,
    /// TCP-ELN (Buchholcz et al., eln-llelsn spec §3.2): count the data segments the MAC
    /// reports corrupted and carry the count on every ACK.
    pub corruption_counter: bool,
    /// HACK / LHP: answer a corrupted segment with an ACK that names it.
    pub nack: bool,
    /// TCP-ELN's identification by the header (eln-llelsn spec §3.2 `hack_header`, the paper's
    /// option (b)): a corrupted segment is counted only if the HACK header checksum verifies,
    /// i.e. its header survived; the network draws that and tells [`Receiver::on_corrupted`]
    /// only of segments whose header survived.
    pub identify_by_header: bool,
    /// RFC 7323 timestamps with this clock granularity.
    pub timestamps: Option<SimDuration>,
    /// RFC 7323 window scaling with this shift (`crate::wscale::shift_for` the buffer);
    /// None: the 16-bit window, at most 65 535 bytes.
    pub window_shift: Option<u8>,
    /// RFC 3168 ECN: echo a CE mark with ECE on every ACK until a segment with CWR arrives.
    pub ecn: bool,
    /// The largest window without scaling: 65535, or larger for ns-2's one-way TCP, whose sink
    /// advertises no window at all (lossylink's `tcp.window = "unbounded"`).
    pub window_cap: u32,
    /// Linux's receive-buffer autotuning (`receiver/drs.rs`); `recv_buffer` is then the
    /// window first offered. None: the buffer is fixed at `recv_buffer`.
    pub autotune: Option<Autotune>,
}

impl ReceiverConfig {
    /// A plain BSD receiver: no options.
    pub fn new(mss: u32, recv_buffer: u32, delayed_ack: DelayedAck) -> Self {
        ReceiverConfig {
            mss,
            recv_buffer,
            delayed_ack,
            sack: false,
            smart: false,
            eln: false,
            corruption_counter: false,
            nack: false,
            identify_by_header: false,
            timestamps: None,
            window_shift: None,
            ecn: false,
            window_cap: 65535,
            autotune: None,
        }
    }

    /// The largest window this receiver advertises: the scaled maximum (65 535 without window
    /// scaling) or `window_cap`, whichever is larger.
    fn max_window(&self) -> u32 {
        crate::wscale::max_window(self.window_shift).max(self.window_cap)
    }
}

/// Always-on receiver counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReceiverStats {
    /// Data segments received intact.
    pub segments_received: u64,
    /// Segments that carried only bytes already received.
    pub duplicate_segments: u64,
    /// Segments received above the next expected byte.
    pub out_of_order_segments: u64,
    /// ACKs sent.
    pub acks_sent: u64,
    /// ACKs sent that repeated the previous acknowledgment number.
    pub dupacks_sent: u64,
    /// ACKs sent with the ELN mark.
    pub eln_acks_sent: u64,
    /// Data segments reported corrupted by the network (the ELN oracle).
    pub corrupted_segments: u64,
    /// TCP-ELN's corruption counter: every corrupted data segment reported, duplicates and
    /// retransmissions included (it travels modulo 2^32).
    pub corruption_count: u64,
    /// ACKs sent naming a corrupted segment (HACK, LHP).
    pub nacks_sent: u64,
    /// Data segments that arrived marked CE (RFC 3168).
    pub ce_received: u64,
    /// ACKs sent with ECE.
    pub ece_acks_sent: u64,
}

/// A receiver of a `total`-byte transfer.
pub struct Receiver {
    cfg: ReceiverConfig,
    space: SeqSpace,
    total: u64,
    /// Next stream offset expected.
    rcv_nxt: u64,
    /// Acknowledgment number of the last ACK sent.
    last_ack: u64,
    /// Out-of-order data, as sorted disjoint half-open ranges of stream offsets.
    ooo: Vec<(u64, u64)>,
    /// The bytes of `ooo`, kept as it changes (the autotuned window asks on every segment).
    ooo_bytes: u64,
    ack_now: bool,
    /// A SYN arrived: answer with a SYN-ACK.
    syn_ack: bool,
    delack_at: Option<SimTime>,
    /// Sequence number carried in the ACKs' own `seq` field (our ISN + 1; we send no data).
    own_seq: SeqNum,
    /// Start offsets of recently received out-of-order segments, most recent first (SACK).
    recent: Vec<u64>,
    /// The data segment that triggered the next ACK (SMART).
    trigger: Option<u64>,
    /// Corrupted segments not yet received, as half-open offset ranges (ELN oracle).
    corrupted: Vec<(u64, u64)>,
    /// Corrupted segments still to be named in an ACK (HACK, LHP), oldest first.
    nacks: Vec<u64>,
    /// The next ACK echoes a congestion warning (TCP-Jersey).
    cw_echo: bool,
    /// RFC 3168 §6.1.3: ACKs carry ECE until a CWR arrives.
    ece: bool,
    /// `cfg.max_window()`, computed once (the window rules ask for it on every segment).
    max_window: u32,
    /// TS.Recent.
    ts_recent: u32,
    /// With reads on demand: the stream offset below which the application has read.
    read: Option<u64>,
    /// Right edge of the last advertised window (rcv_adv).
    adv_right: u64,
    complete_at: Option<SimTime>,
    /// Linux's delayed-ACK engine, with [`DelayedAck::Linux`].
    quickack: Option<QuickAck>,
    /// Receive-buffer autotuning, with [`ReceiverConfig::autotune`].
    drs: Option<Box<Drs>>,
    stats: ReceiverStats,
}

impl Receiver {
    /// A receiver expecting the first data byte at `space.base`.
    pub fn new(cfg: ReceiverConfig, space: SeqSpace, total: u64, own_seq: SeqNum) -> Self {
        Receiver {
            cfg,
            space,
            total,
            rcv_nxt: 0,
            last_ack: 0,
            ooo: Vec::new(),
            ooo_bytes: 0,
            ack_now: false,
            syn_ack: false,
            delack_at: None,
            own_seq,
            recent: Vec::new(),
            trigger: None,
            corrupted: Vec::new(),
            nacks: Vec::new(),
            cw_echo: false,
            ece: false,
            max_window: cfg.max_window(),
            ts_recent: 0,
            read: None,
            adv_right: 0,
            complete_at: None,
            quickack: match cfg.delayed_ack {
                DelayedAck::Linux(_) => Some(QuickAck::new(
                    cfg.recv_buffer.min(cfg.max_window()),
                    cfg.mss,
                )),
                _ => None,
            },
            drs: cfg.autotune.map(|a| Box::new(Drs::new(a, cfg.mss))),
            stats: ReceiverStats::default(),
        }
    }

    /// Bytes delivered in order to the application.
    pub fn delivered(&self) -> u64 {
        self.rcv_nxt
    }

    /// The data received above the next expected byte, waiting for a hole below it: sorted,
    /// disjoint, half-open ranges of stream offsets.
    pub fn out_of_order(&self) -> &[(u64, u64)] {
        &self.ooo
    }

    /// When the last byte of the transfer was delivered in order.
    pub fn complete_at(&self) -> Option<SimTime> {
        self.complete_at
    }

    /// Counters so far.
    pub fn stats(&self) -> &ReceiverStats {
        &self.stats
    }

    /// The delayed-ACK timer, if pending.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.delack_at
    }

    /// The same receiver, but its application reads only when [`Receiver::set_app_read`] says
    /// so; unread bytes occupy the receive buffer and shrink the advertised window.
    pub fn reading_on_demand(mut self) -> Self {
        self.read = Some(0);
        self
    }

    /// The application has consumed every byte below stream offset `read` (capped at what was
    /// delivered; never moves back). If the window opened enough, a window update is due
    /// (poll for it).
    pub fn set_app_read(&mut self, read: u64) {
        let Some(r) = self.read.as_mut() else {
            return;
        };
        *r = (*r).max(read.min(self.rcv_nxt));
        // tcp_output window-update rule: the window opened by 2 MSS or by half the buffer,
        // relative to the right edge advertised last.
        let opened = (self.rcv_nxt + u64::from(self.free_window()))
            .saturating_sub(self.adv_right.max(self.rcv_nxt));
        let mss = u64::from(self.cfg.mss);
        if opened >= 2 * mss || 2 * opened >= u64::from(self.cfg.recv_buffer.min(self.max_window)) {
            self.ack_now = true;
        }
    }

    /// Bytes delivered but not yet read by the application (0 unless reading on demand).
    pub fn unread(&self) -> u64 {
        self.read.map_or(0, |r| self.rcv_nxt - r)
    }

    /// The window this receiver would advertise now, in bytes.
    pub fn offered_window(&self) -> u32 {
        self.window()
    }

    /// The receive buffer and the receiver's RTT estimate of autotuning (None without it).
    pub fn autotuned(&self) -> Option<(u64, SimDuration)> {
        self.drs.as_ref().map(|d| (d.rcvbuf(), d.rtt()))
    }

    /// Free buffer space, after receiver silly-window avoidance, at most the largest window.
    fn free_window(&self) -> u32 {
        let buf = if self.drs.is_none() {
            u64::from(self.cfg.recv_buffer)
        } else {
            self.autotuned_window()
        };
        let free = buf.saturating_sub(self.unread());
        let mss = u64::from(self.cfg.mss);
        // tcp_output: no window below a quarter of the buffer and below one segment.
        let free = if free < buf / 4 && free < mss {
            0
        } else {
            free
        };
        free.min(u64::from(self.max_window)) as u32
    }

    /// The autotuned buffer's window less the out-of-order data (`receiver/drs.rs`); out of
    /// line, so that receivers without autotuning keep their window rule inlined.
    #[cold]
    #[inline(never)]
    fn autotuned_window(&self) -> u64 {
        debug_assert_eq!(
            self.ooo_bytes,
            self.ooo.iter().map(|&(s, e)| e - s).sum::<u64>()
        );
        self.drs.as_deref().map_or(0, |d| d.window(self.ooo_bytes))
    }

    /// The window to advertise: the free space, never moving the right edge left, in whole
    /// units of the window scale (`crate::wscale::advertise`).
    #[inline]
    fn window(&self) -> u32 {
        let keep = self.adv_right.saturating_sub(self.rcv_nxt);
        let w = u64::from(self.free_window()).max(keep);
        match self.cfg.window_shift {
            None => w.min(u64::from(self.max_window)) as u32,
            shift => crate::wscale::advertise(w, shift),
        }
    }

    /// RFC 3168 §6.1.3: a CWR ends the echo, a CE (after it, in the same segment) starts it;
    /// the first CE of an episode is acknowledged at once (Linux `tcp_ecn_check_ce` enters
    /// quick-ack mode).
    #[inline(never)]
    fn on_ecn(&mut self, bits: crate::segment::EcnBits) {
        if bits.cwr {
            self.ece = false;
        }
        if bits.ce {
            self.stats.ce_received += 1;
            if !self.ece {
                self.ack_now = true;
            }
            self.ece = true;
        }
    }

    /// Process a data segment that arrived intact.
    pub fn on_segment(&mut self, now: SimTime, seg: &Segment) {
        if seg.opts.syn.is_some() && !seg.ack_flag {
            // A (possibly repeated) SYN: answer each with a SYN-ACK.
            if let Some(ts) = seg.opts.ts {
                self.ts_recent = ts.val;
            }
            self.syn_ack = true;
            return;
        }
        if seg.len == 0 {
            return;
        }
        let start = self.space.offset(seg.seq, self.rcv_nxt);
        let end = start + u64::from(seg.len);
        self.trigger = Some(start);
        self.cw_echo |= seg.opts.cw;
        if self.cfg.ecn && !seg.opts.ecn.is_clear() {
            self.on_ecn(seg.opts.ecn);
        }
        if let Some(ts) = seg.opts.ts {
            // RFC 7323 §4.3 (2): only a segment at the left edge updates TS.Recent.
            if start <= self.last_ack && ts.val >= self.ts_recent {
                self.ts_recent = ts.val;
            }
        }
        if end <= self.rcv_nxt {
            // Entirely old: acknowledge at once (tcp_input "dropafterack").
            self.stats.duplicate_segments += 1;
            self.ack_now = true;
            if let Some(q) = self.quickack.as_mut() {
                // Linux: a retransmission forces quick-ack mode.
                q.enter();
            }
            return;
        }
        self.stats.segments_received += 1;
        if start > self.rcv_nxt {
            self.stats.out_of_order_segments += 1;
            self.ooo_bytes += insert_range(&mut self.ooo, start, end);
            if self.cfg.sack {
                self.recent.retain(|&r| r != start);
                self.recent.insert(0, start);
                self.recent.truncate(8);
            }
            self.ack_now = true;
            return;
        }
        // In order (possibly overlapping old bytes).
        let reassembling = !self.ooo.is_empty();
        self.rcv_nxt = end;
        while let Some(&(s, e)) = self.ooo.first() {
            if s > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(e);
            self.ooo_bytes -= e - s;
            self.ooo.remove(0);
        }
        if self.rcv_nxt >= self.total && self.complete_at.is_none() {
            self.complete_at = Some(now);
        }
        let grew = self.drs.is_some() && self.autotune(now, seg);
        let quick = match self.quickack.as_mut() {
            Some(q) => {
                if grew {
                    q.window_grew();
                }
                q.on_data(now)
            }
            None => false,
        };
        if reassembling || quick {
            // Net/3 TCP_REASS: anything that goes through reassembly is acknowledged at once;
            // so is everything in Linux's quick-ack mode.
            self.ack_now = true;
            return;
        }
        // Window-update rule of tcp_output after the application has read the data.
        let advance = self.rcv_nxt - self.last_ack;
        let mss = u64::from(self.cfg.mss);
        if advance >= 2 * mss || 2 * advance >= u64::from(self.cfg.recv_buffer.min(self.max_window))
        {
            self.ack_now = true;
            return;
        }
        if self.delack_at.is_none() {
            self.delack_at = Some(match self.cfg.delayed_ack {
                DelayedAck::Tick(clock) => clock.nth_after(now, 1),
                DelayedAck::Deadline(d) => now + d,
                DelayedAck::Linux(cap) => match self.quickack {
                    Some(q) => now + q.delay(cap),
                    None => now + cap,
                },
                DelayedAck::Off => {
                    self.ack_now = true;
                    return;
                }
            });
        }
    }

    /// Autotuning after an in-order arrival (`receiver/drs.rs`); whether the offered window's
    /// bound grew (Linux then acknowledges at once).
    #[inline(never)]
    fn autotune(&mut self, now: SimTime, seg: &Segment) -> bool {
        // rcv_wnd: the window offered (the one about to be, before the first ACK).
        let rcv_wnd = u64::from(self.window());
        let ts = match (seg.opts.ts, self.cfg.timestamps) {
            (Some(t), Some(g)) => {
                Some((t.ecr, (now.as_nanos() / g.as_nanos().max(1)) as u32 + 1, g))
            }
            _ => None,
        };
        self.drs
            .as_deref_mut()
            .is_some_and(|d| d.on_in_order(now, seg.len, self.rcv_nxt, rcv_wnd, ts))
    }

    /// Whether corrupted segments reach [`Self::on_corrupted`] only when their header survived
    /// (TCP-ELN's HACK identification).
    pub fn identifies_by_header(&self) -> bool {
        self.cfg.identify_by_header
    }

    /// A data segment addressed to us arrived corrupted (the checksum failed): the ELN oracle
    /// of the paper's experiments (Balakrishnan97 §2.6, "sufficient knowledge at the receiver").
    /// Returns whether an ACK is now due (HACK's NACK), so the caller polls the receiver.
    pub fn on_corrupted(&mut self, seg: &Segment) -> bool {
        if seg.len == 0 {
            return false;
        }
        if self.cfg.corruption_counter {
            // Spec §3.2: the only action is to count; no ACK is generated.
            self.stats.corruption_count += 1;
        }
        if self.cfg.nack {
            // Balan et al.: the header checksum verifies, so the segment is named at once.
            let start = self.space.offset(seg.seq, self.rcv_nxt);
            if start + u64::from(seg.len) > self.rcv_nxt && !self.nacks.contains(&start) {
                self.nacks.push(start);
                self.ack_now = true;
                return true;
            }
        }
        if !self.cfg.eln {
            return false;
        }
        self.stats.corrupted_segments += 1;
        let start = self.space.offset(seg.seq, self.rcv_nxt);
        let end = start + u64::from(seg.len);
        if end > self.rcv_nxt && !self.corrupted.contains(&(start, end)) {
            self.corrupted.push((start, end));
        }
        false
    }

    /// SACK blocks for the next ACK (RFC 2018 §4), most recent first, at most `room`.
    fn sack_blocks(&mut self, room: usize) -> SackBlocks {
        let rcv_nxt = self.rcv_nxt;
        self.recent.retain(|&r| r >= rcv_nxt);
        // On the stack (no allocation per ACK); the range holding `r` by binary search over
        // the sorted, disjoint out-of-order ranges (thousands at today's windows).
        let mut blocks = [(SeqNum(0), SeqNum(0)); MAX_SACK_BLOCKS];
        let mut n = 0;
        for &r in &self.recent {
            let at = self.ooo.partition_point(|&(s, _)| s <= r);
            if let Some(&(s, e)) = at.checked_sub(1).and_then(|i| self.ooo.get(i)) {
                let b = (self.space.seq(s), self.space.seq(e));
                if r < e && !blocks[..n].contains(&b) {
                    blocks[n] = b;
                    n += 1;
                }
            }
            if n >= room.min(MAX_SACK_BLOCKS) {
                break;
            }
        }
        SackBlocks::from_slice(&blocks[..n])
    }

    /// The delayed-ACK timer may have expired.
    pub fn on_timeout(&mut self, now: SimTime) {
        if matches!(self.delack_at, Some(at) if at <= now) {
            self.delack_at = None;
            self.ack_now = true;
        }
    }

    /// The ACK to send now, if any; `now` stamps its timestamp.
    #[inline]
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Segment> {
        // Most polls find nothing due: answered inline at the caller (receiver/ack.rs builds).
        if !(self.syn_ack || self.ack_now) {
            return None;
        }
        self.build_ack(now)
    }
}

/// Insert `[start, end)` into sorted disjoint ranges, merging overlaps and neighbours; returns
/// the bytes the ranges gained.
fn insert_range(ranges: &mut Vec<(u64, u64)>, start: u64, end: u64) -> u64 {
    let i = ranges.partition_point(|&(_, e)| e < start);
    let mut s = start;
    let mut e = end;
    let mut j = i;
    let mut had = 0;
    while j < ranges.len() && ranges[j].0 <= e {
        s = s.min(ranges[j].0);
        e = e.max(ranges[j].1);
        had += ranges[j].1 - ranges[j].0;
        j += 1;
    }
    ranges.splice(i..j, std::iter::once((s, e)));
    (e - s) - had
}

#[cfg(test)]
mod tests;
