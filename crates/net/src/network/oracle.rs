//! Ground truth for the ideal-BWE oracle (eln-llelsn spec §4.13 (c), [PROPOSAL]: "`BWE` = the
//! true available bandwidth on the bottleneck, taken from simulator ground truth (capacity
//! minus the other flows' measured rate over the last RTT)"; the seed: "the ideal BWE scheme
//! which knows the exact available bandwidth and RTT").
//!
//! What "available" means here, exactly: for a flow that asks, with the bottleneck's capacity
//! `C` (bytes per second) and its window `W` (its round trip), the available rate at `now` is
//! `C` minus the other flows' data bytes that arrived at their receivers in `(now - W, now]`
//! divided by `W`, at least zero. "Other flows" are every other TCP flow of the network (the
//! study's Fig. 12: the ten downloads share the cell and both wired hops); data bytes are
//! segment payloads, retransmissions included (what the bottleneck carried for them). The
//! network hands the value to the flow's sender before each ACK it delivers, so the controller
//! holds the value of the latest ACK at a congestion event.

use engine::{FlowId, SimDuration, SimTime};
use std::collections::VecDeque;

/// The oracle's measurements: who asks, and every flow's recent arrivals.
#[derive(Debug, Default)]
pub(crate) struct AvailableRate {
    /// Per flow: `(capacity in bytes per second, window)` if it asks.
    asks: Vec<Option<(u64, SimDuration)>>,
    /// Per flow: `(arrival time, payload bytes)` at its receiver, the last `longest` only.
    arrivals: Vec<VecDeque<(SimTime, u32)>>,
    /// The longest window any flow asks for.
    longest: SimDuration,
}

impl AvailableRate {
    /// `flow` asks for its available rate: `capacity` bytes per second over `window`.
    pub(crate) fn ask(&mut self, flow: FlowId, capacity: u64, window: SimDuration) {
        let i = flow.index();
        if self.asks.len() <= i {
            self.asks.resize(i + 1, None);
        }
        self.asks[i] = Some((capacity, window.max(SimDuration(1))));
        self.longest = self.longest.max(window);
    }

    /// `bytes` of `flow`'s data arrived at its receiver at `now`.
    pub(crate) fn arrived(&mut self, flow: FlowId, now: SimTime, bytes: u32) {
        let i = flow.index();
        if self.arrivals.len() <= i {
            self.arrivals.resize_with(i + 1, VecDeque::new);
        }
        let log = &mut self.arrivals[i];
        log.push_back((now, bytes));
        while log.front().is_some_and(|&(t, _)| t + self.longest < now) {
            log.pop_front();
        }
    }

    /// The available rate of `flow` at `now` in bytes per second, if it asks.
    pub(crate) fn available(&self, flow: FlowId, now: SimTime) -> Option<u64> {
        let (capacity, window) = (*self.asks.get(flow.index())?)?;
        let from = now.as_nanos().saturating_sub(window.as_nanos());
        let others: u64 = self
            .arrivals
            .iter()
            .enumerate()
            .filter(|&(g, _)| g != flow.index())
            .map(|(_, log)| {
                log.iter()
                    .rev()
                    .take_while(|&&(t, _)| t.as_nanos() > from)
                    .map(|&(_, b)| u64::from(b))
                    .sum::<u64>()
            })
            .sum();
        // bytes / window in bytes per second, integers (u128: no overflow).
        let rate = u128::from(others) * 1_000_000_000 / u128::from(window.as_nanos());
        Some(capacity.saturating_sub(rate.min(u128::from(u64::MAX)) as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(m: u64) -> SimTime {
        SimTime(m * 1_000_000)
    }

    #[test]
    fn capacity_minus_the_others_over_the_last_window() {
        let mut o = AvailableRate::default();
        // Flow 0 asks: 500 000 B/s over 100 ms.
        o.ask(FlowId(0), 500_000, SimDuration::from_millis(100));
        assert_eq!(o.available(FlowId(0), ms(0)), Some(500_000));
        assert_eq!(o.available(FlowId(1), ms(0)), None, "flow 1 does not ask");
        // Its own arrivals do not count; flow 1's 10 000 bytes at 50 ms and flow 2's 5 000 at
        // 120 ms: at 140 ms both are inside (40, 140]: 15 000 B / 0.1 s = 150 000 B/s.
        o.arrived(FlowId(0), ms(60), 40_000);
        o.arrived(FlowId(1), ms(50), 10_000);
        o.arrived(FlowId(2), ms(120), 5_000);
        assert_eq!(o.available(FlowId(0), ms(140)), Some(350_000));
        // At 150 ms flow 1's arrival at 50 ms has left the window (50, 150].
        assert_eq!(o.available(FlowId(0), ms(150)), Some(450_000));
        // Never below zero.
        o.arrived(FlowId(1), ms(151), 90_000);
        assert_eq!(o.available(FlowId(0), ms(160)), Some(0));
    }
}
