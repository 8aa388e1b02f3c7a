//! The `[tcp]` section of a scenario: a profile plus optional overrides of its knobs
//! (docs/scenarios.md).

use super::{IdealBweAvailableDoc, JerseyLossDoc, TcpElnDoc};
use crate::units::{Dur, Rate, Size};
use serde::{Deserialize, Serialize};

/// Which set of TCP defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// 4.4BSD-Lite (Net/3) Reno, as in the paper's testbed.
    #[default]
    Bsd,
    /// RFC 6298 fine-grained timers (1 s minimum RTO, §2.4) and RFC 5681 congestion control.
    Modern,
    /// A current Linux sender's defaults: initial window 10, CUBIC, PRR, RACK-TLP and F-RTO,
    /// timestamps, Linux's RTO (200 ms minimum) and delayed ACKs (docs/modern.md).
    Linux,
}

/// Delayed-ACK timer style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelayedAckDoc {
    /// Global periodic fast timer (BSD).
    Tick,
    /// Per-connection deadline.
    Deadline,
    /// ACK every segment.
    Off,
    /// As Linux: quick-ack mode at the start, then every second segment or after the adaptive
    /// ACK timeout (40 ms at least, `delayed_ack_time` at most).
    Linux,
}

/// Eifel spurious-retransmission detection and response (Ludwig2000 §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EifelDoc {
    /// No detection.
    Off,
    /// The dissertation's response: restore cwnd and ssthresh.
    Dissertation,
    /// RFC 4015: restore ssthresh, limit the burst.
    Rfc4015,
}

/// Eifel's late-third-duplicate-ACK rule (Ludwig2000 §3.1.2, §5.4.5; spec §9 Q3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LateDupackDoc {
    /// Suppress the fast retransmit; ssthresh halved from the saved window, cwnd = ssthresh.
    Halve,
    /// Suppress the fast retransmit; restore the saved cwnd and ssthresh.
    Restore,
    /// No rule: the BSD fast retransmit goes ahead.
    Off,
}

/// Pacing the burst after an Eifel restore (Ludwig2000 §5.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BurstPacerDoc {
    /// The restored window goes out at once.
    Off,
    /// The released segments are spread evenly over one smoothed RTT.
    Srtt,
}

/// Which retransmission-timer estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RtoDoc {
    /// The profile's: BSD coarse ticks or RFC 6298.
    Profile,
    /// The Eifel timer (Ludwig2000 §3.3) on the timestamp clock.
    Eifel,
    /// RTO_AGG (Ludwig2000 §5.4.6): the Eifel timer scaled by a self-training factor.
    EifelAgg,
    /// ns-2.35's `Agent/TCP` timer (tcp/tcp.cc `rtt_update`, `rtt_timeout`, `rtt_backoff`):
    /// samples in whole `tcp_tick` ticks, srtt and rttvar in ns-2's fixed point.
    Ns2,
}

/// NewReno flavour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NewRenoDoc {
    /// Balakrishnan97 §2.3: cwnd = ssthresh on each partial ACK.
    Paper,
    /// RFC 6582: partial deflation, careful variant after timeouts.
    Rfc6582,
    /// ns-2.35's `Agent/TCP/Newreno`: RFC 6582's window, the retransmission timer restarted
    /// on the first partial ACK of a recovery only (`newreno_changes1_ 1`).
    Ns2,
}

/// `tcp.ersn_restart`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErsnRestartDoc {
    /// Any outstanding segment (the spec's reading).
    Outstanding,
    /// Only the oldest outstanding segment.
    Oldest,
}

/// What bounds the receiver's advertised window (`tcp.window`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WindowDoc {
    /// The 16-bit window field without scaling: at most 65535 bytes, and at most `tcp.buffer`.
    Field,
    /// ns-2's one-way TCP (`tcp/tcp-sink.cc` advertises no window; the sender's `window_` is
    /// the only bound, and the LL-ELSN study sets it "very large"): the receiver's window and
    /// the congestion window's cap are 1 GiB, so nothing but cwnd limits the sender.
    Unbounded,
}

