//! A-MPDU aggregation with Block Ack in the DCF (IEEE Std 802.11-2016 §10.12 "A-MPDU
//! operation in an HT STA" and §10.24 "Block acknowledgment"; introduced by 802.11n-2009), for
//! a cell with A-MPDU limits (`CellConfig::ampdu`, kept in the medium's `CellWifi`).
//!
//! After one contention (the DCF of crate::medium::dcf, unchanged) a member sends its MPDUs for
//! one receiver as one A-MPDU in one PPDU. Each MPDU is a subframe: a 4-octet MPDU delimiter,
//! the MPDU, and padding to a multiple of 4 octets except after the last (§9.7.1, Figure 9-712).
//! An aggregate grows while it stays within the limits of [`AmpduLimits`]: a number of MPDUs
//! (at most 64, the compressed Block Ack's bitmap), a number of octets (the receiver's Maximum
//! A-MPDU Length), and a duration (the PPDU's longest, `phy::Timing::max_ppdu`, §10.12.2), and
//! while every MPDU's sequence number lies within the Block Ack window of 64 from the oldest
//! one not yet acknowledged (WinStart_O, §10.24.7.4). MPDUs waiting for a retry go first,
//! oldest first, then new frames taken from the port's queue.
//!
//! The PPDU's duration is the PHY's TXTIME of the whole PSDU (one preamble); each MPDU has its
//! own FCS, so the channel's error model draws each MPDU's corruption on its own bytes over its
//! own part of the PPDU (the preamble counted in the first MPDU's part). The receiver answers
//! an A-MPDU with at least one MPDU received intact with a compressed Block Ack (32 octets,
//! §9.3.1.9.3) after SIFS, in the control response mode of the data's (the ACK's rate,
//! §10.6.6.5.2); its bitmap acknowledges the MPDUs received. The reverse direction's error
//! model may corrupt the Block Ack. A failed MPDU stays for a retry with its own retry counter;
//! after `retry_limit` attempts it is dropped and the window moves past it. The contention
//! window resets after a Block Ack, doubles without one (§10.3.4.3), as for a frame and its ACK.
//!
//! Without a Block Ack (a collision, every MPDU corrupted, or the Block Ack lost) the sender
//! waits SIFS + Block Ack + a slot and cannot tell which MPDUs arrived: after a backoff it
//! sends a BlockAckReq (24 octets, §9.3.1.8, as a single frame at the lowest basic rate,
//! crate::medium::dcf::aggregating::bar_mode) and the recipient answers after SIFS with a Block Ack carrying its bitmap (§10.24.3); the
//! MPDUs it shows are acknowledged, the others go in the next A-MPDU. A BlockAckReq without
//! an answer is sent again after a backoff with the doubled window, up to `retry_limit`
//! attempts; then the originator gives up the MPDUs it asked about (those the recipient had
//! still reach IP through its reorder buffer) and resets its window, as ns-3's
//! `HtFrameExchangeManager::MissedBlockAck` and `BlockAckManager::DiscardOutstandingMpdus`.
//!
//! The recipient's reorder buffer (crate::medium::dcf::reorder, §10.24.4): every MPDU received
//! intact enters it at the exchange's end, whatever becomes of the Block Ack; it is released
//! to IP in sequence order, held behind a hole until the hole arrives, the window moves past
//! it (the originator dropped or gave it up), or mac80211's reorder timeout of 100 ms.
//!
//! Deliberate simplifications: the recipient processes an aggregate at the end of its exchange
//! (the Block Ack's end or timeout, at most SIFS + Block Ack + a slot after the PPDU), not MPDU
//! by MPDU; after the originator drops an MPDU at its retry limit it sends a BlockAckReq
//! (ns-3, ath9k's `ath_send_bar`) that contends and takes its airtime as any other, but the
//! recipient's window moves past the MPDU at once, not when that BlockAckReq arrives;
//! one traffic identifier per receiver; no RTS/CTS before an aggregate.

use super::super::Frame;
use super::config::AmpduLimits;
use super::phy::Mode;
use super::reorder::{Reorder, RxFate};
use engine::SimTime;
use std::collections::VecDeque;

