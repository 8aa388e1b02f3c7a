//! BBR version 1 (draft-cardwell-iccrg-bbr-congestion-control-00; Cardwell, Cheng, Gunn,
//! Yeganeh and Jacobson, "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016).
//!
//! BBR builds a model of the path from the sender's delivery-rate samples ([`RateSample`], one
//! per ACK) instead of reacting to loss: the bottleneck bandwidth `BtlBw` is the windowed
//! maximum of the delivery rate over the last 10 round trips (samples of an application-limited
//! sender count only if they raise it), the propagation delay `RTprop` the minimum RTT over the
//! last 10 s. It paces at `pacing_gain · BtlBw` and bounds the flight by `cwnd_gain · BDP +
//! 3 send quanta` (`BBRInflight`), in four states:
//! - Startup: both gains 2/ln 2 (2.885) double the sending rate every round; the pipe is full
//!   once BtlBw has grown by less than 25 % in three rounds in a row (not counting
//!   application-limited ones);
//! - Drain: pacing gain ln 2/2 until the flight is down to one BDP;
//! - ProbeBW: cwnd gain 2, pacing gain cycling 5/4, 3/4, 1, 1, 1, 1, 1, 1, each phase one
//!   RTprop long, the 5/4 phase until the flight reaches 5/4 BDP (or a loss), the 3/4 phase
//!   ending early once the flight is down to one BDP; it enters the cycle at a phase chosen at
//!   random, never the 3/4 one;
//! - ProbeRTT: when RTprop has not been lowered for 10 s, cwnd falls to 4 segments for at least
//!   200 ms and one round trip after the flight has come down to it, to measure the path empty.
//!
//! Losses: a fast recovery starts with packet conservation for one round (cwnd = flight +
//! delivered), the window before it is restored when recovery ends; a timeout sets cwnd to one
//! segment, then cwnd grows by what is delivered up to the target, and the window is restored
//! when the timeout's recovery ends.
//!
//! Deliberate deviations (docs/modern.md): integer arithmetic (bandwidth in bytes per second,
//! gains in 1/256 as Linux); the bandwidth filter is the exact maximum of per-round maxima over
//! 10 rounds (Linux and the draft use a three-sample approximation); RTprop is lowered only by a
//! strictly smaller RTT, as Linux does (the draft also accepts an equal one, which on a
//! simulated path with a constant delay would refresh it for ever and never probe); the
//! send quantum is the draft's by pacing rate, but the sender paces single segments (no TSO);
//! no pacing before the first rate sample (the initial window goes out at once); ProbeRTT does
//! not mark its samples application-limited, no idle restart, no long-term bandwidth sampling
//! (Linux's policer detection); the 3/4 phase's random start comes from a seed given at
//! construction.

use super::{AckSample, CongestionControl, CongestionEvent, ModelState, RateSample};
use crate::recovery::Phase;
use engine::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Gains in 1/256 (BBR_UNIT in Linux).
const UNIT: u64 = 256;
/// 2/ln 2 = 2.885 (Startup's pacing and cwnd gain).
const HIGH_GAIN: u64 = 2885 * UNIT / 1000 + 1;
/// ln 2/2 (Drain's pacing gain).
const DRAIN_GAIN: u64 = 1000 * UNIT / 2885;
/// ProbeBW's cwnd gain.
const CWND_GAIN: u64 = 2 * UNIT;
/// ProbeBW's pacing gains, one phase per RTprop.
const CYCLE: [u64; 8] = [
    5 * UNIT / 4,
    3 * UNIT / 4,
    UNIT,
    UNIT,
    UNIT,
    UNIT,
    UNIT,
    UNIT,
];
/// The bandwidth filter's window, in round trips.
const BW_ROUNDS: u64 = 10;
/// The RTprop filter's window.
const RTPROP_WINDOW: SimDuration = SimDuration::from_secs(10);
/// How long ProbeRTT holds the flight at the minimum.
const PROBE_RTT_TIME: SimDuration = SimDuration::from_millis(200);
/// The minimum window, in segments (BBRMinPipeCwnd).
const MIN_PIPE_SEGMENTS: u32 = 4;

/// BBR's state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbrMode {
    /// Exponential search for the bottleneck bandwidth.
    Startup,
    /// Draining the queue Startup built.
    Drain,
    /// Cruising at the bottleneck bandwidth, probing for more once per cycle.
    ProbeBw,
    /// Measuring the propagation delay with an (almost) empty pipe.
    ProbeRtt,
}

