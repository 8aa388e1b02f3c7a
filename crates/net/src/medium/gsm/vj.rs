//! Van Jacobson TCP/IP header compression (RFC 1144) at the two PPP ends of a GSM-CSD link, and
//! how it fails after an RLP reset (Ludwig2000 §2.2.3, §2.5.5, §4.2.3; spec §3.8, S2, RT20).
//!
//! The compressor sends the first header of a connection in full and after that only the change
//! to the previous header (the common case: 4 bytes instead of 40, [E]). RFC 1144 §3.2 sends the
//! header of a retransmitted segment in full, which is also how the decompressor gets back in
//! step. The decompressor applies each delta to the header it stored. When a packet is lost on
//! the link without the decompressor knowing (an RLP reset flushes whole PPP frames), every
//! later delta is applied to the wrong header: the TCP checksum fails at the receiver and the
//! segment is silently discarded, until the next full header, which comes with the sender's
//! retransmission after a timeout ("off by k", §4.2.3: 13 segments discarded after a reset that
//! lost 5). RFC 1144's "toss" rule (discard compressed packets after a framing error until a
//! full header) has the same effect and is what we model: a loss marks the connection's context
//! out of step.
//!
//! RFC 2507 (`Decompressor::twice`) compresses TCP headers the same way, but its decompressor
//! repairs a single lost delta with the "twice" algorithm: when a reconstructed header fails the
//! TCP checksum it applies the delta twice, which succeeds if the lost segment was as long as
//! the next (bulk transfer: MSS segments). Two or more deltas lost back to back still leave it
//! out of step until a full header (§2.2.3, §2.5.5: "loses synchronization when two deltas are
//! lost back-to-back"). Its header request (RFC 2507 §10.2, CONTEXT_STATE: the decompressor
//! names the contexts it cannot repair over the reverse link, and the compressor sends the next
//! packet of each with a full header) is [`Compressor::send_full`]; the medium carries the
//! request (crate::medium::gsm, `GsmConfig::header_request`).
//!
//! Deliberate simplifications: the TCP options (the 12-byte timestamp option of the
//! dissertation's runs) travel uncompressed beside the 4-byte delta (RFC 1144 would send a
//! segment whose options changed in full); the 7-byte special cases of §3.8 are not modelled.

use engine::FlowId;

/// Bytes of the TCP/IP header a full (uncompressed) header carries.
pub const FULL_HEADER: u32 = 40;
/// Bytes of a compressed header in the common case (Ludwig2000 §2.2.3 [E]).
pub const COMPRESSED_HEADER: u32 = 4;

/// How a packet's header crosses the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// Uncompressed: the decompressor stores it (and is back in step).
    Full,
    /// A delta to the previous header of the same connection.
    Compressed,
}

impl Header {
    /// Bytes this header takes instead of the 40-byte TCP/IP header.
    pub fn bytes(self) -> u32 {
        match self {
            Header::Full => FULL_HEADER,
            Header::Compressed => COMPRESSED_HEADER,
        }
    }
}

/// A connection's context at the compressor.
#[derive(Clone, Copy, Debug)]
struct Context {
    flow: FlowId,
    /// The highest sequence number sent.
    high: u32,
    /// The last packet's sequence and acknowledgment numbers.
    seq: u32,
    ack: u32,
}

/// The link sender's side: one context per connection.
#[derive(Clone, Debug, Default)]
pub struct Compressor {
    flows: Vec<Context>,
    /// Contexts whose next packet goes with a full header (a header request arrived).
    forced: Vec<FlowId>,
}

impl Compressor {
    /// The header of the next TCP packet of `flow` carrying `[seq, seq + len)` and
    /// acknowledging `ack`: full for the first packet of a connection and for a retransmission
    /// (RFC 1144 §3.2), and for a packet without data in which nothing changed, a duplicate ACK
    /// or a window probe (RFC 1144's `sl_compress_tcp`, case 0: "a retransmitted ack or window
    /// probe. Send it uncompressed in case the other side missed the compressed version"),
    /// which is how a decompressor of the ACK direction gets back in step; else compressed.
    pub fn header(&mut self, flow: FlowId, seq: u32, len: u32, ack: u32) -> Header {
        let end = seq.wrapping_add(len);
        match self.flows.iter_mut().find(|c| c.flow == flow) {
            None => {
                self.flows.push(Context {
                    flow,
                    high: end,
                    seq,
                    ack,
                });
                Header::Full
            }
            Some(c) => {
                // Sequence space comparison (RFC 793 modulo 2^32).
                let retransmission = len > 0 && (seq.wrapping_sub(c.high) as i32) < 0;
                let unchanged = len == 0 && seq == c.seq && ack == c.ack;
                if (end.wrapping_sub(c.high) as i32) > 0 {
                    c.high = end;
                }
                c.seq = seq;
                c.ack = ack;
                // RFC 2507 §10.2: a header request is answered with a full header.
                let forced = self.forced.iter().position(|f| *f == flow);
                if let Some(i) = forced {
                    self.forced.swap_remove(i);
                }
                if retransmission || unchanged || forced.is_some() {
                    Header::Full
                } else {
                    Header::Compressed
                }
            }
        }
    }
}

impl Compressor {
    /// A header request for `flow` arrived: its next packet goes with a full header.
    pub fn send_full(&mut self, flow: FlowId) {
        if !self.forced.contains(&flow) {
            self.forced.push(flow);
        }
    }
}

