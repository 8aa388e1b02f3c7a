//! Packet script of HyStart++ (RFC 9406) in CUBIC's slow start: a 10 Mb/s bottleneck (1000-byte
//! segments plus 40 bytes of headers: 0.832 ms each), 20 ms each way (base RTT 40.8 ms, a BDP of
//! 49 segments), a drop-tail queue of 200 packets, timestamps (0.1 ms clock) so that every ACK is
//! an RTT sample, an ACK per segment, IW 10. As cwnd passes the BDP the queue, and with it the
//! RTT, grows within slow start. Plain slow start doubles until the queue overflows; HyStart++
//! sees the round's minimum RTT rise by more than RttThresh (40.8/8 = 5.1 ms) and enters CSS
//! (a quarter of slow start's growth) 163 ms before plain slow start's first loss, at a third
//! of the window; it loses 8 segments where plain slow start loses 405.

use crate::cc::CubicCc;
use crate::recovery::{SackFlavor, SackRecovery};
use crate::tests::bsd_reno::ms;
use crate::tests::net::{Log, Path};
use crate::{
    CcPart, DelayedAck, Receiver, ReceiverConfig, Sender, SenderConfig, SenderParts, SeqNum,
    SeqSpace,
};
use engine::{SimDuration, SimTime};

pub(crate) const MSS: u32 = 1000;
const SPACE: SeqSpace = SeqSpace { base: SeqNum(77) };
pub(crate) const WIN: u32 = 1 << 24;
const TS: SimDuration = SimDuration::from_nanos(100_000);

/// The path of this file's script with `cubic` as the sender's controller (also
/// `tests/hystart_linux.rs`'s).
pub(crate) fn path_with(cubic: CubicCc) -> Path {
    let parts = SenderParts {
        cc: CcPart::custom(cubic),
        recovery: SackRecovery::new(SackFlavor::Rfc6675, MSS, 3).into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let cfg = SenderConfig {
        initial_peer_window: WIN,
        timestamps: Some(TS),
        ..SenderConfig::new(MSS, WIN)
    };
    let mut s = Sender::new(cfg, parts, SPACE, 1 << 40);
    s.seed_rtt(ms(0), ms(41));
    let r = Receiver::new(
        ReceiverConfig {
            sack: true,
            timestamps: Some(TS),
            ..ReceiverConfig::new(MSS, 65535, DelayedAck::Off)
        },
        SPACE,
        1 << 40,
        SeqNum(5),
    );
    let mut p = Path::new(s, r, SPACE, SimDuration::from_millis(20));
    p.ps_per_byte = 800_000; // 10 Mb/s
    p.overhead = 40;
    p.queue_limit = 300;
    p.ack_window = Some(WIN);
    p
}

/// Runs until `until_ms`; returns the path and, each ms, (time, cwnd, ssthresh).
fn run(hystart: bool, until_ms: u64) -> (Path, Vec<(SimTime, u32, u32)>) {
    let cubic = CubicCc::new(MSS, 10 * MSS, WIN);
    let mut p = path_with(if hystart { cubic.with_hystart() } else { cubic });
    let mut samples = Vec::new();
    for t in 1..=until_ms {
        p.run_until(ms(t));
        samples.push((ms(t), p.sender.cwnd(), p.sender.ssthresh()));
    }
    (p, samples)
}

fn first_loss(p: &Path) -> Option<SimTime> {
    p.log
        .iter()
        .find(|(_, l)| matches!(l, Log::Lost { .. }))
        .map(|&(t, _)| t)
}

/// The first millisecond from which cwnd, above the BDP (so that ACKs come at the
/// bottleneck's rate, 48 in 40 ms), grows by at most a quarter segment per ACK over the next
/// 40 ms (CSS: 12 segments, plus one for rounding) while ssthresh is still the initial one:
/// HyStart++ has left slow start. (Plain slow start grows by 48 segments there.)
fn css_entry(v: &[(SimTime, u32, u32)]) -> Option<(SimTime, u32)> {
    v.windows(41)
        .find(|w| w[0].1 > 60 * MSS && w[40].1.saturating_sub(w[0].1) <= 13 * MSS && w[40].2 == WIN)
        .map(|w| (w[0].0, w[0].1))
}

#[test]
fn hystart_leaves_slow_start_before_the_loss_that_plain_slow_start_overshoots_into() {
    let (plain, ps) = run(false, 900);
    let (hs, hss) = run(true, 900);
    let lost = |p: &Path| {
        p.log
            .iter()
            .filter(|(_, l)| matches!(l, Log::Lost { .. }))
            .count()
    };
    let loss = first_loss(&plain).expect("plain slow start overflows the queue");
    let peak = |v: &[(SimTime, u32, u32)]| v.iter().map(|s| s.1).max().unwrap_or(0);
    let (entry, cwnd_entry) = css_entry(&hss).expect("HyStart++ enters CSS");
    eprintln!(
        "plain: first loss {:.1} ms, peak cwnd {} B, {} lost by 900 ms; hystart: CSS from \
         {:.1} ms at cwnd {} B, first loss {:?}, peak cwnd {} B, {} lost",
        loss.as_nanos() as f64 / 1e6,
        peak(&ps),
        lost(&plain),
        entry.as_nanos() as f64 / 1e6,
        cwnd_entry,
        first_loss(&hs).map(|t| t.as_nanos() as f64 / 1e6),
        peak(&hss),
        lost(&hs),
    );
    // Plain slow start grows at the full ACK rate into the queue and overflows it.
    assert!(css_entry(&ps).is_none_or(|(t, _)| t > loss));
    // HyStart++ leaves slow start before that loss; nothing is lost by then.
    assert!(entry < loss, "CSS at {entry:?}, plain's loss at {loss:?}");
    assert!(first_loss(&hs).is_none_or(|t| t > loss));
    assert!(lost(&hs) < lost(&plain));
    // The numbers of this path (printed above): plain slow start loses first at 387.1 ms
    // (cwnd peaks at 699 segments, 405 transmissions lost by 900 ms); HyStart++ is in CSS from
    // 224 ms at 153 segments, two rounds after cwnd passed the BDP (the round minimum lags a
    // round), and CSS's 1.25× per round still fills the 300-packet queue at 876 ms, before its
    // fifth round ends (rounds grow with the queue): 8 lost.
    assert_eq!(loss.as_nanos() / 100_000, 3871);
    assert!((ms(220)..=ms(230)).contains(&entry), "{entry:?}");
    assert!((150 * MSS..=160 * MSS).contains(&cwnd_entry));
    assert_eq!((lost(&plain), lost(&hs)), (405, 8));
}
