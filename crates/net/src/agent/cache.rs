//! The per-connection segment cache of the link-layer agents (Balakrishnan97 §2.8: "cache every
//! data segment forwarded to the MH until a TCP ACK from the MH covers it"), the link round-trip
//! estimate and the local timer that go with it.

use super::{on_tick, LinkRtt};
use crate::packet::Packet;
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;
use tcp::SeqNum;

/// One cached segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The packet as last forwarded.
    pub pkt: Packet,
    /// One past its last sequence number.
    pub end: SeqNum,
    /// When its last transmission on the wireless hop completed.
    pub tx_at: Option<SimTime>,
    /// Order of that transmission among this flow's transmissions (SMART's "sent before").
    pub tx_order: Option<u64>,
    /// A local retransmission is queued and has not left yet.
    pub pending: bool,
    /// Local retransmissions so far.
    pub local_rxmts: u32,
    /// When the last local retransmission was queued.
    pub last_local: Option<SimTime>,
    /// The sender retransmitted it (the sender is recovering it itself).
    pub sender_rxmt: bool,
    /// The mobile reported it received (SMART trigger).
    pub received: bool,
}

/// What an ACK is relative to the previous ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AckKind {
    /// It acknowledges new data (or is the first ACK seen).
    New,
    /// A pure duplicate of the last acknowledgment; the count of dupacks so far.
    Dup(u32),
    /// Below the last acknowledgment, or a duplicate carrying data.
    Other,
}

/// What a data packet was relative to the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Insert {
    /// New: cached.
    Fresh,
    /// Already cached: a retransmission by the sender.
    SenderRetransmission,
    /// Already acknowledged by the mobile: not cached.
    Old,
}

/// Cache, ACK state and link timer of one connection.
#[derive(Clone, Debug, Default)]
pub(crate) struct FlowCache {
    /// Cached segments in sequence order.
    pub entries: VecDeque<Entry>,
    /// Last acknowledgment seen from the mobile.
    pub last_ack: Option<SeqNum>,
    /// Duplicate ACKs for `last_ack` so far.
    pub dupacks: u32,
    /// Link round-trip estimate.
    pub rtt: LinkRtt,
    tx_counter: u64,
    /// Last progress: a new ACK or a timer retransmission (restarts the local timer).
    progress: Option<SimTime>,
}

impl FlowCache {
    /// Cache a data packet heading to the mobile.
    pub fn insert(&mut self, pkt: Packet) -> Insert {
        let seq = pkt.seg.seq;
        let end = seq.plus(pkt.seg.len);
        if self.last_ack.is_some_and(|a| end.le(a)) {
            return Insert::Old;
        }
        if let Some(i) = self.find(seq) {
            let e = &mut self.entries[i];
            e.pkt = pkt;
            e.sender_rxmt = true;
            return Insert::SenderRetransmission;
        }
        let at = self
            .entries
            .iter()
            .rposition(|e| e.pkt.seg.seq.lt(seq))
            .map_or(0, |i| i + 1);
        self.entries.insert(
            at,
            Entry {
                pkt,
                end,
                tx_at: None,
                tx_order: None,
                pending: false,
                local_rxmts: 0,
                last_local: None,
                sender_rxmt: false,
                received: false,
            },
        );
        Insert::Fresh
    }

    /// Index of the entry starting at `seq`.
    pub fn find(&self, seq: SeqNum) -> Option<usize> {
        self.entries.iter().position(|e| e.pkt.seg.seq == seq)
    }

    /// The entry the mobile is waiting for (starting at the last ACK), if cached.
    pub fn head_at_ack(&self) -> Option<usize> {
        let ack = self.last_ack?;
        (self.entries.front()?.pkt.seg.seq == ack).then_some(0)
    }

    /// A frame carrying `pkt` left on the wireless hop.
    pub fn sent(&mut self, now: SimTime, pkt: &Packet) {
        if let Some(i) = self.find(pkt.seg.seq) {
            let e = &mut self.entries[i];
            e.tx_at = Some(now);
            e.tx_order = Some(self.tx_counter);
            e.pending = false;
            self.tx_counter += 1;
        }
    }

    /// Number of transmissions completed so far (the next `tx_order`).
    pub fn tx_mark(&self) -> u64 {
        self.tx_counter
    }

    /// Process the acknowledgment of an ACK from the mobile: free covered entries, take an RTT
    /// sample (Karn: only from segments sent once), count duplicates.
    pub fn ack(&mut self, now: SimTime, pkt: &Packet) -> AckKind {
        let ack = pkt.seg.ack;
        match self.last_ack {
            Some(last) if ack == last => {
                if pkt.seg.len > 0 {
                    return AckKind::Other;
                }
                self.dupacks += 1;
                AckKind::Dup(self.dupacks)
            }
            Some(last) if ack.lt(last) => AckKind::Other,
            _ => {
                // Karn: no sample from an ACK that covers a retransmitted segment (it may have
                // been held back by the repair of that segment).
                let mut sample = None;
                let mut clean = true;
                while let Some(e) = self.entries.front() {
                    if !e.end.le(ack) {
                        break;
                    }
                    clean &= e.local_rxmts == 0 && !e.sender_rxmt;
                    if let Some(t) = e.tx_at {
                        sample = Some(now.saturating_since(t));
                    }
                    self.entries.pop_front();
                }
                if let (true, Some(s)) = (clean, sample) {
                    self.rtt.sample(s);
                }
                self.last_ack = Some(ack);
                self.dupacks = 0;
                self.progress = Some(now);
                AckKind::New
            }
        }
    }

    /// Queue a local retransmission of entry `i`.
    pub fn retransmit(&mut self, i: usize, now: SimTime) -> Packet {
        let e = &mut self.entries[i];
        e.pending = true;
        e.local_rxmts += 1;
        e.last_local = Some(now);
        e.pkt
    }

    /// Whether entry `i` may be retransmitted locally now (it has left and no copy is queued).
    pub fn can_retransmit(&self, i: usize) -> bool {
        let e = &self.entries[i];
        e.tx_at.is_some() && !e.pending
    }

    /// When the local timer of this connection expires: the RTO after the later of the head
    /// segment's last transmission and the last progress, on the timer's tick.
    pub fn deadline(&self, min_rto: SimDuration, tick: SimDuration) -> Option<SimTime> {
        let e = self.entries.front()?;
        // Only the segment the mobile is waiting for: if it is not cached (lost upstream), the
        // sender must repair it, and the cached segments after it are not overdue.
        if e.pending || self.last_ack.is_some_and(|a| a != e.pkt.seg.seq) {
            return None;
        }
        let sent = e.tx_at?;
        let from = self.progress.map_or(sent, |p| p.max(sent));
        Some(on_tick(from + self.rtt.rto(min_rto), tick))
    }

    /// The local timer fired at `now`: retransmit the head segment if it is due.
    pub fn expire(
        &mut self,
        now: SimTime,
        min_rto: SimDuration,
        tick: SimDuration,
    ) -> Option<Packet> {
        if self.deadline(min_rto, tick)? > now {
            return None;
        }
        self.progress = Some(now);
        Some(self.retransmit(0, now))
    }
}
