//! Optional recorders of the network: a per-frame link tap (what a packet capture at each
//! transmitter sees), the base-station agents' trace (local retransmissions, suppressed
//! duplicate ACKs) and the TCP receivers' trace (segments they accepted, ACKs they sent: the
//! `TcpRcv_Data`/`TcpRcv_Ack` curves of Ludwig2000's multi-layer plot, spec §4.2). All are off
//! unless asked for; when off, each hook costs one branch.
//!
//! The tap records a frame when its transmission *starts* on a port (the time a capture at the
//! transmitting interface would stamp it), including frames the error model corrupts: the
//! transmitter cannot tell, and the paper's own error generator likewise let a doomed packet go
//! out with a changed checksum (Balakrishnan97 §3.5). Queue drops never reach the wire and are
//! not recorded.

use crate::agent::{AgentStats, Verdict};
use crate::packet::Packet;
use engine::{FlowId, NodeId, PortId, SimTime};
use tcp::SeqNum;

/// One frame whose transmission started on a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TappedFrame {
    /// When the transmission started (contention wait included in the airtime, not here).
    pub start: SimTime,
    /// The port (hop direction) it was sent on.
    pub port: PortId,
    /// The packet.
    pub pkt: Packet,
    /// Whether the error model corrupted it (the far end discards it).
    pub corrupted: bool,
    /// Whether it is a MAC retransmission: an 802.11 DCF's next attempt at the frame it
    /// attempted last on this port (the retry bit of its 802.11 header); in an A-MPDU, a
    /// resent MPDU.
    pub retry: bool,
    /// The A-MPDU it went in (crate::medium::dcf::ampdu): its reference number, counted over
    /// the network's aggregates from 1 (radiotap's A-MPDU status field); `None` for a frame
    /// sent alone.
    pub ampdu: Option<u32>,
    /// The PHY mode it went in when a rate control picked it (crate::medium::dcf::snr);
    /// `None`: the port's own mode.
    pub mode: Option<crate::medium::dcf::phy::Mode>,
}

/// An 802.11 control frame of a DCF port's exchanges: a MAC ACK (or Block Ack), sent by the
/// receiving end of the port for a data frame it received intact (IEEE 802.11-2016
/// §10.3.2.9), or a BlockAckReq the port's sender sent (§10.24.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MacAck {
    /// When the data frame it acknowledges ended (the ACK follows a SIFS later); for a
    /// BlockAckReq when it started, for its Block Ack when the BlockAckReq ended.
    pub at: SimTime,
    /// The port of the data frame it acknowledges (the ACK goes the other way); the port a
    /// BlockAckReq went on.
    pub port: PortId,
    /// Whether the channel corrupted it (the sender then retries the data frame).
    pub lost: bool,
    /// Which control frame.
    pub kind: Control,
    /// The mode it went in, when the MAC recorded it (a BlockAckReq and its Block Ack).
    pub mode: Option<crate::medium::dcf::phy::Mode>,
}

/// The control frames a capture shows (crate::tap::MacAck).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A MAC ACK, or after an A-MPDU or a BlockAckReq a Block Ack.
    Ack,
    /// A BlockAckReq (crate::medium::dcf::ampdu).
    BlockAckReq,
}

/// Why an agent retransmitted locally, from its counters around the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalTrigger {
    /// Duplicate ACKs from the mobile (or a SMART hole).
    Dupack,
    /// The agent's local timer.
    Timer,
    /// Snoop's partial-ACK rule (Balakrishnan97 §B.3).
    PartialAck,
    /// Several causes in one reaction, or none of the counted ones.
    Other,
}

impl LocalTrigger {
    /// Name used in trace tables.
    pub fn name(self) -> &'static str {
        match self {
            LocalTrigger::Dupack => "dupack",
            LocalTrigger::Timer => "timer",
            LocalTrigger::PartialAck => "partial-ack",
            LocalTrigger::Other => "other",
        }
    }
}