impl BbrMode {
    fn name(self) -> &'static str {
        match self {
            BbrMode::Startup => "startup",
            BbrMode::Drain => "drain",
            BbrMode::ProbeBw => "probe-bw",
            BbrMode::ProbeRtt => "probe-rtt",
        }
    }
}

/// The windowed maximum of the delivery rate: the largest sample of each round, for the last
/// [`BW_ROUNDS`] rounds.
#[derive(Clone, Debug, Default)]
struct BwFilter {
    rounds: VecDeque<(u64, u64)>,
}

impl BwFilter {
    fn update(&mut self, round: u64, bw: u64) {
        match self.rounds.back_mut() {
            Some((r, b)) if *r == round => *b = (*b).max(bw),
            _ => self.rounds.push_back((round, bw)),
        }
        while self
            .rounds
            .front()
            .is_some_and(|&(r, _)| r + BW_ROUNDS <= round)
        {
            self.rounds.pop_front();
        }
    }

    fn max(&self) -> u64 {
        self.rounds.iter().map(|&(_, b)| b).max().unwrap_or(0)
    }
}

/// BBR v1.
#[derive(Clone, Debug)]
pub struct BbrCc {
    mss: u32,
    max_cwnd: u32,
    initial_cwnd: u32,
    cwnd: u32,
    ssthresh: u32,
    mode: BbrMode,
    bw: BwFilter,
    /// RTprop in ns and when it was last lowered (or refreshed after expiring).
    rtprop: Option<u64>,
    rtprop_stamp: SimTime,
    round: u64,
    next_round_delivered: u64,
    round_start: bool,
    /// The connection's delivered bytes after the latest sample.
    delivered: u64,
    full_bw: u64,
    full_bw_count: u32,
    filled_pipe: bool,
    pacing_gain: u64,
    cwnd_gain: u64,
    cycle_index: usize,
    cycle_stamp: SimTime,
    cycle_seed: u32,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    prior_cwnd: u32,
    packet_conservation: bool,
    restore_cwnd: bool,
    prev_phase: Phase,
    pacing_rate: Option<u64>,
}

impl BbrCc {
    /// BBR with segments of `mss` bytes, starting at `initial_cwnd` bytes, never above
    /// `max_cwnd`; `cycle_seed` picks the ProbeBW phase it enters (any value will do; the
    /// scenario draws it from the flow's random stream).
    pub fn new(mss: u32, initial_cwnd: u32, max_cwnd: u32, cycle_seed: u32) -> Self {
        let initial_cwnd = initial_cwnd.min(max_cwnd);
        BbrCc {
            mss,
            max_cwnd,
            initial_cwnd,
            cwnd: initial_cwnd,
            ssthresh: max_cwnd,
            mode: BbrMode::Startup,
            bw: BwFilter::default(),
            rtprop: None,
            rtprop_stamp: SimTime::ZERO,
            round: 0,
            next_round_delivered: 0,
            round_start: false,
            delivered: 0,
            full_bw: 0,
            full_bw_count: 0,
            filled_pipe: false,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            cycle_seed,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            prior_cwnd: 0,
            packet_conservation: false,
            restore_cwnd: false,
            prev_phase: Phase::Open,
            pacing_rate: None,
        }
    }

    /// The state machine's state.
    pub fn mode(&self) -> BbrMode {
        self.mode
    }

    /// BtlBw, bytes per second.
    pub fn btl_bw(&self) -> u64 {
        self.bw.max()
    }

    /// The send quantum (draft §4.2.2 BBRSetSendQuantum): one segment below 1.2 Mb/s, two
    /// below 24 Mb/s, else 1 ms at the pacing rate (at most 64 KB).
    fn send_quantum(&self) -> u64 {
        let mss = u64::from(self.mss);
        match self.pacing_rate.unwrap_or(0) {
            r if r < 150_000 => mss,
            r if r < 3_000_000 => 2 * mss,
            r => (r / 1000).min(65_536),
        }
    }

    /// BBRInflight(gain): gain · BtlBw · RTprop plus three send quanta; the initial window
    /// before RTprop is known.
    fn inflight(&self, gain: u64) -> u64 {
        let Some(rtprop) = self.rtprop else {
            return u64::from(self.initial_cwnd);
        };
        let bdp = u128::from(self.bw.max()) * u128::from(rtprop) / 1_000_000_000;
        let target = (bdp * u128::from(gain)).div_ceil(u128::from(UNIT)) as u64;
        target + 3 * self.send_quantum()
    }

    fn min_pipe(&self) -> u32 {
        MIN_PIPE_SEGMENTS * self.mss
    }

