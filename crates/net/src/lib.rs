//! Packets on wires: simplex ports with drop-tail queues and error models, full-duplex links
//! and shared half-duplex media, nodes on a chain with static routes, and the event loop that
//! drives the TCP endpoints of each flow, with base-station agents (LL, snoop, SMART, ELN
//! marking, link ARQ) hooked into it, the mobile's link receiver of the link ARQ, and the
//! split-connection proxy.

mod account;
pub mod agent;
pub mod aqm;
pub mod config;
pub mod delivery;
mod error_model;
mod fifo;
mod hiccup;
pub mod ifq;
mod jitter;
pub mod keys;
pub mod link_receiver;
pub mod medium;
mod network;
mod packet;
mod port;
pub mod split;
#[cfg(test)]
mod split_tests;
pub mod tap;
pub mod topology;
pub mod traffic;
pub mod web;

pub use account::PacketAccount;
pub use error_model::{BurstSpacing, ErrorModel, ErrorModelConfig};
pub use hiccup::{Hiccup, Stage as HiccupStage};
pub use network::{Connector, Flow, Injected, Network, Outcome, UdpFlow, WebFlow};
pub use packet::{LinkAck, LinkTag, Packet, PacketKind, Proto, NOTICE_BYTES};
pub use port::{Port, PortStats};
