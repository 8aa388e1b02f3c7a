//! One emulation: privileges, leftovers of dead emulators, namespaces and devices, the user's
//! programs or the built-in transfer, the relay until they finish (or a signal, or the time
//! limit), and the results. Whatever was created is removed on every way out of [`emulate`]:
//! the namespaces by their guard's `Drop`, the programs by their pids.

use crate::bulk::{Bulk, BulkOutcome, BulkSpec};
use crate::capture::{DirCapture, HopCaptures};
use crate::clock::Clock;
use crate::error::EmuError;
use crate::netns::{self, exec_in, Namespaces};
use crate::relay::{Endpoint, Relay, RelayStats};
use crate::split::{Proxy, ProxySpec};
use lossylink::{emulation_plan, Scenario, Value};
use net::agent::AgentStats;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A kernel congestion control the emulator can select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Congestion {
    /// `reno`.
    Reno,
    /// `cubic` (Linux's default).
    Cubic,
    /// `bbr` (BBRv1 in mainline Linux).
    Bbr,
}

impl Congestion {
    /// Parse a name; the error lists the allowed ones.
    pub fn parse(name: &str) -> Result<Self, EmuError> {
        match name {
            "reno" => Ok(Congestion::Reno),
            "cubic" => Ok(Congestion::Cubic),
            "bbr" => Ok(Congestion::Bbr),
            _ => Err(EmuError::Option {
                option: "cc",
                message: format!("unknown congestion control '{name}' (allowed: reno, cubic, bbr)"),
            }),
        }
    }
    /// The kernel's name.
    pub fn name(self) -> &'static str {
        match self {
            Congestion::Reno => "reno",
            Congestion::Cubic => "cubic",
            Congestion::Bbr => "bbr",
        }
    }
}

/// What runs at the two ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Programs {
    /// The built-in transfer of the scenario's bytes (or `bytes`).
    Bulk {
        /// Bytes to send instead of the scenario's transfer.
        bytes: Option<u64>,
    },
    /// The user's shell commands (`sh -c`), each in its namespace, with `LL_SERVER_ADDR` and
    /// `LL_CLIENT_ADDR` set; the run ends when the client exits (or the server, without a
    /// client).
    Commands {
        /// Run in the server's namespace (started first).
        server: Option<String>,
        /// Run in the client's namespace.
        client: Option<String>,
    },
}

/// How to emulate.
#[derive(Clone, Debug)]
pub struct EmulateOptions {
    /// Master seed of the error models and media (as for a simulated run).
    pub seed: u64,
    /// Kernel congestion control.
    pub cc: Congestion,
    /// What runs at the ends.
    pub programs: Programs,
    /// Socket buffers of the built-in transfer: `Some(0)` the scenario's `tcp.buffer`, `Some(n)`
    /// n bytes, `None` the kernel's autotuning.
    pub buffer: Option<u32>,
    /// The run stops after this long whatever the programs do.
    pub time_limit: Duration,
    /// Write `client-to-server.pcap` and `server-to-client.pcap` (as released to the hosts)
    /// and one file per hop direction (`hop<i>-<name>-<forward|reverse>.pcap`) here.
    pub pcap_dir: Option<PathBuf>,
    /// Stop when this is set (besides SIGINT and SIGTERM).
    pub stop: Option<Arc<AtomicBool>>,
    /// Kernel settings (`net.ipv4.tcp_recovery` = `0`, ...) written in every namespace before
    /// the programs start; only `net.*` keys (per-namespace ones).
    pub sysctls: Vec<(String, String)>,
    /// Run the relay thread under real-time scheduling (`SCHED_FIFO`, docs/emulation.md) when
    /// the process may (`CAP_SYS_NICE`); the results' `relay_realtime` says whether it did.
    pub realtime: bool,
}

impl Default for EmulateOptions {
    fn default() -> Self {
        EmulateOptions {
            seed: 1,
            cc: Congestion::Reno,
            programs: Programs::Bulk { bytes: None },
            buffer: None,
            time_limit: Duration::from_secs(600),
            pcap_dir: None,
            stop: None,
            sysctls: Vec::new(),
            realtime: true,
        }
    }
}

