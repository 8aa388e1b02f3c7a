//! The per-member rows of a run's 802.11 DCF cells (crate `net::medium::dcf`): one
//! row per access point and station, with its MAC counters, the queue drops of its interface
//! queues, its access delays, its share of the airtime and the access point's queue wait
//! towards it.

use crate::metrics::Value;
use net::config::TopologyConfig;
use net::Network;

/// One row per DCF member of every DCF cell, the access point first, then the stations in the
/// cell's member order; cells in the order the network built their media (by their first link).
pub(crate) fn member_rows(
    network: &Network,
    topology: &TopologyConfig,
    end: engine::SimTime,
) -> Vec<Vec<(&'static str, Value)>> {
    let end_ns = end.as_nanos();
    // DCF media in the order the network built them: a cell at its first member link, a
    // `dcf` hop at its own link.
    enum Unit<'a> {
        Cell(&'a net::config::CellConfig),
        Hop(usize),
    }
    let mut units: Vec<(usize, Unit<'_>)> = topology
        .cells
        .iter()
        .filter(|c| c.dcf.is_some())
        .map(|c| {
            (
                c.links.iter().min().copied().unwrap_or(usize::MAX),
                Unit::Cell(c),
            )
        })
        .collect();
    let in_cell = |l: usize| topology.cells.iter().any(|c| c.links.contains(&l));
    for (l, link) in topology.links.iter().enumerate() {
        if matches!(link.hop.medium, net::config::Medium::Dcf(_)) && !in_cell(l) {
            units.push((l, Unit::Hop(l)));
        }
    }
    units.sort_by_key(|u| u.0);
    let stats = network.medium_reports().filter_map(|r| match r {
        net::medium::MediumReport::Dcf(members) => Some(members),
        _ => None,
    });
    let u = |v: u64| Value::Int(v.min(i64::MAX as u64) as i64);
    let mut rows = Vec::new();
    for ((_, unit), members) in units.iter().zip(stats) {
        for (k, m) in members.iter().enumerate() {
            let (name, role, node, ports): (String, &str, _, Vec<usize>) = match unit {
                // Member 0 is the access point: its ports go to every station; a station's
                // port goes to the access point.
                Unit::Cell(cell) if k == 0 => (
                    cell.name.clone(),
                    "access-point",
                    cell.access_point,
                    cell.links
                        .iter()
                        .map(|&l| port_from(topology, l, cell.access_point))
                        .collect(),
                ),
                Unit::Cell(cell) => {
                    let l = cell.links[k - 1];
                    let link = &topology.links[l];
                    let sta = if link.a == cell.access_point {
                        link.b
                    } else {
                        link.a
                    };
                    (
                        cell.name.clone(),
                        "station",
                        sta,
                        vec![port_from(topology, l, sta)],
                    )
                }
                // A `dcf` hop: its two ends, forward sender first.
                Unit::Hop(l) => {
                    let link = &topology.links[*l];
                    let node = if k == 0 { link.a } else { link.b };
                    (link.hop.name.clone(), "end", node, vec![2 * l + k])
                }
            };
            // The access point's airtime towards this station (all of its ports for its own
            // row): the share airtime fairness evens out (net::medium::dcf::airtime).
            let ap_ports: Vec<usize> = match unit {
                Unit::Cell(cell) if k == 0 => ports.clone(),
                Unit::Cell(cell) => vec![port_from(topology, cell.links[k - 1], cell.access_point)],
                Unit::Hop(_) => Vec::new(),
            };
            let ap_airtime: u64 = ap_ports
                .iter()
                .map(|&p| network.ports()[p].busy_ns_until(end))
                .sum();
            // How long the access point's packets towards this station (all of them for its
            // own row) waited in its queue before the MAC took them, in the measurement window
            // (net::ifq): behind another station's frames in retries.
            let (wait_ns, waited) = ap_ports.iter().fold((0u64, 0u64), |(w, n), &p| {
                let st = &network.ports()[p].stats;
                (w + st.queue_wait_ns, n + st.queue_waited)
            });
            let ap_wait_ms = if waited == 0 {
                f64::NAN
            } else {
                wait_ns as f64 / waited as f64 * 1e-6
            };
            // The member's data rate (its link's, `station_rate`): NaN for the access point,
            // whose ports may each have their own.
            let rate_mbps = match (unit, ports.as_slice()) {
                (Unit::Cell(_), _) if k == 0 => f64::NAN,
                (_, &[p]) => {
                    let hop = &topology.links[p / 2].hop;
                    let dir = if p % 2 == 0 {
                        &hop.forward
                    } else {
                        &hop.reverse
                    };
                    dir.rate_bps as f64 / 1e6
                }
                _ => f64::NAN,
            };
            let queue_drops: u64 = ports
                .iter()
                .map(|&p| network.ports()[p].stats.queue_drops)
                .sum();
            let d = &m.delays_ns;
            let (mean_ms, p95_ms) = match d.len() {
                0 => (f64::NAN, f64::NAN),
                n => {
                    // Nearest rank: the smallest delay with at least 95 % at or below it.
                    let rank = ((0.95 * n as f64).ceil() as u64).clamp(1, n);
                    let p95 = d.at_rank(rank).unwrap_or(0);
                    (d.sum() as f64 / n as f64 * 1e-6, p95 as f64 * 1e-6)
                }
            };
            let aggregates = matches!(unit, Unit::Cell(c) if c.ampdu.is_some());
            // An HT/VHT cell (or hop): its rows have the MCS histogram.
            let links: Vec<usize> = match unit {
                Unit::Cell(c) => c.links.clone(),
                Unit::Hop(l) => vec![*l],
            };
            let ht = links.iter().any(|&l| {
                let hop = &topology.links[l].hop;
                [&hop.forward, &hop.reverse].iter().any(|d| {
                    matches!(
                        d.phy,
                        Some(
                            net::medium::dcf::phy::Mode::Ht { .. }
                                | net::medium::dcf::phy::Mode::Vht { .. }
                        )
                    )
                })
            });
            let mut row = vec![
                ("cell", Value::Str(name)),
                (
                    "node",
                    Value::Str(topology.nodes[node.index()].name.clone()),
                ),
                ("role", Value::Str(role.into())),
                ("rate_mbps", Value::Float(rate_mbps)),
                ("attempts", u(m.attempts)),
                ("successes", u(m.successes)),
                ("collisions", u(m.collisions)),
                ("errors", u(m.errors)),
                ("retries", u(m.retries)),
                ("retry_drops", u(m.drops)),
                ("queue_drops", u(queue_drops)),
                ("access_delay_mean_ms", Value::Float(mean_ms)),
                ("access_delay_p95_ms", Value::Float(p95_ms)),
                (
                    "airtime_share",
                    // The airtime inside the run (at most 1).
                    Value::Float(if end_ns > 0 {
                        m.airtime_ns_until(end_ns) as f64 / end_ns as f64
                    } else {
                        0.0
                    }),
                ),
                ("ap_queue_wait_mean_ms", Value::Float(ap_wait_ms)),
                (
                    "ap_airtime_share",
                    Value::Float(if ap_ports.is_empty() || end_ns == 0 {
                        f64::NAN
                    } else {
                        ap_airtime as f64 / end_ns as f64
                    }),
                ),
            ];
            if aggregates {
                // A-MPDU aggregation (net::medium::dcf::ampdu): its columns only in a cell
                // that aggregates. Attempts, successes and retries above count MPDUs.
                row.push(("ampdus", u(m.ampdus)));
                row.push((
                    "mpdus_per_ampdu",
                    Value::Float(if m.ampdus > 0 {
                        m.ampdu_mpdus as f64 / m.ampdus as f64
                    } else {
                        f64::NAN
                    }),
                ));
                row.push(("block_acks_missed", u(m.block_acks_missed)));
                row.push(("block_ack_requests", u(m.block_ack_requests)));
                row.push(("block_ack_requests_missed", u(m.block_ack_requests_missed)));
                row.push(("given_up", u(m.given_up)));
                row.push(("reorder_held", u(m.reorder_held)));
                row.push(("reorder_timed_out", u(m.reorder_timed_out)));
                row.push(("reorder_late", u(m.reorder_late)));
                row.push(("mpdus_per_ampdu_hist", Value::Str(hist(&m.ampdu_sizes))));
            }
            if ht {
                // Data PPDUs by MCS: `ht15:1306 ht7:12`, in key order.
                let h: Vec<String> = m
                    .mcs_ppdus
                    .iter()
                    .map(|(k, n)| format!("{k}:{n}"))
                    .collect();
                row.push(("mcs_hist", Value::Str(h.join(" "))));
            }
            if let Some(hist) = frames_by_mode(network, &ports) {
                // Data frames (each MPDU attempt) per mode of a cell with an SNR channel
                // (net::medium::dcf::snr): HT/VHT MCS 0-9, or 11a/g's 6-54 Mb/s in order.
                for (k, n) in hist.iter().enumerate() {
                    row.push((MODE_COLUMNS[k], u(*n)));
                }
            }
            rows.push(row);
        }
    }
    rows
}

/// A histogram as `k:count` entries for the non-zero counts, `k` rising, space-separated
/// (`1:3 42:1300`: three A-MPDUs of one MPDU, 1300 of 42).
fn hist(counts: &[u64]) -> String {
    let h: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(k, n)| format!("{k}:{n}"))
        .collect();
    h.join(" ")
}

/// The columns of the data frames sent per mode (net::medium::dcf::snr::MODE_SLOTS).
const MODE_COLUMNS: [&str; net::medium::dcf::snr::MODE_SLOTS] = [
    "mcs0", "mcs1", "mcs2", "mcs3", "mcs4", "mcs5", "mcs6", "mcs7", "mcs8", "mcs9",
];

/// The data frames per mode slot sent from `ports`, if they have SNR channels.
fn frames_by_mode(
    network: &Network,
    ports: &[usize],
) -> Option<[u64; net::medium::dcf::snr::MODE_SLOTS]> {
    let mut total = None;
    for &p in ports {
        if let Some(h) = network.ports()[p].frames_by_mode() {
            let t = total.get_or_insert([0; net::medium::dcf::snr::MODE_SLOTS]);
            for (a, b) in t.iter_mut().zip(h) {
                *a += b;
            }
        }
    }
    total
}

/// The port of link `l` that sends from `node` (ports `2l` forward a -> b, `2l + 1` reverse).
fn port_from(topology: &TopologyConfig, l: usize, node: engine::NodeId) -> usize {
    if topology.links[l].a == node {
        2 * l
    } else {
        2 * l + 1
    }
}
