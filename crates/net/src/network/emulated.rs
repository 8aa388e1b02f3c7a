//! The emulator's side of the network (`lossylink-emu`, docs/emulation.md): real IP datagrams
//! enter at a node as [`Proto::Emulated`] packets, cross the scenario's links (queues, rates,
//! delays, error models, hiccups, media) like any packet, and are handed back with the model
//! time of their arrival when they reach their destination. The network stays sans-IO: the
//! emulator's clock supplies every `now`, and [`Network::advance`] runs the events due by then.

use super::Network;
use crate::packet::{LinkTag, Packet, Proto};
use engine::{FlowId, NodeId, SimTime};
use tcp::{SegOptions, Segment, SeqNum};

/// The segment a datagram that is not IPv4 TCP crosses the links as (an ACK for the counters).
const NOT_TCP: Segment = Segment {
    seq: SeqNum(0),
    ack: SeqNum(0),
    len: 0,
    wnd: 0,
    ack_flag: false,
    opts: SegOptions::NONE,
};

/// What became of a datagram handed to [`Network::inject`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injected {
    /// Its uid: the packet [`Network::advance`] hands back carries it.
    pub uid: u64,
    /// Whether the first port's queue took it (`false`: dropped there at once).
    pub queued: bool,
}

impl Network {
    /// A real datagram of `ip_len` bytes, from node `src` to node `dst`, enters the network at
    /// `now` (IP output at `src`). `seg` is its TCP header as parsed (`None`: not IPv4 TCP; it
    /// crosses the links as an empty segment): what decides data or ACK for counters and
    /// hiccups, the exposed bytes of a payload-exposed error model, and what the base-station
    /// agents (LL, snoop) cache and match ACKs against. `now` must not be before the last event
    /// run.
    pub fn inject(
        &mut self,
        now: SimTime,
        (src, dst): (NodeId, NodeId),
        seg: Option<Segment>,
        ip_len: u32,
    ) -> Injected {
        let uid = self.next_uid;
        self.next_uid += 1;
        let tcp = seg.is_some();
        let drops_before = self.total_queue_drops();
        let r = self.pool.insert(Packet {
            uid,
            flow: FlowId(0),
            src,
            dst,
            seg: seg.unwrap_or(NOT_TCP),
            link: LinkTag::None,
            proto: Proto::Emulated {
                ip_len,
                payload: uid,
                tcp,
            },
        });
        // A drop of a host queue comes back as the packet; of another queue, only as a count.
        let dropped = self.send_from(now, src, r).is_some();
        let queued = !dropped && self.total_queue_drops() == drops_before;
        Injected { uid, queued }
    }

    /// Run every event due at or before `until`; each emulated packet that reached its
    /// destination meanwhile goes to `out` with the model time of its arrival, in arrival order.
    pub fn advance(&mut self, until: SimTime, out: &mut Vec<(SimTime, Packet)>) {
        while let Some(next) = self.queue.peek_time() {
            if next > until {
                break;
            }
            let Some((now, ev)) = self.queue.pop() else {
                break;
            };
            self.handle(now, ev);
        }
        out.append(&mut self.emulated_out);
    }

    /// When the next event is due (the emulator sleeps until then or the next datagram).
    pub fn next_event_at(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }

