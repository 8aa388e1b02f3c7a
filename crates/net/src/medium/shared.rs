//! A shared channel: one frame on the air at a time among its ports, served in turn
//! (Balakrishnan97 §3.1: WaveLAN is a "shared-medium wireless LAN", data and ACK frames take
//! turns). Before each frame the medium waits a fixed or a uniformly drawn number of slots
//! (`Contention`), from its own random stream. One port: a direction of a full-duplex link; two:
//! a half-duplex hop; the ports of several links: a cell without collisions.
//!
//! Airtime of a frame = access wait + per-frame fixed time + (framing + IP bytes)·8 / rate; the
//! port computes all but the wait.

use super::{Air, Medium};
use engine::{PortId, RngStream, SimDuration, SimTime};

/// How stations share a half-duplex medium before each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contention {
    /// A fixed wait per frame (the mean backoff).
    Fixed(SimDuration),
    /// A uniformly drawn number of slots in `0..=cw` per frame.
    Uniform {
        /// Slot time.
        slot: SimDuration,
        /// Contention window in slots.
        cw: u32,
    },
}

/// The one wake-up tag of a shared channel: the frame on the air has been sent.
const TX_END: u32 = 0;

/// What the channel is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Nothing on the air.
    Idle,
    /// A frame of `port` is on the air.
    Busy { port: PortId },
}

/// A shared channel.
pub(crate) struct Shared {
    ports: Vec<PortId>,
    contention: Option<(Contention, RngStream)>,
    state: State,
    /// Index into `ports` of the port to serve first next time (round robin).
    next: usize,
}

impl Shared {
    /// A channel for `ports`, with an access wait drawn from `rng` if `contention` is given.
    pub(crate) fn new(ports: Vec<PortId>, contention: Option<(Contention, RngStream)>) -> Self {
        Shared {
            ports,
            contention,
            state: State::Idle,
            next: 0,
        }
    }

    /// Add a port (the links of a cell join one after the other).
    pub(crate) fn add_port(&mut self, port: PortId) {
        self.ports.push(port);
    }

    /// The access wait before the next frame.
    fn wait(&mut self) -> SimDuration {
        match &mut self.contention {
            None => SimDuration::ZERO,
            Some((Contention::Fixed(d), _)) => *d,
            Some((Contention::Uniform { slot, cw }, rng)) => {
                slot.saturating_mul(rng.below(u64::from(*cw) + 1))
            }
        }
    }
}

impl<A: Air> Medium<A> for Shared {
    #[inline(always)]
    fn on_ready(&mut self, now: SimTime, _port: PortId, air: &mut A) {
        if self.state != State::Idle {
            return;
        }
        let n = self.ports.len();
        if n == 1 {
            // One direction of a full-duplex link: no turns to take.
            let port = self.ports[0];
            if let Some(frame) = air.take(now, port) {
                let wait = self.wait();
                let airtime = air.transmit(now, port, frame, wait);
                self.state = State::Busy { port };
                air.wake(now + airtime, TX_END);
            }
            return;
        }
        for k in 0..n {
            // (next + k) mod n, without a division: next < n and k < n.
            let mut idx = self.next + k;
            if idx >= n {
                idx -= n;
            }
            let port = self.ports[idx];
            let Some(frame) = air.take(now, port) else {
                continue;
            };
            let wait = self.wait();
            let airtime = air.transmit(now, port, frame, wait);
            self.state = State::Busy { port };
            self.next = if idx + 1 == n { 0 } else { idx + 1 };
            air.wake(now + airtime, TX_END);
            return;
        }
    }

    #[inline(always)]
    fn on_wake(&mut self, now: SimTime, _tag: u32, air: &mut A) {
        if let State::Busy { port } = std::mem::replace(&mut self.state, State::Idle) {
            air.sent(now, port);
        }
        // Any port: the shared medium serves its ports in turn whichever reported.
        self.on_ready(now, self.ports[0], air);
    }
}

impl Shared {
    /// Whether a frame is on the air (the network then need not offer it frames).
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        self.state != State::Idle
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::{Frame, FramingAir, MacAir};
    use super::*;

