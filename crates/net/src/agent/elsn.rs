//! LL-ELSN, the link layer's explicit link-status notification (eln-llelsn spec §4.1-4.2; the
//! paper's §3 is not in our excerpt, so this is the spec's [PROPOSAL] (c)).
//!
//! The agent runs where the 802.11 MAC transmits the TCP data: on the access point for a
//! download, on the sending station itself for an upload. It never touches the packets it
//! forwards; it listens to the two cross-layer hooks of the DCF cell:
//!
//! - a data frame given up after its last attempt (bit errors or collisions alike; an
//!   interface-queue overflow is congestion and never reaches this hook) becomes an **ELN**
//!   naming the segment, for its sender (§4.1 (c) "Detection point", "Notification content");
//! - with ERSN on, a data frame whose first attempt went unacknowledged becomes an **ERSN**, so
//!   that the sender restarts its retransmission timer while the link retries (§4.2 (c)).
//!
//! A lost MAC ACK makes the MAC give up a frame that was delivered: the false ELN that follows
//! is kept, as the spec asks ("physically faithful"). TCP ACK frames and frames without payload
//! are never notified (§4.1 (c) "What is not notified"). The notification travels as the
//! network's [`NoticePath`] says.

use super::{Agent, AgentStats, Notice, NoticePath, Reaction};
use crate::packet::Packet;
use engine::SimTime;
use tcp::{LinkNotice, NoticeKind};

/// LL-ELSN's knobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ElsnConfig {
    /// Send ERSN at a frame's first retry as well (the paper's LL-ELSN has it; off for the
    /// "without ERSN" curve of Fig. 13).
    pub ersn: bool,
    /// How notifications travel (`elsn_path`).
    pub path: NoticePath,
}

/// The LL-ELSN agent of one node.
#[derive(Clone, Debug, Default)]
pub struct Elsn {
    cfg: ElsnConfig,
    stats: AgentStats,
}

impl Elsn {
    /// A new agent.
    pub fn new(cfg: ElsnConfig) -> Self {
        Elsn {
            cfg,
            stats: AgentStats::default(),
        }
    }

    fn notice(&self, pkt: &Packet, kind: NoticeKind) -> Option<Notice> {
        (pkt.is_tcp() && pkt.seg.is_data() && !pkt.is_link_ack()).then_some(Notice {
            flow: pkt.flow,
            to: pkt.src,
            notice: LinkNotice {
                kind,
                seq: pkt.seg.seq,
            },
            path: self.cfg.path,
        })
    }
}

impl Agent for Elsn {
    fn on_data(&mut self, _now: SimTime, pkt: Packet) -> Reaction {
        Reaction::forward(pkt)
    }

    fn on_ack(&mut self, _now: SimTime, pkt: Packet) -> Reaction {
        Reaction::forward(pkt)
    }

    fn on_sent(&mut self, _now: SimTime, _pkt: &Packet) {}

    fn on_timeout(&mut self, _now: SimTime) -> Vec<Packet> {
        Vec::new()
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }

    fn on_mac_drop(&mut self, _now: SimTime, pkt: &Packet) -> Option<Notice> {
        let n = self.notice(pkt, NoticeKind::Eln)?;
        self.stats.elns_sent += 1;
        Some(n)
    }

    fn on_first_retry(&mut self, _now: SimTime, pkt: &Packet) -> Option<Notice> {
        if !self.cfg.ersn {
            return None;
        }
        let n = self.notice(pkt, NoticeKind::Ersn)?;
        self.stats.ersns_sent += 1;
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{LinkTag, Proto};
    use engine::{FlowId, NodeId};
    use tcp::{SegOptions, Segment, SeqNum};

    fn pkt(len: u32) -> Packet {
        Packet {
            uid: 1,
            flow: FlowId(3),
            src: NodeId(0),
            dst: NodeId(2),
            seg: Segment {
                seq: SeqNum(1001),
                ack: SeqNum(1),
                len,
                wnd: 65535,
                ack_flag: true,
                opts: SegOptions::default(),
            },
            link: LinkTag::None,
            proto: Proto::Tcp,
        }
    }

    #[test]
    fn a_dropped_data_frame_becomes_an_eln_for_its_sender() {
        let mut a = Elsn::new(ElsnConfig::default());
        let n = a.on_mac_drop(SimTime::ZERO, &pkt(1000)).unwrap();
        assert_eq!(n.flow, FlowId(3));
        assert_eq!(n.to, NodeId(0));
        assert_eq!(n.notice.kind, NoticeKind::Eln);
        assert_eq!(n.notice.seq, SeqNum(1001));
        assert_eq!(a.stats().elns_sent, 1);
        // A TCP ACK frame or a UDP datagram is never notified.
        assert_eq!(a.on_mac_drop(SimTime::ZERO, &pkt(0)), None);
        let udp = Packet {
            proto: Proto::Udp,
            ..pkt(1000)
        };
        assert_eq!(a.on_mac_drop(SimTime::ZERO, &udp), None);
        assert_eq!(a.stats().elns_sent, 1);
    }

    #[test]
    fn ersn_only_when_asked_for() {
        let mut off = Elsn::new(ElsnConfig::default());
        assert_eq!(off.on_first_retry(SimTime::ZERO, &pkt(1000)), None);
        let mut on = Elsn::new(ElsnConfig {
            ersn: true,
            path: NoticePath::Oracle,
        });
        let n = on.on_first_retry(SimTime::ZERO, &pkt(1000)).unwrap();
        assert_eq!(n.notice.kind, NoticeKind::Ersn);
        assert_eq!(n.path, NoticePath::Oracle);
        assert_eq!(on.stats().ersns_sent, 1);
    }
}
