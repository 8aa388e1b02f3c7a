//! A DCF cell's PHY (`dcf.phy`, net::medium::dcf::phy) and access-point scheduler (`dcf.scheduler`,
//! net::medium::dcf::airtime), validated: the PHY's MAC timing as the DCF's defaults, each member's
//! rate checked against the PHY's modes (one line naming the field and the rates allowed), and
//! the mode that sets its frames' and ACKs' airtime.

use crate::error::Error;
use crate::schema::{
    AggregationDoc, ApQueueDoc, DcfDoc, GiDoc, PhyDoc, PreambleDoc, SchedulerDoc, WidthDoc,
};
use engine::SimDuration;
use net::ifq::ApQueue;
use net::medium::dcf::airtime::{ApScheduler, LINUX_QUANTUM};
use net::medium::dcf::phy::{Gi, Mode, Standard, Width};
use net::medium::{AmpduLimits, DcfConfig};

#[path = "wifi_snr.rs"]
pub(super) mod snr;

/// A cell's PHY and the choices its modes depend on.
#[derive(Clone, Copy, Debug)]
pub(super) struct CellPhy {
    std: Standard,
    /// Width, guard interval, spatial streams (HT/VHT) and the DSSS short preamble.
    opts: (Width, Gi, u8, bool),
    short_slot: bool,
    /// The document's own timing, over the PHY's.
    overrides: Overrides,
}

/// `slot`, `sifs`, `cw_min`, `cw_max` as the document gave them.
#[derive(Clone, Copy, Debug)]
struct Overrides {
    slot: Option<SimDuration>,
    sifs: Option<SimDuration>,
    cw_min: Option<u32>,
    cw_max: Option<u32>,
}

impl CellPhy {
    /// Whether the cell keeps today's 802.11b timing (the frames' PLCP in `per_frame`).
    pub(super) fn is_11b(&self) -> bool {
        self.std == Standard::B
    }
}

/// The PHY of the `dcf` at `field` (`cells[i].dcf`), its knobs checked against it.
pub(super) fn cell_phy(d: &DcfDoc, field: &str) -> Result<CellPhy, Error> {
    let std = match d.phy.unwrap_or_default() {
        PhyDoc::B => Standard::B,
        PhyDoc::A => Standard::A,
        PhyDoc::G => Standard::G,
        PhyDoc::N => Standard::N,
        PhyDoc::Ac => Standard::Ac,
    };
    let name = std.name();
    let ht = matches!(std, Standard::N | Standard::Ac);
    let only = |k: &str, what: &str| {
        Error::invalid(
            format!("{field}.{k}"),
            format!("dcf.phy = \"{name}\" has no {what}; it belongs to 11n and 11ac"),
        )
    };
    let width = match d.width.unwrap_or_default() {
        _ if d.width.is_some() && !ht => return Err(only("width", "channel width")),
        WidthDoc::W20 => Width::W20,
        WidthDoc::W40 => Width::W40,
        WidthDoc::W80 if std == Standard::Ac => Width::W80,
        WidthDoc::W80 => {
            return Err(Error::invalid(
                format!("{field}.width"),
                "80MHz is a VHT width (11ac); 11n has 20MHz and 40MHz",
            ))
        }
    };
    let gi = match d.guard_interval.unwrap_or_default() {
        _ if d.guard_interval.is_some() && !ht => {
            return Err(only("guard_interval", "guard-interval choice"))
        }
        GiDoc::Long => Gi::Long,
        GiDoc::Short => Gi::Short,
    };
    let streams = d.streams.unwrap_or(1);
    if d.streams.is_some() && !ht {
        return Err(only("streams", "spatial streams"));
    }
    if !(1..=4).contains(&streams) {
        return Err(Error::invalid(
            format!("{field}.streams"),
            format!("{streams} is outside 1..=4 (spatial streams)"),
        ));
    }
    if d.short_slot.is_some() && std != Standard::G {
        return Err(Error::invalid(
            format!("{field}.short_slot"),
            format!(
                "belongs to dcf.phy = \"11g\" (ERP's 9 or 20 µs slot); {name} has one slot time"
            ),
        ));
    }
    if std != Standard::B && d.basic_rate.is_some() {
        return Err(Error::invalid(
            format!("{field}.basic_rate"),
            format!(
                "with dcf.phy = \"{name}\" each frame's ACK takes the highest basic rate not \
                 above its own (IEEE 802.11-2016 §10.6.6.5.2); basic_rate is 11b's"
            ),
        ));
    }
    let t = std.timing(d.short_slot.unwrap_or(true));
    if std != Standard::B && d.cw_min.unwrap_or(t.cw_min) > d.cw_max.unwrap_or(t.cw_max) {
        return Err(Error::invalid(
            format!("{field}.cw_min"),
            format!(
                "{} is above cw_max {}",
                d.cw_min.unwrap_or(t.cw_min),
                d.cw_max.unwrap_or(t.cw_max)
            ),
        ));
    }
    Ok(CellPhy {
        std,
        opts: (width, gi, streams, d.preamble == PreambleDoc::Short),
        short_slot: d.short_slot.unwrap_or(true),
        overrides: Overrides {
            slot: d.slot.map(|x| SimDuration(x.0)),
            sifs: d.sifs.map(|x| SimDuration(x.0)),
            cw_min: d.cw_min,
            cw_max: d.cw_max,
        },
    })
}

