//! `ll-arq`: a classic selective-repeat link-layer ARQ with its own link-level acknowledgments,
//! the base-station (sending) half. The mobile's half is [`crate::link_receiver`].
//!
//! Sources: Balakrishnan97 §2.13 (the TDMA link layer "*guarantees reliable, in-order delivery of
//! link-layer frames*", the CDMA one "*only makes a limited attempt*"; the spec suggests both as
//! extras to test §4.2's claim that out-of-order delivery, not timer competition, hurts LL);
//! Ludwig2000 §1 (persistency; fully- vs semi-reliable) and §3.6 (RLP: selective reject, a
//! retransmission limit N2 = 6).
//!
//! The design, TCP-agnostic like a real link layer:
//! - Every data frame the base station puts on the wireless hop gets a link sequence number
//!   (LSN) when its first transmission starts ([`Agent::on_transmit`]), so frames dropped by the
//!   interface queue leave no hole. The frame also carries `base`, the oldest LSN the sender still
//!   holds.
//! - The mobile answers every data frame with a link ACK: cumulative `next` plus a 64-bit
//!   bitmap of the frames received above it ([`crate::packet::LinkAck`], like RLP's RR/SREJ
//!   status). Link ACKs cross the reverse direction of the wireless hop as small frames (they
//!   contend, take airtime and can be corrupted) and never reach TCP. A link ACK joins the tail
//!   of the mobile's queue; if one is still waiting there, it is updated in place instead (the
//!   newest status supersedes it). Putting link ACKs at the head instead starves the mobile's
//!   TCP ACKs on the half-duplex medium (one frame per station and turn): in the WAN the ACK
//!   clock broke and error-free throughput fell from 1.36 to 1.13 Mb/s.
//! - Gap report (selective reject): a link ACK that acknowledges a frame whose last transmission
//!   left after the last transmission of a still unacknowledged frame shows that frame lost (the
//!   hop is FIFO): it is retransmitted at the head of the queue at once.
//! - Link timer: a frame unacknowledged `rto` after its last transmission ended is retransmitted;
//!   rto = max(`min_rto`, srtt + 4·rttvar) of the link round trip (end of transmission → link ACK),
//!   sampled Karn-style on frames sent once, from the oldest frame an ACK newly covers (the
//!   mobile updates a link ACK still waiting in its queue, so one ACK may cover several frames).
//!   The 50 ms floor [INFERRED] keeps the timer above the wait of a link ACK queued behind the
//!   mobile's TCP ACKs on the shared medium (with 20 ms, ~1% of LAN frames were resent
//!   needlessly), and far below TCP's 1 s minimum RTO. No backoff.
//! - Persistence: at most `max_retransmissions` retransmissions per frame (semi-reliable: when a
//!   frame is found missing again after the last one, it is given up, `base` moves past it and
//!   the receiver stops waiting for it), or persistent (fully reliable: retransmitted until
//!   acknowledged; the connection is never torn down).
//!
//! Deliberate choices: one LSN space per base station (a chain base station has one wireless hop);
//! no send window (TCP's window bounds the frames in flight well below the 65 the bitmap covers;
//! frames beyond it are simply not reported until the cumulative part catches up); a retransmission
//! queued but not yet sent is not queued again.

use super::{Agent, AgentStats, LinkRtt, Reaction};
use crate::packet::{LinkAck, LinkTag, Packet};
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// How persistent the ARQ is (Ludwig2000 §1 "error recovery persistency").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// Semi-reliable: at most this many retransmissions per frame, then the frame is given up.
    Limit(u32),
    /// Fully reliable: retransmit until acknowledged.
    Persistent,
}

/// Knobs of the link ARQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArqConfig {
    /// Retransmission limit or persistent (default 6, RLP's N2).
    pub persistence: Persistence,
    /// Minimum link retransmission timeout (50 ms).
    pub min_rto: SimDuration,
    /// Whether the mobile releases frames to IP in link order (resequencing).
    pub in_order: bool,
    /// Link-layer payload bytes of a link ACK frame.
    pub ack_bytes: u32,
}