/// When Reno's exit from fast recovery retracts cwnd to ssthresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExitRetractionDoc {
    /// Only after more than dupthresh duplicates (Net/3 `tcp_input.c`).
    Net3,
    /// On every exit (RFC 5681 §3.2 step 6).
    Always,
}

/// What the duplicates LHP's packet list keeps out of the count do to the sending (eln-llelsn
/// spec §4.11 (c) [PROPOSAL]; the source leaves it open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LhpListDupacksDoc {
    /// They keep the window: nothing new leaves until the resend is acknowledged.
    Frozen,
    /// Each lets one new segment out, without a congestion response (RFC 3042 §2).
    Clocking,
}

/// Westwood+'s bandwidth filter (eln-llelsn spec §4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WestwoodFilterDoc {
    /// ns-3's Tustin filter over per-RTT samples (the spec's proposal).
    Tustin,
    /// Linux's two cascaded EWMAs.
    Linux,
}

/// Whether the socket buffers are rounded up to a multiple of the MSS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BufferRoundingDoc {
    /// Net/3 `tcp_mss()`: `roundup(bufsize, mss)`.
    Mss,
    /// The buffer as given.
    None,
}

/// The clock of E2E-SMART's once-per-round-trip resend rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SmartRttDoc {
    /// Whole slow-timer ticks against the tick-granular smoothed RTT (BSD/OS 2.1).
    Tick,
    /// The fine-grained smoothed RTT.
    Fine,
}

/// SACK sender flavour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SackSenderDoc {
    /// Fall & Floyd 1996 "Sack1" pipe-based recovery (the spec's §2.5 default).
    FallFloyd,
    /// RFC 6675 IsLost / NextSeg rules (1)-(4) / pipe.
    Rfc6675,
    /// RFC 6675 with NextSeg rule (1) only (lossylink's earlier rule; for ablation).
    Rfc6675Basic,
}

