//! The network namespaces and TUN devices of one emulation, and their removal on every exit
//! path: [`Namespaces`] deletes what it created when dropped (normal end, error, a signal that
//! ends the run); [`remove_stale`] deletes what an emulator killed without a chance to clean up
//! (SIGKILL, a crash) left behind. Every name is `ll-<pid>-<role>`, so an emulator only ever
//! touches its own objects or those of a dead emulator. Uses iproute2's `ip`.

use crate::error::EmuError;
use crate::sys::Tun;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Prefix of every namespace and device an emulator creates.
pub const PREFIX: &str = "ll-";
/// Where `ip netns` keeps its namespaces.
const NETNS_DIR: &str = "/run/netns";

/// One end host: its namespace, its TUN device (the emulator keeps the descriptor) and address.
pub struct Host {
    /// Namespace name, `ll-<pid>-<role>`.
    pub netns: String,
    /// Its address on the emulated path.
    pub addr: Ipv4Addr,
}

impl Host {
    /// The namespace's file (for `setns`).
    pub fn netns_path(&self) -> PathBuf {
        Path::new(NETNS_DIR).join(&self.netns)
    }
}

/// The namespaces of an emulation; dropping it deletes them (and with them anything still
/// configured inside).
pub struct Namespaces {
    /// The client end (the first flow's sender).
    pub client: Host,
    /// The server end (the first flow's receiver).
    pub server: Host,
    /// A split scheme's base station (`ll-<pid>-b`, 10.77.0.3), where the connection is
    /// terminated.
    pub base: Option<Host>,
    created: Vec<String>,
}

/// Name of this process's object `role`.
pub fn name(pid: u32, role: &str) -> String {
    format!("{PREFIX}{pid}-{role}")
}

/// Run `ip` with `args`; its error output on failure.
fn ip(args: &[&str]) -> Result<(), EmuError> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| EmuError::setup(format!("ip {}", args.join(" ")), e))?;
    if !out.status.success() {
        return Err(EmuError::setup(
            format!("ip {}", args.join(" ")),
            String::from_utf8_lossy(&out.stderr),
        ));
    }
    Ok(())
}

/// A shell command run inside namespace `ns` (`ip netns exec`).
pub fn exec_in(ns: &str, script: &str) -> Command {
    let mut c = Command::new("ip");
    c.args(["netns", "exec", ns, "sh", "-c", script]);
    c
}

impl Namespaces {
    /// Create the namespaces of process `pid`, each with a TUN device of `mtu` bytes on
    /// 10.77.0.0/24 (client 10.77.0.1, server 10.77.0.2, with `base_station` also a base
    /// station 10.77.0.3) and `lo` up; returns the namespaces and the devices' descriptors in
    /// path order (client, base station, server). IPv6 is off inside, so only the traffic of
    /// the programs crosses the links.
    pub fn create(
        pid: u32,
        mtu: u32,
        base_station: bool,
    ) -> Result<(Namespaces, Vec<Tun>), EmuError> {
        let mut ns = Namespaces {
            client: Host {
                netns: name(pid, "c"),
                addr: Ipv4Addr::new(10, 77, 0, 1),
            },
            server: Host {
                netns: name(pid, "s"),
                addr: Ipv4Addr::new(10, 77, 0, 2),
            },
            base: base_station.then(|| Host {
                netns: name(pid, "b"),
                addr: Ipv4Addr::new(10, 77, 0, 3),
            }),
            created: Vec::new(),
        };
        let mut tuns = Vec::new();
        let hosts: Vec<(String, Ipv4Addr)> =
            ns.hosts().map(|h| (h.netns.clone(), h.addr)).collect();
        for (netns, addr) in hosts {
            ip(&["netns", "add", &netns])?;
            // From here the guard deletes it, whatever fails next.
            ns.created.push(netns.clone());
            // The device is named like its namespace: it lives as long as the descriptor.
            let tun = Tun::create(&netns)
                .map_err(|e| EmuError::setup(format!("create TUN device {netns}"), e))?;
            let dev = tun.name().to_string();
            ip(&["link", "set", "dev", &dev, "netns", &netns])?;
            let status = exec_in(
                &netns,
                "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6; \
                 echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6",
            )
            .status()
            .map_err(|e| EmuError::setup("disable IPv6", e))?;
            if !status.success() {
                return Err(EmuError::setup("disable IPv6", status));
            }
            // A TUN device has no link layer: the /24 is a route through it to every other
            // host, the relay delivers by destination address.
            let local = format!("{addr}/24");
            let mtu = mtu.to_string();
            let n = netns.as_str();
            ip(&["-n", n, "link", "set", "lo", "up"])?;
            ip(&["-n", n, "addr", "add", &local, "dev", &dev])?;
            ip(&["-n", n, "link", "set", "dev", &dev, "mtu", &mtu, "up"])?;
            tuns.push(tun);
        }
        Ok((ns, tuns))
    }

    /// The hosts in path order: client, base station (if any), server.
    pub fn hosts(&self) -> impl Iterator<Item = &Host> {
        std::iter::once(&self.client)
            .chain(self.base.as_ref())
            .chain(std::iter::once(&self.server))
    }