impl Default for ArqConfig {
    fn default() -> Self {
        ArqConfig {
            persistence: Persistence::Limit(6),
            min_rto: SimDuration::from_millis(50),
            in_order: false,
            ack_bytes: 8,
        }
    }
}

/// One frame the sender holds.
#[derive(Clone, Copy, Debug)]
struct Frame {
    lsn: u32,
    pkt: Packet,
    /// When its last transmission ended.
    tx_at: Option<SimTime>,
    /// Order of that transmission among all of this sender's transmissions.
    tx_order: u64,
    /// A retransmission is queued and has not left yet.
    pending: bool,
    rxmts: u32,
    acked: bool,
}

/// The sending half of the link ARQ, at the base station.
#[derive(Clone, Debug)]
pub struct LinkArq {
    cfg: ArqConfig,
    next_lsn: u32,
    /// Held frames in LSN order (acknowledged ones are dropped from the front).
    frames: VecDeque<Frame>,
    rtt: LinkRtt,
    tx_counter: u64,
    stats: AgentStats,
}

impl LinkArq {
    /// A new sender.
    pub fn new(cfg: ArqConfig) -> Self {
        LinkArq {
            cfg,
            next_lsn: 0,
            frames: VecDeque::new(),
            rtt: LinkRtt::default(),
            tx_counter: 0,
            stats: AgentStats::default(),
        }
    }

    /// The oldest LSN still held (the next one to assign if none).
    pub fn base(&self) -> u32 {
        self.frames.front().map_or(self.next_lsn, |f| f.lsn)
    }

    fn index(&self, lsn: u32) -> Option<usize> {
        let first = self.frames.front()?.lsn;
        let i = lsn.checked_sub(first)? as usize;
        (i < self.frames.len()).then_some(i)
    }

    fn rto(&self) -> SimDuration {
        self.rtt.rto(self.cfg.min_rto)
    }

    /// Retransmit frame `i`, or give it up when its retransmissions are used up.
    fn repair(&mut self, i: usize) -> Option<Packet> {
        let f = &mut self.frames[i];
        if let Persistence::Limit(n) = self.cfg.persistence {
            if f.rxmts >= n {
                // Semi-reliable: give up; the receiver learns it from `base`.
                f.acked = true;
                self.stats.link_frames_given_up += 1;
                return None;
            }
        }
        f.rxmts += 1;
        f.pending = true;
        self.stats.local_retransmissions += 1;
        Some(f.pkt)
    }

    /// Drop acknowledged and given-up frames from the front, and refresh `base` in the frames
    /// about to be retransmitted.
    fn trim(&mut self, out: &mut [Packet]) {
        while self.frames.front().is_some_and(|f| f.acked) {
            self.frames.pop_front();
        }
        let base = self.base();
        for p in out {
            if let LinkTag::Data { lsn, .. } = p.link {
                p.link = LinkTag::Data { lsn, base };
            }
        }
    }

    /// A link ACK arrived: mark what it covers, sample the link round trip, retransmit the frames
    /// it shows lost (selective reject). Returns the retransmissions, in LSN order.
    pub fn on_link_ack(&mut self, now: SimTime, ack: &LinkAck) -> Vec<Packet> {
        self.stats.link_acks_received += 1;
        // The latest transmission among the frames this ACK newly covers, and the earliest
        // end of a first transmission among them (the RTT sample: a link ACK may cover several
        // frames when the mobile updated a waiting one, and the timer must allow for the
        // longest of their waits; Karn: frames sent once only).
        let mut newest: Option<u64> = None;
        let mut oldest_once: Option<SimTime> = None;
        for f in self.frames.iter_mut() {
            if !f.acked && ack.covers(f.lsn) {
                f.acked = true;
                let Some(at) = f.tx_at else { continue };
                newest = newest.max(Some(f.tx_order));
                if f.rxmts == 0 && oldest_once.is_none_or(|o| at < o) {
                    oldest_once = Some(at);
                }
            }
        }
        if let Some(at) = oldest_once {
            self.rtt.sample(now.saturating_since(at));
        }
        let mut out = Vec::new();
        if let Some(order) = newest {
            for i in 0..self.frames.len() {
                let f = self.frames[i];
                if !f.acked && !f.pending && f.tx_at.is_some() && f.tx_order < order {
                    if let Some(p) = self.repair(i) {
                        self.stats.dupack_retransmissions += 1;
                        out.push(p);
                    }
                }
            }
        }
        self.trim(&mut out);
        out
    }
}

