//! TCP settings of a scenario: the profile's defaults (`bsd`, `modern`), the `[tcp]` overrides
//! and the scheme's `+` modifiers, validated into [`TcpSettings`].

use crate::cc::{self, CcKind};
use crate::error::Error;
use crate::schema::*;
use crate::schemes::Modifiers;
use engine::SimDuration;
use tcp::recovery::{
    ElnBasis, ElnExpected, ElnResend, ExitRetraction, ListDupacks, NewRenoFlavor, PrrBound,
    SackFlavor, TcpElnConfig,
};
use tcp::rto::{AggRtoConfig, EifelRtoConfig, Sampling};

use tcp::spurious::{EifelResponse, LateDupack};

mod abe_autotune;
mod recovery;
mod timers;
pub(crate) use abe_autotune::AutotuneSettings;
pub(crate) use recovery::{check_eln_knobs, check_parts, fit_profile};
use tcp::{IdleRestart, Rexmt};
use timers::{agg_k, ns2_timers, ticks};
pub(crate) use timers::{DelackSettings, TimerSettings};

/// The window of `tcp.window = "unbounded"` (ns-2's one-way TCP, whose sink advertises no
/// window): 1 GiB, far above any flight these links hold, and still a `u32` in bytes.
pub(crate) const UNBOUNDED_WINDOW: u32 = 1 << 30;

/// TCP settings after profile defaults and overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TcpSettings {
    pub mss: u32,
    /// `tcp.buffer` as given (reported in results).
    pub buffer: u32,
    /// The socket buffers the endpoints get: `buffer`, rounded up to a multiple of the MSS on
    /// the bsd profile (Net/3 `tcp_mss()`: `bufsize = roundup(bufsize, mss)`).
    pub socket_buffer: u32,
    /// The largest window: the receiver's advertised window and the congestion window's cap
    /// (65535 without window scaling; [`UNBOUNDED_WINDOW`] with `tcp.window = "unbounded"`).
    pub window_cap: u32,
    pub timers: TimerSettings,
    /// The congestion controller with its settings.
    pub cc: CcKind,
    pub dupthresh: u32,
    pub initial_cwnd: u32,
    pub delack: DelackSettings,
    pub handshake_rtt: bool,
    /// Open with a SYN (`tcp.syn`); the estimator is then not seeded.
    pub syn: bool,
    /// Timestamp clock granularity, if timestamps are on.
    pub timestamps: Option<SimDuration>,
    pub eifel: Option<EifelResponse>,
    /// Eifel's late-third-duplicate-ACK rule, when `tcp.eifel_late_dupack` is given (the
    /// response's default otherwise).
    pub eifel_late_dupack: Option<LateDupack>,
    pub limited_transmit: bool,
    /// `tcp_quench` on a local interface-queue drop (Ludwig2000 §2.3).
    pub quench: bool,
    pub rexmt: Rexmt,
    /// Pace the burst after an Eifel restore over one smoothed RTT.
    pub burst_pacer: bool,
    pub newreno: NewRenoFlavor,
    pub sack_sender: SackFlavor,
    /// TCP-ELN's knobs (`tcp.eln`).
    pub tcp_eln: TcpElnConfig,
    /// `tcp.eln.ident = "single-conn"`: the receiving host must have only this connection.
    pub eln_single_conn: bool,
    /// `tcp.eln.identify = "hack"`: TCP-ELN's receiver counts a corrupted frame only if its
    /// header survived (HACK header checksum, eln-llelsn spec §3.2 `hack_header`).
    pub eln_identify_by_header: bool,
    /// `tcp.esack_filter`, if given (ESACK's default is 3).
    pub esack_filter: Option<u32>,
    /// `tcp.ersn_restart = "oldest"`.
    pub ersn_oldest_only: bool,
    /// Reno's cwnd retraction at the end of fast recovery.
    pub exit_retraction: ExitRetraction,
    /// ns-2's `bugFix_` on Reno recovery (`tcp.reno_bugfix`).
    pub reno_bugfix: bool,
    /// `tcp.lhp_list_dupacks`, if given (LHP's packet list; frozen by default).
    pub lhp_list_dupacks: Option<ListDupacks>,
    /// The loss response halves no more than the window (`tcp.loss_window`, ns-2's `slowdown`).
    pub loss_of_window: bool,
    /// E2E-SMART's once-per-RTT rule counts slow-timer ticks (`tcp.smart_rtt = "tick"`).
    pub smart_tick: bool,
    /// Proportional Rate Reduction in fast recovery (RFC 6937), with its reduction bound.
    pub prr: Option<PrrBound>,
    /// RACK-TLP instead of the SACK sender's loss detection (RFC 8985).
    pub rack: bool,
    /// F-RTO spurious-timeout detection (RFC 5682).
    pub frto: bool,
    /// The `linux` profile: its RACK-TLP and PRR defaults apply where the scheme carries them.
    pub linux: bool,
    /// RFC 7323 window scaling on both ends (`tcp.window_scaling`).
    pub window_scaling: bool,
    /// RFC 3168 ECN on both ends (`tcp.ecn`, `+ecn`).
    pub ecn: bool,
    /// Slow-start restart after idle (`tcp.slow_start_after_idle`, RFC 5681 §4.1).
    pub idle_restart: Option<IdleRestart>,
    /// RFC 8511 ABE's β_ecn in thousandths (`tcp.abe`, `tcp.beta_ecn`).
    pub abe: Option<u16>,
    /// Linux's socket-buffer autotuning (`tcp.autotune`); the buffers are then not `buffer`.
    pub autotune: Option<AutotuneSettings>,
}

