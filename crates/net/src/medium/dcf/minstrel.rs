//! Minstrel-HT rate control of one direction (`dcf.rate_control = "minstrel-ht"`,
//! crate::medium::dcf::snr), after Linux's `net/mac80211/rc80211_minstrel_ht.c` (Felix
//! Fietkau; read at torvalds/linux 00591cea, the 3.x version, and `rc80211_minstrel.h` for the
//! EWMA weight), written anew:
//!
//! - Per rate, the attempts and successes since the last update; every update interval
//!   (`minstrel_ht_tx_status`: `mp->update_interval / 2`, 100 ms / 2 = 50 ms) each rate's
//!   success probability becomes an EWMA, 75 % the old value (`minstrel_calc_rate_ewma`,
//!   EWMA_LEVEL 96/128), and its throughput `p / (overhead / avg A-MPDU length + duration of a
//!   1200-byte frame)`, 0 below p = 10 %, p capped at 90 % (`minstrel_ht_calc_tp`).
//! - `minstrel_ht_update_stats`: max_tp_rate and max_tp_rate2 the two highest throughputs (the
//!   second the one max_tp displaced, the source's swap), max_prob_rate the highest probability,
//!   or above 75 % the highest throughput; the average A-MPDU length an EWMA too.
//! - The retry chain (`minstrel_ht_update_rates`, `minstrel_ht_set_rate`,
//!   `minstrel_calc_retransmit`): max_tp_rate, max_tp_rate2, max_prob_rate, each tried as many
//!   times as fit a 6 ms segment (2 to 7; 2 below 20 % probability). A frame's attempt k takes
//!   the chain entry k falls in, the last after the chain (the DCF's `retry_limit` ends it).
//! - Sampling (`minstrel_get_sample_rate`, `minstrel_next_sample_idx`, `init_sample_table`):
//!   after each status, with no sample pending and samples left in the interval (8 per
//!   interval, 16 at the start), wait 16 + 2 · avg A-MPDU length frames (MPDUs: Linux's
//!   `minstrel_ht_get_rate` runs for every frame, the MPDUs of an A-MPDU each), then send one
//!   frame, alone (no aggregation: the source's own note in `minstrel_get_sample_rate`,
//!   "Sampling might add some overhead (RTS, no aggregation)"; ath9k's `ath_tx_form_aggr`
//!   closes an aggregate before a probing frame), first at the next rate of a random
//!   permutation table (10 columns, drawn from the
//!   direction's own stream `<link>/<dir>/minstrel`), once, then the chain; not the chain's
//!   rates, not a rate above 95 %, a rate slower than max_tp_rate2 and max_prob_rate only after
//!   20 skipped intervals and three times per interval.
//!
//! Deviations: one MCS group (the cell's width, guard interval and streams: no group
//! switching, so no "sudden death" downgrade across streams, no CCK group); probabilities in
//! f64 instead of 12-bit fixed point; the status comes per attempt (its MPDUs, how many were
//! acknowledged), not per frame with every attempt at once; no RTS/CTS in the chain's later
//! entries.

use super::phy::Mode;
use engine::{RngStream, SimDuration, SimTime};

/// Stats are updated when this much passed since the last update (`update_interval / 2`).
pub const UPDATE_INTERVAL: SimDuration = SimDuration::from_millis(50);
/// The weight of the old value in the EWMAs (EWMA_LEVEL / EWMA_DIV = 96 / 128).
const EWMA_OLD: f64 = 0.75;
/// Columns of the sample table.
const SAMPLE_COLUMNS: usize = 10;
/// `mp->segment_size`, ns, and `mp->max_retry`.
const SEGMENT_NS: u64 = 6_000_000;
const MAX_RETRY: u32 = 7;

/// One rate's statistics (`struct minstrel_rate_stats`).
#[derive(Clone, Debug, Default)]
struct Stats {
    attempts: u64,
    success: u64,
    prob: f64,
    att_hist: u64,
    tp: f64,
    sample_skipped: u32,
}

/// Minstrel-HT's state for one direction.
#[derive(Debug)]
pub struct Minstrel {
    modes: Vec<Mode>,
    /// Duration of a 1200-byte frame's data symbols per rate, ns (`MCS_DURATION`).
    dur: Vec<u64>,
    /// `mi->overhead`: an empty frame and an ACK at 6 Mb/s with their SIFS, ns.
    overhead: f64,
    st: Vec<Stats>,
    max_tp: usize,
    max_tp2: usize,
    max_prob: usize,
    avg_ampdu_len: f64,
    ampdu_len: u64,
    ampdu_packets: u64,
    last_update: SimTime,
    sample_wait: u32,
    sample_tries: u32,
    sample_count: u32,
    sample_slow: u32,
    table: Vec<Vec<usize>>,
    column: usize,
    index: usize,
    /// The retry chain (rate, tries) and the current frame's chain (a sample first).
    chain: Vec<(usize, u32)>,
    frame: Vec<(usize, u32)>,
    /// Whether the last pick was a sample's first attempt.
    probe: bool,
    /// Frames sent first at a sample rate.
    pub samples: u64,
}

