//! The network of a scenario: its nodes, and either a chain of hops (`[[hops]]`, the shorthand
//! every preset uses) or links between named nodes (`[[links]]`) and cells (`[[cells]]`), plus
//! route overrides (`[[routes]]`), validated into a [`TopologyConfig`] with its route table.

use super::links::{contention, hop};
use crate::error::Error;
use crate::schema::*;
use engine::{NodeId, PortId, SimDuration};
use net::config::{
    CellConfig, ChainConfig, Contention, DirectionConfig, HopConfig, LinkConfig, Medium,
    NodeConfig, NodeKind, RouteOverride, TopologyConfig,
};
use net::topology::route_table;

/// A validated topology and its routes.
pub(crate) struct Net {
    /// Nodes, links, cells and overrides.
    pub topology: TopologyConfig,
    /// `routes[at][dst]`: the port `at` sends packets for `dst` through.
    pub routes: Vec<Vec<Option<PortId>>>,
}

impl Net {
    /// The ports a packet from `src` to `dst` leaves through, in order (empty if unreachable).
    pub fn path(&self, src: NodeId, dst: NodeId) -> Vec<PortId> {
        let mut out = Vec::new();
        let mut at = src;
        while at != dst {
            let Some(port) = self.routes[at.index()][dst.index()] else {
                return Vec::new();
            };
            out.push(port);
            at = self.port_to(port);
            // Routes were checked for loops; a path never visits more nodes than there are.
            if out.len() > self.topology.nodes.len() {
                return Vec::new();
            }
        }
        out
    }

    /// The node a port leads to.
    pub fn port_to(&self, port: PortId) -> NodeId {
        let l = &self.topology.links[port.index() / 2];
        if port.index().is_multiple_of(2) {
            l.b
        } else {
            l.a
        }
    }

    /// The link of a port and its direction's settings.
    pub fn direction(&self, port: PortId) -> (&HopConfig, &DirectionConfig) {
        let h = &self.topology.links[port.index() / 2].hop;
        (
            h,
            if port.index().is_multiple_of(2) {
                &h.forward
            } else {
                &h.reverse
            },
        )
    }

    /// Whether an 802.11 DCF carries `port`'s frames (a `dcf` cell's member or a dcf hop).
    pub fn is_dcf(&self, port: PortId) -> bool {
        let link = port.index() / 2;
        match self.topology.cells.iter().find(|c| c.links.contains(&link)) {
            Some(cell) => cell.dcf.is_some(),
            None => matches!(self.topology.links[link].hop.medium, Medium::Dcf(_)),
        }
    }

    /// The mean channel-access wait before a frame on `port`'s channel.
    fn wait(&self, port: PortId) -> SimDuration {
        let link = port.index() / 2;
        let c = match self.topology.cells.iter().find(|c| c.links.contains(&link)) {
            // A DCF cell waits as a dcf hop does, with the cell's PHY timing.
            Some(cell) => match &cell.dcf {
                Some(d) => return d.mean_idle_access(),
                None => cell.contention,
            },
            None => match &self.topology.links[link].hop.medium {
                Medium::FullDuplex => return SimDuration::ZERO,
                // On average half a radio block until the next frame starts.
                Medium::Gsm(g) => return SimDuration(g.block.as_nanos() / 2),
                Medium::Dcf(d) => return d.mean_idle_access(),
                Medium::HalfDuplex { contention } => *contention,
            },
        };
        match c {
            Contention::Fixed(w) => w,
            Contention::Uniform { slot, cw } => slot.saturating_mul(u64::from(cw) / 2),
        }
    }

    /// Idle round trip of a 40-byte packet from `src` to `dst` and back (no queueing), used to
    /// seed the RTT estimator as the SYN exchange would.
    pub fn idle_rtt(&self, src: NodeId, dst: NodeId) -> SimDuration {
        let frame = |p: PortId| {
            let (_, d) = self.direction(p);
            self.wait(p)
                + d.per_frame
                + SimDuration::for_bits(u64::from(40 + d.framing_bytes) * 8, d.rate_bps)
                + d.delay
        };
        let there = self.path(src, dst).into_iter().map(frame);
        let back = self.path(dst, src).into_iter().map(frame);
        there.chain(back).fold(SimDuration::ZERO, |a, b| a + b)
    }

