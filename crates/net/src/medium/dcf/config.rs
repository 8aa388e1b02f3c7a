//! The 802.11 DCF's parameters and per-member counters (crate::medium::dcf), apart from the
//! medium's event loop.

use engine::SimDuration;

/// 802.11b DCF parameters (IEEE 802.11b-1999 clause 18.3.3: slot 20 µs, SIFS 10 µs, CWmin 31,
/// CWmax 1023; DIFS = SIFS + 2 slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DcfConfig {
    /// Slot time.
    pub slot: SimDuration,
    /// SIFS.
    pub sifs: SimDuration,
    /// CWmin (slots).
    pub cw_min: u32,
    /// CWmax (slots).
    pub cw_max: u32,
    /// Attempts per frame, the first included, before it is dropped.
    pub retry_limit: u32,
    /// Airtime of a MAC ACK (PLCP preamble and header plus 14 bytes at the basic rate).
    pub ack_time: SimDuration,
    /// Bits of a MAC ACK exposed to the reverse direction's error model.
    pub ack_bits: u64,
    /// A fixed wait before each retry, the queue head blocked (spec Fig. 13, `ll_retry_delay`).
    pub retry_delay: SimDuration,
    /// Whether the retry delay blocks the member (true: the frame stays at the head and
    /// everything behind it waits) or not (false: the frame is set aside for the delay while
    /// the member sends the frames behind it, and is retried first once the delay is over; the
    /// reordering and link-layer delay the LL-ELSN study's Fig. 13 is about).
    pub retry_delay_blocks: bool,
    /// Whether the receiver acknowledges each frame (802.11). Without MAC ACKs (CSMA/CA as the
    /// 915 MHz WaveLAN had, Balakrishnan97's testbed) a frame is sent once after its backoff and
    /// a collided or corrupted one is lost on the air (the far end discards it); CW never grows.
    pub mac_ack: bool,
    /// Whether two backoffs ending in the same slot collide (802.11). Off is an ablation
    /// (the LL-ELSN study's T004-3: its lead at low FER comes from collisions): one of them,
    /// in turn, sends and the others keep their zero count and send after it.
    pub collisions: bool,
    /// LHP's link-layer header protection (eln-llelsn spec §4.11 (b); Gao et al. 2003): the
    /// headers travel under their own check, so a frame whose payload the channel corrupted
    /// (not one lost in a collision) still hands its header up at the receiver, which can name
    /// the segment (an ELN carried on its ACKs). Off in plain 802.11.
    pub header_protection: bool,
}

/// The limits of one A-MPDU (IEEE 802.11-2016 §10.12): MPDUs, octets and PPDU duration. A cell
/// with them aggregates (crate::medium::dcf::ampdu; `CellConfig::ampdu`, kept in the medium's
/// boxed `CellWifi`, not in [`DcfConfig`], so that the medium enum stays small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmpduLimits {
    /// MPDUs per A-MPDU, 1..=64 (the compressed Block Ack's 64-bit bitmap, §9.3.1.9.3, and the
    /// Block Ack window, §10.24.7).
    pub max_frames: u32,
    /// The A-MPDU's octets (delimiters and padding included; the HT Capabilities' Maximum
    /// A-MPDU Length, 65 535 for HT, §9.4.2.56.3; up to 1 048 575 for VHT, §9.4.2.158.2).
    pub max_bytes: u64,
    /// The PPDU's longest duration (aPPDUMaxTime; see `phy::Timing::max_ppdu`).
    pub max_time: SimDuration,
}

impl DcfConfig {
    /// 802.11b with a long preamble and a 1 Mb/s basic rate.
    pub const B_LONG_1M: DcfConfig = DcfConfig {
        slot: SimDuration::from_micros(20),
        sifs: SimDuration::from_micros(10),
        cw_min: 31,
        cw_max: 1023,
        retry_limit: 7,
        // 192 µs PLCP + 14 bytes at 1 Mb/s.
        ack_time: SimDuration::from_micros(192 + 112),
        ack_bits: 14 * 8,
        retry_delay: SimDuration::ZERO,
        retry_delay_blocks: true,
        mac_ack: true,
        collisions: true,
        header_protection: false,
    };

