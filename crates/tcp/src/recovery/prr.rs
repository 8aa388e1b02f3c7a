//! Proportional Rate Reduction (RFC 6937): how much a sender may send on each ACK of a fast
//! recovery, so that the flight shrinks smoothly from its size at the loss to ssthresh instead
//! of stopping for half a round trip (RFC 6675) or overshooting it (Reno's inflation).
//!
//! At the start of recovery (RFC 6937 §3.1) the part stores ssthresh as the congestion
//! controller set it and `RecoverFS = snd.nxt − snd.una`. On every ACK of the recovery, the
//! caller passes `DeliveredData` (the change of `snd.una` plus the change of the SACKed bytes)
//! and the RFC 6675 `pipe`; the part answers `sndcnt`, the bytes it may send now:
//!
//! - while `pipe > ssthresh` (proportional part): `sndcnt = ⌈prr_delivered · ssthresh /
//!   RecoverFS⌉ − prr_out`, which sends `ssthresh / RecoverFS` of what the receiver gets; the
//!   ceiling is taken in whole segments, as in the RFC's examples (and Linux, which counts
//!   packets), so that a sender of full-sized segments is not held back by a half segment;
//! - otherwise a reduction bound lets the flight grow back towards ssthresh:
//!   `sndcnt = min(ssthresh − pipe, limit)` with `limit = prr_delivered − prr_out` for the
//!   conservative bound (PRR-CRB, strict packet conservation) or `limit = max(prr_delivered −
//!   prr_out, DeliveredData) + MSS` for the slow-start bound (PRR-SSRB, the RFC's recommended
//!   one: at most one segment more than was delivered, as in slow start).
//!
//! Every byte sent during the recovery, retransmission or new data, counts in `prr_out`
//! ([`Prr::on_sent`]). All quantities are bytes.
//!
//! Deliberate deviation: RFC 6937 assumes the sender sets `cwnd = pipe + sndcnt` on each ACK;
//! here the sender keeps `sndcnt` as an allowance it spends as it sends (the same segments go
//! out), and the congestion controller's window stays at ssthresh until recovery ends
//! (`docs/modern.md`).

/// Which reduction bound applies once `pipe` falls to ssthresh or below (RFC 6937 §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PrrBound {
    /// PRR-SSRB, the slow-start reduction bound (the RFC's recommendation).
    #[default]
    SlowStart,
    /// PRR-CRB, the conservative reduction bound (strict packet conservation).
    Conservative,
}

/// The state of one fast recovery under PRR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prr {
    bound: PrrBound,
    mss: u64,
    /// The target flight after recovery.
    ssthresh: u64,
    /// Flight size at the start of recovery (never zero).
    recover_fs: u64,
    /// Bytes delivered to the receiver during recovery (prr_delivered).
    delivered: u64,
    /// Bytes sent during recovery (prr_out).
    out: u64,
}

impl Prr {
    /// A recovery starting with `ssthresh` (as the congestion controller set it) and the
    /// flight `recover_fs = snd.nxt − snd.una` (RFC 6937 §3.1 initialisation).
    pub fn start(bound: PrrBound, mss: u32, ssthresh: u32, recover_fs: u64) -> Self {
        Prr {
            bound,
            mss: u64::from(mss),
            ssthresh: u64::from(ssthresh),
            recover_fs: recover_fs.max(1),
            delivered: 0,
            out: 0,
        }
    }

    /// An ACK of the recovery delivered `delivered_data` bytes and left `pipe` bytes in the
    /// network: the bytes that may be sent in response (RFC 6937 §3.1, `sndcnt`).
    pub fn on_ack(&mut self, delivered_data: u64, pipe: u64) -> u64 {
        self.delivered += delivered_data;
        if pipe > self.ssthresh {
            // Proportional rate reduction, CEIL taken in whole segments.
            let target = (self.delivered * self.ssthresh).div_ceil(self.recover_fs * self.mss);
            (target * self.mss).saturating_sub(self.out)
        } else {
            let behind = self.delivered.saturating_sub(self.out);
            let limit = match self.bound {
                PrrBound::Conservative => behind,
                PrrBound::SlowStart => behind.max(delivered_data) + self.mss,
            };
            (self.ssthresh - pipe).min(limit)
        }
    }

