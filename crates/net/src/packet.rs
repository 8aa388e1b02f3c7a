//! Packets: a TCP segment with its IP addressing, as it crosses the network.

use crate::account::{Fate, Fates};
use engine::{FlowId, NodeId};
use tcp::Segment;

/// An IPv4 datagram carrying one TCP segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique per run, in creation order.
    pub uid: u64,
    /// The connection.
    pub flow: FlowId,
    /// Originating node.
    pub src: NodeId,
    /// Destination node.
    pub dst: NodeId,
    /// The segment.
    pub seg: Segment,
    /// The link-layer header a link ARQ adds on the wireless hop ([`LinkTag::None`] elsewhere).
    pub link: LinkTag,
    /// What the IP datagram carries.
    pub proto: Proto,
}

/// Bytes of an LL-ELSN notification packet (IP header included).
pub const NOTICE_BYTES: u32 = 40;

/// The transport protocol of a packet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    /// A TCP segment (`seg` is the whole segment).
    #[default]
    Tcp,
    /// A UDP datagram of a background source: `seg.len` payload bytes, the rest of `seg` unused.
    /// It loads queues and links but is no TCP: agents, proxies and the ELN oracle ignore it.
    Udp,
    /// A link-status notification of LL-ELSN (`tcp::LinkNotice`, eln-llelsn spec §4.1-4.2):
    /// `seg.seq` names the segment, `flow` its connection; a 40-byte control packet from the
    /// link layer that saw the frame to the segment's sender. Agents and proxies ignore it.
    Notice(tcp::NoticeKind),
    /// A real IP datagram of the emulator (`lossylink-emu`) of `ip_len` bytes: `seg` is its
    /// TCP header as parsed (payload length in `seg.len`), or an empty segment for another
    /// protocol. The network moves it like a TCP packet and hands it back at its destination
    /// (`Network::advance`) instead of delivering it to an endpoint. Base-station agents that
    /// only cache and resend segments (LL, snoop) see it when it is TCP.
    Emulated {
        /// Length of the real datagram.
        ip_len: u32,
        /// The emulator's key of the datagram's bytes: the uid it entered with. A local
        /// retransmission of an agent is a new packet (new uid) carrying its original's key, so
        /// the emulator resends the original bytes.
        payload: u64,
        /// Whether the datagram is IPv4 TCP (`seg` parsed from it).
        tcp: bool,
    },
}

/// Link-layer header of a frame on a wireless hop run by a link ARQ (`crate::agent::arq`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkTag {
    /// A plain IP frame.
    #[default]
    None,
    /// A data frame of the base station's link ARQ.
    Data {
        /// Link sequence number (per base station, in order of first transmission).
        lsn: u32,
        /// The oldest link sequence number the sender still holds: every frame below it was
        /// acknowledged or given up, so the receiver stops waiting for it.
        base: u32,
    },
    /// A link-level acknowledgment from the mobile's link receiver; never delivered to TCP.
    Ack(LinkAck),
}

/// A selective link acknowledgment: a cumulative part and a bitmap (like RLP's RR/SREJ status,
/// Ludwig2000 §3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkAck {
    /// Every link sequence number below this was received (or given up by the sender).
    pub next: u32,
    /// Bit `i` set: frame `next + 1 + i` was received.
    pub bitmap: u64,
    /// Link-layer payload bytes of the ACK frame (the hop adds its framing).
    pub bytes: u32,
}

impl LinkAck {
    /// Whether this acknowledgment covers link sequence number `lsn`.
    pub fn covers(&self, lsn: u32) -> bool {
        if lsn < self.next {
            return true;
        }
        let off = lsn - self.next;
        (1..=64).contains(&off) && self.bitmap & (1 << (off - 1)) != 0
    }
    /// The highest link sequence number this acknowledgment reports received, if any.
    pub fn highest(&self) -> Option<u32> {
        if self.bitmap != 0 {
            Some(self.next + 64 - self.bitmap.leading_zeros())
        } else {
            self.next.checked_sub(1)
        }
    }
}

/// What a frame carries, for per-kind counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// A segment with payload.
    Data,
    /// A pure acknowledgment.
    Ack,
}

