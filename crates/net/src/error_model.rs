//! Error models of a link direction. Each owns its random stream (house rule 2) and decides, frame
//! by frame, whether the frame is corrupted; the state lives in the enum (house rule 6).
//!
//! - [`ErrorModel::Exponential`]: Balakrishnan97 §3.5. Bit errors occur with exponentially
//!   distributed gaps (mean = 1/BER bits, e.g. 65536·8 bits for "one error every 64 KiB"). The
//!   clock is bits on the air in this direction: each frame consumes its exposed bits, and is
//!   corrupted if an error position falls inside them (further errors inside the same frame are
//!   consumed too). ACKs are hit at their own, smaller size.
//! - [`ErrorModel::Bernoulli`]: each frame is lost independently with probability `p`.
//! - [`ErrorModel::Burst`]: Balakrishnan97 §3.6, §B.3 (burst errors, "between two and six packets
//!   are dropped in every burst", bursts "at an average rate of one every 64 KBytes of data").
//!   Burst starts are placed like the exponential model's bit errors (exponential gaps on the
//!   clock of exposed bits in this direction); the frame hit by a burst start and the next
//!   `length - 1` frames of this direction are corrupted. Error positions that fall inside a burst
//!   are absorbed by it.
//! - [`ErrorModel::Gilbert`]: a two-state Gilbert–Elliott chain stepped once per frame of this
//!   direction (eln-llelsn spec §5.2 [DERIVED], §5.4.3: "state transitions occur per frame
//!   transmission"); a frame is lost with the loss probability of the state the step lands in
//!   (1 in Bad, 0 in Good by default). The first state is drawn from the stationary
//!   distribution. With `p_BG = 1/B` and `p_GB = ε·p_BG/(1 − ε)` the chain has mean error rate
//!   ε and mean burst length B exactly (Buchholcz et al., Table 1).
//! - [`ErrorModel::Fer`]: a frame-error rate given at a reference frame length, turned into the
//!   bit-error rate `BER = 1 − (1 − FER)^(1/L_ref)` and applied to each frame by its exposed
//!   length, `P = 1 − (1 − BER)^L` (eln-llelsn spec §5.4.3: "data packets are more prone to be
//!   lost than ACKs due to the longer length"); independent draws per frame.
//! - [`ErrorModel::Trace`]: a recorded erasure trace (the `block_trace` format of
//!   `crate::medium::gsm::erasure`: one `0` or `1` per line). Per frame: each frame of the direction takes
//!   the next entry, `1` loses it. Per time slot of length `slot`: a frame is lost if any slot its
//!   transmission overlaps is erased (the time the frame is on the air, from its start). Past the
//!   end the trace repeats, or is clean if it does not loop.

use engine::{RngStream, SimDuration, SimTime};
use std::sync::Arc;

/// How the burst model places burst starts (Balakrishnan97 spec §B.3: the ToN text says
/// "at an average rate of one every 64 KBytes", SIGCOMM'96 "generated once every 64 KBytes",
/// which may mean deterministic spacing; the spec leaves it unresolved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BurstSpacing {
    /// Exponentially distributed gaps with the given mean (the default).
    Exponential,
    /// Exactly the given gap between burst starts, the first at a phase drawn uniformly over
    /// one gap from the model's stream.
    Fixed,
}

/// The fixed spacing in whole bits (at least 1).
fn fixed_gap(mean_gap_bits: f64) -> u64 {
    (mean_gap_bits.round() as u64).max(1)
}

