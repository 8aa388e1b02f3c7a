//! The one place that makes random-stream keys (DESIGN.md, "Determinism": streams are named by
//! what they belong to, house rule 2). A component's key never depends on creation order, so
//! adding a flow or a link leaves every other component's draws unchanged. The stems are the
//! components' own: `hop{i}` for the hops of a chain document (today's keys, so every chain
//! keeps its numbers), `link:<name>` and `cell:<name>` for the links and cells of a topology
//! document, `flow0` for a chain document's flow and `flow:<name>` for named flows.

/// The error process of one direction (`forward` or `reverse`) of a link.
pub fn link_errors(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/errors")
}

/// Whether corrupted frames of one direction of a link had their TCP/IP header hit (TCP-ELN's
/// HACK identification).
pub fn header_hits(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/header")
}

/// The log-normal shadowing of a DCF cell member's link (both directions: one radio channel;
/// crate::medium::dcf::snr).
pub fn link_shadowing(link: &str) -> String {
    format!("{link}/shadowing")
}

/// Minstrel-HT's sample table of one direction of a DCF cell member's link
/// (crate::medium::dcf::minstrel).
pub fn link_minstrel(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/minstrel")
}

/// The L2R flow-control gaps of one direction of a GSM link.
pub fn l2r_gaps(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/l2r")
}

/// The synthetic block-erasure trace of one direction of a GSM link.
pub fn block_erasures(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/blocks")
}

/// The per-minute erasure rates of a clustered GSM channel direction
/// (crate::medium::gsm::Clustered), drawn apart from its fades so that every time scale has the
/// same minutes.
pub fn block_minutes(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/minutes")
}

/// The deep fades of a GSM link (both directions: one radio channel).
pub fn deep_fades(link: &str) -> String {
    format!("{link}/fades")
}

/// The random backoff of a shared medium (a half-duplex hop or a cell).
pub fn contention(medium: &str) -> String {
    format!("{medium}/contention")
}

/// The backoff draws of node `node`'s 802.11 DCF in a cell.
pub fn dcf_backoff(cell: &str, node: u32) -> String {
    format!("{cell}/node{node}/backoff")
}

/// The initial sequence numbers of a flow's connection.
pub fn flow_isn(flow: &str) -> String {
    format!("{flow}/isn")
}

/// The sequence bases of connection `n` of a flow's web session.
pub fn web_connection_isn(flow: &str, n: u32) -> String {
    format!("{flow}/conn{n}/isn")
}

/// The draws (page and object sizes, think and pause times) of a flow's web session.
pub fn web_session(flow: &str) -> String {
    format!("{flow}/web")
}

/// The draws (ON and OFF periods) of a flow's UDP source.
pub fn udp_source(flow: &str) -> String {
    format!("{flow}/source")
}

/// The phase of a host's BSD timer (`slow-timer`, `fast-timer`; `proxy-` prefixed for a split
/// proxy's stack on that node), per host and shared by every connection of the host.
pub fn node_timer(node: u32, timer: &str) -> String {
    format!("node{node}/{timer}")
}

/// The random draws of a direction's queue discipline (RED's drops, FQ-CoDel's hash
/// perturbation; crate::aqm).
pub fn link_aqm(link: &str, dir: &str) -> String {
    format!("{link}/{dir}/aqm")
}

/// A node's processing jitter (crate::jitter).
pub fn node_jitter(node: u32) -> String {
    format!("node{node}/jitter")
}

/// The initial sequence numbers of the wireless leg of the split proxy on `node` for `flow`:
/// `node{n}/proxy-isn` for a chain document's flow (`flow0`), `node{n}/proxy-isn/<flow>` else.
pub fn proxy_isn(node: u32, flow: &str) -> String {
    if flow == "flow0" {
        format!("node{node}/proxy-isn")
    } else {
        format!("node{node}/proxy-isn/{flow}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_documents_keep_their_keys() {
        assert_eq!(link_errors("hop1", "forward"), "hop1/forward/errors");
        assert_eq!(contention("hop2"), "hop2/contention");
        assert_eq!(flow_isn("flow0"), "flow0/isn");
        assert_eq!(node_timer(3, "proxy-slow-timer"), "node3/proxy-slow-timer");
        assert_eq!(proxy_isn(2, "flow0"), "node2/proxy-isn");
        assert_eq!(proxy_isn(2, "flow:b"), "node2/proxy-isn/flow:b");
    }
}
