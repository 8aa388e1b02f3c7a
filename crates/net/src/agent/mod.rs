//! Base-station agents (DESIGN.md: "they see data going to the wireless side and ACKs coming
//! back, return `Forward(pkt)` or `Absorb`, may inject local retransmissions at the head of the
//! wireless queue, and ask for wake-ups").
//!
//! An agent runs on one base-station node and keeps per-connection soft state in a `Vec` indexed
//! by [`FlowId`] (no hash-order iteration). It never schedules events: the [`Network`] calls
//!
//! - [`Agent::on_data`] for an intact data packet about to be forwarded onto the wireless hop,
//! - [`Agent::on_ack`] for an intact ACK that arrived from the wireless hop,
//! - [`Agent::on_sent`] when a data frame of this node finished its transmission on the wireless
//!   hop (corrupted or not: the sender cannot tell),
//! - [`Agent::on_timeout`] at the time [`Agent::poll_timeout`] asked for,
//!
//! and puts the packets of [`Reaction::local`] at the head of the wireless interface queue.
//!
//! The family (Balakrishnan97 §2.8-2.11, §B.3, §B.5 (b)):
//! - [`ll::LinkLayer`] in mode [`ll::Mode::Plain`] (`ll`) and [`ll::Mode::Snoop`]
//!   (`ll-tcp-aware`);
//! - [`smart::SmartLinkLayer`] (`ll-smart`, `ll-smart-tcp-aware`);
//! - [`eln_bs::ElnMarker`] (`eln-bs`);
//! - beyond the paper, [`arq::LinkArq`] (`ll-arq`), a selective-repeat link ARQ with its own
//!   link-level ACKs from the mobile's [`crate::link_receiver::LinkReceiver`] (§2.13). It uses
//!   the two hooks the TCP-aware agents leave at their defaults: [`Agent::on_transmit`] (number
//!   a frame as it goes on the air) and [`Agent::on_link_ack`].
//!
//! [`Network`]: crate::Network

pub mod arq;
pub(crate) mod cache;
pub mod eln_bs;
pub mod elsn;
pub mod ll;
pub mod ns2_snoop;
pub mod smart;

use crate::packet::Packet;
use engine::{FlowId, SimDuration, SimTime};

/// What happens to the packet an agent was shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Forward this packet (possibly modified: an option stripped or a mark added).
    Forward(Packet),
    /// Drop it silently (a suppressed duplicate ACK).
    Absorb,
}

/// An agent's answer to one packet or wake-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reaction {
    /// The packet's fate (`Absorb` for wake-ups).
    pub verdict: Verdict,
    /// Local retransmissions, to be put at the head of the wireless queue in this order.
    pub local: Vec<Packet>,
}

impl Reaction {
    /// Forward `pkt`, nothing else.
    pub fn forward(pkt: Packet) -> Self {
        Reaction {
            verdict: Verdict::Forward(pkt),
            local: Vec::new(),
        }
    }
}

/// How a link-status notification travels to the segment's sender (eln-llelsn spec §4.1 (c),
/// knob `elsn_path`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoticePath {
    /// A control packet of [`crate::packet::NOTICE_BYTES`] from the agent's node to the
    /// sender, routed and queued like any packet (the downlink's "ELN delay"; delivered in the
    /// host when the agent runs on the sender's own node, the uplink).
    #[default]
    ControlPacket,
    /// Handed to the sender at the instant the MAC reported it (an oracle, for ablation).
    Oracle,
}

/// A notification an agent asks the network to deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The connection of the segment.
    pub flow: FlowId,
    /// The segment's sender (where the notification goes).
    pub to: engine::NodeId,
    /// What is notified.
    pub notice: tcp::LinkNotice,
    /// How it travels.
    pub path: NoticePath,
}