impl Agent for LinkArq {
    fn on_data(&mut self, _now: SimTime, pkt: Packet) -> Reaction {
        Reaction::forward(pkt)
    }

    fn on_ack(&mut self, _now: SimTime, pkt: Packet) -> Reaction {
        Reaction::forward(pkt)
    }

    fn on_transmit(&mut self, _now: SimTime, mut pkt: Packet) -> Packet {
        if pkt.link == LinkTag::None {
            let lsn = self.next_lsn;
            pkt.link = LinkTag::Data {
                lsn,
                base: self.base(),
            };
            self.next_lsn = self.next_lsn.wrapping_add(1);
            self.frames.push_back(Frame {
                lsn,
                pkt,
                tx_at: None,
                tx_order: 0,
                pending: true,
                rxmts: 0,
                acked: false,
            });
        }
        pkt
    }

    fn on_link_ack(&mut self, now: SimTime, pkt: &Packet) -> Vec<Packet> {
        match pkt.link {
            LinkTag::Ack(a) => LinkArq::on_link_ack(self, now, &a),
            _ => Vec::new(),
        }
    }

    fn on_sent(&mut self, now: SimTime, pkt: &Packet) {
        let LinkTag::Data { lsn, .. } = pkt.link else {
            return;
        };
        if let Some(i) = self.index(lsn) {
            self.tx_counter += 1;
            let f = &mut self.frames[i];
            f.tx_at = Some(now);
            f.tx_order = self.tx_counter;
            f.pending = false;
        }
    }

