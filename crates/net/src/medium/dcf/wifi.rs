//! The DCF's PHY and scheduler settings (`phy` and `airtime` beside this file): the ACK time
//! of each port's PHY mode and the access point's choice among its stations (its scheduler, or
//! the oldest head of a shared FIFO, crate::ifq), kept in the medium's boxed `CellWifi`.

use super::super::{Frame, MacAir};
use super::airtime::{AirtimeDrr, ApScheduler};
use super::ampdu::BLOCK_ACK_BYTES;
use super::config::{AmpduLimits, McsKey, Timing};
use super::phy::Mode;
use super::Dcf;
use engine::{PortId, SimDuration, SimTime};

/// What a DCF cell (crate::medium::dcf) holds for its PHY modes and its access point's
/// scheduler.
#[derive(Debug, Default)]
pub(crate) struct CellWifi {
    /// Per-port SIFS + ACK and ACK timeout where a port's PHY mode answers in its own control
    /// rate (IEEE 802.11-2016 §10.6.6.5.2), by port index; zero: the cell's.
    pub(crate) port_ack: Vec<(SimDuration, SimDuration)>,
    /// The access point's airtime deficit round robin ([`airtime`]); `None`: its ports in
    /// turn, one frame each.
    pub(crate) sched: Option<AirtimeDrr>,
    /// Per-port PHY mode and Block Ack time (its control response's TXTIME of a compressed
    /// Block Ack), for A-MPDUs (crate::medium::dcf::ampdu), by port index.
    pub(crate) port_mode: Vec<Option<(Mode, SimDuration)>>,
    /// The A-MPDU limits when the cell aggregates (crate::medium::dcf::ampdu).
    pub(crate) ampdu: Option<AmpduLimits>,
    /// The access point's ports are one shared FIFO (crate::ifq): it takes the oldest head.
    pub(crate) shared_fifo: bool,
    /// A member's rate control picks the mode of each frame (crate::medium::dcf::snr): the
    /// DCF asks for it before each attempt and times the ACK or Block Ack by it.
    pub(crate) adapts: bool,
}

impl CellWifi {
    /// The HT/VHT MCS of `port`'s data frames at its configured mode, for the MCS histogram
    /// (`None`: another PHY).
    pub(super) fn mcs_of(&self, port: PortId) -> Option<McsKey> {
        mcs_key(self.port_mode.get(port.index()).copied().flatten()?.0)
    }
}

impl Dcf {
    /// How the access point (member 0) chooses among its stations' queues
    /// (crate::medium::dcf::airtime): one frame each in turn (the default; the standard leaves it to
    /// the implementation), or Linux mac80211's airtime deficit round robin.
    pub(crate) fn set_ap_scheduler(&mut self, s: ApScheduler) {
        let sched = match s {
            ApScheduler::Frames => None,
            ApScheduler::Airtime { quantum_ns } => {
                Some(AirtimeDrr::new(SimDuration(u64::from(quantum_ns.get()))))
            }
        };
        if sched.is_some() || self.wifi.is_some() {
            self.wifi.get_or_insert_with(Box::default).sched = sched;
        }
    }

    /// The cell aggregates within `limits` (crate::medium::dcf::ampdu), or not (`None`): each
    /// member, and each port of the access point, gets its Block Ack session. Set before the
    /// links join.
    pub(crate) fn set_ampdu(&mut self, limits: Option<AmpduLimits>) {
        if limits.is_none() && self.wifi.is_none() {
            return;
        }
        self.wifi.get_or_insert_with(Box::default).ampdu = limits;
        for m in &mut self.members {
            m.agg = limits.map(|_| {
                let mut a = Box::<super::ampdu::Agg>::default();
                a.sessions.resize_with(m.ports.len(), Default::default);
                a
            });
        }
    }

    /// The cell's A-MPDU limits, if it aggregates.
    #[inline(always)]
    pub(super) fn ampdu_limits(&self) -> Option<AmpduLimits> {
        self.wifi.as_deref().and_then(|w| w.ampdu)
    }

