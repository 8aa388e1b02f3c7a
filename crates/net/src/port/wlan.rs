//! A DCF cell member's port with an SNR channel (crate::medium::dcf::snr): the mode its rate
//! control picks for the next frame, its shadowing, and its count of data frames per mode.

use super::Port;
use crate::medium::dcf::phy::Mode;
use crate::medium::dcf::snr::MODE_SLOTS;
use engine::SimTime;

impl Port {
    /// The PHY mode of the next frame of `bytes` octets at `now` when the rate control picks
    /// one: it becomes the port's mode (its frames' airtime and error draws). `None`: a fixed
    /// mode (or no SNR channel).
    pub(crate) fn select_mode(&mut self, now: SimTime, bytes: u64) -> Option<Mode> {
        let m = self.wlan.as_deref_mut()?.pick(now, bytes)?;
        self.cfg.phy = Some(m);
        Some(m)
    }

    /// The link's shadowing, a standard normal draw `z` (crate::medium::dcf::snr).
    pub(crate) fn shadow(&mut self, z: f64) {
        if let Some(w) = self.wlan.as_deref_mut() {
            w.shadow(z);
        }
    }

    /// Data frames (MPDUs, each attempt) sent per mode slot (HT/VHT MCS 0-9, or 802.11a/g's
    /// 6-54 Mb/s in order), with an SNR channel.
    pub fn frames_by_mode(&self) -> Option<[u64; MODE_SLOTS]> {
        self.wlan.as_deref().map(|w| w.sent)
    }
}
