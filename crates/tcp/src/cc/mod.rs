//! Congestion control: one decision, "how many bytes may be in flight" (`cwnd`, `ssthresh`).
//!
//! The sender tells a controller what happened through small value structs and never hands it
//! the sender itself (DESIGN.md, "The sender is assembled from parts").

/// The methods of a controller that keeps Reno's window in a field `reno` and changes only its
/// response to congestion and its growth (Westwood+, Veno): everything else is Reno's.
macro_rules! reno_window_delegates {
    () => {
        fn cwnd(&self) -> u32 {
            self.reno.cwnd()
        }
        fn ssthresh(&self) -> u32 {
            self.reno.ssthresh()
        }
        fn on_recovery_dupack(&mut self) {
            self.reno.on_recovery_dupack();
        }
        fn on_recovery_exit(&mut self) {
            self.reno.on_recovery_exit();
        }
        fn on_partial_ack(&mut self, acked: u32) {
            self.reno.on_partial_ack(acked);
        }
        fn undo(&mut self, cwnd: u32, ssthresh: u32) {
            self.reno.undo(cwnd, ssthresh);
        }
    };
}
pub(crate) use reno_window_delegates;

/// The response of a sender that sets ssthresh from a bandwidth estimate (Westwood's rule,
/// eln-llelsn spec §4.5, shared by TIBET, Jersey and the ideal-BWE oracle), after Reno's own
/// response has run: three duplicates give `ssthresh = s`, `cwnd = min(cwnd_before, s)` plus
/// the duplicates (Reno's inflation); a timeout gives `ssthresh = s`, `cwnd = 1 MSS`.
pub(crate) fn bwe_response(
    reno: &mut RenoCc,
    event: CongestionEvent,
    cwnd_before: u32,
    s: u32,
    mss: u32,
) {
    match event {
        CongestionEvent::FastRetransmit { dupacks, .. } => {
            reno.undo(cwnd_before.min(s) + dupacks * mss, s);
        }
        CongestionEvent::Timeout { .. } => reno.undo(mss, s),
        CongestionEvent::LocalDrop => {}
    }
}

/// `max(2·MSS, rate·rtt)` in bytes for a rate in bytes per second.
pub(crate) fn bdp_bytes(rate: f64, rtt: SimDuration, mss: u32) -> u32 {
    let bytes = rate * rtt.as_nanos() as f64 * 1e-9;
    (bytes.min(f64::from(u32::MAX)) as u32).max(2 * mss)
}

mod bbr;
mod cubic;
pub mod hystart;
pub mod hystart_linux;
mod ideal_bwe;
mod jersey;
mod jtcp;
mod reno;
#[cfg(test)]
mod test_kit;
mod tibet;
mod veno;
mod westwood;

use crate::recovery::Phase;
pub use bbr::{BbrCc, BbrMode};
pub use cubic::{CubicCc, RenoFriendly};
use engine::{SimDuration, SimTime};
pub use hystart::Hystart;
pub use hystart_linux::{LinuxExit, LinuxHyStart};
pub use ideal_bwe::IdealBweCc;
pub use jersey::{JerseyCc, JerseyUnmarked};
pub use jtcp::JtcpCc;
pub use reno::{RenoCc, RenoFlavor};
pub use tibet::TibetCc;
pub use veno::{VenoCc, VENO_BETA};
pub use westwood::{WestwoodCc, WestwoodFilter};

/// A cumulative ACK that acknowledged new data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckSample {
    /// Newly acknowledged bytes.
    pub acked_bytes: u32,
    /// Bytes in flight before this ACK.
    pub flight_bytes: u32,
    /// When the ACK arrived (CUBIC's epoch clock, RFC 9438 §4.2).
    pub now: SimTime,
    /// The sender's smoothed RTT (zero before the first sample).
    pub srtt: SimDuration,
    /// This ACK's RTT sample, if it gave one (HyStart++, RFC 9406 §4.2).
    pub rtt: Option<SimDuration>,
    /// The stream offset acknowledged up to, after this ACK.
    pub ack: u64,
    /// The sender's SND.NXT (stream offset) when the ACK arrived (HyStart++'s windowEnd).
    pub snd_nxt: u64,
}

/// A loss the sender decided to respond to as congestion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionEvent {
    /// Fast retransmit on the `dupacks`-th duplicate ACK.
    FastRetransmit {
        /// Bytes in flight when the loss was detected.
        flight_bytes: u32,
        /// The peer's advertised window.
        peer_window: u32,
        /// Duplicate ACKs counted so far (the threshold).
        dupacks: u32,
    },
    /// Retransmission timeout.
    Timeout {
        /// Bytes in flight when the timer fired.
        flight_bytes: u32,
        /// The peer's advertised window.
        peer_window: u32,
    },
    /// The host's own interface queue dropped a segment (ENOBUFS from `ip_output`): 4.4BSD
    /// `tcp_quench` sets cwnd to one segment and leaves ssthresh alone (Ludwig2000 §2.3).
    LocalDrop,
}

