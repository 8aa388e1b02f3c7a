//! Delivery-rate estimation (draft-cheng-iccrg-delivery-rate-estimation-00, as Linux's
//! `tcp_rate.c`) for a congestion controller that asks for it (BBR), and the pacing of its
//! sends.
//!
//! When a segment leaves, it records the connection's delivered bytes and the time of the
//! latest delivery (`delivered`, `delivered_time`), the send time of the first segment of its
//! flight (`first_sent_time`) and whether the sender was application-limited. When ACKs deliver
//! segments (cumulatively or by SACK), the connection's count grows, and the sample is taken
//! from the most recently sent segment delivered: `delivered` over the longer of its send
//! interval (its send time less its `first_sent_time`) and its ACK interval (now less its
//! `delivered_time`), so that neither ACK compression nor a burst of sends inflates the rate.
//! A sample over less than the minimum RTT seen is not valid (Linux's guard). The RTT of that
//! segment is a sample unless it was retransmitted (Karn).
//!
//! The sender is application-limited when it has less than a segment to send and its flight is
//! below cwnd: the mark lasts until what is in flight then has been delivered, and samples of
//! segments sent meanwhile are marked (a controller takes them only if they raise its
//! estimate).

use crate::cc::RateSample;
use crate::near_search::{interpolate, partition_point_from};
use crate::recovery::Phase;
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// One outstanding segment as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rec {
    start: u64,
    end: u64,
    sent: SimTime,
    delivered: u64,
    delivered_time: SimTime,
    first_sent: SimTime,
    app_limited: bool,
    sacked: bool,
    rexmitted: bool,
}

/// The connection's delivery state and its outstanding segments.
#[derive(Clone, Debug, Default)]
pub(super) struct RateSampler {
    delivered: u64,
    delivered_time: SimTime,
    first_sent: SimTime,
    /// Non-zero while application-limited: the delivered count that ends it.
    app_limited: u64,
    recs: VecDeque<Rec>,
    /// The number of `recs[0]` (records are numbered in the order they were made).
    base: u64,
    /// The numbers of the records not SACKed, ascending: a SACK block that arrives again and
    /// again visits only what it newly covers (thousands of segments SACKed above a hole).
    unsacked: VecDeque<u64>,
    /// Bytes of the records not SACKed: the flight before an ACK, without a walk.
    unsacked_bytes: u64,
    min_rtt: Option<u64>,
    /// Pacing: the earliest time of the next send, and whether a send waits for it.
    pub(super) pace_next: SimTime,
    pub(super) pace_wait: bool,
}

/// What the sender adds to a sample: the flight after the ACK, whether it started a recovery,
/// the phase after it.
#[derive(Clone, Copy, Debug)]
pub(super) struct AckContext {
    pub(super) in_flight: u64,
    pub(super) loss: bool,
    pub(super) phase: Phase,
}

impl RateSampler {
    /// `[off, end)` left at `now`; `idle`: nothing was in flight before it.
    pub(super) fn on_sent(&mut self, now: SimTime, off: u64, end: u64, idle: bool) {
        if idle {
            self.first_sent = now;
            self.delivered_time = now;
        }
        let stamp = |start, end, rexmitted| Rec {
            start,
            end,
            sent: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent: self.first_sent,
            app_limited: self.app_limited != 0,
            sacked: false,
            rexmitted,
        };
        let top = self.recs.back().map_or(off, |r| r.end.max(off));
        // A retransmission: restamp the segments it covers. New data (`off` at or above every
        // record's end) covers none: no search through the thousands of records of a long fat
        // flight on every send (docs/performance.md, twentieth session).
        let first = if off >= top {
            self.recs.len()
        } else {
            self.recs.partition_point(|r| r.end <= off)
        };
        for i in first..self.recs.len() {
            if self.recs[i].start >= end {
                break;
            }
            let r = self.recs[i];
            if r.sacked {
                // Not SACKed any more once resent.
                let n = self.base + i as u64;
                let at = self.unsacked.partition_point(|&u| u < n);
                self.unsacked.insert(at, n);
                self.unsacked_bytes += r.end - r.start;
            }
            self.recs[i] = stamp(r.start, r.end, true);
        }
        if end > top {
            self.unsacked.push_back(self.base + self.recs.len() as u64);
            self.unsacked_bytes += end - top;
            self.recs.push_back(stamp(top, end, false));
        }
    }

