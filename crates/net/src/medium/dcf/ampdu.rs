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
//! model may corrupt the Block Ack; without one (a collision, every MPDU corrupted, or the
//! Block Ack lost) the sender waits SIFS + Block Ack + a slot, and every MPDU of the aggregate
//! counts as failed. A failed MPDU stays for a retry with its own retry counter; after
//! `retry_limit` attempts it is dropped and the window moves past it. The contention window
//! resets after a Block Ack, doubles without one (§10.3.4.3), as for a frame and its ACK.
//!
//! The receiver's reorder buffer (§10.24.4): an MPDU acknowledged behind one still missing is
//! held and released to IP, in order, once every MPDU before it is released or dropped.
//!
//! Deliberate simplifications: the receiver's release is taken at the sender's view, so an
//! MPDU received intact whose Block Ack was lost is released when a later Block Ack
//! acknowledges it (the receiver had it already, released it at first, and discards the
//! resent copy: the same packets reach IP, one exchange later); the Block Ack Request after a
//! lost Block Ack is folded into the next A-MPDU (its implicit request, the A-MPDU's Normal Ack
//! policy, §10.24.7.5) and no reorder timeout is needed, the sender's drop moving the window;
//! one traffic identifier per receiver; no RTS/CTS before an aggregate.

use super::super::Frame;
use super::config::AmpduLimits;
use super::phy::Mode;
use engine::SimTime;
use std::collections::VecDeque;

/// The Block Ack window (WinSizeO) and the compressed Block Ack's bitmap: 64 MPDUs.
pub const BA_WINDOW: u32 = 64;

/// A compressed Block Ack (§9.3.1.9.3): frame control 2, duration 2, RA 6, TA 6, BA control 2,
/// starting sequence control 2, bitmap 8, FCS 4 octets.
pub const BLOCK_ACK_BYTES: u64 = 32;

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

/// Where an MPDU stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Waiting to go (first time, or for a retry).
    Queued,
    /// In the aggregate on the air; whether it arrives intact.
    OnAir { intact: bool },
    /// Acknowledged, held in the receiver's reorder buffer behind a missing one.
    Acked,
}

/// An MPDU of a Block Ack session.
#[derive(Debug)]
pub(super) struct Mpdu<T> {
    pub(super) item: T,
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

/// What became of an MPDU at a Block Ack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    /// Released to IP at the receiver, in order.
    Delivered,
    /// Dropped after its last attempt.
    Dropped,
}

/// The originator's and recipient's state of one Block Ack agreement (one receiver, one
/// traffic identifier): the MPDUs not yet released, in sequence order.
#[derive(Debug)]
pub(super) struct Session<T> {
    next_seq: u32,
    queue: VecDeque<Mpdu<T>>,
}

impl<T> Default for Session<T> {
    fn default() -> Self {
        Session {
            next_seq: 0,
            queue: VecDeque::new(),
        }
    }
}

impl<T> Session<T> {
    /// The end of the window: 64 past the oldest MPDU not released (WinStart_O + WinSize_O).
    fn window_end(&self) -> u32 {
        self.queue.front().map_or(self.next_seq, |m| m.seq) + BA_WINDOW
    }

    /// Whether a new MPDU would lie within the window.
    pub(super) fn can_grow(&self) -> bool {
        self.next_seq < self.window_end()
    }

    /// Whether an MPDU waits to go (a retry, or one taken that did not fit).
    pub(super) fn has_queued(&self) -> bool {
        self.queue.iter().any(|m| m.state == State::Queued)
    }

    /// The octets and attempts of the first MPDU waiting to go (the rate control's frame).
    pub(super) fn head(&self) -> Option<(u64, u32)> {
        self.queue
            .iter()
            .find(|m| m.state == State::Queued)
            .map(|m| (m.bytes, m.attempts))
    }

    /// Whether nothing is left (every MPDU released or dropped).
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// A new MPDU of `bytes` octets taken from the queue at `head`, next in sequence.
    pub(super) fn push(&mut self, item: T, bytes: u64, head: SimTime) {
        self.queue.push_back(Mpdu {
            item,
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

    /// The Block Ack's bookkeeping after the aggregate on the air: with a Block Ack
    /// (`block_ack`) the MPDUs that arrived intact are acknowledged; every other one stays for
    /// a retry unless it has had `retry_limit` attempts, when it is dropped. Then the
    /// acknowledged MPDUs with nothing missing before them are released in order. `fate` hears
    /// of each MPDU dropped or released, in sequence order (the drops first).
    pub(super) fn settle(
        &mut self,
        block_ack: bool,
        retry_limit: u32,
        mut fate: impl FnMut(Fate, Mpdu<T>),
    ) {
        let mut kept = VecDeque::with_capacity(self.queue.len());
        for mut m in self.queue.drain(..) {
            if let State::OnAir { intact } = m.state {
                if block_ack && intact {
                    m.state = State::Acked;
                } else if m.attempts >= retry_limit {
                    fate(Fate::Dropped, m);
                    continue;
                } else {
                    m.state = State::Queued;
                }
            }
            kept.push_back(m);
        }
        self.queue = kept;
        while self.queue.front().is_some_and(|m| m.state == State::Acked) {
            if let Some(m) = self.queue.pop_front() {
                fate(Fate::Delivered, m);
            }
        }
    }
}

/// What an aggregating member holds (crate::medium::dcf::member): one Block Ack session per
/// port (per receiver), and the session of its current aggregate.
#[derive(Debug, Default)]
pub(super) struct Agg {
    pub(super) sessions: Vec<Session<Frame>>,
    /// The session (port index) whose aggregate is contended for or on the air.
    pub(super) cur: usize,
}

#[cfg(test)]
#[path = "ampdu_tests.rs"]
mod tests;