    /// DIFS = SIFS + 2 slots.
    pub fn difs(&self) -> SimDuration {
        self.sifs + self.slot + self.slot
    }

    /// The mean channel-access wait of a frame on an idle channel: DIFS and a backoff of
    /// CWmin/2 slots (IEEE 802.11-2016 §10.3.4.3: the backoff counter is uniform in 0..=CW, and
    /// CW = CWmin before a first attempt). What the RTT estimator's first sample counts per
    /// DCF frame (lossylink's idle RTT), for a dcf hop and a DCF cell alike.
    pub fn mean_idle_access(&self) -> SimDuration {
        self.difs() + self.slot.saturating_mul(u64::from(self.cw_min) / 2)
    }

    /// EIFS = SIFS + ACK time + DIFS (after a frame received in error).
    pub fn eifs(&self) -> SimDuration {
        self.sifs + self.ack_time + self.difs()
    }

    /// How long a sender waits for the ACK after its frame: SIFS + ACK time + one slot.
    pub fn ack_timeout(&self) -> SimDuration {
        self.sifs + self.ack_time + self.slot
    }
}

/// The DCF's derived intervals, computed once per cell from its [`DcfConfig`] (the medium's hot
/// path reads them instead of summing the parameters on every exchange; time adds saturate,
/// so the sums are the same however they are grouped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Timing {
    /// DIFS (IEEE 802.11-1999 §9.2.3.3): the idle time before counting after a clean exchange.
    pub(super) difs: SimDuration,
    /// EIFS (§9.2.3.4): the idle time before counting after a frame heard in error.
    pub(super) eifs: SimDuration,
    /// SIFS + ACK time: the ACK that follows a frame received intact (§9.2.8).
    pub(super) sifs_ack: SimDuration,
    /// The ACK timeout (§9.2.8): SIFS + ACK time + one slot.
    pub(super) ack_timeout: SimDuration,
}

impl Timing {
    /// The intervals of `cfg`.
    pub(super) fn of(cfg: &DcfConfig) -> Self {
        Timing {
            difs: cfg.difs(),
            eifs: cfg.eifs(),
            sifs_ack: cfg.sifs + cfg.ack_time,
            ack_timeout: cfg.ack_timeout(),
        }
    }
}

/// What one member of the cell counted (IEEE terms).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DcfStats {
    /// Transmission attempts.
    pub attempts: u64,
    /// Frames acknowledged.
    pub successes: u64,
    /// Attempts that collided.
    pub collisions: u64,
    /// Attempts lost to the channel (data or MAC ACK corrupted).
    pub errors: u64,
    /// Retries (attempts after the first of a frame).
    pub retries: u64,
    /// Frames dropped after the retry limit.
    pub drops: u64,
    /// Sum of access delays (frame at the head to its acknowledgement), ns.
    pub access_delay_ns: u64,
    /// Access delays, ns, for percentiles (exact, in memory that follows the distinct
    /// values: crate::medium::dcf::delays).
    pub delays_ns: super::Delays,
    /// Airtime of its attempts, ns (an attempt still on the air counted whole: see
    /// [`DcfStats::airtime_ns_until`]).
    pub airtime_ns: u64,
    /// When the last attempt's airtime ends, ns since the start.
    pub airtime_until_ns: u64,
    /// A-MPDUs sent (with aggregation on; each MPDU in them is an attempt above).
    pub ampdus: u64,
    /// MPDUs in them (the mean aggregate: `ampdu_mpdus / ampdus`).
    pub ampdu_mpdus: u64,
    /// A-MPDUs after which no Block Ack arrived (collided, every MPDU corrupted, or the Block
    /// Ack lost): each calls for a BlockAckReq.
    pub block_acks_missed: u64,
    /// BlockAckReqs sent (the Block Ack retries after a missed one).
    pub block_ack_requests: u64,
    /// BlockAckReqs that got no Block Ack.
    pub block_ack_requests_missed: u64,
    /// MPDUs the originator gave up with a BlockAckReq at its retry limit though the recipient
    /// had them (they reached IP; not in `drops`).
    pub given_up: u64,
    /// MPDUs the recipient held in its reorder buffer behind a missing one.
    pub reorder_held: u64,
    /// MPDUs its reorder timeout released past a hole (100 ms, mac80211).
    pub reorder_timed_out: u64,
    /// MPDUs that reached the recipient behind its window (their hole skipped by the
    /// timeout) and were discarded.
    pub reorder_late: u64,
    /// A-MPDUs by their MPDUs: entry `k` counts the aggregates of `k` MPDUs (the
    /// distribution behind `ampdu_mpdus / ampdus`).
    pub ampdu_sizes: Vec<u64>,
    /// Data PPDUs (A-MPDUs, or single frames) by HT/VHT modulation and coding, in key order.
    pub mcs_ppdus: Vec<(McsKey, u64)>,
}

