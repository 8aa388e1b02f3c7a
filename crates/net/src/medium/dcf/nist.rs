//! The NIST OFDM error rate model: the probability that a frame of an OFDM, HT or VHT mode
//! arrives intact at a given signal-to-noise ratio. Source: G. Pei and T. R. Henderson,
//! "Validation of OFDM error rate model in ns-3", Boeing Research & Technology, 2010 (the model
//! ns-3 calls `NistErrorRateModel`, after the NIST OFDM model of Miller and Young), §2:
//!
//! 1. The uncoded bit error rate of the subcarrier modulation over AWGN at SNR `γ` (linear),
//!    Gray-coded square M-QAM (Proakis, *Digital Communications*, 4th ed., §5.2.9, the nearest
//!    neighbour approximation): BPSK `½ erfc(√γ)`; QPSK `½ erfc(√(γ/2))`; 16-QAM
//!    `¾ · ½ erfc(√(γ/10))`; 64-QAM `7/12 · ½ erfc(√(γ/42))`; 256-QAM `15/32 · ½ erfc(√(γ/170))`
//!    (in general `(1 − 1/√M) / log₂√M · erfc(√(3γ / (2(M − 1))))`).
//! 2. The BCC decoder's first-event error probability by the union bound with hard decisions,
//!    each term bounded by the Bhattacharyya parameter `D = √(4p(1 − p))`:
//!    `P_e ≤ 1/(2b) · Σ_d c_d D^d`, with `c_d` the information-bit weights of the code's
//!    distance spectrum from its free distance on, ten terms (nine for rate 1/2) and `b` the
//!    puncturing period's input bits (1 for rate 1/2, 2 for 2/3, 3 for 3/4, 5 for 5/6). The
//!    spectra: the K = 7 (133, 171) code at rate 1/2 (d_free 10) and its punctured rates 2/3
//!    (d_free 6) and 3/4 (d_free 5) from Pei & Henderson's Tables 3.1.1 and 3.1.2 (after
//!    Frenger, Orten and Ottosson, and Haccoun and Bégin); rate 5/6 (d_free 4) from D. Haccoun
//!    and G. Bégin, "High-rate punctured convolutional codes for Viterbi and sequential
//!    decoding", IEEE Trans. Commun. 37(11), 1989, Table V.
//! 3. A frame of `n` bits is intact with probability `(1 − P_e)^n`.
//!
//! The SNR is the one every data subcarrier sees (a flat channel): the same per spatial stream
//! (no MIMO gain, no STBC), as ns-3 does for HT/VHT. The bits are the MPDU's (`8 · octets`);
//! the preamble and the PHY header, sent in BPSK, are taken as received (at the SNRs where an
//! MPDU has a chance, their error probability is orders of magnitude below the data's).
//! 802.11b's DSSS/CCK modes are not OFDM: the model has nothing for them (`None`).

use super::phy::{Mode, Modulation};

/// The uncoded bit error rate of `bpscs` coded bits per subcarrier (1 BPSK, 2 QPSK, 4, 6, 8:
/// 16-, 64-, 256-QAM) at linear SNR `snr` (step 1 of the module's note).
pub fn uncoded_ber(bpscs: u32, snr: f64) -> f64 {
    let half_erfc = |x: f64| 0.5 * libm::erfc(libm::sqrt(x.max(0.0)));
    match bpscs {
        1 => half_erfc(snr),
        2 => half_erfc(snr / 2.0),
        4 => 0.75 * half_erfc(snr / 10.0),
        6 => 7.0 / 12.0 * half_erfc(snr / 42.0),
        _ => 15.0 / 32.0 * half_erfc(snr / 170.0),
    }
}

/// The distance spectrum of one BCC rate (module's note, step 2).
struct Spectrum {
    /// The coding rate (numerator, denominator).
    rate: (u32, u32),
    /// Input bits per puncturing period.
    b: u32,
    /// The free distance.
    d_free: i32,
    /// Information-bit weights c_d from d_free on.
    c: &'static [f64],
}

