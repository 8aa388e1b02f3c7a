//! RACK loss detection (RFC 8985 §6) as the loss-recovery part of a SACK sender; its tail loss
//! probe (§7) runs in the sender (`sender/tlp.rs`), which sends the probe.
//!
//! The part keeps, per MSS-aligned segment of `[snd_una, snd_max)`, the time of its latest
//! transmission, whether it was ever retransmitted, whether it is SACKed, and how many of its
//! transmissions are believed to be in the network (0 once it is marked lost). On every ACK
//! (§6.2):
//! 1. for each segment the ACK newly delivers (cumulatively or selectively), in order of
//!    transmission: skip a retransmitted one whose RTT is below the minimum RTT (the ACK may be
//!    for the original); otherwise `RACK.rtt` becomes its RTT and, if it was sent after
//!    `RACK.xmit_ts` (ties broken by sequence), `RACK.xmit_ts`/`RACK.end_seq` become its own;
//! 2. a never-retransmitted segment delivered below the highest delivered sequence (`fack`)
//!    shows reordering;
//! 3. the reordering window is `min(min_RTT/4, SRTT)`, or 0 while no reordering has been seen
//!    and the sender is in recovery or holds at least DupThresh SACKed segments (§6.2 step 4);
//! 4. every segment still in flight that was sent before `RACK.xmit_ts` is lost once
//!    `xmit_ts + RACK.rtt + reo_wnd <= now`; for the others the reordering timer is armed for
//!    the largest remaining time (§6.2 step 5, §6.3), and its expiry repeats this step.
//!
//! The first loss it marks outside recovery starts fast recovery (RFC 6675 style: `recover =
//! snd_max`, one reduction, the first retransmission regardless of the window); lost segments go
//! out before new data. Sending is gated by the pipe (in-flight transmissions of unSACKed
//! segments, so a lost segment's retransmission counts once and a not-lost one's twice, as RFC
//! 6675 SetPipe) outside a timeout's recovery, also before a fast recovery starts, as Linux
//! counts its flight: each SACKed segment lets a new one go (a limited transmit without
//! RFC 3042's limit of two).
//! A lost retransmission is detected like any loss (its own transmission time) and resent.
//! After a retransmission timeout every unSACKed segment is marked lost (the sender goes back to
//! `snd_una`, skipping SACKed data); RACK keeps marking losses of what it resends and those are
//! resent within the timeout's recovery, which no fast recovery interrupts (RFC 6675 §5.1).
//!
//! Deliberate deviations (docs/modern.md): no DSACK (the receiver sends none), so the
//! reordering window never grows beyond `min_RTT/4` (`reo_wnd_mult` stays 1) and the
//! retransmitted-segment RTT rule has no timestamp check; the minimum RTT is the smallest RTT
//! RACK has measured from never-retransmitted segments (no windowed filter); after a timeout
//! every unSACKed segment is marked lost, not only the expired ones (the go-back-N sender
//! resends them all anyway).

use super::rack_board::{RackBoard, Slot};
use super::{
    AckDecision, AckInput, AckKind, LossRecovery, LossResponse, Phase, Retransmit, SenderView,
    WindowOp,
};
use engine::{SimDuration, SimTime};

/// RACK's per-connection state (RFC 8985 §5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rack {
    /// RACK.xmit_ts and RACK.end_seq: the most recently sent delivered segment.
    xmit: SimTime,
    end: u64,
    /// RACK.rtt in ns.
    rtt: u64,
    /// Smallest RTT measured from a never-retransmitted segment, ns.
    min_rtt: Option<u64>,
    /// RACK.fack: highest end of a delivered segment.
    fack: u64,
    reordering_seen: bool,
}

/// RACK loss detection over SACK.
#[derive(Clone, Debug)]
pub struct RackRecovery {
    dupthresh: u32,
    phase: Phase,
    rack: Rack,
    /// The segments of `[snd_una, snd_max)` (crate::recovery::rack_board).
    board: RackBoard,
    /// The episode's first retransmission, sent regardless of the window.
    forced: Option<u64>,
    /// The reordering timer.
    timer: Option<SimTime>,
    /// The sender's smoothed RTT, from the latest ACK.
    srtt: SimDuration,
    /// The segments one ACK newly delivers, kept between ACKs so that none allocates.
    newly: Vec<(Slot, u64)>,
}

/// `(t1, e1)` was sent after `(t2, e2)` (RFC 8985 §6.2 RACK_sent_after).
fn sent_after(t1: SimTime, e1: u64, t2: SimTime, e2: u64) -> bool {
    t1 > t2 || (t1 == t2 && e1 > e2)
}

