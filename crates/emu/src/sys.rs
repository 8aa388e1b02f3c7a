//! The one place this crate talks to the kernel without a safe wrapper: creating a TUN device
//! (`open("/dev/net/tun")` and the `TUNSETIFF` ioctl, Linux Documentation/networking/tuntap.rst)
//! reading a socket's `TCP_INFO` (tcp(7); nix has no option for it) and the relay thread's
//! scheduling policy (sched_setscheduler(2); nix has no wrapper for it). Everything else goes
//! through `std` and `nix`.
#![allow(unsafe_code)]

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::fs::OpenOptionsExt;

/// `TUNSETIFF` = `_IOW('T', 202, int)` (include/uapi/linux/if_tun.h); the libc crate does not
/// export it.
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;

/// A TUN device (layer 3: each read or write is one IP datagram, no packet-info header),
/// non-blocking. The kernel removes the device when the descriptor closes.
pub struct Tun {
    file: File,
    name: String,
}

impl Tun {
    /// Create the TUN device `name` (at most 15 bytes) in the caller's network namespace.
    pub fn create(name: &str) -> io::Result<Tun> {
        if name.is_empty() || name.len() >= libc::IFNAMSIZ {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("device name '{name}' must have 1 to 15 bytes"),
            ));
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open("/dev/net/tun")?;
        // SAFETY: `ifreq` is a plain C struct of integers and byte arrays, for which all-zero
        // bytes are a valid value.
        let mut ifr: libc::ifreq = unsafe { std::mem::zeroed() };
        for (dst, &src) in ifr.ifr_name.iter_mut().zip(name.as_bytes()) {
            *dst = src as libc::c_char;
        }
        ifr.ifr_ifru.ifru_flags = (libc::IFF_TUN | libc::IFF_NO_PI) as libc::c_short;
        // SAFETY: the descriptor is open for as long as `file` lives; `TUNSETIFF` reads an
        // `ifreq` through the pointer, which points at a live, initialised one, and writes the
        // device's name back into it (within the struct).
        let rc = unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF as _, &mut ifr) };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Tun {
            file,
            name: name.to_string(),
        })
    }

    /// The device's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Read one datagram into `buf`; `Ok(None)` when none is waiting.
    pub fn recv(&mut self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        match self.file.read(buf) {
            Ok(n) => Ok(Some(n)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Hand one datagram to the kernel (as if it arrived on the device).
    pub fn send(&mut self, datagram: &[u8]) -> io::Result<()> {
        self.file.write(datagram).map(|_| ())
    }
}

impl AsFd for Tun {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.file.as_fd()
    }
}

/// Read `TCP_INFO` of the TCP socket `sock`; `None` if the kernel refuses.
pub fn tcp_info(sock: &impl AsRawFd) -> Option<libc::tcp_info> {
    // SAFETY: `tcp_info` is a plain C struct of integers, for which all-zero is a valid value;
    // the kernel writes at most `len` bytes into it and `len` is its size.
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: a valid descriptor or not, getsockopt only writes within `info` (`len` bytes).
    let rc = unsafe {
        libc::getsockopt(
            sock.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut libc::tcp_info).cast(),
            &mut len,
        )
    };
    (rc == 0).then_some(info)
}

/// The calling thread's scheduling policy and priority, as `sched_getscheduler(2)` and
/// `sched_getparam(2)` report them.
#[derive(Clone, Copy, Debug)]
pub struct Scheduling {
    policy: libc::c_int,
    priority: libc::c_int,
}

impl Scheduling {
    /// The calling thread's.
    pub fn current() -> io::Result<Scheduling> {
        // SAFETY: with pid 0 the call reads the calling thread's policy; no memory is passed.
        let policy = unsafe { libc::sched_getscheduler(0) };
        if policy < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` is a live `sched_param` the kernel writes into.
        if unsafe { libc::sched_getparam(0, &mut param) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Scheduling {
            policy,
            priority: param.sched_priority,
        })
    }

    /// First-in first-out real-time scheduling (`SCHED_FIFO`) at `priority` (1-99): the
    /// thread runs whenever it is ready, ahead of every ordinary (`SCHED_OTHER`) thread, until
    /// it blocks; the kernel's real-time throttling (`sched_rt_runtime_us`, 95 % of each second
    /// by default) keeps the rest of the machine alive. Needs `CAP_SYS_NICE`.
    pub fn fifo(priority: i32) -> Scheduling {
        Scheduling {
            policy: libc::SCHED_FIFO,
            priority,
        }
    }

    /// Whether this is a real-time policy (`SCHED_FIFO` or `SCHED_RR`).
    pub fn is_realtime(self) -> bool {
        self.policy == libc::SCHED_FIFO || self.policy == libc::SCHED_RR
    }

    /// Give the calling thread this policy and priority.
    pub fn apply(self) -> io::Result<()> {
        let param = libc::sched_param {
            sched_priority: self.priority,
        };
        // SAFETY: with pid 0 the call sets the calling thread's policy; it reads `param`, a
        // live `sched_param`.
        if unsafe { libc::sched_setscheduler(0, self.policy, &param) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}
