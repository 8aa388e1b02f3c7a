//! 802.11 beyond the DCF's contention (crate::medium::dcf): the PHYs as data ([`phy`]: timing,
//! transmission modes, PPDU durations, control-response rates) and the access point's
//! per-station scheduler ([`airtime`]: round robin by frames, or by airtime as Linux
//! mac80211's airtime deficit scheduler).

pub mod airtime;
pub mod phy;

#[cfg(test)]
mod dcf_tests;
