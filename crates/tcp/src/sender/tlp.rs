//! Tail Loss Probe (RFC 8985 §7), with [`super::SenderConfig::tlp`] (meant for the RACK part,
//! [`crate::recovery::RackRecovery`], which detects the losses a probe reveals).
//!
//! - Arming (§7.2): after sending new data that is not itself a probe, and on an ACK that
//!   advances `snd_una`, while no recovery runs, data is outstanding and no probe is
//!   outstanding, the probe timeout is `PTO = 2·SRTT`, plus a worst-case delayed ACK of 200 ms
//!   when only one segment is in flight (1 s before any RTT sample), and never later than the
//!   retransmission timer: the probe fires in the RTO's place.
//! - Probe (§7.3): one new segment if the window of the peer and the application allow one
//!   (cwnd is ignored), else the highest segment sent again; then the retransmission timer is
//!   re-armed with the full RTO. One probe may be outstanding (`TLP.end_seq = snd_max`).
//! - Detecting a loss the probe repaired (§7.4): when an ACK acknowledges beyond the probe,
//!   the probe was a retransmission and no recovery ran, the sender reduces its window once
//!   (ssthresh from the controller, cwnd = ssthresh) as for a loss already repaired. A pure
//!   duplicate ACK (no SACK blocks) means the original and the probe both arrived: no loss.
//!
//! Deliberate deviations (docs/modern.md): no DSACK, so an ACK that covers exactly the probe's
//! end cannot tell a repaired loss from a needless probe; as Linux without a DSACK, the episode
//! then stays open until an ACK beyond it decides.

use super::Sender;
use crate::cc::CongestionControl as _;
use crate::cc::CongestionEvent;
use crate::recovery::Phase;
use crate::rto::RtoEstimator as _;
use crate::segment::Segment;
use crate::trace::SenderEvent;
use engine::{SimDuration, SimTime, TraceSink};

/// RFC 8985 §7.2 WCDelAckT, the worst-case delayed-ACK time.
const WC_DEL_ACK: SimDuration = SimDuration::from_millis(200);
/// The PTO before any RTT sample (RFC 8985 §7.2).
const PTO_NO_SAMPLE: SimDuration = SimDuration::from_secs(1);

/// TLP's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tlp {
    /// The probe timer.
    pub(super) pto_at: Option<SimTime>,
    /// TLP.end_seq and TLP.is_retrans of the outstanding probe.
    end: Option<(u64, bool)>,
    /// A probe is due: the next segment polled is the probe.
    pub(super) probe: bool,
}

/// The probe timeout (RFC 8985 §7.2) for a smoothed RTT `srtt` (ns, if sampled) and a flight of
/// `flight` bytes with segments of `mss` bytes.
pub(crate) fn pto(srtt: Option<u64>, flight: u64, mss: u32) -> SimDuration {
    match srtt {
        None => PTO_NO_SAMPLE,
        Some(s) if flight <= u64::from(mss) => SimDuration(2 * s) + WC_DEL_ACK,
        Some(s) => SimDuration(2 * s),
    }
}

impl Sender {
    /// Start or restart the probe timer if TLP may probe now (RFC 8985 §7.2).
    pub(super) fn tlp_arm(&mut self, now: SimTime) {
        let open = self.phase() == Phase::Open;
        let (srtt, flight, mss, rexmt) = (
            self.srtt_fine,
            self.max - self.una,
            self.cfg.mss,
            self.rexmt_at,
        );
        let Some(t) = self.tlp.as_mut() else {
            return;
        };
        t.pto_at = if open && t.end.is_none() && flight > 0 {
            let at = now + pto(srtt, flight, mss);
            Some(rexmt.map_or(at, |r| r.min(at)))
        } else {
            None
        };
    }

    /// The probe timer may have expired: arm the probe. Returns whether it did, in which case
    /// the retransmission timer, due at the same time or not, waits (RFC 8985 §7.2: the probe
    /// fires in its place).
    pub(super) fn tlp_fire(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> bool {
        let open = self.phase() == Phase::Open;
        let outstanding = self.max > self.una;
        let Some(t) = self.tlp.as_mut() else {
            return false;
        };
        if t.pto_at.is_none_or(|at| at > now) {
            return false;
        }
        t.pto_at = None;
        if !(open && t.end.is_none() && outstanding) {
            return false;
        }
        t.probe = true;
        self.stats.tlp_probes += 1;
        if trace.enabled() {
            trace.record(now, SenderEvent::LossProbe { seq: self.max });
        }
        true
    }

    /// The probe segment (RFC 8985 §7.3): new data if the peer's window and the application
    /// allow it, else the highest segment again.
    #[inline(never)]
    pub(super) fn tlp_probe(
        &mut self,
        now: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) -> Segment {
        let mss = u64::from(self.cfg.mss);
        let end = self
            .written
            .min(self.una + u64::from(self.cfg.send_buffer))
            .min(self.una + u64::from(self.peer_window));
        let new = self.nxt == self.max && self.max < end;
        let (off, len) = if new {
            (self.max, (end - self.max).min(mss))
        } else {
            let start = ((self.max - 1) / mss * mss).max(self.una);
            (start, self.max - start)
        };
        let seg = self.emit::<true>(now, off, len as u32, trace);
        if new {
            self.nxt = off + len;
        }
        self.rexmt_at = Some(self.parts.rto.deadline(now));
        if let Some(t) = self.tlp.as_mut() {
            t.probe = false;
            t.pto_at = None;
            t.end = Some((self.max, !new));
        }
        seg
    }

    /// RFC 8985 §7.4: does this ACK (cumulative `ack`, `sacks` blocks, `pure` if it acknowledges
    /// nothing new and carries no SACK) end the probe episode, and did the probe repair a loss?
    pub(super) fn tlp_on_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        pure_dup: bool,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        let open = self.phase() == Phase::Open;
        let Some(t) = self.tlp.as_mut() else {
            return;
        };
        let Some((end, retrans)) = t.end else {
            return;
        };
        let repaired = if ack >= end && !retrans {
            t.end = None;
            false
        } else if ack > end {
            t.end = None;
            true
        } else {
            if pure_dup {
                // The original and the probe both arrived.
                t.end = None;
            }
            false
        };
        if repaired && open {
            // The probe repaired a loss: one reduction, as for a loss already recovered.
            self.stats.tlp_recoveries += 1;
            self.parts
                .cc
                .on_congestion(CongestionEvent::FastRetransmit {
                    flight_bytes: self.flight(),
                    peer_window: self.peer_window,
                    dupacks: 0,
                });
            if trace.enabled() {
                trace.record(now, SenderEvent::LossProbeRecovery { ack });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_timeout_by_hand() {
        let ms = SimDuration::from_millis;
        // RFC 8985 §7.2: 2·SRTT; one segment in flight adds WCDelAckT = 200 ms; 1 s unsampled.
        assert_eq!(pto(Some(100_000_000), 3000, 1000), ms(200));
        assert_eq!(pto(Some(100_000_000), 1000, 1000), ms(400));
        assert_eq!(pto(Some(30_000_000), 500, 1000), ms(260));
        assert_eq!(pto(None, 5000, 1000), ms(1000));
    }
}