/// The mode of a member's rate `bps` at `field` (`None` for 11b, whose frames keep the link's
/// `per_frame` + bits/rate airtime and the cell's ACK), or the one-line error naming the rates
/// the PHY has.
pub(super) fn member_mode(p: &CellPhy, bps: u64, field: &str) -> Result<Option<Mode>, Error> {
    if p.is_11b() {
        dcf_rate(bps, field)?;
        return Ok(None);
    }
    p.std
        .mode_of_rate(bps, p.opts)
        .map(Some)
        .map_err(|allowed| {
            let (w, gi, nss, _) = p.opts;
            let at = match p.std {
                Standard::N | Standard::Ac => format!(
                    " at {} MHz, {} guard interval, {nss} stream{}",
                    w.mhz(),
                    if gi == Gi::Short { "short" } else { "long" },
                    if nss > 1 { "s" } else { "" }
                ),
                _ => String::new(),
            };
            Error::invalid(
                field,
                format!(
                    "{} is not an 802.{} rate{at} (allowed: {})",
                    crate::units::format_rate(bps),
                    p.std.name(),
                    allowed.join(", ")
                ),
            )
        })
}

/// `cfg` (the DCF of `dcf_config`, 802.11b defaults) with the PHY's timing where the document
/// left it to the PHY.
pub(super) fn with_phy(mut cfg: DcfConfig, p: &CellPhy) -> DcfConfig {
    if !p.is_11b() {
        let t = p.std.timing(p.short_slot);
        let d = &p.overrides;
        cfg.slot = d.slot.unwrap_or(t.slot);
        cfg.sifs = d.sifs.unwrap_or(t.sifs);
        cfg.cw_min = d.cw_min.unwrap_or(t.cw_min);
        cfg.cw_max = d.cw_max.unwrap_or(t.cw_max);
        // EIFS holds the ACK at the lowest mandatory rate (§10.3.2.3.7); each data frame's
        // own ACK is its mode's (net's Dcf::set_port_ack).
        cfg.ack_time = t.eifs_ack;
    }
    cfg
}

/// The A-MPDU limits of the `dcf` at `field` (`None`: aggregation off), checked against the
/// PHY: only HT and VHT aggregate (IEEE 802.11-2016 §10.12); at most 64 MPDUs (the compressed
/// Block Ack's bitmap, §9.3.1.9.3) and the PHY's maximum A-MPDU length (HT 65 535 octets,
/// §9.4.2.56.3; VHT 1 048 575, §9.4.2.158.2); the PPDU's longest duration is the PHY's
/// (net::medium::dcf::phy::Timing::max_ppdu, 5.484 ms).
pub(super) fn ampdu(d: &DcfDoc, p: &CellPhy, field: &str) -> Result<Option<AmpduLimits>, Error> {
    let on = d.aggregation.unwrap_or_default() == AggregationDoc::Ampdu;
    if !on {
        for (k, set) in [
            ("ampdu_max_frames", d.ampdu_max_frames.is_some()),
            ("ampdu_max_bytes", d.ampdu_max_bytes.is_some()),
        ] {
            if set {
                return Err(Error::invalid(
                    format!("{field}.{k}"),
                    "belongs to aggregation = \"ampdu\"",
                ));
            }
        }
        return Ok(None);
    }
    let max_bytes_phy = match p.std {
        Standard::N => 65_535,
        Standard::Ac => 1_048_575,
        _ => {
            return Err(Error::invalid(
                format!("{field}.aggregation"),
                format!(
                    "dcf.phy = \"{}\" has no A-MPDU aggregation; it belongs to 11n and 11ac",
                    p.std.name()
                ),
            ))
        }
    };
    if d.mac_ack == Some(false) {
        return Err(Error::invalid(
            format!("{field}.mac_ack"),
            "aggregation = \"ampdu\" is answered by a Block Ack; leave mac_ack on",
        ));
    }
    if d.retry_delay.is_some_and(|x| x.0 > 0) {
        return Err(Error::invalid(
            format!("{field}.retry_delay"),
            "aggregation = \"ampdu\" retries MPDUs in the next aggregate; leave retry_delay out",
        ));
    }
    let max_frames = d.ampdu_max_frames.unwrap_or(64);
    if !(1..=64).contains(&max_frames) {
        return Err(Error::invalid(
            format!("{field}.ampdu_max_frames"),
            format!("{max_frames} is outside 1..=64 (MPDUs per A-MPDU, the Block Ack window)"),
        ));
    }
    let max_bytes = d.ampdu_max_bytes.unwrap_or(max_bytes_phy);
    if !(1_600..=max_bytes_phy).contains(&max_bytes) {
        return Err(Error::invalid(
            format!("{field}.ampdu_max_bytes"),
            format!(
                "{max_bytes} is outside 1600..={max_bytes_phy} (octets per A-MPDU on dcf.phy = \"{}\")",
                p.std.name()
            ),
        ));
    }
    Ok(Some(AmpduLimits {
        max_frames,
        max_bytes,
        max_time: p.std.timing(p.short_slot).max_ppdu,
    }))
}

