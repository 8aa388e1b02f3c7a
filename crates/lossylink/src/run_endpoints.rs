//! The endpoints of a run (split from `run.rs`): each flow's TCP sender and receiver built from
//! its scheme's parts and settings, with their timer phases and ISNs drawn from named streams,
//! and a split connection's wireless leg.

use crate::build::{
    AutotuneSettings, DelackSettings, FlowPlan, Net, SplitSettings, TcpSettings, TimerSettings,
};
use crate::cc::CcInit;
use crate::schemes::{self, AgentKind, ElnBase, ReceiverOptions, RecoveryKind, SchemeDef};
use engine::{NodeId, RngStream, SimDuration, SimTime};
use net::keys;
use tcp::recovery::{
    ElnRecovery, HackMode, HackRecovery, NewRenoRecovery, RackRecovery, RenoRecovery, SackRecovery,
    SmartClock, SmartRecovery, TcpElnOver, TcpElnRecovery,
};
use tcp::rto::{
    AggRto, BsdRto, BsdRtoConfig, EifelRto, LinuxRto, Ns2Rto, Ns2RtoConfig, Rfc6298Config,
    Rfc6298Rto, TickClock,
};
use tcp::spurious::Eifel;
use tcp::{
    DelayedAck, Receiver, ReceiverConfig, RecoveryPart, RtoPart, Sender, SenderConfig, SenderParts,
    SeqNum, SeqSpace,
};

/// A tick clock with a phase drawn from the node's own stream.
fn clock(seed: u64, node: NodeId, name: &str, period: SimDuration) -> TickClock {
    let mut rng = RngStream::new(seed, &keys::node_timer(node.0, name));
    TickClock {
        period,
        phase: SimDuration(rng.below(period.as_nanos().max(1))),
    }
}

/// Where an endpoint sits and what it is called in the random-stream keys.
struct Place {
    node: NodeId,
    /// Stream-key prefix of its timers: "" for a host's own stack, "proxy-" for the proxy's.
    timers: &'static str,
}

