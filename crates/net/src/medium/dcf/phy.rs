//! 802.11 PHYs as data: each PHY's MAC timing (slot, SIFS, CW bounds) and its transmission
//! modes, with the duration of a PPDU (`TXTIME`) in integer nanoseconds and the mode of the
//! control response (the MAC ACK) a data frame elicits. Sources, all IEEE Std 802.11-2016:
//!
//! - DSSS / HR-DSSS (802.11b; clauses 15 and 16): 1, 2, 5.5 and 11 Mb/s; long PLCP preamble and
//!   header 144 + 48 µs, short 72 + 24 µs (§16.2.2, §16.2.3); slot 20 µs, SIFS 10 µs,
//!   CWmin 31, CWmax 1023 (Table 16-4).
//! - OFDM (802.11a; clause 17): 6-54 Mb/s with the data bits per symbol N_DBPS of Table 17-4;
//!   `TXTIME = T_PREAMBLE (16 µs) + T_SIGNAL (4 µs) + T_SYM (4 µs) · N_SYM`,
//!   `N_SYM = ⌈(16 + 8·LENGTH + 6) / N_DBPS⌉` (16-bit SERVICE field, 6 tail bits; §17.4.3,
//!   Eq. (17-29)); slot 9 µs, SIFS 16 µs, CWmin 15, CWmax 1023 (Table 17-21).
//! - ERP (802.11g; clause 18): the OFDM modes (ERP-OFDM) followed by a 6 µs signal extension
//!   (§18.3.2.4, TXTIME of §18.5.2), and the DSSS/CCK modes; SIFS 10 µs; slot 20 µs, or 9 µs
//!   when the BSS uses the short slot time (every member an ERP STA); CWmin 15 (31 when the
//!   BSS keeps the long slot for non-ERP members, the 802.11b value), CWmax 1023 (Table 18-5).
//! - HT (802.11n; clause 19), HT-mixed format at 5 GHz: MCS 0-7 per spatial stream, 1-4
//!   streams (MCS index 8·(N_SS − 1) + m, equal modulation), 20/40 MHz, 800 or 400 ns guard
//!   interval (Tables 19-27 to 19-41: N_SD 52 / 108 data subcarriers);
//!   `TXTIME = T_LEG_PREAMBLE (16) + T_L-SIG (4) + T_HT-SIG (8) + T_HT-STF (4) + N_LTF·4 µs +
//!   data` (§19.4.3, Eq. (19-135); short GI: the data symbols' 3.6 µs total rounded up to
//!   whole 4 µs, Eq. (19-136)); N_LTF = 1, 2, 4, 4 for 1-4 streams (Table 19-13);
//!   `N_SYM = ⌈(8·LENGTH + 16 + 6·N_ES) / N_DBPS⌉` (BCC, no STBC, Eq. (19-32)); slot 9 µs,
//!   SIFS 16 µs, CWmin 15, CWmax 1023 (Table 19-25). The 2.4 GHz band's 6 µs signal extension
//!   is not applied (a 5 GHz cell).
//! - VHT (802.11ac; clause 21): MCS 0-9, 1-4 streams, 20/40/80 MHz (N_SD 52 / 108 / 234),
//!   long or short GI; `TXTIME = T_LEG_PREAMBLE (16) + T_L-SIG (4) + T_VHT-SIG-A (8) +
//!   T_VHT-STF (4) + N_VHT-LTF·4 µs + T_VHT-SIG-B (4) + data` (§21.4.3, Eq. (21-105)/(21-106));
//!   N_VHT-LTF = 1, 2, 4, 4 (Table 21-13); a (width, N_SS, MCS) whose N_DBPS or N_CBPS is not
//!   a whole multiple of N_ES is not a valid mode (§21.5: 20 MHz MCS 9 except with 3 streams,
//!   80 MHz MCS 6 with 3 streams). ns-3 (`vht-phy.cc`) leaves VHT-SIG-B out of an SU PPDU;
//!   the standard's Figure 21-4 has it, so it is counted here.
//!
//! N_ES, the number of BCC encoders, is the one the standard's MCS tables list; the rule that
//! reproduces them for the modes here (ns-3's `HtPhy`/`VhtPhy::GetNumberBccEncoders`, read,
//! not copied) is one encoder per 320 Mb/s (HT, long GI) / 350 Mb/s (HT, short GI) / 540 Mb/s
//! (VHT, long GI) / 600 Mb/s (VHT, short GI) of data rate.
//!
//! A-MPDU aggregation (crate::medium::dcf::ampdu) times an aggregate with [`Mode::txtime`]
//! of its whole PSDU and splits it among the MPDUs with [`Mode::preamble`]; SNR error models
//! are not here yet (they will use [`Mode::modulation`]).