impl RackRecovery {
    /// RACK for segments of `mss` bytes with the duplicate threshold `dupthresh` (3) of the
    /// reordering-window rule.
    pub fn new(mss: u32, dupthresh: u32) -> Self {
        RackRecovery {
            dupthresh: dupthresh.max(1),
            phase: Phase::Open,
            rack: Rack::default(),
            board: RackBoard::new(mss),
            forced: None,
            timer: None,
            srtt: SimDuration(0),
            newly: Vec::new(),
        }
    }

    /// The reordering window now (RFC 8985 §6.2 step 4), ns.
    pub fn reo_wnd(&self) -> u64 {
        let sacked = self.board.sacked_count();
        if !self.rack.reordering_seen
            && (self.phase != Phase::Open || sacked >= u64::from(self.dupthresh))
        {
            return 0;
        }
        let quarter = self.rack.min_rtt.map_or(0, |m| m / 4);
        match self.srtt.as_nanos() {
            0 => quarter,
            s => quarter.min(s),
        }
    }

    /// RACK.rtt in ns (for tests).
    pub fn rack_rtt(&self) -> u64 {
        self.rack.rtt
    }

    /// Whether reordering was seen.
    pub fn reordering_seen(&self) -> bool {
        self.rack.reordering_seen
    }

    /// Whether the segment containing `off` is marked lost and not yet resent.
    pub fn is_lost(&self, off: u64) -> bool {
        self.board
            .slot(off / self.board.mss())
            .is_some_and(|s| !s.sacked && s.copies == 0)
    }

    /// RFC 8985 §6.2 steps 1-2 for one newly delivered slot.
    fn delivered(&mut self, now: SimTime, s: Slot, end: u64, fack_before: u64) {
        let rtt = (now - s.xmit).as_nanos();
        if s.rexmitted {
            // The ACK may be for an earlier transmission: ambiguous below the minimum RTT.
            if self.rack.min_rtt.is_none_or(|m| rtt < m) {
                return;
            }
        } else {
            if end < fack_before {
                self.rack.reordering_seen = true;
            }
            self.rack.min_rtt = Some(self.rack.min_rtt.map_or(rtt, |m| m.min(rtt)));
        }
        self.rack.rtt = rtt;
        if sent_after(s.xmit, end, self.rack.xmit, self.rack.end) {
            self.rack.xmit = s.xmit;
            self.rack.end = end;
        }
    }

    /// Process the cumulative ACK and SACK blocks of one ACK (RFC 8985 §6.2 steps 1-2).
    fn update(&mut self, now: SimTime, ack: u64, blocks: &[(u64, u64)]) {
        let fack_before = self.rack.fack;
        // (slot copy, end) of every segment newly delivered by this ACK.
        let mut newly = std::mem::take(&mut self.newly);
        newly.clear();
        self.board.on_cum_ack(ack, &mut newly);
        for &(l, r) in blocks {
            self.board.on_sack_block(l, r, &mut newly);
        }
        newly.sort_by_key(|&(s, end)| (s.xmit, end));
        for &(s, end) in &newly {
            self.delivered(now, s, end, fack_before);
            self.rack.fack = self.rack.fack.max(end);
        }
        self.newly = newly;
    }

    /// RFC 8985 §6.2 step 5: mark losses; arm or clear the reordering timer. Returns whether a
    /// segment was newly marked lost.
    fn detect(&mut self, now: SimTime) -> bool {
        let reo = self.reo_wnd();
        let rack = (self.rack.xmit, self.rack.end);
        let (lost, wait) = self.board.detect(now, rack, self.rack.rtt, reo);
        self.timer = (wait > 0).then(|| now + SimDuration(wait));
        lost
    }

    /// Losses marked outside recovery start one (RFC 6675 §5 with RACK's loss marks).
    fn respond(&mut self, lost: bool, view: SenderView) -> Option<LossResponse> {
        if !lost || self.phase != Phase::Open {
            return None;
        }
        self.phase = Phase::Recovery {
            recover: view.snd_max,
        };
        self.forced = self.lowest_lost();
        Some(LossResponse::FastRetransmit {
            inflate_segments: 0,
        })
    }

    fn lowest_lost(&self) -> Option<u64> {
        self.board.lowest_lost()
    }
}

