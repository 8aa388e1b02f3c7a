//! A DCF cell member's port: the error draws of its MAC's control frames (ACKs, BlockAckReqs),
//! and its SNR channel (crate::medium::dcf::snr): the mode its rate control picks for the next
//! frame, its shadowing, and its count of data frames per mode.

use super::Port;
use crate::config::DirectionConfig;
use crate::error_model::ErrorModel;
use crate::medium::dcf::phy::Mode;
use crate::medium::dcf::snr::{Wlan, MODE_SLOTS};
use engine::{RngStream, SimDuration, SimTime};

impl Port {
    /// The error process of a direction of `cfg`: its error model drawing from `rng`, or an
    /// SNR channel drawing from it instead (a MAC ACK in the control response mode of the
    /// data's, crate::medium::dcf::phy).
    pub(super) fn channel(
        cfg: &DirectionConfig,
        rng: RngStream,
    ) -> (ErrorModel, Option<Box<Wlan>>) {
        match cfg.wlan.as_deref() {
            Some(w) => (ErrorModel::None, Some(Box::new(Wlan::new(w.clone(), rng)))),
            None => (ErrorModel::new(cfg.error.clone(), rng), None),
        }
    }

    /// Whether the SNR channel corrupts a data frame of `ip` bytes of IP starting at `start`:
    /// the NIST model over the MPDU's bits in the port's mode (crate::medium::dcf::snr).
    #[cold]
    pub(super) fn snr_draw(&mut self, start: SimTime, ip: u64) -> bool {
        let bits = (ip + u64::from(self.cfg.framing_bytes)) * 8;
        let mode = self.cfg.phy;
        self.wlan
            .as_deref_mut()
            .is_some_and(|w| w.corrupts(start, mode.as_ref(), bits, true))
    }

    /// The PHY mode of the next frame of `bytes` octets at `now` when the rate control picks
    /// one: it becomes the port's mode (its frames' airtime and error draws). `None`: a fixed
    /// mode (or no SNR channel).
    pub(crate) fn select_mode(&mut self, now: SimTime, bytes: u64, attempt: u32) -> Option<Mode> {
        let m = self.wlan.as_deref_mut()?.pick(now, bytes, attempt)?;
        self.cfg.phy = Some(m);
        Some(m)
    }

    /// The outcome of an attempt in the port's current mode at `now` (`sent` MPDUs, `acked`
    /// acknowledged), for the rate control.
    pub(crate) fn rate_report(&mut self, now: SimTime, sent: u32, acked: u32) {
        if let (Some(w), Some(m)) = (self.wlan.as_deref_mut(), self.cfg.phy.as_ref()) {
            w.report(now, m, sent, acked);
        }
    }

    /// Whether the mode last picked is Minstrel-HT's sample (crate::medium::dcf::minstrel).
    pub(crate) fn probing(&self) -> bool {
        self.wlan
            .as_deref()
            .and_then(|w| w.minstrel.as_deref())
            .is_some_and(|m| m.probing())
    }

    /// Start the rate control's own stream (Minstrel-HT's sample table).
    pub(crate) fn start_minstrel(&mut self, rng: engine::RngStream) {
        if let Some(w) = self.wlan.as_deref_mut() {
            w.start_minstrel(rng);
        }
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

    /// A MAC ACK of `bits` exposed bits on this direction, answering a frame sent in
    /// `data_mode`: counted; whether it is corrupted.
    pub(crate) fn mac_ack(
        &mut self,
        at: SimTime,
        bits: u64,
        data_mode: Option<crate::medium::dcf::phy::Mode>,
    ) -> bool {
        self.stats.mac_ack_frames += 1;
        // At its time: a time-slotted channel (an outage trace, a slotted Gilbert chain) hits
        // the ACK in the slot it is sent in, not at the next entry of a per-frame count.
        let lost = match self.wlan.as_deref_mut() {
            None => self.error.frame_at(at, SimDuration::ZERO, bits),
            Some(w) => w.corrupts(at, data_mode.map(|m| m.response(0)).as_ref(), bits, false),
        };
        self.stats.corrupted_mac_acks += u64::from(lost);
        lost
    }

    /// Whether a control frame of `bits` this direction sends at `at` in `mode` (a
    /// BlockAckReq) is corrupted: its error model's draw, as for a MAC ACK of the other
    /// direction, or its SNR channel's in `mode`.
    pub(crate) fn control_lost(
        &mut self,
        at: SimTime,
        bits: u64,
        mode: crate::medium::dcf::phy::Mode,
    ) -> bool {
        match self.wlan.as_deref_mut() {
            None => self.error.frame_at(at, SimDuration::ZERO, bits),
            Some(w) => w.corrupts(at, Some(&mode), bits, false),
        }
    }
}
