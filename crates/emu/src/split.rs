//! The split-connection proxy on real traffic (I-TCP, Bakre & Badrinath 1995; Balakrishnan97
//! §2.3 "split-connection protocols"): the connection is terminated at the base station. The
//! base station is a third namespace on the emulated path; a thread there accepts the client's
//! connection (the fixed host's, over the wired hop) and opens its own to the server (the
//! mobile, over the wireless hop), with the run's kernel congestion control, and relays the
//! bytes. The two legs are two real Linux TCP connections: each ACKs, recovers and controls its
//! window by itself, as the simulator's `SplitProxy` (a receiver facing the fixed host, a sender
//! facing the mobile) does.
//!
//! Deliberate choices: the proxy is explicit, not transparent — the client connects to the base
//! station's address (`LL_PROXY_ADDR`) instead of rewriting addresses in flight, which would need
//! netfilter's TPROXY; the relay buffer is the downstream socket's send buffer (`split.buffer`)
//! plus the upstream socket's receive buffer, where the simulator has one bounded buffer whose
//! free space is the wired leg's advertised window; the wireless leg runs the kernel's TCP, not
//! the split scheme's simulated wireless sender (SMART, ...).

use crate::bulk::{enter, io_err, PORT};
use crate::error::EmuError;
use crate::netns::Host;
use nix::sys::socket::{self, sockopt, AddressFamily, SockFlag, SockType, SockaddrIn};
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::net::{SocketAddrV4, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often a blocked socket call looks at the stop flag.
const TICK: Duration = Duration::from_millis(100);

/// A running proxy.
pub struct Proxy {
    thread: JoinHandle<Result<u64, EmuError>>,
}

/// How the proxy's legs are set up.
#[derive(Clone, Debug)]
pub struct ProxySpec {
    /// Kernel congestion control of the leg to the server.
    pub cc: String,
    /// Receive buffer of the leg from the client, if set.
    pub upstream_buffer: Option<u32>,
    /// Send buffer of the leg to the server (`split.buffer`).
    pub relay_buffer: u32,
}

impl Proxy {
    /// Start the proxy in `base`'s namespace, relaying one connection to `server` (its sink's
    /// port); returns once it listens. It gives up once `stop` is set.
    pub fn start(
        base: &Host,
        server: &Host,
        spec: &ProxySpec,
        stop: Arc<AtomicBool>,
    ) -> Result<Proxy, EmuError> {
        let (ready_tx, ready_rx) = mpsc::channel();
        let base = Host {
            netns: base.netns.clone(),
            addr: base.addr,
        };
        let to = SocketAddrV4::new(server.addr, PORT);
        let spec = spec.clone();
        let stop2 = stop.clone();
        let thread = std::thread::spawn(move || relay(&base, to, &spec, &ready_tx, &stop2));
        match ready_rx.recv_timeout(Duration::from_secs(5)) {
            Ok(()) => Ok(Proxy { thread }),
            Err(_) => {
                stop.store(true, Ordering::SeqCst);
                match thread.join() {
                    Ok(Err(e)) => Err(e),
                    _ => Err(EmuError::run("proxy", "did not start listening")),
                }
            }
        }
    }

    /// Wait for the proxy; the bytes it relayed.
    pub fn join(self) -> Result<u64, EmuError> {
        self.thread
            .join()
            .map_err(|_| EmuError::run("proxy", "thread panicked"))?
    }
}

fn sock(what: &'static str) -> Result<std::os::fd::OwnedFd, EmuError> {
    socket::socket(
        AddressFamily::Inet,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )
    .map_err(|e| EmuError::run(what, e))
}

/// Whether an I/O error only means "not yet".
fn transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// Accept one connection, connect to `to`, copy until the client's end, then hold both until
/// the server closes (so the client's wait for the end sees the whole transfer through).
fn relay(
    base: &Host,
    to: SocketAddrV4,
    spec: &ProxySpec,
    ready: &mpsc::Sender<()>,
    stop: &AtomicBool,
) -> Result<u64, EmuError> {
    enter(base)?;
    let fd = sock("proxy")?;
    socket::setsockopt(&fd, sockopt::ReuseAddr, &true).map_err(|e| EmuError::run("proxy", e))?;
    if let Some(b) = spec.upstream_buffer {
        // Before listen, so the window scale of the connection follows it.
        socket::setsockopt(&fd, sockopt::RcvBuf, &(b as usize))
            .map_err(|e| EmuError::run("proxy", e))?;
    }
    let addr = SockaddrIn::from(SocketAddrV4::new(base.addr, PORT));
    socket::bind(std::os::fd::AsRawFd::as_raw_fd(&fd), &addr)
        .map_err(|e| EmuError::run("proxy bind", e))?;
    socket::listen(
        &fd,
        socket::Backlog::new(4).map_err(|e| EmuError::run("proxy", e))?,
    )
    .map_err(|e| EmuError::run("proxy listen", e))?;
    let listener = TcpListener::from(fd);
    listener.set_nonblocking(true).map_err(io_err("proxy"))?;
    let _ = ready.send(());
    let mut up = loop {
        match listener.accept() {
            Ok((c, _)) => break c,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::SeqCst) {
                    return Ok(0);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(EmuError::run("proxy accept", e)),
        }
    };
    up.set_nonblocking(false).map_err(io_err("proxy"))?;
    up.set_read_timeout(Some(TICK)).map_err(io_err("proxy"))?;
    let fd = sock("proxy")?;
    socket::setsockopt(&fd, sockopt::TcpCongestion, &OsString::from(&spec.cc))
        .map_err(|e| EmuError::run("proxy", format!("congestion control {}: {e}", spec.cc)))?;
    socket::setsockopt(&fd, sockopt::SndBuf, &(spec.relay_buffer as usize))
        .map_err(|e| EmuError::run("proxy", e))?;
    if !crate::bulk::connect_until(&fd, to, stop, "proxy connect")? {
        return Ok(0);
    }
    let mut down = TcpStream::from(fd);
    down.set_write_timeout(Some(TICK))
        .map_err(io_err("proxy"))?;
    down.set_read_timeout(Some(TICK)).map_err(io_err("proxy"))?;
    let mut buf = vec![0u8; 1 << 16];
    let mut relayed = 0u64;
    loop {
        let n = match up.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if transient(&e) => {
                if stop.load(Ordering::SeqCst) {
                    return Ok(relayed);
                }
                continue;
            }
            Err(e) => return Err(EmuError::run("proxy read", e)),
        };
        let mut off = 0;
        while off < n {
            match down.write(&buf[off..n]) {
                Ok(w) => off += w,
                Err(e) if transient(&e) => {
                    if stop.load(Ordering::SeqCst) {
                        return Ok(relayed);
                    }
                }
                Err(e) => return Err(EmuError::run("proxy write", e)),
            }
        }
        relayed += n as u64;
    }
    down.shutdown(std::net::Shutdown::Write)
        .map_err(io_err("proxy"))?;
    // The sink closes once it has read everything; then the client's connection closes.
    let mut b = [0u8; 1];
    loop {
        match down.read(&mut b) {
            Err(e) if transient(&e) => {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
            }
            _ => break,
        }
    }
    Ok(relayed)
}