/// A sender of `total` bytes with the parts of `def` and the settings `t`.
fn make_sender(
    t: &TcpSettings,
    def: &SchemeDef,
    seed: u64,
    at: Place,
    (space, total): (SeqSpace, u64),
    (send_buffer, peer_window): (u32, u32),
) -> Sender {
    // The sender's slow timer (phase drawn per host), shared by the BSD timer and SMART's tick.
    let slow_clock = |tick| clock(seed, at.node, &format!("{}slow-timer", at.timers), tick);
    let rto: RtoPart = match t.timers {
        TimerSettings::Bsd {
            tick,
            min_ticks,
            max_ticks,
            initial_ticks,
        } => BsdRto::new(BsdRtoConfig {
            clock: slow_clock(tick),
            min_ticks,
            max_ticks,
            initial_ticks,
        })
        .into(),
        TimerSettings::Fine { min, max, initial } => Rfc6298Rto::new(Rfc6298Config {
            min,
            max,
            initial,
            granularity: SimDuration::from_millis(1),
        })
        .into(),
        TimerSettings::Linux { min, max, initial } => LinuxRto::new(min, max, initial).into(),
        TimerSettings::Eifel(cfg) => EifelRto::new(cfg).into(),
        TimerSettings::Agg(cfg) => AggRto::new(cfg).into(),
        // ns-2's `boot_time_`, uniform in one tick per agent (tcp/tcp.cc:481), is the phase of
        // the tick boundaries its samples count: drawn from the host's own stream.
        TimerSettings::Ns2 {
            tick,
            min,
            max,
            initial,
        } => Ns2Rto::new(Ns2RtoConfig {
            clock: clock(seed, at.node, &format!("{}ns2-tick", at.timers), tick),
            min,
            max,
            initial,
            timestamps: t.timestamps.is_some(),
        })
        .into(),
    };
    let base: RecoveryPart = match def.recovery {
        RecoveryKind::Reno => RenoRecovery::new(t.dupthresh)
            .with_retraction(t.exit_retraction)
            .with_bugfix(t.reno_bugfix)
            .into(),
        RecoveryKind::NewReno => NewRenoRecovery::new(t.newreno, t.dupthresh).into(),
        RecoveryKind::Smart => SmartRecovery::new(t.mss)
            .with_clock(match t.timers {
                TimerSettings::Bsd { tick, .. } if t.smart_tick => {
                    SmartClock::Ticks(slow_clock(tick))
                }
                _ => SmartClock::Fine,
            })
            .into(),
        RecoveryKind::Sack if t.rack => RackRecovery::new(t.mss, t.dupthresh).into(),
        RecoveryKind::Sack => SackRecovery::new(t.sack_sender, t.mss, t.dupthresh).into(),
        RecoveryKind::TcpEln {
            base: ElnBase::Reno,
        } => TcpElnRecovery::new(t.tcp_eln).into(),
        RecoveryKind::TcpEln {
            base: ElnBase::NewReno,
        } => TcpElnOver::new(
            Box::new(NewRenoRecovery::new(t.newreno, t.dupthresh)),
            t.tcp_eln,
            "tcp-eln-newreno",
        )
        .into(),
        RecoveryKind::TcpEln {
            base: ElnBase::Sack,
        } => TcpElnOver::new(
            Box::new(SackRecovery::new(t.sack_sender, t.mss, t.dupthresh)),
            t.tcp_eln,
            "tcp-eln-sack",
        )
        .into(),
        RecoveryKind::Esack => tcp::recovery::EsackRecovery::new(
            tcp::recovery::EsackConfig {
                dupthresh: t.dupthresh,
                filter: t.esack_filter.unwrap_or(3),
            },
            t.mss,
        )
        .into(),
        RecoveryKind::Dcr { sack: false } => tcp::recovery::DcrRecovery::new(
            Box::new(
                RenoRecovery::new(t.dupthresh)
                    .with_retraction(t.exit_retraction)
                    .with_bugfix(t.reno_bugfix),
            ),
            t.dupthresh,
            "dcr",
        )
        .into(),
        RecoveryKind::Dcr { sack: true } => tcp::recovery::DcrRecovery::new(
            Box::new(SackRecovery::new(t.sack_sender, t.mss, t.dupthresh)),
            t.dupthresh,
            "dcr-sack",
        )
        .into(),
        RecoveryKind::Hack { fixed } => HackRecovery::new(
            Box::new(NewRenoRecovery::new(t.newreno, t.dupthresh)),
            if fixed {
                HackMode::Fixed
            } else {
                HackMode::Plain
            },
            if fixed { "hack-fixed" } else { "hack" },
        )
        .with_notices(def.agent == AgentKind::Elsn)
        .into(),
        RecoveryKind::Lhp => HackRecovery::new(
            Box::new(RenoRecovery::new(t.dupthresh).with_retraction(t.exit_retraction)),
            HackMode::Fixed,
            "lhp",
        )
        .with_list_dupacks(t.lhp_list_dupacks.unwrap_or_default())
        .with_notices(def.agent == AgentKind::Elsn)
        .into(),
    };
    let recovery: RecoveryPart = match def.eln_dupthresh {
        // The wrapper holds the base part as it is built (dispatched by its variant).
        Some(k) => ElnRecovery::new(Box::new(base), k).into(),
        None => base,
    };
    let max = t.max_window();
    let parts = SenderParts {
        cc: t.cc.build(CcInit {
            mss: t.mss,
            initial_cwnd: t.initial_cwnd,
            max_window: max,
            isn: space.base.0,
        }),
        recovery,
        rto,
        eifel: t.eifel.map(|response| {
            let e = Eifel::new(response);
            match t.eifel_late_dupack {
                Some(policy) => e.with_late_dupack(policy),
                None => e,
            }
        }),
    };
    Sender::new(
        SenderConfig {
            limited_transmit: t.limited_transmit || def.limited_transmit,
            timestamps: t.timestamps,
            quench: t.quench,
            rexmt: t.rexmt,
            burst_pacer: t.burst_pacer,
            prr: t.prr,
            tlp: t.rack,
            frto: t.frto,
            syn: t.syn,
            initial_peer_window: peer_window,
            window_shift: t.window_shift(send_buffer),
            ecn: t.ecn,
            abe: t.abe,
            ersn_oldest_only: t.ersn_oldest_only,
            idle_restart: t.idle_restart,
            // Linux's Nagle (tcp_nagle_check with tcp_minshall_check) on the linux profile.
            nagle_minshall: t.linux,
            // Linux re-arms the timer when it retransmits the head (tcp_xmit_retransmit_queue).
            rearm_on_head_retransmit: t.linux,
            loss_of_window: t.loss_of_window,
            ..SenderConfig::new(t.mss, send_buffer)
        },
        parts,
        space,
        total,
    )
}

