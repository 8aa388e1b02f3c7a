//! The DCF with the PHY's per-port ACK times and the access point's airtime scheduler
//! (explicit times and counts against the FakeAir of crate::medium::shared).

use crate::medium::dcf::airtime::{ApScheduler, LINUX_QUANTUM};
use crate::medium::dcf::tests::cell;
use crate::medium::dcf::{Dcf, DcfConfig};
use crate::medium::shared::tests::FakeAir;
use crate::medium::Medium;
use engine::{PortId, RngStream, SimDuration, SimTime};

/// Deliver the wake-ups in time order (ties in the order asked) up to `limit`.
fn drive(m: &mut Dcf, air: &mut FakeAir, limit: SimTime) {
    while let Some((k, _)) = air
        .wakes
        .iter()
        .enumerate()
        .min_by_key(|(i, (t, _))| (*t, *i))
    {
        let (t, tag) = air.wakes.remove(k);
        if t > limit {
            return;
        }
        m.on_wake(t, tag, air);
    }
}

/// A frame from a port with its own ACK time (an OFDM mode's 24 Mb/s ACK, 28 µs) is delivered
/// SIFS + 28 µs after its end, not after the cell's 304 µs 802.11b ACK.
#[test]
fn a_ports_phy_mode_sets_its_ack_time() {
    let mut d = cell(DcfConfig::B_LONG_1M, 1);
    d.set_port_ack(PortId(0), SimDuration::from_micros(28));
    let mut air = FakeAir::new(vec![1, 0]);
    d.on_ready(SimTime::ZERO, PortId(0), &mut air);
    drive(&mut d, &mut air, SimTime(1_000_000_000));
    let b = RngStream::new(1, "ap").below(32);
    let t = 50 + 20 * b;
    let delivered: Vec<&String> = air.log.iter().filter(|l| l.contains("deliver")).collect();
    assert_eq!(
        delivered,
        [&format!("{} deliver port0", (t + 1000 + 10 + 28) * 1000)]
    );
}

/// The access point with a slow station (10 ms frames) and a fast one (1 ms), both
/// backlogged: by frames each gets the same number of frames (the anomaly: the slow one
/// takes 10/11 of the air); by airtime each gets half the air, ten fast frames per slow one.
#[test]
fn airtime_fairness_shares_the_access_points_airtime() {
    let count = |sched: ApScheduler| {
        let mut d = cell(DcfConfig::B_LONG_1M, 2);
        d.set_ap_scheduler(sched);
        let mut air = FakeAir::new(vec![10_000, 0, 10_000, 0]);
        air.slow_ports = vec![PortId(0)];
        d.on_ready(SimTime::ZERO, PortId(0), &mut air);
        d.on_ready(SimTime::ZERO, PortId(2), &mut air);
        drive(&mut d, &mut air, SimTime(5_000_000_000));
        let n = |p: &str| air.log.iter().filter(|l| l.ends_with(p)).count() as f64;
        (n("try port0"), n("try port2"))
    };
    let (slow, fast) = count(ApScheduler::Frames);
    assert!((slow - fast).abs() <= 1.0, "{slow} {fast}");
    let (slow, fast) = count(ApScheduler::airtime(LINUX_QUANTUM).unwrap());
    let share = 10.0 * slow / (10.0 * slow + fast);
    assert!((share - 0.5).abs() < 0.02, "slow {slow}, fast {fast}");
}
