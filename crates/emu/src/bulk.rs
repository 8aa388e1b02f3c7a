//! The built-in bulk transfer with real sockets: a sink in the server's namespace, a client in
//! the client's namespace that connects with the chosen congestion control and sends a number of
//! bytes, and the goodput between the client's first write and the sink's last byte. Each end
//! is a thread that has entered its namespace (`setns` moves only the calling thread).

use crate::clock::Clock;
use crate::error::EmuError;
use crate::kernel::{self, KernelSender};
use crate::netns::Host;
use engine::SimTime;
use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags};
use nix::sched::{setns, CloneFlags};
use nix::sys::socket::{self, sockopt, AddressFamily, SockFlag, SockType, SockaddrIn};
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::net::{SocketAddrV4, TcpListener, TcpStream};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

/// The sink's port.
pub const PORT: u16 = 5001;
/// How often a blocked socket call looks at the stop flag.
const TICK: Duration = Duration::from_millis(100);

/// What the built-in transfer does.
#[derive(Clone, Debug)]
pub struct BulkSpec {
    /// Bytes the client sends.
    pub bytes: u64,
    /// The kernel congestion control (`TCP_CONGESTION`).
    pub cc: String,
    /// Socket buffers of both ends (`SO_SNDBUF`/`SO_RCVBUF`), if set; the kernel's
    /// autotuning otherwise.
    pub buffer: Option<u32>,
    /// The address the client connects to instead of the server's (a split proxy's).
    pub connect_to: Option<std::net::Ipv4Addr>,
}

/// What the transfer achieved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BulkOutcome {
    /// Bytes the sink received.
    pub bytes: u64,
    /// When the client started writing (after the handshake).
    pub start: SimTime,
    /// When the sink read the last byte (or the transfer stopped).
    pub end: SimTime,
    /// Whether every byte arrived.
    pub complete: bool,
    /// The kernel's account of the sender (`TCP_INFO` samples, the namespace's counters).
    pub kernel: KernelSender,
}

/// A running transfer: join it when `done` is set (or after stopping it).
pub struct Bulk {
    server: JoinHandle<Result<(u64, SimTime), EmuError>>,
    client: JoinHandle<Result<(SimTime, KernelSender), EmuError>>,
    bytes: u64,
}

/// Move the calling thread into `host`'s network namespace.
pub(crate) fn enter(host: &Host) -> Result<(), EmuError> {
    let f = std::fs::File::open(host.netns_path())
        .map_err(|e| EmuError::run("enter namespace", format!("{}: {e}", host.netns)))?;
    setns(&f, CloneFlags::CLONE_NEWNET)
        .map_err(|e| EmuError::run("enter namespace", format!("{}: {e}", host.netns)))
}

pub(crate) fn io_err(what: &'static str) -> impl Fn(io::Error) -> EmuError {
    move |e| EmuError::run(what, e)
}

impl Bulk {
    /// Start the sink in `server`'s namespace and then the client in `client`'s; `done` is set
    /// when the sink has every byte or either end failed; both ends give up once `stop` is set.
    pub fn start(
        clock: Clock,
        (client, server): (&Host, &Host),
        spec: &BulkSpec,
        done: Arc<AtomicBool>,
        stop: Arc<AtomicBool>,
    ) -> Result<Bulk, EmuError> {
        let (ready_tx, ready_rx) = mpsc::channel();
        let server_host = Host {
            netns: server.netns.clone(),
            addr: server.addr,
        };
        let (sdone, sstop) = (done.clone(), stop.clone());
        let buffer = spec.buffer;
        let server_thread = std::thread::spawn(move || {
            let r = sink(&server_host, buffer, &ready_tx, clock, &sstop);
            sdone.store(true, Ordering::SeqCst);
            r
        });
        match ready_rx.recv_timeout(Duration::from_secs(5)) {
            Ok(()) => {}
            Err(_) => {
                stop.store(true, Ordering::SeqCst);
                return match server_thread.join() {
                    Ok(Err(e)) => Err(e),
                    _ => Err(EmuError::run("sink", "did not start listening")),
                };
            }
        }
        let client_host = Host {
            netns: client.netns.clone(),
            addr: client.addr,
        };
        let to = SocketAddrV4::new(spec.connect_to.unwrap_or(server.addr), PORT);
        let spec2 = spec.clone();
        let client_thread = std::thread::spawn(move || {
            let r = source(&client_host, to, &spec2, clock, &stop);
            if r.is_err() {
                done.store(true, Ordering::SeqCst);
            }
            r
        });
        Ok(Bulk {
            server: server_thread,
            client: client_thread,
            bytes: spec.bytes,
        })
    }