impl Minstrel {
    /// Minstrel over `modes` (rising rate), its sample table drawn from `rng`
    /// (`minstrel_ht_update_caps`: a first update at the lowest rates; 16 samples, the first
    /// without waiting, 4 tries).
    pub fn new(modes: Vec<Mode>, mut rng: RngStream) -> Self {
        let n = modes.len().max(1);
        // init_sample_table: each column a permutation, i placed at (i + rnd) mod n, probing on.
        let table = (0..SAMPLE_COLUMNS)
            .map(|_| {
                let mut col = vec![usize::MAX; n];
                for i in 0..n {
                    let mut k = (i + rng.below(256) as usize) % n;
                    while col[k] != usize::MAX {
                        k = (k + 1) % n;
                    }
                    col[k] = i;
                }
                col
            })
            .collect();
        let dur = modes
            .iter()
            .map(|m| {
                m.txtime(1200)
                    .as_nanos()
                    .saturating_sub(m.preamble().as_nanos())
            })
            .collect();
        let six = Mode::ofdm(6, false);
        let overhead = six.map_or(96_000, |m| {
            (m.txtime(0) + m.txtime(10) + SimDuration::from_micros(32)).as_nanos()
        }) as f64;
        let mut m = Minstrel {
            st: vec![Stats::default(); modes.len()],
            modes,
            dur,
            overhead,
            max_tp: 0,
            max_tp2: 0,
            max_prob: 0,
            avg_ampdu_len: 1.0,
            ampdu_len: 0,
            ampdu_packets: 0,
            last_update: SimTime::ZERO,
            sample_wait: 0,
            sample_tries: 4,
            sample_count: 16,
            sample_slow: 0,
            table,
            column: 0,
            index: 0,
            chain: Vec::new(),
            frame: Vec::new(),
            probe: false,
            samples: 0,
        };
        m.update_stats();
        m.sample_count = 16;
        m.update_rates();
        m
    }

    /// The mode of attempt `attempt` (0: a new frame, which may be a sample) at `now`.
    pub fn pick(&mut self, attempt: u32) -> Option<Mode> {
        self.probe = false;
        if attempt == 0 {
            self.frame.clear();
            if let Some(s) = self.sample_rate() {
                self.samples += 1;
                self.probe = true;
                self.frame.push((s, 1));
            }
            self.frame.extend_from_slice(&self.chain);
        }
        let mut left = attempt;
        let mut rate = self.frame.last().map_or(0, |e| e.0);
        for &(r, tries) in &self.frame {
            if left < tries {
                rate = r;
                break;
            }
            left -= tries;
        }
        self.modes.get(rate).copied()
    }

    /// Whether the last [`Minstrel::pick`] was a sample (`IEEE80211_TX_CTL_RATE_CTRL_PROBE`):
    /// it goes without aggregation (see the module's note).
    pub fn probing(&self) -> bool {
        self.probe
    }

    /// The status of one attempt at `mode` at `now`: `sent` MPDUs, `acked` of them
    /// acknowledged (`minstrel_ht_tx_status`).
    pub fn report(&mut self, now: SimTime, mode: &Mode, sent: u32, acked: u32) {
        self.ampdu_packets += 1;
        self.ampdu_len += u64::from(sent);
        // minstrel_ht_get_rate asks for every frame, each MPDU of an A-MPDU, and each ask
        // counts sample_wait down: `pick` counted the aggregate's first MPDU, here the others.
        self.sample_wait = self.sample_wait.saturating_sub(sent.saturating_sub(1));
        if self.sample_wait == 0 && self.sample_tries == 0 && self.sample_count > 0 {
            self.sample_wait = 16 + 2 * self.avg_ampdu_len as u32;
            self.sample_tries = 1;
            self.sample_count -= 1;
        }
        if let Some(r) = self.modes.iter().position(|m| m == mode) {
            self.st[r].attempts += u64::from(sent);
            self.st[r].success += u64::from(acked);
        }
        if now.saturating_since(self.last_update) > UPDATE_INTERVAL {
            self.last_update = now;
            self.update_stats();
            self.update_rates();
        }
    }

    /// The rates' indices: max_tp_rate, max_tp_rate2, max_prob_rate.
    pub fn best(&self) -> (usize, usize, usize) {
        (self.max_tp, self.max_tp2, self.max_prob)
    }