    /// Whether `node` is a base station.
    pub fn is_base_station(&self, node: NodeId) -> bool {
        self.topology.nodes[node.index()].kind == NodeKind::BaseStation
    }

    /// The nodes strictly between `src` and `dst` on the path, in order.
    pub fn transit(&self, src: NodeId, dst: NodeId) -> Vec<NodeId> {
        let path = self.path(src, dst);
        let n = path.len().saturating_sub(1);
        path.into_iter().take(n).map(|p| self.port_to(p)).collect()
    }
}

/// The id of the node called `name`, or an error at `field` listing the names.
pub(crate) fn node_id(doc: &ScenarioDoc, field: &str, name: &str) -> Result<NodeId, Error> {
    node_id_named(doc, name, || field.to_string())
}

/// [`node_id`] with the field's path made only for the error (a scenario of thousands of
/// flows looks up two nodes per flow: the paths cost more than the lookups, callgrind).
pub(crate) fn node_id_named(
    doc: &ScenarioDoc,
    name: &str,
    field: impl FnOnce() -> String,
) -> Result<NodeId, Error> {
    doc.nodes
        .iter()
        .position(|n| n.name == name)
        .map(|i| NodeId(i as u32))
        .ok_or_else(|| {
            let names: Vec<&str> = doc.nodes.iter().map(|n| n.name.as_str()).collect();
            Error::invalid(
                field(),
                format!(
                    "'{name}' is not a node of this scenario (nodes: {})",
                    names.join(", ")
                ),
            )
        })
}

fn nodes(doc: &ScenarioDoc) -> Result<Vec<NodeConfig>, Error> {
    if doc.nodes.len() < 2 {
        return Err(Error::invalid(
            "nodes",
            "a scenario needs at least two nodes",
        ));
    }
    let mut nodes = Vec::with_capacity(doc.nodes.len());
    for (i, n) in doc.nodes.iter().enumerate() {
        if n.name.is_empty() {
            return Err(Error::invalid(
                format!("nodes[{i}].name"),
                "must not be empty",
            ));
        }
        if doc.nodes[..i].iter().any(|m| m.name == n.name) {
            return Err(Error::invalid(
                format!("nodes[{i}].name"),
                format!("'{}' is used twice; node names must be unique", n.name),
            ));
        }
        let kind = match n.kind {
            NodeKindDoc::Host => NodeKind::Host,
            NodeKindDoc::Router => NodeKind::Router,
            NodeKindDoc::BaseStation => NodeKind::BaseStation,
        };
        let jitter = n.jitter.map_or(0, |d| d.0);
        if jitter > 1_000_000_000 {
            return Err(Error::invalid(
                format!("nodes[{i}].jitter"),
                "must be at most 1s",
            ));
        }
        nodes.push(NodeConfig {
            name: n.name.clone(),
            kind,
            jitter: engine::SimDuration(jitter),
        });
    }
    Ok(nodes)
}

