//! Building the ACK (or the SYN-ACK) a [`Receiver`] sends: its options (timestamps, SACK
//! blocks, SMART, ELN, the corruption counter, a NACK, the congestion-warning echo) and the
//! window it advertises; `Receiver::poll_transmit` calls it only when one is due.

use super::Receiver;
use crate::segment::{SackBlocks, SegOptions, Segment, Timestamps};
use engine::SimTime;

impl Receiver {
    /// [`Receiver::poll_transmit`] with a SYN-ACK or an ACK due.
    #[inline(never)]
    pub(super) fn build_ack(&mut self, now: SimTime) -> Option<Segment> {
        if self.syn_ack {
            self.syn_ack = false;
            return Some(Segment {
                seq: self.own_seq.plus(u32::MAX),
                ack: self.space.seq(self.rcv_nxt),
                len: 0,
                wnd: self.window().min(65535),
                ack_flag: true,
                opts: SegOptions {
                    ts: self.cfg.timestamps.map(|g| Timestamps {
                        val: (now.as_nanos() / g.as_nanos().max(1)) as u32 + 1,
                        ecr: self.ts_recent,
                    }),
                    syn: Some(self.cfg.mss.min(65535) as u16),
                    // RFC 7323 §2.2: the SYN-ACK announces the shift; its own window field is
                    // never scaled.
                    wscale: self.cfg.window_shift,
                    ..SegOptions::default()
                },
            });
        }
        if !self.ack_now {
            return None;
        }
        self.ack_now = false;
        self.delack_at = None;
        self.stats.acks_sent += 1;
        if self.rcv_nxt == self.last_ack {
            self.stats.dupacks_sent += 1;
        }
        self.last_ack = self.rcv_nxt;
        let rcv_nxt = self.rcv_nxt;
        self.corrupted.retain(|&(_, e)| e > rcv_nxt);
        let eln = self.cfg.eln
            && self
                .corrupted
                .iter()
                .any(|&(s, e)| s <= rcv_nxt && rcv_nxt < e);
        if eln {
            self.stats.eln_acks_sent += 1;
        }
        let mut opts = SegOptions {
            syn: None,
            ts: self.cfg.timestamps.map(|g| Timestamps {
                val: (now.as_nanos() / g.as_nanos().max(1)) as u32 + 1,
                ecr: self.ts_recent,
            }),
            sack: SackBlocks::EMPTY,
            smart: if self.cfg.smart {
                self.trigger.map(|t| self.space.seq(t))
            } else {
                None
            },
            eln,
            // Every ACK carries the count once it is nonzero; before the first corruption the
            // option is left out (absent reads as 0), so that a clean connection's packets are
            // byte for byte Reno's (spec §3.1 point 12, T002-1).
            cc: (self.cfg.corruption_counter && self.stats.corruption_count > 0)
                .then_some(self.stats.corruption_count as u32),
            nack: None,
            cw: std::mem::take(&mut self.cw_echo),
            wscale: None,
            wnd_shift: self.cfg.window_shift.unwrap_or(0),
            ecn: crate::segment::EcnBits {
                ece: self.ece,
                ..crate::segment::EcnBits::CLEAR
            },
        };
        self.stats.ece_acks_sent += u64::from(self.ece);
        if !self.nacks.is_empty() {
            let off = self.nacks.remove(0);
            opts.nack = Some(self.space.seq(off));
            self.stats.nacks_sent += 1;
            // One notification per ACK: the next one goes at once.
            self.ack_now = !self.nacks.is_empty();
        }
        if self.cfg.sack {
            // Only as many blocks as fit beside the other options (40 bytes in all).
            opts.sack = self.sack_blocks(opts.sack_room());
        }
        let wnd = self.window();
        self.adv_right = self.rcv_nxt + u64::from(wnd);
        Some(Segment {
            seq: self.own_seq,
            ack: self.space.seq(self.rcv_nxt),
            len: 0,
            wnd,
            ack_flag: true,
            opts,
        })
    }
}