    fn on_timeout(&mut self, now: SimTime) -> Vec<Packet> {
        let rto = self.rto();
        let mut out = Vec::new();
        for i in 0..self.frames.len() {
            let f = self.frames[i];
            let due = f.tx_at.is_some_and(|t| t + rto <= now);
            if !f.acked && !f.pending && due {
                if let Some(p) = self.repair(i) {
                    self.stats.timer_retransmissions += 1;
                    out.push(p);
                }
            }
        }
        self.trim(&mut out);
        out
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        let rto = self.rto();
        self.frames
            .iter()
            .filter(|f| !f.acked && !f.pending)
            .filter_map(|f| f.tx_at)
            .min()
            .map(|t| t + rto)
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;

    fn lsns(p: &[Packet]) -> Vec<u32> {
        p.iter()
            .map(|p| match p.link {
                LinkTag::Data { lsn, .. } => lsn,
                _ => u32::MAX,
            })
            .collect()
    }

    /// Frames 0..n sent 1 ms apart (transmissions end at i ms + 0.5 ms).
    fn sent(a: &mut LinkArq, n: u32) -> Vec<Packet> {
        (0..n)
            .map(|i| {
                let p = a.on_transmit(ms(i), data(i));
                a.on_sent(ms(i) + us(500), &p);
                p
            })
            .collect()
    }

    fn ack(next: u32, bits: &[u32]) -> LinkAck {
        LinkAck {
            next,
            bitmap: bits.iter().fold(0, |m, &l| m | 1 << (l - next - 1)),
            bytes: 8,
        }
    }

    #[test]
    fn frames_get_consecutive_lsns_and_the_base() {
        let mut a = LinkArq::new(ArqConfig::default());
        let p = sent(&mut a, 3);
        assert_eq!(lsns(&p), vec![0, 1, 2]);
        assert_eq!(p[2].link, LinkTag::Data { lsn: 2, base: 0 });
        assert!(a.on_link_ack(ms(3), &ack(2, &[])).is_empty());
        assert_eq!(a.base(), 2);
        // A retransmitted frame keeps its LSN.
        let again = a.on_transmit(ms(4), p[2]);
        assert_eq!(again.link, p[2].link);
    }

    #[test]
    fn a_gap_report_retransmits_exactly_the_missing_frames_once() {
        let mut a = LinkArq::new(ArqConfig::default());
        sent(&mut a, 5);
        // 1 and 2 lost: the ACK of 3 reports them.
        assert!(a.on_link_ack(ms(1), &ack(1, &[])).is_empty());
        let r = a.on_link_ack(ms(4), &ack(1, &[3]));
        assert_eq!(lsns(&r), vec![1, 2]);
        assert_eq!(seqs(&r), vec![1, 2]);
        // Queued, not yet sent: the ACK of 4 does not repeat them.
        assert!(a.on_link_ack(ms(5), &ack(1, &[3, 4])).is_empty());
        a.on_sent(ms(6), &r[0]);
        a.on_sent(ms(7), &r[1]);
        assert!(a.on_link_ack(ms(8), &ack(5, &[])).is_empty());
        assert_eq!(a.base(), 5);
        let s = a.stats();
        assert_eq!((s.local_retransmissions, s.dupack_retransmissions), (2, 2));
    }

    #[test]
    fn a_lost_retransmission_is_found_by_a_later_frame() {
        let mut a = LinkArq::new(ArqConfig::default());
        sent(&mut a, 3);
        let r = a.on_link_ack(ms(3), &ack(1, &[2]));
        assert_eq!(lsns(&r), vec![1]);
        a.on_sent(ms(4), &r[0]); // lost again
        let p = a.on_transmit(ms(4), data(3));
        a.on_sent(ms(5), &p);
        let r = a.on_link_ack(ms(6), &ack(1, &[2, 3]));
        assert_eq!(
            lsns(&r),
            vec![1],
            "frame 3 left after the retransmission of 1"
        );
    }

    #[test]
    fn the_retransmission_limit_gives_frames_up_and_moves_the_base() {
        let cfg = ArqConfig {
            persistence: Persistence::Limit(1),
            ..ArqConfig::default()
        };
        let mut a = LinkArq::new(cfg);
        sent(&mut a, 2);
        let r = a.on_link_ack(ms(2), &ack(0, &[1]));
        assert_eq!(lsns(&r), vec![0]);
        a.on_sent(ms(3), &r[0]);
        let p = a.on_transmit(ms(3), data(2));
        assert_eq!(p.link, LinkTag::Data { lsn: 2, base: 0 });
        a.on_sent(ms(4), &p);
        // 0 lost again: given up, not retransmitted.
        assert!(a.on_link_ack(ms(5), &ack(0, &[1, 2])).is_empty());
        assert_eq!(a.base(), 3);
        assert_eq!(a.stats().link_frames_given_up, 1);
        let p = a.on_transmit(ms(6), data(3));
        assert_eq!(p.link, LinkTag::Data { lsn: 3, base: 3 });
    }

    #[test]
    fn persistent_arq_never_gives_up_and_the_timer_repeats() {
        let cfg = ArqConfig {
            persistence: Persistence::Persistent,
            ..ArqConfig::default()
        };
        let mut a = LinkArq::new(cfg);
        let p = sent(&mut a, 1);
        // Before any sample the link RTO is 1 s (LinkRtt's initial value).
        let first = ms(0) + us(500) + SimDuration::from_secs(1);
        assert_eq!(a.poll_timeout(), Some(first));
        for k in 0..20u64 {
            let now = a.poll_timeout().expect("armed");
            let r = a.on_timeout(now);
            assert_eq!(lsns(&r), vec![0]);
            assert_eq!(a.poll_timeout(), None, "retransmission queued");
            a.on_sent(now + us(100 * (k + 1)), &p[0]);
        }
        assert_eq!(a.stats().timer_retransmissions, 20);
        assert_eq!(a.stats().link_frames_given_up, 0);
    }

    #[test]
    fn the_link_timer_follows_the_link_round_trip_with_a_floor() {
        let mut a = LinkArq::new(ArqConfig::default());
        sent(&mut a, 1);
        a.on_link_ack(ms(2), &ack(1, &[])); // sample 1.5 ms
        let p = a.on_transmit(ms(3), data(1));
        a.on_sent(ms(4), &p);
        // srtt + 4·rttvar = 1.5 + 3 ms, below the 50 ms floor.
        assert_eq!(a.poll_timeout(), Some(ms(54)));
        assert!(a.on_timeout(ms(53)).is_empty());
        assert_eq!(lsns(&a.on_timeout(ms(54))), vec![1]);
    }
}

/// Packet scripts with explicit times: the base station's [`LinkArq`], a half-duplex FIFO
/// wireless hop (a data frame takes 1 ms, then the link ACK takes 0.5 ms, then the next frame
/// starts; frame 1's first transmission is lost, so its slot has no ACK), the mobile's [`LinkReceiver`] and a TCP receiver that
/// ACKs every segment. The signature behaviour: the loss is repaired on the gap report of frame 2,
/// and only with in-order delivery does the TCP receiver see no duplicate ACKs.
#[cfg(test)]
mod script {
    use super::super::testkit::*;
    use super::*;
    use crate::link_receiver::LinkReceiver;
    use tcp::{DelayedAck, Receiver, ReceiverConfig, SeqNum, SeqSpace};