/// TCP settings: a profile plus optional overrides of its knobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpDoc {
    /// Defaults to start from.
    #[serde(default)]
    pub profile: Profile,
    /// Maximum segment size (payload bytes).
    #[serde(default = "default_mss")]
    pub mss: u32,
    /// Socket buffer size, both ends (bounds the advertised window); not used with
    /// `tcp.autotune = "linux"` (the linux profile's default), whose sizes are its own.
    #[serde(default = "default_buffer")]
    pub buffer: Size,
    /// What bounds the window the receiver advertises: field (the 16-bit field without window
    /// scaling, at most 65535 bytes and `buffer`; default) | unbounded (ns-2's one-way TCP:
    /// `TCPSink` advertises no window, so nothing but cwnd limits the sender).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowDoc>,
    /// Slow-timer tick (bsd; 500ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow_tick: Option<Dur>,
    /// Minimum RTO (bsd: 1s; modern: 200ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rto: Option<Dur>,
    /// Maximum RTO (bsd: 64s; modern: 60s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rto: Option<Dur>,
    /// RTO before any sample (bsd: 6s; modern: 1s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_rto: Option<Dur>,
    /// Duplicate-ACK threshold (3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dupthresh: Option<u32>,
    /// Initial congestion window in segments (bsd: 1; modern: 3, RFC 5681 §3.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_cwnd: Option<u32>,
    /// Net/3's extra MSS/8 per ACK in congestion avoidance (bsd: false, see docs/calibration.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_extra_mss_over_8: Option<bool>,
    /// Delayed-ACK style (bsd: tick; modern: deadline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_ack: Option<DelayedAckDoc>,
    /// Delayed-ACK tick period or deadline (200ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_ack_time: Option<Dur>,
    /// Seed the RTT estimator with the path's idle round trip, as the SYN exchange would (true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handshake_rtt: Option<bool>,
    /// RFC 7323 timestamps on both ends (false; true when Eifel is on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamps: Option<bool>,
    /// Timestamp clock granularity (bsd: 500ms, the slow tick that drives 4.4BSD's tcp_now;
    /// modern: 1ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts_granularity: Option<Dur>,
    /// Eifel detection and response (off | dissertation | rfc4015; the `+eifel` scheme
    /// modifier selects dissertation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eifel: Option<EifelDoc>,
    /// Eifel's rule for a third duplicate ACK that arrives after a timeout already resent the
    /// segment (halve | restore | off; halve with the dissertation's response, off with
    /// rfc4015).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eifel_late_dupack: Option<LateDupackDoc>,
    /// Pace the burst an Eifel restore releases (off | srtt: evenly over one smoothed RTT;
    /// off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eifel_burst_pacer: Option<BurstPacerDoc>,
    /// RFC 3042 limited transmit (bsd: false, modern: true, RFC 5681 §3.2; the `+lt` modifier and
    /// `e2e-limited-transmit` set it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limited_transmit: Option<bool>,
    /// How an ACK that leaves data outstanding re-arms the retransmission timer (restart |
    /// precise; restart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rexmt: Option<RexmtDoc>,
    /// React to a drop by the sending host's own interface queue with 4.4BSD `tcp_quench`,
    /// cwnd = 1 MSS (bsd: true; modern: false, the loss is left to loss recovery).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quench: Option<bool>,
    /// When the ACK ending Reno's fast recovery pulls cwnd back to ssthresh (net3: only after
    /// more than dupthresh duplicates, as Net/3's tcp_input.c | always: RFC 5681; always).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_retraction: Option<ExitRetractionDoc>,
    /// ns-2's `bugFix_` for Reno recovery: no fast retransmit until the ACK passes the highest
    /// segment sent at the last one or at a timeout (one per window; false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reno_bugfix: Option<bool>,
    /// LHP's packet list (`ll-elsn-lhp`, `e2e-lhp`): a duplicate whose cumulative ACK is a
    /// notified hole never counts towards Reno's threshold; frozen: it keeps the window, so
    /// nothing new leaves until the resend is acknowledged | clocking: it lets one new segment
    /// out (RFC 3042 §2), the window inflated by one segment per such duplicate until the
    /// cumulative ACK moves (frozen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lhp_list_dupacks: Option<LhpListDupacksDoc>,
    /// The loss response halves no more than the window: `min(flight, cwnd, peer window)`
    /// instead of the flight (ns-2's `slowdown` halves `min(cwnd_, wnd_)`, tcp/tcp.cc:1252-1290,
    /// so limited transmit's segments beyond cwnd do not count, as RFC 5681 §3.2 (2) says; false:
    /// the flight, RFC 5681 eq. 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_window: Option<bool>,
    /// E2E-SMART's once-per-RTT resend rule: tick (slow-timer ticks, the bsd default) | fine
    /// (the fine smoothed RTT, the modern default; tick needs the bsd slow timer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smart_rtt: Option<SmartRttDoc>,
    /// Socket buffers rounded up to a multiple of the MSS: mss (Net/3 tcp_mss(), the bsd
    /// default) | none (the modern default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_rounding: Option<BufferRoundingDoc>,
    /// ESACK's ELN filter (ll-elsn, e2e-esack): ELNs for consecutive segments resent before
    /// the rest are left to the timer (3; 0 never filters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub esack_filter: Option<u32>,
    /// Which ERSN restarts the sender's retransmission timer (ll-elsn): outstanding (any
    /// outstanding segment, the spec's §4.2 (c); default) | oldest (only the oldest outstanding
    /// segment, the one the timer guards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ersn_restart: Option<ErsnRestartDoc>,
    /// Westwood+'s bandwidth filter: tustin (default) | linux.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub westwood_filter: Option<WestwoodFilterDoc>,
    /// NewReno flavour for schemes that use NewReno (paper | rfc6582 | ns2; bsd: paper, modern: rfc6582).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newreno: Option<NewRenoDoc>,
    /// Retransmission-timer estimator (profile | eifel | eifel-agg | ns2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rto: Option<RtoDoc>,
    /// ns-2's `tcpTick_`, the granularity of the `ns2` estimator (10ms); only with
    /// `rto = "ns2"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_tick: Option<Dur>,
    /// RTO_AGG's k, 0 < k < 1 (0.1: AGG falls about 10% per congestion-avoidance cycle); only
    /// with `rto = "eifel-agg"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rto_agg_k: Option<f64>,
    /// SACK sender for schemes that use SACK (fall-floyd | rfc6675 | rfc6675-basic; bsd:
    /// fall-floyd, modern: rfc6675).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sack_sender: Option<SackSenderDoc>,
    /// TCP-ELN's ambiguities (eln-llelsn spec §3.4), for the `tcp-eln` scheme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eln: Option<TcpElnDoc>,
    /// Proportional Rate Reduction in fast recovery, RFC 6937 (off | ssrb | crb; off, ssrb
    /// with the `+prr` modifier); SACK and NewReno schemes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prr: Option<crate::schema::PrrDoc>,
    /// RACK-TLP loss detection and tail loss probes, RFC 8985 (false; true with `+rack`);
    /// SACK schemes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<bool>,
    /// F-RTO spurious-timeout detection, RFC 5682 (false; true with `+frto`); not together
    /// with Eifel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frto: Option<bool>,
    /// Open the connection with a SYN and send data only after its SYN-ACK (false: the
    /// connection is open at the flow's start; Ludwig2000 S5, a SYN behind a loaded queue).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syn: Option<bool>,
    /// TCP-Jersey (`e2e-jersey`, `+jersey`): what a three-duplicate loss without a congestion
    /// warning does (ownd: the window from the bandwidth estimate | keep: retransmit only,
    /// spec §4.8 (b), for networks whose routers mark CW, the links' `cw_mark`; ownd).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jersey_unmarked_loss: Option<JerseyLossDoc>,
    /// JTCP (`e2e-jtcp`, `+jtcp`): jitter-ratio samples averaged (1..=1024; 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jtcp_samples: Option<u32>,
    /// TIBET (`e2e-tibet`, `+tibet`): the filter gain α, 0 < α < 1 (0.99).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tibet_alpha: Option<f64>,
    /// TIBET: the longest ACK inter-arrival time its interval filter takes (left out: every
    /// gap in full, the published filter; a counterfactual only, docs/llelsn.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tibet_max_gap: Option<Dur>,
    /// The ideal-BWE oracle (`e2e-ideal-bwe`, `+ideal-bwe`): the available rate (the slowest
    /// link on the flow's path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ideal_bwe_rate: Option<Rate>,
    /// The ideal-BWE oracle: `given` (`ideal_bwe_rate` is the available rate) or `live`
    /// (`ideal_bwe_rate` is the bottleneck's capacity, less the other flows' measured rate over
    /// the last `ideal_bwe_rtt`, on every ACK); `given`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ideal_bwe_available: Option<IdealBweAvailableDoc>,
    /// The ideal-BWE oracle: the round trip (the path's propagation round trip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ideal_bwe_rtt: Option<Dur>,
    /// RFC 7323 window scaling on both ends, the shift from each end's receive buffer (§2.3,
    /// Linux `tcp_select_initial_window`); `tcp.buffer` may then reach 1 GiB (false: the
    /// 16-bit window, `tcp.buffer` at most 65535).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_scaling: Option<bool>,
    /// RFC 3168 ECN on both ends: ECT on new data, CE echoed with ECE until CWR, one window
    /// reduction per window of data (false; the `+ecn` modifier sets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecn: Option<bool>,
    /// Slow-start restart after an idle period longer than the RTO, RFC 5681 §4.1 (Linux
    /// `net.ipv4.tcp_slow_start_after_idle`; the rule is Linux's `tcp_cwnd_restart` on the
    /// linux profile, RFC 5681's restart window otherwise; false, true on the linux profile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow_start_after_idle: Option<bool>,
    /// CUBIC's slow-start exit: HyStart++ (RFC 9406, the RTT-based exit with Conservative Slow
    /// Start) or Linux's HyStart (ACK train and delay rise) (off | rfc9406 | linux; off, linux
    /// on the linux profile); CUBIC schemes only, with timestamps for its RTT samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hystart: Option<HystartDoc>,
    /// How CUBIC's Reno-friendly estimate grows (rfc9438 | linux; rfc9438, linux on the linux
    /// profile): RFC 9438 §4.3's α = 9/17 until the window before the reduction, then 1; or
    /// Linux's `tcp_cubic.c`, 8/15 throughout. CUBIC schemes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubic_friendly: Option<CubicFriendlyDoc>,
    /// RFC 8511 ABE with `tcp.ecn`: an ECN-Echo reduces the window by β_ecn instead of the
    /// loss β (false: RFC 3168's response; Reno-family and CUBIC controllers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abe: Option<bool>,
    /// ABE's β_ecn, 0.5 <= β_ecn < 1, at most three decimals (0.8, RFC 8511 §3.1; 0.85 for
    /// CUBIC); setting it turns `tcp.abe` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta_ecn: Option<f64>,
    /// Receive-buffer autotuning (off: both socket buffers are `tcp.buffer` | linux: Linux's
    /// DRS, `tcp_rcv_space_adjust`, from `tcp.rmem_default` up to `tcp.rmem_max`, and a send
    /// buffer of `tcp.wmem_max`; off, linux on the linux profile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autotune: Option<AutotuneDoc>,
    /// Autotuning's initial receive buffer, Linux `tcp_rmem[1]` (131072).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rmem_default: Option<Size>,
    /// Autotuning's largest receive buffer, Linux `tcp_rmem[2]` (32 MiB, Linux 6.16; 6 MiB
    /// before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rmem_max: Option<Size>,
    /// Autotuning's send buffer, Linux `tcp_wmem[2]` (4 MiB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wmem_max: Option<Size>,
}