/// Validated configuration of an error model.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorModelConfig {
    /// No errors.
    None,
    /// Exponentially distributed bit errors with the given mean gap in bits (> 0, finite).
    Exponential {
        /// Mean distance between bit errors, in bits.
        mean_gap_bits: f64,
    },
    /// Independent per-frame loss with probability `p` in [0, 1].
    Bernoulli {
        /// Loss probability per frame.
        p: f64,
    },
    /// Bursts of `length` (≥ 1) consecutive corrupted frames, starting at exponentially
    /// distributed gaps with the given mean in bits, or exactly that far apart.
    Burst {
        /// Mean distance between burst starts, in bits.
        mean_gap_bits: f64,
        /// Frames per burst.
        length: u32,
        /// How burst starts are spaced.
        spacing: BurstSpacing,
    },
    /// A Gilbert–Elliott chain stepped per frame, or per time slot (all probabilities in
    /// [0, 1]).
    Gilbert {
        /// P(Good → Bad) per step.
        p_gb: f64,
        /// P(Bad → Bad) per step.
        p_bb: f64,
        /// Loss probability of a frame in the Good state.
        loss_good: f64,
        /// Loss probability of a frame in the Bad state.
        loss_bad: f64,
        /// With a slot, the chain steps once per slot of time, idle slots included (the
        /// state a frame meets is the chain's after the slots since the last frame, drawn
        /// from the exact n-step law); without, once per frame (eln-llelsn spec §5.2 [GAP]).
        slot: Option<SimDuration>,
    },
    /// Independent per-frame loss scaled by length: `fer` at `reference_bits` exposed bits.
    Fer {
        /// Frame-error rate at the reference length, in [0, 1).
        fer: f64,
        /// The reference frame length in exposed bits (> 0).
        reference_bits: u64,
    },
    /// A recorded erasure trace, per frame (`slot` = `None`) or per time slot.
    Trace {
        /// The entries, `true` = erased (at least one).
        erased: Arc<[bool]>,
        /// Per time slot of this length (> 0), or per frame.
        slot: Option<SimDuration>,
        /// Whether the trace repeats past its end (else the channel is clean there).
        looped: bool,
    },
}

/// The stationary probability of the Bad state of a Gilbert–Elliott chain:
/// π_B = p_GB / (p_GB + p_BG), with p_BG = 1 − p_BB (0 for a chain that never leaves Good).
fn stationary_bad(p_gb: f64, p_bb: f64) -> f64 {
    let denom = p_gb + (1.0 - p_bb);
    if denom > 0.0 {
        p_gb / denom
    } else {
        0.0
    }
}

impl ErrorModelConfig {
    /// A Gilbert–Elliott chain with mean error rate `rate` in (0, 1) and mean burst length
    /// `burst` ≥ 1 frames, lossless Good and lossy Bad state (eln-llelsn spec §5.2).
    pub fn gilbert_from_rate(rate: f64, burst: f64) -> Self {
        let p_bg = 1.0 / burst;
        ErrorModelConfig::Gilbert {
            p_gb: rate * p_bg / (1.0 - rate),
            p_bb: 1.0 - p_bg,
            loss_good: 0.0,
            loss_bad: 1.0,
            slot: None,
        }
    }
}

