//! The send time of every outstanding segment, for the precise retransmission timer of
//! Ludwig2000 §5.4.5 (spec §3.3, "REXMT_E = RTO_E − age of the oldest outstanding segment"):
//! "the sender keeps each segment's send timestamp in a dynamic structure, so it always knows
//! the age of the oldest outstanding segment".

use engine::SimTime;
use std::collections::VecDeque;

/// Outstanding stream ranges `[start, end)` in send order with the time each was last sent.
#[derive(Clone, Debug, Default)]
pub(crate) struct SendLog {
    ranges: VecDeque<(u64, u64, SimTime)>,
}

impl SendLog {
    /// `[off, end)` left at `now`: a retransmission restamps the ranges it overlaps, new data
    /// beyond the highest range is appended.
    pub(crate) fn sent(&mut self, off: u64, end: u64, now: SimTime) {
        let first = self.ranges.partition_point(|&(_, e, _)| e <= off);
        let mut top = off;
        for r in self.ranges.range_mut(first..) {
            if r.0 >= end {
                break;
            }
            r.2 = now;
            top = top.max(r.1);
        }
        if end > top {
            self.ranges.push_back((top, end, now));
        }
    }

    /// Everything below `ack` is acknowledged.
    pub(crate) fn acked(&mut self, ack: u64) {
        while self.ranges.front().is_some_and(|&(_, e, _)| e <= ack) {
            self.ranges.pop_front();
        }
    }

    /// When the oldest outstanding segment was last sent.
    pub(crate) fn oldest(&self) -> Option<SimTime> {
        self.ranges.front().map(|&(_, _, t)| t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn the_oldest_outstanding_segment_keeps_its_send_time() {
        let mut log = SendLog::default();
        log.sent(0, 100, t(1));
        log.sent(100, 200, t(2));
        log.sent(200, 300, t(3));
        assert_eq!(log.oldest(), Some(t(1)));
        log.acked(100);
        assert_eq!(log.oldest(), Some(t(2)), "not the ACK's arrival time");
        log.acked(150);
        assert_eq!(log.oldest(), Some(t(2)), "partly acknowledged");
        log.acked(300);
        assert_eq!(log.oldest(), None);
    }

    #[test]
    fn a_retransmission_restamps_what_it_covers_and_new_data_appends() {
        let mut log = SendLog::default();
        for k in 0..4 {
            log.sent(k * 100, (k + 1) * 100, t(k + 1));
        }
        // Go-back-N from 0: the first two again at 10 ms.
        log.sent(0, 100, t(10));
        log.sent(100, 200, t(10));
        assert_eq!(log.oldest(), Some(t(10)));
        log.acked(200);
        assert_eq!(log.oldest(), Some(t(3)));
        // A segment straddling the highest range: restamps it and appends the rest.
        log.sent(350, 450, t(20));
        log.acked(400);
        assert_eq!(log.oldest(), Some(t(20)));
    }

    proptest::proptest! {
        /// Against a model that stamps every byte: after any mix of new sends, go-back-N
        /// resends and ACKs, the oldest stamp is that of the first unacknowledged segment.
        #[test]
        fn oldest_is_the_stamp_of_the_first_unacked_segment(
            ops in proptest::collection::vec((0u8..3, 0u64..8), 1..60),
        ) {
            const SEG: u64 = 100;
            let mut log = SendLog::default();
            let mut stamps: Vec<u64> = Vec::new(); // per segment index: last send time (ms)
            let (mut una, mut now) = (0u64, 0u64);
            for (op, k) in ops {
                now += 1;
                match op {
                    0 => {
                        let i = stamps.len() as u64;
                        log.sent(i * SEG, (i + 1) * SEG, t(now));
                        stamps.push(now);
                    }
                    1 if (stamps.len() as u64) > una => {
                        // Resend one outstanding segment.
                        let i = una + k % (stamps.len() as u64 - una);
                        log.sent(i * SEG, (i + 1) * SEG, t(now));
                        stamps[i as usize] = now;
                    }
                    2 => {
                        una = (una + k).min(stamps.len() as u64);
                        log.acked(una * SEG);
                    }
                    _ => {}
                }
                let want = stamps.get(una as usize).map(|&m| t(m));
                proptest::prop_assert_eq!(log.oldest(), want);
            }
        }
    }
}
