//! The real-time engine: datagrams read from the two TUN devices enter the scenario's network
//! (`net::Network::inject`) at the clock's `now`; the network's events run as the clock passes
//! their times (`Network::advance`), and each datagram that arrives is written to the device of
//! its destination. The lateness of each release against the model's arrival time is the
//! timing error the results report. The models never read the clock: this loop hands them
//! every `now` (DESIGN.md, house rule 1).

use crate::capture::DirCapture;
use crate::clock::Clock;
use crate::sys::Tun;
use crate::wire::parse_tcp;
use engine::{NodeId, SimTime};
use net::{Network, Packet};
use nix::poll::{ppoll, PollFd, PollFlags};
use nix::sys::time::TimeSpec;
use std::io;
use std::os::fd::AsFd;
use std::time::Duration;
use tcp::{SackBlocks, SegOptions, Segment, SeqNum};

/// Payloads held while their packet is in the network, by uid modulo the size. Packets the
/// model drops leave their slot to be overwritten: a slot is reused only after this many newer
/// datagrams, far more than the queues and wires of a scenario hold.
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

/// The segment a datagram that is not IPv4 TCP crosses the links as (an ACK for the counters).
const NOT_TCP: Segment = Segment {
    seq: SeqNum(0),
    ack: SeqNum(0),
    len: 0,
    wnd: 0,
    ack_flag: false,
    opts: SegOptions {
        ts: None,
        sack: SackBlocks::EMPTY,
        smart: None,
        eln: false,
        cc: None,
        syn: None,
        nack: None,
        cw: false,
    },
};

/// Counters of the relay.
#[derive(Clone, Debug, Default)]
pub struct RelayStats {
    /// Datagrams read, per direction (client to server, server to client).
    pub read: [u64; 2],
    /// Datagrams written out, per direction.
    pub released: [u64; 2],
    /// Bytes written out, per direction.
    pub released_bytes: [u64; 2],
    /// Datagrams the first queue dropped at once.
    pub dropped_at_entry: u64,
    /// Datagrams whose payload slot was reused before they arrived (0 unless a hold kept more
    /// than `STORE_SLOTS` datagrams).
    pub evicted: u64,
    /// Lateness of each release against the model's arrival time, in nanoseconds.
    pub lateness_ns: Vec<u64>,
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

/// The two ends and the network between them.
pub struct Relay {
    net: Network,
    /// `tuns[0]`: the client's device, `tuns[1]`: the server's.
    tuns: [Tun; 2],
    /// The network nodes of the client and the server.
    nodes: [NodeId; 2],
    store: Vec<(u64, Vec<u8>)>,
    out: Vec<(SimTime, Packet)>,
    buf: Vec<u8>,
    /// Captures of each direction, as released (client to server, server to client).
    captures: [Option<DirCapture>; 2],
    /// Counters.
    pub stats: RelayStats,
}

impl Relay {
    /// A relay between the `client` and `server` devices through `net`, where they are the
    /// nodes `nodes` (client, server).
    pub fn new(net: Network, (client, server): (Tun, Tun), nodes: [NodeId; 2]) -> Self {
        Relay {
            net,
            tuns: [client, server],
            nodes,
            store: vec![(u64::MAX, Vec::new()); STORE_SLOTS],
            out: Vec::new(),
            buf: vec![0; MAX_DATAGRAM],
            captures: [None, None],
            stats: RelayStats::default(),
        }
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

    /// Relay until `stop` says so (asked between wake-ups, at least every 20 ms).
    pub fn run(&mut self, clock: &Clock, mut stop: impl FnMut() -> bool) -> io::Result<()> {
        // Timers of this thread fire when due, not up to the default 50 us later.
        nix::sys::prctl::set_timerslack(1).map_err(io::Error::from)?;
        let cpu0 = thread_cpu_seconds();
        let mut r = Ok(());
        while r.is_ok() && !stop() {
            r = self.step(clock);
        }
        self.stats.cpu_s += thread_cpu_seconds() - cpu0;
        r
    }

    fn step(&mut self, clock: &Clock) -> io::Result<()> {
        self.release_due(clock)?;
        self.read_some(clock)?;
        self.release_due(clock)?;
        self.wait(clock)
    }

    /// Run the events due by now and write out every datagram that arrived.
    fn release_due(&mut self, clock: &Clock) -> io::Result<()> {
        self.net.advance(clock.now(), &mut self.out);
        self.write_out(clock)
    }

    /// Write out the datagrams that arrived.
    fn write_out(&mut self, clock: &Clock) -> io::Result<()> {
        for (at, pkt) in self.out.drain(..) {
            let slot = &mut self.store[(pkt.uid % STORE_SLOTS as u64) as usize];
            if slot.0 != pkt.uid {
                self.stats.evicted += 1;
                continue;
            }
            let dir = usize::from(pkt.dst != self.nodes[1]);
            self.tuns[1 - dir].send(&slot.1)?;
            let now = clock.now();
            self.stats
                .lateness_ns
                .push(now.saturating_since(at).as_nanos());
            self.stats.released[dir] += 1;
            self.stats.released_bytes[dir] += slot.1.len() as u64;
            if let Some(c) = &mut self.captures[dir] {
                c.record(at, &slot.1)?;
            }
            slot.0 = u64::MAX;
        }
        Ok(())
    }

    /// Read up to `READ_BATCH` waiting datagrams from each device into the network, releasing
    /// what falls due meanwhile.
    fn read_some(&mut self, clock: &Clock) -> io::Result<()> {
        for dir in 0..2 {
            for _ in 0..READ_BATCH {
                let Some(n) = self.tuns[dir].recv(&mut self.buf)? else {
                    break;
                };
                self.stats.read[dir] += 1;
                let seg = parse_tcp(&self.buf[..n]).unwrap_or(NOT_TCP);
                let ends = (self.nodes[dir], self.nodes[1 - dir]);
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
        let mut fds = [
            PollFd::new(self.tuns[0].as_fd(), PollFlags::POLLIN),
            PollFd::new(self.tuns[1].as_fd(), PollFlags::POLLIN),
        ];
        match ppoll(&mut fds, Some(TimeSpec::from_duration(sleep)), None) {
            Ok(_) | Err(nix::errno::Errno::EINTR) => Ok(()),
            Err(e) => Err(io::Error::from(e)),
        }
    }
}
