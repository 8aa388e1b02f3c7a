//! Differential tests of the DCF: the medium against the oracle of oracle.rs (every member
//! scanned on every wake, as the medium was first written), on random cells, configurations and
//! traffic. Both run against the same deterministic fake network, driven like the real event
//! loop (one queue ordered by time, then by the order scheduled); every call they make on the
//! network is logged, and the two logs, the counters and the frames left must be identical.

use super::super::{Air, Frame, MacAir};
use super::oracle::ScanDcf;
use super::*;
use proptest::prelude::*;

/// What the fake network does next: a wake-up the medium asked for, or a frame put in a port.
#[derive(Clone, Copy, Debug)]
enum Ev {
    Wake(u32),
    Arrive(u32),
}

/// A fake network whose channel and traffic follow its own generator, so that two media making
/// the same calls see the same answers.
struct DiffAir {
    waiting: Vec<u32>,
    log: Vec<String>,
    queue: Vec<(SimTime, u64, Ev)>,
    seq: u64,
    rng: u64,
    /// Per mille of attempts corrupted, and of MAC ACKs lost.
    corrupt: u64,
    ack_loss: u64,
    /// Per mille of deliveries that put a frame (an answer) in the peer port.
    answer: u64,
}

impl DiffAir {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn push(&mut self, at: SimTime, ev: Ev) {
        self.queue.push((at, self.seq, ev));
        self.seq += 1;
    }

    fn pop(&mut self) -> Option<(SimTime, Ev)> {
        let (k, _) = self
            .queue
            .iter()
            .enumerate()
            .min_by_key(|(_, (t, s, _))| (*t, *s))?;
        let (t, _, ev) = self.queue.swap_remove(k);
        Some((t, ev))
    }
}

impl Air for DiffAir {
    fn take(&mut self, now: SimTime, port: PortId) -> Option<Frame> {
        let w = self.waiting.get_mut(port.index())?;
        if *w == 0 {
            self.log.push(format!("{} none {port}", now.as_nanos()));
            return None;
        }
        *w -= 1;
        self.log.push(format!("{} take {port}", now.as_nanos()));
        Some(Frame(crate::packet::PacketRef::dangling()))
    }
    fn transmit(&mut self, _: SimTime, _: PortId, _: Frame, _: SimDuration) -> SimDuration {
        unreachable!("the DCF attempts, it never transmits")
    }
    fn wake(&mut self, at: SimTime, tag: u32) {
        self.log.push(format!("wake {} {tag}", at.as_nanos()));
        self.push(at, Ev::Wake(tag));
    }
    fn sent(&mut self, _: SimTime, _: PortId) {
        unreachable!("the DCF delivers, it never reports a sent frame")
    }
}

impl MacAir for DiffAir {
    fn attempt(&mut self, now: SimTime, port: PortId, _: &Frame) -> (SimDuration, bool) {
        // Airtimes differ (a collision's frames end apart), some attempts are corrupted.
        let airtime = SimDuration::from_micros(200 + self.next() % 1500);
        let bad = self.next() % 1000 < self.corrupt;
        self.log
            .push(format!("{} try {port} {} {bad}", now.as_nanos(), airtime.0));
        (airtime, bad)
    }
    fn ack_lost(&mut self, now: SimTime, port: PortId, bits: u64) -> bool {
        let lost = self.next() % 1000 < self.ack_loss;
        self.log
            .push(format!("{} ack {port} {bits} {lost}", now.as_nanos()));
        lost
    }
    fn control_lost(
        &mut self,
        _now: SimTime,
        _port: PortId,
        _bits: u64,
        _mode: super::phy::Mode,
    ) -> bool {
        false // no BlockAckReq without aggregation
    }
    fn deliver(&mut self, now: SimTime, port: PortId, _: Frame) {
        self.log.push(format!("{} deliver {port}", now.as_nanos()));
        if self.next() % 1000 < self.answer {
            let peer = PortId(port.0 ^ 1);
            let at = now + SimDuration::from_micros(self.next() % 3000);
            self.push(at, Ev::Arrive(peer.0));
        }
    }
    fn discard(&mut self, now: SimTime, port: PortId, _: Frame) {
        self.log.push(format!("{} drop {port}", now.as_nanos()));
    }
    fn lose(&mut self, now: SimTime, port: PortId, _: Frame) {
        self.log.push(format!("{} lose {port}", now.as_nanos()));
    }
    fn first_retry(&mut self, now: SimTime, port: PortId, _: &Frame) {
        self.log.push(format!("{} retry1 {port}", now.as_nanos()));
    }
    fn header_up(&mut self, end: SimTime, port: PortId, _: &Frame) {
        self.log.push(format!("{} header {port}", end.as_nanos()));
    }
    fn mpdu_bytes(&self, _: PortId, _: &Frame) -> u64 {
        1500
    }
    fn attempt_mpdu(
        &mut self,
        (start, _): (SimTime, SimDuration),
        port: PortId,
        _: &Frame,
        _: (bool, bool),
    ) -> bool {
        let bad = self.next() % 1000 < self.corrupt;
        self.log
            .push(format!("{} mpdu {port} {bad}", start.as_nanos()));
        bad
    }
}