/// A receiver of `total` bytes adding the options `rx` to its ACKs.
fn make_receiver(
    t: &TcpSettings,
    rx: ReceiverOptions,
    seed: u64,
    at: Place,
    (space, total): (SeqSpace, u64),
    own_seq: SeqNum,
    (buffer, autotune): (u32, Option<tcp::Autotune>),
) -> Receiver {
    let delayed_ack = match t.delack {
        DelackSettings::Tick(period) => DelayedAck::Tick(clock(
            seed,
            at.node,
            &format!("{}fast-timer", at.timers),
            period,
        )),
        DelackSettings::Deadline(d) => DelayedAck::Deadline(d),
        DelackSettings::Off => DelayedAck::Off,
        DelackSettings::Linux(cap) => DelayedAck::Linux(cap),
    };
    Receiver::new(
        ReceiverConfig {
            sack: rx.sack,
            smart: rx.smart,
            eln: rx.eln,
            corruption_counter: rx.corruption_counter,
            nack: rx.nack,
            identify_by_header: rx.corruption_counter && t.eln_identify_by_header,
            timestamps: t.timestamps,
            // Linux tcp_select_initial_window: the shift for the largest buffer, tcp_rmem[2].
            window_shift: t.window_shift(autotune.map_or(buffer, |a| a.rmem_max)),
            ecn: t.ecn,
            window_cap: t.window_cap,
            autotune,
            ..ReceiverConfig::new(t.mss, buffer, delayed_ack)
        },
        space,
        total,
        own_seq,
    )
}

/// Data and ACK sequence bases of a connection, drawn from the stream `key`.
pub(crate) fn isns(seed: u64, key: &str) -> (SeqSpace, SeqNum) {
    let mut isn = RngStream::new(seed, key);
    let data_base = SeqNum(isn.next_u64() as u32).plus(1);
    let ack_base = SeqNum(isn.next_u64() as u32).plus(1);
    (SeqSpace { base: data_base }, ack_base)
}

/// Bytes a long-lived flow's endpoints are built for: more than any run can move (2^60 bytes
/// take three years at 100 Gb/s), so the flow never completes and runs until the end.
pub(crate) const LONG_LIVED_BYTES: u64 = 1 << 60;

/// One connection to build: its two ends, what each runs, its sequence space and buffers.
struct Conn<'a> {
    t: &'a TcpSettings,
    /// The sender's parts.
    def: &'a SchemeDef,
    /// The options the receiver adds to its ACKs.
    rx: ReceiverOptions,
    src: Place,
    dst: Place,
    space: SeqSpace,
    ack_base: SeqNum,
    bytes: u64,
    /// Sender's send buffer, the window it assumes of its peer, and the receiver's buffer.
    buffers: (u32, u32, u32),
    /// When the connection opens and its idle round trip, if the RTT estimate is seeded from
    /// the handshake (`tcp.handshake_rtt`).
    handshake: Option<(SimTime, SimDuration)>,
    /// Linux's buffer autotuning (`tcp.autotune`) on a connection between two hosts' own
    /// stacks; it then sets the buffers, not `buffers`. The split proxy's legs keep theirs.
    autotune: Option<AutotuneSettings>,
}

