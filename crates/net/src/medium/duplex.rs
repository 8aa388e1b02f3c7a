//! One direction of a full-duplex link: a medium with one port and no access wait, so its
//! frames leave back to back as its queue offers them. The common case of every wired path,
//! kept apart from [`super::shared::Shared`] so that it costs one state check per frame.

use super::{Air, Medium};
use engine::{PortId, SimDuration, SimTime};

/// The tag of its only wake-up: the frame on the air has been sent.
const TX_END: u32 = 0;

/// A full-duplex link's direction.
pub(crate) struct Duplex {
    port: PortId,
    busy: bool,
}

impl Duplex {
    /// The medium of `port`.
    pub(crate) fn new(port: PortId) -> Self {
        Duplex { port, busy: false }
    }
}

impl<A: Air> Medium<A> for Duplex {
    #[inline(always)]
    fn on_ready(&mut self, now: SimTime, _port: PortId, air: &mut A) {
        if self.busy {
            return;
        }
        if let Some(frame) = air.take(now, self.port) {
            let airtime = air.transmit(now, self.port, frame, SimDuration::ZERO);
            self.busy = true;
            air.wake(now + airtime, TX_END);
        }
    }

    #[inline(always)]
    fn on_wake(&mut self, now: SimTime, _tag: u32, air: &mut A) {
        if std::mem::replace(&mut self.busy, false) {
            air.sent(now, self.port);
        }
        self.on_ready(now, self.port, air);
    }
}

impl Duplex {
    /// Whether a frame is on the air (the network then need not offer it frames).
    #[inline(always)]
    pub(crate) fn is_busy(&self) -> bool {
        self.busy
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared::tests::FakeAir;
    use super::*;

    #[test]
    fn frames_leave_back_to_back_and_one_is_on_the_air() {
        let mut m = Duplex::new(PortId(0));
        let mut air = FakeAir::new(vec![2]);
        m.on_ready(SimTime(0), PortId(0), &mut air);
        assert!(m.is_busy());
        // Busy: a second offer changes nothing.
        m.on_ready(SimTime(5), PortId(0), &mut air);
        m.on_wake(SimTime(100), TX_END, &mut air);
        m.on_wake(SimTime(200), TX_END, &mut air);
        assert!(!m.is_busy());
        assert_eq!(
            air.log,
            [
                "0 tx port0 wait 0",
                "wake 100 tag 0",
                "100 sent port0",
                "100 tx port0 wait 0",
                "wake 200 tag 0",
                "200 sent port0",
            ]
        );
    }
}
