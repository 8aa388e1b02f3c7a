//! What the emulator (`lossylink-emu`, docs/emulation.md) takes from a scenario: the network of
//! its links with no simulated endpoints, the two end hosts of its first flow (the real
//! programs run there), and the TCP settings a real stack can be given (segment size, socket
//! buffer, bytes to send). The base-station agents that only cache and resend segments (`ll`,
//! `ll-tcp-aware` = snoop) are built as for a simulated run and see the real segments; a split
//! scheme's base station is reported (the emulator terminates the connection there with real
//! sockets, docs/emulation.md); other agents and simulated traffic are refused or not built.

use crate::error::Error;
use crate::scenario::Scenario;
use crate::schemes::AgentKind;
use engine::NodeId;
use net::agent::ll::{LinkLayer, Mode};
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
    /// `tcp.mss` (the emulator sets the devices' MTU to it plus the headers: 40 bytes, and 12
    /// of the timestamp option with `timestamps`).
    pub mss: u32,
    /// Whether the first flow's TCP sends RFC 7323 timestamps (`tcp.timestamps`): the kernel's
    /// `net.ipv4.tcp_timestamps` follows it.
    pub timestamps: bool,
    /// `tcp.buffer`: the socket buffer the simulated endpoints have.
    pub buffer: u32,
    /// The first flow's bytes, if finite.
    pub bytes: Option<u64>,
    /// The scheme's name.
    pub scheme: String,
    /// The base-station agents running in `network` (`ll`, `snoop`), by node.
    pub agents: Vec<(NodeId, &'static str)>,
    /// A split scheme's base station and relay buffer (bytes): the emulator terminates the
    /// connection there.
    pub split: Option<(NodeId, u32)>,
    /// Names of the hops, in chain order (`network.ports()[i].hop` indexes it).
    pub hop_names: Vec<String>,
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
    let mut network =
        Network::new(&b.net.topology, seed).map_err(|e| Error::invalid("routes", e.to_string()))?;
    let mut agents = Vec::new();
    for &(n, kind) in &b.agents {
        // The same agents as a simulated run (run.rs); the others rewrite segments (SMART
        // strips options, ELN marks a bit, LL-ELSN and ARQ add their own frames), which a real
        // datagram's bytes do not follow.
        let (mode, name) = match kind {
            AgentKind::None | AgentKind::Split => continue,
            AgentKind::Ll => (Mode::Plain, "ll"),
            AgentKind::Snoop => (Mode::Snoop, "snoop"),
            _ => {
                let field = match b.single {
                    true => "scheme".to_string(),
                    false => format!("flows[{}].scheme", flow.entry),
                };
                return Err(Error::invalid(
                    field,
                    format!(
                        "'{}' runs a base-station agent that rewrites segments; on real traffic \
                         only e2e schemes, ll, ll-tcp-aware (snoop) and split schemes run",
                        flow.scheme_name
                    ),
                ));
            }
        };
        network.set_agent(n, Box::new(LinkLayer::new(mode, b.ll)));
        agents.push((n, name));
    }
    let nodes = &b.net.topology.nodes;
    Ok(EmulationPlan {
        client: flow.src,
        server: flow.dst,
        names: (
            nodes[flow.src.index()].name.clone(),
            nodes[flow.dst.index()].name.clone(),
        ),
        mss: flow.tcp.mss,
        timestamps: flow.tcp.timestamps.is_some(),
        buffer: flow.tcp.buffer,
        bytes: flow.bytes,
        scheme: flow.scheme_name.clone(),
        agents,
        split: flow.split.as_ref().map(|s| (s.node, s.buffer)),
        hop_names: b
            .net
            .topology
            .links
            .iter()
            .map(|l| l.hop.name.clone())
            .collect(),
        network,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(scheme: &str) -> Result<EmulationPlan, Error> {
        let mut s = Scenario::preset("lan")?;
        s.set("scheme", scheme)?;
        emulation_plan(&s, 1)
    }

    #[test]
    fn snoop_and_ll_run_on_real_segments_and_a_split_scheme_names_its_base_station() {
        let p = plan("ll-tcp-aware").ok();
        assert_eq!(p.as_ref().map(|p| p.agents.len()), Some(1));
        assert_eq!(p.as_ref().map(|p| p.agents[0].1), Some("snoop"));
        assert_eq!(plan("ll").ok().map(|p| p.agents[0].1), Some("ll"));
        let e2e = plan("e2e").ok();
        assert!(e2e.is_some_and(|p| p.agents.is_empty() && p.split.is_none()));
        let split = plan("split").ok();
        // lan: fixed host (0) - base station (1) - mobile (2).
        assert_eq!(split.and_then(|p| p.split).map(|s| s.0), Some(NodeId(1)));
    }

    #[test]
    fn an_agent_that_rewrites_segments_is_refused_in_one_line_naming_the_field() {
        for scheme in ["ll-smart", "eln-bs"] {
            let e = plan(scheme)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.starts_with("scheme"), "{e}");
            assert!(e.contains(scheme) && e.contains("ll-tcp-aware"), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }
}
