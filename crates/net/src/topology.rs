//! Routes of a topology, computed once (DESIGN.md, "Where the network is going": routes are
//! computed once into per-node tables).
//!
//! Each node forwards a packet for `dst` through one of its ports. The table is the first hop of
//! a breadth-first search from the node (shortest path by hop count), visiting neighbours in link
//! order, so ties are broken by the lower link index, the same way on every run. On a chain every
//! path is unique, and the table is the chain's: right through the forward port, left through
//! the reverse one. Explicit [`RouteOverride`]s replace entries afterwards; the table is then
//! checked for loops (a packet that never reaches its destination).

use crate::config::{RouteOverride, TopologyConfig};
use engine::{NodeId, PortId};
use std::collections::VecDeque;

/// A route table that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RouteError {
    /// An override names a `via` that is not a neighbour of `at`.
    #[error(
        "routes[{index}].via: '{via}' is not a neighbour of '{at}' (neighbours: {neighbours})"
    )]
    NotNeighbour {
        /// Index of the override.
        index: usize,
        /// Name of the node whose table it changes.
        at: String,
        /// Name of the neighbour it names.
        via: String,
        /// Names of the real neighbours.
        neighbours: String,
    },
    /// Following the table from `from` towards `dst` visits a node twice.
    #[error("routes: packets from '{from}' to '{dst}' loop ({path}); fix the route overrides")]
    Loop {
        /// Name of the node where the walk started.
        from: String,
        /// Name of the destination.
        dst: String,
        /// The nodes visited, by name, up to the repetition.
        path: String,
    },
}

/// For each node, the ports towards each neighbour in link order.
fn adjacency(cfg: &TopologyConfig) -> Vec<Vec<(NodeId, PortId)>> {
    let mut adj = vec![Vec::new(); cfg.nodes.len()];
    for (i, l) in cfg.links.iter().enumerate() {
        adj[l.a.index()].push((l.b, PortId(2 * i as u32)));
        adj[l.b.index()].push((l.a, PortId(2 * i as u32 + 1)));
    }
    adj
}

/// The node a port leads to.
fn far_end(cfg: &TopologyConfig, port: PortId) -> NodeId {
    let l = &cfg.links[port.index() / 2];
    if port.index().is_multiple_of(2) {
        l.b
    } else {
        l.a
    }
}

