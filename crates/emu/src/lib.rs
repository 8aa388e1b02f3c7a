//! Emulation mode of lossylink (docs/emulation.md): real Linux TCP between two network
//! namespaces, its every IP datagram pushed through a scenario's links (rate, propagation
//! delay, drop-tail queues, error models, hiccups, shared media) in real time.
//!
//! Layers: [`clock`] is the one place wall time enters; [`relay`] is the real-time engine over
//! `net::Network` (datagrams in at the clock's `now`, out when the model says they arrive; the
//! scenario's LL or snoop agent runs inside the network on the real segments);
//! [`netns`] creates and removes the namespaces and TUN devices; [`bulk`] is the built-in
//! transfer with real sockets; [`split`] terminates a split scheme's connection at the base
//! station; [`emulate`] ties them together. The link models stay sans-IO.

pub mod bulk;
pub mod capture;
pub mod clock;
mod error;
pub mod kernel;
pub mod netns;
pub mod relay;
mod run;
pub mod split;
mod sys;
pub mod wire;

pub use error::EmuError;
pub use run::{emulate, Congestion, EmulateOptions, EmulateResult, Programs, Timing};
pub use sys::Tun;
