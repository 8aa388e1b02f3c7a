//! What the sender does after an RTT sample and after each input, for its own state and its
//! trace: the fine smoothed RTT beside the estimator's, the window record, and the sample record
//! of the timer plots (Ludwig2000 §5.3, S9).

use super::Sender;
use crate::rto::RtoEstimator as _;
use crate::trace::SenderEvent;
use engine::{SimTime, TraceSink};

impl Sender {
    /// Called after every sample the estimator takes: the fine smoothed RTT and the
    /// estimator's own in ticks.
    pub(super) fn fine_sample(&mut self, sent: SimTime, acked: SimTime) {
        self.srtt_ticks = self.parts.rto.srtt_ticks();
        let r = (acked - sent).as_nanos();
        self.srtt_fine = Some(match self.srtt_fine {
            None => r,
            Some(s) => (7 * s + r) / 8,
        });
    }

    pub(super) fn sample_window(&self, now: SimTime, trace: &mut dyn TraceSink<SenderEvent>) {
        if trace.enabled() {
            trace.record(
                now,
                SenderEvent::Window {
                    cwnd: self.cwnd(),
                    ssthresh: self.ssthresh(),
                    snd_una: self.una,
                    snd_nxt: self.nxt,
                    rto_ns: self.parts.rto.current().as_nanos(),
                    phase: self.phase(),
                },
            );
        }
    }

    /// Record the sample the estimator just took (the segment timed was sent at `sent`), the
    /// RTO after it and the timer's deadline after this ACK.
    pub(super) fn record_rtt_sample(
        &self,
        now: SimTime,
        sent: SimTime,
        trace: &mut dyn TraceSink<SenderEvent>,
    ) {
        if trace.enabled() {
            trace.record(
                now,
                SenderEvent::RttSample {
                    rtt_ns: now.saturating_since(sent).as_nanos(),
                    rto_ns: self.parts.rto.current().as_nanos(),
                    rexmt_at_ns: self.rexmt_at.map_or(0, SimTime::as_nanos),
                },
            );
        }
    }
}