/// A running error model.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    /// Never corrupts.
    None,
    /// Exponential bit errors.
    Exponential {
        /// Mean gap in bits.
        mean_gap_bits: f64,
        /// Bits consumed so far.
        position: u64,
        /// Index of the next errored bit.
        next_error: u64,
        /// The stream the gaps are drawn from.
        rng: RngStream,
    },
    /// Bursts of consecutive frames.
    Burst {
        /// Mean gap between burst starts in bits.
        mean_gap_bits: f64,
        /// Exponential or fixed gaps.
        spacing: BurstSpacing,
        /// Frames per burst.
        length: u32,
        /// Frames of the current burst still to corrupt.
        remaining: u32,
        /// Bits consumed so far.
        position: u64,
        /// Index of the bit where the next burst starts.
        next_error: u64,
        /// The stream the gaps are drawn from.
        rng: RngStream,
    },
    /// Per-frame Bernoulli loss.
    Bernoulli {
        /// Loss probability.
        p: f64,
        /// The stream the draws come from.
        rng: RngStream,
    },
    /// Gilbert–Elliott chain.
    Gilbert {
        /// P(Good → Bad).
        p_gb: f64,
        /// P(Bad → Bad).
        p_bb: f64,
        /// Loss probability in Good.
        loss_good: f64,
        /// Loss probability in Bad.
        loss_bad: f64,
        /// Whether the chain is in the Bad state.
        bad: bool,
        /// The stream of the transitions and the losses.
        rng: RngStream,
        /// Step per slot of this length (see [`ErrorModelConfig::Gilbert`]).
        slot: Option<SimDuration>,
        /// The slot of the last frame.
        last_slot: u64,
    },
    /// A recorded erasure trace.
    Trace {
        /// The entries, `true` = erased.
        erased: Arc<[bool]>,
        /// Per time slot of this length, or per frame.
        slot: Option<SimDuration>,
        /// Whether the trace repeats.
        looped: bool,
        /// Per frame: the index of the next frame's entry.
        next: u64,
    },
    /// Length-scaled frame errors.
    Fer {
        /// ln(1 − BER): a frame of L bits survives with probability exp(L · ln(1 − BER)).
        ln_survive_bit: f64,
        /// The stream the draws come from.
        rng: RngStream,
    },
}

fn gap(rng: &mut RngStream, mean: f64) -> u64 {
    // Round the continuous gap up to whole bits, at least one.
    let g = rng.exponential(mean).ceil();
    if g >= u64::MAX as f64 {
        u64::MAX
    } else {
        (g as u64).max(1)
    }
}

impl ErrorModel {
    /// Start the model described by `cfg` on stream `rng`.
    pub fn new(cfg: ErrorModelConfig, mut rng: RngStream) -> Self {
        match cfg {
            ErrorModelConfig::None => ErrorModel::None,
            ErrorModelConfig::Exponential { mean_gap_bits } => {
                let next_error = gap(&mut rng, mean_gap_bits) - 1;
                ErrorModel::Exponential {
                    mean_gap_bits,
                    position: 0,
                    next_error,
                    rng,
                }
            }
            ErrorModelConfig::Bernoulli { p } => ErrorModel::Bernoulli { p, rng },
            ErrorModelConfig::Gilbert {
                p_gb,
                p_bb,
                loss_good,
                loss_bad,
                slot,
            } => {
                // The first state from the stationary distribution.
                let bad = rng.bernoulli(stationary_bad(p_gb, p_bb));
                ErrorModel::Gilbert {
                    p_gb,
                    p_bb,
                    loss_good,
                    loss_bad,
                    bad,
                    rng,
                    slot,
                    last_slot: 0,
                }
            }
            ErrorModelConfig::Trace {
                erased,
                slot,
                looped,
            } => ErrorModel::Trace {
                erased,
                slot,
                looped,
                next: 0,
            },
            ErrorModelConfig::Fer {
                fer,
                reference_bits,
            } => ErrorModel::Fer {
                // ln(1 − BER) = ln(1 − FER) / L_ref.
                ln_survive_bit: libm::log1p(-fer) / reference_bits.max(1) as f64,
                rng,
            },
            ErrorModelConfig::Burst {
                mean_gap_bits,
                length,
                spacing,
            } => {
                let next_error = match spacing {
                    BurstSpacing::Exponential => gap(&mut rng, mean_gap_bits) - 1,
                    // A phase drawn once, uniform over one spacing; then exactly every gap.
                    BurstSpacing::Fixed => rng.below(fixed_gap(mean_gap_bits)),
                };
                ErrorModel::Burst {
                    mean_gap_bits,
                    spacing,
                    length,
                    remaining: 0,
                    position: 0,
                    next_error,
                    rng,
                }
            }
        }
    }

