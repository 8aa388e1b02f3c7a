//! A block-erasure channel clustered below the minute (Ludwig2000 §3.1.2, §4.3.1; spec §10.4):
//! the chain profiles ([`Profile`]) with their erasures gathered into fades of an
//! explicit, named time scale `T_c` that the dissertation does not publish.
//!
//! What the dissertation publishes of its traces fixes the minute scale and the block scale:
//! the per-minute erasure rates (§4.3.1, Fig 4-11; B1, B2), the burst lengths (Fig 4-12; B4,
//! B5) and the most retransmissions one RLP frame needed (§3.1.2 fn. 2: 12). It says outright
//! that these "do not show whether the burst errors occur in clusters or isolated, i.e., the
//! correlation between error bursts is not captured" (§4.3.1). That correlation is what this
//! generator makes explicit, as a reading reported over a band, never as a fitted value:
//!
//! - A minute's erasure rate `b` is drawn as the profile draws it ([`MinuteBler`]), from its own
//!   stream, so every reading of `T_c` has the same minutes (common random numbers); the low
//!   (clean) minutes are dealt in decks of 100, exactly the profile's share of each deck.
//! - The minute is split into fades and clear stretches. Inside a fade the channel erases at
//!   density `d` ([`FadeDensity`]); outside, no burst starts. The fades take `F = b/d · 3000`
//!   blocks of the minute (rounded at random), so the minute's expected rate stays `b`. They are `n = max(1, round(F / T_c))` fades of mean length
//!   `F / n` (about `T_c`, but never more than the minute's share `F`), their lengths a uniform
//!   random split of `F` (each at least one block) and the clear time split uniformly into the
//!   `n + 1` gaps around them: a slow on/off process whose fades last `T_c` on average.
//! - Inside the fades, bursts alternate with good runs: burst lengths from the profile's mixture
//!   ([`super::erasure::BurstMix`], B4/B5), good runs geometric of mean `G = L (1 − d) / d`
//!   blocks, at least one (so bursts never merge and Fig 4-12's distribution is the mixture's),
//!   `L` the mixture's mean. The alternation runs on the fades' blocks only, carried from one
//!   fade to the next (so it is stationary and a minute's expected erasures are `d · F = b ·
//!   3000`); a burst that runs past a fade's end is finished in the clear time after it.
//!
//! Only the published statistics set the other parameters, for every `T_c`: the minute rates
//! and the burst mixture are the chain profiles' (closed forms in [`Profile`]); `d` is one of
//! two readings, both computed from published statistics ([`FadeDensity`]). Nothing is fitted
//! to a ReTracer result (Fig 4-13, Tab 4-14, Figs 4-15/4-16 are predictions). `T_c` → one block
//! with `d = b` is the unclustered chain.

use super::erasure::{BlockTrace, MinuteBler, Profile, BLOCKS_PER_MINUTE, BLOCKS_PER_SECOND};
use engine::RngStream;

/// Milliseconds of one radio block.
const BLOCK_MS: u32 = 1000 / BLOCKS_PER_SECOND;

/// How densely a fade erases: the dissertation gives no sub-minute density, so both readings
/// that follow from what it does give are offered, side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FadeDensity {
    /// A fade is the worst published minute: it erases at the profile's largest per-minute rate
    /// (B2: 0.28 for trace_B/C), so a minute at that rate is one fade.
    Worst,
    /// As densely as the burst statistics allow: one good block between bursts on average
    /// (`d = L / (L + 1)`, `L` the mean burst length of B4/B5's mixture; 0.81 for trace_C,
    /// `L` = 4.13 blocks, 0.85 for trace_B, `L` = 5.48).
    Dense,
}

impl FadeDensity {
    /// The reading's name (`worst`, `dense`).
    pub fn name(self) -> &'static str {
        match self {
            FadeDensity::Worst => "worst",
            FadeDensity::Dense => "dense",
        }
    }
}

/// The sub-minute clustering: the mean length of a fade and its density.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clustering {
    /// `T_c`: the mean length of a fade, ms (whole blocks of 20 ms, at least one).
    pub fade_ms: u32,
    /// The erasure density inside a fade.
    pub density: FadeDensity,
}