impl Packet {
    /// Whether this is a link-level acknowledgment frame (not a TCP packet).
    pub fn is_link_ack(&self) -> bool {
        matches!(self.link, LinkTag::Ack(_))
    }
    /// Data or pure ACK (a link ACK frame counts as an ACK: it carries no TCP payload).
    pub fn kind(&self) -> PacketKind {
        // A SYN goes the data's way, to the receiver; its SYN-ACK is an ACK.
        if self.seg.is_data() || (self.seg.opts.syn.is_some() && !self.seg.ack_flag) {
            PacketKind::Data
        } else {
            PacketKind::Ack
        }
    }
    /// Size of the IP datagram in bytes.
    /// For a link ACK frame: its link-layer payload bytes.
    pub fn ip_len(&self) -> u32 {
        match (self.link, self.proto) {
            (LinkTag::Ack(a), _) => a.bytes,
            // IPv4 20 + UDP 8 bytes of header.
            (_, Proto::Udp) => 28 + self.seg.len,
            // IPv4 20 + a 20-byte control header (flow, sequence number, kind): the spec's
            // "about 40 bytes" [PROPOSAL].
            (_, Proto::Notice(_)) => NOTICE_BYTES,
            (_, Proto::Tcp) => self.seg.ip_len(),
            (_, Proto::Emulated { ip_len, .. }) => ip_len,
        }
    }
    /// Whether this is a TCP segment of a flow (neither UDP nor a link notice).
    #[inline]
    pub fn is_tcp(&self) -> bool {
        self.proto == Proto::Tcp
    }
    /// Whether this carries a TCP segment that base-station agents may cache, time and resend:
    /// a simulated one, or a real IPv4 TCP datagram of the emulator.
    #[inline]
    pub fn is_tcp_segment(&self) -> bool {
        matches!(self.proto, Proto::Tcp | Proto::Emulated { tcp: true, .. })
    }
    /// Whether this is a UDP datagram.
    pub fn is_udp(&self) -> bool {
        self.proto == Proto::Udp
    }
    /// Whether this is a real datagram of the emulator ([`Proto::Emulated`]).
    pub fn is_emulated(&self) -> bool {
        matches!(self.proto, Proto::Emulated { .. })
    }
}

/// Something a port queues: a [`Packet`] itself, or a [`PacketRef`] to one in the network's
/// [`PacketPool`]. Hiccups (crate::hiccup) only need to tell data from ACKs.
pub(crate) trait Frame: Copy {
    /// Data or pure ACK, as [`Packet::kind`].
    fn kind(&self) -> PacketKind;
}

impl Frame for Packet {
    fn kind(&self) -> PacketKind {
        Packet::kind(self)
    }
}

/// A handle on a packet in the network's [`PacketPool`]: what port queues, wires and hiccups
/// move instead of the packet itself (a few bytes, not the whole header with its options).
/// It remembers the packet's kind at insertion, which nothing changes while it waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PacketRef {
    slot: u32,
    kind: PacketKind,
}

impl PacketRef {
    /// The slot and kind, for an event that carries the handle (`Event::Arrive` of the
    /// network): flattened there, the event stays 16 bytes.
    #[inline(always)]
    pub(crate) fn into_parts(self) -> (u32, PacketKind) {
        (self.slot, self.kind)
    }

    /// The handle [`PacketRef::into_parts`] took apart.
    #[inline(always)]
    pub(crate) fn from_parts(slot: u32, kind: PacketKind) -> Self {
        PacketRef { slot, kind }
    }

    /// A handle on no packet, for media tests that never look at the frame.
    #[cfg(test)]
    pub(crate) fn dangling() -> Self {
        PacketRef {
            slot: u32::MAX,
            kind: PacketKind::Data,
        }
    }
}

impl Frame for PacketRef {
    fn kind(&self) -> PacketKind {
        self.kind
    }
}

/// What the hops read of a packet, kept beside its slot in a dense array of the pool: a
/// router's forwarding (the link tag, the destination) and a wire's transmission (the IP
/// length, the payload, the counters' class) read these 16 bytes instead of the packet's
/// 160, which a frame on a long, fast wire left cold (docs/performance.md, eighteenth
/// session: the packets' lines were most of the first-level misses of the 1000-flow
/// dumbbell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    /// [`Packet::ip_len`].
    pub(crate) ip_len: u32,
    /// The TCP (or UDP) payload, `seg.len`.
    pub(crate) payload: u32,
    /// [`Packet::dst`].
    pub(crate) dst: NodeId,
    /// Which of a port's frame counters it counts in.
    pub(crate) class: FrameClass,
    /// Whether its link tag is [`LinkTag::None`] (no link ARQ header).
    pub(crate) plain: bool,
}