    /// A frame exposing `bits` bits to the channel, on the air from `start` for `airtime`: is
    /// it corrupted? (Only a per-slot trace looks at the time.)
    #[inline(always)]
    pub fn frame_at(&mut self, start: SimTime, airtime: SimDuration, bits: u64) -> bool {
        // The models of every frame, matched once, inline: no errors (wired hops) and
        // exponential bit errors without an error in the frame; the rest out of line.
        match self {
            ErrorModel::None => false,
            ErrorModel::Exponential {
                position,
                next_error,
                ..
            } => {
                let end = position.saturating_add(bits);
                if *next_error < end {
                    return self.frame(bits);
                }
                *position = end;
                false
            }
            _ => self.frame_at_other(start, airtime, bits),
        }
    }

    /// [`ErrorModel::frame_at`] for the models other than none and exponential.
    #[inline(never)]
    fn frame_at_other(&mut self, start: SimTime, airtime: SimDuration, bits: u64) -> bool {
        if let ErrorModel::Trace {
            erased,
            slot: Some(slot),
            looped,
            ..
        } = self
        {
            let s = slot.as_nanos().max(1);
            let first = start.as_nanos() / s;
            // The last nanosecond on the air; a zero-length frame occupies its start's slot.
            let last = (start.as_nanos() + airtime.as_nanos().max(1) - 1) / s;
            let n = erased.len() as u64;
            return (first..=last).any(|k| {
                if *looped || k < n {
                    erased[(k % n) as usize]
                } else {
                    false
                }
            });
        }
        if let ErrorModel::Gilbert {
            p_gb,
            p_bb,
            loss_good,
            loss_bad,
            bad,
            rng,
            slot: Some(slot),
            last_slot,
        } = self
        {
            // Per time slot: the chain has stepped once per slot since the last frame. With
            // λ = p_bb − p_gb, P(Bad after n steps) = π + (1{Bad now} − π)·λ^n (the n-step law
            // of a two-state chain), so one draw gives the state the frame meets.
            let k = start.as_nanos() / slot.as_nanos().max(1);
            let n = k.saturating_sub(*last_slot);
            if n > 0 {
                let pi = stationary_bad(*p_gb, *p_bb);
                let now = if *bad { 1.0 } else { 0.0 };
                let lambda = *p_bb - *p_gb;
                let steps = n.max(1).min(i32::MAX as u64) as i32;
                let p = pi + (now - pi) * libm::pow(lambda, f64::from(steps));
                *bad = rng.bernoulli(p.clamp(0.0, 1.0));
                *last_slot = k;
            }
            return rng.bernoulli(if *bad { *loss_bad } else { *loss_good });
        }
        self.frame(bits)
    }