fn connection(c: Conn<'_>, seed: u64) -> (Sender, Receiver) {
    let (send_buffer, peer_window, rx_buffer) = match c.autotune {
        None => c.buffers,
        // The sender's buffer is tcp_wmem[2] (see docs/modern.md: tcp_sndbuf_expand keeps it
        // at twice the window's memory, so only the maximum binds); the receiver offers its
        // initial window first.
        Some(a) => {
            let w = a.rx.initial_window(c.t.mss);
            (a.wmem_max, w, w)
        }
    };
    let dst = c.dst.node;
    let mut sender = make_sender(
        c.t,
        c.def,
        seed,
        c.src,
        (c.space, c.bytes),
        (send_buffer, peer_window),
    );
    sender.set_peer_seq(c.ack_base);
    if let Some((at, rtt)) = c.handshake {
        sender.seed_rtt(at, at + rtt);
    }
    let receiver = make_receiver(
        c.t,
        c.rx,
        seed,
        Place {
            node: dst,
            timers: c.dst.timers,
        },
        (c.space, c.bytes),
        c.ack_base,
        (rx_buffer, c.autotune.map(|a| a.rx)),
    );
    (sender, receiver)
}

/// The endpoints of a connection between two hosts' own stacks running `def`.
pub(crate) fn endpoint_pair(
    t: &TcpSettings,
    def: &SchemeDef,
    seed: u64,
    (src, dst): (NodeId, NodeId),
    (space, ack_base, bytes): (SeqSpace, SeqNum, u64),
    handshake: Option<(SimTime, SimDuration)>,
) -> (Sender, Receiver) {
    let host = |node| Place { node, timers: "" };
    connection(
        Conn {
            t,
            def,
            rx: def.receiver,
            src: host(src),
            dst: host(dst),
            space,
            ack_base,
            bytes,
            buffers: (t.socket_buffer, t.socket_buffer, t.socket_buffer),
            handshake,
            autotune: t.autotune,
        },
        seed,
    )
}

/// The source's sender and the receiver at the far end of its connection (the mobile, or the
/// split proxy's wired leg).
pub(crate) fn endpoints(f: &FlowPlan, net: &Net, seed: u64) -> (Sender, Receiver) {
    let t = &f.tcp;
    let (space, ack_base) = isns(seed, &keys::flow_isn(&f.key));
    let bytes = f.bytes.unwrap_or(LONG_LIVED_BYTES);
    let Some(s) = &f.split else {
        let handshake = t
            .handshake_rtt
            .then(|| (f.start, net.idle_rtt(f.src, f.dst)));
        return endpoint_pair(
            t,
            f.scheme.def,
            seed,
            (f.src, f.dst),
            (space, ack_base, bytes),
            handshake,
        );
    };
    // The source's connection ends at the split proxy.
    connection(
        Conn {
            t,
            def: schemes::reno(),
            rx: ReceiverOptions::default(),
            src: Place {
                node: f.src,
                timers: "",
            },
            dst: Place {
                node: s.node,
                timers: "proxy-",
            },
            space,
            ack_base,
            bytes,
            buffers: (t.socket_buffer, t.socket_buffer, s.buffer),
            handshake: t
                .handshake_rtt
                .then(|| (f.start, net.idle_rtt(f.src, s.node))),
            autotune: None,
        },
        seed,
    )
}

/// The split proxy's wireless-leg sender and the mobile's receiver, in their own sequence
/// space (stream `node{n}/proxy-isn`).
pub(crate) fn wireless_leg(
    f: &FlowPlan,
    s: &SplitSettings,
    net: &Net,
    seed: u64,
) -> (Sender, Receiver) {
    let t = &s.wireless_tcp;
    let (space, ack_base) = isns(seed, &keys::proxy_isn(s.node.0, &f.key));
    connection(
        Conn {
            t,
            def: s.wireless.def,
            rx: s.wireless.def.receiver,
            src: Place {
                node: s.node,
                timers: "proxy-",
            },
            dst: Place {
                node: f.dst,
                timers: "",
            },
            space,
            ack_base,
            bytes: f.bytes.unwrap_or(LONG_LIVED_BYTES),
            buffers: (s.buffer, t.socket_buffer, t.socket_buffer),
            handshake: t
                .handshake_rtt
                .then(|| (f.start, net.idle_rtt(s.node, f.dst))),
            autotune: None,
        },
        seed,
    )
}