    /// A fake network: ports with a number of frames waiting, a fixed airtime, and a log.
    pub(crate) struct FakeAir {
        pub(crate) waiting: Vec<u32>,
        pub(crate) log: Vec<String>,
        /// IP bytes of every packet (framing media, crate::medium::gsm), and the sequence
        /// number the next one carries.
        pub(crate) ip_len: u32,
        next_seq: u32,
        /// Every attempt is corrupted (MAC tests).
        pub(crate) corrupt: bool,
        /// Attempts on these ports are corrupted (a station in a bad channel).
        pub(crate) bad_ports: Vec<PortId>,
        /// These attempts (numbered from 1 over the whole cell) are corrupted.
        pub(crate) bad_attempts: Vec<u32>,
        attempts: u32,
        /// Wake-ups asked for, in order (MAC tests drive them).
        pub(crate) wakes: Vec<(SimTime, u32)>,
        /// Packets (numbered from 1 in take order) that are 200-byte UDP datagrams of flow 1
        /// (the flow-adaptive GSM tests); the others are 512-byte TCP segments of flow 0.
        pub(crate) udp: Vec<u32>,
        /// Packets (numbered as `udp`) that are 100-byte TCP segments of flow 2 (an
        /// interactive connection beside the bulk one).
        pub(crate) interactive: Vec<u32>,
        taken: u32,
        /// Attempts on these ports take 10 ms instead of 1 ms (a slow PHY rate).
        pub(crate) slow_ports: Vec<PortId>,
        /// Frames delivered: when, by which port, and their place in take order.
        pub(crate) delivered: Vec<(SimTime, PortId, u32)>,
        /// These MAC ACKs / Block Acks (numbered from 1 over the cell) are lost.
        pub(crate) lost_acks: Vec<u32>,
        acks: u32,
        /// These control frames (BlockAckReqs, numbered from 1) are corrupted.
        pub(crate) lost_controls: Vec<u32>,
        controls: u32,
        /// Frames the MAC dropped: when, by which port, their place in take order.
        pub(crate) dropped: Vec<(SimTime, PortId, u32)>,
        /// MPDUs of these packets (place in take order) are corrupted when they start before
        /// the time (a station in a long fade).
        pub(crate) bad_ids_until: (Vec<u32>, SimTime),
    }

    impl FakeAir {
        /// Ports with `waiting[i]` frames each.
        pub(crate) fn new(waiting: Vec<u32>) -> Self {
            FakeAir {
                waiting,
                log: Vec::new(),
                ip_len: 512,
                next_seq: 0,
                corrupt: false,
                bad_ports: Vec::new(),
                bad_attempts: Vec::new(),
                attempts: 0,
                wakes: Vec::new(),
                udp: Vec::new(),
                interactive: Vec::new(),
                taken: 0,
                slow_ports: Vec::new(),
                delivered: Vec::new(),
                lost_acks: Vec::new(),
                acks: 0,
                lost_controls: Vec::new(),
                controls: 0,
                dropped: Vec::new(),
                bad_ids_until: (Vec::new(), SimTime::ZERO),
            }
        }
    }

    impl Air for FakeAir {
        fn take(&mut self, _now: SimTime, port: PortId) -> Option<Frame> {
            let w = &mut self.waiting[port.index()];
            if *w == 0 {
                return None;
            }
            *w -= 1;
            self.taken += 1;
            // Each packet's sequence number follows the last one's payload.
            self.next_seq = self.next_seq.wrapping_add(self.ip_len - 52);
            // The frame names its place in take order (1, 2, ...): the A-MPDU tests follow
            // each MPDU by it.
            Some(Frame(crate::packet::PacketRef::from_parts(
                self.taken,
                crate::packet::PacketKind::Data,
            )))
        }
        fn transmit(
            &mut self,
            now: SimTime,
            port: PortId,
            _frame: Frame,
            wait: SimDuration,
        ) -> SimDuration {
            self.log.push(format!(
                "{} tx {port} wait {}",
                now.as_nanos(),
                wait.as_nanos()
            ));
            wait + SimDuration(100)
        }
        fn wake(&mut self, at: SimTime, tag: u32) {
            self.log.push(format!("wake {} tag {tag}", at.as_nanos()));
            self.wakes.push((at, tag));
        }
        fn sent(&mut self, now: SimTime, port: PortId) {
            self.log.push(format!("{} sent {port}", now.as_nanos()));
        }
    }