use engine::SimDuration;

/// The PHY of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standard {
    /// 802.11b DSSS/HR-DSSS (clauses 15, 16).
    B,
    /// 802.11a OFDM (clause 17).
    A,
    /// 802.11g ERP (clause 18): ERP-OFDM and DSSS/CCK modes.
    G,
    /// 802.11n HT (clause 19), 5 GHz.
    N,
    /// 802.11ac VHT (clause 21).
    Ac,
}

impl Standard {
    /// The names the schema uses.
    pub const NAMES: [(&'static str, Standard); 5] = [
        ("11b", Standard::B),
        ("11a", Standard::A),
        ("11g", Standard::G),
        ("11n", Standard::N),
        ("11ac", Standard::Ac),
    ];

    /// The schema's name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("11b", |(n, _)| n)
    }
}

/// A channel width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// 20 MHz.
    W20,
    /// 40 MHz (HT, VHT).
    W40,
    /// 80 MHz (VHT).
    W80,
}

impl Width {
    /// Data subcarriers N_SD (Tables 19-27 ff., 21-30 ff.: 52, 108, 234).
    fn n_sd(self) -> u32 {
        match self {
            Width::W20 => 52,
            Width::W40 => 108,
            Width::W80 => 234,
        }
    }

    /// MHz.
    pub fn mhz(self) -> u32 {
        match self {
            Width::W20 => 20,
            Width::W40 => 40,
            Width::W80 => 80,
        }
    }
}

/// The guard interval of HT and VHT data symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gi {
    /// 800 ns: 4 µs symbols.
    Long,
    /// 400 ns: 3.6 µs symbols (§19.3.2, §21.3.2).
    Short,
}

/// The modulation and coding rate of a subcarrier (Table 19-27 ff., 21-30 ff.): bits per
/// subcarrier N_BPSCS and the rate as a fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modulation {
    /// Coded bits per subcarrier: 1 BPSK, 2 QPSK, 4 16-QAM, 6 64-QAM, 8 256-QAM.
    pub bpscs: u32,
    /// Coding rate numerator.
    pub num: u32,
    /// Coding rate denominator.
    pub den: u32,
}

/// HT/VHT MCS m (per stream) → modulation and coding (Tables 19-27, 21-30): MCS 0-7 for HT,
/// 0-9 for VHT.
const MCS: [Modulation; 10] = [
    Modulation {
        bpscs: 1,
        num: 1,
        den: 2,
    },
    Modulation {
        bpscs: 2,
        num: 1,
        den: 2,
    },
    Modulation {
        bpscs: 2,
        num: 3,
        den: 4,
    },
    Modulation {
        bpscs: 4,
        num: 1,
        den: 2,
    },
    Modulation {
        bpscs: 4,
        num: 3,
        den: 4,
    },
    Modulation {
        bpscs: 6,
        num: 2,
        den: 3,
    },
    Modulation {
        bpscs: 6,
        num: 3,
        den: 4,
    },
    Modulation {
        bpscs: 6,
        num: 5,
        den: 6,
    },
    Modulation {
        bpscs: 8,
        num: 3,
        den: 4,
    },
    Modulation {
        bpscs: 8,
        num: 5,
        den: 6,
    },
];

/// The eight OFDM rates (Mb/s) and their data bits per symbol (Table 17-4, 20 MHz).
pub const OFDM_RATES: [(u32, u32); 8] = [
    (6, 24),
    (9, 36),
    (12, 48),
    (18, 72),
    (24, 96),
    (36, 144),
    (48, 192),
    (54, 216),
];