/// An HT or VHT modulation and coding scheme (IEEE 802.11-2016 §19.5, §21.5), a key of the
/// MCS histogram ([`DcfStats::mcs_ppdus`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct McsKey {
    /// VHT (its MCS 0-9 per stream) rather than HT (its MCS index 0-31 covers the streams).
    pub vht: bool,
    /// The MCS index: HT 8·(streams − 1) + MCS per stream; VHT 0-9.
    pub index: u8,
    /// Spatial streams.
    pub nss: u8,
}

impl std::fmt::Display for McsKey {
    /// `ht15` (HT MCS 15), `vht9x2` (VHT MCS 9, two streams).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.vht {
            write!(f, "vht{}x{}", self.index, self.nss)
        } else {
            write!(f, "ht{}", self.index)
        }
    }
}

impl DcfStats {
    /// One data PPDU sent in `mcs` (none: not an HT/VHT mode).
    pub(super) fn count_ppdu(&mut self, mcs: Option<McsKey>) {
        let Some(key) = mcs else {
            return;
        };
        match self.mcs_ppdus.binary_search_by_key(&key, |e| e.0) {
            Ok(i) => self.mcs_ppdus[i].1 += 1,
            Err(i) => self.mcs_ppdus.insert(i, (key, 1)),
        }
    }

    /// One A-MPDU of `n` MPDUs sent.
    pub(super) fn count_ampdu(&mut self, n: u64) {
        let n = n as usize;
        if self.ampdu_sizes.len() <= n {
            self.ampdu_sizes.resize(n + 1, 0);
        }
        self.ampdu_sizes[n] += 1;
    }
}

impl DcfStats {
    /// Airtime of its attempts up to `end_ns`: a member's attempts take the air one after
    /// another, so only the last can cross the end, and its part after it is left out.
    pub fn airtime_ns_until(&self, end_ns: u64) -> u64 {
        let after = self.airtime_until_ns.saturating_sub(end_ns);
        self.airtime_ns.saturating_sub(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The precomputed intervals are the sums the medium used to make per exchange, added
        /// to a time the way it added them (saturating near the end of time too).
        #[test]
        fn timing_is_the_configurations_sums(
            slot in any::<u64>(), sifs in any::<u64>(), ack in any::<u64>(),
            t in prop_oneof![0u64..1 << 40, any::<u64>()],
        ) {
            let cfg = DcfConfig {
                slot: SimDuration(slot % (1 << 62)),
                sifs: SimDuration(sifs % (1 << 62)),
                ack_time: SimDuration(ack),
                ..DcfConfig::B_LONG_1M
            };
            let tm = Timing::of(&cfg);
            let t = engine::SimTime(t);
            prop_assert_eq!(tm.difs, cfg.difs());
            prop_assert_eq!(tm.eifs, cfg.eifs());
            prop_assert_eq!(tm.ack_timeout, cfg.ack_timeout());
            prop_assert_eq!(t + tm.sifs_ack, t + cfg.sifs + cfg.ack_time);
            prop_assert_eq!(t + tm.ack_timeout, t + cfg.ack_timeout());
        }
    }
}
