//! Web sessions' connections (crate `net::web`): the endpoints of each connection a session
//! opens, built like a bulk flow's from the flow's scheme and TCP settings, each connection in
//! its own sequence space drawn from the stream `flow:<name>/conn{n}/isn`.

use crate::build::{FlowPlan, Net, TcpSettings};
use crate::run_endpoints::{endpoint_pair, isns, LONG_LIVED_BYTES};
use crate::schemes::SchemeDef;
use engine::{NodeId, RngStream, SimDuration, SimTime};
use net::web::{WebConfig, WebSession};
use net::{keys, Connector, Network};
use tcp::{Receiver, Sender};

/// Builds a session's connections.
struct WebConnector {
    tcp: TcpSettings,
    def: &'static SchemeDef,
    key: String,
    seed: u64,
    server: NodeId,
    client: NodeId,
    /// Idle round-trip times server→client→server and client→server→client (for settings that
    /// seed the RTT estimate from the handshake).
    rtt: (SimDuration, SimDuration),
}

impl Connector for WebConnector {
    fn open(&mut self, now: SimTime, n: u32, upstream: bool) -> (Sender, Receiver) {
        let (src, dst, rtt) = if upstream {
            (self.client, self.server, self.rtt.1)
        } else {
            (self.server, self.client, self.rtt.0)
        };
        let (space, ack_base) = isns(self.seed, &keys::web_connection_isn(&self.key, n));
        let (sender, receiver) = endpoint_pair(
            &self.tcp,
            self.def,
            self.seed,
            (src, dst),
            (space, ack_base, LONG_LIVED_BYTES),
            self.tcp.handshake_rtt.then_some((now, rtt)),
        );
        (sender.with_app_limit(0), receiver)
    }
}

/// Add the web session of plan `f` (whose `web` is set) to `network`.
pub(crate) fn add_web_session(
    network: &mut Network,
    f: &FlowPlan,
    cfg: WebConfig,
    net: &Net,
    seed: u64,
) {
    let rng = RngStream::new(seed, &keys::web_session(&f.key));
    let session = WebSession::new(cfg, f.start, f.stop, rng);
    let connector = WebConnector {
        tcp: f.tcp,
        def: f.scheme.def,
        key: f.key.clone(),
        seed,
        server: f.src,
        client: f.dst,
        rtt: (net.idle_rtt(f.src, f.dst), net.idle_rtt(f.dst, f.src)),
    };
    network.add_web(f.src, f.dst, session, Box::new(connector));
}