/// The Block Ack window (WinSizeO) and the compressed Block Ack's bitmap: 64 MPDUs.
pub const BA_WINDOW: u32 = 64;

/// A compressed Block Ack (§9.3.1.9.3): frame control 2, duration 2, RA 6, TA 6, BA control 2,
/// starting sequence control 2, bitmap 8, FCS 4 octets.
pub const BLOCK_ACK_BYTES: u64 = 32;

/// A compressed BlockAckReq (§9.3.1.8): frame control 2, duration 2, RA 6, TA 6, BAR control
/// 2, starting sequence control 2, FCS 4 octets.
pub const BLOCK_ACK_REQ_BYTES: u64 = 24;

/// The MPDU delimiter before each MPDU of an A-MPDU (§9.7.1).
pub const DELIMITER_BYTES: u64 = 4;

/// Why an MPDU did not join an aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// `max_frames` MPDUs already.
    Frames,
    /// It would make the A-MPDU longer than `max_bytes` octets.
    Bytes,
    /// It would make the PPDU longer than `max_time`.
    Time,
}

/// An A-MPDU being built: its MPDUs and octets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aggregate {
    /// MPDUs.
    pub frames: u32,
    /// Octets of its subframes, each padded to 4.
    padded: u64,
    /// The last subframe's padding (not sent).
    pad: u64,
}

impl Aggregate {
    /// The A-MPDU's length (the PSDU): delimiters, MPDUs and the padding between them.
    pub fn psdu_bytes(&self) -> u64 {
        self.padded - self.pad
    }

    /// Add an MPDU of `len` octets if the aggregate stays within `lim` in `mode`, or say
    /// which limit it would pass. The first MPDU always joins (a frame is never held back
    /// for being long).
    pub fn admit(&mut self, len: u64, mode: &Mode, lim: &AmpduLimits) -> Result<(), Full> {
        let sub = DELIMITER_BYTES + len;
        let pad = sub.next_multiple_of(4) - sub;
        let next = Aggregate {
            frames: self.frames + 1,
            padded: self.padded + sub + pad,
            pad,
        };
        if self.frames > 0 {
            if next.frames > lim.max_frames {
                return Err(Full::Frames);
            }
            if next.psdu_bytes() > lim.max_bytes {
                return Err(Full::Bytes);
            }
            if mode.txtime(next.psdu_bytes()) > lim.max_time {
                return Err(Full::Time);
            }
        }
        *self = next;
        Ok(())
    }
}

/// Where an MPDU stands at the originator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Waiting to go (first time, or for a retry).
    Queued,
    /// In the aggregate on the air; whether it arrives intact.
    OnAir { intact: bool },
    /// Sent in an aggregate whose Block Ack was missed: the originator asks (a BlockAckReq).
    Unknown,
}

/// An MPDU of a Block Ack session, not yet acknowledged.
#[derive(Debug)]
pub(super) struct Mpdu<T> {
    /// The frame, until the recipient has it (its reorder buffer, or IP).
    pub(super) item: Option<T>,
    /// Sequence number, in the session's order.
    pub(super) seq: u32,
    /// Attempts so far.
    pub(super) attempts: u32,
    /// When it was taken from its queue (its access delay runs from there).
    pub(super) head: SimTime,
    /// Its octets as an MPDU.
    pub(super) bytes: u64,
    state: State,
}

/// What became of an MPDU at an exchange's end.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Fate<T> {
    /// The recipient released it to IP, in order.
    Released(T),
    /// The recipient discarded it: it arrived behind the window.
    Late(T),
    /// A Block Ack acknowledged it (taken at `head`).
    Acked { head: SimTime },
    /// The originator dropped it after its last attempt; the recipient never had it.
    Dropped(T),
    /// The originator gave it up with its BlockAckReq, but the recipient had it.
    GaveUp,
}