    /// `bytes` were sent (a retransmission or new data) during the recovery.
    pub fn on_sent(&mut self, bytes: u64) {
        self.out += bytes;
    }

    /// prr_delivered so far.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// prr_out so far.
    pub fn out(&self) -> u64 {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;
    const M: u64 = MSS as u64;

    /// The scenario of RFC 6937's first example (§5): 20 segments in flight, the first lost,
    /// ssthresh = 10 (half of 20), one segment delivered (SACKed) per duplicate ACK, here
    /// without limited transmit. The third duplicate starts recovery with the RFC 6675 pipe at
    /// 20 − 3 SACKed − 1 lost = 16 segments. By hand, on the k-th ACK of the recovery:
    /// - k = 1..12, pipe > ssthresh: sndcnt = ⌈k·10/20⌉ − prr_out = 1 (the fast retransmit),
    ///   0, 1, 0, ...: one segment on every other ACK, the RFC's PRR row ("R _ N _ N ..."); the
    ///   pipe falls by one segment per two ACKs, 16 → 10;
    /// - k = 13, pipe = 10: SSRB sndcnt = min(10 − 10, max(13 − 6, 1) + 1) = 0;
    /// - k = 14..17, pipe = 9: sndcnt = min(10 − 9, ...) = 1: the pipe is held at ssthresh.
    ///
    /// After the 17 duplicates (ACKs 3 to 19): prr_out = 10 segments and the pipe is exactly
    /// ssthresh, where RFC 6675 would have sent nothing for half a window, then 10 at once.
    #[test]
    fn rfc_6937_example_one_sends_on_every_other_ack_then_holds_ssthresh() {
        let mut p = Prr::start(PrrBound::SlowStart, MSS, 10 * MSS, 20 * M);
        let mut pipe = 16 * M;
        let mut sent = Vec::new();
        for k in 1..=17 {
            if k > 1 {
                // The next duplicate takes one segment out of the pipe.
                pipe -= M;
            }
            let n = p.on_ack(M, pipe);
            sent.push(n / M);
            p.on_sent(n);
            pipe += n;
        }
        assert_eq!(
            sent,
            vec![1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1],
            "R, N on every other ACK, then one per ACK at ssthresh"
        );
        assert_eq!((p.delivered(), p.out(), pipe), (17 * M, 10 * M, 10 * M));
    }

    /// The reduction bounds once pipe is at or below ssthresh (RFC 6937 §3.1), by hand:
    /// ssthresh = 10, RecoverFS = 20 segments; after deliveries of 8 segments and 4 sent, an
    /// ACK that delivers 2 more finds pipe = 4. CRB: limit = 10 − 4 = 6, sndcnt = min(10 − 4,
    /// 6) = 6. SSRB: limit = max(6, 2) + 1 = 7, sndcnt = min(6, 7) = 6. With pipe = 2 the
    /// bound decides: CRB min(8, 6) = 6, SSRB min(8, 7) = 7.
    #[test]
    fn the_reduction_bounds_by_hand() {
        for (bound, pipe, want) in [
            (PrrBound::Conservative, 4, 6),
            (PrrBound::SlowStart, 4, 6),
            (PrrBound::Conservative, 2, 6),
            (PrrBound::SlowStart, 2, 7),
        ] {
            let mut p = Prr::start(bound, MSS, 10 * MSS, 20 * M);
            // Eight segments delivered while pipe was above ssthresh: ⌈8·10/20⌉ = 4 sent.
            assert_eq!(p.on_ack(8 * M, 12 * M), 4 * M);
            p.on_sent(4 * M);
            assert_eq!(p.on_ack(2 * M, pipe * M), want * M, "{bound:?} pipe {pipe}");
        }
        // CRB never sends more than was delivered: with nothing delivered, nothing goes.
        let mut p = Prr::start(PrrBound::Conservative, MSS, 10 * MSS, 20 * M);
        assert_eq!(p.on_ack(0, 3 * M), 0);
        // SSRB sends one segment beyond what was delivered (slow start).
        let mut p = Prr::start(PrrBound::SlowStart, MSS, 10 * MSS, 20 * M);
        assert_eq!(p.on_ack(0, 3 * M), M);
    }
}