/// Always-on counters of an agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentStats {
    /// Local retransmissions of every cause.
    pub local_retransmissions: u64,
    /// ... of which triggered by duplicate ACKs (or SMART holes).
    pub dupack_retransmissions: u64,
    /// ... of which triggered by the local timer.
    pub timer_retransmissions: u64,
    /// ... of which triggered by the partial-ACK rule (Balakrishnan97 §B.3).
    pub partial_ack_retransmissions: u64,
    /// Duplicate ACKs not forwarded to the sender.
    pub dupacks_suppressed: u64,
    /// Duplicate ACKs forwarded because the missing segment was not cached (lost upstream) or
    /// was retransmitted by the sender.
    pub dupacks_forwarded_uncached: u64,
    /// ACKs whose SMART option was stripped before forwarding.
    pub smart_stripped: u64,
    /// ACKs the agent marked with ELN.
    pub eln_marked: u64,
    /// Sender retransmissions of segments the agent had cached.
    pub sender_retransmissions_seen: u64,
    /// Link-level ACK frames that reached the agent intact (link ARQ).
    pub link_acks_received: u64,
    /// Frames a semi-reliable link ARQ gave up after its retransmission limit.
    pub link_frames_given_up: u64,
    /// LL-ELSN loss notifications sent (frames the MAC dropped after the retry limit).
    pub elns_sent: u64,
    /// LL-ELSN retransmission-start notifications sent.
    pub ersns_sent: u64,
}

impl AgentStats {
    /// Field-wise sum.
    pub fn add(&mut self, o: &AgentStats) {
        self.local_retransmissions += o.local_retransmissions;
        self.dupack_retransmissions += o.dupack_retransmissions;
        self.timer_retransmissions += o.timer_retransmissions;
        self.partial_ack_retransmissions += o.partial_ack_retransmissions;
        self.dupacks_suppressed += o.dupacks_suppressed;
        self.dupacks_forwarded_uncached += o.dupacks_forwarded_uncached;
        self.smart_stripped += o.smart_stripped;
        self.eln_marked += o.eln_marked;
        self.sender_retransmissions_seen += o.sender_retransmissions_seen;
        self.link_acks_received += o.link_acks_received;
        self.link_frames_given_up += o.link_frames_given_up;
        self.elns_sent += o.elns_sent;
        self.ersns_sent += o.ersns_sent;
    }
}

/// How full the interface queue is that a data packet shown to an agent is about to join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueFill {
    /// Packets waiting (the frame the MAC holds not counted).
    pub len: usize,
    /// The queue's capacity in packets.
    pub limit: usize,
}

/// A base-station agent.
pub trait Agent {
    /// An intact data packet about to be forwarded to the wireless side.
    fn on_data(&mut self, now: SimTime, pkt: Packet) -> Reaction;
    /// [`Agent::on_data`] with the fill of the interface queue the packet is about to join
    /// (ns-2's snoop caches only below the limit minus one). Default: `on_data`.
    fn on_data_queued(&mut self, now: SimTime, pkt: Packet, _queue: QueueFill) -> Reaction {
        self.on_data(now, pkt)
    }
    /// Whether local retransmissions join the tail of the interface queue (ns-2's
    /// `LL/LLSnoop`, dropped when it is full) instead of its head. Default: the head.
    fn local_at_tail(&self) -> bool {
        false
    }
    /// An intact ACK that arrived from the wireless side.
    fn on_ack(&mut self, now: SimTime, pkt: Packet) -> Reaction;
    /// A data frame of this node left on the wireless hop at `now` (transmission complete).
    fn on_sent(&mut self, now: SimTime, pkt: &Packet);
    /// The wake-up asked for by [`Agent::poll_timeout`] is due.
    fn on_timeout(&mut self, now: SimTime) -> Vec<Packet>;
    /// When to be woken next, if at all.
    fn poll_timeout(&self) -> Option<SimTime>;
    /// Counters so far.
    fn stats(&self) -> AgentStats;
    /// A data frame of this node starts its transmission on the wireless hop at `now` (first
    /// transmissions and local retransmissions alike); the agent may add a link header. Default:
    /// unchanged.
    fn on_transmit(&mut self, _now: SimTime, pkt: Packet) -> Packet {
        pkt
    }
    /// An intact link-level ACK frame arrived from the wireless side; returns local
    /// retransmissions for the head of the wireless queue. Default: none.
    fn on_link_ack(&mut self, _now: SimTime, _pkt: &Packet) -> Vec<Packet> {
        Vec::new()
    }
    /// Cross-layer hook of an 802.11 DCF cell: the MAC gave up a frame this node
    /// sent, after its last retry; `pkt` is the packet it carried (lost on the air). The base of
    /// LL-ELSN's loss notification (eln-llelsn spec §4.1); the agent may answer with a
    /// notification for the segment's sender. Default: nothing.
    fn on_mac_drop(&mut self, _now: SimTime, _pkt: &Packet) -> Option<Notice> {
        None
    }
    /// Cross-layer hook of an 802.11 DCF cell: a frame this node sent starts its first retry
    /// (its first attempt was not acknowledged); the base of ERSN (spec §4.2). Default: nothing.
    fn on_first_retry(&mut self, _now: SimTime, _pkt: &Packet) -> Option<Notice> {
        None
    }
}

