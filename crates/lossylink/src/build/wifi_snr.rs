//! A DCF cell's SNR channel (`dcf.error_model = "snr"`, net::medium::dcf::snr), validated: the
//! SNR of each station (dB, a step trace, or a distance through `dcf.path_loss`), the rate
//! control and its candidate modes; each refusal one line naming the field.

use super::CellPhy;
use crate::error::Error;
use crate::schema::{CellDoc, DcfDoc, ErrorModelKindDoc, PathLossDoc, RateControlDoc, SnrDoc};
use engine::SimTime;
use net::medium::dcf::phy::{Mode, Standard};
use net::medium::dcf::snr::{mode_slot, RateControl, SnrSource, WlanConfig};

/// The knobs of the cell at `field` (`cells[i]`) that need `error_model = "snr"` or contradict
/// it, checked once per cell.
pub(in crate::build) fn cell_checks(d: &DcfDoc, cell: &CellDoc, field: &str) -> Result<(), Error> {
    let f = |k: &str| format!("{field}.dcf.{k}");
    if d.error_model.unwrap_or_default() == ErrorModelKindDoc::Rate {
        for (k, set) in [
            ("snr", d.snr.is_some()),
            ("station_snr", !d.station_snr.is_empty()),
            ("path_loss", d.path_loss.is_some()),
        ] {
            if set {
                return Err(Error::invalid(f(k), "belongs to error_model = \"snr\""));
            }
        }
        match d.rate_control {
            Some(RateControlDoc::Ideal) => {
                return Err(Error::invalid(
                    f("rate_control"),
                    "\"ideal\" picks each frame's mode by the station's SNR; it needs error_model = \"snr\"",
                ))
            }
            Some(RateControlDoc::MinstrelHt) => {
                return Err(Error::invalid(
                    f("rate_control"),
                    "\"minstrel-ht\" adapts to errors that depend on the mode; it needs error_model = \"snr\"",
                ))
            }
            _ => {}
        }
    } else if cell.error.is_some() || !cell.station_error.is_empty() {
        let k = if cell.error.is_some() {
            "error"
        } else {
            "station_error"
        };
        return Err(Error::invalid(
            format!("{field}.{k}"),
            "with dcf.error_model = \"snr\" frame errors come from each station's SNR; leave it out",
        ));
    }
    if d.rate_control == Some(RateControlDoc::MinstrelHt) && d.mac_ack == Some(false) {
        return Err(Error::invalid(
            f("mac_ack"),
            "rate_control = \"minstrel-ht\" learns from the ACKs; leave mac_ack on",
        ));
    }
    if d.ideal_per.is_some() && d.rate_control != Some(RateControlDoc::Ideal) {
        return Err(Error::invalid(
            f("ideal_per"),
            "belongs to rate_control = \"ideal\"",
        ));
    }
    if let Some(p) = d.ideal_per {
        if !(p > 0.0 && p < 1.0) {
            return Err(Error::invalid(
                f("ideal_per"),
                format!("{p} is outside (0, 1) (a frame error rate)"),
            ));
        }
    }
    if let Some(bad) = d.station_snr.keys().find(|k| !cell.stations.contains(k)) {
        return Err(Error::invalid(
            f(&format!("station_snr.{bad}")),
            "is not one of the cell's stations",
        ));
    }
    Ok(())
}

/// The SNR channel of station `st`'s link in the cell at `field`, whose frames go in `mode`
/// (the rate at `rate_field`); `None` with `error_model = "rate"`.
pub(in crate::build) fn station_wlan(
    d: &DcfDoc,
    p: &CellPhy,
    (field, st): (&str, &str),
    mode: Option<Mode>,
    rate_field: &str,
) -> Result<Option<Box<WlanConfig>>, Error> {
    if d.error_model.unwrap_or_default() == ErrorModelKindDoc::Rate {
        return Ok(None);
    }
    if p.is_11b() {
        return Err(Error::invalid(
            format!("{field}.dcf.error_model"),
            "\"snr\" is the NIST OFDM error model of 11a, 11g, 11n and 11ac; 11b keeps error and station_error",
        ));
    }
    if mode.as_ref().and_then(mode_slot).is_none() {
        return Err(Error::invalid(
            rate_field,
            "is a DSSS rate; error_model = \"snr\" needs an OFDM rate (11g: 6-54Mbps)",
        ));
    }
    let (src, sf) = match d.station_snr.get(st) {
        Some(s) => (s, format!("{field}.dcf.station_snr.{st}")),
        None => match &d.snr {
            Some(s) => (s, format!("{field}.dcf.snr")),
            None => {
                return Err(Error::invalid(
                    format!("{field}.dcf.snr"),
                    format!("station '{st}' has no SNR: give dcf.snr or dcf.station_snr.{st}"),
                ))
            }
        },
    };
    let finite = |v: f64| {
        if v.is_finite() && v.abs() <= 200.0 {
            Ok(v)
        } else {
            Err(Error::invalid(
                &sf,
                format!("{v} dB is not an SNR within ±200 dB"),
            ))
        }
    };
    let mut shadowing_db = 0.0;
    let snr = match src {
        SnrDoc::Db(v) => SnrSource::Fixed(finite(*v)?),
        SnrDoc::Trace(t) => {
            if t.is_empty() || t.windows(2).any(|w| w[1].0 <= w[0].0) {
                return Err(Error::invalid(
                    &sf,
                    "a trace needs [time, dB] pairs with rising times, e.g. [[\"0s\", 30], [\"1s\", 10]]",
                ));
            }
            let mut v = Vec::with_capacity(t.len());
            for &(at, db) in t {
                v.push((SimTime(at.0), finite(db)?));
            }
            SnrSource::Trace(v.into())
        }
        SnrDoc::Distance(dist) => {
            let Some(pl) = &d.path_loss else {
                return Err(Error::invalid(
                    &sf,
                    "a distance needs dcf.path_loss (log-distance path loss), e.g. path_loss = {}",
                ));
            };
            let m = dist.distance_m;
            if !(m.is_finite() && m > 0.0) {
                return Err(Error::invalid(
                    &sf,
                    format!("distance_m {m} must be greater than zero"),
                ));
            }
            let (snr, sigma) = path_loss_snr(pl, m, p.width_mhz());
            shadowing_db = sigma;
            SnrSource::Fixed(finite(snr)?)
        }
    };
    if !(0.0..=30.0).contains(&shadowing_db) {
        return Err(Error::invalid(
            format!("{field}.dcf.path_loss.shadowing_db"),
            format!("{shadowing_db} is outside 0..=30 dB"),
        ));
    }
    let rate_control = match d.rate_control.unwrap_or_default() {
        RateControlDoc::Fixed => RateControl::Fixed,
        RateControlDoc::Ideal => RateControl::Ideal {
            per: d.ideal_per.unwrap_or(0.1),
        },
        RateControlDoc::MinstrelHt => RateControl::MinstrelHt,
    };
    Ok(Some(Box::new(WlanConfig {
        snr,
        shadowing_db,
        rate_control,
        modes: p
            .stream_modes()
            .into_iter()
            .filter(|m| mode_slot(m).is_some())
            .collect(),
        antennas: p.antennas(),
    })))
}