/// A chain profile with its erasures clustered into fades (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clustered {
    /// The chain profile: per-minute rates and burst lengths.
    pub profile: Profile,
    /// The sub-minute clustering.
    pub clustering: Clustering,
}

/// `T_c` values the generator accepts, ms: one block to ten minutes.
pub const FADE_MS_RANGE: std::ops::RangeInclusive<u32> = BLOCK_MS..=600_000;

impl Clustered {
    /// `"poor-c@2s"`, `"poor-b@500ms:dense"`: a poor-signal chain profile (`poor-b`, `poor-c`), `@`, `T_c`
    /// in `s` or `ms` (a whole number of 20 ms blocks, 20 ms to 600 s), and optionally `:worst`
    /// (the default) or `:dense`. `None` for anything else.
    pub fn named(name: &str) -> Option<Clustered> {
        let (base, rest) = name.split_once('@')?;
        // trace_A is almost free of erasures (B1) and its one prediction (the best frame,
        // 1410 B) holds on the chain: only the poor-signal profiles are clustered.
        let profile = match base {
            "poor-b" | "poor-c" => Profile::named(base)?,
            _ => return None,
        };
        let (tc, density) = match rest.split_once(':') {
            None => (rest, FadeDensity::Worst),
            Some((tc, "worst")) => (tc, FadeDensity::Worst),
            Some((tc, "dense")) => (tc, FadeDensity::Dense),
            Some(_) => return None,
        };
        let fade_ms = parse_ms(tc)?;
        if !FADE_MS_RANGE.contains(&fade_ms) || fade_ms % BLOCK_MS != 0 {
            return None;
        }
        Some(Clustered {
            profile,
            clustering: Clustering { fade_ms, density },
        })
    }

    /// The syntax [`Clustered::named`] reads, for error messages.
    pub const SYNTAX: &'static str =
        "<poor-b|poor-c>@<T_c>[:worst|:dense], T_c 20ms..600s in whole 20 ms blocks";

    /// The fade density `d` of this reading.
    pub fn density(&self) -> f64 {
        match self.clustering.density {
            FadeDensity::Worst => self.profile.minute.max(),
            FadeDensity::Dense => {
                let l = self.profile.bursts.mean();
                l / (l + 1.0)
            }
        }
    }

    /// `T_c` in blocks (at least one).
    pub fn fade_blocks(&self) -> usize {
        ((self.clustering.fade_ms / BLOCK_MS) as usize).max(1)
    }

    /// The trace of `minutes` of the reading called `name` ([`Clustered::named`]) for `seed`:
    /// the minutes from the stream `gsm/<profile>/minutes` (shared by every reading of the
    /// profile), the fades and bursts from `gsm/<name>/erasures`.
    pub fn trace(&self, name: &str, minutes: usize, seed: u64) -> BlockTrace {
        let base = name.split('@').next().unwrap_or(name);
        self.generate(
            minutes,
            &mut RngStream::new(seed, &format!("gsm/{base}/minutes")),
            &mut RngStream::new(seed, &format!("gsm/{name}/erasures")),
        )
    }

    /// The rates `minutes` minutes of the reading called `name` were drawn with for `seed`
    /// (the per-minute erasure rates [`Clustered::trace`] spreads into fades): the same draws
    /// from the same stream, for checking a trace against its minutes.
    pub fn minute_rates(&self, name: &str, minutes: usize, seed: u64) -> Vec<f64> {
        let base = name.split('@').next().unwrap_or(name);
        let mut rng = RngStream::new(seed, &format!("gsm/{base}/minutes"));
        let mut deck = MinuteDeck::default();
        (0..minutes)
            .map(|_| deck.draw(&self.profile.minute, &mut rng))
            .collect()
    }