    /// `minstrel_ht_update_stats` for one group.
    fn update_stats(&mut self) {
        if self.ampdu_packets > 0 {
            let cur = self.ampdu_len as f64 / self.ampdu_packets as f64;
            self.avg_ampdu_len = EWMA_OLD * self.avg_ampdu_len + (1.0 - EWMA_OLD) * cur;
            self.ampdu_len = 0;
            self.ampdu_packets = 0;
        }
        self.sample_slow = 0;
        self.sample_count = 8;
        let (mut cur_prob, mut cur_prob_tp, mut cur_tp, mut cur_tp2) = (0.0, 0.0, 0.0, 0.0);
        (self.max_tp, self.max_tp2, self.max_prob) = (0, 0, 0);
        for i in 0..self.st.len() {
            self.ewma(i);
            self.calc_tp(i);
            let (p, tp) = (self.st[i].prob, self.st[i].tp);
            if tp == 0.0 {
                continue;
            }
            if (tp > cur_prob_tp && p > 0.75) || p > cur_prob {
                self.max_prob = i;
                cur_prob = p;
                cur_prob_tp = tp;
            }
            // The source swaps i into max_tp and goes on with the rate it displaced.
            let mut index = i;
            let mut mr_tp = tp;
            if tp > cur_tp {
                std::mem::swap(&mut index, &mut self.max_tp);
                cur_tp = tp;
                mr_tp = self.st[index].tp;
            }
            if index >= self.max_tp {
                continue;
            }
            if mr_tp > cur_tp2 {
                self.max_tp2 = index;
                cur_tp2 = mr_tp;
            }
        }
    }

    /// `minstrel_calc_rate_ewma`.
    fn ewma(&mut self, i: usize) {
        let s = &mut self.st[i];
        if s.attempts > 0 {
            s.sample_skipped = 0;
            let cur = s.success as f64 / s.attempts as f64;
            s.prob = if s.att_hist == 0 {
                cur
            } else {
                EWMA_OLD * s.prob + (1.0 - EWMA_OLD) * cur
            };
            s.att_hist += s.attempts;
        } else {
            s.sample_skipped = s.sample_skipped.saturating_add(1);
        }
        s.attempts = 0;
        s.success = 0;
    }

    /// `minstrel_ht_calc_tp`: delivered frames per ns.
    fn calc_tp(&mut self, i: usize) {
        let p = self.st[i].prob;
        self.st[i].tp = if p < 0.1 {
            0.0
        } else {
            p.min(0.9) / (self.overhead / self.avg_ampdu_len + self.dur[i] as f64)
        };
    }

    /// `minstrel_calc_retransmit` and `minstrel_ht_set_rate`'s count: tries of rate `i`.
    fn tries(&self, i: usize) -> u32 {
        let p = self.st[i].prob;
        if p < 0.2 {
            return 2;
        }
        let data = self.dur[i] * (self.avg_ampdu_len as u64).max(1);
        let overhead = self.overhead as u64;
        let (slot, mut cw) = (9_000u64, 15u64);
        let mut ctime = slot * cw / 2;
        cw = ((cw << 1) | 1).min(1023);
        ctime += slot * cw / 2;
        cw = ((cw << 1) | 1).min(1023);
        let mut tx_time = ctime + 2 * (overhead + data);
        let mut retry = 2;
        loop {
            let c = slot * cw / 2;
            cw = ((cw << 1) | 1).min(1023);
            tx_time += c + overhead + data;
            if tx_time >= SEGMENT_NS {
                break;
            }
            retry += 1;
            if retry >= MAX_RETRY {
                break;
            }
        }
        retry
    }

    /// `minstrel_ht_update_rates`: the chain max_tp, max_tp2, max_prob.
    fn update_rates(&mut self) {
        self.chain = [self.max_tp, self.max_tp2, self.max_prob]
            .iter()
            .map(|&r| (r, self.tries(r)))
            .collect();
    }

    /// `minstrel_get_sample_rate`: the rate to sample with the next frame, if any.
    fn sample_rate(&mut self) -> Option<usize> {
        if self.sample_wait > 0 {
            self.sample_wait -= 1;
            return None;
        }
        if self.sample_tries == 0 {
            return None;
        }
        let n = self.modes.len();
        let idx = *self.table.get(self.column)?.get(self.index)?;
        // minstrel_next_sample_idx, one group.
        self.index += 1;
        if self.index >= n {
            self.index = 0;
            self.column = (self.column + 1) % SAMPLE_COLUMNS;
        }
        if idx == self.max_tp || idx == self.max_tp2 || idx == self.max_prob {
            return None;
        }
        if self.st[idx].prob > 0.95 {
            return None;
        }
        let d = self.dur[idx];
        if d >= self.dur[self.max_tp2] && d >= self.dur[self.max_prob] {
            if self.st[idx].sample_skipped < 20 {
                return None;
            }
            self.sample_slow += 1;
            if self.sample_slow > 3 {
                return None;
            }
        }
        self.sample_tries -= 1;
        Some(idx)
    }
}

#[cfg(test)]
#[path = "minstrel_tests.rs"]
mod tests;
