//! Unit tests of the `port` module.

use super::*;
use crate::config::Exposure;
use crate::packet::test_packet;
use crate::ErrorModelConfig;

/// A 1 Mb/s direction without errors.
fn port() -> Port {
    let cfg = DirectionConfig {
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
    };
    port_with(cfg)
}

fn port_with(cfg: DirectionConfig) -> Port {
    let rngs = (RngStream::new(1, "test"), RngStream::new(1, "test/header"));
    Port::new(
        (PortId(0), PortId(1)),
        HopId(0),
        HopRole::Wired,
        (NodeId(0), NodeId(1)),
        0,
        cfg,
        rngs,
    )
}

fn ms(x: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(x)
}

#[test]
fn airtime_after_the_end_of_the_run_is_left_out() {
    let mut p = port();
    // 1000 bytes of IP: 8 ms at 1 Mb/s, after a 2 ms wait; then a second frame at 10 ms.
    let pkt = test_packet(1, 960);
    let ip = pkt.ip_len();
    assert_eq!(ip, 1000);
    let (air, _) = p.transmit(
        SimTime::ZERO,
        &crate::packet::Head::of(&pkt),
        SimDuration::from_millis(2),
    );
    assert_eq!(air, SimDuration::from_millis(10));
    p.transmit(ms(10), &crate::packet::Head::of(&pkt), SimDuration::ZERO);
    assert_eq!(p.stats.busy_ns, 18_000_000);
    assert_eq!(p.stats.busy_until_ns, 18_000_000);
    // Ended at 14 ms: the second frame's last 4 ms are outside; at or after 18 ms nothing.
    assert_eq!(p.busy_ns_until(ms(14)), 14_000_000);
    assert_eq!(p.busy_ns_until(ms(18)), 18_000_000);
    assert_eq!(p.busy_ns_until(ms(30)), 18_000_000);
}

/// With a PHY mode the frame's airtime is the mode's TXTIME of the frame with its framing
/// (crate::medium::dcf::phy), even at a rate whose bit time is whole nanoseconds (1 Mb/s DSSS
/// keeps its 192 µs PLCP).
#[test]
fn a_phy_mode_sets_the_airtime() {
    use crate::medium::dcf::phy::Mode;
    let pkt = test_packet(1, 960);
    let mut cfg = port().cfg.clone();
    cfg.framing_bytes = 36;
    cfg.phy = Some(Mode::Dsss {
        rate_bps: 1_000_000,
        plcp: SimDuration::from_micros(192),
    });
    let (air, _) = port_with(cfg.clone()).transmit(
        SimTime::ZERO,
        &crate::packet::Head::of(&pkt),
        SimDuration::ZERO,
    );
    assert_eq!(air, SimDuration::from_micros(192 + 1036 * 8));
    cfg.rate_bps = 54_000_000;
    cfg.phy = Mode::ofdm(54, false);
    let (air, _) = port_with(cfg).transmit(
        SimTime::ZERO,
        &crate::packet::Head::of(&pkt),
        SimDuration::ZERO,
    );
    // ⌈(16 + 8288 + 6) / 216⌉ = 39 symbols after 20 µs.
    assert_eq!(air, SimDuration::from_micros(20 + 4 * 39));
}
