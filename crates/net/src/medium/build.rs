//! Building media from the validated configuration (crate::config): one construction arm per
//! medium. A link's medium serves its two directions (a half-duplex hop, a two-member DCF cell)
//! or one medium serves each (full duplex, GSM); a cell's medium is built empty with the cell
//! and each of its links joins it ([`AnyMedium::join_cell`]).
//!
//! Every random stream derives from the run's seed and the link's or the cell's key
//! (crate::keys), so the order in which media are built changes no draw.

use super::dcf::Dcf;
use super::duplex::Duplex;
use super::gsm::{BlockTrace, Gsm, LinkReset};
use super::shared::Shared;
use super::AnyMedium;
use crate::config::{BlockSource, CellConfig, DirectionConfig, LinkConfig, Medium};
use crate::keys;
use engine::{PortId, RngStream};
use std::sync::Arc;

/// The media of a link outside any cell.
// Built once per link and unpacked at once by `Network::new`: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum LinkMedia {
    /// One medium serves both directions.
    Both(AnyMedium),
    /// One medium per direction: forward, then reverse.
    Each(AnyMedium, AnyMedium),
}

impl AnyMedium {
    /// The media of `link`, a link of no cell, whose directions send on the ports `fwd` (a to
    /// b) and `rev` (b to a).
    pub(crate) fn for_link(
        link: &LinkConfig,
        (fwd, rev): (PortId, PortId),
        seed: u64,
    ) -> LinkMedia {
        match &link.hop.medium {
            Medium::FullDuplex => LinkMedia::Each(
                AnyMedium::Duplex(Duplex::new(fwd)),
                AnyMedium::Duplex(Duplex::new(rev)),
            ),
            Medium::HalfDuplex { contention } => {
                let crng = RngStream::new(seed, &keys::contention(&link.key));
                LinkMedia::Both(AnyMedium::Shared(Shared::new(
                    vec![fwd, rev],
                    Some((*contention, crng)),
                )))
            }
            Medium::Dcf(d) => {
                // Each end is a member with its own backoff stream.
                let backoff = |end: u32| RngStream::new(seed, &keys::dcf_backoff(&link.key, end));
                LinkMedia::Both(AnyMedium::Dcf(Dcf::new(
                    *d,
                    vec![
                        (vec![fwd], backoff(link.a.0)),
                        (vec![rev], backoff(link.b.0)),
                    ],
                )))
            }
            Medium::Gsm(g) => {
                // A fixed realization of the gaps (l2r.draw n) is the same for every seed.
                let l2r_seed = match g.l2r {
                    Some(l) if l.draw > 0 => u64::from(l.draw),
                    _ => seed,
                };
                let l2r = |dir: &str| RngStream::new(l2r_seed, &keys::l2r_gaps(&link.key, dir));
                // Each direction knows the other's channel (RFC 2507's header requests).
                let (bf, br) = (
                    blocks(link, &link.hop.forward, "forward", seed),
                    blocks(link, &link.hop.reverse, "reverse", seed),
                );
                // One RLP link: a reset is both directions' (GsmConfig::link_reset).
                let reset = LinkReset::default();
                LinkMedia::Each(
                    AnyMedium::Gsm(Box::new(
                        Gsm::new(fwd, g.clone(), bf.clone(), l2r("forward"))
                            .with_reverse(br.clone())
                            .with_link_reset(&reset),
                    )),
                    AnyMedium::Gsm(Box::new(
                        Gsm::new(rev, g.clone(), br, l2r("reverse"))
                            .with_reverse(bf)
                            .with_link_reset(&reset),
                    )),
                )
            }
        }
    }

    /// The medium of `cell`, without members yet: its links join it with
    /// [`AnyMedium::join_cell`].
    pub(crate) fn for_cell(cell: &CellConfig, seed: u64) -> AnyMedium {
        match cell.dcf {
            None => {
                let crng = RngStream::new(seed, &keys::contention(&cell.key));
                AnyMedium::Shared(Shared::new(Vec::new(), Some((cell.contention, crng))))
            }
            // The access point is member 0; its stream like a station's.
            Some(d) => {
                let mut dcf = Dcf::new(
                    d,
                    vec![(
                        Vec::new(),
                        RngStream::new(seed, &keys::dcf_backoff(&cell.key, cell.access_point.0)),
                    )],
                );
                // How the access point picks its next station (crate::medium::dcf::airtime).
                dcf.set_ap_scheduler(cell.ap_scheduler);
                // A-MPDU aggregation (crate::medium::dcf::ampdu).
                dcf.set_ampdu(cell.ampdu);
                // One FIFO over its stations' queues, or each in turn (crate::ifq).
                dcf.set_ap_queue(cell.ap_queue);
                AnyMedium::Dcf(dcf)
            }
        }
    }

    /// `link` of `cell`, with ports `fwd` (a to b) and `rev` (b to a), joins the cell's medium.
    pub(crate) fn join_cell(
        &mut self,
        cell: &CellConfig,
        link: &LinkConfig,
        (fwd, rev): (PortId, PortId),
        seed: u64,
    ) {
        match self {
            AnyMedium::Shared(s) => {
                s.add_port(fwd);
                s.add_port(rev);
            }
            AnyMedium::Dcf(d) => {
                // The access point's side of the link joins member 0; the station is a member
                // of its own.
                let (ap_port, sta_port, sta) = if link.a == cell.access_point {
                    (fwd, rev, link.b)
                } else {
                    (rev, fwd, link.a)
                };
                let srng = RngStream::new(seed, &keys::dcf_backoff(&cell.key, sta.0));
                d.add_link(ap_port, sta_port, srng);
                // A PHY mode's own ACK rate (crate::medium::dcf::phy).
                for (p, dir) in [(fwd, &link.hop.forward), (rev, &link.hop.reverse)] {
                    if let Some(mode) = dir.phy {
                        d.set_port_mode(p, mode);
                    }
                    if dir
                        .wlan
                        .as_deref()
                        .is_some_and(super::dcf::snr::Wlan::adapts_cfg)
                    {
                        d.set_adaptive();
                    }
                }
            }
            AnyMedium::Duplex(_) | AnyMedium::Gsm(_) => {}
        }
    }
}

/// The block erasures of a GSM link's direction `d` (named `dir` in its stream's key).
fn blocks(link: &LinkConfig, d: &DirectionConfig, dir: &str, seed: u64) -> Option<Arc<BlockTrace>> {
    match d.blocks.as_deref() {
        None => None,
        Some(BlockSource::Trace(t)) => Some(t.clone()),
        Some(BlockSource::Profile {
            profile,
            minutes,
            draw,
            fades,
            clustering,
        }) => {
            // A fixed realization (draw n) is the same for every seed.
            let stream_seed = if *draw == 0 { seed } else { u64::from(*draw) };
            let mut r = RngStream::new(stream_seed, &keys::block_erasures(&link.key, dir));
            let t = match clustering {
                None => profile.generate(*minutes, &mut r),
                Some(c) => crate::medium::gsm::Clustered {
                    profile: *profile,
                    clustering: *c,
                }
                .generate(
                    *minutes,
                    &mut RngStream::new(stream_seed, &keys::block_minutes(&link.key, dir)),
                    &mut r,
                ),
            };
            Some(Arc::new(match fades {
                // Keyed by the link, not the direction: one radio channel fades both ways.
                Some(f) => f.overlay(
                    &t,
                    &mut RngStream::new(stream_seed, &keys::deep_fades(&link.key)),
                ),
                None => t,
            }))
        }
    }
}