/// Release timing against the model's schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Releases measured.
    pub samples: u64,
    /// Median lateness, ns.
    pub median_ns: u64,
    /// 99th percentile, ns.
    pub p99_ns: u64,
    /// Largest, ns.
    pub max_ns: u64,
}

impl Timing {
    fn of(mut v: Vec<u64>) -> Timing {
        if v.is_empty() {
            return Timing::default();
        }
        v.sort_unstable();
        let q = |p: usize| v[(v.len() - 1) * p / 100];
        Timing {
            samples: v.len() as u64,
            median_ns: q(50),
            p99_ns: q(99),
            max_ns: v[v.len() - 1],
        }
    }
}

/// What an emulation measured.
#[derive(Clone, Debug)]
pub struct EmulateResult {
    /// Scenario name.
    pub scenario: String,
    /// The scenario's scheme.
    pub scheme: String,
    /// The base-station agents that ran on the real segments (`ll`, `snoop`).
    pub agents: Vec<&'static str>,
    /// Their counters, summed.
    pub agent_stats: AgentStats,
    /// Bytes the split proxy relayed to the server (a split scheme).
    pub proxy_bytes: Option<u64>,
    /// Kernel congestion control.
    pub cc: Congestion,
    /// Master seed.
    pub seed: u64,
    /// The built-in transfer's outcome.
    pub bulk: Option<BulkOutcome>,
    /// Exit codes of the user's programs (server, client), if they ran and exited.
    pub exit_codes: (Option<i32>, Option<i32>),
    /// Relay counters (lateness samples moved into `timing`).
    pub relay: RelayStats,
    /// Release lateness.
    pub timing: Timing,
    /// Queue drops on the scenario's ports.
    pub queue_drops: u64,
    /// Frames the error models corrupted (data, ACKs).
    pub corrupted: (u64, u64),
    /// Seconds the relay ran.
    pub wall_s: f64,
    /// CPU seconds the emulator's process used while the relay ran (all its threads).
    pub cpu_s: f64,
    /// Stopped by a signal or the stop flag.
    pub interrupted: bool,
    /// Stopped by the time limit.
    pub timed_out: bool,
    /// Namespaces and devices of dead emulators removed before the start.
    pub removed_stale: Vec<String>,
    /// The pcap files written.
    pub pcap_files: Vec<PathBuf>,
}

impl EmulateResult {
    /// Goodput of the built-in transfer, 10^6 bit/s (bytes·8 over first write to last byte).
    pub fn goodput_mbps(&self) -> f64 {
        match &self.bulk {
            Some(b) if b.end > b.start => {
                b.bytes as f64 * 8.0 / b.end.saturating_since(b.start).as_secs_f64() / 1e6
            }
            _ => 0.0,
        }
    }