/// The spectra of the rates 1/2, 2/3, 3/4 and 5/6.
const SPECTRA: [Spectrum; 4] = [
    Spectrum {
        rate: (1, 2),
        b: 1,
        d_free: 10,
        // Even distances only (the rate-1/2 code's odd weights are zero): d = 10, 12, ..., 26.
        c: &[
            36.0,
            211.0,
            1404.0,
            11633.0,
            77433.0,
            502690.0,
            3322763.0,
            21292910.0,
            134365911.0,
        ],
    },
    Spectrum {
        rate: (2, 3),
        b: 2,
        d_free: 6,
        c: &[
            3.0, 70.0, 285.0, 1276.0, 6160.0, 27128.0, 117019.0, 498860.0, 2103891.0, 8784123.0,
        ],
    },
    Spectrum {
        rate: (3, 4),
        b: 3,
        d_free: 5,
        c: &[
            42.0,
            201.0,
            1492.0,
            10469.0,
            62935.0,
            379644.0,
            2253373.0,
            13073811.0,
            75152755.0,
            428005675.0,
        ],
    },
    Spectrum {
        rate: (5, 6),
        b: 5,
        d_free: 4,
        c: &[
            92.0,
            528.0,
            8694.0,
            79453.0,
            792114.0,
            7375573.0,
            67884974.0,
            610875423.0,
            5427275376.0,
            47664215639.0,
        ],
    },
];

/// The decoded bit error bound `P_e` (at most 1) of the BCC at rate `num/den` over a channel
/// of uncoded bit error rate `p` (step 2 of the module's note); `None` for a rate the PHYs
/// do not have.
pub fn coded_pe(p: f64, (num, den): (u32, u32)) -> Option<f64> {
    let sp = SPECTRA.iter().find(|sp| sp.rate == (num, den))?;
    let (b, d_free) = (sp.b, sp.d_free);
    let d = libm::sqrt(4.0 * p * (1.0 - p));
    // Rate 1/2 lists every other distance (its odd weights are zero).
    let step = if b == 1 { 2 } else { 1 };
    let sum: f64 =
        sp.c.iter()
            .enumerate()
            .map(|(i, &w)| w * libm::pow(d, f64::from(d_free + step * i as i32)))
            .sum();
    Some((sum / (2.0 * f64::from(b))).min(1.0))
}

/// The modulation and coding rate of an OFDM, HT or VHT mode (802.11a/g's eight rates by their
/// data bits per symbol, IEEE 802.11-2016 Table 17-4; HT/VHT by MCS); `None` for DSSS.
pub fn modulation(mode: &Mode) -> Option<Modulation> {
    let m = |bpscs, num, den| Some(Modulation { bpscs, num, den });
    match *mode {
        Mode::Dsss { .. } => None,
        Mode::Ofdm { n_dbps, .. } => match n_dbps {
            24 => m(1, 1, 2),
            36 => m(1, 3, 4),
            48 => m(2, 1, 2),
            72 => m(2, 3, 4),
            96 => m(4, 1, 2),
            144 => m(4, 3, 4),
            192 => m(6, 2, 3),
            _ => m(6, 3, 4),
        },
        Mode::Ht { .. } | Mode::Vht { .. } => mode.modulation(),
    }
}

/// The probability that `bits` bits sent in `mode` at `snr_db` dB arrive with an error (the
/// frame error rate of step 3); `None` for a DSSS mode.
pub fn frame_error(mode: &Mode, snr_db: f64, bits: u64) -> Option<f64> {
    let m = modulation(mode)?;
    let snr = libm::pow(10.0, snr_db / 10.0);
    let p = uncoded_ber(m.bpscs, snr);
    if p <= 0.0 {
        return Some(0.0);
    }
    let pe = coded_pe(p, (m.num, m.den))?;
    // 1 − (1 − pe)^n, accurate for tiny pe: −expm1(n · ln(1 − pe)).
    Some((-libm::expm1(bits as f64 * libm::log1p(-pe))).clamp(0.0, 1.0))
}

/// The SNR (dB, to 0.01 dB) at which `bits` bits in `mode` have the frame error rate `per`:
/// the model's threshold of the mode (bisection; the error rate falls as the SNR rises).
pub fn snr_for(mode: &Mode, per: f64, bits: u64) -> Option<f64> {
    let (mut lo, mut hi) = (-20.0f64, 60.0f64);
    frame_error(mode, hi, bits)?;
    while hi - lo > 0.005 {
        let mid = 0.5 * (lo + hi);
        if frame_error(mode, mid, bits)? > per {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(hi)
}

#[cfg(test)]
#[path = "nist_tests.rs"]
mod tests;