    /// Write kernel setting `key` (checked by [`check_sysctl_key`]) = `value` in every
    /// namespace.
    pub fn set_sysctl(&self, key: &str, value: &str) -> Result<(), EmuError> {
        let path = Path::new("/proc/sys").join(key.replace('.', "/"));
        for h in self.hosts() {
            // `ip netns exec` mounts the namespace's own /proc/sys/net; no shell.
            let out = Command::new("ip")
                .args(["netns", "exec", &h.netns, "sysctl", "-qw"])
                .arg(format!("{key}={value}"))
                .output()
                .map_err(|e| EmuError::setup("sysctl", e))?;
            if !out.status.success() {
                return Err(EmuError::Option {
                    option: "sysctl",
                    message: format!(
                        "{key}={value}: {} ({})",
                        String::from_utf8_lossy(&out.stderr).trim(),
                        path.display()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Set the default congestion control of every namespace (for the user's programs).
    pub fn set_congestion_control(&self, cc: &str) -> Result<(), EmuError> {
        for h in self.hosts() {
            let script = format!("echo {cc} > /proc/sys/net/ipv4/tcp_congestion_control");
            let out = exec_in(&h.netns, &script)
                .output()
                .map_err(|e| EmuError::setup("set congestion control", e))?;
            if !out.status.success() {
                return Err(EmuError::setup(
                    format!("set congestion control {cc}"),
                    String::from_utf8_lossy(&out.stderr),
                ));
            }
        }
        Ok(())
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for n in self.created.drain(..).rev() {
            // Nothing more can be done about a failure here; the next start removes leftovers.
            let _ = remove_netns(&n);
        }
    }
}

/// End the processes still inside namespace `n` (programs an emulator started there, and
/// whatever they started) and delete it.
fn remove_netns(n: &str) -> Result<(), EmuError> {
    if let Ok(out) = Command::new("ip").args(["netns", "pids", n]).output() {
        for pid in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            if let Ok(pid) = pid.parse::<i32>() {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
        }
    }
    ip(&["netns", "del", n])
}

/// The pid in an object name `ll-<pid>-<role>`, if it is one.
pub fn owner_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?;
    let (pid, role) = rest.split_once('-')?;
    if role.is_empty() {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` is running.
fn alive(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Delete the namespaces and devices of emulators that are no longer running (their pid is
/// gone), ending the processes left inside those namespaces; returns their names. Objects of running emulators, this one included, are left.
pub fn remove_stale() -> Result<Vec<String>, EmuError> {
    let mut removed = Vec::new();
    let me = std::process::id();
    if let Ok(entries) = std::fs::read_dir(NETNS_DIR) {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        for n in names {
            if let Some(pid) = owner_pid(&n) {
                if pid != me && !alive(pid) {
                    remove_netns(&n)?;
                    removed.push(n);
                }
            }
        }
    }
    // Devices left in this namespace (a TUN device goes with its descriptor, a veth or a
    // persistent device would not).
    if let Ok(entries) = std::fs::read_dir("/sys/class/net") {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        for n in names {
            if let Some(pid) = owner_pid(&n) {
                if pid != me && !alive(pid) {
                    ip(&["link", "del", "dev", &n])?;
                    removed.push(n);
                }
            }
        }
    }
    Ok(removed)
}

/// A kernel setting the emulator may write in its namespaces: a dotted `net.` key of letters,
/// digits and `_` (the per-namespace ones; anything else would change the whole machine).
pub fn check_sysctl_key(key: &str) -> Result<(), EmuError> {
    let ok = key.starts_with("net.")
        && key
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if ok {
        Ok(())
    } else {
        Err(EmuError::Option {
            option: "sysctl",
            message: format!("'{key}' is not a net.* key (per network namespace)"),
        })
    }
}

/// Whether this process has `CAP_NET_ADMIN` and `CAP_SYS_ADMIN` in its effective set (creating
/// devices, namespaces and their mounts); the first missing one as an error.
pub fn check_privileges() -> Result<(), EmuError> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let eff = status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
        .unwrap_or(0);
    // include/uapi/linux/capability.h: CAP_NET_ADMIN 12, CAP_SYS_ADMIN 21.
    if eff & (1 << 12) == 0 {
        return Err(EmuError::Privilege {
            capability: "CAP_NET_ADMIN",
            needed_for: "to create TUN devices and configure links",
        });
    }
    if eff & (1 << 21) == 0 {
        return Err(EmuError::Privilege {
            capability: "CAP_SYS_ADMIN",
            needed_for: "to create network namespaces",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_of_the_emulator_form_have_an_owner() {
        assert_eq!(owner_pid("ll-1234-c"), Some(1234));
        assert_eq!(owner_pid(&name(77, "s")), Some(77));
        assert_eq!(owner_pid("ll-1234-"), None);
        assert_eq!(owner_pid("ll-abc-c"), None);
        assert_eq!(owner_pid("lo"), None);
        assert_eq!(owner_pid("eth0"), None);
    }

    #[test]
    fn only_per_namespace_sysctl_keys_are_accepted() {
        assert!(check_sysctl_key("net.ipv4.tcp_recovery").is_ok());
        assert!(check_sysctl_key("net.ipv4.tcp_early_retrans").is_ok());
        for bad in [
            "kernel.panic",
            "net.ipv4..x",
            "net.ipv4.x;reboot",
            "net",
            "vm.swappiness",
        ] {
            let e = check_sysctl_key(bad).err().map(|e| e.to_string());
            assert!(e.is_some_and(|e| e.contains("sysctl")), "{bad}");
        }
    }
}