/// The DSSS/HR-DSSS rates, bit/s (clauses 15, 16).
pub const DSSS_RATES: [u64; 4] = [1_000_000, 2_000_000, 5_500_000, 11_000_000];

/// The OFDM basic rate set a BSS of these PHYs uses for control responses: the mandatory
/// rates 6, 12 and 24 Mb/s (§17.3.5.7 … §10.6.6.5.2's default BSSBasicRateSet).
const OFDM_BASIC: [u32; 3] = [6, 12, 24];

/// The DSSS basic rate set of an ERP BSS for frames of the DSSS modes: 1 and 2 Mb/s.
const DSSS_BASIC: [u64; 2] = [1_000_000, 2_000_000];

/// µs.
const fn us(n: u64) -> SimDuration {
    SimDuration::from_micros(n)
}

/// One transmission mode of a PHY: everything the duration of a PPDU needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// DSSS/HR-DSSS: the PLCP preamble and header, then the PSDU at `rate_bps`.
    Dsss {
        /// Data rate.
        rate_bps: u64,
        /// PLCP preamble and header (192 µs long, 96 µs short).
        plcp: SimDuration,
    },
    /// OFDM (clause 17) or ERP-OFDM (clause 18, with its 6 µs signal extension).
    Ofdm {
        /// Data bits per symbol (Table 17-4).
        n_dbps: u32,
        /// Signal extension after the PPDU (0, or 6 µs for ERP-OFDM).
        ext: SimDuration,
    },
    /// HT-mixed format (clause 19).
    Ht {
        /// MCS per stream, 0-7.
        mcs: u8,
        /// Spatial streams, 1-4.
        nss: u8,
        /// 20 or 40 MHz.
        width: Width,
        /// Guard interval.
        gi: Gi,
    },
    /// VHT SU PPDU (clause 21).
    Vht {
        /// MCS, 0-9.
        mcs: u8,
        /// Spatial streams, 1-4.
        nss: u8,
        /// 20, 40 or 80 MHz.
        width: Width,
        /// Guard interval.
        gi: Gi,
    },
}

impl Mode {
    /// An OFDM mode of `mbps` (one of [`OFDM_RATES`]), with the ERP signal extension if `erp`.
    pub fn ofdm(mbps: u32, erp: bool) -> Option<Mode> {
        OFDM_RATES
            .iter()
            .find(|(r, _)| *r == mbps)
            .map(|&(_, n_dbps)| Mode::Ofdm {
                n_dbps,
                ext: if erp { us(6) } else { SimDuration::ZERO },
            })
    }

    /// The modulation and coding of an HT/VHT mode's streams.
    pub fn modulation(&self) -> Option<Modulation> {
        match *self {
            Mode::Ht { mcs, .. } | Mode::Vht { mcs, .. } => MCS.get(usize::from(mcs)).copied(),
            _ => None,
        }
    }

    /// Coded bits per symbol N_CBPS (HT/VHT; `None` for the others).
    fn n_cbps(&self) -> Option<u32> {
        match *self {
            Mode::Ht { nss, width, .. } | Mode::Vht { nss, width, .. } => {
                let m = self.modulation()?;
                Some(width.n_sd() * m.bpscs * u32::from(nss))
            }
            _ => None,
        }
    }

    /// Data bits per OFDM symbol N_DBPS (`None` for DSSS, and for an HT/VHT combination
    /// whose N_DBPS is not whole).
    pub fn n_dbps(&self) -> Option<u32> {
        match *self {
            Mode::Dsss { .. } => None,
            Mode::Ofdm { n_dbps, .. } => Some(n_dbps),
            Mode::Ht { .. } | Mode::Vht { .. } => {
                let m = self.modulation()?;
                let c = self.n_cbps()? * m.num;
                (c % m.den == 0).then_some(c / m.den)
            }
        }
    }

    /// One data symbol: 4 µs, or 3.6 µs with the short guard interval.
    pub fn symbol(&self) -> SimDuration {
        match *self {
            Mode::Ht { gi: Gi::Short, .. } | Mode::Vht { gi: Gi::Short, .. } => {
                SimDuration::from_nanos(3600)
            }
            _ => us(4),
        }
    }