    /// How the access point queues its stations' packets (crate::ifq): per station, served
    /// in turn (or by the airtime scheduler), or one shared FIFO.
    pub(crate) fn set_ap_queue(&mut self, q: crate::ifq::ApQueue) {
        let shared = q == crate::ifq::ApQueue::Shared;
        if shared || self.wifi.is_some() {
            self.wifi.get_or_insert_with(Box::default).shared_fifo = shared;
        }
    }

    /// Frames sent from `port` are acknowledged in `ack_time` (its PHY mode's control
    /// response) instead of the cell's ACK time.
    pub(crate) fn set_port_ack(&mut self, port: PortId, ack_time: SimDuration) {
        let i = port.index();
        let w = self.wifi.get_or_insert_with(Box::default);
        if w.port_ack.len() <= i {
            w.port_ack
                .resize(i + 1, (SimDuration::ZERO, SimDuration::ZERO));
        }
        let c = &self.cfg;
        w.port_ack[i] = (c.sifs + ack_time, c.sifs + ack_time + c.slot);
    }

    /// Frames sent from `port` use PHY `mode`: their ACK is its control response's
    /// ([`Dcf::set_port_ack`]), and so is an A-MPDU's Block Ack.
    pub(crate) fn set_port_mode(&mut self, port: PortId, mode: Mode) {
        self.set_port_ack(port, mode.ack_time(0));
        let i = port.index();
        let w = self.wifi.get_or_insert_with(Box::default);
        if w.port_mode.len() <= i {
            w.port_mode.resize(i + 1, None);
        }
        w.port_mode[i] = Some((mode, mode.response(0).txtime(BLOCK_ACK_BYTES)));
    }

    /// Rate control picks the mode of each frame of some port (crate::medium::dcf::snr).
    pub(crate) fn set_adaptive(&mut self) {
        self.wifi.get_or_insert_with(Box::default).adapts = true;
    }

    /// With rate control, the mode of `port`'s next `frame` (crate::medium::dcf::snr) and the
    /// SIFS + ACK and ACK timeout of its control response; `None`: the port's fixed mode.
    #[inline(always)]
    pub(super) fn adapt<A: MacAir>(
        wifi: Option<&CellWifi>,
        cfg: &super::DcfConfig,
        (now, port, attempt): (SimTime, PortId, u32),
        frame: &Frame,
        air: &mut A,
    ) -> Option<(SimDuration, SimDuration, Mode)> {
        if !wifi.is_some_and(|w| w.adapts) {
            return None;
        }
        let bytes = air.mpdu_bytes(port, frame);
        let mode = air.select_mode(now, port, (bytes, attempt))?;
        let ack = cfg.sifs + mode.ack_time(0);
        Some((ack, ack + cfg.slot, mode))
    }

    /// SIFS + ACK and the ACK timeout after a frame from `port` (its PHY mode's, else `tm`'s).
    #[inline(always)]
    pub(super) fn ack_of(
        wifi: Option<&CellWifi>,
        tm: &Timing,
        port: PortId,
    ) -> (SimDuration, SimDuration) {
        match wifi.and_then(|w| w.port_ack.get(port.index())) {
            Some(&(a, t)) if a > SimDuration::ZERO => (a, t),
            _ => (tm.sifs_ack, tm.ack_timeout),
        }
    }
}

#[cfg(test)]
#[path = "wifi_tests.rs"]
mod tests;

/// The histogram key of an HT/VHT `mode` (`None`: another PHY): HT's MCS index across streams
/// (MCS 15 is two streams' MCS 7), VHT's per-stream index with its streams.
pub(super) fn mcs_key(mode: Mode) -> Option<McsKey> {
    match mode {
        Mode::Ht { mcs, nss, .. } => Some(McsKey {
            vht: false,
            index: 8 * nss.saturating_sub(1) + mcs,
            nss,
        }),
        Mode::Vht { mcs, nss, .. } => Some(McsKey {
            vht: true,
            index: mcs,
            nss,
        }),
        _ => None,
    }
}
