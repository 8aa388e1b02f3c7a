//! The recipient's reorder buffer of a Block Ack agreement (IEEE Std 802.11-2016 §10.24.4
//! "Data and acknowledgment transfer using immediate Block Ack policy" and §10.24.7.6, the
//! recipient's receive reordering buffer: MSDUs are passed up in order of their sequence
//! numbers), as Linux mac80211 keeps it (net/mac80211/rx.c, `ieee80211_sta_manage_reorder_buf`
//! and `ieee80211_sta_reorder_release`).
//!
//! An MPDU received intact at the window's start (WinStartB, mac80211's `head_seq_num`) is
//! released to IP at once, with every MPDU held right behind it; one received behind a hole is
//! held. The window moves past a hole when the originator's BlockAckReq carries a later
//! starting sequence number (§10.24.7.6.3 c), here also when the originator gives up on the
//! missing MPDU at its retry limit (it then sends such a request: ns-3's
//! `BlockAckManager::DiscardOutstandingMpdus` schedules one, Linux's ath9k `ath_send_bar`),
//! or when a held MPDU has waited the reorder timeout: mac80211's `HT_RX_REORDER_BUF_TIMEOUT`
//! (HZ / 10, 100 ms), after which it is released with everything before it, the holes
//! skipped. An MPDU that arrives behind the window (its hole was skipped) is discarded
//! (mac80211: "frame with out of date sequence number", dropped).

use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// mac80211's reorder timeout, `HT_RX_REORDER_BUF_TIMEOUT` = HZ / 10 (net/mac80211/rx.c).
pub const REORDER_TIMEOUT: SimDuration = SimDuration::from_millis(100);

/// What the recipient does with an MPDU.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum RxFate<T> {
    /// Released to IP, in sequence order.
    Released(T),
    /// Arrived behind the window (its hole was skipped): discarded.
    Late(T),
}

/// The recipient's reorder buffer: the window's start and the MPDUs held behind a hole.
#[derive(Debug)]
pub(super) struct Reorder<T> {
    /// WinStartB: the next sequence number to release.
    win_start: u32,
    /// Held MPDUs, in sequence order, all after `win_start`, each with the time it arrived.
    held: VecDeque<(u32, T, SimTime)>,
    /// MPDUs that were held (counter).
    pub(super) held_total: u64,
    /// MPDUs released past a hole by the reorder timeout (counter).
    pub(super) timed_out: u64,
    /// MPDUs discarded for arriving behind the window (counter).
    pub(super) late: u64,
}

impl<T> Default for Reorder<T> {
    fn default() -> Self {
        Reorder {
            win_start: 0,
            held: VecDeque::new(),
            held_total: 0,
            timed_out: 0,
            late: 0,
        }
    }
}

impl<T> Reorder<T> {
    /// The MPDU `seq` arrived intact at `now`.
    pub(super) fn receive(
        &mut self,
        seq: u32,
        item: T,
        now: SimTime,
        out: &mut impl FnMut(RxFate<T>),
    ) {
        if seq < self.win_start {
            self.late += 1;
            out(RxFate::Late(item));
            return;
        }
        if seq == self.win_start {
            out(RxFate::Released(item));
            self.win_start += 1;
            self.release_in_order(out);
            return;
        }
        // Behind a hole: held, in sequence order (a sequence number arrives intact once).
        let at = self.held.partition_point(|h| h.0 < seq);
        self.held.insert(at, (seq, item, now));
        self.held_total += 1;
    }

    /// The window moves to `start` (a BlockAckReq's starting sequence number, or the
    /// originator's window after it gave MPDUs up): the held MPDUs before it are released,
    /// then those in order after it.
    pub(super) fn advance_to(&mut self, start: u32, out: &mut impl FnMut(RxFate<T>)) {
        if start <= self.win_start {
            return;
        }
        while self.held.front().is_some_and(|h| h.0 < start) {
            if let Some((_, item, _)) = self.held.pop_front() {
                out(RxFate::Released(item));
            }
        }
        self.win_start = start;
        self.release_in_order(out);
    }

    /// The reorder timeout at `now`: every held MPDU that has waited [`REORDER_TIMEOUT`] is
    /// released with those before it, the holes before it skipped (mac80211's
    /// `ieee80211_sta_reorder_release`).
    pub(super) fn expire(&mut self, now: SimTime, out: &mut impl FnMut(RxFate<T>)) {
        let last = self
            .held
            .iter()
            .filter(|h| h.2 + REORDER_TIMEOUT <= now)
            .map(|h| h.0)
            .max();
        if let Some(seq) = last {
            self.timed_out += self.held.iter().filter(|h| h.0 <= seq).count() as u64;
            self.advance_to(seq + 1, out);
        }
    }