    /// Wait for both ends.
    pub fn join(self) -> Result<BulkOutcome, EmuError> {
        let joined = |what| EmuError::run(what, "thread panicked");
        let client = self.client.join().map_err(|_| joined("client"))?;
        let server = self.server.join().map_err(|_| joined("sink"))?;
        let (start, kernel) = client?;
        let (bytes, end) = server?;
        Ok(BulkOutcome {
            bytes,
            start,
            end,
            complete: bytes == self.bytes,
            kernel,
        })
    }
}

/// The sink: accept one connection and read it to its end.
fn sink(
    host: &Host,
    buffer: Option<u32>,
    ready: &mpsc::Sender<()>,
    clock: Clock,
    stop: &AtomicBool,
) -> Result<(u64, SimTime), EmuError> {
    enter(host)?;
    let fd = socket::socket(
        AddressFamily::Inet,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )
    .map_err(|e| EmuError::run("sink", e))?;
    socket::setsockopt(&fd, sockopt::ReuseAddr, &true).map_err(|e| EmuError::run("sink", e))?;
    if let Some(b) = buffer {
        // Before listen, so the window scale of the connection follows it.
        socket::setsockopt(&fd, sockopt::RcvBuf, &(b as usize))
            .map_err(|e| EmuError::run("sink", e))?;
    }
    let addr = SockaddrIn::from(SocketAddrV4::new(host.addr, PORT));
    socket::bind(std::os::fd::AsRawFd::as_raw_fd(&fd), &addr)
        .map_err(|e| EmuError::run("sink bind", e))?;
    socket::listen(
        &fd,
        socket::Backlog::new(4).map_err(|e| EmuError::run("sink", e))?,
    )
    .map_err(|e| EmuError::run("sink listen", e))?;
    let listener = TcpListener::from(fd);
    listener.set_nonblocking(true).map_err(io_err("sink"))?;
    // The receiver of `ready` may have given up; the accept loop then ends on `stop`.
    let _ = ready.send(());
    let mut conn = loop {
        match listener.accept() {
            Ok((c, _)) => break c,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::SeqCst) {
                    return Ok((0, clock.now()));
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(EmuError::run("sink accept", e)),
        }
    };
    conn.set_nonblocking(false).map_err(io_err("sink"))?;
    conn.set_read_timeout(Some(TICK)).map_err(io_err("sink"))?;
    let mut buf = vec![0u8; 1 << 16];
    let mut got = 0u64;
    let mut end = clock.now();
    loop {
        match conn.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                got += n as u64;
                end = clock.now();
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(EmuError::run("sink read", e)),
        }
    }
    Ok((got, end))
}