/// A scenario: the cell, its configuration and its traffic.
#[derive(Clone, Debug)]
struct Case {
    cfg: DcfConfig,
    stations: u32,
    seed: u64,
    /// Frames put in ports at the start: (time µs, port); ports past the cell's are others'.
    arrivals: Vec<(u64, u32)>,
    corrupt: u64,
    ack_loss: u64,
    answer: u64,
}

/// The medium under test, or the oracle.
trait Cell {
    fn ready(&mut self, now: SimTime, port: PortId, air: &mut DiffAir);
    fn wake(&mut self, now: SimTime, tag: u32, air: &mut DiffAir);
    fn stats(&self) -> Vec<DcfStats>;
    /// Check the medium's own invariants after a call.
    fn check(&self) {}
    /// Whether the medium says it ignores this wake-up (`Dcf::ignores`).
    fn ignores(&self, _now: SimTime, _tag: u32) -> bool {
        false
    }
}

impl Cell for Dcf {
    fn ready(&mut self, now: SimTime, port: PortId, air: &mut DiffAir) {
        self.on_ready(now, port, air);
    }
    fn wake(&mut self, now: SimTime, tag: u32, air: &mut DiffAir) {
        self.on_wake(now, tag, air);
    }
    fn stats(&self) -> Vec<DcfStats> {
        Dcf::stats(self)
    }
    fn check(&self) {
        check_sets(self);
    }
    fn ignores(&self, now: SimTime, tag: u32) -> bool {
        Dcf::ignores(self, now, tag)
    }
}

/// The member sets hold exactly the members in their phases, and `counting_end` is the
/// earliest end of the counting members' countdowns.
fn check_sets(d: &Dcf) {
    let mut end: Option<SimTime> = None;
    for (i, m) in d.members.iter().enumerate() {
        let (counting, frozen, waiting) = match m.phase {
            Phase::Backoff {
                slots,
                from: Some(f),
            } => {
                let t = f + d.cfg.slot.saturating_mul(u64::from(slots));
                end = Some(end.map_or(t, |n| n.min(t)));
                (true, false, false)
            }
            Phase::Backoff { from: None, .. } => (false, true, false),
            Phase::Waiting { .. } => (false, false, true),
            Phase::Empty | Phase::Sending { .. } => (false, false, false),
        };
        assert_eq!(d.counting.contains(i), counting, "member {i} counting");
        assert_eq!(d.frozen.contains(i), frozen, "member {i} frozen");
        assert_eq!(d.waiting.contains(i), waiting, "member {i} waiting");
        assert!(m.defer_at <= d.exchanges);
    }
    assert_eq!(d.counting_end, end);
}

impl Cell for ScanDcf {
    fn ready(&mut self, now: SimTime, port: PortId, air: &mut DiffAir) {
        self.on_ready(now, port, air);
    }
    fn wake(&mut self, now: SimTime, tag: u32, air: &mut DiffAir) {
        self.on_wake(now, tag, air);
    }
    fn stats(&self) -> Vec<DcfStats> {
        ScanDcf::stats(self)
    }
}

/// Run `cell` through `case` until its queue is empty or 4000 events have happened: the log,
/// the counters and the frames left in the ports.
fn run<C: Cell>(cell: &mut C, case: &Case) -> (Vec<String>, Vec<DcfStats>, Vec<u32>) {
    let mut air = DiffAir {
        waiting: vec![0; 2 * case.stations as usize + 2],
        log: Vec::new(),
        queue: Vec::new(),
        seq: 0,
        rng: case.seed | 1,
        corrupt: case.corrupt,
        ack_loss: case.ack_loss,
        answer: case.answer,
    };
    for &(t, p) in &case.arrivals {
        let port = p % (2 * case.stations + 2);
        air.push(SimTime(t * 1000), Ev::Arrive(port));
    }
    for _ in 0..4000 {
        let Some((now, ev)) = air.pop() else { break };
        match ev {
            Ev::Wake(tag) => {
                // A wake-up the medium ignores (the network skips the call) makes no call on
                // the network; the states compared at the end show it changed nothing either.
                let ignored = cell.ignores(now, tag);
                let calls = air.log.len();
                cell.wake(now, tag, &mut air);
                assert!(!ignored || air.log.len() == calls);
            }
            Ev::Arrive(p) => {
                air.waiting[p as usize] += 1;
                cell.ready(now, PortId(p), &mut air);
            }
        }
        cell.check();
    }
    (air.log, cell.stats(), air.waiting)
}

