//! A transport connection in the network: its endpoints, their pending wake-ups, when its
//! application writes, and what it delivered when the goodput window opened.

use super::web;
use engine::{FlowId, NodeId, NullSink, SimTime, TraceSink, VecSink};
use tcp::{Receiver, Sender, SenderEvent};

/// A transport connection: a sender on `src`, a receiver on `dst`.
pub struct Flow {
    /// Its id.
    pub id: FlowId,
    /// Node of the sender.
    pub src: NodeId,
    /// Node of the receiver.
    pub dst: NodeId,
    /// The sending endpoint.
    pub sender: Sender,
    /// The receiving endpoint.
    pub receiver: Receiver,
    pub(super) sender_wake: Option<SimTime>,
    pub(super) receiver_wake: Option<SimTime>,
    /// When its application starts writing.
    pub start: SimTime,
    /// When a long-lived flow's application stops writing.
    pub stop: Option<SimTime>,
    /// Whether it has a finite number of bytes (a run completes when every finite flow has
    /// delivered them; a long-lived flow runs until the end of the run).
    pub finite: bool,
    /// Bytes delivered in order when the measurement window opened (0 without a warm-up).
    pub delivered_at_window_start: u64,
    /// Data the receiver held out of order when the measurement window opened (stream offset
    /// ranges above `delivered_at_window_start`): it arrived before the window.
    pub held_at_window_start: Vec<(u64, u64)>,
    /// Bytes delivered in order when a long-lived flow stopped writing.
    pub delivered_at_stop: Option<u64>,
    /// Timeouts whose segment (the oldest unacknowledged, the one the timeout resends) the
    /// receiver already held, in order or out of order, when the timer fired: ground truth from
    /// the simulator, not a sender's detection (Eifel, F-RTO).
    pub timeouts_after_arrival: u64,
    pub(super) trace: Option<VecSink<SenderEvent>>,
    /// Where records go when tracing is off.
    pub(super) null: NullSink,
    /// The web session a connection belongs to, and which end it serves.
    pub(super) web: Option<(u32, web::WebEnd)>,
}

impl Flow {
    /// The sender and the sink its trace records go to (the recorder, or nowhere).
    pub(super) fn sender_and_sink(&mut self) -> (&mut Sender, &mut dyn TraceSink<SenderEvent>) {
        let sink: &mut dyn TraceSink<SenderEvent> = match self.trace.as_mut() {
            Some(t) => t,
            None => &mut self.null,
        };
        (&mut self.sender, sink)
    }

    /// The bytes this flow's application received inside the measurement window: delivered in
    /// order between the window's opening and the flow's stop (or now), less the bytes that
    /// had arrived out of order before the opening and were released behind a repaired hole
    /// inside it. Each byte counted thus arrived at the receiver inside the window, so the
    /// count never exceeds what the path carried in it (docs/scenarios.md, "Rates").
    pub fn window_bytes(&self) -> u64 {
        let start = self.delivered_at_window_start;
        let end = self
            .delivered_at_stop
            .unwrap_or_else(|| self.receiver.delivered());
        bytes_in_window(start, end, &self.held_at_window_start)
    }

    /// The sender's trace, if tracing was asked for.
    pub fn sender_trace(&self) -> Option<&VecSink<SenderEvent>> {
        self.trace.as_ref()
    }
}

impl Flow {
    /// A flow `id` from `src` to `dst` starting at `start`; `finite` if it has a byte count,
    /// `trace` records its sender, `web` ties it to a web session.
    pub(super) fn new(
        (id, src, dst): (FlowId, NodeId, NodeId),
        (sender, receiver): (Sender, Receiver),
        (start, finite): (SimTime, bool),
        trace: bool,
        web: Option<(u32, web::WebEnd)>,
    ) -> Self {
        Flow {
            id,
            src,
            dst,
            sender,
            receiver,
            sender_wake: None,
            receiver_wake: None,
            start,
            stop: None,
            finite,
            delivered_at_window_start: 0,
            held_at_window_start: Vec::new(),
            delivered_at_stop: None,
            timeouts_after_arrival: 0,
            trace: trace.then(VecSink::default),
            null: NullSink,
            web,
        }
    }
}

/// Bytes released in order from stream offset `start` (at the window's opening) to `end`, less
/// those inside `held`: the ranges that had arrived out of order before the opening.
fn bytes_in_window(start: u64, end: u64, held: &[(u64, u64)]) -> u64 {
    let early: u64 = held
        .iter()
        .map(|&(s, e)| e.min(end).saturating_sub(s.max(start)))
        .sum();
    end.saturating_sub(start).saturating_sub(early)
}

#[cfg(test)]
mod tests {
    use super::bytes_in_window;

    #[test]
    fn bytes_held_out_of_order_at_the_opening_are_left_out() {
        // At the opening 10 000 bytes were delivered, 12 000..15 000 and 20 000..21 000 held.
        let held = [(12_000, 15_000), (20_000, 21_000)];
        // The hole below the first range repaired: 10 000..15 000 released, 3000 of it early.
        assert_eq!(bytes_in_window(10_000, 15_000, &held), 2000);
        // Both released and more after: 25 000 - 10 000 - 4000.
        assert_eq!(bytes_in_window(10_000, 25_000, &held), 11_000);
        // Nothing released yet, or a stop before the opening.
        assert_eq!(bytes_in_window(10_000, 10_000, &held), 0);
        assert_eq!(bytes_in_window(10_000, 8000, &held), 0);
        assert_eq!(bytes_in_window(0, 5000, &[]), 5000);
    }
}