    /// A trace of `minutes` whole minutes: the minutes' rates from `minutes_rng`, the fades and
    /// bursts from `rng`.
    pub fn generate(
        &self,
        minutes: usize,
        minutes_rng: &mut RngStream,
        rng: &mut RngStream,
    ) -> BlockTrace {
        let mean_burst = self.profile.bursts.mean();
        let d = self.density();
        let mut erased = Vec::with_capacity(minutes * BLOCKS_PER_MINUTE);
        // Blocks of the current burst still to erase (in real time: a burst runs past a fade's
        // end); fade blocks of the current good run before the next burst (the burst/good-run
        // renewal runs on the fades' blocks only, carried from fade to fade, so it is
        // stationary and a minute's expected erasures are d · F).
        let mut burst_left: u64 = 0;
        let mut gap_left: Option<u64> = None;
        // Blocks a burst erased after its fade ended: they took the renewal's time, so the
        // next fade blocks stay good until they are paid back (else short fades would start
        // more bursts than d allows).
        let mut debt: u64 = 0;
        let mut deck = MinuteDeck::default();
        for _ in 0..minutes {
            let b = deck.draw(&self.profile.minute, minutes_rng);
            let dm = d.max(b);
            let good_mean = mean_burst * (1.0 - dm) / dm;
            let fade = self.layout(b, dm, rng);
            for &in_fade in &fade {
                if burst_left > 0 {
                    burst_left -= 1;
                    erased.push(true);
                    debt += u64::from(!in_fade);
                    continue;
                }
                if !in_fade {
                    erased.push(false);
                    continue;
                }
                if debt > 0 {
                    debt -= 1;
                    erased.push(false);
                    continue;
                }
                // The first fade of the trace starts at a random point of a good run.
                let gap = gap_left.get_or_insert_with(|| rng.geometric(good_mean) - 1);
                if *gap > 0 {
                    *gap -= 1;
                    erased.push(false);
                    continue;
                }
                let mean = if rng.bernoulli(self.profile.bursts.p_short) {
                    self.profile.bursts.short_mean
                } else {
                    self.profile.bursts.long_mean
                };
                burst_left = rng.geometric(mean) - 1;
                gap_left = Some(rng.geometric(good_mean));
                erased.push(true);
            }
        }
        BlockTrace::from_flags(erased)
    }

    /// Which blocks of a minute of rate `b` lie in a fade of density `d`: `F = b/d · 3000`
    /// blocks (rounded at random, its expectation exact) in `max(1, round(F / T_c))` fades, lengths a uniform split of `F` (each
    /// at least one block), the clear rest split uniformly into the gaps around them.
    pub fn layout(&self, b: f64, d: f64, rng: &mut RngStream) -> Vec<bool> {
        let mut fade = vec![false; BLOCKS_PER_MINUTE];
        if b <= 0.0 {
            return fade;
        }
        // F = b/d · 3000 blocks, rounded at random so that its expectation is exact.
        let x = (b / d.max(b)).min(1.0) * BLOCKS_PER_MINUTE as f64;
        let whole = libm::floor(x);
        let f = (whole as usize + usize::from(rng.bernoulli(x - whole))).min(BLOCKS_PER_MINUTE);
        if f == 0 {
            return fade;
        }
        let n = ((libm::round(f as f64 / self.fade_blocks() as f64)) as usize).clamp(1, f);
        // n fade lengths ≥ 1 summing to f: 1 + a uniform split of f - n by n - 1 cuts.
        let lengths = split(f - n, n, rng);
        // n + 1 clear gaps ≥ 0 summing to the rest.
        let gaps = split(BLOCKS_PER_MINUTE - f, n + 1, rng);
        let mut at = gaps[0];
        for (len, gap) in lengths.iter().zip(&gaps[1..]) {
            fade[at..at + len + 1].fill(true);
            at += len + 1 + gap;
        }
        fade
    }
}

/// Minutes drawn in decks of [`DECK`]: of each deck, exactly `round(p · DECK)` minutes are of
/// the profile's low (or clean) kind, in random order, and each minute's rate is then drawn
/// within its kind. The share of low minutes of B1/B2 is then the profile's share at every
/// reading, not a binomial draw around it (±4 points over 120 minutes).
#[derive(Default)]
struct MinuteDeck {
    kinds: Vec<bool>,
}

/// Minutes per deck.
const DECK: usize = 100;