impl TcpSettings {
    /// The window shift an end with a `buffer`-byte receive buffer announces, if scaling is on.
    pub fn window_shift(&self, buffer: u32) -> Option<u8> {
        self.window_scaling.then(|| tcp::wscale::shift_for(buffer))
    }

    /// The congestion window's cap and initial ssthresh: the largest window the peer can
    /// advertise (RFC 5681 §3.1: ssthresh "arbitrarily high ... the size of the largest
    /// possible advertised window"): 65 535, or 65 535 · 2^14 with window scaling.
    pub fn max_window(&self) -> u32 {
        tcp::wscale::max_window(self.window_scaling.then_some(tcp::wscale::MAX_SHIFT))
            .max(self.window_cap)
    }
}

pub(crate) fn tcp_settings(doc: &TcpDoc, mods: Modifiers) -> Result<TcpSettings, Error> {
    let mut owned = doc.clone();
    // A scheme's modifiers choose at most one profile (`schemes/modifiers.rs`).
    if let Some(profile) = mods.profile {
        owned.profile = profile;
    }
    let t = &owned;
    if !(64..=65495).contains(&t.mss) {
        return Err(Error::invalid(
            "tcp.mss",
            format!("{} is outside 64..=65495 bytes", t.mss),
        ));
    }
    // Linux's net.ipv4.tcp_window_scaling = 1 on the linux profile.
    let window_scaling = t.window_scaling.unwrap_or(t.profile == Profile::Linux);
    if window_scaling && (t.buffer.0 < u64::from(t.mss) || t.buffer.0 > 1 << 30) {
        return Err(Error::invalid(
            "tcp.buffer",
            format!(
                "{} bytes is outside mss..=1GiB (with window scaling)",
                t.buffer.0
            ),
        ));
    }
    if !window_scaling && (t.buffer.0 < u64::from(t.mss) || t.buffer.0 > 65535) {
        return Err(Error::invalid(
            "tcp.buffer",
            format!(
                "{} bytes is outside mss..=65535 (no window scaling; tcp.window_scaling = true \
                 allows up to 1GiB)",
                t.buffer.0
            ),
        ));
    }
    let dupthresh = t.dupthresh.unwrap_or(3);
    if dupthresh == 0 {
        return Err(Error::invalid("tcp.dupthresh", "must be at least 1"));
    }
    let linux = t.profile == Profile::Linux;
    let modern = t.profile == Profile::Modern || linux;
    // RFC 5681 §3.1 for modern; Linux's TCP_INIT_CWND (RFC 6928) for linux.
    let initial_cwnd = t.initial_cwnd.unwrap_or(if linux {
        10
    } else if modern {
        3
    } else {
        1
    });
    if initial_cwnd == 0 || u64::from(initial_cwnd) * u64::from(t.mss) > 65535 {
        return Err(Error::invalid(
            "tcp.initial_cwnd",
            "must be at least 1 segment and at most 65535 bytes",
        ));
    }
    let ms = |v: u64| SimDuration::from_millis(v);
    let timers = match t.profile {
        Profile::Bsd => {
            let tick = t.slow_tick.map_or(500_000_000, |d| d.0);
            if tick == 0 {
                return Err(Error::invalid("tcp.slow_tick", "must be greater than zero"));
            }
            let min_ticks = ticks("tcp.min_rto", t.min_rto, tick, 2)?;
            let max_ticks = ticks("tcp.max_rto", t.max_rto, tick, 128)?;
            let initial_ticks = ticks("tcp.initial_rto", t.initial_rto, tick, 12)?;
            if min_ticks > max_ticks {
                return Err(Error::invalid("tcp.min_rto", "must not exceed tcp.max_rto"));
            }
            TimerSettings::Bsd {
                tick: SimDuration(tick),
                min_ticks,
                max_ticks,
                initial_ticks,
            }
        }
        Profile::Modern | Profile::Linux => {
            if t.slow_tick.is_some() {
                return Err(Error::invalid(
                    "tcp.slow_tick",
                    "only the bsd profile has a slow timer",
                ));
            }
            // RFC 6298 §2.4: "RTO SHOULD be rounded up to 1 second" for `modern`, one
            // consistent RFC stack (its receiver delays ACKs up to 200 ms with no quick-ack, so a
            // 200 ms floor would time out on a lone segment's delayed ACK); Linux's 200 ms
            // TCP_RTO_MIN (include/net/tcp.h) for `linux`, which pairs it with quick-ack.
            let min = t
                .min_rto
                .map_or(if linux { ms(200) } else { ms(1000) }, |d| SimDuration(d.0));
            // Linux's TCP_RTO_MAX is 120 s; RFC 6298 §2.5 asks for at least 60 s.
            let max = t
                .max_rto
                .map_or(SimDuration::from_secs(if linux { 120 } else { 60 }), |d| {
                    SimDuration(d.0)
                });
            let initial = t
                .initial_rto
                .map_or(SimDuration::from_secs(1), |d| SimDuration(d.0));
            if min.as_nanos() == 0 || min > max {
                return Err(Error::invalid(
                    "tcp.min_rto",
                    "must be positive and not exceed tcp.max_rto",
                ));
            }
            if linux {
                TimerSettings::Linux { min, max, initial }
            } else {
                TimerSettings::Fine { min, max, initial }
            }
        }
    };
    // The scheme's controller or the profile's, with its `[tcp]` knobs (`cc.rs`).
    let cc = cc::settle(t, mods.cc)?;
    let delack_time = t.delayed_ack_time.map_or(ms(200), |d| SimDuration(d.0));
    if delack_time.as_nanos() == 0 {
        return Err(Error::invalid(
            "tcp.delayed_ack_time",
            "must be greater than zero",
        ));
    }
    let delack = match t.delayed_ack.unwrap_or(if linux {
        DelayedAckDoc::Linux
    } else if modern {
        DelayedAckDoc::Deadline
    } else {
        DelayedAckDoc::Tick
    }) {
        DelayedAckDoc::Tick => DelackSettings::Tick(delack_time),
        DelayedAckDoc::Deadline => DelackSettings::Deadline(delack_time),
        DelayedAckDoc::Off => DelackSettings::Off,
        DelayedAckDoc::Linux => DelackSettings::Linux(delack_time),
    };
    let eifel = match (t.eifel, mods.eifel) {
        (Some(EifelDoc::Rfc4015), _) => Some(EifelResponse::Rfc4015),
        (Some(EifelDoc::Dissertation), _) | (None, true) => Some(EifelResponse::Dissertation),
        (Some(EifelDoc::Off), true) => {
            return Err(Error::invalid(
                "tcp.eifel",
                "is off but the scheme asks for +eifel; drop one of them",
            ))
        }
        (Some(EifelDoc::Off) | None, false) => None,
    };
    let timestamps = match (t.timestamps, eifel) {
        (Some(false), Some(_)) => {
            return Err(Error::invalid(
                "tcp.timestamps",
                "Eifel detects spurious retransmissions from timestamps; it cannot be false with tcp.eifel on",
            ))
        }
        (Some(true), _) | (None, Some(_)) => true,
        // Linux sends timestamps by default (net.ipv4.tcp_timestamps = 1).
        (None, None) => linux,
        (Some(false), None) => false,
    };
    // RFC 9406 §4.2 needs N_RTT_SAMPLE RTT samples per round; without timestamps the sender
    // times one segment per round trip (Karn), so HyStart++ could never decide: an error when
    // asked for, and the linux profile's default gives way.
    let cc = match cc {
        CcKind::Cubic(tcp::cc::Hystart::Rfc9406 | tcp::cc::Hystart::Linux, friendly)
            if !timestamps =>
        {
            if t.hystart.is_some() {
                return Err(Error::invalid(
                    "tcp.hystart",
                    "HyStart needs an RTT sample on every ACK: set tcp.timestamps = true (the linux profile has them)",
                ));
            }
            CcKind::Cubic(tcp::cc::Hystart::Off, friendly)
        }
        cc => cc,
    };
    let ts_granularity = t
        .ts_granularity
        .map_or(if modern { ms(1) } else { ms(500) }, |d| SimDuration(d.0));
    if ts_granularity.as_nanos() == 0 {
        return Err(Error::invalid(
            "tcp.ts_granularity",
            "must be greater than zero",
        ));
    }
    if t.tcp_tick.is_some() && t.rto != Some(RtoDoc::Ns2) {
        return Err(Error::invalid(
            "tcp.tcp_tick",
            "is ns-2's tcpTick_, the granularity of tcp.rto = \"ns2\"; set that or leave it out",
        ));
    }
    let timers = match t.rto {
        None | Some(RtoDoc::Profile) => timers,
        Some(RtoDoc::Ns2) => ns2_timers(t)?,
        Some(RtoDoc::Eifel | RtoDoc::EifelAgg) => {
            let (max, initial) = match timers {
                TimerSettings::Bsd {
                    tick,
                    max_ticks,
                    initial_ticks,
                    ..
                } => (
                    tick.saturating_mul(u64::from(max_ticks)),
                    tick.saturating_mul(u64::from(initial_ticks)),
                ),
                TimerSettings::Fine { max, initial, .. }
                | TimerSettings::Linux { max, initial, .. } => (max, initial),
                TimerSettings::Eifel(c) => (c.max, c.initial),
                TimerSettings::Agg(c) => (c.eifel.max, c.eifel.initial),
                TimerSettings::Ns2 { max, initial, .. } => (max, initial),
            };
            let eifel = EifelRtoConfig {
                granularity: ts_granularity,
                max,
                initial,
                // Ludwig2000 §3.3: the gain follows the RTT sampling rate.
                sampling: match (timestamps, delack) {
                    (false, _) => Sampling::OncePerRtt,
                    (true, DelackSettings::Off) => Sampling::EveryAck,
                    (true, _) => Sampling::DelayedAck,
                },
            };
            match t.rto {
                Some(RtoDoc::EifelAgg) => TimerSettings::Agg(AggRtoConfig {
                    eifel,
                    k: agg_k(t.rto_agg_k)?,
                }),
                _ => TimerSettings::Eifel(eifel),
            }
        }
    };
    // Balakrishnan97 spec §2.4 leaves SMART's RTT clock open; BSD/OS 2.1 had only ticks.
    let smart_tick = match t.smart_rtt {
        None => matches!(timers, TimerSettings::Bsd { .. }),
        Some(SmartRttDoc::Fine) => false,
        Some(SmartRttDoc::Tick) if matches!(timers, TimerSettings::Bsd { .. }) => true,
        Some(SmartRttDoc::Tick) => return Err(Error::invalid(
            "tcp.smart_rtt",
            "\"tick\" needs the bsd profile's slow timer (and tcp.rto = \"profile\"); use \"fine\"",
        )),
    };
    if t.rto_agg_k.is_some() && t.rto != Some(RtoDoc::EifelAgg) {
        return Err(Error::invalid(
            "tcp.rto_agg_k",
            "belongs to the RTO_AGG timer; set tcp.rto = \"eifel-agg\" or leave it out",
        ));
    }
    let prr = recovery::prr(t.prr, mods, linux)?;
    let rack = recovery::rack(t.rack, mods, linux)?;
    if t.syn == Some(true) && t.handshake_rtt == Some(true) {
        return Err(Error::invalid(
            "tcp.handshake_rtt",
            "seeds the estimator with a handshake that tcp.syn models itself; leave one out",
        ));
    }
    let frto = recovery::frto(t.frto, mods, eifel.is_some(), linux)?;
    let ecn = t.ecn.unwrap_or(false) || mods.ecn;
    let abe = abe_autotune::abe(t, cc, ecn)?;
    let autotune = abe_autotune::autotune(t, linux)?;
    Ok(TcpSettings {
        abe,
        autotune,
        timestamps: timestamps.then_some(ts_granularity),
        eifel,
        eifel_late_dupack: t.eifel_late_dupack.map(|p| match p {
            LateDupackDoc::Halve => LateDupack::Halve,
            LateDupackDoc::Restore => LateDupack::Restore,
            LateDupackDoc::Off => LateDupack::Off,
        }),
        // RFC 5681 §3.2: a sender SHOULD use limited transmit (RFC 3042); 4.4BSD had none.
        limited_transmit: t.limited_transmit.unwrap_or(modern) || mods.limited_transmit,
        quench: t.quench.unwrap_or(!modern),
        burst_pacer: t.eifel_burst_pacer == Some(BurstPacerDoc::Srtt),
        rexmt: match t.rexmt {
            None | Some(RexmtDoc::Restart) => Rexmt::Restart,
            Some(RexmtDoc::Precise) => Rexmt::Precise,
        },
        // Today's NewReno is RFC 6582 and today's SACK recovery RFC 6675;
        // the bsd profile keeps the paper's 1997 senders.
        newreno: match t.newreno {
            None if modern => NewRenoFlavor::Rfc6582,
            None | Some(NewRenoDoc::Paper) => NewRenoFlavor::Paper,
            Some(NewRenoDoc::Rfc6582) => NewRenoFlavor::Rfc6582,
            Some(NewRenoDoc::Ns2) => NewRenoFlavor::Ns2,
        },
        sack_sender: match t.sack_sender {
            None if modern => SackFlavor::Rfc6675,
            // RFC 6937 is specified over RFC 6675's pipe: PRR picks that sender unless told.
            None if prr.is_some() => SackFlavor::Rfc6675,
            None | Some(SackSenderDoc::FallFloyd) => SackFlavor::FallFloyd,
            Some(SackSenderDoc::Rfc6675) => SackFlavor::Rfc6675,
            Some(SackSenderDoc::Rfc6675Basic) => SackFlavor::Rfc6675Basic,
        },
        smart_tick,
        // Net/3 tcp_input.c on the bsd profile (retract only after more than tcprexmtthresh
        // duplicates); RFC 5681 §3.2 step 6 on modern. See docs/calibration.md for the cells.
        exit_retraction: match t.exit_retraction {
            None if !modern => ExitRetraction::Net3,
            None | Some(ExitRetractionDoc::Always) => ExitRetraction::Always,
            Some(ExitRetractionDoc::Net3) => ExitRetraction::Net3,
        },
        reno_bugfix: t.reno_bugfix.unwrap_or(false),
        lhp_list_dupacks: t.lhp_list_dupacks.map(|d| match d {
            LhpListDupacksDoc::Frozen => ListDupacks::Frozen,
            LhpListDupacksDoc::Clocking => ListDupacks::Clocking,
        }),
        loss_of_window: t.loss_window.unwrap_or(false),
        prr,
        rack,
        frto,
        linux,
        window_scaling,
        ecn,
        // RFC 5681 §4.1 SHOULD, and Linux's tcp_slow_start_after_idle = 1: on by default on the
        // linux profile (with Linux's tcp_cwnd_restart), opt-in elsewhere (on `modern` it would
        // change the golden row eln5-split-per-flow, whose proxies' wireless legs go idle;
        // docs/modern.md). On the bsd profile: 4.4BSD tcp_output had the test (cwnd = 1 segment once t_idle >= t_rxtcur,
        // idle counted from the last segment received), which `true` there approximates with
        // IW = 1 and the idle time counted from the last send.
        idle_restart: t.slow_start_after_idle.unwrap_or(linux).then(|| {
            let iw = initial_cwnd * t.mss;
            if linux {
                IdleRestart::Linux { iw }
            } else {
                IdleRestart::Rfc5681 { iw }
            }
        }),
        tcp_eln: tcp_eln(t.eln.as_ref(), dupthresh),
        eln_single_conn: t.eln.as_ref().and_then(|e| e.ident) == Some(ElnIdentDoc::SingleConn),
        eln_identify_by_header: t.eln.as_ref().and_then(|e| e.ident) == Some(ElnIdentDoc::Hack),
        esack_filter: t.esack_filter,
        ersn_oldest_only: t.ersn_restart == Some(ErsnRestartDoc::Oldest),
        mss: t.mss,
        buffer: t.buffer.0 as u32,
        window_cap: match t.window {
            Some(WindowDoc::Unbounded) => UNBOUNDED_WINDOW,
            None | Some(WindowDoc::Field) => 65535,
        },
        socket_buffer: if t.window == Some(WindowDoc::Unbounded) {
            UNBOUNDED_WINDOW
        } else {
            match t.buffer_rounding.unwrap_or(match t.profile {
                Profile::Bsd => BufferRoundingDoc::Mss,
                Profile::Modern | Profile::Linux => BufferRoundingDoc::None,
            }) {
                // Net/3 tcp_mss(): both socket buffers become a multiple of the segment size it
                // computes, which does not yet subtract the 12-byte timestamp option (Ludwig2000's
                // testbed advertised 8496 = 18 x 472 for 460-byte segments, spec §2.1); at most
                // sb_max, 256 KiB, and the window field still caps what is advertised at 65535.
                BufferRoundingDoc::Mss => {
                    let unit = u64::from(t.mss) + if timestamps { 12 } else { 0 };
                    (t.buffer.0.div_ceil(unit) * unit) as u32
                }
                BufferRoundingDoc::None => t.buffer.0 as u32,
            }
        },
        timers,
        cc,
        dupthresh,
        initial_cwnd: initial_cwnd * t.mss,
        delack,
        handshake_rtt: t.handshake_rtt.unwrap_or(true) && t.syn != Some(true),
        syn: t.syn.unwrap_or(false),
    })
}

