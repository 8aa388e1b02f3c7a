//! SNR-driven frame errors and rate control of one direction of a DCF cell member's link
//! (`dcf.error_model = "snr"`): the direction's signal-to-noise ratio (fixed, a step trace in
//! time, plus a log-normal shadowing offset drawn once per link), each frame's error drawn with
//! the NIST OFDM error rate model (crate::medium::dcf::nist) from its length, its PHY mode and
//! the SNR at its start, and the mode of each frame chosen by the rate control.
//!
//! Spatial streams (ns-3's `InterferenceHelper::CalculateSnr`, src/wifi/model/
//! interference-helper.cc, for its AWGN error models, Nist among them): the configured SNR is
//! the signal over the noise at one receive antenna; a frame of `nss` streams to a receiver of
//! `antennas` antennas (the cell's `streams`) has `snr + 10 log₁₀(antennas / nss)` dB on each
//! stream when `antennas > nss`, else `snr`: the transmit power is split over the streams and
//! the receiver's antennas combine it (the diversity gain of AWGN). In a cell of two streams a
//! one-stream frame (MCS 0-7, and the non-HT control responses) has 3 dB more than a
//! two-stream one (MCS 8-15), so MCS 8-15 need 3 dB more SNR than MCS 0-7 of the same
//! modulation and coding; in a one-stream cell nothing changes.
//!
//! Rate control "ideal" follows ns-3's `IdealWifiManager` (src/wifi/model/rate-control/
//! ideal-wifi-manager.cc: the highest mode whose error-rate threshold the SNR the receiver last
//! reported clears): here per frame, the highest mode of the PHY (at the cell's width, guard
//! interval and streams) whose frame error rate for that frame's length at the direction's
//! current SNR is below `per` (0.1 by default), else the lowest. Deviations: ns-3 learns the SNR
//! from the last frame received from the peer and fixes a BER threshold (10⁻⁶) per mode; this
//! oracle reads the SNR of the frame's start and the frame's own length, so it never picks a
//! mode the model would make fail more often than `per`. With several streams it chooses
//! among the modes of every stream count up to the cell's (the highest rate; of two equal
//! rates, the one with fewer streams).
//!
//! Log-distance path loss (the model of ns-3's `LogDistancePropagationLossModel`; Rappaport,
//! *Wireless Communications*, 2nd ed., §4.9.1, Eq. (4.68)-(4.69)): the schema turns a distance
//! into the median SNR `P_tx − (PL(d₀) + 10 n log₁₀(d / d₀)) − N`; the shadowing `X_σ`
//! (zero-mean normal in dB, σ the cell's `path_loss.shadowing`) is drawn here, once per link
//! from its own stream (`<link>/shadowing`), the same for both directions (one radio channel).

use super::minstrel::{streams, Minstrel};
use super::nist;
use super::phy::{Mode, OFDM_RATES};
use engine::{RngStream, SimTime};
use std::sync::Arc;

/// Where a direction's SNR comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum SnrSource {
    /// A fixed SNR, dB.
    Fixed(f64),
    /// A step function: from each time on, its SNR in dB (times rising; before the first entry
    /// the first value holds).
    Trace(Arc<[(SimTime, f64)]>),
}

/// How a direction chooses the PHY mode of each frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RateControl {
    /// The link's rate, always (today's cells).
    Fixed,
    /// The highest mode whose frame error rate at the current SNR is below `per`.
    Ideal {
        /// The frame error rate a mode must stay below, in (0, 1).
        per: f64,
    },
    /// Linux's Minstrel-HT (crate::medium::dcf::minstrel), learning from each attempt's
    /// outcome.
    MinstrelHt,
}

/// The SNR channel of a direction (`DirectionConfig::wlan`).
#[derive(Clone, Debug, PartialEq)]
pub struct WlanConfig {
    /// The SNR before shadowing.
    pub snr: SnrSource,
    /// σ of the log-normal shadowing in dB (0: none).
    pub shadowing_db: f64,
    /// The rate control.
    pub rate_control: RateControl,
    /// The modes the rate control chooses from: the PHY's OFDM modes rising in rate, or its
    /// HT or VHT modes at the cell's width and guard interval for 1 to the cell's streams,
    /// each stream count's modes rising in rate (Minstrel-HT's groups).
    pub modes: Vec<Mode>,
    /// The receiver's antennas: the cell's spatial streams (1 without HT/VHT).
    pub antennas: u8,
}

/// The SNR (dB) on each stream of a frame in `mode` to a receiver of `antennas` antennas when
/// the SNR at one antenna is `snr_db` (the module's note, after ns-3's `CalculateSnr`).
pub fn stream_snr_db(snr_db: f64, mode: &Mode, antennas: u8) -> f64 {
    let nss = streams(mode);
    if antennas > nss {
        snr_db + 10.0 * libm::log10(f64::from(antennas) / f64::from(nss))
    } else {
        snr_db
    }
}

/// Histogram slots: HT/VHT MCS 0-9, or the index of an 802.11a/g rate among 6-54 Mb/s.
pub const MODE_SLOTS: usize = 10;