/// The originator's and recipient's state of one Block Ack agreement (one receiver, one
/// traffic identifier): the MPDUs not yet acknowledged, in sequence order, a BlockAckReq
/// pending, and the recipient's reorder buffer (crate::medium::dcf::reorder).
#[derive(Debug)]
pub(super) struct Session<T> {
    next_seq: u32,
    queue: VecDeque<Mpdu<T>>,
    /// A BlockAckReq is due (after a Block Ack timeout): its attempts so far.
    pub(super) bar: Option<u32>,
    /// The recipient's reorder buffer.
    pub(super) rx: Reorder<T>,
}

impl<T> Default for Session<T> {
    fn default() -> Self {
        Session {
            next_seq: 0,
            queue: VecDeque::new(),
            bar: None,
            rx: Reorder::default(),
        }
    }
}

impl<T> Session<T> {
    /// WinStart_O: the oldest MPDU not acknowledged (§10.24.7.4).
    fn win_start(&self) -> u32 {
        self.queue.front().map_or(self.next_seq, |m| m.seq)
    }

    /// Whether a new MPDU would lie within the window (WinStart_O + WinSize_O).
    pub(super) fn can_grow(&self) -> bool {
        self.next_seq < self.win_start() + BA_WINDOW
    }

    /// Whether an MPDU waits to go (a retry, or one taken that did not fit).
    pub(super) fn has_queued(&self) -> bool {
        self.queue.iter().any(|m| m.state == State::Queued)
    }

    /// Whether the session needs the channel: a BlockAckReq or an MPDU to send.
    pub(super) fn wants_access(&self) -> bool {
        self.bar.is_some() || self.has_queued()
    }

    /// The octets and attempts of the first MPDU waiting to go (the rate control's frame).
    pub(super) fn head(&self) -> Option<(u64, u32)> {
        self.queue
            .iter()
            .find(|m| m.state == State::Queued)
            .map(|m| (m.bytes, m.attempts))
    }

    /// Whether nothing is left (every MPDU acknowledged or dropped).
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// A new MPDU of `bytes` octets taken from the queue at `head`, next in sequence.
    pub(super) fn push(&mut self, item: T, bytes: u64, head: SimTime) {
        self.queue.push_back(Mpdu {
            item: Some(item),
            seq: self.next_seq,
            attempts: 0,
            head,
            bytes,
            state: State::Queued,
        });
        self.next_seq += 1;
    }

    /// Put the waiting MPDUs into the aggregate `a`, oldest first, as long as `admit` lets
    /// them in; returns whether the last one got in (room may be left for new ones).
    pub(super) fn choose(&mut self, a: &mut Aggregate, mode: &Mode, lim: &AmpduLimits) -> bool {
        for m in self.queue.iter_mut().filter(|m| m.state == State::Queued) {
            if a.admit(m.bytes, mode, lim).is_err() {
                return false;
            }
            m.state = State::OnAir { intact: false };
        }
        true
    }

    /// The MPDUs on the air, in sequence order.
    pub(super) fn on_air(&mut self) -> impl Iterator<Item = &mut Mpdu<T>> {
        self.queue
            .iter_mut()
            .filter(|m| matches!(m.state, State::OnAir { .. }))
    }

    /// Record whether an MPDU on the air arrived intact.
    pub(super) fn set_intact(m: &mut Mpdu<T>, intact: bool) {
        m.state = State::OnAir { intact };
    }

    /// The recipient's side of the aggregate on the air, at its end `now`: each MPDU that
    /// arrived intact goes into the reorder buffer (released in order, held behind a hole, or
    /// discarded if late), whatever becomes of the Block Ack.
    pub(super) fn receive(&mut self, now: SimTime, fate: &mut impl FnMut(Fate<T>)) {
        let Session { queue, rx, .. } = self;
        for m in queue.iter_mut() {
            if m.state == (State::OnAir { intact: true }) {
                if let Some(item) = m.item.take() {
                    rx.receive(m.seq, item, now, &mut |f| fate(rx_fate(f)));
                }
            }
        }
    }