impl MinuteDeck {
    fn draw(&mut self, m: &MinuteBler, rng: &mut RngStream) -> f64 {
        if self.kinds.is_empty() {
            let low = libm::round(m.p_low() * DECK as f64) as usize;
            let mut kinds: Vec<bool> = (0..DECK).map(|i| i < low).collect();
            // Fisher-Yates.
            for i in (1..DECK).rev() {
                kinds.swap(i, rng.below(i as u64 + 1) as usize);
            }
            self.kinds = kinds;
        }
        // Non-empty: refilled just above.
        let low = self.kinds.pop().unwrap_or(false);
        m.draw_kind(low, rng)
    }
}

/// `total` split into `parts` whole numbers ≥ 0 by `parts - 1` uniform cut points.
fn split(total: usize, parts: usize, rng: &mut RngStream) -> Vec<usize> {
    let mut cuts: Vec<usize> = (1..parts)
        .map(|_| rng.below(total as u64 + 1) as usize)
        .collect();
    cuts.sort_unstable();
    let mut out = Vec::with_capacity(parts);
    let mut last = 0;
    for c in cuts {
        out.push(c - last);
        last = c;
    }
    out.push(total - last);
    out
}

/// `"2s"`, `"500ms"`, `"0.5s"` → milliseconds (whole).
fn parse_ms(text: &str) -> Option<u32> {
    let (num, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else {
        return None;
    };
    let v: f64 = num.parse().ok()?;
    let ms = v * scale;
    if !ms.is_finite()
        || ms < 0.0
        || ms > f64::from(u32::MAX)
        || libm::fabs(ms - libm::round(ms)) > 1e-6
    {
        return None;
    }
    Some(libm::round(ms) as u32)
}

impl MinuteBler {
    /// The probability of a low (or clean) minute.
    pub fn p_low(&self) -> f64 {
        match *self {
            MinuteBler::CleanOrUniform { p_clean, .. } => p_clean,
            MinuteBler::LowOrLogUniform { p_low, .. } => p_low,
        }
    }

    /// A minute's rate of the low (clean) kind or of the other, as [`MinuteBler`] draws each.
    pub(crate) fn draw_kind(&self, low: bool, rng: &mut RngStream) -> f64 {
        match (*self, low) {
            (MinuteBler::CleanOrUniform { .. }, true) => 0.0,
            (MinuteBler::CleanOrUniform { max, .. }, false) => max * rng.unit_open0(),
            (MinuteBler::LowOrLogUniform { low, .. }, true) => low * (1.0 - rng.unit_open0()),
            (MinuteBler::LowOrLogUniform { low, max, .. }, false) => {
                low * libm::pow(max / low, 1.0 - rng.unit_open0())
            }
        }
    }

    /// The largest rate a minute can draw (B1: 0.0025, B2: 0.28).
    pub fn max(&self) -> f64 {
        match *self {
            MinuteBler::CleanOrUniform { max, .. } | MinuteBler::LowOrLogUniform { max, .. } => max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Clustered {
        Clustered::named(name).expect("a valid name")
    }

    #[test]
    fn names_read_the_profile_the_time_scale_and_the_density() {
        let x = c("poor-c@2s");
        assert_eq!(x.profile, Profile::POOR_C);
        assert_eq!(x.clustering.fade_ms, 2000);
        assert_eq!(x.clustering.density, FadeDensity::Worst);
        assert_eq!(x.fade_blocks(), 100);
        assert_eq!(
            c("poor-b@500ms:dense").clustering.density,
            FadeDensity::Dense
        );
        assert_eq!(c("poor-b@0.5s").clustering.fade_ms, 500);
        for bad in [
            "poor-c",
            "poor-x@2s",
            "poor-c@2",
            "poor-c@10ms",
            "poor-c@2s:odd",
            "poor-c@-1s",
            "poor-c@601s",
            "poor-c@0s",
            "poor-c@2.001s",
            "good@2s",
        ] {
            assert!(Clustered::named(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn densities_follow_the_published_statistics() {
        // Worst: B2's largest minute; dense: L / (L + 1) of the trace_C mixture.
        assert!((c("poor-c@2s").density() - 0.28).abs() < 1e-12);
        let l = 0.7 * 1.4 + 0.3 * 10.5;
        assert!((c("poor-c@2s:dense").density() - l / (l + 1.0)).abs() < 1e-12);
    }

    #[test]
    fn a_minute_is_fades_of_its_share_about_t_c_long() {
        let x = c("poor-c@2s:dense");
        let d = x.density();
        let mut rng = RngStream::new(1, "layout");
        for b in [0.01, 0.1, 0.28] {
            let fade = x.layout(b, d, &mut rng);
            let f = fade.iter().filter(|&&v| v).count();
            let x = b / d * 3000.0;
            assert!(
                f == libm::floor(x) as usize || f == libm::ceil(x) as usize,
                "b {b}: {f}"
            );
            // Fades (maximal runs; adjacent ones may touch) number at most round(F / 100).
            let starts = (0..fade.len())
                .filter(|&i| fade[i] && (i == 0 || !fade[i - 1]))
                .count();
            let n = (libm::round(f as f64 / 100.0) as usize).max(1);
            assert!((1..=n).contains(&starts), "b {b}: {starts} fades, n {n}");
        }
        assert!(x.layout(0.0, d, &mut rng).iter().all(|&v| !v));
        // A minute at the worst rate is one fade under the worst reading.
        let w = c("poor-c@2s");
        assert!(w.layout(0.28, 0.28, &mut rng).iter().all(|&v| v));
    }

    #[test]
    fn bursts_keep_the_mixture_and_every_reading_has_the_same_minutes() {
        let x = c("poor-c@8s:dense");
        let mut mr = RngStream::new(3, "m");
        let t = x.generate(20, &mut mr, &mut RngStream::new(3, "b"));
        // At least one good block between bursts: every burst is one draw of the mixture (no
        // merges), so the share of bursts of 1-2 blocks is the mixture's (B4).
        let bursts = t.burst_lengths();
        let short = bursts.iter().filter(|&&l| l <= 2).count() as f64 / bursts.len() as f64;
        let want = 1.0 - x.profile.bursts.survival(2);
        assert!((short - want).abs() < 0.05, "{short} vs {want}");
        // The minutes' rates come from their own stream, drawn alike for any T_c: after 20
        // minutes the two streams are at the same place.
        let mut mr2 = RngStream::new(3, "m");
        c("poor-c@500ms").generate(20, &mut mr2, &mut RngStream::new(3, "b"));
        assert_eq!(mr.next_u64(), mr2.next_u64());
    }

    #[test]
    fn longer_fades_cluster_the_erasures() {
        // The same minutes; with T_c = 8 s the erasures sit in fewer, longer stretches than with
        // T_c = 20 ms: fewer 7-block frames are hit per erased block.
        let hit7 = |t: &BlockTrace| {
            t.erased()
                .chunks(7)
                .filter(|c| c.iter().any(|&e| e))
                .count() as f64
                / t.erasures() as f64
        };
        let short = c("poor-c@20ms:dense").generate(
            30,
            &mut RngStream::new(5, "m"),
            &mut RngStream::new(5, "b"),
        );
        let long = c("poor-c@8s:dense").generate(
            30,
            &mut RngStream::new(5, "m"),
            &mut RngStream::new(5, "b"),
        );
        assert!(
            hit7(&long) < 0.8 * hit7(&short),
            "{} vs {}",
            hit7(&long),
            hit7(&short)
        );
    }

    #[test]
    fn generation_is_reproducible() {
        let x = c("poor-b@2s");
        let a = x.generate(3, &mut RngStream::new(1, "m"), &mut RngStream::new(1, "b"));
        let b = x.generate(3, &mut RngStream::new(1, "m"), &mut RngStream::new(1, "b"));
        let o = x.generate(3, &mut RngStream::new(2, "m"), &mut RngStream::new(2, "b"));
        assert_eq!(a, b);
        assert_ne!(a, o);
        assert_eq!(a.len(), 3 * BLOCKS_PER_MINUTE);
    }
}