/// Knobs of the local retransmission timer and dupack trigger shared by the link-layer agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkTimerConfig {
    /// Minimum local RTO (Balakrishnan97 §2.8: 200 ms).
    pub min_rto: SimDuration,
    /// Timer granularity: the timer fires on multiples of this (§2.8/§B.10: 200 ms); zero for a
    /// continuous clock.
    pub tick: SimDuration,
    /// Duplicate ACKs before a local retransmission (§B.10 item 6: 2).
    pub dupthresh: u32,
}

impl Default for LinkTimerConfig {
    fn default() -> Self {
        LinkTimerConfig {
            min_rto: SimDuration::from_millis(200),
            tick: SimDuration::from_millis(200),
            dupthresh: 2,
        }
    }
}

/// Smoothed estimate of the BS↔MH round trip (data frame sent → covering ACK back), Jacobson's
/// estimator in integer nanoseconds: RTO = max(min_rto, srtt + 4·rttvar) (Balakrishnan97 §2.8:
/// "a smoothed round-trip time estimate, with a minimum timeout granularity of 200 ms"; the
/// formula is [INFERRED] in the spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkRtt {
    srtt: Option<u64>,
    rttvar: u64,
}

/// RTO before the first sample ([INFERRED]: well below the sender's 6 s initial RTO).
const INITIAL_LINK_RTO: SimDuration = SimDuration::from_secs(1);

impl LinkRtt {
    /// Feed one sample.
    pub fn sample(&mut self, rtt: SimDuration) {
        let r = rtt.as_nanos();
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(s) => {
                let err = s.abs_diff(r);
                self.rttvar = (3 * self.rttvar + err) / 4;
                self.srtt = Some((7 * s + r) / 8);
            }
        }
    }
    /// The smoothed round trip, if sampled.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt.map(SimDuration)
    }
    /// The local retransmission timeout.
    pub fn rto(&self, min: SimDuration) -> SimDuration {
        match self.srtt {
            None => INITIAL_LINK_RTO.max(min),
            Some(s) => SimDuration(s + 4 * self.rttvar).max(min),
        }
    }
}

/// The first multiple of `tick` at or after `t` (`t` itself for a zero tick).
pub(crate) fn on_tick(t: SimTime, tick: SimDuration) -> SimTime {
    let k = tick.as_nanos();
    if k == 0 {
        return t;
    }
    SimTime(t.as_nanos().div_ceil(k).saturating_mul(k))
}

/// Per-flow state in a `Vec` indexed by flow id, created on first use.
pub(crate) fn slot<T: Default>(v: &mut Vec<T>, flow: FlowId) -> &mut T {
    let i = flow.index();
    if v.len() <= i {
        v.resize_with(i + 1, T::default);
    }
    &mut v[i]
}

#[cfg(test)]
pub(crate) mod testkit;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_rtt_follows_jacobson_and_respects_the_minimum() {
        let mut r = LinkRtt::default();
        let min = SimDuration::from_millis(200);
        assert_eq!(r.rto(min), SimDuration::from_secs(1));
        r.sample(SimDuration::from_millis(20));
        assert_eq!(r.srtt(), Some(SimDuration::from_millis(20)));
        // 20 + 4·10 = 60 ms, below the 200 ms floor.
        assert_eq!(r.rto(min), min);
        r.sample(SimDuration::from_millis(500));
        assert_eq!(r.srtt(), Some(SimDuration::from_millis(80)));
        assert_eq!(
            r.rto(min),
            SimDuration::from_millis(80 + 4 * 127_500 / 1000)
        );
    }

    #[test]
    fn ticks_round_up() {
        let tick = SimDuration::from_millis(200);
        assert_eq!(on_tick(SimTime(1), tick), SimTime(200_000_000));
        assert_eq!(on_tick(SimTime(200_000_000), tick), SimTime(200_000_000));
        assert_eq!(
            on_tick(SimTime(5), SimDuration::ZERO),
            SimTime(5),
            "continuous clock"
        );
    }
}
