//! Packet-level script of BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00) on a clean
//! bottleneck: 10 Mb/s with 40 bytes of headers per 1460-byte segment (a payload rate of
//! 10⁷/8 · 1460/1500 = 1 216 667 B/s), 20 ms of propagation each way, a 200-packet drop-tail
//! queue that never overflows, every segment acknowledged at once with SACK. The receiver
//! advertises 4 MB, as it would with window scaling: with the simulator's 16-bit windows
//! (65 535 bytes, 1.3 BDP here) the flight could never reach the 5/4 BDP of ProbeBW's probing
//! phase, which then would not end. The sender is a bulk source with the RFC 6675 SACK sender,
//! BBR and pacing; the script samples BBR's model every millisecond for 12 s.

use crate::cc::{BbrCc, ModelState};
use crate::recovery::{SackFlavor, SackRecovery};
use crate::tests::net::{Log, Path};
use crate::tests::prr::{ms, rfc6298};
use crate::{
    CcPart, DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum,
    SeqSpace,
};
use engine::{SimDuration, SimTime};

const MSS: u32 = 1460;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(77) };
/// The bottleneck's payload rate, bytes per second.
const PAYLOAD_RATE: f64 = 10e6 / 8.0 * 1460.0 / 1500.0;

/// BBR's model every millisecond: (time, model, cwnd).
fn run_bbr(until_ms: u64) -> (Path, Vec<(SimTime, ModelState, u32)>) {
    let parts = SenderParts {
        cc: CcPart::custom(BbrCc::new(MSS, 10 * MSS, 1 << 24, 3)),
        recovery: SackRecovery::new(SackFlavor::Rfc6675, MSS, 3).into(),
        rto: rfc6298().into(),
        eifel: None,
    };
    let cfg = SenderConfig {
        initial_peer_window: 4 << 20,
        ..SenderConfig::new(MSS, 4 << 20)
    };
    let mut s = Sender::new(cfg, parts, SPACE, 1 << 40);
    s.seed_rtt(ms(0), ms(40));
    let r = Receiver::new(
        ReceiverConfig {
            sack: true,
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        1 << 40,
        SeqNum(5),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(20));
    p.ps_per_byte = 800_000; // 0.8 µs per byte: 10 Mb/s
    p.overhead = 40;
    p.queue_limit = 200;
    p.ack_window = Some(4 << 20);
    let mut samples = Vec::new();
    for t in 1..=until_ms {
        p.run_until(ms(t));
        let m = p.sender.model().expect("BBR has a model");
        samples.push((ms(t), m, p.sender.cwnd()));
    }
    (p, samples)
}

#[test]
fn bbr_finds_the_bottleneck_leaves_startup_in_time_and_cycles_its_gains() {
    let (p, samples) = run_bbr(12_000);
    assert!(
        !p.log.iter().any(|(_, l)| matches!(l, Log::Lost { .. })),
        "a clean path: nothing lost"
    );
    let st = *p.sender.stats();
    assert_eq!((st.timeouts, st.fast_retransmits), (0, 0));

    // Pacing: once BBR has a rate sample (the first ACK, at 41.2 ms), no two segments leave
    // closer than one segment at the highest pacing rate, 2.885 · BtlBw (0.42 ms); by the ACK
    // clock alone, Startup would send two segments back to back on every ACK.
    let sends = p.sent_between(ms(42), ms(12_000));
    let min_gap = sends
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).as_nanos())
        .min()
        .expect("sends");
    let floor = f64::from(MSS) / (2.885 * PAYLOAD_RATE) * 1e9;
    eprintln!("smallest gap between sends {min_gap} ns (pacing floor {floor:.0} ns)");
    assert!(min_gap as f64 >= floor * 0.99, "{min_gap} ns");

    // Bandwidth: within 5 % of the bottleneck's payload rate once out of Startup.
    let err = |bw: u64| (bw as f64 - PAYLOAD_RATE).abs() / PAYLOAD_RATE;
    let after_startup: Vec<_> = samples
        .iter()
        .filter(|(t, m, _)| m.mode != "startup" && *t > ms(1000))
        .collect();
    let worst = after_startup
        .iter()
        .map(|(_, m, _)| err(m.bw))
        .fold(0.0, f64::max);
    eprintln!(
        "bandwidth estimate: worst error {:.2} % after 1 s",
        100.0 * worst
    );
    assert!(worst < 0.05, "BtlBw off by {:.2} %", 100.0 * worst);

    // Startup ends within three round trips of the pipe filling. The pipe fills in the round
    // whose ACKs first show the bottleneck rate (within 5 %); BBR's growth check at the start
    // of the next round still sees that round's growth, then three rounds without 25 % more
    // (the draft's full-pipe rule) end Startup at the first ACK after them.
    let round_end = |r: u64| {
        samples
            .iter()
            .rfind(|(_, m, _)| m.round == r)
            .map(|(t, _, _)| *t)
    };
    let filled = samples
        .iter()
        .find(|(_, m, _)| err(m.bw) < 0.05)
        .map(|(t, m, _)| (*t, m.round))
        .expect("the pipe fills");
    let exit = samples
        .iter()
        .find(|(_, m, _)| m.mode != "startup")
        .map(|(t, m, _)| (*t, m.round))
        .expect("Startup ends");
    let fill_end = round_end(filled.1).expect("round");
    eprintln!(
        "pipe full at {:?} in round {} (which ends at {fill_end:?}); Startup left at {:?}, round {}",
        filled.0, filled.1, exit.0, exit.1
    );
    assert!(
        exit.1 > filled.1 && exit.1 - filled.1 - 1 <= 3,
        "{filled:?} {exit:?}"
    );

    // ProbeBW: the pacing gain cycles 5/4, 3/4, then six phases at 1, each about one RTprop
    // (41.2 ms: 40 ms of propagation and one segment's serialisation) long.
    let rtprop = samples.last().map(|(_, m, _)| m.min_rtt).expect("samples");
    assert!(
        (41..=42).contains(&(rtprop.as_nanos() / 1_000_000)),
        "RTprop {rtprop:?}"
    );
    let mut phases: Vec<(u32, SimTime)> = Vec::new();
    for (t, m, _) in samples
        .iter()
        .filter(|(t, m, _)| m.mode == "probe-bw" && *t < ms(9000))
    {
        if phases.last().is_none_or(|&(g, _)| g != m.pacing_gain) || phases.is_empty() {
            phases.push((m.pacing_gain, *t));
        }
    }
    // Collapse the six 1.0 phases, which do not change the gain, into one run.
    let gains: Vec<u32> = phases.iter().map(|&(g, _)| g).collect();
    let start = gains.iter().position(|&g| g == 320).expect("a 5/4 phase");
    let cycle = [320, 192, 256];
    for (i, g) in gains[start..gains.len() - 1].iter().enumerate() {
        assert_eq!(*g, cycle[i % 3], "gain sequence {gains:?}");
    }
    let cycles = gains[start..].iter().filter(|&&g| g == 320).count();
    assert!(cycles >= 20, "{cycles} cycles in ProbeBW");
    // One full cycle lasts eight phases of about RTprop each.
    let fives: Vec<SimTime> = phases
        .iter()
        .filter(|&&(g, _)| g == 320)
        .map(|&(_, t)| t)
        .collect();
    for w in fives.windows(2).skip(1) {
        let len = (w[1] - w[0]).as_nanos() as f64 / rtprop.as_nanos() as f64;
        assert!((7.9..=8.5).contains(&len), "a cycle of {len:.2} RTprop");
    }

    // ProbeRTT: RTprop was last lowered early on; 10 s later cwnd falls to 4 segments for at
    // least 200 ms, then ProbeBW resumes.
    let probe: Vec<_> = samples
        .iter()
        .filter(|(_, m, _)| m.mode == "probe-rtt")
        .collect();
    let (first, last) = (
        probe.first().expect("ProbeRTT").0,
        probe.last().expect("ProbeRTT").0,
    );
    eprintln!("ProbeRTT from {first:?} to {last:?}");
    assert!(first > ms(10_000) && first < ms(11_000), "{first:?}");
    assert!(last - first >= SimDuration::from_millis(200));
    assert!(probe.iter().all(|&&(_, _, c)| c <= 4 * MSS));
    assert_eq!(samples.last().map(|(_, m, _)| m.mode), Some("probe-bw"));
}