    /// An ACK with cumulative acknowledgment `ack` and SACK blocks `sack` arrived at `now`.
    pub(super) fn on_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        sack: &[(u64, u64)],
        cx: AckContext,
    ) -> RateSample {
        let prior_in_flight = self.unsacked_bytes;
        let mut newest: Option<Rec> = None;
        let mut acked = 0;
        let mut deliver = |s: &mut Self, r: Rec| {
            s.delivered += r.end - r.start;
            s.delivered_time = now;
            acked += r.end - r.start;
            if newest.is_none_or(|n| (r.sent, r.end) > (n.sent, n.end)) {
                newest = Some(r);
            }
        };
        while let Some(&r) = self.recs.front() {
            if r.end > ack {
                break;
            }
            self.recs.pop_front();
            if !r.sacked {
                self.unsacked.pop_front();
                self.unsacked_bytes -= r.end - r.start;
                deliver(self, r);
            }
            self.base += 1;
        }
        for &(l, rt) in sack {
            // The records inside the block, `[start >= l, end <= rt]`, are a run of positions;
            // of those, the ones not SACKed yet.
            // Searched from where the offsets and numbers fall if spread evenly: records are
            // contiguous, most a segment each (crate::near_search).
            let (recs, unsacked) = (&self.recs, &self.unsacked);
            let span = (
                recs.front().map_or(0, |r| r.start),
                recs.back().map_or(0, |r| r.end),
            );
            let near = |x| interpolate(x, span, recs.len());
            let a = self.base + partition_point_from(recs, near(l), |r| r.start < l) as u64;
            let b = self.base + partition_point_from(recs, near(rt), |r| r.end <= rt) as u64;
            let numbers = (
                unsacked.front().copied().unwrap_or(0),
                unsacked.back().copied().unwrap_or(0),
            );
            let near = |u| interpolate(u, numbers, unsacked.len());
            let ua = partition_point_from(unsacked, near(a), |&u| u < a);
            let ub = partition_point_from(unsacked, near(b), |&u| u < b).max(ua);
            for k in ua..ub {
                let i = (self.unsacked[k] - self.base) as usize;
                let r = self.recs[i];
                self.recs[i].sacked = true;
                self.unsacked_bytes -= r.end - r.start;
                deliver(self, r);
            }
            self.unsacked.drain(ua..ub);
        }
        self.sample(now, cx, (prior_in_flight, acked), newest)
    }

    /// The sample of an ACK that delivered `acked` bytes (the flight before it
    /// `prior_in_flight`), the most recently sent of them `newest`.
    fn sample(
        &mut self,
        now: SimTime,
        cx: AckContext,
        (prior_in_flight, acked): (u64, u64),
        newest: Option<Rec>,
    ) -> RateSample {
        let mut rs = RateSample {
            now,
            delivered: 0,
            interval: SimDuration(0),
            prior_delivered: 0,
            delivered_total: self.delivered,
            is_app_limited: false,
            rtt: None,
            acked_sacked: acked,
            prior_in_flight,
            in_flight: cx.in_flight,
            loss: cx.loss,
            phase: cx.phase,
        };
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        let Some(p) = newest else {
            return rs;
        };
        self.first_sent = p.sent;
        let rtt = (now - p.sent).as_nanos();
        if !p.rexmitted {
            rs.rtt = Some(SimDuration(rtt));
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        }
        let send_elapsed = (p.sent - p.first_sent).as_nanos();
        let ack_elapsed = (self.delivered_time - p.delivered_time).as_nanos();
        let interval = send_elapsed.max(ack_elapsed);
        rs.prior_delivered = p.delivered;
        rs.delivered = self.delivered - p.delivered;
        rs.is_app_limited = p.app_limited;
        // Linux's guard: an interval below the minimum RTT is not a valid sample.
        if self.min_rtt.is_none_or(|m| interval >= m) {
            rs.interval = SimDuration(interval);
        }
        rs
    }

    /// The sender had nothing to send although the window allowed it: mark it
    /// application-limited until what is in flight has been delivered (`in_flight` bytes).
    pub(super) fn mark_app_limited(&mut self, in_flight: u64) {
        self.app_limited = (self.delivered + in_flight).max(1);
    }

    /// A segment of `len` bytes left at `now` at `rate` bytes per second: the next may leave
    /// `len / rate` later.
    pub(super) fn paced(&mut self, now: SimTime, len: u32, rate: u64) {
        let gap = u64::from(len) * 1_000_000_000 / rate.max(1);
        self.pace_next = self.pace_next.max(now) + SimDuration(gap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(m: u64) -> SimTime {
        SimTime(m * 1_000_000)
    }

    const CX: AckContext = AckContext {
        in_flight: 0,
        loss: false,
        phase: Phase::Open,
    };

    /// By hand: four 1000-byte segments leave at 0, 10, 20 and 30 ms from idle; their ACKs
    /// arrive 100 ms after each. The ACK of the third (120 ms) samples it: it was sent 20 ms
    /// after the flight's first segment (send interval 20 ms) with 0 bytes delivered at 0 ms,
    /// and 3000 bytes are delivered by 120 ms (ACK interval 120 ms): 3000 B over 120 ms =
    /// 25 000 B/s, RTT 100 ms. A fifth segment leaves at 130 ms, when 3000 bytes had been
    /// delivered (the latest at 120 ms) and the flight being sampled started at 20 ms; the
    /// fourth is acknowledged at 130 ms, the fifth at 230 ms: 5000 − 3000 = 2000 bytes over
    /// max(130 − 20, 230 − 120) = 110 ms.
    #[test]
    fn a_sample_takes_the_longer_of_the_send_and_ack_intervals() {
        let mut s = RateSampler::default();
        for k in 0..4 {
            s.on_sent(ms(10 * k), 1000 * k, 1000 * (k + 1), k == 0);
        }
        let rs = s.on_ack(ms(100), 1000, &[], CX);
        assert_eq!(
            (rs.delivered, rs.interval, rs.acked_sacked),
            (1000, SimDuration::from_millis(100), 1000)
        );
        s.on_ack(ms(110), 2000, &[], CX);
        let rs = s.on_ack(ms(120), 3000, &[], CX);
        assert_eq!(
            (rs.delivered, rs.interval),
            (3000, SimDuration::from_millis(120))
        );
        assert_eq!(
            (rs.rtt, rs.prior_delivered),
            (Some(SimDuration::from_millis(100)), 0)
        );
        assert_eq!(
            rs.delivered * 1_000_000_000 / rs.interval.as_nanos(),
            25_000
        );
        s.on_sent(ms(130), 4000, 5000, false);
        s.on_ack(ms(130), 4000, &[], CX);
        let rs = s.on_ack(ms(230), 5000, &[], CX);
        assert_eq!(rs.prior_delivered, 3000);
        assert_eq!(rs.delivered, 2000);
        assert_eq!(rs.interval, SimDuration::from_millis(110));
    }

    /// SACKed segments are delivered when SACKed, once; the cumulative ACK that covers them
    /// later adds nothing; a retransmitted segment gives no RTT.
    #[test]
    fn sacked_segments_count_once_and_retransmissions_give_no_rtt() {
        let mut s = RateSampler::default();
        for k in 0..3 {
            s.on_sent(ms(k), 1000 * k, 1000 * (k + 1), k == 0);
        }
        let rs = s.on_ack(ms(100), 0, &[(1000, 3000)], CX);
        assert_eq!((rs.acked_sacked, rs.delivered_total), (2000, 2000));
        assert_eq!(rs.prior_in_flight, 3000);
        s.on_sent(ms(105), 0, 1000, false);
        let rs = s.on_ack(ms(205), 3000, &[], CX);
        assert_eq!(
            (rs.acked_sacked, rs.delivered_total, rs.rtt),
            (1000, 3000, None)
        );
    }

    /// [`RateSampler::on_ack`]'s deliveries as they were before the indexes: a walk for the
    /// flight, and each SACK block's records visited one by one (the index fields are left as
    /// they were); the sample from them as the sampler makes it.
    fn on_ack_by_walk(
        s: &mut RateSampler,
        now: SimTime,
        ack: u64,
        sack: &[(u64, u64)],
        cx: AckContext,
    ) -> RateSample {
        let prior_in_flight: u64 = s
            .recs
            .iter()
            .filter(|r| !r.sacked)
            .map(|r| r.end - r.start)
            .sum();
        let mut newest: Option<Rec> = None;
        let mut acked = 0;
        let mut deliver = |s: &mut RateSampler, r: Rec| {
            s.delivered += r.end - r.start;
            s.delivered_time = now;
            acked += r.end - r.start;
            if newest.is_none_or(|n| (r.sent, r.end) > (n.sent, n.end)) {
                newest = Some(r);
            }
        };
        while let Some(&r) = s.recs.front() {
            if r.end > ack {
                break;
            }
            s.recs.pop_front();
            if !r.sacked {
                deliver(s, r);
            }
        }
        for &(l, rt) in sack {
            let first = s.recs.partition_point(|r| r.end <= l);
            for i in first..s.recs.len() {
                let r = s.recs[i];
                if r.end > rt {
                    break;
                }
                if r.start >= l && !r.sacked {
                    s.recs[i].sacked = true;
                    deliver(s, r);
                }
            }
        }
        s.sample(now, cx, (prior_in_flight, acked), newest)
    }

    proptest::proptest! {
        /// Through random sends (new data, retransmissions of any range, SACKed ones too),
        /// cumulative ACKs and SACK blocks, the kept flight and the records not SACKed are the
        /// walk's, and every ACK gives the walk's sample and leaves the walk's records.
        #[test]
        fn the_kept_flight_and_holes_agree_with_a_walk(
            ops in proptest::collection::vec((0u8..4, 0u64..12, 0u64..12), 1..120),
        ) {
            let mut s = RateSampler::default();
            let (mut now, mut una, mut max) = (0u64, 0u64, 0u64);
            for (op, x, y) in ops {
                now += 1;
                match op {
                    0 => {
                        let len = 500 + (y % 3) * 500;
                        s.on_sent(ms(now), max, max + len, max == una);
                        max += len;
                    }
                    1 if max > una => {
                        let off = una + (x * 400) % (max - una);
                        s.on_sent(ms(now), off, (off + 1 + y * 300).min(max), false);
                    }
                    2 | 3 => {
                        let ack = if op == 2 { (una + x * 350).min(max) } else { una };
                        let l = ack + y * 450;
                        let blocks = [(l, l + (x + 1) * 600), (l / 2, l)];
                        let mut walk = s.clone();
                        let want = on_ack_by_walk(&mut walk, ms(now), ack, &blocks, CX);
                        let rs = s.on_ack(ms(now), ack, &blocks, CX);
                        proptest::prop_assert_eq!(rs, want);
                        proptest::prop_assert_eq!(&s.recs, &walk.recs);
                        proptest::prop_assert_eq!((s.first_sent, s.min_rtt), (walk.first_sent, walk.min_rtt));
                        una = una.max(ack);
                    }
                    _ => {}
                }
                let holes: Vec<u64> = (s.base..).zip(&s.recs).filter(|(_, r)| !r.sacked).map(|(n, _)| n).collect();
                proptest::prop_assert_eq!(s.unsacked.iter().copied().collect::<Vec<_>>(), holes);
                let bytes: u64 = s.recs.iter().filter(|r| !r.sacked).map(|r| r.end - r.start).sum();
                proptest::prop_assert_eq!(s.unsacked_bytes, bytes);
            }
        }
    }

    #[test]
    fn pacing_spaces_segments_by_their_length_over_the_rate() {
        let mut s = RateSampler::default();
        s.paced(ms(0), 1000, 1_000_000);
        assert_eq!(s.pace_next, ms(1));
        s.paced(ms(0), 1000, 1_000_000);
        assert_eq!(s.pace_next, ms(2), "back to back: one gap after the other");
        s.paced(ms(10), 500, 1_000_000);
        assert_eq!(s.pace_next, SimTime(10_500_000), "after idle: from now");
    }
}
