//! What the controllers' unit tests share: the segment size, a rate-sample builder and the
//! congestion events, so that each controller's tests say only what is particular to it.

use super::{CongestionControl, CongestionEvent, RateSample};
use crate::recovery::Phase;
use engine::{SimDuration, SimTime};

/// The segment size of the controllers' unit tests.
pub(crate) const MSS: u32 = 1000;

/// The rate sample of an ACK at `now` that newly delivered `acked` bytes, of a packet whose
/// round trip was `rtt`, sampled over that round trip; nothing in flight, no loss, the sender
/// in the Open phase. A test that needs more sets the fields it needs on the result
/// (`RateSample { in_flight, ..sample(..) }`).
pub(crate) fn sample(now: SimTime, acked: u64, rtt: SimDuration) -> RateSample {
    RateSample {
        now,
        delivered: acked,
        interval: rtt,
        prior_delivered: 0,
        delivered_total: 0,
        is_app_limited: false,
        rtt: Some(rtt),
        acked_sacked: acked,
        prior_in_flight: 0,
        in_flight: 0,
        loss: false,
        phase: Phase::Open,
    }
}

/// [`sample`] in milliseconds: an ACK at `t_ms` for `acked` bytes, round trip `rtt_ms`.
pub(crate) fn sample_ms(t_ms: u64, acked: u64, rtt_ms: u64) -> RateSample {
    sample(
        SimTime(t_ms * 1_000_000),
        acked,
        SimDuration::from_millis(rtt_ms),
    )
}

/// A fast retransmit on the third duplicate ACK with the whole window in flight.
pub(crate) fn three_dupacks(cc: &mut impl CongestionControl) {
    cc.on_congestion(CongestionEvent::FastRetransmit {
        flight_bytes: cc.cwnd(),
        peer_window: 1 << 30,
        dupacks: 3,
    });
}