/// What a base-station agent did, as recorded by the agent trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentEvent {
    /// A local retransmission was queued at the head of the wireless interface.
    LocalRetransmit {
        /// The connection.
        flow: FlowId,
        /// Wire sequence number of its first byte.
        seq: SeqNum,
        /// Payload bytes.
        len: u32,
        /// Why.
        trigger: LocalTrigger,
    },
    /// A duplicate ACK from the mobile was absorbed (not forwarded to the sender).
    DupackSuppressed {
        /// The connection.
        flow: FlowId,
        /// Its cumulative ACK (wire sequence number).
        ack: SeqNum,
    },
}

/// One agent trace record: time, node of the agent, event.
pub type AgentRecord = (SimTime, NodeId, AgentEvent);

/// What a TCP receiver did, as recorded by the receiver trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiverEvent {
    /// A data segment reached the receiver intact (a corrupted one never reaches TCP).
    Data {
        /// Wire sequence number of its first byte.
        seq: SeqNum,
        /// Payload bytes.
        len: u32,
    },
    /// The receiver sent an ACK.
    Ack {
        /// Its cumulative acknowledgement (wire sequence number).
        ack: SeqNum,
    },
}

/// One receiver trace record: time, connection, event.
pub type ReceiverRecord = (SimTime, FlowId, ReceiverEvent);

/// The recorders of a network; all `None` unless enabled.
#[derive(Clone, Debug, Default)]
pub(crate) struct Taps {
    pub frames: Option<Vec<TappedFrame>>,
    /// The MAC ACKs of DCF ports, recorded with the frames.
    pub mac_acks: Vec<MacAck>,
    /// Per port, the uid of the packet a MAC last attempted (u64::MAX: none), to mark retries.
    last_attempt: Vec<u64>,
    /// A-MPDUs started so far (the last one's reference number).
    ampdus: u32,
    /// The packets a DCF delivered to the far end of a port (by uid), in order: which MPDUs of
    /// an aggregate the receiver took, for a capture's IP view.
    pub delivered: Vec<(PortId, u64)>,
    pub agent: Option<Vec<AgentRecord>>,
    pub receiver: Option<Vec<ReceiverRecord>>,
}

impl Taps {
    /// A TCP receiver accepted a data segment or sent an ACK.
    #[inline]
    pub fn receiver(&mut self, now: SimTime, flow: FlowId, ev: ReceiverEvent) {
        if let Some(v) = self.receiver.as_mut() {
            v.push((now, flow, ev));
        }
    }

    /// A frame started on `port`.
    #[inline]
    pub fn frame(&mut self, start: SimTime, port: PortId, pkt: &Packet, corrupted: bool) {
        if let Some(v) = self.frames.as_mut() {
            v.push(TappedFrame {
                start,
                port,
                pkt: *pkt,
                corrupted,
                retry: false,
                ampdu: None,
                mode: None,
            });
        }
    }

    /// Whether the frame tap records.
    #[inline(always)]
    pub fn on(&self) -> bool {
        self.frames.is_some()
    }

    /// An MPDU of an A-MPDU started on `port` at `start`: `first` of its aggregate (a new
    /// reference number), a `retry` of an MPDU sent before.
    pub fn attempt_mpdu(
        &mut self,
        (start, port): (SimTime, PortId),
        pkt: &Packet,
        corrupted: bool,
        (first, retry): (bool, bool),
    ) {
        if let Some(v) = self.frames.as_mut() {
            if first {
                self.ampdus = self.ampdus.wrapping_add(1);
            }
            v.push(TappedFrame {
                start,
                port,
                pkt: *pkt,
                corrupted,
                retry,
                ampdu: Some(self.ampdus),
                mode: None,
            });
        }
    }

    /// The frame tapped last went in `mode`, a rate control's pick (crate::medium::dcf::snr).
    pub fn set_mode(&mut self, mode: crate::medium::dcf::phy::Mode) {
        if let Some(f) = self.frames.as_mut().and_then(|v| v.last_mut()) {
            f.mode = Some(mode);
        }
    }