    /// The data rate in bit/s (N_DBPS per symbol, rounded to the nearest bit/s).
    pub fn rate_bps(&self) -> u64 {
        match *self {
            Mode::Dsss { rate_bps, .. } => rate_bps,
            _ => {
                let n = u64::from(self.n_dbps().unwrap_or(0));
                let t = self.symbol().as_nanos();
                (n * 1_000_000_000 + t / 2) / t
            }
        }
    }

    /// Number of BCC encoders N_ES (see the module's note).
    fn n_es(&self) -> u32 {
        let per_encoder = match *self {
            Mode::Ht { gi: Gi::Long, .. } => 320_000_000,
            Mode::Ht { gi: Gi::Short, .. } => 350_000_000,
            Mode::Vht { gi: Gi::Long, .. } => 540_000_000,
            Mode::Vht { gi: Gi::Short, .. } => 600_000_000,
            _ => return 1,
        };
        self.rate_bps().div_ceil(per_encoder).max(1) as u32
    }

    /// Whether the standard has this mode: the numbers in range and, for HT/VHT, N_DBPS and
    /// N_CBPS whole multiples of N_ES (§21.5's excluded (width, N_SS, MCS) combinations).
    pub fn is_valid(&self) -> bool {
        match *self {
            Mode::Dsss { rate_bps, .. } => DSSS_RATES.contains(&rate_bps),
            Mode::Ofdm { n_dbps, .. } => OFDM_RATES.iter().any(|&(_, n)| n == n_dbps),
            Mode::Ht {
                mcs, nss, width, ..
            } => mcs <= 7 && (1..=4).contains(&nss) && width != Width::W80,
            Mode::Vht { mcs, nss, .. } => {
                if mcs > 9 || !(1..=4).contains(&nss) {
                    return false;
                }
                let (Some(d), Some(c)) = (self.n_dbps(), self.n_cbps()) else {
                    return false;
                };
                let es = self.n_es();
                d % es == 0 && c % es == 0
            }
        }
    }

    /// Everything of a PPDU before its data symbols: the PLCP of DSSS; the legacy preamble
    /// and SIGNAL of OFDM (20 µs); the HT-mixed and VHT preambles of the module's note.
    pub fn preamble(&self) -> SimDuration {
        // HT-LTFs (Table 19-13) and VHT-LTFs (Table 21-13) for 1-4 streams.
        let ltf = |nss: u8| us(4).saturating_mul(u64::from(if nss <= 2 { nss.max(1) } else { 4 }));
        match *self {
            Mode::Dsss { plcp, .. } => plcp,
            Mode::Ofdm { .. } => us(16 + 4),
            Mode::Ht { nss, .. } => us(16 + 4 + 8 + 4) + ltf(nss),
            Mode::Vht { nss, .. } => us(16 + 4 + 8 + 4 + 4) + ltf(nss),
        }
    }

    /// The PPDU's duration for a PSDU of `bytes` (the MPDU: MAC header, body, FCS), signal
    /// extension included.
    pub fn txtime(&self, bytes: u64) -> SimDuration {
        let bits = bytes.saturating_mul(8);
        match *self {
            Mode::Dsss { rate_bps, plcp } => plcp + SimDuration::for_bits(bits, rate_bps),
            Mode::Ofdm { n_dbps, ext } => {
                // SERVICE (16) + PSDU + tail (6), Eq. (17-29).
                let n_sym = (16 + bits + 6).div_ceil(u64::from(n_dbps));
                self.preamble() + us(4).saturating_mul(n_sym) + ext
            }
            Mode::Ht { gi, .. } | Mode::Vht { gi, .. } => {
                let n_dbps = u64::from(self.n_dbps().unwrap_or(1).max(1));
                let n_sym = (bits + 16 + 6 * u64::from(self.n_es())).div_ceil(n_dbps);
                let data = match gi {
                    Gi::Long => us(4).saturating_mul(n_sym),
                    // Eq. (19-136)/(21-106): T_SYML · ⌈T_SYMS · N_SYM / T_SYML⌉.
                    Gi::Short => us(4).saturating_mul((3600 * n_sym).div_ceil(4000)),
                };
                self.preamble() + data
            }
        }
    }

