//! The real sender's own account of a transfer, as the kernel keeps it: `TCP_INFO` on the
//! client's socket (tcp(7); `struct tcp_info`, include/uapi/linux/tcp.h), sampled while it
//! sends, and the client namespace's TCP MIB counters (`/proc/net/snmp` `Tcp: RetransSegs`,
//! `/proc/net/netstat` `TcpExt: TCPTimeouts TCPSackRecovery TCPRenoRecovery`), which start at
//! zero in the namespace the emulator creates for the run. These are what `lossylink validate
//! linux` sets beside the simulated sender's counters of the same names.

use crate::clock::Clock;
use engine::SimTime;

/// One `TCP_INFO` sample of the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CwndSample {
    /// When it was taken (the emulator's clock).
    pub t: SimTime,
    /// `tcpi_snd_cwnd · tcpi_snd_mss`, bytes.
    pub cwnd_bytes: u64,
    /// `tcpi_snd_ssthresh · tcpi_snd_mss`, bytes; `None` while the kernel's is "infinite".
    pub ssthresh_bytes: Option<u64>,
    /// `tcpi_ca_state` (0 open, 1 disorder, 2 CWR, 3 recovery, 4 loss).
    pub ca_state: u8,
}

/// The kernel's counters for the sender at the end of the transfer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelSender {
    /// `Tcp: RetransSegs` of the client namespace: segments retransmitted.
    pub retransmitted_segments: u64,
    /// `TcpExt: TCPTimeouts`: retransmission timeouts.
    pub timeouts: u64,
    /// `TcpExt: TCPSackRecovery + TCPRenoRecovery`: fast recoveries entered.
    pub recoveries: u64,
    /// `TCP_INFO` samples taken while the client wrote, at most one per [`SAMPLE_EVERY`].
    pub samples: Vec<CwndSample>,
}

/// The least time between two samples: a few per round trip on the paths validated.
pub const SAMPLE_EVERY: SimTime = SimTime(5_000_000);

pub use crate::sys::tcp_info;

/// A sample of `info` taken at `clock`'s now.
pub fn sample(clock: &Clock, info: &libc::tcp_info) -> CwndSample {
    let mss = u64::from(info.tcpi_snd_mss);
    // The kernel reports an unset ssthresh as TCP_INFINITE_SSTHRESH (0x7fffffff).
    let ssthresh =
        (info.tcpi_snd_ssthresh < 0x7fff_ffff).then(|| u64::from(info.tcpi_snd_ssthresh) * mss);
    CwndSample {
        t: clock.now(),
        cwnd_bytes: u64::from(info.tcpi_snd_cwnd) * mss,
        ssthresh_bytes: ssthresh,
        ca_state: info.tcpi_ca_state,
    }
}

/// The counter `name` of the `prefix:` lines of a `/proc/net/snmp`-style text (a header line
/// of names followed by a line of values).
pub fn mib_counter(text: &str, prefix: &str, name: &str) -> Option<u64> {
    let mut lines = text.lines().filter(|l| l.starts_with(prefix));
    while let (Some(names), Some(values)) = (lines.next(), lines.next()) {
        let names = names.split_whitespace().skip(1);
        let values = values.split_whitespace().skip(1);
        if let Some((_, v)) = names.zip(values).find(|(n, _)| *n == name) {
            return v.parse().ok();
        }
    }
    None
}

/// The calling thread's namespace's counters (the thread has entered the client namespace:
/// `/proc/thread-self/net` is its namespace's view, `/proc/self/net` the process's).
pub fn read_counters(samples: Vec<CwndSample>) -> KernelSender {
    let read =
        |f: &str| std::fs::read_to_string(format!("/proc/thread-self/net/{f}")).unwrap_or_default();
    let (snmp, netstat) = (read("snmp"), read("netstat"));
    let ext = |n| mib_counter(&netstat, "TcpExt:", n).unwrap_or(0);
    KernelSender {
        retransmitted_segments: mib_counter(&snmp, "Tcp:", "RetransSegs").unwrap_or(0),
        timeouts: ext("TCPTimeouts"),
        recoveries: ext("TCPSackRecovery") + ext("TCPRenoRecovery"),
        samples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-line layout of /proc/net/netstat, values under names.
    #[test]
    fn mib_counters_are_read_by_name() {
        let text = "TcpExt: SyncookiesSent TCPTimeouts TCPSackRecovery TCPRenoRecovery\n\
                    TcpExt: 0 7 12 1\n\
                    IpExt: InNoRoutes TCPTimeouts\n\
                    IpExt: 3 99\n";
        assert_eq!(mib_counter(text, "TcpExt:", "TCPTimeouts"), Some(7));
        assert_eq!(mib_counter(text, "TcpExt:", "TCPSackRecovery"), Some(12));
        assert_eq!(mib_counter(text, "IpExt:", "TCPTimeouts"), Some(99));
        assert_eq!(mib_counter(text, "TcpExt:", "Nope"), None);
        let snmp = "Tcp: RtoAlgorithm RetransSegs\nTcp: 1 42\n";
        assert_eq!(mib_counter(snmp, "Tcp:", "RetransSegs"), Some(42));
    }

    /// TCP_INFO on a real connected socket: a window of at least one segment, open state.
    #[test]
    fn tcp_info_reads_a_connected_socket() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let info = tcp_info(&c).expect("TCP_INFO");
        let s = sample(&Clock::start(), &info);
        assert!(s.cwnd_bytes >= u64::from(info.tcpi_snd_mss) && info.tcpi_snd_mss > 0);
        assert_eq!(s.ca_state, 0);
    }
}