/// The histogram slot of `mode` (see [`MODE_SLOTS`]); DSSS modes have none.
pub fn mode_slot(mode: &Mode) -> Option<usize> {
    match *mode {
        Mode::Ht { mcs, .. } | Mode::Vht { mcs, .. } => Some(usize::from(mcs.min(9))),
        Mode::Ofdm { n_dbps, .. } => OFDM_RATES.iter().position(|&(_, n)| n == n_dbps),
        Mode::Dsss { .. } => None,
    }
}

/// A direction's SNR channel as the run goes: its configuration, its shadowing, its draws and
/// the count of data frames per mode.
#[derive(Debug)]
pub struct Wlan {
    cfg: WlanConfig,
    /// The shadowing offset, dB (drawn once, [`Wlan::shadow`]).
    shadow_db: f64,
    /// Each frame's error draw (the direction's error stream, `<link>/<dir>/errors`).
    rng: RngStream,
    /// The trace entry in force at the last look (time only moves forward).
    at: usize,
    /// Data frames (MPDUs) sent, by mode slot.
    pub sent: [u64; MODE_SLOTS],
    /// Minstrel-HT's state ([`RateControl::MinstrelHt`], [`Wlan::start_minstrel`]).
    pub minstrel: Option<Box<Minstrel>>,
}

impl Wlan {
    /// The channel of `cfg`, drawing frame errors from `rng`.
    pub fn new(cfg: WlanConfig, rng: RngStream) -> Self {
        Wlan {
            cfg,
            shadow_db: 0.0,
            rng,
            at: 0,
            sent: [0; MODE_SLOTS],
            minstrel: None,
        }
    }

    /// Start Minstrel-HT (with [`RateControl::MinstrelHt`]), its sample table from `rng`.
    pub fn start_minstrel(&mut self, rng: RngStream) {
        if self.cfg.rate_control == RateControl::MinstrelHt {
            self.minstrel = Some(Box::new(Minstrel::new(self.cfg.modes.clone(), rng)));
        }
    }

    /// The outcome of an attempt in `mode` at `now`: `sent` MPDUs, `acked` acknowledged (the
    /// rate control's status; only Minstrel-HT learns from it).
    pub fn report(&mut self, now: SimTime, mode: &Mode, sent: u32, acked: u32) {
        if let Some(m) = self.minstrel.as_deref_mut() {
            m.report(now, mode, sent, acked);
        }
    }

    /// Set the shadowing from the link's standard normal draw `z`: `σ · z` dB of loss.
    pub fn shadow(&mut self, z: f64) {
        self.shadow_db = -self.cfg.shadowing_db * z;
    }

    /// Whether the rate control picks each frame's mode.
    pub fn adapts_cfg(cfg: &WlanConfig) -> bool {
        cfg.rate_control != RateControl::Fixed
    }

    /// The SNR (dB) at `now`.
    pub fn snr_db(&mut self, now: SimTime) -> f64 {
        let base = match &self.cfg.snr {
            SnrSource::Fixed(db) => *db,
            SnrSource::Trace(t) => {
                while self.at + 1 < t.len() && t[self.at + 1].0 <= now {
                    self.at += 1;
                }
                t.get(self.at).map_or(0.0, |e| e.1)
            }
        };
        base + self.shadow_db
    }

    /// Whether a frame of `bits` bits sent in `mode` from `start` arrives corrupted (one draw
    /// from the stream per frame, whatever its error rate); a data frame (`data`) is counted in
    /// the histogram. A frame without an OFDM mode is received (the schema refuses them).
    pub fn corrupts(&mut self, start: SimTime, mode: Option<&Mode>, bits: u64, data: bool) -> bool {
        let snr = self.snr_db(start);
        let antennas = self.cfg.antennas;
        let per = mode.and_then(|m| nist::frame_error(m, stream_snr_db(snr, m, antennas), bits));
        if data {
            if let Some(k) = mode.and_then(mode_slot) {
                self.sent[k] += 1;
            }
        }
        self.rng.bernoulli(per.unwrap_or(0.0))
    }

    /// The mode of attempt `attempt` (0: the first) of the next frame of `bytes` octets at
    /// `now`, when the rate control chooses one; `None` for a fixed rate.
    pub fn pick(&mut self, now: SimTime, bytes: u64, attempt: u32) -> Option<Mode> {
        let per = match self.cfg.rate_control {
            RateControl::Fixed => return None,
            RateControl::MinstrelHt => return self.minstrel.as_deref_mut()?.pick(attempt),
            RateControl::Ideal { per } => per,
        };
        let snr = self.snr_db(now);
        let bits = bytes.saturating_mul(8);
        let antennas = self.cfg.antennas;
        let ok = |m: &&Mode| {
            nist::frame_error(m, stream_snr_db(snr, m, antennas), bits).is_some_and(|p| p < per)
        };
        self.cfg
            .modes
            .iter()
            .filter(ok)
            .max_by_key(|m| (m.rate_bps(), std::cmp::Reverse(streams(m))))
            .or(self.cfg.modes.first())
            .copied()
    }
}

#[cfg(test)]
#[path = "snr_tests.rs"]
mod tests;
