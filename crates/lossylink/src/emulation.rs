//! What the emulator (`lossylink-emu`, docs/emulation.md) takes from a scenario: the network of
//! its links with no simulated endpoints, the two end hosts of its first flow (the real
//! programs run there), and the TCP settings a real stack can be given (segment size, socket
//! buffer, bytes to send). Agents, proxies and simulated traffic are not built: the emulator
//! moves real datagrams only.

use crate::error::Error;
use crate::scenario::Scenario;
use engine::NodeId;
use net::Network;

/// A scenario's network, ready for real datagrams.
pub struct EmulationPlan {
    /// The links of the scenario, no flows in it.
    pub network: Network,
    /// Node of the first flow's sender (the client of a bulk transfer).
    pub client: NodeId,
    /// Node of the first flow's receiver (the server: a sink).
    pub server: NodeId,
    /// Names of the two nodes.
    pub names: (String, String),
    /// `tcp.mss` (the emulator sets the devices' MTU to it plus 40 bytes of headers).
    pub mss: u32,
    /// `tcp.buffer`: the socket buffer the simulated endpoints have.
    pub buffer: u32,
    /// The first flow's bytes, if finite.
    pub bytes: Option<u64>,
    /// The scheme's name (reported; its agents do not run on real traffic yet).
    pub scheme: String,
}

/// The network of `scenario` with master seed `seed` (its error models and media draw from the
/// same named streams as a simulated run), and the ends of its first TCP flow.
pub fn emulation_plan(scenario: &Scenario, seed: u64) -> Result<EmulationPlan, Error> {
    let b = scenario.build()?;
    let Some(flow) = b.tcp_flows().next() else {
        return Err(Error::invalid(
            "flows",
            "emulation needs a TCP flow: its ends are where the real programs run".to_string(),
        ));
    };
    let network =
        Network::new(&b.net.topology, seed).map_err(|e| Error::invalid("routes", e.to_string()))?;
    let nodes = &b.net.topology.nodes;
    Ok(EmulationPlan {
        client: flow.src,
        server: flow.dst,
        names: (
            nodes[flow.src.index()].name.clone(),
            nodes[flow.dst.index()].name.clone(),
        ),
        mss: flow.tcp.mss,
        buffer: flow.tcp.buffer,
        bytes: flow.bytes,
        scheme: flow.scheme_name.clone(),
        network,
    })
}
