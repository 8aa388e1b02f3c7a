//! The real-time engine: datagrams read from the hosts' TUN devices (the two ends, and a split
//! scheme's base station) enter the scenario's network (`net::Network::inject`) at the clock's
//! `now`, from the reading host's node to the node of their IPv4 destination; the network's
//! events run as the clock passes their times (`Network::advance`), and each datagram that
//! arrives is written to the device of its destination. The lateness of each release against
//! the model's arrival time is the timing error the results report. The models never read the
//! clock: this loop hands them every `now` (DESIGN.md, house rule 1).
//!
//! A base-station agent (LL, snoop) may resend a segment it cached: the network hands back a
//! new packet carrying its original's payload key (`Proto::Emulated::payload`), and the relay
//! writes the original bytes again. Payloads stay in their slot until a newer datagram needs it.

use crate::capture::{DirCapture, HopCaptures};
use crate::clock::Clock;
use crate::sys::{Scheduling, Tun};
use crate::wire::parse_tcp;
use engine::{NodeId, SimTime};
use net::{Network, Packet, Proto};
use nix::poll::{ppoll, PollFd, PollFlags};
use nix::sys::time::TimeSpec;
use std::io;
use std::net::Ipv4Addr;
use std::os::fd::AsFd;
use std::time::Duration;

/// Payloads, by payload key (the uid a datagram entered with) modulo the size. A slot is
/// reused only after this many newer datagrams, far more than the queues, wires and agent
/// caches of a scenario hold.
const STORE_SLOTS: usize = 1 << 16;
/// Largest datagram read (the devices' MTU is below it).
const MAX_DATAGRAM: usize = 65_536;
/// Most datagrams read from one device before the relay looks at the clock's due releases
/// again (besides the releases that fall due between two reads).
const READ_BATCH: usize = 32;
/// Longest sleep between two checks of the stop condition.
const MAX_SLEEP: Duration = Duration::from_millis(20);
/// Wake-ups closer than this are waited for by polling without sleeping (timer wake-up
/// latency is tens of microseconds).
const SPIN: u64 = 30_000;
/// The relay thread's real-time priority (`SCHED_FIFO`, 1-99): above every ordinary thread
/// (the hosts' programs, builds beside the emulator), below the kernel's own real-time
/// threads (migration, watchdogs at 99).
pub const RELAY_PRIORITY: i32 = 50;

/// Counters of the relay.
#[derive(Clone, Debug, Default)]
pub struct RelayStats {
    /// Datagrams read, per direction (forward: toward the server, along the path from the
    /// client; reverse: toward the client).
    pub read: [u64; 2],
    /// Datagrams written out, per direction.
    pub released: [u64; 2],
    /// Bytes written out, per direction.
    pub released_bytes: [u64; 2],
    /// Datagrams the first queue dropped at once.
    pub dropped_at_entry: u64,
    /// Datagrams read whose destination is no host of the emulation (not forwarded).
    pub unroutable: u64,
    /// Datagrams whose payload slot was reused before they arrived (0 unless a hold kept more
    /// than `STORE_SLOTS` datagrams).
    pub evicted: u64,
    /// Lateness of each release against the model's arrival time, in nanoseconds: the clock
    /// as the datagram's write to its host begins (the receiving stack's work inside the
    /// write is the host's, after the arrival).
    pub lateness_ns: Vec<u64>,
    /// Whether the relay thread ran under real-time scheduling (`SCHED_FIFO`).
    pub realtime: bool,
    /// CPU seconds of the relay's thread (user + system: the reads, the model, the writes and
    /// the part of the receiving stacks that runs inside each write).
    pub cpu_s: f64,
}

/// CPU seconds of the calling thread.
fn thread_cpu_seconds() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    getrusage(UsageWho::RUSAGE_THREAD)
        .map(|u| {
            let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
            t(u.user_time()) + t(u.system_time())
        })
        .unwrap_or(0.0)
}

/// One host of the emulation as the relay sees it: its device, its node in the network and its
/// address.
pub struct Endpoint {
    /// The TUN device of its namespace.
    pub tun: Tun,
    /// Its node.
    pub node: NodeId,
    /// Its IPv4 address.
    pub addr: Ipv4Addr,
}

