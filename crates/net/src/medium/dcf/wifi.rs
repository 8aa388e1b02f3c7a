//! The DCF's PHY and scheduler settings (`phy` and `airtime` beside this file): the ACK time
//! of each port's PHY mode and the access point's choice among its stations, kept in the
//! medium's boxed `CellWifi`.

use super::airtime::{AirtimeDrr, ApScheduler};
use super::config::Timing;
use super::Dcf;
use engine::{PortId, SimDuration};

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