/// `table[at][dst]`: the port `at` forwards packets for `dst` through (`None` for `at` itself
/// and for nodes it cannot reach).
pub fn route_table(cfg: &TopologyConfig) -> Result<Vec<Vec<Option<PortId>>>, RouteError> {
    let n = cfg.nodes.len();
    let adj = adjacency(cfg);
    let mut table = vec![vec![None; n]; n];
    for (at, row) in table.iter_mut().enumerate() {
        let mut seen = vec![false; n];
        seen[at] = true;
        let mut frontier = VecDeque::new();
        for &(nb, port) in &adj[at] {
            if !seen[nb.index()] {
                seen[nb.index()] = true;
                row[nb.index()] = Some(port);
                frontier.push_back(nb);
            }
        }
        while let Some(u) = frontier.pop_front() {
            let first = row[u.index()];
            for &(nb, _) in &adj[u.index()] {
                if !seen[nb.index()] {
                    seen[nb.index()] = true;
                    row[nb.index()] = first;
                    frontier.push_back(nb);
                }
            }
        }
    }
    let name = |id: NodeId| cfg.nodes[id.index()].name.clone();
    for (index, o) in cfg.routes.iter().enumerate() {
        let RouteOverride { at, dst, via } = *o;
        let Some(&(_, port)) = adj[at.index()].iter().find(|(nb, _)| *nb == via) else {
            return Err(RouteError::NotNeighbour {
                index,
                at: name(at),
                via: name(via),
                neighbours: adj[at.index()]
                    .iter()
                    .map(|(nb, _)| name(*nb))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        table[at.index()][dst.index()] = Some(port);
    }
    if !cfg.routes.is_empty() {
        check_loops(cfg, &table)?;
    }
    Ok(table)
}

// The walk moves `at` from row to row, so the destination is an index, not an iterator.
#[allow(clippy::needless_range_loop)]
fn check_loops(cfg: &TopologyConfig, table: &[Vec<Option<PortId>>]) -> Result<(), RouteError> {
    let n = cfg.nodes.len();
    for from in 0..n {
        for dst in 0..n {
            let mut at = from;
            let mut path = vec![at];
            while at != dst {
                let Some(port) = table[at][dst] else { break };
                at = far_end(cfg, port).index();
                if path.contains(&at) {
                    path.push(at);
                    let names: Vec<_> = path.iter().map(|&i| cfg.nodes[i].name.as_str()).collect();
                    return Err(RouteError::Loop {
                        from: cfg.nodes[from].name.clone(),
                        dst: cfg.nodes[dst].name.clone(),
                        path: names.join(" -> "),
                    });
                }
                path.push(at);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{
        DirectionConfig, Exposure, HopConfig, HopRole, LinkConfig, Medium, NodeConfig, NodeKind,
    };
    use crate::ErrorModelConfig;
    use engine::SimDuration;

    fn dir() -> DirectionConfig {
        DirectionConfig {
            rate_bps: 1_000_000,
            delay: SimDuration::ZERO,
            queue_packets: 10,
            host_queue: true,
            framing_bytes: 0,
            cw_mark: None,
            per_frame: SimDuration::ZERO,
            exposure: Exposure::Frame,
            error: ErrorModelConfig::None,
            hiccups: Vec::new(),
            delivery: None,
            blocks: None,
            aqm: None,
            phy: None,
            wlan: None,
        }
    }

    fn topo(n: usize, links: &[(u32, u32)]) -> TopologyConfig {
        TopologyConfig {
            nodes: (0..n)
                .map(|i| NodeConfig {
                    name: format!("n{i}"),
                    kind: NodeKind::Router,
                    jitter: engine::SimDuration::ZERO,
                })
                .collect(),
            links: links
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| LinkConfig {
                    a: NodeId(a),
                    b: NodeId(b),
                    key: format!("hop{i}"),
                    hop: HopConfig {
                        name: format!("l{i}"),
                        role: HopRole::Wired,
                        medium: Medium::FullDuplex,
                        forward: dir(),
                        reverse: dir(),
                    },
                })
                .collect(),
            cells: Vec::new(),
            routes: Vec::new(),
        }
    }

    #[test]
    fn a_chain_routes_right_forward_and_left_reverse() {
        let t = route_table(&topo(4, &[(0, 1), (1, 2), (2, 3)])).unwrap();
        for (at, row) in t.iter().enumerate() {
            for (dst, &got) in row.iter().enumerate() {
                let want = match dst.cmp(&at) {
                    std::cmp::Ordering::Greater => Some(PortId(2 * at as u32)),
                    std::cmp::Ordering::Less => Some(PortId(2 * (at as u32 - 1) + 1)),
                    std::cmp::Ordering::Equal => None,
                };
                assert_eq!(got, want, "{at} -> {dst}");
            }
        }
    }

    #[test]
    fn ties_go_to_the_lower_link_and_unreachable_nodes_have_no_route() {
        // A square 0-1-3, 0-2-3: two paths of two hops from 0 to 3; node 4 is isolated.
        let t = route_table(&topo(5, &[(0, 1), (0, 2), (1, 3), (2, 3)])).unwrap();
        assert_eq!(t[0][3], Some(PortId(0)));
        assert_eq!(t[3][0], Some(PortId(5)));
        assert_eq!(t[0][4], None);
        assert_eq!(t[4][0], None);
    }

    #[test]
    fn overrides_replace_routes_and_loops_are_named() {
        let mut cfg = topo(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        cfg.routes.push(RouteOverride {
            at: NodeId(0),
            dst: NodeId(3),
            via: NodeId(2),
        });
        let t = route_table(&cfg).unwrap();
        assert_eq!(t[0][3], Some(PortId(2)));
        // 2 sends packets for 3 back to 0, which sends them to 2: a loop.
        cfg.routes.push(RouteOverride {
            at: NodeId(2),
            dst: NodeId(3),
            via: NodeId(0),
        });
        let e = route_table(&cfg).unwrap_err();
        assert_eq!(
            e.to_string(),
            "routes: packets from 'n0' to 'n3' loop (n0 -> n2 -> n0); fix the route overrides"
        );
        cfg.routes[1].via = NodeId(1);
        let e = route_table(&cfg).unwrap_err();
        assert!(
            matches!(e, RouteError::NotNeighbour { index: 1, .. }),
            "{e}"
        );
    }
}
