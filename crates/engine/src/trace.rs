//! Typed traces. Each layer defines its own event type; the engine only provides the sink
//! interface, so recording is a no-op when nobody asked for it.

use crate::time::SimTime;

/// Receives typed trace records of type `E`.
pub trait TraceSink<E> {
    /// Whether records are wanted at all; callers may skip building them when `false`.
    fn enabled(&self) -> bool;
    /// Record `event` at time `t`.
    fn record(&mut self, t: SimTime, event: E);
}

/// A sink that drops everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NullSink;

impl<E> TraceSink<E> for NullSink {
    fn enabled(&self) -> bool {
        false
    }
    fn record(&mut self, _t: SimTime, _event: E) {}
}

/// A sink that keeps every record in memory, in order.
#[derive(Debug, Clone)]
pub struct VecSink<E> {
    /// The records, in the order they were made.
    pub records: Vec<(SimTime, E)>,
}

impl<E> Default for VecSink<E> {
    fn default() -> Self {
        VecSink {
            records: Vec::new(),
        }
    }
}

impl<E> TraceSink<E> for VecSink<E> {
    fn enabled(&self) -> bool {
        true
    }
    fn record(&mut self, t: SimTime, event: E) {
        self.records.push((t, event));
    }
}