fn chain(doc: &ScenarioDoc, nodes: Vec<NodeConfig>) -> Result<TopologyConfig, Error> {
    if doc.hops.len() + 1 != doc.nodes.len() {
        return Err(Error::invalid(
            "hops",
            format!(
                "a chain of {} nodes needs {} hops, found {}",
                doc.nodes.len(),
                doc.nodes.len() - 1,
                doc.hops.len()
            ),
        ));
    }
    let hops = doc
        .hops
        .iter()
        .enumerate()
        .map(|(i, h)| {
            if h.between.is_some() {
                return Err(Error::invalid(
                    format!("hops[{i}].between"),
                    "a chain's hops join neighbours in order; use [[links]] to name the ends",
                ));
            }
            hop(&format!("hops[{i}]"), h)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ChainConfig { nodes, hops }.topology())
}

fn non_empty(field: String, name: &str) -> Result<(), Error> {
    if name.is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    Ok(())
}

fn general(doc: &ScenarioDoc, nodes: Vec<NodeConfig>) -> Result<TopologyConfig, Error> {
    let mut links = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for (i, l) in doc.links.iter().enumerate() {
        let field = format!("links[{i}]");
        non_empty(format!("{field}.name"), &l.name)?;
        if names.contains(&l.name.as_str()) {
            return Err(Error::invalid(
                format!("{field}.name"),
                format!(
                    "'{}' is used twice; link and cell names must be unique",
                    l.name
                ),
            ));
        }
        names.push(&l.name);
        let Some([a, b]) = &l.between else {
            return Err(Error::invalid(
                format!("{field}.between"),
                "missing: name the two nodes the link joins, e.g. between = [\"router\", \"ap\"]",
            ));
        };
        let a = node_id(doc, &format!("{field}.between[0]"), a)?;
        let b = node_id(doc, &format!("{field}.between[1]"), b)?;
        if a == b {
            return Err(Error::invalid(
                format!("{field}.between"),
                "a link joins two different nodes",
            ));
        }
        links.push(LinkConfig {
            a,
            b,
            key: format!("link:{}", l.name),
            hop: hop(&field, l)?,
        });
    }
    let mut cells = Vec::new();
    for (c, cell) in doc.cells.iter().enumerate() {
        let field = format!("cells[{c}]");
        non_empty(format!("{field}.name"), &cell.name)?;
        if names.contains(&cell.name.as_str()) {
            return Err(Error::invalid(
                format!("{field}.name"),
                format!(
                    "'{}' is used twice; link and cell names must be unique",
                    cell.name
                ),
            ));
        }
        names.push(&cell.name);
        let ap = node_id(doc, &format!("{field}.access_point"), &cell.access_point)?;
        if cell.stations.is_empty() {
            return Err(Error::invalid(
                format!("{field}.stations"),
                "a cell needs at least one station besides its access point",
            ));
        }
        // Each member's link carries the cell's settings in both directions.
        let hop_doc = HopDoc {
            name: cell.name.clone(),
            between: None,
            role: RoleDoc::Wireless,
            medium: MediumDoc::FullDuplex,
            contention: None,
            rate: Some(cell.rate),
            delay: cell.delay,
            queue: cell.queue.clone(),
            host_queue: None,
            cw_mark: None,
            framing: cell.framing,
            per_frame: cell.per_frame.clone(),
            exposure: cell.exposure,
            error: cell.error.clone(),
            delivery: None,
            dcf: None,
            gsm: None,
            blocks: None,
            forward: DirectionDoc::default(),
            reverse: DirectionDoc::default(),
        };
        // The cell's PHY (net::medium::dcf::phy) and the airtime of its members' frames.
        let phy = match &cell.dcf {
            Some(d) => {
                super::wifi::snr::cell_checks(d, cell, &field)?;
                Some(super::wifi::cell_phy(d, &format!("{field}.dcf"))?)
            }
            None => None,
        };
        if phy.is_some_and(|p| !p.is_11b()) && cell.per_frame.is_some() {
            return Err(Error::invalid(
                format!("{field}.per_frame"),
                "the PHY's preamble is part of each frame's airtime with a dcf.phy other than 11b; leave per_frame out",
            ));
        }
        if let Some(p) = &phy {
            super::wifi::member_mode(p, cell.rate.0, &format!("{field}.rate"))?;
        }
        let mut members = Vec::new();
        for (k, st) in cell.stations.iter().enumerate() {
            let sf = format!("{field}.stations[{k}]");
            let s = node_id(doc, &sf, st)?;
            if s == ap || cell.stations[..k].contains(st) {
                return Err(Error::invalid(
                    sf,
                    format!("'{st}' is the access point or listed twice"),
                ));
            }
            members.push(links.len());
            let own_error = cell.station_error.get(st);
            let member_doc = match own_error {
                Some(e) => HopDoc {
                    error: Some(e.clone()),
                    ..hop_doc.clone()
                },
                None => hop_doc.clone(),
            };
            // A station's own rate (the performance anomaly: one far, slow station).
            let (member_doc, rate_field) = match cell.station_rate.get(st) {
                Some(&r) => (
                    HopDoc {
                        rate: Some(r),
                        ..member_doc
                    },
                    format!("{field}.station_rate.{st}"),
                ),
                None => (member_doc, format!("{field}.rate")),
            };
            let mode = match &phy {
                Some(p) => {
                    super::wifi::member_mode(p, member_doc.rate.map_or(0, |r| r.0), &rate_field)?
                }
                None => None,
            };
            let mut member_hop = hop(&field, &member_doc)
                .map_err(|e| cell_field(e, &field, own_error.map(|_| st.as_str())))?;
            if let Some(m) = mode {
                for dir in [&mut member_hop.forward, &mut member_hop.reverse] {
                    dir.phy = Some(m);
                    dir.rate_bps = m.rate_bps();
                }
            }
            // The SNR channel (dcf.error_model = "snr", net::medium::dcf::snr).
            if let (Some(d), Some(p)) = (&cell.dcf, &phy) {
                let w = super::wifi::snr::station_wlan(d, p, (&field, st), mode, &rate_field)?;
                for dir in [&mut member_hop.forward, &mut member_hop.reverse] {
                    dir.wlan = w.clone();
                }
            }
            links.push(LinkConfig {
                a: ap,
                b: s,
                key: format!("cell:{}/{st}", cell.name),
                hop: HopConfig {
                    name: format!("{}/{st}", cell.name),
                    ..member_hop
                },
            });
        }
        if let Some(bad) = cell
            .station_error
            .keys()
            .find(|k| !cell.stations.contains(k))
        {
            return Err(Error::invalid(
                format!("{field}.station_error.{bad}"),
                "is not one of the cell's stations",
            ));
        }
        if let Some(bad) = cell
            .station_rate
            .keys()
            .find(|k| !cell.stations.contains(k))
        {
            return Err(Error::invalid(
                format!("{field}.station_rate.{bad}"),
                "is not one of the cell's stations",
            ));
        }
        if cell.dcf.is_some() && cell.contention.is_some() {
            return Err(Error::invalid(
                format!("{field}.contention"),
                "a dcf cell draws its own backoff (dcf.cw_min, dcf.slot); leave contention out",
            ));
        }
        cells.push(CellConfig {
            name: cell.name.clone(),
            access_point: ap,
            links: members,
            contention: contention(cell.contention.as_ref(), &format!("{field}.contention"))?,
            dcf: match (&cell.dcf, &phy) {
                (Some(d), Some(p)) => Some(super::wifi::with_phy(
                    super::wifi::dcf_config(d, &format!("cells[{c}].dcf"))?,
                    p,
                )),
                _ => None,
            },
            ampdu: match (&cell.dcf, &phy) {
                (Some(d), Some(p)) => super::wifi::ampdu(d, p, &format!("cells[{c}].dcf"))?,
                _ => None,
            },
            ap_scheduler: match &cell.dcf {
                Some(d) => super::wifi::ap_scheduler(d, &format!("cells[{c}].dcf"))?,
                None => net::medium::dcf::airtime::ApScheduler::Frames,
            },
            ap_queue: match &cell.dcf {
                Some(d) => {
                    let q = &format!("{field}.queue");
                    let aqm = super::queue::discipline(q, cell.queue.as_ref(), cell.rate.0)?.1;
                    super::wifi::ap_queue(d, &format!("{field}.dcf"), aqm.is_some())?
                }
                None => net::ifq::ApQueue::PerStation,
            },
            key: format!("cell:{}", cell.name),
        });
    }
    if links.is_empty() {
        return Err(Error::invalid(
            "links",
            "a topology document needs at least one link or cell",
        ));
    }
    let routes = doc
        .routes
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let at = node_id(doc, &format!("routes[{i}].at"), &r.at)?;
            let dst = node_id(doc, &format!("routes[{i}].to"), &r.to)?;
            if at == dst {
                return Err(Error::invalid(
                    format!("routes[{i}].at"),
                    format!(
                        "'{}' is the route's destination (to); a route is kept by a node the packets pass",
                        r.at
                    ),
                ));
            }
            Ok(RouteOverride {
                at,
                dst,
                via: node_id(doc, &format!("routes[{i}].via"), &r.via)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(TopologyConfig {
        nodes,
        links,
        cells,
        routes,
    })
}

/// An error of a cell member's link, named by the cell's own fields: a cell has no `forward` or
/// `reverse` (both directions carry its settings), and a station's own error model is
/// `station_error.<station>` (`station`, when it has one).
fn cell_field(e: Error, cell: &str, station: Option<&str>) -> Error {
    let rename = |f: String| -> String {
        for dir in ["forward", "reverse"] {
            let Some(rest) = f.strip_prefix(&format!("{cell}.{dir}.")) else {
                continue;
            };
            return match (station, rest.strip_prefix("error")) {
                (Some(st), Some(tail)) if tail.is_empty() || tail.starts_with('.') => {
                    format!("{cell}.station_error.{st}{tail}")
                }
                _ => format!("{cell}.{rest}"),
            };
        }
        f
    };
    match e {
        Error::InvalidValue { field, message } => Error::InvalidValue {
            field: rename(field),
            message,
        },
        Error::BadUnit { field, message } => Error::BadUnit {
            field: rename(field),
            message,
        },
        Error::UnknownField { field, message } => Error::UnknownField {
            field: rename(field),
            message,
        },
        other => other,
    }
}

/// The scenario's network: a chain (`hops`) or a topology (`links`, `cells`), never both.
pub(crate) fn network(doc: &ScenarioDoc) -> Result<Net, Error> {
    let nodes = nodes(doc)?;
    let general_form = !doc.links.is_empty() || !doc.cells.is_empty();
    let topology = match (general_form, doc.hops.is_empty()) {
        (true, false) => {
            return Err(Error::invalid(
                "hops",
                "give either a chain ([[hops]]) or a topology ([[links]], [[cells]]), not both",
            ))
        }
        (true, true) => general(doc, nodes)?,
        (false, _) => {
            if !doc.routes.is_empty() {
                return Err(Error::invalid(
                    "routes",
                    "a chain's routes are fixed; route overrides need a topology ([[links]])",
                ));
            }
            chain(doc, nodes)?
        }
    };
    let routes = route_table(&topology).map_err(|e| {
        let text = e.to_string();
        match text.split_once(": ") {
            Some((field, msg)) => Error::invalid(field, msg),
            None => Error::invalid("routes", text),
        }
    })?;
    Ok(Net { topology, routes })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::Scenario;

    /// The llelsn preset with its DCF cell replaced by `cell` (a `[[cells]]` or `[[links]]`
    /// table), and its network.
    fn llelsn_with(cell: &str) -> Net {
        let text = Scenario::preset_toml("llelsn").unwrap();
        let (head, tail) = text.split_once("[[cells]]").unwrap();
        let (_, flows) = tail.split_once("[[flows]]").unwrap();
        let s = Scenario::from_toml_str(&format!("{head}{cell}\n[[flows]]{flows}")).unwrap();
        network(&s.doc).unwrap()
    }

    /// A DCF cell's frames wait DIFS and CWmin/2 slots in the idle RTT, as a `medium = "dcf"`
    /// hop's do (the first RTT sample, as the SYN exchange would give it), with the cell's own
    /// PHY timing; not the cell's half-duplex `contention` (now refused beside a dcf).
    #[test]
    fn a_dcf_cell_seeds_the_idle_rtt_as_a_dcf_hop_does() {
        let common =
            "rate = \"11Mbps\"\ndelay = \"1us\"\nqueue = 50\nframing = 36\nper_frame = \"192us\"\n";
        let cell = llelsn_with(&format!(
            "[[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [\"sta1\"]\n{common}dcf = {{ retry_limit = 1 }}\n"
        ));
        let hop = llelsn_with(&format!(
            "[[links]]\nname = \"cell\"\nbetween = [\"ap\", \"sta1\"]\nrole = \"wireless\"\nmedium = \"dcf\"\n{common}dcf = {{ retry_limit = 1 }}\n"
        ));
        let (server, ap, sta1) = (NodeId(0), NodeId(2), NodeId(3));
        assert_eq!(cell.idle_rtt(server, sta1), hop.idle_rtt(server, sta1));
        // 802.11b: DIFS 50 us and 31/2 = 15 slots of 20 us, each way.
        let down = cell.path(ap, sta1)[0];
        assert_eq!(cell.wait(down), SimDuration::from_micros(50 + 15 * 20));
        // An 802.11a cell waits its own PHY's DIFS (16 + 2 × 9 us) and 15/2 = 7 slots of 9 us.
        let a = llelsn_with(
            "[[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [\"sta1\"]\nrate = \"54Mbps\"\ndelay = \"1us\"\nqueue = 50\nframing = 36\ndcf = { phy = \"11a\" }\n",
        );
        let down = a.path(ap, sta1)[0];
        assert_eq!(a.wait(down), SimDuration::from_micros(34 + 7 * 9));
    }
}
