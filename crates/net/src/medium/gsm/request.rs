//! RFC 2507's header request on the GSM RLP link (RFC 2507 §10.2; Ludwig2000 §2.2.3, §2.5.5,
//! spec §3.8, §7.1 item 8: "RFC 2507 (twice, optional header request)").
//!
//! When the decompressor cannot repair a context (two or more deltas lost back to back, so the
//! twice algorithm fails), it sends a CONTEXT_STATE packet naming it over the reverse link, and
//! the compressor sends the next packet of that context with a full header. Here the request is
//! one RLP frame on the reverse channel: it leaves in the first reverse block after the failed
//! packet reached the far end (the hop's one-way delay after RLP handed it over), and like any
//! RLP frame it is sent again one RLP round trip later while its block is erased, and lost
//! after N2 retransmissions (on a bad channel "many requests" are lost, §2.5.5). It reaches the
//! compressor the one-way delay after its block ends. Deliberate simplification: the request
//! does not queue behind the reverse direction's packets (ACKs) and takes no block from them,
//! as RLP's own control frames. A context asks once until its full header arrives; a lost
//! request lets the next failed packet ask again.

use super::vj::Header;
use super::Gsm;
use engine::{FlowId, SimTime};

/// Retransmissions of a request frame on an RLP without N2 (fully reliable) before we stop
/// looking: far beyond any burst in the traces.
const UNBOUNDED_TRIES: u32 = 1000;

impl Gsm {
    /// The packet of `flow` with `header` was handed over at `now` and decompressed right or
    /// not (`ok`): with header requests on, a compressed packet that failed sends one (unless
    /// the context has one out), and a full header ends the context's wait.
    pub(super) fn header_request(&mut self, now: SimTime, flow: FlowId, header: Header, ok: bool) {
        if !self.cfg.header_request {
            return;
        }
        if header == Header::Full {
            self.asking.retain(|f| *f != flow);
            return;
        }
        if ok || self.asking.contains(&flow) {
            return;
        }
        // The decompressor sees the packet at the far end; its request's first try is the next
        // reverse block.
        let mut at = self.boundary(now + self.cfg.delay);
        let tries = self.cfg.n2.map_or(UNBOUNDED_TRIES, |n| n + 1);
        for _ in 0..tries {
            if !self.erased_in(self.reverse.as_ref(), at) {
                let arrives = at + self.cfg.block + self.cfg.delay;
                self.requests.push((arrives, flow));
                self.asking.push(flow);
                self.stats.header_requests += 1;
                return;
            }
            at = self.boundary(at + self.cfg.rlp_rtt);
        }
        self.stats.header_requests_lost += 1;
    }

    /// Hand the compressor the requests that have reached it by `now`.
    pub(super) fn answer_requests(&mut self, now: SimTime) {
        if self.requests.is_empty() {
            return;
        }
        let mut i = 0;
        while i < self.requests.len() {
            if self.requests[i].0 <= now {
                let (_, flow) = self.requests.swap_remove(i);
                self.compressor.send_full(flow);
            } else {
                i += 1;
            }
        }
    }
}