/// connect(2) that gives up once `stop` is set (the run's time limit, a signal): the socket is
/// non-blocking during the handshake, which is polled every [`TICK`], and blocking again after.
/// `Ok(false)`: stopped before the connection was up. A blocking connect would wait out the
/// kernel's SYN retries (about two minutes) when the relay has stopped carrying the SYN.
pub(crate) fn connect_until(
    fd: &OwnedFd,
    to: SocketAddrV4,
    stop: &AtomicBool,
    what: &'static str,
) -> Result<bool, EmuError> {
    let flags = OFlag::from_bits_truncate(
        fcntl(fd, FcntlArg::F_GETFL).map_err(|e| EmuError::run(what, e))?,
    );
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK)).map_err(|e| EmuError::run(what, e))?;
    match socket::connect(fd.as_raw_fd(), &SockaddrIn::from(to)) {
        Ok(()) => {}
        Err(Errno::EINPROGRESS) => loop {
            if stop.load(Ordering::SeqCst) {
                return Ok(false);
            }
            let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLOUT)];
            let tick = u16::try_from(TICK.as_millis()).unwrap_or(u16::MAX);
            match poll(&mut fds, tick) {
                Ok(0) | Err(Errno::EINTR) => {}
                Ok(_) => match socket::getsockopt(fd, sockopt::SocketError) {
                    Ok(0) => break,
                    Ok(err) => return Err(EmuError::run(what, Errno::from_raw(err))),
                    Err(e) => return Err(EmuError::run(what, e)),
                },
                Err(e) => return Err(EmuError::run(what, e)),
            }
        },
        Err(e) => return Err(EmuError::run(what, e)),
    }
    fcntl(fd, FcntlArg::F_SETFL(flags)).map_err(|e| EmuError::run(what, e))?;
    Ok(true)
}

/// The client: connect, send `spec.bytes`, close; `TCP_INFO` sampled between writes and the
/// namespace's counters read at the end.
fn source(
    host: &Host,
    to: SocketAddrV4,
    spec: &BulkSpec,
    clock: Clock,
    stop: &AtomicBool,
) -> Result<(SimTime, KernelSender), EmuError> {
    enter(host)?;
    let fd = socket::socket(
        AddressFamily::Inet,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )
    .map_err(|e| EmuError::run("client", e))?;
    socket::setsockopt(&fd, sockopt::TcpCongestion, &OsString::from(&spec.cc))
        .map_err(|e| EmuError::run("client", format!("congestion control {}: {e}", spec.cc)))?;
    if let Some(b) = spec.buffer {
        socket::setsockopt(&fd, sockopt::SndBuf, &(b as usize))
            .map_err(|e| EmuError::run("client", e))?;
    }
    if !connect_until(&fd, to, stop, "client connect")? {
        // The run's time limit (or a signal) came during the handshake: nothing was sent.
        return Ok((clock.now(), kernel::read_counters(Vec::new())));
    }
    let mut conn = TcpStream::from(fd);
    conn.set_write_timeout(Some(TICK))
        .map_err(io_err("client"))?;
    conn.set_read_timeout(Some(TICK))
        .map_err(io_err("client"))?;
    let start = clock.now();
    let chunk = vec![0x5au8; 1 << 16];
    let mut left = spec.bytes;
    let mut samples = Vec::new();
    let take = |conn: &TcpStream, samples: &mut Vec<kernel::CwndSample>| {
        let due = samples.last().is_none_or(|s: &kernel::CwndSample| {
            clock.now().saturating_since(s.t).as_nanos() >= kernel::SAMPLE_EVERY.0
        });
        if due {
            if let Some(info) = kernel::tcp_info(conn) {
                samples.push(kernel::sample(&clock, &info));
            }
        }
    };
    while left > 0 {
        take(&conn, &mut samples);
        if stop.load(Ordering::SeqCst) {
            return Ok((start, kernel::read_counters(samples)));
        }
        let n = left.min(chunk.len() as u64) as usize;
        match conn.write(&chunk[..n]) {
            Ok(w) => left -= w as u64,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(EmuError::run("client write", e)),
        }
    }
    take(&conn, &mut samples);
    conn.shutdown(std::net::Shutdown::Write)
        .map_err(io_err("client"))?;
    // Hold the socket until the sink has read everything (a close with unread data would not
    // matter, but an early return here would drop the connection's final FIN handshake).
    let mut b = [0u8; 1];
    loop {
        match conn.read(&mut b) {
            Ok(_) => break,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                take(&conn, &mut samples);
                if stop.load(Ordering::SeqCst) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    take(&conn, &mut samples);
    Ok((start, kernel::read_counters(samples)))
}
