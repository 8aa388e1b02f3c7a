//! The split-connection proxy (Balakrishnan97 §2.12, §B.2; I-TCP style): at the base station a
//! TCP [`Receiver`] terminates the fixed host's connection (the wired leg), a TCP [`Sender`]
//! opens a second connection to the mobile host (the wireless leg), and a bounded relay buffer
//! sits between them.
//!
//! The relay is a byte count, no data is copied (the paper passes buffer pointers between the
//! two connections; the simulator carries no payload anyway). Bytes the wired leg delivers in
//! order enter the buffer at once and are acknowledged to the fixed host then, before the
//! mobile has them: the broken end-to-end semantics the paper discusses. They leave the buffer
//! when the mobile acknowledges them on the wireless leg. The wired leg advertises the free
//! space (at most 65535, or the largest window of its shift with RFC 7323 window scaling), so
//! when the wireless leg stalls in timeouts the buffer fills, the window closes and the fixed
//! host stalls. The wired receiver sends a window update when
//! the space grows by two segments or half the buffer; the fixed host needs no persist timer
//! because the wired hop loses nothing, so that update always arrives (documented deviation
//! from BSD, which would also probe a zero window).
//!
//! The proxy is sans-IO like its parts: the network feeds it the flow's data from the fixed
//! host and the mobile's ACKs, polls it for segments on each leg and for its next wake-up.

use engine::{FlowId, NullSink, SimTime, TraceSink, VecSink};
use tcp::{Receiver, Segment, Sender, SenderEvent};

/// A split-connection proxy for one flow.
pub struct SplitProxy {
    flow: FlowId,
    wired: Receiver,
    wireless: Sender,
    capacity: u64,
    max_occupancy: u64,
    trace: Option<VecSink<SenderEvent>>,
    null: NullSink,
}

impl SplitProxy {
    /// A proxy for `flow`: `wired` faces the fixed host (it must read on demand, see
    /// [`Receiver::reading_on_demand`], with the relay capacity as its buffer), `wireless`
    /// faces the mobile (application-limited from zero, see [`Sender::with_app_limit`]).
    /// `capacity` is the relay buffer in bytes; `trace` records the wireless leg's sender.
    pub fn new(
        flow: FlowId,
        wired: Receiver,
        wireless: Sender,
        capacity: u64,
        trace: bool,
    ) -> Self {
        SplitProxy {
            flow,
            wired,
            wireless: wireless.with_app_limit(0),
            capacity,
            max_occupancy: 0,
            trace: trace.then(VecSink::default),
            null: NullSink,
        }
    }

    /// The flow it splits.
    pub fn flow(&self) -> FlowId {
        self.flow
    }

    /// The wired leg's receiver.
    pub fn wired(&self) -> &Receiver {
        &self.wired
    }

    /// The wireless leg's sender.
    pub fn wireless(&self) -> &Sender {
        &self.wireless
    }

    /// The wireless leg's trace, if recorded.
    pub fn wireless_trace(&self) -> Option<&VecSink<SenderEvent>> {
        self.trace.as_ref()
    }

    /// Relay buffer capacity in bytes.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Bytes in the relay buffer: delivered by the wired leg, not yet acknowledged by the mobile.
    pub fn occupancy(&self) -> u64 {
        self.wired.delivered() - self.wireless.snd_una()
    }

    /// The largest occupancy seen.
    pub fn max_occupancy(&self) -> u64 {
        self.max_occupancy
    }

    fn sender_and_sink(&mut self) -> (&mut Sender, &mut dyn TraceSink<SenderEvent>) {
        let sink: &mut dyn TraceSink<SenderEvent> = match self.trace.as_mut() {
            Some(t) => t,
            None => &mut self.null,
        };
        (&mut self.wireless, sink)
    }

    /// Move bytes between the legs: what the wired leg delivered may be sent on the wireless
    /// leg; what the mobile acknowledged is freed on the wired leg.
    fn relay(&mut self) {
        self.wireless.set_app_limit(self.wired.delivered());
        self.wired.set_app_read(self.wireless.snd_una());
        self.max_occupancy = self.max_occupancy.max(self.occupancy());
    }

    /// A data segment of the flow from the fixed host arrived intact.
    pub fn on_data(&mut self, now: SimTime, seg: &Segment) {
        self.wired.on_segment(now, seg);
        self.relay();
    }

    /// An ACK from the mobile arrived intact.
    pub fn on_ack(&mut self, now: SimTime, seg: &Segment) {
        let (s, sink) = self.sender_and_sink();
        s.on_ack(now, seg, sink);
        self.relay();
    }

    /// A wake-up: either leg's timer may have expired.
    pub fn on_timeout(&mut self, now: SimTime) {
        self.wired.on_timeout(now);
        let (s, sink) = self.sender_and_sink();
        s.on_timeout(now, sink);
    }

    /// The base station's interface queue dropped a segment of the wireless leg (ENOBUFS,
    /// Ludwig2000 §2.3).
    pub fn on_local_drop(&mut self, now: SimTime, seg: &Segment) {
        let (s, sink) = self.sender_and_sink();
        s.on_local_drop(now, seg, sink);
    }

    /// The next ACK (or window update) to the fixed host.
    pub fn poll_wired(&mut self, now: SimTime) -> Option<Segment> {
        self.wired.poll_transmit(now)
    }

    /// The next data segment to the mobile.
    pub fn poll_wireless(&mut self, now: SimTime) -> Option<Segment> {
        let (s, sink) = self.sender_and_sink();
        s.poll_transmit(now, sink)
    }

    /// The earliest timer of either leg.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.wired
            .poll_timeout()
            .into_iter()
            .chain(self.wireless.poll_timeout())
            .min()
    }
}
