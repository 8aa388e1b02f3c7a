//! 802.11 beyond the DCF's contention (crate::medium::dcf): the PHYs as data ([`phy`]: timing,
//! transmission modes, PPDU durations, control-response rates) and the access point's
//! per-station scheduler ([`airtime`]: round robin by frames, or by airtime as Linux
//! mac80211's airtime deficit scheduler).

pub mod airtime;
pub mod phy;

use engine::SimDuration;

/// What a DCF cell (crate::medium::dcf) holds for its PHY modes and its access point's
/// scheduler.
#[derive(Debug, Default)]
pub(crate) struct CellWifi {
    /// Per-port SIFS + ACK and ACK timeout where a port's PHY mode answers in its own control
    /// rate (IEEE 802.11-2016 §10.6.6.5.2), by port index; zero: the cell's.
    pub(crate) port_ack: Vec<(SimDuration, SimDuration)>,
    /// The access point's airtime deficit round robin ([`airtime`]); `None`: its ports in
    /// turn, one frame each.
    pub(crate) sched: Option<airtime::AirtimeDrr>,
}

#[cfg(test)]
mod dcf_tests;