/// The hosts and the network between them.
pub struct Relay {
    net: Network,
    /// The hosts in path order: the client first, the server last (a base station between).
    hosts: Vec<Endpoint>,
    store: Vec<(u64, Vec<u8>)>,
    out: Vec<(SimTime, Packet)>,
    buf: Vec<u8>,
    /// Captures of each direction, as released (forward, reverse).
    captures: [Option<DirCapture>; 2],
    /// Captures of each hop direction, at the start of each transmission.
    hops: Option<HopCaptures>,
    /// Counters.
    pub stats: RelayStats,
}

impl Relay {
    /// A relay between `hosts` (in path order, client first, server last) through `net`.
    pub fn new(net: Network, hosts: Vec<Endpoint>) -> Self {
        Relay {
            net,
            hosts,
            store: vec![(u64::MAX, Vec::new()); STORE_SLOTS],
            out: Vec::new(),
            buf: vec![0; MAX_DATAGRAM],
            captures: [None, None],
            hops: None,
            stats: RelayStats::default(),
        }
    }

    /// Record every hop direction's frames as their transmissions start (the network's frame
    /// tap, as a simulated run's captures).
    pub fn capture_hops(&mut self, hops: HopCaptures) {
        self.net.enable_frame_tap();
        self.hops = Some(hops);
    }

    /// The hop captures, taken out.
    pub fn take_hop_captures(&mut self) -> Option<HopCaptures> {
        self.hops.take()
    }

    /// Index of the host of `node`.
    fn host_of(&self, node: NodeId) -> Option<usize> {
        self.hosts.iter().position(|h| h.node == node)
    }

    /// The payload key of an emulated packet.
    fn key(pkt: &Packet) -> u64 {
        match pkt.proto {
            Proto::Emulated { payload, .. } => payload,
            _ => pkt.uid,
        }
    }

    /// Write the frames the network's tap recorded since the last call.
    fn write_hop_frames(&mut self) -> io::Result<()> {
        let Some(h) = self.hops.as_mut() else {
            return Ok(());
        };
        for f in self.net.take_tapped_frames() {
            let key = Self::key(&f.pkt);
            let slot = &self.store[(key % STORE_SLOTS as u64) as usize];
            if slot.0 == key {
                h.record(&f, &slot.1)?;
            }
        }
        Ok(())
    }

    /// Record each direction's released datagrams.
    pub fn capture(&mut self, captures: [DirCapture; 2]) {
        let [a, b] = captures;
        self.captures = [Some(a), Some(b)];
    }

    /// The network (its ports' counters).
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The captures, taken out.
    pub fn take_captures(&mut self) -> [Option<DirCapture>; 2] {
        [self.captures[0].take(), self.captures[1].take()]
    }

    /// Relay until `stop` says so (asked between wake-ups, at least every 20 ms). With
    /// `realtime`, the thread runs under `SCHED_FIFO` at [`RELAY_PRIORITY`] for the run (its
    /// policy before is restored after): a busy machine then delays the releases by the
    /// kernel's wake-up latency, not by a share of the CPU; without the privilege
    /// (`CAP_SYS_NICE`) it runs as before and `stats.realtime` says so.
    pub fn run(
        &mut self,
        clock: &Clock,
        realtime: bool,
        mut stop: impl FnMut() -> bool,
    ) -> io::Result<()> {
        // Timers of this thread fire when due, not up to the default 50 us later.
        nix::sys::prctl::set_timerslack(1).map_err(io::Error::from)?;
        let before = Scheduling::current()?;
        self.stats.realtime =
            before.is_realtime() || (realtime && Scheduling::fifo(RELAY_PRIORITY).apply().is_ok());
        let cpu0 = thread_cpu_seconds();
        let mut r = Ok(());
        while r.is_ok() && !stop() {
            r = self.step(clock);
        }
        self.stats.cpu_s += thread_cpu_seconds() - cpu0;
        let restored = before.apply();
        r.and(restored)
    }

    fn step(&mut self, clock: &Clock) -> io::Result<()> {
        self.release_due(clock)?;
        self.read_some(clock)?;
        self.release_due(clock)?;
        self.write_hop_frames()?;
        self.wait(clock)
    }