    /// The results as named values, in print order.
    pub fn metrics(&self) -> Vec<(&'static str, Value)> {
        let i = |v: u64| Value::Int(v as i64);
        let us = |ns: u64| Value::Float(ns as f64 / 1e3);
        let r = &self.relay;
        let mut m = vec![
            ("scenario", Value::Str(self.scenario.clone())),
            ("scheme", Value::Str(self.scheme.clone())),
            ("cc", Value::Str(self.cc.name().to_string())),
            ("seed", i(self.seed)),
        ];
        if let Some(b) = &self.bulk {
            m.push(("transfer_bytes", i(b.bytes)));
            m.push(("complete", Value::Bool(b.complete)));
            m.push(("throughput_mbps", Value::Float(self.goodput_mbps())));
            m.push((
                "completion_s",
                Value::Float(b.end.saturating_since(b.start).as_secs_f64()),
            ));
            // The kernel's own counters, under the simulated sender's names.
            let k = &b.kernel;
            m.push(("sender_retransmitted_segments", i(k.retransmitted_segments)));
            m.push(("sender_timeouts", i(k.timeouts)));
            m.push(("sender_fast_retransmits", i(k.recoveries)));
        }
        if let Some(c) = self.exit_codes.0 {
            m.push(("server_exit", Value::Int(i64::from(c))));
        }
        if let Some(c) = self.exit_codes.1 {
            m.push(("client_exit", Value::Int(i64::from(c))));
        }
        if !self.agents.is_empty() {
            let a = &self.agent_stats;
            m.push(("agents", Value::Str(self.agents.join(","))));
            m.push(("local_retransmissions", i(a.local_retransmissions)));
            m.push(("bs_dupacks_suppressed", i(a.dupacks_suppressed)));
            m.push(("bs_timer_retransmissions", i(a.timer_retransmissions)));
        }
        if let Some(b) = self.proxy_bytes {
            m.push(("proxy_bytes", i(b)));
        }
        m.extend([
            ("packets_client_to_server", i(r.released[0])),
            ("packets_server_to_client", i(r.released[1])),
            ("bytes_client_to_server", i(r.released_bytes[0])),
            ("bytes_server_to_client", i(r.released_bytes[1])),
            ("queue_drops", i(self.queue_drops)),
            ("corrupted_frames", i(self.corrupted.0 + self.corrupted.1)),
            ("corrupted_data_frames", i(self.corrupted.0)),
            ("corrupted_ack_frames", i(self.corrupted.1)),
            ("timing_samples", i(self.timing.samples)),
            ("timing_median_us", us(self.timing.median_ns)),
            ("timing_p99_us", us(self.timing.p99_ns)),
            ("timing_max_us", us(self.timing.max_ns)),
            ("wall_s", Value::Float(self.wall_s)),
            ("cpu_s", Value::Float(self.cpu_s)),
            ("relay_cpu_s", Value::Float(r.cpu_s)),
            ("relay_realtime", Value::Bool(r.realtime)),
            ("interrupted", Value::Bool(self.interrupted)),
            ("timed_out", Value::Bool(self.timed_out)),
        ]);
        m
    }
}

/// CPU seconds this process has used (user + system, all threads).
fn cpu_seconds() -> f64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF)
        .map(|u| {
            let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
            t(u.user_time()) + t(u.system_time())
        })
        .unwrap_or(0.0)
}

