//! The SNR knobs of a cell's `dcf` table (net::medium::dcf::snr): `error_model`, `snr`,
//! `station_snr`, `path_loss`, `rate_control`, `ideal_per`.

use crate::units::Dur;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a DCF cell's frame errors come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorModelKindDoc {
    /// The cell's `error` and `station_error` models (today's cells).
    #[default]
    Rate,
    /// Each frame from its length, mode and the station's SNR (the NIST OFDM error model).
    Snr,
}

/// How each member picks the mode of a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RateControlDoc {
    /// The link's rate (`rate`, `station_rate`).
    #[default]
    Fixed,
    /// The highest mode whose frame error rate at the current SNR is below `ideal_per`.
    Ideal,
    /// Linux mac80211's Minstrel-HT: learns each rate's success from the frames' outcomes.
    MinstrelHt,
}

/// A station's SNR: dB, a step trace of `[time, dB]` pairs, or a distance for `path_loss`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SnrDoc {
    /// A fixed SNR in dB.
    Db(f64),
    /// From each time on, its SNR in dB (times rising, the first usually "0s").
    Trace(Vec<(Dur, f64)>),
    /// The distance to the access point; the SNR from `dcf.path_loss`.
    Distance(DistanceDoc),
}

/// `{ distance_m = 12.5 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistanceDoc {
    /// Metres to the access point (> 0).
    pub distance_m: f64,
}

/// Log-distance path loss with log-normal shadowing (Rappaport §4.9; ns-3's
/// `LogDistancePropagationLossModel` defaults).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathLossDoc {
    /// Transmit power, dBm (16.0206, ns-3's YansWifiPhy TxPowerStart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tx_power_dbm: Option<f64>,
    /// Loss at the reference distance of 1 m, dB (46.6777, ns-3's default at 5.15 GHz).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_loss_db: Option<f64>,
    /// Path-loss exponent (3.0, ns-3's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent: Option<f64>,
    /// The receiver's noise figure, dB (7, ns-3's RxNoiseFigure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise_figure_db: Option<f64>,
    /// σ of the log-normal shadowing, dB, one draw per station (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadowing_db: Option<f64>,
}

impl<'de> Deserialize<'de> for SnrDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SnrDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "an SNR in dB (25), a trace of [time, dB] pairs ([[\"0s\", 30], [\"1s\", 10]]), or { distance_m = 10 } with dcf.path_loss",
                )
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<SnrDoc, E> {
                Ok(SnrDoc::Db(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SnrDoc, E> {
                Ok(SnrDoc::Db(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SnrDoc, E> {
                Ok(SnrDoc::Db(v as f64))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<SnrDoc, A::Error> {
                let mut t = Vec::new();
                while let Some(e) = s.next_element::<(Dur, f64)>()? {
                    t.push(e);
                }
                Ok(SnrDoc::Trace(t))
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<SnrDoc, A::Error> {
                DistanceDoc::deserialize(MapAccessDeserializer::new(m)).map(SnrDoc::Distance)
            }
        }
        d.deserialize_any(V)
    }
}