    /// Run the events due by now and write out every datagram that arrived.
    fn release_due(&mut self, clock: &Clock) -> io::Result<()> {
        self.net.advance(clock.now(), &mut self.out);
        self.write_out(clock)
    }

    /// Write out the datagrams that arrived.
    fn write_out(&mut self, clock: &Clock) -> io::Result<()> {
        let mut out = std::mem::take(&mut self.out);
        for (at, pkt) in out.drain(..) {
            let key = Self::key(&pkt);
            let (Some(from), Some(to)) = (self.host_of(pkt.src), self.host_of(pkt.dst)) else {
                continue;
            };
            let slot = &self.store[(key % STORE_SLOTS as u64) as usize];
            if slot.0 != key {
                self.stats.evicted += 1;
                continue;
            }
            let dir = usize::from(from > to);
            let now = clock.now();
            self.hosts[to].tun.send(&slot.1)?;
            self.stats
                .lateness_ns
                .push(now.saturating_since(at).as_nanos());
            self.stats.released[dir] += 1;
            self.stats.released_bytes[dir] += slot.1.len() as u64;
            if let Some(c) = &mut self.captures[dir] {
                c.record(at, &slot.1)?;
            }
        }
        // The emptied vector keeps its capacity for the next releases.
        self.out = out;
        Ok(())
    }

    /// The host a datagram read from host `from` goes to: the one with its IPv4 destination
    /// address (with two hosts, anything not addressed to the reader goes to the other).
    fn destination(&self, from: usize, datagram: &[u8]) -> Option<usize> {
        let dst = (datagram.len() >= 20 && datagram[0] >> 4 == 4)
            .then(|| Ipv4Addr::new(datagram[16], datagram[17], datagram[18], datagram[19]));
        match dst.and_then(|a| self.hosts.iter().position(|h| h.addr == a)) {
            Some(to) if to != from => Some(to),
            Some(_) => None,
            None if self.hosts.len() == 2 => Some(1 - from),
            None => None,
        }
    }

    /// Read up to `READ_BATCH` waiting datagrams from each device into the network, releasing
    /// what falls due meanwhile.
    fn read_some(&mut self, clock: &Clock) -> io::Result<()> {
        for from in 0..self.hosts.len() {
            for _ in 0..READ_BATCH {
                let Some(n) = self.hosts[from].tun.recv(&mut self.buf)? else {
                    break;
                };
                let Some(to) = self.destination(from, &self.buf[..n]) else {
                    self.stats.unroutable += 1;
                    continue;
                };
                let dir = usize::from(from > to);
                self.stats.read[dir] += 1;
                let seg = parse_tcp(&self.buf[..n]);
                let ends = (self.hosts[from].node, self.hosts[to].node);
                let now = clock.now();
                // The network may have events due before the datagram came in.
                self.net.advance(now, &mut self.out);
                if !self.out.is_empty() {
                    self.write_out(clock)?;
                }
                let inj = self.net.inject(now, ends, seg, n as u32);
                if !inj.queued {
                    self.stats.dropped_at_entry += 1;
                    continue;
                }
                let slot = &mut self.store[(inj.uid % STORE_SLOTS as u64) as usize];
                slot.0 = inj.uid;
                slot.1.clear();
                slot.1.extend_from_slice(&self.buf[..n]);
            }
        }
        Ok(())
    }

    /// Sleep until the next event is due, a datagram comes in, or 20 ms pass.
    fn wait(&mut self, clock: &Clock) -> io::Result<()> {
        let now = clock.now();
        let until_next = self
            .net
            .next_event_at()
            .map(|t| t.saturating_since(now).as_nanos());
        let sleep = match until_next {
            Some(ns) if ns <= SPIN => Duration::ZERO,
            Some(ns) => Duration::from_nanos(ns - SPIN / 2).min(MAX_SLEEP),
            None => MAX_SLEEP,
        };
        let mut fds: Vec<PollFd> = self
            .hosts
            .iter()
            .map(|h| PollFd::new(h.tun.as_fd(), PollFlags::POLLIN))
            .collect();
        match ppoll(&mut fds, Some(TimeSpec::from_duration(sleep)), None) {
            Ok(_) | Err(nix::errno::Errno::EINTR) => Ok(()),
            Err(e) => Err(io::Error::from(e)),
        }
    }
}
