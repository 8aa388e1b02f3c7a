//! The deterministic core of lossylink.
//!
//! This crate knows nothing about TCP or links. It provides:
//! - [`SimTime`] / [`SimDuration`]: integer nanoseconds, the only clock a simulation has;
//! - [`EventQueue`]: events ordered by `(time, insertion sequence)`, so equal times pop in the
//!   order they were scheduled (DESIGN.md, "Determinism");
//! - [`Fingerprint`]: a hash over the events popped, in order (the event-order fingerprint);
//! - [`RngStream`]: an owned PRNG derived from `(master seed, stable key)`, so adding a component
//!   never changes the random numbers another component sees;
//! - typed ids and a small typed-trace interface.

mod calendar;
mod entry;
mod fingerprint;
mod heap;
mod ids;
mod later;
mod progress;
mod queue;
mod rng;
mod time;
mod trace;

pub use fingerprint::{EventKey, Fingerprint};
pub use ids::{FlowId, HopId, NodeId, PortId};
pub use progress::Progress;
pub use queue::{EventQueue, LaneOf, NO_LANE};
pub use rng::{ks_distance, stream_key, RngStream};
pub use time::{SimDuration, SimTime};
pub use trace::{NullSink, TraceSink, VecSink};
