//! A two-host path for packet scripts of today's anchors (PRR, RACK-TLP, F-RTO, BBR): a real
//! [`Sender`] and [`Receiver`] joined by a forward bottleneck (a serialisation time per byte, a
//! drop-tail queue, a propagation delay) and a reverse path with a fixed delay. The script
//! decides which transmissions are lost and may delay ACKs; everything happens at explicit
//! times, in a total order (time, then scheduling order), and is logged.

use crate::{Receiver, Segment, Sender, SenderEvent, SeqSpace};
use engine::{SimDuration, SimTime, VecSink};
use std::collections::{BTreeMap, VecDeque};

/// What happened, with its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Log {
    /// The sender sent `[off, off + len)`; `rexmit` if any of it was sent before.
    Sent { off: u64, len: u32, rexmit: bool },
    /// The transmission of `off` was lost: dropped by the script after its turn on the
    /// bottleneck (a corrupted frame), or by the full queue.
    Lost { off: u64 },
    /// An ACK reached the sender.
    Ack { ack: u64 },
}

enum Ev {
    Data(Segment),
    /// A data segment arriving with a corrupted payload (its header intact).
    Corrupt(Segment),
    Ack(Segment),
    SenderTimer,
    ReceiverTimer,
}

/// Which transmissions to lose: the data segment at stream offset `off`, sent at `now` for the
/// `n`-th time (1 for the original).
pub(crate) type DropRule = Box<dyn FnMut(SimTime, u64, u32) -> bool>;

/// A way of asking the sender for its next segment.
pub(crate) type Poll = fn(&mut Sender, SimTime, &mut VecSink<SenderEvent>) -> Option<Segment>;

/// The path and its two endpoints.
pub(crate) struct Path {
    pub sender: Sender,
    pub receiver: Receiver,
    space: SeqSpace,
    /// Serialisation time per byte of the bottleneck, in picoseconds (0: no bottleneck).
    pub ps_per_byte: u64,
    /// Header bytes added to each segment on the bottleneck.
    pub overhead: u32,
    /// Forward propagation delay (after serialisation).
    pub fwd_delay: SimDuration,
    /// Reverse delay of every ACK.
    pub rev_delay: SimDuration,
    /// Packets the bottleneck queue holds beyond the one being sent.
    pub queue_limit: usize,
    /// Extra delay of ACKs sent in `[from, to)` (a delay spike of the reverse path).
    pub ack_hold: Option<(SimTime, SimTime)>,
    /// The window the ACKs advertise, as a receiver with window scaling (RFC 7323) would,
    /// in place of the receiver's 16-bit one.
    pub ack_window: Option<u32>,
    pub drop: DropRule,
    /// Which ECN-capable data transmissions (by offset and time sent) a router marks CE.
    pub ce: Box<dyn FnMut(SimTime, u64) -> bool>,
    /// Which of the segments the drop rule loses (by offset) still arrive, corrupted: the
    /// receiver is told ([`Receiver::on_corrupted`]) as the network's ELN oracle does.
    pub corrupt: Box<dyn FnMut(u64) -> bool>,
    /// Which of the corrupted segments (by offset) had their header hit: a receiver that
    /// identifies by the header (TCP-ELN's HACK identification) is then not told, as the
    /// network does not tell it.
    pub header_hit: Box<dyn FnMut(u64) -> bool>,
    pub log: Vec<(SimTime, Log)>,
    pub trace: VecSink<SenderEvent>,
    /// How the path asks the sender for a segment ([`Sender::poll_transmit`]).
    pub poll: Poll,
    sends: BTreeMap<u64, u32>,
    departures: VecDeque<SimTime>,
    events: BTreeMap<(SimTime, u64), Ev>,
    order: u64,
    sender_wake: Option<SimTime>,
    receiver_wake: Option<SimTime>,
    pub now: SimTime,
}

impl Path {
    /// A path with no bottleneck, `one_way` delay in each direction and nothing lost.
    pub(crate) fn new(
        sender: Sender,
        receiver: Receiver,
        space: SeqSpace,
        one_way: SimDuration,
    ) -> Self {
        Path {
            sender,
            receiver,
            space,
            ps_per_byte: 0,
            overhead: 0,
            fwd_delay: one_way,
            rev_delay: one_way,
            queue_limit: usize::MAX,
            ack_hold: None,
            ack_window: None,
            drop: Box::new(|_, _, _| false),
            ce: Box::new(|_, _| false),
            corrupt: Box::new(|_| false),
            header_hit: Box::new(|_| false),
            log: Vec::new(),
            trace: VecSink::default(),
            poll: |s, now, t| s.poll_transmit(now, t),
            sends: BTreeMap::new(),
            departures: VecDeque::new(),
            events: BTreeMap::new(),
            order: 0,
            sender_wake: None,
            receiver_wake: None,
            now: SimTime::ZERO,
        }
    }

    fn schedule(&mut self, at: SimTime, ev: Ev) {
        self.order += 1;
        self.events.insert((at, self.order), ev);
    }

