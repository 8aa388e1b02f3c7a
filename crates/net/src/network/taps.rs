//! Optional recorders (crate::tap): the per-frame link tap and the agent trace.

use super::Network;
use crate::tap::{AgentRecord, MacAck, ReceiverRecord, TappedFrame};

impl Network {
    /// Record every frame whose transmission starts, from now on (for packet captures).
    pub fn enable_frame_tap(&mut self) {
        self.taps.frames.get_or_insert_with(Vec::new);
    }

    /// Record what base-station agents do (local retransmissions, suppressed dupacks).
    pub fn enable_agent_trace(&mut self) {
        self.taps.agent.get_or_insert_with(Vec::new);
    }

    /// The frames recorded by the link tap, in start order (`None` if it is off).
    pub fn tapped_frames(&self) -> Option<&[TappedFrame]> {
        self.taps.frames.as_deref()
    }

    /// The MAC ACKs of DCF ports recorded with the frames, in time order (empty if the tap is
    /// off or the network has no DCF).
    pub fn tapped_mac_acks(&self) -> &[MacAck] {
        &self.taps.mac_acks
    }

    /// The packets DCF ports delivered to their far ends (port, uid), in order, recorded with
    /// the frames (empty if the tap is off).
    pub fn tapped_deliveries(&self) -> &[(engine::PortId, u64)] {
        &self.taps.delivered
    }

    /// The frames recorded by the link tap so far, taken out (the tap stays on; the emulator
    /// writes them as it goes).
    pub fn take_tapped_frames(&mut self) -> Vec<TappedFrame> {
        self.taps
            .frames
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Record what the TCP receivers do (segments accepted, ACKs sent), from now on.
    pub fn enable_receiver_trace(&mut self) {
        self.taps.receiver.get_or_insert_with(Vec::new);
    }

    /// The receiver trace, in time order (`None` if it is off).
    pub fn receiver_trace(&self) -> Option<&[ReceiverRecord]> {
        self.taps.receiver.as_deref()
    }

    /// The agent trace, in time order (`None` if it is off).
    pub fn agent_trace(&self) -> Option<&[AgentRecord]> {
        self.taps.agent.as_deref()
    }
}