/// A delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation), made by the sender on
/// every ACK for a controller that asks for them ([`CongestionControl::wants_rate_samples`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateSample {
    /// When the ACK arrived.
    pub now: SimTime,
    /// Bytes delivered over `interval` (0: this ACK delivered nothing new, no sample).
    pub delivered: u64,
    /// The sample's interval: the longer of the send and the ACK intervals of the most
    /// recently sent packet it delivered (zero: not a valid sample).
    pub interval: SimDuration,
    /// The connection's delivered count when that packet was sent (round counting).
    pub prior_delivered: u64,
    /// The connection's delivered count after this ACK.
    pub delivered_total: u64,
    /// The packet was sent while the sender was application-limited.
    pub is_app_limited: bool,
    /// Its round-trip time, if it was never retransmitted.
    pub rtt: Option<SimDuration>,
    /// Bytes this ACK newly delivered, cumulatively or selectively.
    pub acked_sacked: u64,
    /// Bytes in flight before the ACK.
    pub prior_in_flight: u64,
    /// Bytes in flight after it (the recovery part's pipe when it keeps one).
    pub in_flight: u64,
    /// The ACK started a loss recovery.
    pub loss: bool,
    /// The sender's recovery phase after the ACK.
    pub phase: Phase,
}

/// What a model-based controller believes (BBR), for traces and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelState {
    /// The controller's state machine, by name.
    pub mode: &'static str,
    /// Its bottleneck bandwidth estimate, bytes per second.
    pub bw: u64,
    /// Its minimum round-trip estimate (zero before a sample).
    pub min_rtt: SimDuration,
    /// Pacing gain in 1/256.
    pub pacing_gain: u32,
    /// Round trips counted so far.
    pub round: u64,
}

/// Decides the congestion window.
pub trait CongestionControl: Send {
    /// Short name for traces.
    fn name(&self) -> &'static str;
    /// Congestion window in bytes.
    fn cwnd(&self) -> u32;
    /// Slow-start threshold in bytes.
    fn ssthresh(&self) -> u32;
    /// New data was acknowledged outside fast recovery (or on the ACK that ends it).
    fn on_ack(&mut self, ack: AckSample);
    /// A loss is treated as congestion.
    fn on_congestion(&mut self, event: CongestionEvent);
    /// A further duplicate ACK arrived during fast recovery (Reno window inflation).
    fn on_recovery_dupack(&mut self);
    /// Fast recovery ended, or a partial ACK deflates: cwnd = min(cwnd, ssthresh).
    fn on_recovery_exit(&mut self);
    /// RFC 6582 §3.2 (5) partial ACK: deflate by `acked` bytes, then add back one segment if
    /// at least one segment's worth was acknowledged.
    fn on_partial_ack(&mut self, acked: u32);
    /// Undo after a spurious retransmission (Eifel): set both values.
    fn undo(&mut self, cwnd: u32, ssthresh: u32);
    /// Slow-start restart after idle (RFC 5681 §4.1): the sender sets both values; a
    /// controller with more state (CUBIC's epoch) also starts afresh. By default as
    /// [`CongestionControl::undo`].
    fn on_idle_restart(&mut self, cwnd: u32, ssthresh: u32) {
        self.undo(cwnd, ssthresh);
    }
    /// Whether the controller wants a [`RateSample`] on every ACK and paces its sends (BBR);
    /// asked once, when the sender is built, so that others cost nothing per ACK.
    fn wants_rate_samples(&self) -> bool {
        false
    }
    /// A delivery-rate sample of an ACK (after the window operations of that ACK).
    fn on_rate_sample(&mut self, _rs: &RateSample) {}
    /// The pacing rate in bytes per second, if the controller paces.
    fn pacing_rate(&self) -> Option<u64> {
        None
    }
    /// Ground truth from the network: the flow's available rate now, in bytes per second (the
    /// ideal-BWE oracle's live input, eln-llelsn spec §4.13 (c)); the others ignore it.
    fn on_available_rate(&mut self, _bytes_per_s: u64) {}
    /// An ACK carried a congestion warning (TCP-Jersey's CW, the echoed ECN mark of a router
    /// whose average queue is over its threshold); called before the ACK's other processing.
    fn on_congestion_warning(&mut self, _now: SimTime) {}
    /// What a model-based controller believes (None for the others).
    fn model(&self) -> Option<ModelState> {
        None
    }
    /// RFC 8511 ABE (§3): the response to an ECN-Echo with the multiplicative decrease
    /// `beta_ecn` (thousandths) instead of the loss β: ssthresh and cwnd become `beta_ecn` times
    /// the window, at least 2·MSS. Returns `false` for a controller without an ABE response
    /// (the sender then responds as to a loss, RFC 3168 §6.1.2; the build refuses `tcp.abe` for
    /// such controllers).
    fn on_ecn_abe(&mut self, _flight_bytes: u32, _peer_window: u32, _beta_ecn: u32) -> bool {
        false
    }
}

/// RFC 8511 §3.1's recommended β_ecn for standard TCP (RFC 5681): 0.8, in thousandths.
pub const BETA_ECN_RENO: u32 = 800;
/// β_ecn for CUBIC, in thousandths: 0.85, the value RFC 8511 §3.1 reports CUBIC connections
/// "benefit from" (cf. β_loss = 0.7); the RFC RECOMMENDS a value only for RFC 5681 TCP.
pub const BETA_ECN_CUBIC: u32 = 850;

/// `window · beta_ecn / 1000`, at least 2·MSS (RFC 8511 §3: "a lower bound of 2 * SMSS
/// applied to the result").
pub fn abe_threshold(window: u32, beta_ecn: u32, mss: u32) -> u32 {
    ((u64::from(window) * u64::from(beta_ecn) / 1000) as u32).max(2 * mss)
}