    fn pump_sender(&mut self) {
        let now = self.now;
        while let Some(seg) = (self.poll)(&mut self.sender, now, &mut self.trace) {
            let off = self.space.offset(seg.seq, self.sender.snd_una());
            let n = self.sends.entry(off).or_insert(0);
            *n += 1;
            let n = *n;
            self.log.push((
                now,
                Log::Sent {
                    off,
                    len: seg.len,
                    rexmit: n > 1,
                },
            ));
            while self.departures.front().is_some_and(|&d| d <= now) {
                self.departures.pop_front();
            }
            if self.departures.len() > self.queue_limit {
                // Drop-tail: the queue is full.
                self.log.push((now, Log::Lost { off }));
                continue;
            }
            let start = self.departures.back().copied().unwrap_or(now).max(now);
            let bytes = u64::from(seg.len + self.overhead);
            let done = start + SimDuration(bytes * self.ps_per_byte / 1000);
            if self.ps_per_byte > 0 {
                self.departures.push_back(done);
            }
            if (self.drop)(now, off, n) {
                // Lost on the way (corrupted): it took its turn on the bottleneck.
                self.log.push((now, Log::Lost { off }));
                if (self.corrupt)(off) {
                    self.schedule(done + self.fwd_delay, Ev::Corrupt(seg));
                }
                continue;
            }
            let mut seg = seg;
            if seg.opts.ecn.ect && (self.ce)(now, off) {
                seg.opts.ecn.ce = true;
            }
            self.schedule(done + self.fwd_delay, Ev::Data(seg));
        }
        if let Some(t) = self.sender.poll_timeout() {
            if self.sender_wake != Some(t) {
                self.sender_wake = Some(t);
                self.schedule(t.max(now), Ev::SenderTimer);
            }
        }
    }

    fn pump_receiver(&mut self) {
        let now = self.now;
        while let Some(mut ack) = self.receiver.poll_transmit(now) {
            if let Some(w) = self.ack_window {
                ack.wnd = w;
            }
            let extra = match self.ack_hold {
                Some((from, to)) if now >= from && now < to => to - now,
                _ => SimDuration(0),
            };
            self.schedule(now + self.rev_delay + extra, Ev::Ack(ack));
        }
        if let Some(t) = self.receiver.poll_timeout() {
            if self.receiver_wake != Some(t) {
                self.receiver_wake = Some(t);
                self.schedule(t.max(now), Ev::ReceiverTimer);
            }
        }
    }

    /// Send what the sender has at time zero, then run events until `until` or until nothing
    /// is left to do.
    pub(crate) fn run_until(&mut self, until: SimTime) {
        self.pump_sender();
        while let Some((&(at, k), _)) = self.events.first_key_value() {
            if at > until {
                break;
            }
            let ev = self.events.remove(&(at, k)).expect("present");
            self.now = at;
            match ev {
                Ev::Data(seg) => {
                    self.receiver.on_segment(at, &seg);
                    self.pump_receiver();
                }
                Ev::Corrupt(seg) => {
                    let off = self.space.offset(seg.seq, self.receiver.delivered());
                    let hit = self.receiver.identifies_by_header() && (self.header_hit)(off);
                    if !hit && self.receiver.on_corrupted(&seg) {
                        self.pump_receiver();
                    }
                }
                Ev::Ack(seg) => {
                    let ack = self.space.offset(seg.ack, self.sender.snd_una());
                    self.log.push((at, Log::Ack { ack }));
                    self.sender.on_ack(at, &seg, &mut self.trace);
                    self.pump_sender();
                }
                Ev::SenderTimer => {
                    if self.sender_wake == Some(at) {
                        self.sender_wake = None;
                    }
                    self.sender.on_timeout(at, &mut self.trace);
                    self.pump_sender();
                }
                Ev::ReceiverTimer => {
                    if self.receiver_wake == Some(at) {
                        self.receiver_wake = None;
                    }
                    self.receiver.on_timeout(at);
                    self.pump_receiver();
                }
            }
        }
    }

    /// The transmissions logged in `[from, to)`: (time, offset, retransmission).
    pub(crate) fn sent_between(&self, from: SimTime, to: SimTime) -> Vec<(SimTime, u64, bool)> {
        self.log
            .iter()
            .filter(|(t, _)| *t >= from && *t < to)
            .filter_map(|&(t, l)| match l {
                Log::Sent { off, rexmit, .. } => Some((t, off, rexmit)),
                _ => None,
            })
            .collect()
    }
}

impl Path {
    /// (ms, segment) of the retransmissions sent before `to` ms, for segments of `mss` bytes.
    pub(crate) fn resends_ms(&self, to: u64, mss: u64) -> Vec<(u64, u64)> {
        self.sent_between(SimTime::ZERO, SimTime(to * 1_000_000))
            .into_iter()
            .filter(|&(_, _, r)| r)
            .map(|(t, off, _)| (t.as_nanos() / 1_000_000, off / mss))
            .collect()
    }
}