/// The access point's scheduler of the `dcf` at `field`.
pub(super) fn ap_scheduler(d: &DcfDoc, field: &str) -> Result<ApScheduler, Error> {
    Ok(match d.scheduler.unwrap_or_default() {
        SchedulerDoc::Frames => {
            if d.airtime_quantum.is_some() {
                return Err(Error::invalid(
                    format!("{field}.airtime_quantum"),
                    "belongs to scheduler = \"airtime\"",
                ));
            }
            ApScheduler::Frames
        }
        SchedulerDoc::Airtime => {
            let q = d
                .airtime_quantum
                .map_or(LINUX_QUANTUM, |q| SimDuration(q.0));
            match ApScheduler::airtime(q) {
                Some(s) if q <= SimDuration::from_secs(1) => s,
                _ => {
                    return Err(Error::invalid(
                        format!("{field}.airtime_quantum"),
                        "must be greater than zero and at most 1s",
                    ))
                }
            }
        }
    })
}

/// The access point's queue of the `dcf` at `field` (net::ifq); `aqm`: the cell's `queue` is a
/// discipline other than drop-tail.
pub(super) fn ap_queue(d: &DcfDoc, field: &str, aqm: bool) -> Result<ApQueue, Error> {
    match d.ap_queue.unwrap_or_default() {
        ApQueueDoc::PerStation => Ok(ApQueue::PerStation),
        ApQueueDoc::Shared if d.scheduler == Some(SchedulerDoc::Airtime) => Err(Error::invalid(
            format!("{field}.ap_queue"),
            "\"shared\" is one FIFO; it takes scheduler = \"frames\" (or none), not \"airtime\"",
        )),
        ApQueueDoc::Shared if aqm => Err(Error::invalid(
            format!("{field}.ap_queue"),
            "\"shared\" is a drop-tail FIFO; the cell's queue must be a packet count",
        )),
        ApQueueDoc::Shared => Ok(ApQueue::Shared),
    }
}

/// A `medium = "dcf"` hop (two ends, no access point) keeps 802.11b: the PHY and scheduler
/// knobs belong to a `[[cells]]` entry.
pub(super) fn hop_knobs(d: &DcfDoc, field: &str) -> Result<(), Error> {
    let set = [
        ("phy", d.phy.is_some_and(|p| p != PhyDoc::B)),
        ("width", d.width.is_some()),
        ("guard_interval", d.guard_interval.is_some()),
        ("streams", d.streams.is_some()),
        ("short_slot", d.short_slot.is_some()),
        ("scheduler", d.scheduler.is_some()),
        ("airtime_quantum", d.airtime_quantum.is_some()),
        ("aggregation", d.aggregation.is_some()),
        ("ampdu_max_frames", d.ampdu_max_frames.is_some()),
        ("ampdu_max_bytes", d.ampdu_max_bytes.is_some()),
        ("ap_queue", d.ap_queue.is_some()),
        ("error_model", d.error_model.is_some()),
        ("snr", d.snr.is_some()),
        ("station_snr", !d.station_snr.is_empty()),
        ("path_loss", d.path_loss.is_some()),
        ("rate_control", d.rate_control.is_some()),
        ("ideal_per", d.ideal_per.is_some()),
    ];
    match set.iter().find(|(_, s)| *s) {
        Some((k, _)) => Err(Error::invalid(
            format!("{field}.{k}"),
            "a medium = \"dcf\" hop is 802.11b between two ends; PHYs and the access point's \
             scheduler, queue and SNR belong to a [[cells]] entry",
        )),
        None => Ok(()),
    }
}