impl LossRecovery for RackRecovery {
    fn name(&self) -> &'static str {
        "rack"
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        self.srtt = ack.srtt;
        self.update(ack.now, ack.ack, ack.sack);
        let window = match (ack.kind, self.phase) {
            (AckKind::Dup { .. }, _) => WindowOp::Keep,
            (AckKind::New { .. }, Phase::Recovery { recover }) if ack.ack >= recover => {
                self.phase = Phase::Open;
                self.forced = None;
                WindowOp::DeflateToSsthresh
            }
            (AckKind::New { .. }, Phase::Recovery { .. }) => WindowOp::Keep,
            (AckKind::New { .. }, Phase::Loss { recover }) => {
                if ack.ack >= recover {
                    self.phase = Phase::Open;
                }
                WindowOp::Grow
            }
            (AckKind::New { .. }, Phase::Open) => WindowOp::Grow,
        };
        let lost = self.detect(ack.now);
        AckDecision {
            congestion: self.respond(lost, view),
            window,
        }
    }

    fn on_timeout(&mut self, view: SenderView) {
        self.phase = Phase::Loss {
            recover: view.snd_max,
        };
        self.forced = None;
        self.timer = None;
        self.board.lose_unsacked();
    }

    fn next_retransmission(
        &mut self,
        _now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        if let Some(off) = self.forced.take() {
            if self.is_lost(off) {
                let (start, end) = self.board.range(off / self.board.mss());
                return Some(Retransmit {
                    off: start,
                    len: (end - start) as u32,
                    forced: true,
                });
            }
        }
        let limit = match self.phase {
            Phase::Open => return None,
            Phase::Recovery { .. } => view.snd_max,
            // After a timeout the go-back-N resends from snd_nxt; repair only below it.
            Phase::Loss { .. } => view.snd_nxt,
        };
        let off = self.lowest_lost().filter(|&o| o < limit)?;
        let (start, end) = self.board.range(off / self.board.mss());
        let len = end - start;
        (len <= budget).then_some(Retransmit {
            off: start,
            len: len as u32,
            forced: false,
        })
    }

    fn pipe(&self, view: SenderView) -> Option<u64> {
        // Open and in fast recovery, as Linux counts its flight (packets out − SACKed − lost +
        // retransmitted): a SACKed segment makes room for a new one even before recovery
        // starts. After a timeout the go-back-N follows snd_nxt − snd_una.
        if matches!(self.phase, Phase::Loss { .. }) {
            return None;
        }
        Some(view.snd_max.saturating_sub(self.board.high()) + self.board.pipe())
    }

    fn is_sacked(&self, off: u64) -> bool {
        off >= self.board.una()
            && self
                .board
                .slot(off / self.board.mss())
                .is_some_and(|s| s.sacked)
    }

    fn on_undo(&mut self) {
        self.forced = None;
        self.phase = Phase::Open;
    }

    fn sacked_bytes(&self) -> Option<u64> {
        Some(self.board.sacked_bytes())
    }

    fn tracks_sends(&self) -> bool {
        true
    }

    fn on_sent(&mut self, now: SimTime, off: u64, len: u32) {
        self.board.on_sent(now, off, len);
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.timer
    }

    fn on_timer(&mut self, now: SimTime, view: SenderView) -> AckDecision {
        if self.timer.is_none_or(|t| t > now) {
            return AckDecision::window(WindowOp::Keep);
        }
        // RFC 8985 §6.3: the reordering timer expired; detect again.
        let lost = self.detect(now);
        AckDecision {
            congestion: self.respond(lost, view),
            window: WindowOp::Keep,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    fn ms(m: u64) -> SimTime {
        SimTime(m * 1_000_000)
    }

    fn view(una: u64, max: u64) -> SenderView {
        SenderView {
            snd_una: una,
            snd_nxt: max,
            snd_max: max,
            mss: MSS as u32,
        }
    }

    fn ack<'a>(now: u64, cum: u64, dup: bool, sack: &'a [(u64, u64)]) -> AckInput<'a> {
        AckInput {
            now: ms(now),
            kind: if dup {
                AckKind::Dup { count: 1 }
            } else {
                AckKind::New { acked: MSS }
            },
            ack: cum,
            sack,
            smart: None,
            eln: false,
            cc: None,
            srtt: SimDuration::from_millis(100),
            srtt_ticks: 0,
        }
    }

    /// Segments 0..n sent 1 ms apart from time zero.
    fn sent(n: u64) -> RackRecovery {
        let mut r = RackRecovery::new(MSS as u32, 3);
        for k in 0..n {
            r.on_sent(ms(k), k * MSS, MSS as u32);
        }
        r
    }

    /// By hand: segments 0-3 leave at 0, 1, 2, 3 ms; at 103 ms a duplicate ACK SACKs segment
    /// 3 alone. RACK.rtt = 103 − 3 = 100 ms = min_RTT; no reordering seen, one SACKed segment
    /// (< DupThresh), not in recovery: reo_wnd = min(100/4, SRTT) = 25 ms. Segment k is lost at
    /// k + 100 + 25 ms: none yet; the timer waits for the last of them, 127 ms. When it fires
    /// all three are lost and fast recovery starts: the first resent regardless of the window,
    /// the others as the pipe allows (pipe 0: the three lost ones are out of it, segment 3 is
    /// SACKed).
    #[test]
    fn a_sacked_later_segment_marks_earlier_ones_lost_after_the_reordering_window() {
        let mut r = sent(4);
        let v = view(0, 4 * MSS);
        let d = r.on_ack(&ack(103, 0, true, &[(3 * MSS, 4 * MSS)]), v);
        assert_eq!(d.congestion, None);
        assert_eq!((r.rack_rtt(), r.reo_wnd()), (100_000_000, 25_000_000));
        assert_eq!(r.poll_timeout(), Some(ms(127)));
        assert_eq!(r.on_timer(ms(126), v).congestion, None, "not yet");
        let d = r.on_timer(ms(127), v);
        assert!(d.congestion.is_some());
        assert_eq!(r.phase(), Phase::Recovery { recover: 4 * MSS });
        assert!((0..3).all(|k| r.is_lost(k * MSS)) && !r.is_lost(3 * MSS));
        assert_eq!(r.pipe(v), Some(0));
        assert_eq!(r.reo_wnd(), 0, "in recovery without reordering");
        let first = r.next_retransmission(ms(127), v, 0).unwrap();
        assert_eq!((first.off, first.forced), (0, true));
        r.on_sent(ms(127), 0, MSS as u32);
        assert_eq!(r.pipe(v), Some(MSS));
        assert_eq!(r.next_retransmission(ms(127), v, 0), None, "no room");
        let next = r.next_retransmission(ms(127), v, MSS).unwrap();
        assert_eq!((next.off, next.forced), (MSS, false));
    }

    /// DupThresh SACKed segments and no reordering seen: reo_wnd = 0, so the ACK that SACKs
    /// segments 2-4 (RACK.rtt = 104 − 4 = 100 ms) marks 0 and 1 lost at once (sent at 0 and
    /// 1 ms: lost from 100 and 101 ms).
    #[test]
    fn dupthresh_sacked_segments_leave_no_reordering_window() {
        let mut r = sent(5);
        let d = r.on_ack(&ack(104, 0, true, &[(2 * MSS, 5 * MSS)]), view(0, 5 * MSS));
        assert!(d.congestion.is_some());
        assert!(r.is_lost(0) && r.is_lost(MSS) && !r.is_lost(2 * MSS));
        assert_eq!(r.poll_timeout(), None);
    }

    /// A never-retransmitted segment delivered below the highest delivered one is reordering
    /// (RFC 8985 §6.2 step 3): from then on the window stays min_RTT/4 even with DupThresh
    /// SACKed segments.
    #[test]
    fn late_originals_show_reordering_and_keep_the_window() {
        let mut r = sent(6);
        let v = view(0, 6 * MSS);
        r.on_ack(&ack(103, 0, true, &[(3 * MSS, 4 * MSS)]), v);
        assert!(!r.reordering_seen());
        // Segment 0 arrives late: cumulative ACK to 1000.
        r.on_ack(&ack(104, MSS, false, &[(3 * MSS, 4 * MSS)]), v);
        assert!(r.reordering_seen());
        r.on_ack(&ack(106, MSS, true, &[(3 * MSS, 6 * MSS)]), v);
        assert_eq!(r.reo_wnd(), 25_000_000);
        assert!(!r.is_lost(MSS), "1 + 100 + 25 ms is still ahead at 106 ms");
    }

    /// A lost retransmission is detected like any loss (RFC 8985 §2.1): segment 0, resent at
    /// 127 ms, is lost again when a segment sent after it (segment 4, at 130 ms) is SACKed and
    /// 127 + RACK.rtt + 0 has passed.
    #[test]
    fn a_lost_retransmission_is_detected_from_its_own_send_time() {
        let mut r = sent(4);
        let v = view(0, 4 * MSS);
        r.on_ack(&ack(103, 0, true, &[(3 * MSS, 4 * MSS)]), v);
        r.on_timer(ms(127), v);
        assert!(r.next_retransmission(ms(127), v, 0).is_some());
        r.on_sent(ms(127), 0, MSS as u32);
        assert!(!r.is_lost(0));
        r.on_sent(ms(130), 4 * MSS, MSS as u32);
        let v = view(0, 5 * MSS);
        r.on_ack(
            &ack(230, 0, true, &[(4 * MSS, 5 * MSS), (3 * MSS, 4 * MSS)]),
            v,
        );
        assert_eq!(r.rack_rtt(), 100_000_000);
        assert!(r.is_lost(0), "127 + 100 <= 230");
        let again = r.next_retransmission(ms(230), v, 10 * MSS).unwrap();
        assert_eq!(again.off, 0);
    }
}