/// The link receiver's side: the connections whose contexts missed packets, and how many
/// back to back (`u32::MAX`: out of step until a full header).
#[derive(Clone, Debug, Default)]
pub struct Decompressor {
    missed: Vec<(FlowId, u32)>,
    /// RFC 2507's twice algorithm: one lost delta is repaired.
    twice: bool,
}

impl Decompressor {
    /// An RFC 1144 (VJ) decompressor: any lost delta puts the context out of step.
    pub fn vj() -> Self {
        Decompressor::default()
    }

    /// An RFC 2507 decompressor with the twice algorithm.
    pub fn twice() -> Self {
        Decompressor {
            twice: true,
            ..Decompressor::default()
        }
    }

    /// A packet of `flow` with `header` arrived: whether its TCP header comes out right.
    pub fn receive(&mut self, flow: FlowId, header: Header) -> bool {
        let Some(i) = self.missed.iter().position(|(f, _)| *f == flow) else {
            return true;
        };
        let missed = self.missed[i].1;
        match header {
            Header::Full => {
                self.missed.swap_remove(i);
                true
            }
            // RFC 2507 §10.1: the delta applied twice repairs one lost packet.
            Header::Compressed if self.twice && missed == 1 => {
                self.missed.swap_remove(i);
                true
            }
            Header::Compressed => {
                self.missed[i].1 = u32::MAX;
                false
            }
        }
    }

    /// A packet of `flow` was lost on the link without the decompressor seeing it.
    pub fn lose(&mut self, flow: FlowId) {
        match self.missed.iter_mut().find(|(f, _)| *f == flow) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => self.missed.push((flow, 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FlowId = FlowId(0);

    #[test]
    fn first_and_retransmitted_headers_go_in_full_the_rest_compressed() {
        let mut c = Compressor::default();
        assert_eq!(c.header(F, 1000, 460, 1), Header::Full);
        assert_eq!(c.header(F, 1460, 460, 1), Header::Compressed);
        assert_eq!(c.header(F, 1920, 460, 1), Header::Compressed);
        // A retransmission of the second segment.
        assert_eq!(c.header(F, 1460, 460, 1), Header::Full);
        assert_eq!(c.header(F, 2380, 460, 1), Header::Compressed);
        // Another connection has its own context; pure ACKs compress while the ACK number
        // moves; a duplicate ACK goes in full (RFC 1144: the other side may have missed the
        // compressed version), and the next new ACK compresses again.
        assert_eq!(c.header(FlowId(1), 5, 0, 100), Header::Full);
        assert_eq!(c.header(FlowId(1), 5, 0, 560), Header::Compressed);
        assert_eq!(c.header(FlowId(1), 5, 0, 560), Header::Full);
        assert_eq!(c.header(FlowId(1), 5, 0, 560), Header::Full);
        assert_eq!(c.header(FlowId(1), 5, 0, 1020), Header::Compressed);
        // Across the wrap of the sequence space.
        let mut w = Compressor::default();
        assert_eq!(w.header(F, u32::MAX - 100, 460, 1), Header::Full);
        assert_eq!(w.header(F, 359, 460, 1), Header::Compressed);
        assert_eq!(w.header(F, u32::MAX - 100, 460, 1), Header::Full);
    }

    #[test]
    fn a_header_request_makes_the_next_header_full_once() {
        let mut c = Compressor::default();
        assert_eq!(c.header(F, 0, 460, 1), Header::Full);
        assert_eq!(c.header(F, 460, 460, 1), Header::Compressed);
        c.send_full(F);
        c.send_full(F);
        assert_eq!(c.header(FlowId(1), 0, 460, 1), Header::Full);
        assert_eq!(c.header(F, 920, 460, 1), Header::Full);
        assert_eq!(c.header(F, 1380, 460, 1), Header::Compressed);
        // Out of step after two lost deltas, the full header it asked for repairs it.
        let mut d = Decompressor::twice();
        d.lose(F);
        d.lose(F);
        assert!(!d.receive(F, Header::Compressed));
        assert!(d.receive(F, Header::Full));
    }

    #[test]
    fn twice_repairs_one_lost_delta_but_not_two() {
        // RFC 2507: one loss, then a compressed header: repaired, and in step after.
        let mut d = Decompressor::twice();
        assert!(d.receive(F, Header::Full));
        d.lose(F);
        assert!(d.receive(F, Header::Compressed));
        assert!(d.receive(F, Header::Compressed));
        // Two back to back: out of step until a full header, as VJ after one.
        d.lose(F);
        d.lose(F);
        assert!(!d.receive(F, Header::Compressed));
        assert!(!d.receive(F, Header::Compressed));
        assert!(d.receive(F, Header::Full));
        assert!(d.receive(F, Header::Compressed));
        // VJ fails on the single loss.
        let mut v = Decompressor::vj();
        v.lose(F);
        assert!(!v.receive(F, Header::Compressed));
    }

    #[test]
    fn a_lost_packet_puts_the_context_out_of_step_until_a_full_header() {
        let mut d = Decompressor::default();
        assert!(d.receive(F, Header::Full));
        assert!(d.receive(F, Header::Compressed));
        d.lose(F);
        // Every later delta is applied to the wrong header: discarded (RT20).
        assert!(!d.receive(F, Header::Compressed));
        assert!(!d.receive(F, Header::Compressed));
        // Another connection is not affected.
        assert!(d.receive(FlowId(1), Header::Compressed));
        // The retransmission's full header puts it back in step.
        assert!(d.receive(F, Header::Full));
        assert!(d.receive(F, Header::Compressed));
    }
}