/// The user's programs, killed (by pid) and reaped when dropped.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for c in &mut self.0 {
            if let Ok(None) = c.try_wait() {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

/// Run `scenario` with real programs; see the module documentation.
pub fn emulate(scenario: &Scenario, opts: &EmulateOptions) -> Result<EmulateResult, EmuError> {
    netns::check_privileges()?;
    let removed_stale = netns::remove_stale()?;
    let plan = emulation_plan(scenario, opts.seed)?;
    // The devices carry segments of the scenario's size: MSS + 20 bytes of IPv4 + 20 of TCP,
    // + 12 of the timestamp option when the scenario's TCP sends it. The kernel advertises the
    // MTU less 40 as its MSS and takes its options off that for each segment
    // (`tcp_current_mss`), so its segments carry `tcp.mss` bytes as the simulated ones do
    // (with an MTU of MSS + 40 and timestamps on they carried 12 bytes less: 0.8 % more
    // packets for the same bytes at 1448).
    let mtu = plan.mss + 40 + if plan.timestamps { 12 } else { 0 };
    let pid = std::process::id();
    for (k, _) in &opts.sysctls {
        netns::check_sysctl_key(k)?;
    }
    let (ns, tuns) = Namespaces::create(pid, mtu, plan.split.is_some())?;
    // The kernel's timestamps follow the scenario's `tcp.timestamps` (per namespace), unless
    // the caller sets them.
    const TIMESTAMPS: &str = "net.ipv4.tcp_timestamps";
    if !opts.sysctls.iter().any(|(k, _)| k == TIMESTAMPS) {
        ns.set_sysctl(TIMESTAMPS, if plan.timestamps { "1" } else { "0" })?;
    }
    for (k, v) in &opts.sysctls {
        ns.set_sysctl(k, v)?;
    }
    let nodes = [
        Some(plan.client),
        plan.split.map(|s| s.0),
        Some(plan.server),
    ];
    let hosts = tuns
        .into_iter()
        .zip(nodes.into_iter().flatten())
        .zip(ns.hosts())
        .map(|((tun, node), h)| Endpoint {
            tun,
            node,
            addr: h.addr,
        })
        .collect();
    let mut relay = Relay::new(plan.network, hosts);
    let mut pcap_files = Vec::new();
    if let Some(dir) = &opts.pcap_dir {
        std::fs::create_dir_all(dir).map_err(|e| EmuError::setup("pcap directory", e))?;
        let a = dir.join("client-to-server.pcap");
        let b = dir.join("server-to-client.pcap");
        let ca = DirCapture::create(&a, plan.client, plan.server)
            .map_err(|e| EmuError::setup("pcap", e))?;
        let cb = DirCapture::create(&b, plan.server, plan.client)
            .map_err(|e| EmuError::setup("pcap", e))?;
        relay.capture([ca, cb]);
        pcap_files = vec![a, b];
        let hops = HopCaptures::create(dir, relay.network(), &plan.hop_names)
            .map_err(|e| EmuError::setup("pcap", e))?;
        pcap_files.extend(hops.paths.iter().cloned());
        relay.capture_hops(hops);
    }
    let proxy = plan.split.map(|(_, relay_buffer)| ProxySpec {
        cc: opts.cc.name().to_string(),
        upstream_buffer: match opts.buffer {
            Some(0) => Some(plan.buffer),
            b => b,
        },
        relay_buffer,
    });

    // SIGINT and SIGTERM end the run through the normal path (and so the cleanup).
    let signalled = Arc::new(AtomicBool::new(false));
    let mut sig_ids = Vec::new();
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let id = signal_hook::flag::register(sig, signalled.clone())
            .map_err(|e| EmuError::setup("signal handlers", e))?;
        sig_ids.push(id);
    }
    let outcome = drive(
        &ns,
        &mut relay,
        opts,
        (plan.bytes, plan.buffer),
        proxy.as_ref(),
        &signalled,
    );
    for id in sig_ids {
        signal_hook::low_level::unregister(id);
    }
    let (bulk, proxy_bytes, exit_codes, wall_s, cpu_s, interrupted, timed_out) = outcome?;
    for c in relay.take_captures().into_iter().flatten() {
        c.finish().map_err(|e| EmuError::run("pcap", e))?;
    }
    if let Some(h) = relay.take_hop_captures() {
        h.finish().map_err(|e| EmuError::run("pcap", e))?;
    }
    drop(ns);
    let ports = relay.network().ports();
    let queue_drops = ports.iter().map(|p| p.stats.queue_drops).sum();
    let corrupted = (
        ports.iter().map(|p| p.stats.corrupted_data).sum(),
        ports.iter().map(|p| p.stats.corrupted_acks).sum(),
    );
    let mut stats = std::mem::take(&mut relay.stats);
    let timing = Timing::of(std::mem::take(&mut stats.lateness_ns));
    Ok(EmulateResult {
        scenario: scenario.name().to_string(),
        scheme: plan.scheme,
        agents: plan.agents.iter().map(|a| a.1).collect(),
        agent_stats: relay.network().agent_stats(),
        proxy_bytes,
        cc: opts.cc,
        seed: opts.seed,
        bulk,
        exit_codes,
        relay: stats,
        timing,
        queue_drops,
        corrupted,
        wall_s,
        cpu_s,
        interrupted,
        timed_out,
        removed_stale,
        pcap_files,
    })
}

type Driven = (
    Option<BulkOutcome>,
    Option<u64>,
    (Option<i32>, Option<i32>),
    f64,
    f64,
    bool,
    bool,
);