fn members(case: &Case) -> Vec<(Vec<PortId>, RngStream)> {
    vec![(Vec::new(), RngStream::new(case.seed, "ap"))]
}

fn both(case: &Case) {
    let mut new = Dcf::new(case.cfg, members(case));
    let mut old = ScanDcf::new(case.cfg, members(case));
    for s in 0..case.stations {
        let rng = RngStream::new(case.seed, &format!("sta{s}"));
        new.add_link(PortId(2 * s), PortId(2 * s + 1), rng.clone());
        old.add_link(PortId(2 * s), PortId(2 * s + 1), rng);
    }
    let (log_new, stats_new, left_new) = run(&mut new, case);
    let (log_old, stats_old, left_old) = run(&mut old, case);
    let ports = 2 * case.stations;
    if case.arrivals.iter().any(|&(_, p)| p % (ports + 2) < ports) {
        assert!(log_old.iter().any(|l| l.contains("try")));
    }
    if let Some(k) = (0..log_new.len().min(log_old.len())).find(|&k| log_new[k] != log_old[k]) {
        let from = k.saturating_sub(8);
        panic!(
            "the logs part at line {k}:\nnew {:#?}\nold {:#?}",
            &log_new[from..(k + 4).min(log_new.len())],
            &log_old[from..(k + 4).min(log_old.len())]
        );
    }
    assert_eq!(log_new.len(), log_old.len());
    assert_eq!(stats_new, stats_old);
    assert_eq!(left_new, left_old);
}

fn config() -> impl Strategy<Value = DcfConfig> {
    (
        prop::sample::select(vec![0u32, 1, 3, 7, 15, 31]),
        prop::sample::select(vec![0u32, 7, 63, 1023]),
        1u32..8,
        prop::sample::select(vec![0u64, 0, 100, 2000]),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.8),
        any::<bool>(),
        prop::sample::select(vec![20_000u64, 9_000, 1_000, 7]),
    )
        .prop_map(
            |(cw_min, cw_max, retry_limit, delay, mac_ack, collisions, hp, slot)| DcfConfig {
                slot: SimDuration(slot),
                cw_min,
                cw_max: cw_max.max(cw_min),
                retry_limit,
                retry_delay: SimDuration::from_micros(delay),
                mac_ack,
                collisions,
                header_protection: hp,
                ..DcfConfig::B_LONG_1M
            },
        )
}

fn case(stations: impl Strategy<Value = u32>) -> impl Strategy<Value = Case> {
    (
        config(),
        stations,
        any::<u64>(),
        prop::collection::vec((0u64..20_000, 0u32..200), 1..60),
        prop::sample::select(vec![0u64, 50, 300, 900]),
        prop::sample::select(vec![0u64, 20, 300]),
        prop::sample::select(vec![0u64, 500, 1000]),
    )
        .prop_map(
            |(cfg, stations, seed, arrivals, corrupt, ack_loss, answer)| Case {
                cfg,
                stations,
                seed,
                arrivals,
                corrupt,
                ack_loss,
                answer,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn small_cells_match_the_scanning_oracle(c in case(1u32..13)) {
        both(&c);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// More members than one 64-bit word holds.
    #[test]
    fn large_cells_match_the_scanning_oracle(c in case(60u32..140)) {
        both(&c);
    }
}

#[test]
fn the_benchmark_cell_matches_the_scanning_oracle() {
    // Ten stations, 802.11b, answers to most deliveries: the reference cell's shape.
    let case = Case {
        cfg: DcfConfig::B_LONG_1M,
        stations: 10,
        seed: 7,
        arrivals: (0..200).map(|k| (k * 37 % 5000, (k * 7) as u32)).collect(),
        corrupt: 50,
        ack_loss: 20,
        answer: 1000,
    };
    both(&case);
}