/// The frame counters a packet counts in (crate::port): one flat byte, so that a frame's
/// count is one match (a nested kind cost the reference run 1 % of its instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameClass {
    /// A TCP segment of [`PacketKind::Data`] (or an emulated datagram of that kind).
    Data,
    /// A TCP segment of [`PacketKind::Ack`] (or an emulated datagram of that kind).
    Ack,
    /// A link-level acknowledgment ([`Packet::is_link_ack`]).
    LinkAck,
    /// A UDP datagram.
    Udp,
}

impl Head {
    /// The head of `pkt`.
    #[inline(always)]
    pub(crate) fn of(pkt: &Packet) -> Head {
        Head::with_kind(pkt, pkt.kind())
    }

    /// The head of `pkt`, whose [`Packet::kind`] is `kind` (the pool's insertion has it).
    #[inline(always)]
    fn with_kind(pkt: &Packet, kind: PacketKind) -> Head {
        let plain = matches!(pkt.link, LinkTag::None);
        let class = if pkt.is_link_ack() {
            FrameClass::LinkAck
        } else if pkt.is_udp() {
            FrameClass::Udp
        } else {
            match kind {
                PacketKind::Data => FrameClass::Data,
                PacketKind::Ack => FrameClass::Ack,
            }
        };
        Head {
            ip_len: pkt.ip_len(),
            payload: pkt.seg.len,
            dst: pkt.dst,
            class,
            plain,
        }
    }
}

/// The packets of a network that are between two stages (queued, held by a hiccup, on a
/// wire, being handled by the loop), each in a slot reused once its packet has left. Slot
/// reuse order has no effect on results: packets keep their uid, and every ordering in the
/// network comes from the queues that hold the handles.
#[derive(Debug, Default)]
pub(crate) struct PacketPool {
    slots: Vec<Packet>,
    /// The head of each slot's packet ([`Head`]), computed when the packet enters or
    /// changes: every hop reads it, and the IP length's options cost a few tests.
    heads: Vec<Head>,
    /// Slots free for reuse, the most recently freed last.
    free: Vec<u32>,
    /// Debug builds: which slots hold a live packet (catches a handle used after release).
    #[cfg(debug_assertions)]
    live: Vec<bool>,
    /// The packets that left the network, by fate (crate::account).
    fates: Fates,
}

impl PacketPool {
    /// Store `pkt` and return its handle.
    // Inlined: the callers build the packet in place of an argument copy (callgrind).
    #[inline(always)]
    pub(crate) fn insert(&mut self, pkt: Packet) -> PacketRef {
        let kind = pkt.kind();
        let head = Head::with_kind(&pkt, kind);
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = pkt;
                self.heads[s as usize] = head;
                s
            }
            None => {
                self.slots.push(pkt);
                self.heads.push(head);
                #[cfg(debug_assertions)]
                self.live.push(false);
                (self.slots.len() - 1) as u32
            }
        };
        #[cfg(debug_assertions)]
        {
            self.live[slot as usize] = true;
        }
        PacketRef { slot, kind }
    }

    /// Free the slot of `r`: its packet has left the network with `fate`.
    #[inline(always)]
    pub(crate) fn release(&mut self, r: PacketRef, fate: Fate) {
        self.free_slot(r);
        self.fates.add(fate);
    }

    /// A packet out of the pool (taken with [`PacketPool::take`], or never inserted) left the
    /// network with `fate`.
    #[inline(always)]
    pub(crate) fn retire(&mut self, fate: Fate) {
        self.fates.add(fate);
    }

    /// The packets that left the network so far, by fate.
    pub(crate) fn fates(&self) -> &Fates {
        &self.fates
    }

    fn free_slot(&mut self, r: PacketRef) {
        #[cfg(debug_assertions)]
        {
            debug_assert!(self.live[r.slot as usize], "packet released twice");
            self.live[r.slot as usize] = false;
        }
        self.free.push(r.slot);
    }

    /// The packet of `r`, its slot freed: the caller inserts it again or [`retire`s] it.
    ///
    /// [`retire`s]: PacketPool::retire
    pub(crate) fn take(&mut self, r: PacketRef) -> Packet {
        self.free_slot(r);
        self.slots[r.slot as usize]
    }

    /// The IP length of the packet of `r` ([`Packet::ip_len`]).
    #[inline]
    pub(crate) fn ip_len(&self, r: PacketRef) -> u32 {
        self.heads[r.slot as usize].ip_len
    }

    /// The head of the packet of `r` ([`Head`]).
    #[inline(always)]
    pub(crate) fn head(&self, r: PacketRef) -> &Head {
        #[cfg(debug_assertions)]
        debug_assert!(self.live[r.slot as usize], "packet used after release");
        &self.heads[r.slot as usize]
    }

    /// Change the packet of `r` in place (its head follows).
    pub(crate) fn update(&mut self, r: PacketRef, f: impl FnOnce(&mut Packet)) {
        #[cfg(debug_assertions)]
        debug_assert!(self.live[r.slot as usize], "packet used after release");
        let p = &mut self.slots[r.slot as usize];
        f(p);
        self.heads[r.slot as usize] = Head::of(p);
    }

    /// Packets held (slots in use).
    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