/// The data rates of the PHY whose timing a DCF has: 802.11b's DSSS 1 and 2 Mb/s (IEEE
/// 802.11b-1999 clause 15) and HR/DSSS 5.5 and 11 Mb/s (clause 18).
const DSSS_RATES: [(u64, &str); 4] = [
    (1_000_000, "1Mbps"),
    (2_000_000, "2Mbps"),
    (5_500_000, "5.5Mbps"),
    (11_000_000, "11Mbps"),
];

/// A DCF's data rate at `field`, refused unless 802.11b has it: the DCF's slot, SIFS, PLCP and
/// MAC ACK are 802.11b's, so another rate (54 Mb/s is 802.11a/g) would mix two PHYs silently.
pub(super) fn dcf_rate(bps: u64, field: &str) -> Result<(), Error> {
    if DSSS_RATES.iter().any(|&(r, _)| r == bps) {
        return Ok(());
    }
    let allowed: Vec<&str> = DSSS_RATES.iter().map(|&(_, n)| n).collect();
    Err(Error::invalid(
        field,
        format!(
            "{} is not an 802.11b rate (allowed: {}; dcf.phy chooses another PHY: 11a, 11g, \
             11n, 11ac)",
            crate::units::format_rate(bps),
            allowed.join(", ")
        ),
    ))
}

/// A cell's `dcf` knobs, validated (802.11b defaults).
pub(super) fn dcf_config(d: &DcfDoc, field: &str) -> Result<DcfConfig, Error> {
    let b = DcfConfig::B_LONG_1M;
    let dur = |k: &str, v: Option<crate::units::Dur>, def: SimDuration| match v {
        None => Ok(def),
        Some(x) if x.0 > 0 => Ok(SimDuration(x.0)),
        Some(_) => Err(Error::invalid(
            format!("{field}.{k}"),
            "must be greater than zero",
        )),
    };
    let cw_min = d.cw_min.unwrap_or(b.cw_min);
    let cw_max = d.cw_max.unwrap_or(b.cw_max);
    if cw_min == 0 || cw_min > cw_max || cw_max > 65535 {
        return Err(Error::invalid(
            format!("{field}.cw_min"),
            format!("{cw_min} with cw_max {cw_max}: need 1 <= cw_min <= cw_max <= 65535"),
        ));
    }
    let retry_limit = d.retry_limit.unwrap_or(b.retry_limit);
    if !(1..=255).contains(&retry_limit) {
        return Err(Error::invalid(
            format!("{field}.retry_limit"),
            format!("{retry_limit} is outside 1..=255 (attempts per frame, the first included)"),
        ));
    }
    let basic = d.basic_rate.map_or(1_000_000, |r| r.0);
    // IEEE 802.11b-1999 §18.1's four rates. The standard's basic rate set for control frames
    // is 1 and 2 Mb/s; ns-2 sends them at any `basicRate_` (mac/mac-802_11.cc:243-247, which
    // falls back to the data rate), and the LL-ELSN study runs its MAC ACKs at 11 Mb/s.
    if ![1_000_000, 2_000_000, 5_500_000, 11_000_000].contains(&basic) {
        return Err(Error::invalid(
            format!("{field}.basic_rate"),
            format!(
                "{basic} bit/s is not an 802.11b rate (allowed: 1Mbps, 2Mbps, 5.5Mbps, 11Mbps)"
            ),
        ));
    }
    // IEEE 802.11b-1999 §18.2.2: long PLCP 144 + 48 µs at 1 Mb/s, short 72 + 24 µs.
    let plcp = match d.preamble {
        PreambleDoc::Long => SimDuration::from_micros(192),
        PreambleDoc::Short => SimDuration::from_micros(96),
    };
    let ack_bits = 14 * 8;
    Ok(DcfConfig {
        slot: dur("slot", d.slot, b.slot)?,
        sifs: dur("sifs", d.sifs, b.sifs)?,
        cw_min,
        cw_max,
        retry_limit,
        ack_time: plcp + SimDuration::for_bits(ack_bits, basic),
        ack_bits,
        retry_delay: d
            .retry_delay
            .map_or(SimDuration::ZERO, |x| SimDuration(x.0)),
        retry_delay_blocks: d.retry_delay_blocks.unwrap_or(true),
        mac_ack: d.mac_ack.unwrap_or(true),
        collisions: d.collisions.unwrap_or(true),
        header_protection: d.header_protection.unwrap_or(false),
    })
}
