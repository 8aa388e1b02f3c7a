//! The DCF's PHY and scheduler settings (crate::wifi): the ACK time of each port's PHY mode and
//! the access point's choice among its stations, kept in the medium's boxed `CellWifi`.

use super::config::Timing;
use super::Dcf;
use crate::wifi::airtime::{AirtimeDrr, ApScheduler};
use crate::wifi::CellWifi;
use engine::{PortId, SimDuration};

impl Dcf {
    /// How the access point (member 0) chooses among its stations' queues
    /// (crate::wifi::airtime): one frame each in turn (the default; the standard leaves it to
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