impl std::ops::Index<PacketRef> for PacketPool {
    type Output = Packet;
    fn index(&self, r: PacketRef) -> &Packet {
        #[cfg(debug_assertions)]
        debug_assert!(self.live[r.slot as usize], "packet used after release");
        &self.slots[r.slot as usize]
    }
}

/// A packet of flow 0 from node 0 to node 1 with `len` payload bytes (an ACK if 0), for unit
/// tests.
#[cfg(test)]
pub(crate) fn test_packet(uid: u64, len: u32) -> Packet {
    use engine::{FlowId, NodeId};
    use tcp::{SegOptions, Segment, SeqNum};
    Packet {
        uid,
        flow: FlowId(0),
        src: NodeId(0),
        dst: NodeId(1),
        seg: Segment {
            seq: SeqNum(uid as u32 * 100),
            ack: SeqNum(0),
            len,
            wnd: 8192,
            ack_flag: true,
            opts: SegOptions::default(),
        },
        link: LinkTag::None,
        proto: Proto::Tcp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(uid: u64, len: u32) -> Packet {
        test_packet(uid, len)
    }

    /// A slot's head is its packet's, on insertion into a reused slot and after an update
    /// (the forwarding and the wire's counters read only it).
    #[test]
    fn the_head_follows_its_packet() {
        let mut pool = PacketPool::default();
        let a = pool.insert(pkt(1, 960));
        let want = Head {
            ip_len: 1000,
            payload: 960,
            dst: NodeId(1),
            class: FrameClass::Data,
            plain: true,
        };
        assert_eq!(*pool.head(a), want);
        pool.release(a, Fate::Delivered);
        let ack = pool.insert(pkt(2, 0));
        assert_eq!(pool.head(ack).class, FrameClass::Ack);
        pool.update(ack, |p| {
            p.dst = NodeId(7);
            p.proto = Proto::Udp;
            p.seg.len = 100;
        });
        let h = *pool.head(ack);
        assert_eq!(
            (h.dst, h.class, h.payload),
            (NodeId(7), FrameClass::Udp, 100)
        );
        assert_eq!(h.ip_len, pool[ack].ip_len());
        pool.update(ack, |p| p.link = LinkTag::Ack(Default::default()));
        assert_eq!(
            (pool.head(ack).class, pool.head(ack).plain),
            (FrameClass::LinkAck, false)
        );
    }

    #[test]
    fn the_pool_reuses_freed_slots_and_keeps_packets_apart() {
        let mut pool = PacketPool::default();
        let a = pool.insert(pkt(1, 100));
        let b = pool.insert(pkt(2, 0));
        assert_eq!((a.kind(), b.kind()), (PacketKind::Data, PacketKind::Ack));
        assert_eq!(pool.take(a).uid, 1);
        let c = pool.insert(pkt(3, 100));
        assert_eq!(pool.len(), 2);
        assert_eq!((pool[b].uid, pool[c].uid), (2, 3));
        pool.update(c, |p| p.uid = 4);
        pool.release(b, Fate::Delivered);
        assert_eq!(pool.take(c).uid, 4);
        assert_eq!(pool.len(), 0);
        // Only `release` and `retire` count a fate; `take` leaves it to the caller.
        pool.retire(Fate::AgentAbsorbed);
        assert_eq!(pool.fates().get(Fate::Delivered), 1);
        assert_eq!(pool.fates().get(Fate::AgentAbsorbed), 1);
    }
}
