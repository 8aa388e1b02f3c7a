//! Packets on wires: simplex ports with drop-tail queues and error models, full-duplex links
//! and shared half-duplex media, nodes on a chain with static routes, and the event loop that
//! drives the TCP endpoints of each flow, with base-station agents (LL, snoop, SMART, ELN
//! marking) hooked into it.

pub mod agent;
pub mod config;
mod error_model;
mod hiccup;
mod network;
mod packet;
mod port;
pub mod tap;

pub use error_model::{ErrorModel, ErrorModelConfig};
pub use hiccup::Hiccup;
pub use network::{Flow, Network, Outcome};
pub use packet::{Packet, PacketKind};
pub use port::{Port, PortStats};