    /// A DCF delivered the packet `uid` to the far end of `port`.
    pub fn delivered(&mut self, port: PortId, uid: u64) {
        if self.frames.is_some() {
            self.delivered.push((port, uid));
        }
    }

    /// A MAC (an 802.11 DCF) started an attempt at a frame on `port`: a retry if the port's
    /// previous attempt was at the same packet.
    #[inline]
    pub fn attempt(&mut self, start: SimTime, port: PortId, pkt: &Packet, corrupted: bool) {
        if let Some(v) = self.frames.as_mut() {
            let i = port.index();
            if self.last_attempt.len() <= i {
                self.last_attempt.resize(i + 1, u64::MAX);
            }
            let retry = self.last_attempt[i] == pkt.uid;
            self.last_attempt[i] = pkt.uid;
            v.push(TappedFrame {
                start,
                port,
                pkt: *pkt,
                corrupted,
                retry,
                ampdu: None,
                mode: None,
            });
        }
    }

    /// The far end of `port` sent a MAC ACK for the data frame that ended `at`.
    #[inline]
    pub fn mac_ack(&mut self, at: SimTime, port: PortId, lost: bool) {
        if self.frames.is_some() {
            self.mac_acks.push(MacAck {
                at,
                port,
                lost,
                kind: Control::Ack,
                mode: None,
            });
        }
    }

    /// A control frame of `kind` of `port` at `at` in `mode` (a BlockAckReq, or its Block
    /// Ack), corrupted if `lost`.
    pub fn control(
        &mut self,
        (at, port): (SimTime, PortId),
        kind: Control,
        mode: crate::medium::dcf::phy::Mode,
        lost: bool,
    ) {
        if self.frames.is_some() {
            self.mac_acks.push(MacAck {
                at,
                port,
                lost,
                kind,
                mode: Some(mode),
            });
        }
    }

    /// The agent counters before a call, when the agent trace is on.
    #[inline]
    pub fn agent_before(&self, stats: impl FnOnce() -> AgentStats) -> Option<AgentStats> {
        self.agent.as_ref().map(|_| stats())
    }

    /// Record what an agent call did: its local retransmissions and, for an absorbed ACK that
    /// the agent counted as a suppressed duplicate, the suppression.
    pub fn agent_after(
        &mut self,
        (now, node): (SimTime, NodeId),
        before: Option<AgentStats>,
        after: impl FnOnce() -> AgentStats,
        shown: Option<(&Packet, &Verdict)>,
        local: &[Packet],
    ) {
        let (Some(v), Some(b)) = (self.agent.as_mut(), before) else {
            return;
        };
        let after = after();
        let n = local.len() as u64;
        let d = |a: u64, b: u64| a.saturating_sub(b);
        let trigger = if n == 0 {
            LocalTrigger::Other
        } else if d(after.timer_retransmissions, b.timer_retransmissions) == n {
            LocalTrigger::Timer
        } else if d(after.dupack_retransmissions, b.dupack_retransmissions) == n {
            LocalTrigger::Dupack
        } else if d(
            after.partial_ack_retransmissions,
            b.partial_ack_retransmissions,
        ) == n
        {
            LocalTrigger::PartialAck
        } else {
            LocalTrigger::Other
        };
        if let Some((pkt, Verdict::Absorb)) = shown {
            if after.dupacks_suppressed > b.dupacks_suppressed {
                v.push((
                    now,
                    node,
                    AgentEvent::DupackSuppressed {
                        flow: pkt.flow,
                        ack: pkt.seg.ack,
                    },
                ));
            }
        }
        for p in local {
            v.push((
                now,
                node,
                AgentEvent::LocalRetransmit {
                    flow: p.flow,
                    seq: p.seg.seq,
                    len: p.seg.len,
                    trigger,
                },
            ));
        }
    }
}