    /// BBRSaveCwnd.
    fn save_cwnd(&mut self) {
        self.prior_cwnd = if self.prev_phase == Phase::Open && self.mode != BbrMode::ProbeRtt {
            self.cwnd
        } else {
            self.prior_cwnd.max(self.cwnd)
        };
    }

    /// BBRUpdateBtlBw with round counting.
    fn update_bw(&mut self, rs: &RateSample) {
        self.round_start = false;
        if rs.delivered == 0 || rs.interval.as_nanos() == 0 {
            return;
        }
        if rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = rs.delivered_total;
            self.round += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        let bw =
            (u128::from(rs.delivered) * 1_000_000_000 / u128::from(rs.interval.as_nanos())) as u64;
        if !rs.is_app_limited || bw >= self.bw.max() {
            self.bw.update(self.round, bw);
        }
    }

    /// BBRAdvanceCyclePhase when the phase is over (BBRIsNextCyclePhase).
    fn update_cycle_phase(&mut self, rs: &RateSample) {
        if self.mode != BbrMode::ProbeBw {
            return;
        }
        let rtprop = self.rtprop.unwrap_or(0);
        let full_length = (rs.now - self.cycle_stamp).as_nanos() > rtprop;
        let gain = CYCLE[self.cycle_index];
        let next = if gain == UNIT {
            full_length
        } else if gain > UNIT {
            full_length && (rs.loss || rs.prior_in_flight >= self.inflight(gain))
        } else {
            full_length || rs.prior_in_flight <= self.inflight(UNIT)
        };
        if next {
            self.cycle_index = (self.cycle_index + 1) % CYCLE.len();
            self.cycle_stamp = rs.now;
        }
    }

    /// BBRCheckFullPipe.
    fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.filled_pipe || !self.round_start || rs.is_app_limited {
            return;
        }
        let bw = self.bw.max();
        if bw >= self.full_bw * 5 / 4 {
            self.full_bw = bw;
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.filled_pipe = self.full_bw_count >= 3;
    }

    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = BbrMode::ProbeBw;
        // BBREnterProbeBW: cycle_index = len − 1 − random(0..=6), then advance: never 3/4.
        self.cycle_index = CYCLE.len() - 1 - (self.cycle_seed % 7) as usize;
        self.cycle_index = (self.cycle_index + 1) % CYCLE.len();
        self.cycle_stamp = now;
    }

    /// BBRCheckDrain.
    fn check_drain(&mut self, rs: &RateSample) {
        if self.mode == BbrMode::Startup && self.filled_pipe {
            self.mode = BbrMode::Drain;
            self.ssthresh = self.inflight(UNIT).min(u64::from(self.max_cwnd)) as u32;
        }
        if self.mode == BbrMode::Drain && rs.in_flight <= self.inflight(UNIT) {
            self.enter_probe_bw(rs.now);
        }
    }

    /// BBRUpdateRTprop and BBRCheckProbeRTT.
    fn update_rtprop(&mut self, rs: &RateSample) {
        let expired = self.rtprop.is_some() && rs.now > self.rtprop_stamp + RTPROP_WINDOW;
        if let Some(rtt) = rs.rtt.map(|r| r.as_nanos()) {
            if self.rtprop.is_none_or(|m| rtt < m) || expired {
                self.rtprop = Some(rtt);
                self.rtprop_stamp = rs.now;
            }
        }
        if expired && self.mode != BbrMode::ProbeRtt {
            self.mode = BbrMode::ProbeRtt;
            self.save_cwnd();
            self.probe_rtt_done = None;
        }
        if self.mode != BbrMode::ProbeRtt {
            return;
        }
        match self.probe_rtt_done {
            None if rs.in_flight <= u64::from(self.min_pipe()) => {
                self.probe_rtt_done = Some(rs.now + PROBE_RTT_TIME);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = rs.delivered_total;
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && rs.now > done {
                    self.rtprop_stamp = rs.now;
                    self.restore_cwnd = true;
                    if self.filled_pipe {
                        self.enter_probe_bw(rs.now);
                    } else {
                        self.mode = BbrMode::Startup;
                    }
                }
            }
        }
    }

    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            BbrMode::Startup => (HIGH_GAIN, HIGH_GAIN),
            BbrMode::Drain => (DRAIN_GAIN, HIGH_GAIN),
            BbrMode::ProbeBw => (CYCLE[self.cycle_index], CWND_GAIN),
            BbrMode::ProbeRtt => (UNIT, UNIT),
        };
    }

    /// BBRSetPacingRate: never lower before the pipe is full.
    fn set_pacing_rate(&mut self) {
        let bw = self.bw.max();
        if bw == 0 {
            return;
        }
        let rate = (u128::from(bw) * u128::from(self.pacing_gain) / u128::from(UNIT)) as u64;
        if self.filled_pipe || rate > self.pacing_rate.unwrap_or(0) {
            self.pacing_rate = Some(rate.max(1));
        }
    }

    /// BBRModulateCwndForRecovery with the transitions of the sender's recovery phase; true
    /// while packet conservation decides the window.
    fn recover_or_restore(&mut self, rs: &RateSample, cwnd: &mut u64) -> bool {
        let recovery = |p: Phase| matches!(p, Phase::Recovery { .. });
        let acked = rs.acked_sacked;
        if recovery(rs.phase) && !recovery(self.prev_phase) {
            // BBROnEnterFastRecovery: one round of packet conservation.
            self.packet_conservation = true;
            self.next_round_delivered = rs.delivered_total;
            *cwnd = rs.in_flight + acked;
        } else if self.prev_phase != Phase::Open && rs.phase == Phase::Open {
            // BBRRestoreCwnd at the end of a recovery.
            *cwnd = (*cwnd).max(u64::from(self.prior_cwnd));
            self.packet_conservation = false;
        }
        self.prev_phase = rs.phase;
        if std::mem::take(&mut self.restore_cwnd) {
            *cwnd = (*cwnd).max(u64::from(self.prior_cwnd));
        }
        if self.packet_conservation {
            *cwnd = (*cwnd).max(rs.in_flight + acked);
        }
        self.packet_conservation
    }

    /// BBRSetCwnd.
    fn set_cwnd(&mut self, rs: &RateSample) {
        let mut cwnd = u64::from(self.cwnd);
        let acked = rs.acked_sacked;
        if acked > 0 && !self.recover_or_restore(rs, &mut cwnd) {
            let target = self.inflight(self.cwnd_gain);
            if self.filled_pipe {
                cwnd = (cwnd + acked).min(target);
            } else if cwnd < target || self.delivered < u64::from(self.initial_cwnd) {
                cwnd += acked;
            }
            cwnd = cwnd.max(u64::from(self.min_pipe()));
        }
        cwnd = cwnd.min(u64::from(self.max_cwnd));
        if self.mode == BbrMode::ProbeRtt {
            cwnd = cwnd.min(u64::from(self.min_pipe()));
        }
        self.cwnd = cwnd as u32;
    }
}