    /// A Block Ack came back (after the aggregate, or after a BlockAckReq): its bitmap, the
    /// MPDUs the recipient has, acknowledges them; every other one sent stays for a retry
    /// unless it has had `retry_limit` attempts, when it is dropped and the recipient's
    /// window moves past it. `fate` hears of each, in sequence order.
    pub(super) fn block_ack(&mut self, retry_limit: u32, fate: &mut impl FnMut(Fate<T>)) {
        self.bar = None;
        if self.resolve(true, retry_limit, fate) {
            // An MPDU dropped at its retry limit: a BlockAckReq moves the recipient's window
            // past it (ath9k's `ath_send_bar` from `ath_tx_complete_aggr`; ns-3's
            // `BlockAckManager` schedules one too). It contends and takes its airtime like the
            // one after a missed Block Ack; the window itself moves at once (see above).
            self.bar = Some(0);
        }
    }

    /// No Block Ack after the aggregate (a collision, every MPDU lost, or the Block Ack
    /// lost): the originator cannot tell which MPDUs arrived and sends a BlockAckReq
    /// (§10.24.3, retransmitted without a response; as ns-3's
    /// `HtFrameExchangeManager::MissedBlockAck` with `UseExplicitBarAfterMissedBlockAck`).
    pub(super) fn missed(&mut self) {
        for m in self.queue.iter_mut() {
            if matches!(m.state, State::OnAir { .. }) {
                m.state = State::Unknown;
            }
        }
        if self.queue.iter().any(|m| m.state == State::Unknown) {
            self.bar = Some(0);
        }
    }

    /// The BlockAckReq went unanswered: another attempt, or after `retry_limit` of them the
    /// originator gives the MPDUs it asked about up (ns-3 `DiscardOutstandingMpdus`) and the
    /// recipient's window moves past them. Returns whether it gave up.
    pub(super) fn bar_failed(&mut self, retry_limit: u32, fate: &mut impl FnMut(Fate<T>)) -> bool {
        let tries = self.bar.map_or(1, |n| n + 1);
        if tries < retry_limit {
            self.bar = Some(tries);
            return false;
        }
        self.bar = None;
        let _ = self.resolve(false, retry_limit, fate);
        true
    }

    /// The MPDUs sent and not yet acknowledged: with a Block Ack (`answered`) those the
    /// recipient has are acknowledged and the others queued for a retry, or dropped after
    /// `retry_limit` attempts; without one (the BlockAckReq given up) every one is given up.
    /// The recipient's window then moves to the originator's (past the MPDUs dropped).
    /// Returns whether an answered exchange dropped an MPDU at its retry limit.
    fn resolve(
        &mut self,
        answered: bool,
        retry_limit: u32,
        fate: &mut impl FnMut(Fate<T>),
    ) -> bool {
        let mut dropped = false;
        let mut kept = VecDeque::with_capacity(self.queue.len());
        for mut m in self.queue.drain(..) {
            if m.state == State::Queued {
                kept.push_back(m);
                continue;
            }
            match m.item.take() {
                None if answered => fate(Fate::Acked { head: m.head }),
                None => fate(Fate::GaveUp),
                Some(item) if !answered || m.attempts >= retry_limit => {
                    dropped |= answered;
                    fate(Fate::Dropped(item));
                }
                Some(item) => {
                    m.item = Some(item);
                    m.state = State::Queued;
                    kept.push_back(m);
                }
            }
        }
        self.queue = kept;
        let start = self.win_start();
        self.rx.advance_to(start, &mut |f| fate(rx_fate(f)));
        dropped
    }
}

fn rx_fate<T>(f: RxFate<T>) -> Fate<T> {
    match f {
        RxFate::Released(t) => Fate::Released(t),
        RxFate::Late(t) => Fate::Late(t),
    }
}

/// What an aggregating member holds (crate::medium::dcf::member): one Block Ack session per
/// port (per receiver), and the session of its current aggregate.
#[derive(Debug, Default)]
pub(super) struct Agg {
    pub(super) sessions: Vec<Session<Frame>>,
    /// The session (port index) whose aggregate is contended for or on the air.
    pub(super) cur: usize,
    /// Whether the frame on the air is the current session's BlockAckReq.
    pub(super) sent_bar: bool,
    /// The reorder timeout wake-up asked for, if one is pending.
    pub(super) reorder_wake: Option<SimTime>,
}

#[cfg(test)]
#[path = "ampdu_tests.rs"]
mod tests;
