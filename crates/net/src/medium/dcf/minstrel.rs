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
//!   the entry k falls in of the chain as it was at the frame's first attempt; past that
//!   chain's tries the current chain again from its first entry, and so on (a driver's
//!   software retry takes the rate table anew: ath9k's `ath_tx_sched_aggr` and
//!   `ath_set_rates`); the DCF's `retry_limit` ends it.
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
//! - Groups (`minstrel_mcs_groups`, `GROUP_IDX`): one per number of spatial streams at the
//!   cell's width and guard interval (1 to the cell's streams, in that order), each with its
//!   own max_tp_rate, max_tp_rate2 and max_prob_rate and its own place in the sample table
//!   (`mg->column`, `mg->index`). `minstrel_ht_update_stats` then chooses across groups:
//!   max_tp_rate the best group's max_tp_rate, max_tp_rate2 the better of the displaced one and
//!   each group's max_tp_rate2, max_prob_rate the best-throughput group max_prob_rate among the
//!   groups of at most `max_prob_streams` streams (one less than max_tp_rate's, at least one);
//!   8 samples per interval per group. Sampling (`minstrel_next_sample_idx`) walks the groups
//!   in turn; a rate as slow as max_tp_rate2 is sampled rarely also when its group has more
//!   streams than `max_prob_streams`. "Sudden death of spatial multiplexing"
//!   (`minstrel_ht_tx_status`, `minstrel_downgrade_rate`): when max_tp_rate (max_tp_rate2) has
//!   more than 30 attempts since the last update and fewer than 20 % succeeded, it becomes the
//!   max_tp_rate (max_tp_rate2) of the next group down with no more streams, and the chain is
//!   rebuilt at once.
//!
//! Deviations: no CCK group; a group's rates start at its lowest rate's index (the source
//! starts them at the index within the group, `mg->max_tp_rate = i`, which names a rate of
//! the first group; later kernels use the global index); probabilities in f64 instead of
//! 12-bit fixed point; the status comes per attempt (its MPDUs, how many were acknowledged),
//! not per frame with every attempt at once; no RTS/CTS in the chain's later entries.

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

/// One MCS group (`struct minstrel_mcs_group_data`): the rates of one number of streams.
#[derive(Clone, Debug)]
struct Group {
    /// Spatial streams.
    streams: u8,
    /// Its rates' indices into the modes, rising in rate.
    rates: Vec<usize>,
    max_tp: usize,
    max_tp2: usize,
    max_prob: usize,
    /// Its place in the sample table.
    column: usize,
    index: usize,
}

/// The spatial streams of `mode` (1 for a non-HT mode).
pub fn streams(mode: &Mode) -> u8 {
    match *mode {
        Mode::Ht { nss, .. } | Mode::Vht { nss, .. } => nss,
        _ => 1,
    }
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
    groups: Vec<Group>,
    /// The group of each rate.
    group_of: Vec<usize>,
    max_tp: usize,
    max_tp2: usize,
    max_prob: usize,
    /// `mi->max_prob_streams`: max_prob_rate's group has at most this many streams.
    max_prob_streams: u8,
    avg_ampdu_len: f64,
    ampdu_len: u64,
    ampdu_packets: u64,
    last_update: SimTime,
    sample_wait: u32,
    sample_tries: u32,
    sample_count: u32,
    sample_slow: u32,
    /// The sample table: each column a permutation of the positions in a group.
    table: Vec<Vec<usize>>,
    /// `mi->sample_group`: the group the next sample comes from.
    sample_group: usize,
    /// The retry chain (rate, tries) and the current frame's chain (a sample first).
    chain: Vec<(usize, u32)>,
    frame: Vec<(usize, u32)>,
    /// Whether the last pick was a sample's first attempt.
    probe: bool,
    /// Frames sent first at a sample rate.
    pub samples: u64,
    /// Sudden-death downgrades of max_tp_rate or max_tp_rate2 to fewer streams.
    pub downgrades: u64,
}