    /// When the next held MPDU's timeout is due, if any is held.
    pub(super) fn next_expiry(&self) -> Option<SimTime> {
        self.held.iter().map(|h| h.2 + REORDER_TIMEOUT).min()
    }

    /// MPDUs held now.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        self.held.len()
    }

    fn release_in_order(&mut self, out: &mut impl FnMut(RxFate<T>)) {
        while self.held.front().is_some_and(|h| h.0 == self.win_start) {
            if let Some((_, item, _)) = self.held.pop_front() {
                out(RxFate::Released(item));
            }
            self.win_start += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        r: &mut Reorder<u32>,
        f: impl FnOnce(&mut Reorder<u32>, &mut dyn FnMut(RxFate<u32>)),
    ) -> Vec<RxFate<u32>> {
        let mut out = Vec::new();
        f(r, &mut |x| out.push(x));
        out
    }

    fn ms(t: u64) -> SimTime {
        SimTime(t * 1_000_000)
    }

    #[test]
    fn a_hole_holds_what_follows_until_it_arrives() {
        let mut r = Reorder::default();
        assert_eq!(
            run(&mut r, |r, o| r.receive(0, 0, ms(0), &mut |x| o(x))),
            [RxFate::Released(0)]
        );
        assert_eq!(
            run(&mut r, |r, o| r.receive(2, 2, ms(1), &mut |x| o(x))),
            []
        );
        assert_eq!(
            run(&mut r, |r, o| r.receive(3, 3, ms(1), &mut |x| o(x))),
            []
        );
        assert_eq!(r.held(), 2);
        assert_eq!(r.next_expiry(), Some(ms(101)));
        assert_eq!(
            run(&mut r, |r, o| r.receive(1, 1, ms(2), &mut |x| o(x))),
            [1, 2, 3].map(RxFate::Released)
        );
        assert_eq!((r.held(), r.held_total, r.timed_out, r.late), (0, 2, 0, 0));
        assert_eq!(r.next_expiry(), None);
    }

    #[test]
    fn the_window_moves_past_a_hole_given_up() {
        let mut r = Reorder::default();
        for s in [1, 2, 4] {
            run(&mut r, |r, o| r.receive(s, s, ms(0), &mut |x| o(x)));
        }
        // Moving to 1 releases nothing held before it, then 1 and 2 in order; 4 waits for 3.
        assert_eq!(
            run(&mut r, |r, o| r.advance_to(1, &mut |x| o(x))),
            [1, 2].map(RxFate::Released)
        );
        assert_eq!(
            run(&mut r, |r, o| r.advance_to(4, &mut |x| o(x))),
            [RxFate::Released(4)]
        );
        // 0 and 3 arrive late: discarded.
        assert_eq!(
            run(&mut r, |r, o| r.receive(3, 3, ms(1), &mut |x| o(x))),
            [RxFate::Late(3)]
        );
        assert_eq!(r.late, 1);
        // Never backwards.
        assert_eq!(run(&mut r, |r, o| r.advance_to(2, &mut |x| o(x))), []);
    }

    #[test]
    fn the_timeout_releases_past_the_holes_only_what_waited_100_ms() {
        let mut r = Reorder::default();
        run(&mut r, |r, o| r.receive(2, 2, ms(0), &mut |x| o(x)));
        run(&mut r, |r, o| r.receive(4, 4, ms(50), &mut |x| o(x)));
        run(&mut r, |r, o| r.receive(5, 5, ms(60), &mut |x| o(x)));
        assert_eq!(run(&mut r, |r, o| r.expire(ms(99), &mut |x| o(x))), []);
        // At 100 ms MPDU 2 has waited its 100 ms: 0 and 1 skipped, 2 released; 4 and 5 wait
        // behind 3.
        assert_eq!(
            run(&mut r, |r, o| r.expire(ms(100), &mut |x| o(x))),
            [RxFate::Released(2)]
        );
        assert_eq!(r.next_expiry(), Some(ms(150)));
        assert_eq!(
            run(&mut r, |r, o| r.expire(ms(160), &mut |x| o(x))),
            [4, 5].map(RxFate::Released)
        );
        assert_eq!((r.timed_out, r.held()), (3, 0));
        assert_eq!(
            run(&mut r, |r, o| r.receive(1, 1, ms(170), &mut |x| o(x))),
            [RxFate::Late(1)]
        );
    }
}