    /// A frame exposing `bits` bits to the channel: is it corrupted?
    pub fn frame(&mut self, bits: u64) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Trace {
                erased,
                looped,
                next,
                ..
            } => {
                let n = erased.len() as u64;
                let k = *next;
                *next += 1;
                (*looped || k < n) && erased[(k % n) as usize]
            }
            ErrorModel::Exponential {
                mean_gap_bits,
                position,
                next_error,
                rng,
            } => {
                let end = position.saturating_add(bits);
                let hit = *next_error < end;
                while *next_error < end {
                    *next_error = next_error.saturating_add(gap(rng, *mean_gap_bits));
                }
                *position = end;
                hit
            }
            ErrorModel::Bernoulli { p, rng } => rng.bernoulli(*p),
            ErrorModel::Gilbert {
                p_gb,
                p_bb,
                loss_good,
                loss_bad,
                bad,
                rng,
                ..
            } => {
                *bad = rng.bernoulli(if *bad { *p_bb } else { *p_gb });
                rng.bernoulli(if *bad { *loss_bad } else { *loss_good })
            }
            ErrorModel::Fer {
                ln_survive_bit,
                rng,
            } => {
                let survive = libm::exp(*ln_survive_bit * bits as f64);
                rng.bernoulli(1.0 - survive)
            }
            ErrorModel::Burst {
                mean_gap_bits,
                spacing,
                length,
                remaining,
                position,
                next_error,
                rng,
            } => {
                let end = position.saturating_add(bits);
                let start = *next_error < end;
                while *next_error < end {
                    let g = match spacing {
                        BurstSpacing::Exponential => gap(rng, *mean_gap_bits),
                        BurstSpacing::Fixed => fixed_gap(*mean_gap_bits),
                    };
                    *next_error = next_error.saturating_add(g);
                }
                *position = end;
                if *remaining > 0 {
                    *remaining -= 1;
                    true
                } else if start {
                    *remaining = length.saturating_sub(1);
                    true
                } else {
                    false
                }
            }
        }
    }

    /// The long-run probability that a frame of `bits` bits is corrupted (closed form).
    pub fn frame_error_probability(cfg: &ErrorModelConfig, bits: u64) -> f64 {
        match *cfg {
            ErrorModelConfig::None => 0.0,
            ErrorModelConfig::Exponential { mean_gap_bits } => {
                1.0 - (-(bits as f64) / mean_gap_bits).exp()
            }
            ErrorModelConfig::Bernoulli { p } => p,
            ErrorModelConfig::Burst {
                mean_gap_bits,
                length,
                spacing,
            } => {
                let k = f64::from(length);
                match spacing {
                    // Long-run fraction: k frames per burst, one burst per (k - 1 frames + mean
                    // gap).
                    BurstSpacing::Exponential => {
                        let q = 1.0 - (-(bits as f64) / mean_gap_bits).exp();
                        k * q / (1.0 + (k - 1.0) * q)
                    }
                    // One burst of k frames per gap; exact while a burst is shorter than a gap.
                    BurstSpacing::Fixed => {
                        (k * bits as f64 / fixed_gap(mean_gap_bits) as f64).min(1.0)
                    }
                }
            }
            ErrorModelConfig::Gilbert {
                p_gb,
                p_bb,
                loss_good,
                loss_bad,
                ..
            } => {
                let pi_bad = stationary_bad(p_gb, p_bb);
                pi_bad * loss_bad + (1.0 - pi_bad) * loss_good
            }
            ErrorModelConfig::Fer {
                fer,
                reference_bits,
            } => 1.0 - (1.0 - fer).powf(bits as f64 / reference_bits.max(1) as f64),
            // A looping per-frame trace loses its erased fraction; a slot trace depends on the
            // frames' timing (this is the fraction of erased slots).
            ErrorModelConfig::Trace { ref erased, .. } => {
                erased.iter().filter(|&&e| e).count() as f64 / erased.len().max(1) as f64
            }
        }
    }

    /// The probability that a corrupted frame of `frame_bits` exposed bits was hit in its first
    /// `header_bits` (TCP HACK's header checksum then fails; eln-llelsn spec §3.2 `hack_header`:
    /// 1 − (1 − BER)^header_bits). Every model is read as independent bit errors at the BER that
    /// gives the frame its long-run error probability P ([`Self::frame_error_probability`]):
    /// (1 − (1 − P)^(H/L)) / P, exact for the bit-error models (`exponential`, `fer`); for a
    /// Gilbert chain P is its mean error rate (a Bad state that loses every frame has no BER).
    /// As P → 0 it tends to H/L (one errored bit, anywhere in the frame).
    pub fn header_hit_probability(
        cfg: &ErrorModelConfig,
        frame_bits: u64,
        header_bits: u64,
    ) -> f64 {
        if frame_bits == 0 || header_bits == 0 {
            return 0.0;
        }
        let share = (header_bits.min(frame_bits) as f64) / frame_bits as f64;
        let p = Self::frame_error_probability(cfg, frame_bits);
        // No errors (or a NaN probability): one errored bit, anywhere in the frame.
        if p.is_nan() || p <= 1e-12 {
            return share;
        }
        if p >= 1.0 {
            return 1.0;
        }
        // ln(1 − P)·H/L, through ln_1p for small P.
        let hit = -((-p).ln_1p() * share).exp_m1();
        (hit / p).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
#[path = "error_model_tests.rs"]
mod tests;