impl Minstrel {
    /// Minstrel over `modes` (each group's rates rising in rate, the groups by rising
    /// streams), its sample table drawn from `rng` (`minstrel_ht_update_caps`: a first update
    /// at the lowest rates; 16 samples, the first without waiting, 4 tries).
    pub fn new(modes: Vec<Mode>, mut rng: RngStream) -> Self {
        let mut groups: Vec<Group> = Vec::new();
        let mut group_of = Vec::with_capacity(modes.len());
        for (i, m) in modes.iter().enumerate() {
            let k = streams(m);
            let g = match groups.iter().position(|g| g.streams == k) {
                Some(g) => g,
                None => {
                    groups.push(Group {
                        streams: k,
                        rates: Vec::new(),
                        max_tp: i,
                        max_tp2: i,
                        max_prob: i,
                        column: 0,
                        index: 0,
                    });
                    groups.len() - 1
                }
            };
            groups[g].rates.push(i);
            group_of.push(g);
        }
        // init_sample_table: each column a permutation of a group's positions (MCS_GROUP_RATES
        // in the source, here the largest group's count), i placed at (i + rnd) mod n.
        let n = groups
            .iter()
            .map(|g| g.rates.len())
            .max()
            .unwrap_or(0)
            .max(1);
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
            groups,
            group_of,
            max_tp: 0,
            max_tp2: 0,
            max_prob: 0,
            max_prob_streams: 0,
            avg_ampdu_len: 1.0,
            ampdu_len: 0,
            ampdu_packets: 0,
            last_update: SimTime::ZERO,
            sample_wait: 0,
            sample_tries: 4,
            sample_count: 16,
            sample_slow: 0,
            table,
            sample_group: 0,
            chain: Vec::new(),
            frame: Vec::new(),
            probe: false,
            samples: 0,
            downgrades: 0,
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
        // The first walk is the frame's chain as it was at its first attempt (one hardware
        // transmission, its rate series fixed); past its tries a retry starts the current
        // chain again from its first entry, and so on (the driver's software retry of an
        // aggregate's MPDU takes the rate table anew: ath9k's `ath_tx_sched_aggr` calls
        // `ath_set_rates`, mac80211's `ieee80211_get_tx_rates`, for each aggregate). Before,
        // the last entry held forever.
        let walk: u32 = self.frame.iter().map(|e| e.1).sum();
        let (chain, left) = if attempt < walk {
            (&self.frame, attempt)
        } else {
            let again: u32 = self.chain.iter().map(|e| e.1).sum();
            (&self.chain, (attempt - walk) % again.max(1))
        };
        let mut left = left;
        let mut rate = chain.last().map_or(0, |e| e.0);
        for &(r, tries) in chain {
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
        // Sudden death of spatial multiplexing: fall to a group of fewer streams.
        let mut update = false;
        if self.dying(self.max_tp) {
            update |= self.downgrade(true);
        }
        if self.dying(self.max_tp2) {
            update |= self.downgrade(false);
        }
        if now.saturating_since(self.last_update) > UPDATE_INTERVAL {
            self.last_update = now;
            self.update_stats();
            update = true;
        }
        if update {
            self.update_rates();
        }
    }

    /// The rates' indices: max_tp_rate, max_tp_rate2, max_prob_rate.
    pub fn best(&self) -> (usize, usize, usize) {
        (self.max_tp, self.max_tp2, self.max_prob)
    }

    /// More than 30 attempts at rate `i` since the last update, under 20 % of them acknowledged.
    fn dying(&self, i: usize) -> bool {
        let s = &self.st[i];
        s.attempts > 30 && (s.success as f64) < 0.2 * s.attempts as f64
    }

    /// `minstrel_downgrade_rate`: max_tp_rate (`primary`) or max_tp_rate2 becomes that of the
    /// next group down with no more streams; whether there was one (the source rebuilds the
    /// chain even when there was none).
    fn downgrade(&mut self, primary: bool) -> bool {
        let idx = if primary { self.max_tp } else { self.max_tp2 };
        let orig = self.group_of[idx];
        let k = self.groups[orig].streams;
        if let Some(g) = self.groups[..orig].iter().rev().find(|g| g.streams <= k) {
            if primary {
                self.max_tp = g.max_tp;
            } else {
                self.max_tp2 = g.max_tp2;
            }
            self.downgrades += 1;
        }
        true
    }

    /// `minstrel_ht_update_stats`: each group's rates, then the choice across groups.
    fn update_stats(&mut self) {
        if self.ampdu_packets > 0 {
            let cur = self.ampdu_len as f64 / self.ampdu_packets as f64;
            self.avg_ampdu_len = EWMA_OLD * self.avg_ampdu_len + (1.0 - EWMA_OLD) * cur;
            self.ampdu_len = 0;
            self.ampdu_packets = 0;
        }
        self.sample_slow = 0;
        self.sample_count = 8 * self.groups.len() as u32;
        let first = self.groups.first().map_or(0, |g| g.rates[0]);
        (self.max_tp, self.max_tp2, self.max_prob) = (first, first, first);
        for g in 0..self.groups.len() {
            self.update_group(g);
        }
        let (mut cur_tp, mut cur_tp2) = (0.0, 0.0);
        for g in &self.groups {
            let tp = self.st[g.max_tp].tp;
            if cur_tp < tp {
                self.max_tp2 = self.max_tp;
                cur_tp2 = cur_tp;
                self.max_tp = g.max_tp;
                cur_tp = tp;
                self.max_prob_streams = g.streams.saturating_sub(1);
            }
            let tp2 = self.st[g.max_tp2].tp;
            if cur_tp2 < tp2 {
                self.max_tp2 = g.max_tp2;
                cur_tp2 = tp2;
            }
        }
        self.max_prob_streams = self.max_prob_streams.max(1);
        let mut cur_prob_tp = 0.0;
        for g in &self.groups {
            let tp = self.st[g.max_prob].tp;
            if cur_prob_tp < tp && g.streams <= self.max_prob_streams {
                self.max_prob = g.max_prob;
                cur_prob_tp = tp;
            }
        }
    }

    /// `minstrel_ht_update_stats`' loop over the rates of group `g`.
    fn update_group(&mut self, g: usize) {
        let rates = std::mem::take(&mut self.groups[g].rates);
        let (mut cur_prob, mut cur_prob_tp, mut cur_tp, mut cur_tp2) = (0.0, 0.0, 0.0, 0.0);
        let gr = &mut self.groups[g];
        (gr.max_tp, gr.max_tp2, gr.max_prob) = (rates[0], rates[0], rates[0]);
        for &i in &rates {
            self.ewma(i);
            self.calc_tp(i);
            let (p, tp) = (self.st[i].prob, self.st[i].tp);
            if tp == 0.0 {
                continue;
            }
            let gr = &mut self.groups[g];
            if (tp > cur_prob_tp && p > 0.75) || p > cur_prob {
                gr.max_prob = i;
                cur_prob = p;
                cur_prob_tp = tp;
            }
            // The source swaps i into max_tp and goes on with the rate it displaced.
            let mut index = i;
            let mut mr_tp = tp;
            if tp > cur_tp {
                std::mem::swap(&mut index, &mut gr.max_tp);
                cur_tp = tp;
                mr_tp = self.st[index].tp;
            }
            if index >= gr.max_tp {
                continue;
            }
            if mr_tp > cur_tp2 {
                gr.max_tp2 = index;
                cur_tp2 = mr_tp;
            }
        }
        self.groups[g].rates = rates;
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
        let sg = self.sample_group;
        let group = self.groups.get(sg)?;
        let pos = *self.table.get(group.column)?.get(group.index)?;
        let streams = group.streams;
        let idx = group.rates.get(pos).copied();
        self.next_sample_idx();
        // A position the group does not have (`!(mg->supported & BIT(sample_idx))`).
        let idx = idx?;
        if idx == self.max_tp || idx == self.max_tp2 || idx == self.max_prob {
            return None;
        }
        if self.st[idx].prob > 0.95 {
            return None;
        }
        let d = self.dur[idx];
        if d >= self.dur[self.max_tp2]
            && (self.max_prob_streams < streams || d >= self.dur[self.max_prob])
        {
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

    /// `minstrel_next_sample_idx`: the next group in turn, and its next table entry.
    fn next_sample_idx(&mut self) {
        let n = self.groups.len().max(1);
        self.sample_group = (self.sample_group + 1) % n;
        let width = self.table.first().map_or(1, Vec::len);
        if let Some(g) = self.groups.get_mut(self.sample_group) {
            g.index += 1;
            if g.index >= width {
                g.index = 0;
                g.column = (g.column + 1) % SAMPLE_COLUMNS;
            }
        }
    }
}

#[cfg(test)]
#[path = "minstrel_tests.rs"]
mod tests;