/// `tcp.eln` into TCP-ELN's knobs (spec §3.4 defaults where left out).
fn tcp_eln(d: Option<&TcpElnDoc>, dupthresh: u32) -> TcpElnConfig {
    let d = d.cloned().unwrap_or_default();
    TcpElnConfig {
        dupthresh,
        resend: match d.resend {
            None | Some(ElnResendDoc::Contiguous) => ElnResend::Contiguous,
            Some(ElnResendDoc::First) => ElnResend::FirstOnly,
        },
        expected: match d.expected {
            None | Some(ElnExpectedDoc::Outstanding) => ElnExpected::Outstanding,
            Some(ElnExpectedDoc::OutstandingMinusOne) => ElnExpected::OutstandingMinusOne,
            Some(ElnExpectedDoc::OutstandingMinusTwo) => ElnExpected::OutstandingMinusTwo,
        },
        basis: match d.basis {
            None | Some(ElnBasisDoc::SavedCwnd) => ElnBasis::SavedCwnd,
            Some(ElnBasisDoc::Controller) => ElnBasis::Controller,
        },
        eager: d.in_recovery == Some(ElnModeDoc::Eager),
        sync: d.counter == Some(ElnCounterDoc::Sync),
        inflate_trigger: d.inflate_trigger.unwrap_or(false),
    }
}

#[cfg(test)]
mod tests;