    /// The mode of the control response (MAC ACK) to a frame sent in this mode (§10.6.6.5.2):
    /// the highest rate of the basic rate set not above the eliciting frame's rate, of the
    /// same modulation class; for an HT/VHT frame, not above its non-HT reference rate (the
    /// OFDM rate of the same modulation and coding, Table 10-7). `dsss_basic` is the rate of
    /// the ACKs of a DSSS frame (a DSSS cell's `basic_rate`, whose ACK time stays the cell's).
    pub fn response(&self, dsss_basic: u64) -> Mode {
        let ofdm_basic = |ref_mbps: u32, ext: bool| {
            let r = OFDM_BASIC
                .iter()
                .rev()
                .find(|&&b| b <= ref_mbps)
                .copied()
                .unwrap_or(OFDM_BASIC[0]);
            Mode::ofdm(r, ext).unwrap_or(Mode::Ofdm {
                n_dbps: 24,
                ext: SimDuration::ZERO,
            })
        };
        match *self {
            Mode::Dsss { rate_bps, plcp } => {
                let r = if dsss_basic > 0 {
                    dsss_basic
                } else {
                    DSSS_BASIC
                        .iter()
                        .rev()
                        .find(|&&b| b <= rate_bps)
                        .copied()
                        .unwrap_or(DSSS_BASIC[0])
                };
                Mode::Dsss { rate_bps: r, plcp }
            }
            Mode::Ofdm { n_dbps, ext } => {
                let mbps = OFDM_RATES
                    .iter()
                    .find(|&&(_, n)| n == n_dbps)
                    .map_or(6, |&(r, _)| r);
                ofdm_basic(mbps, ext > SimDuration::ZERO)
            }
            Mode::Ht { mcs, .. } | Mode::Vht { mcs, .. } => {
                // Non-HT reference rates of MCS 0-9 (Table 10-7; 256-QAM maps to 54).
                const REF: [u32; 10] = [6, 12, 18, 24, 36, 48, 54, 54, 54, 54];
                ofdm_basic(REF[usize::from(mcs.min(9))], false)
            }
        }
    }

    /// The MAC ACK's airtime after a frame of this mode: 14 bytes in the response mode.
    pub fn ack_time(&self, dsss_basic: u64) -> SimDuration {
        self.response(dsss_basic).txtime(ACK_BYTES)
    }
}

/// A MAC ACK frame: frame control, duration, RA, FCS (§9.3.1.4).
pub const ACK_BYTES: u64 = 14;

/// A PHY's MAC timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// aSlotTime.
    pub slot: SimDuration,
    /// aSIFSTime.
    pub sifs: SimDuration,
    /// aCWmin.
    pub cw_min: u32,
    /// aCWmax.
    pub cw_max: u32,
    /// The ACK at the PHY's lowest mandatory rate, which EIFS contains (§10.3.2.3.7): 6 Mb/s
    /// OFDM (20 + 6·4 µs = 44 µs), or for ERP 1 Mb/s DSSS with the long PLCP (304 µs).
    pub eifs_ack: SimDuration,
    /// The longest PPDU, which bounds an A-MPDU (crate::medium::dcf::ampdu): VHT's
    /// aPPDUMaxTime, 5.484 ms (Table 21-28); for HT-mixed PPDUs (clause 19 allows 10 ms,
    /// Table 19-25) the same 5.484 ms, the longest duration the legacy L-SIG can announce
    /// (its 12-bit LENGTH at most 4095 octets at 6 Mb/s: 20 µs + ⌈(16 + 8·4095 + 6) / 24⌉ ·
    /// 4 µs = 5.484 ms, Eq. (17-29); §19.3.9.3.5 sets L-SIG from the PPDU's duration). Zero
    /// for the PHYs without aggregation.
    pub max_ppdu: SimDuration,
}