    fn total_queue_drops(&self) -> u64 {
        self.ports.iter().map(|p| p.stats.queue_drops).sum()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::config::{
        ChainConfig, DirectionConfig, Exposure, HopConfig, HopRole, Medium, NodeConfig, NodeKind,
    };
    use crate::{ErrorModelConfig, Network};
    use engine::{NodeId, SimDuration, SimTime};
    use tcp::{SegOptions, Segment, SeqNum};

    fn seg(len: u32) -> Segment {
        Segment {
            seq: SeqNum(0),
            ack: SeqNum(0),
            len,
            wnd: 65535,
            ack_flag: true,
            opts: SegOptions::default(),
        }
    }

    fn link(queue: u32) -> Network {
        link_with(queue, SimDuration::ZERO)
    }

    fn link_with(queue: u32, jitter: SimDuration) -> Network {
        let dir = DirectionConfig {
            rate_bps: 8_000_000,
            delay: SimDuration::from_millis(5),
            queue_packets: queue,
            host_queue: true,
            framing_bytes: 0,
            per_frame: SimDuration::ZERO,
            exposure: Exposure::Frame,
            error: ErrorModelConfig::None,
            hiccups: Vec::new(),
            delivery: None,
            blocks: None,
            cw_mark: None,
            aqm: None,
            phy: None,
            wlan: None,
        };
        let node = |name: &str| NodeConfig {
            name: name.to_string(),
            kind: NodeKind::Host,
            jitter,
        };
        let chain = ChainConfig {
            nodes: vec![node("a"), node("b")],
            hops: vec![HopConfig {
                name: "l".to_string(),
                role: HopRole::Wired,
                medium: Medium::FullDuplex,
                forward: dir.clone(),
                reverse: dir,
            }],
        };
        Network::new(&chain.topology(), 1).unwrap()
    }

    #[test]
    fn datagrams_arrive_after_their_airtime_and_delay_in_order_and_a_full_queue_drops() {
        let mut net = link(2);
        let ends = (NodeId(0), NodeId(1));
        // 1000 bytes at 8 Mb/s: 1 ms on the wire, then 5 ms of delay.
        let a = net.inject(SimTime::ZERO, ends, Some(seg(960)), 1000);
        let b = net.inject(SimTime::ZERO, ends, Some(seg(960)), 1000);
        let c = net.inject(SimTime::ZERO, ends, Some(seg(960)), 1000);
        let d = net.inject(SimTime::ZERO, ends, Some(seg(960)), 1000);
        // The first is on the wire at once, two wait, the fourth finds the queue full.
        assert!(a.queued && b.queued && c.queued && !d.queued);
        let mut out = Vec::new();
        net.advance(SimTime(5_999_999), &mut out);
        assert!(out.is_empty());
        assert_eq!(net.next_event_at(), Some(SimTime(6_000_000)));
        net.advance(SimTime(20_000_000), &mut out);
        let got: Vec<(u64, u64)> = out.iter().map(|(t, p)| (t.0, p.uid)).collect();
        assert_eq!(
            got,
            [(6_000_000, a.uid), (7_000_000, b.uid), (8_000_000, c.uid)]
        );
        assert_eq!(out[0].1.ip_len(), 1000);
    }

    /// Packet script of node jitter (crate::jitter) with explicit times: both ends jitter by
    /// up to 1 ms; four 1000-byte datagrams are handed over at 0, 0, 3 and 3 ms on an 8 Mb/s,
    /// 5 ms link. Each waits its draw from `node0/jitter` (and never leaves before the one
    /// handed over before it), then 1 ms on the wire (behind the one ahead) and 5 ms of delay.
    #[test]
    fn jittered_datagrams_wait_their_draw_in_order() {
        let mut net = link_with(10, SimDuration::from_millis(1));
        let ends = (NodeId(0), NodeId(1));
        let at = [0u64, 0, 3_000_000, 3_000_000];
        let mut out = Vec::new();
        let mut uids = Vec::new();
        for &t in &at {
            net.advance(SimTime(t), &mut out);
            uids.push(net.inject(SimTime(t), ends, Some(seg(960)), 1000).uid);
        }
        net.advance(SimTime(50_000_000), &mut out);
        // The same draws, replayed: release = max(t + U, previous release); the link sends one
        // at a time.
        let mut rng = engine::RngStream::new(1, &crate::keys::node_jitter(0));
        let (mut release, mut free) = (0u64, 0u64);
        let mut want = Vec::new();
        for (&t, &uid) in at.iter().zip(&uids) {
            release = (t + rng.below(1_000_001)).max(release);
            let start = release.max(free);
            free = start + 1_000_000;
            want.push((free + 5_000_000, uid));
        }
        let got: Vec<(u64, u64)> = out.iter().map(|(t, p)| (t.0, p.uid)).collect();
        assert_eq!(got, want);
        for (k, &(t, _)) in got.iter().enumerate() {
            assert!(t >= at[k] + 6_000_000 && t <= at[k] + 9_000_000, "{got:?}");
        }
        // Without jitter: 6, 7, 9, 10 ms exactly.
        let mut net = link(10);
        let mut out = Vec::new();
        for &t in &at {
            net.advance(SimTime(t), &mut out);
            net.inject(SimTime(t), ends, Some(seg(960)), 1000);
        }
        net.advance(SimTime(50_000_000), &mut out);
        let got: Vec<u64> = out.iter().map(|(t, _)| t.0).collect();
        assert_eq!(got, [6_000_000, 7_000_000, 9_000_000, 10_000_000]);
    }
}