    impl MacAir for FakeAir {
        fn attempt(&mut self, now: SimTime, port: PortId, _f: &Frame) -> (SimDuration, bool) {
            self.log.push(format!("{} try {port}", now.as_nanos()));
            self.attempts += 1;
            let slow = if self.slow_ports.contains(&port) {
                10
            } else {
                1
            };
            (
                SimDuration::from_micros(1000 * slow),
                self.corrupt
                    || self.bad_ports.contains(&port)
                    || self.bad_attempts.contains(&self.attempts),
            )
        }
        fn ack_lost(&mut self, now: SimTime, port: PortId, _bits: u64) -> bool {
            self.acks += 1;
            let lost = self.lost_acks.contains(&self.acks);
            if lost {
                self.log.push(format!("{} ack lost {port}", now.as_nanos()));
            }
            lost
        }
        fn control_lost(
            &mut self,
            now: SimTime,
            port: PortId,
            _bits: u64,
            _mode: crate::medium::dcf::phy::Mode,
        ) -> bool {
            self.controls += 1;
            let lost = self.lost_controls.contains(&self.controls);
            self.log.push(format!(
                "{} bar {port}{}",
                now.as_nanos(),
                if lost { " lost" } else { "" }
            ));
            lost
        }
        fn deliver(&mut self, now: SimTime, port: PortId, f: Frame) {
            self.log.push(format!("{} deliver {port}", now.as_nanos()));
            self.delivered.push((now, port, f.0.into_parts().0));
        }
        fn discard(&mut self, now: SimTime, port: PortId, f: Frame) {
            self.log.push(format!("{} drop {port}", now.as_nanos()));
            self.dropped.push((now, port, f.0.into_parts().0));
        }
        fn lose(&mut self, now: SimTime, port: PortId, _f: Frame) {
            self.log.push(format!("{} lose {port}", now.as_nanos()));
        }
        fn first_retry(&mut self, now: SimTime, port: PortId, _f: &Frame) {
            self.log.push(format!("{} resend1 {port}", now.as_nanos()));
        }
        fn header_up(&mut self, end: SimTime, port: PortId, _f: &Frame) {
            self.log.push(format!("{} header {port}", end.as_nanos()));
        }
        fn mpdu_bytes(&self, _port: PortId, _f: &Frame) -> u64 {
            u64::from(self.ip_len)
        }
        fn attempt_mpdu(
            &mut self,
            (start, on_air): (SimTime, SimDuration),
            port: PortId,
            f: &Frame,
            _first_retry: (bool, bool),
        ) -> bool {
            self.attempts += 1;
            let (id, _) = f.0.into_parts();
            self.log.push(format!(
                "{} mpdu {port} #{id} {}",
                start.as_nanos(),
                on_air.as_nanos()
            ));
            self.corrupt
                || self.bad_ports.contains(&port)
                || self.bad_attempts.contains(&self.attempts)
                || (self.bad_ids_until.0.contains(&id) && start < self.bad_ids_until.1)
        }
    }

    impl FramingAir for FakeAir {
        fn frame_info(&self, _f: &Frame) -> super::super::FrameInfo {
            if self.interactive.contains(&self.taken) {
                return super::super::FrameInfo {
                    ip_len: 100,
                    flow: engine::FlowId(2),
                    tcp: true,
                    seq: 0,
                    len: 48,
                    ack: 0,
                    options: 12,
                };
            }
            if self.udp.contains(&self.taken) {
                return super::super::FrameInfo {
                    ip_len: 200,
                    flow: engine::FlowId(1),
                    tcp: false,
                    seq: 0,
                    len: 172,
                    ack: 0,
                    options: 0,
                };
            }
            super::super::FrameInfo {
                ip_len: self.ip_len,
                flow: engine::FlowId(0),
                tcp: true,
                seq: self.next_seq,
                len: self.ip_len - 52,
                ack: 0,
                options: 12,
            }
        }
        fn hand_over(
            &mut self,
            now: SimTime,
            port: PortId,
            _f: Frame,
            wire_bytes: u64,
            arrival: super::super::Arrival,
        ) {
            let how = if arrival == super::super::Arrival::Intact {
                "ok"
            } else {
                "bad"
            };
            self.log
                .push(format!("{} over {port} {wire_bytes} {how}", now.as_nanos()));
        }
    }

    #[test]
    fn ports_take_turns_and_one_frame_is_on_the_air() {
        let mut m = Shared::new(
            vec![PortId(0), PortId(1)],
            Some((Contention::Fixed(SimDuration(10)), RngStream::new(1, "t"))),
        );
        let mut air = FakeAir::new(vec![2, 1]);
        m.on_ready(SimTime(0), PortId(0), &mut air);
        assert!(m.is_busy());
        // A second offer while busy does nothing.
        m.on_ready(SimTime(5), PortId(0), &mut air);
        m.on_wake(SimTime(110), TX_END, &mut air);
        m.on_wake(SimTime(220), TX_END, &mut air);
        m.on_wake(SimTime(330), TX_END, &mut air);
        assert!(!m.is_busy());
        assert_eq!(
            air.log,
            [
                "0 tx port0 wait 10",
                "wake 110 tag 0",
                "110 sent port0",
                "110 tx port1 wait 10",
                "wake 220 tag 0",
                "220 sent port1",
                "220 tx port0 wait 10",
                "wake 330 tag 0",
                "330 sent port0",
            ]
        );
    }

    #[test]
    fn uniform_waits_are_whole_slots_within_the_window() {
        let mut m = Shared::new(
            vec![PortId(0)],
            Some((
                Contention::Uniform {
                    slot: SimDuration(20),
                    cw: 31,
                },
                RngStream::new(3, "t"),
            )),
        );
        for _ in 0..200 {
            let w = m.wait().as_nanos();
            assert_eq!(w % 20, 0);
            assert!(w <= 31 * 20);
        }
    }
}