impl CongestionControl for BbrCc {
    fn name(&self) -> &'static str {
        "bbr"
    }

    fn cwnd(&self) -> u32 {
        self.cwnd
    }

    fn ssthresh(&self) -> u32 {
        self.ssthresh
    }

    /// BBR sets its window on every rate sample instead.
    fn on_ack(&mut self, _ack: AckSample) {}

    fn on_congestion(&mut self, event: CongestionEvent) {
        match event {
            // The window is set by packet conservation on the rate sample of the same ACK.
            CongestionEvent::FastRetransmit { .. } => self.save_cwnd(),
            CongestionEvent::Timeout { .. } => {
                self.save_cwnd();
                self.cwnd = self.mss;
                self.full_bw = 0;
                self.prev_phase = Phase::Loss { recover: 0 };
            }
            // BBR does not respond to the host's own interface queue.
            CongestionEvent::LocalDrop => {}
        }
    }

    fn on_recovery_dupack(&mut self) {}

    fn on_recovery_exit(&mut self) {}

    fn on_partial_ack(&mut self, _acked: u32) {}

    fn undo(&mut self, _cwnd: u32, _ssthresh: u32) {
        // As Linux's bbr_undo_cwnd: keep the window, search for a full pipe again.
        self.full_bw = 0;
        self.full_bw_count = 0;
    }

    fn wants_rate_samples(&self) -> bool {
        true
    }

    fn on_rate_sample(&mut self, rs: &RateSample) {
        self.delivered = rs.delivered_total;
        self.update_bw(rs);
        self.update_cycle_phase(rs);
        self.check_full_pipe(rs);
        self.check_drain(rs);
        self.update_rtprop(rs);
        self.update_gains();
        self.set_pacing_rate();
        self.set_cwnd(rs);
    }

    fn pacing_rate(&self) -> Option<u64> {
        self.pacing_rate
    }

    fn model(&self) -> Option<ModelState> {
        Some(ModelState {
            mode: self.mode.name(),
            bw: self.bw.max(),
            min_rtt: SimDuration(self.rtprop.unwrap_or(0)),
            pacing_gain: self.pacing_gain as u32,
            round: self.round,
        })
    }
}

#[cfg(test)]
#[path = "bbr_tests.rs"]
mod tests;