impl Standard {
    /// The MAC timing of the PHY (the tables in the module's note); `short_slot` chooses
    /// ERP's 9 µs slot (802.11g only).
    pub fn timing(self, short_slot: bool) -> Timing {
        let ofdm_ack = us(44);
        let dsss_ack = us(192 + 112);
        match self {
            Standard::B => Timing {
                slot: us(20),
                sifs: us(10),
                cw_min: 31,
                cw_max: 1023,
                eifs_ack: dsss_ack,
                max_ppdu: SimDuration::ZERO,
            },
            Standard::A => Timing {
                slot: us(9),
                sifs: us(16),
                cw_min: 15,
                cw_max: 1023,
                eifs_ack: ofdm_ack,
                max_ppdu: SimDuration::ZERO,
            },
            Standard::G => Timing {
                slot: if short_slot { us(9) } else { us(20) },
                sifs: us(10),
                cw_min: if short_slot { 15 } else { 31 },
                cw_max: 1023,
                eifs_ack: dsss_ack,
                max_ppdu: SimDuration::ZERO,
            },
            Standard::N => Timing {
                slot: us(9),
                sifs: us(16),
                cw_min: 15,
                cw_max: 1023,
                eifs_ack: ofdm_ack,
                max_ppdu: us(5484),
            },
            Standard::Ac => Timing {
                slot: us(9),
                sifs: us(16),
                cw_min: 15,
                cw_max: 1023,
                eifs_ack: ofdm_ack,
                max_ppdu: us(5484),
            },
        }
    }

    /// Every mode of the PHY at the given width, guard interval and streams (HT/VHT), in
    /// rising order of rate within each family, each with its rate in bit/s; `short` is the
    /// DSSS preamble of the 2, 5.5 and 11 Mb/s modes.
    pub fn modes(self, width: Width, gi: Gi, nss: u8, short: bool) -> Vec<Mode> {
        let dsss = || {
            DSSS_RATES.iter().map(move |&r| Mode::Dsss {
                rate_bps: r,
                // §16.2.2/16.2.3: 1 Mb/s has only the long preamble.
                plcp: if short && r > 1_000_000 {
                    us(96)
                } else {
                    us(192)
                },
            })
        };
        let ofdm = |erp: bool| {
            OFDM_RATES
                .iter()
                .filter_map(move |&(r, _)| Mode::ofdm(r, erp))
        };
        let v: Vec<Mode> = match self {
            Standard::B => dsss().collect(),
            Standard::A => ofdm(false).collect(),
            Standard::G => dsss().chain(ofdm(true)).collect(),
            Standard::N => (0..=7)
                .map(|mcs| Mode::Ht {
                    mcs,
                    nss,
                    width,
                    gi,
                })
                .collect(),
            Standard::Ac => (0..=9)
                .map(|mcs| Mode::Vht {
                    mcs,
                    nss,
                    width,
                    gi,
                })
                .collect(),
        };
        v.into_iter().filter(Mode::is_valid).collect()
    }

    /// The mode of this PHY whose rate is `bps` (within 50 kb/s, the standard's tables giving
    /// rates to 0.1 Mb/s: 7.2 Mb/s is HT MCS 0 with the short GI), or the list of the rates
    /// it has, as the schema writes them.
    pub fn mode_of_rate(
        self,
        bps: u64,
        (width, gi, nss, short): (Width, Gi, u8, bool),
    ) -> Result<Mode, Vec<String>> {
        let modes = self.modes(width, gi, nss, short);
        if let Some(m) = modes.iter().find(|m| m.rate_bps().abs_diff(bps) < 50_000) {
            return Ok(*m);
        }
        Err(modes.iter().map(|m| rate_name(m.rate_bps())).collect())
    }
}

/// A rate as the tables write it: whole Mb/s, or one decimal.
pub fn rate_name(bps: u64) -> String {
    let tenths = (bps + 50_000) / 100_000;
    if tenths.is_multiple_of(10) {
        format!("{}Mbps", tenths / 10)
    } else {
        format!("{}.{}Mbps", tenths / 10, tenths % 10)
    }
}

#[cfg(test)]
#[path = "phy_tests.rs"]
mod tests;
