//! The fixed knobs of a sender ([`SenderConfig`]) and how it re-arms its timer ([`Rexmt`]).

use crate::recovery::PrrBound;
use engine::SimDuration;

/// Fixed knobs of a sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderConfig {
    /// Maximum segment size (payload bytes).
    pub mss: u32,
    /// Send socket buffer in bytes: bounds unacknowledged plus unsent data.
    pub send_buffer: u32,
    /// Window the peer is assumed to advertise before its first ACK.
    pub initial_peer_window: u32,
    /// RFC 3042 limited transmit: a new segment on each of the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// RFC 7323 timestamps, with this clock granularity (None: no timestamps).
    pub timestamps: Option<SimDuration>,
    /// How the retransmission timer is re-armed when an ACK advances `snd_una`.
    pub rexmt: Rexmt,
    /// Spread the burst an Eifel restore releases over one smoothed RTT (Ludwig2000 §5.2.2).
    pub burst_pacer: bool,
    /// React to a drop by the host's own interface queue as 4.4BSD `tcp_quench` does
    /// (cwnd = 1 MSS, Ludwig2000 §2.3); otherwise the drop is left to the loss recovery.
    pub quench: bool,
    /// Proportional Rate Reduction (RFC 6937) during fast recovery, with this reduction bound
    /// (None: the recovery part's own window rules).
    pub prr: Option<PrrBound>,
    /// Tail loss probes (RFC 8985 §7), for a SACK sender with RACK.
    pub tlp: bool,
    /// F-RTO spurious-timeout detection (RFC 5682), beside or instead of Eifel.
    pub frto: bool,
    /// Open the connection with a SYN and wait for the SYN-ACK before any data (`syn.rs`);
    /// otherwise it is open at start.
    pub syn: bool,
    /// RFC 7323 window scaling with this shift for the window the sender advertises (and in its
    /// SYN's option); None: the 16-bit window. The peer's windows arrive in bytes.
    pub window_shift: Option<u8>,
    /// RFC 3168 ECN: ECT on new data, the once-per-window response to ECE, CWR (`ecn.rs`).
    pub ecn: bool,
    /// RFC 8511 ABE: with `ecn`, an ECE reduces the window by this β_ecn in thousandths (800:
    /// §3.1's 0.8) instead of the controller's loss β; None: RFC 3168's response.
    pub abe: Option<u16>,
    /// LL-ELSN's ERSN restarts the retransmission timer only when it names the oldest
    /// outstanding segment (the one the timer guards), not any outstanding one (the spec's
    /// §4.2 (c) reading, the default).
    pub ersn_oldest_only: bool,
    /// Slow-start restart after an idle period longer than the RTO (RFC 5681 §4.1, Linux
    /// `tcp_slow_start_after_idle`), with this rule; None: the window survives idle periods.
    pub idle_restart: Option<super::IdleRestart>,
    /// Nagle with Minshall's modification (Linux `tcp_nagle_check`, `tcp_minshall_check`): the
    /// short last piece of what was written goes at once unless a short segment sent earlier
    /// is still unacknowledged; otherwise (BSD `tcp_output`, RFC 896) only when nothing is
    /// outstanding.
    pub nagle_minshall: bool,
    /// Re-arm the retransmission timer with the full RTO when the oldest outstanding segment
    /// (`snd_una`) is retransmitted, unless RACK's reordering timer is pending (Linux
    /// net/ipv4/tcp_output.c, `tcp_xmit_retransmit_queue`: `skb == rtx_head &&
    /// icsk_pending != ICSK_TIME_REO_TIMEOUT` → `tcp_reset_xmit_timer(.., icsk_rto, ..)`);
    /// otherwise the timer runs on from the last ACK that advanced `snd_una` (RFC 6298 §5.1,
    /// §5.3, 4.4BSD).
    pub rearm_on_head_retransmit: bool,
    /// The loss response (fast retransmit, timeout) takes the window, not the whole flight:
    /// the congestion controller is given `min(flight, cwnd, peer window)` as the flight.
    /// ns-2's `slowdown` halves `windowd()`, `min(cwnd_, wnd_)` (tcp/tcp.cc:1252-1290), so the
    /// segments `singledup_` sent beyond cwnd (tcp.cc:1596-1607) and a go-back-N flight left
    /// over from a timeout do not count; RFC 5681 §3.2 (2) likewise leaves the data sent by
    /// limited transmit out of FlightSize. Otherwise (the default) the flight, RFC 5681 eq. 4,
    /// less at a fast retransmit what limited transmit sent beyond cwnd (RFC 5681 §3.2 (2)).
    pub loss_of_window: bool,
}

impl SenderConfig {
    /// A configuration with the BSD defaults: no limited transmit, no timestamps,
    /// `tcp_quench` on local drops.
    pub fn new(mss: u32, buffer: u32) -> Self {
        SenderConfig {
            mss,
            send_buffer: buffer,
            initial_peer_window: buffer,
            limited_transmit: false,
            timestamps: None,
            quench: true,
            rexmt: Rexmt::Restart,
            burst_pacer: false,
            prr: None,
            tlp: false,
            frto: false,
            syn: false,
            window_shift: None,
            ecn: false,
            abe: None,
            ersn_oldest_only: false,
            idle_restart: None,
            nagle_minshall: false,
            rearm_on_head_retransmit: false,
            loss_of_window: false,
        }
    }
}

/// Re-arming the retransmission timer on an ACK that leaves data outstanding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rexmt {
    /// With the full RTO from the ACK's arrival (4.4BSD, RFC 6298 §5.3): the timer lies about
    /// one RTT above the RTO (Ludwig2000 §5.3.3, the "REXMT-restart bug").
    #[default]
    Restart,
    /// RTO minus the age of the oldest outstanding segment (Ludwig2000 §5.4.5, REXMT_E).
    Precise,
}
