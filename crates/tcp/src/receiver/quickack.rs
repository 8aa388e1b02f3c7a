//! Linux's delayed-ACK engine ([`super::DelayedAck::Linux`]; net/ipv4/tcp_input.c
//! `tcp_event_data_recv`, `tcp_incr_quickack`, `__tcp_ack_snd_check`; net/ipv4/tcp_output.c
//! `tcp_send_delayed_ack`, `tcp_event_ack_sent`; include/net/tcp.h `TCP_ATO_MIN`,
//! `TCP_DELACK_MAX`, `TCP_MAX_QUICKACKS`):
//!
//! - quick-ack mode: the first data segment opens it with `min(window / (2·MSS), 16)` ACKs (at
//!   least 2) that go out at once, one per segment; a duplicate segment, or data after a gap
//!   longer than the RTO, opens it again;
//! - otherwise an ACK goes at once when more than one full segment is unacknowledged (the
//!   receiver's existing two-segment rule) and else after the ACK timeout `ato`;
//! - `ato` starts at 40 ms (`TCP_ATO_MIN`) and follows the gaps `m` between data segments:
//!   `ato/2 + 20 ms` when `m` is at most 20 ms, `ato/2 + m` when `m < ato`; the delay used is
//!   `ato` between 40 ms and a cap (200 ms, `TCP_DELACK_MAX`).
//!
//! Deliberate deviations (docs/modern.md): the quick-ack budget comes from the advertised
//! window and the MSS (Linux uses its initial receive window, which grows, and a receive-MSS
//! estimate starting at 536 bytes); only the quick ACKs themselves use the budget (Linux counts
//! every ACK sent meanwhile, also those for out-of-order data); the receiver's RTO for the
//! long-gap rule is Linux's initial 1 s (a receiver that sends no data has no RTT sample); no
//! interactive (ping-pong) mode.

use engine::{SimDuration, SimTime};

/// TCP_ATO_MIN: 40 ms.
const ATO_MIN: u64 = 40_000_000;
/// TCP_MAX_QUICKACKS.
const MAX_QUICKACKS: u32 = 16;
/// The receiver's RTO for the long-gap rule (TCP_TIMEOUT_INIT, 1 s).
const RECEIVER_RTO: u64 = 1_000_000_000;

/// Linux's delayed-ACK state of one receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct QuickAck {
    /// ACKs still to send at once (icsk_ack.quick).
    quick: u32,
    /// The quick-ack budget a (re)start grants.
    budget: u32,
    /// The ACK timeout, ns (icsk_ack.ato; 0 before the first data segment).
    ato: u64,
    /// When the last data segment arrived (icsk_ack.lrcvtime).
    last: Option<SimTime>,
}

impl QuickAck {
    /// For a receiver advertising `window` bytes with segments of `mss` bytes.
    pub(super) fn new(window: u32, mss: u32) -> Self {
        let budget = (window / (2 * mss.max(1))).clamp(2, MAX_QUICKACKS);
        QuickAck {
            quick: 0,
            budget,
            ato: 0,
            last: None,
        }
    }

    /// tcp_incr_quickack / tcp_enter_quickack_mode.
    pub(super) fn enter(&mut self) {
        self.quick = self.quick.max(self.budget);
        self.ato = ATO_MIN;
    }

    /// `tcp_grow_window` raised the offered window's bound: `icsk_ack.quick |= 1`
    /// (net/ipv4/tcp_input.c), so the ACK for the segment that raised it goes at once
    /// (`__tcp_ack_snd_check`, `tcp_in_quickack_mode`). While the window still opens, every
    /// in-order segment is acknowledged by itself.
    pub(super) fn window_grew(&mut self) {
        self.quick |= 1;
    }

    /// An in-order data segment arrived at `now` (tcp_event_data_recv). Returns whether the
    /// receiver is in quick-ack mode: the ACK goes at once and uses one of the budget.
    #[inline(never)]
    pub(super) fn on_data(&mut self, now: SimTime) -> bool {
        match self.last {
            None => self.enter(),
            Some(last) => {
                let m = (now - last).as_nanos();
                if m <= ATO_MIN / 2 {
                    self.ato = self.ato / 2 + ATO_MIN / 2;
                } else if m < self.ato {
                    self.ato = (self.ato / 2 + m).min(RECEIVER_RTO);
                } else if m > RECEIVER_RTO {
                    self.enter();
                }
            }
        }
        self.last = Some(now);
        if self.quick == 0 {
            return false;
        }
        // tcp_event_ack_sent → tcp_dec_quickack_mode: the quick ACK uses one of the budget.
        self.quick -= 1;
        true
    }

    /// The delayed-ACK timeout (tcp_send_delayed_ack): `ato`, at least 40 ms, at most `cap`.
    pub(super) fn delay(&self, cap: SimDuration) -> SimDuration {
        SimDuration(self.ato.max(ATO_MIN).min(cap.as_nanos().max(ATO_MIN)))
    }

    /// ACKs still to send at once (for tests).
    #[cfg(test)]
    pub(super) fn quick(&self) -> u32 {
        self.quick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(m: u64) -> SimTime {
        SimTime(m * 1_000_000)
    }

    /// By hand: a 32 KiB window of 1400-byte segments grants 32768 / 2800 = 11 quick ACKs. The
    /// gaps decide `ato`: from 40 ms, a 5 ms gap gives 40/2 + 20 = 40 ms; a 30 ms gap (< ato)
    /// gives 20 + 30 = 50 ms; a 10 ms gap 25 + 20 = 45 ms; a 1.5 s gap re-opens quick mode.
    #[test]
    fn quick_acks_then_the_adaptive_timeout_by_hand() {
        let mut q = QuickAck::new(32768, 1400);
        assert!(q.on_data(ms(0)), "the first segment opens quick-ack mode");
        assert_eq!(q.quick(), 10, "one of 11 used");
        for _ in 0..10 {
            assert!(q.on_data(ms(0)));
        }
        assert!(!q.on_data(ms(5)));
        assert_eq!(
            q.delay(SimDuration::from_millis(200)),
            SimDuration::from_millis(40)
        );
        q.on_data(ms(35));
        assert_eq!(
            q.delay(SimDuration::from_millis(200)),
            SimDuration::from_millis(50)
        );
        q.on_data(ms(45));
        assert_eq!(
            q.delay(SimDuration::from_millis(200)),
            SimDuration::from_millis(45)
        );
        assert_eq!(
            q.delay(SimDuration::from_millis(42)),
            SimDuration::from_millis(42),
            "cap"
        );
        assert!(q.on_data(ms(1600)), "a long gap re-opens quick-ack mode");
        assert_eq!(QuickAck::new(4000, 1400).budget, 2, "at least two");
        assert_eq!(QuickAck::new(65535, 536).budget, 16, "at most sixteen");
    }

    /// `quick |= 1`: once the budget is spent, a window growth makes the next segment's ACK go
    /// at once (one ACK, not a new budget); an odd count stays as it is.
    #[test]
    fn a_window_growth_grants_one_quick_ack() {
        let mut q = QuickAck::new(4000, 1000);
        assert!(q.on_data(ms(0)) && q.on_data(ms(1)), "the budget of two");
        assert!(!q.on_data(ms(2)), "spent");
        q.window_grew();
        assert!(q.on_data(ms(3)), "the growth's quick ACK");
        assert!(!q.on_data(ms(4)), "only one");
        q.enter();
        q.window_grew();
        assert_eq!(q.quick(), 3, "2 | 1");
    }
}