/// Start the programs, relay until they are done, collect what they did.
fn drive(
    ns: &Namespaces,
    relay: &mut Relay,
    opts: &EmulateOptions,
    (scenario_bytes, scenario_buffer): (Option<u64>, u32),
    proxy: Option<&ProxySpec>,
    signalled: &Arc<AtomicBool>,
) -> Result<Driven, EmuError> {
    let clock = Clock::start();
    let cpu0 = cpu_seconds();
    let external = opts.stop.clone().unwrap_or_default();
    let stopping = || signalled.load(Ordering::SeqCst) || external.load(Ordering::SeqCst);
    let limit = engine::SimTime(opts.time_limit.as_nanos() as u64);
    let mut timed_out = false;
    // A split scheme's proxy listens at the base station before the programs start.
    let proxy_stop = Arc::new(AtomicBool::new(false));
    let proxy = match (proxy, &ns.base) {
        (Some(spec), Some(base)) => Some(Proxy::start(base, &ns.server, spec, proxy_stop.clone())?),
        _ => None,
    };
    let proxied = |proxy: Option<Proxy>| -> Result<Option<u64>, EmuError> {
        proxy_stop.store(true, Ordering::SeqCst);
        proxy.map(Proxy::join).transpose()
    };
    match &opts.programs {
        Programs::Bulk { bytes } => {
            let bytes = bytes.or(scenario_bytes).ok_or(EmuError::Option {
                option: "bytes",
                message: "the scenario's flow has no byte count: give --bytes".to_string(),
            })?;
            let buffer = match opts.buffer {
                Some(0) => Some(scenario_buffer),
                b => b,
            };
            let spec = BulkSpec {
                bytes,
                cc: opts.cc.name().to_string(),
                buffer,
                connect_to: ns.base.as_ref().map(|b| b.addr),
            };
            let done = Arc::new(AtomicBool::new(false));
            let stop = Arc::new(AtomicBool::new(false));
            // The relay must run while the sink and the client set up (the handshake crosses
            // it): start them, then relay.
            let bulk = Bulk::start(
                clock,
                (&ns.client, &ns.server),
                &spec,
                done.clone(),
                stop.clone(),
            )?;
            let run = relay.run(&clock, opts.realtime, || {
                if clock.now() > limit {
                    timed_out = true;
                }
                done.load(Ordering::SeqCst) || stopping() || timed_out
            });
            stop.store(true, Ordering::SeqCst);
            // Let the last ACKs and FINs through while the ends finish.
            let joined = bulk.join();
            let relayed = proxied(proxy);
            run.map_err(|e| EmuError::run("relay", e))?;
            let wall = clock.now().as_secs_f64();
            let outcome = joined?;
            Ok((
                Some(outcome),
                relayed?,
                (None, None),
                wall,
                cpu_seconds() - cpu0,
                stopping(),
                timed_out,
            ))
        }
        Programs::Commands { server, client } => {
            ns.set_congestion_control(opts.cc.name())?;
            let env = |c: &mut std::process::Command| {
                c.env("LL_SERVER_ADDR", ns.server.addr.to_string())
                    .env("LL_CLIENT_ADDR", ns.client.addr.to_string())
                    .stdin(Stdio::null());
                if let Some(b) = &ns.base {
                    c.env("LL_PROXY_ADDR", b.addr.to_string());
                }
            };
            let mut children = Children(Vec::new());
            let spawn = |netns: &str, cmd: &str, what: &'static str| {
                let mut c = exec_in(netns, cmd);
                env(&mut c);
                c.spawn().map_err(|e| EmuError::run(what, e))
            };
            let server_i = match server {
                Some(cmd) => {
                    children.0.push(spawn(&ns.server.netns, cmd, "server")?);
                    Some(children.0.len() - 1)
                }
                None => None,
            };
            let client_i = match client {
                Some(cmd) => {
                    children.0.push(spawn(&ns.client.netns, cmd, "client")?);
                    Some(children.0.len() - 1)
                }
                None => None,
            };
            let last = client_i.or(server_i);
            let mut codes = (None, None);
            let run = relay.run(&clock, opts.realtime, || {
                if clock.now() > limit {
                    timed_out = true;
                }
                let finished = match last {
                    Some(i) => matches!(children.0[i].try_wait(), Ok(Some(_))),
                    None => false,
                };
                finished || stopping() || timed_out
            });
            let code = |c: &mut Child| c.try_wait().ok().flatten().and_then(|s| s.code());
            if let Some(i) = server_i {
                codes.0 = code(&mut children.0[i]);
            }
            if let Some(i) = client_i {
                codes.1 = code(&mut children.0[i]);
            }
            drop(children);
            let relayed = proxied(proxy);
            run.map_err(|e| EmuError::run("relay", e))?;
            Ok((
                None,
                relayed?,
                codes,
                clock.now().as_secs_f64(),
                cpu_seconds() - cpu0,
                stopping(),
                timed_out,
            ))
        }
    }
}