/// The median SNR (dB) at `distance_m` metres and the shadowing σ of `pl` (Rappaport, *Wireless
/// Communications*, 2nd ed., Eq. (4.69): PL(d) = PL(d₀) + 10 n log₁₀(d/d₀), d₀ = 1 m, no loss
/// beyond PL(d₀) closer than d₀ as ns-3's `LogDistancePropagationLossModel`), over the thermal
/// noise of the channel: −174 dBm/Hz + 10 log₁₀(B) + the noise figure (ns-3's
/// `ThresholdPreambleDetection`-free SNR of `InterferenceHelper`, noise floor from
/// `WifiPhy::RxNoiseFigure`).
pub(in crate::build) fn path_loss_snr(
    pl: &PathLossDoc,
    distance_m: f64,
    width_mhz: u32,
) -> (f64, f64) {
    let tx = pl.tx_power_dbm.unwrap_or(16.0206);
    let pl0 = pl.reference_loss_db.unwrap_or(46.6777);
    let n = pl.exponent.unwrap_or(3.0);
    let nf = pl.noise_figure_db.unwrap_or(7.0);
    let loss = pl0 + 10.0 * n * distance_m.max(1.0).log10();
    let noise = -174.0 + 10.0 * (f64::from(width_mhz) * 1e6).log10() + nf;
    (tx - loss - noise, pl.shadowing_db.unwrap_or(0.0))
}

impl CellPhy {
    /// The channel width in MHz (20 for 11a/g).
    pub(in crate::build) fn width_mhz(&self) -> u32 {
        match self.std {
            Standard::N | Standard::Ac => self.opts.0.mhz(),
            _ => 20,
        }
    }

    /// Every mode of the PHY at the cell's width, guard interval and streams.
    pub(in crate::build) fn modes(&self) -> Vec<Mode> {
        let (w, gi, nss, short) = self.opts;
        self.std.modes(w, gi, nss, short)
    }

    /// The modes a rate control chooses from: the PHY's at the cell's width and guard
    /// interval for 1 to the cell's streams (HT/VHT; Minstrel-HT's groups), one stream count
    /// after the other; the PHY's modes otherwise.
    pub(in crate::build) fn stream_modes(&self) -> Vec<Mode> {
        let (w, gi, nss, short) = self.opts;
        match self.std {
            Standard::N | Standard::Ac => (1..=nss)
                .flat_map(|k| self.std.modes(w, gi, k, short))
                .collect(),
            _ => self.modes(),
        }
    }

    /// The receiver's antennas: the cell's streams (HT/VHT), else 1.
    pub(in crate::build) fn antennas(&self) -> u8 {
        match self.std {
            Standard::N | Standard::Ac => self.opts.2.max(1),
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-3's defaults by hand: 16.0206 dBm − (46.6777 + 30 log₁₀ 10) dB − (−174 + 73.0103 + 7)
    /// dBm = 33.33 dB at 10 m over 20 MHz; 3 dB less noise margin per doubled width.
    #[test]
    fn path_loss_by_hand() {
        let pl = PathLossDoc::default();
        let (snr, sigma) = path_loss_snr(&pl, 10.0, 20);
        assert!((snr - 33.3326).abs() < 1e-3, "{snr}");
        assert_eq!(sigma, 0.0);
        let (snr40, _) = path_loss_snr(&pl, 10.0, 40);
        assert!((snr - snr40 - 3.0103).abs() < 1e-3);
        // Closer than the reference distance: the reference loss only.
        assert_eq!(path_loss_snr(&pl, 0.5, 20).0, path_loss_snr(&pl, 1.0, 20).0);
    }
}