/// Socket-buffer autotuning (`tcp.autotune`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AutotuneDoc {
    /// Fixed buffers of `tcp.buffer`.
    Off,
    /// Linux's receive-buffer autotuning (DRS) and send-buffer maximum.
    Linux,
}

/// CUBIC's Reno-friendly estimate (`tcp.cubic_friendly`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CubicFriendlyDoc {
    /// RFC 9438 §4.3.
    Rfc9438,
    /// Linux's `tcp_cubic.c`.
    Linux,
}

/// CUBIC's slow-start exit (`tcp.hystart`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HystartDoc {
    /// Plain slow start until the first loss or ssthresh.
    Off,
    /// HyStart++ (RFC 9406).
    Rfc9406,
    /// Linux's HyStart (`tcp_cubic.c`: ACK train and delay rise).
    Linux,
}

fn default_mss() -> u32 {
    1400
}
fn default_buffer() -> Size {
    Size(32 * 1024)
}

impl Default for TcpDoc {
    fn default() -> Self {
        TcpDoc {
            profile: Profile::Bsd,
            mss: default_mss(),
            buffer: default_buffer(),
            window: None,
            slow_tick: None,
            min_rto: None,
            max_rto: None,
            initial_rto: None,
            dupthresh: None,
            initial_cwnd: None,
            ca_extra_mss_over_8: None,
            delayed_ack: None,
            delayed_ack_time: None,
            handshake_rtt: None,
            timestamps: None,
            ts_granularity: None,
            eifel: None,
            eifel_late_dupack: None,
            eifel_burst_pacer: None,
            limited_transmit: None,
            quench: None,
            rexmt: None,
            exit_retraction: None,
            reno_bugfix: None,
            lhp_list_dupacks: None,
            loss_window: None,
            smart_rtt: None,
            buffer_rounding: None,
            esack_filter: None,
            ersn_restart: None,
            westwood_filter: None,
            newreno: None,
            rto: None,
            tcp_tick: None,
            rto_agg_k: None,
            sack_sender: None,
            eln: None,
            prr: None,
            rack: None,
            frto: None,
            syn: None,
            jersey_unmarked_loss: None,
            jtcp_samples: None,
            tibet_alpha: None,
            tibet_max_gap: None,
            ideal_bwe_rate: None,
            ideal_bwe_available: None,
            ideal_bwe_rtt: None,
            window_scaling: None,
            ecn: None,
            slow_start_after_idle: None,
            hystart: None,
            cubic_friendly: None,
            abe: None,
            beta_ecn: None,
            autotune: None,
            rmem_default: None,
            rmem_max: None,
            wmem_max: None,
        }
    }
}

/// Re-arming the retransmission timer on an ACK that leaves data outstanding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RexmtDoc {
    /// The full RTO from the ACK (4.4BSD, RFC 6298 §5.3).
    Restart,
    /// The RTO minus the age of the oldest outstanding segment (Ludwig2000 §5.4.5).
    Precise,
}
