//! Packet scripts: each mechanism's signature behaviour, driven segment by segment at explicit
//! times (DESIGN.md rule 9), one module per mechanism or paper. `net` is the two-host path with
//! a bottleneck that the later scripts run on; `bsd_reno` the BSD Reno sender and receiver with
//! the helpers (`ack`, `ms`, `drain`, ...) the older scripts share.

pub(crate) mod bbr;
pub(crate) mod bsd_reno;
pub(crate) mod cubic;
pub(crate) mod cubic_friendly;
pub(crate) mod cubic_one_cut;
pub(crate) mod cubic_timeout;
pub(crate) mod dcr;
pub(crate) mod drs;
pub(crate) mod e2e;
pub(crate) mod ecn;
pub(crate) mod eifel;
pub(crate) mod eln_hack;
pub(crate) mod elsn;
pub(crate) mod frto;
pub(crate) mod grow_quickack;
pub(crate) mod hack;
pub(crate) mod hystart;
pub(crate) mod hystart_linux;
pub(crate) mod idle;
pub(crate) mod linux;
pub(crate) mod linux_reno;
pub(crate) mod llelsn_cc;
pub(crate) mod loss_window;
pub(crate) mod nagle;
pub(crate) mod net;
pub(crate) mod newreno_ns2;
pub(crate) mod ns2_path;
pub(crate) mod ns2_rto;
pub(crate) mod prr;
pub(crate) mod rack;
pub(crate) mod rearm;
pub(crate) mod relay;
pub(crate) mod reno_ns2;
pub(crate) mod sack;
pub(crate) mod syn;
pub(crate) mod tcp_eln;
pub(crate) mod tcp_eln_over;
pub(crate) mod wscale;

/// The retransmission timer most of today's scripts run: RFC 6298 with Linux's 200 ms floor,
/// RFC 6298's 60 s ceiling and 1 s initial value, and a 1 ms clock.
pub(crate) fn rto_200ms() -> crate::sender::RtoPart {
    crate::rto::Rfc6298Rto::new(crate::rto::Rfc6298Config {
        min: engine::SimDuration::from_millis(200),
        max: engine::SimDuration::from_secs(60),
        initial: engine::SimDuration::from_secs(1),
        granularity: engine::SimDuration::from_millis(1),
    })
    .into()
}