    fn at(micros: u64) -> SimTime {
        SimTime::ZERO + us(micros)
    }

    /// (time a segment reached TCP, its index), and the TCP receiver's duplicate ACKs.
    fn play(in_order: bool) -> (Vec<(SimTime, u32)>, u64, AgentStats) {
        let mut bs = LinkArq::new(ArqConfig {
            in_order,
            ..ArqConfig::default()
        });
        let mut rx = LinkReceiver::new(in_order, 8);
        let cfg = ReceiverConfig::new(MSS, 65535, DelayedAck::Off);
        let space = SeqSpace { base: SeqNum(BASE) };
        let mut tcp = Receiver::new(cfg, space, 100 * u64::from(MSS), SeqNum(1));
        let mut queue: VecDeque<Packet> = (0..5).map(data).collect();
        let mut delivered = Vec::new();
        let mut lost_once = false;
        let mut t = ms(0);
        while let Some(p) = queue.pop_front() {
            let p = bs.on_transmit(t, p);
            t += SimDuration::from_millis(1);
            bs.on_sent(t, &p);
            let ack_at = t + us(500);
            let next = ack_at;
            let LinkTag::Data { lsn, .. } = p.link else {
                panic!("untagged")
            };
            if lsn == 1 && !lost_once {
                lost_once = true;
                t = next;
                continue;
            }
            let out = rx.on_frame(p);
            for d in &out.deliver {
                delivered.push((t, seqs(std::slice::from_ref(d))[0]));
                tcp.on_segment(t, &d.seg);
                while tcp.poll_transmit(t).is_some() {}
            }
            let ack = out.ack.expect("link ACK");
            // Local retransmissions go to the head of the queue.
            for r in bs.on_link_ack(ack_at, &ack).into_iter().rev() {
                queue.push_front(r);
            }
            t = next;
        }
        (delivered, tcp.stats().dupacks_sent, bs.stats())
    }

    #[test]
    fn the_gap_report_of_the_next_frame_repairs_the_loss() {
        let (_, _, s) = play(false);
        assert_eq!((s.local_retransmissions, s.dupack_retransmissions), (1, 1));
        assert_eq!(s.timer_retransmissions, 0);
    }

    #[test]
    fn out_of_order_delivery_makes_the_tcp_receiver_send_dupacks() {
        let (d, dupacks, _) = play(false);
        // Frame 1 (1.5-2.5 ms) is lost; frame 2 arrives at 4 ms and is delivered at once; its link
        // ACK (4.5 ms) reports the hole and the retransmission goes next (4.5-5.5 ms).
        assert_eq!(
            d,
            vec![
                (at(1000), 0),
                (at(4000), 2),
                (at(5500), 1),
                (at(7000), 3),
                (at(8500), 4)
            ]
        );
        assert_eq!(dupacks, 1, "segment 2 arrived above the hole");
    }

    #[test]
    fn in_order_delivery_holds_the_later_frames_until_the_repair() {
        let (d, dupacks, _) = play(true);
        // Frame 2 is held from 4 ms until the repair of frame 1 arrives at 5.5 ms.
        assert_eq!(
            d,
            vec![
                (at(1000), 0),
                (at(5500), 1),
                (at(5500), 2),
                (at(7000), 3),
                (at(8500), 4)
            ]
        );
        assert_eq!(dupacks, 0);
    }
}
