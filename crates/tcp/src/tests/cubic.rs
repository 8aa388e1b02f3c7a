//! Packet script of CUBIC's signature (RFC 9438 §4.2): after a loss the window follows
//! `W(t) = C·(t − K)^3 + W_max`. A sender at a window of 200 segments loses its first segment
//! at t = 0 on a path with a fixed 100 ms round trip (long enough that the cubic curve, not the
//! Reno-friendly estimate, sets the window up to W_max) and no other loss; every segment is
//! acknowledged on its own, cumulatively, 100 ms after it was sent.

use crate::cc::CubicCc;
use crate::recovery::{Phase, RenoRecovery};
use crate::tests::bsd_reno::{ack, ms, BASE};
use crate::{CcPart, Sender, SenderConfig, SenderParts, SeqSpace};
use engine::{SimDuration, SimTime, VecSink};
use std::collections::{BTreeMap, VecDeque};

const MSS: u32 = 1000;
const RTT_MS: u64 = 100;
const WIN: u32 = 1 << 22;

#[test]
fn after_a_loss_the_window_follows_the_cubic_curve_with_the_rfc_k() {
    let parts = SenderParts {
        cc: CcPart::custom(CubicCc::new(MSS, 200 * MSS, WIN)),
        recovery: RenoRecovery::new(3).into(),
        rto: super::rto_200ms(),
        eifel: None,
    };
    let mut s = Sender::new(
        SenderConfig::new(MSS, WIN),
        parts,
        SeqSpace { base: BASE },
        1 << 40,
    );
    s.seed_rtt(ms(0), ms(RTT_MS));
    let mut t = VecSink::default();
    // The receiver: next expected offset and the out-of-order segments it holds.
    let mut rcv_next = 0u64;
    let mut ooo: BTreeMap<u64, u64> = BTreeMap::new();
    let mut lost_once = false;
    let mut t_out = VecSink::default();
    // ACKs on their way back: (arrival, cumulative ACK offset).
    let mut acks: VecDeque<(SimTime, u64)> = VecDeque::new();
    let mut send = |s: &mut Sender, now: SimTime, acks: &mut VecDeque<(SimTime, u64)>| {
        while let Some(seg) = s.poll_transmit(now, &mut t_out) {
            let off = seg.seq.diff(BASE) as u64;
            if off == 0 && !lost_once {
                lost_once = true;
                continue;
            }
            ooo.insert(off, off + u64::from(seg.len));
            while let Some((&l, &r)) = ooo.first_key_value() {
                if l > rcv_next {
                    break;
                }
                rcv_next = rcv_next.max(r);
                ooo.remove(&l);
            }
            acks.push_back((now + SimDuration::from_millis(RTT_MS), rcv_next));
        }
    };
    send(&mut s, ms(0), &mut acks);
    assert_eq!(s.cwnd(), 200 * MSS);
    let mut epoch = None;
    let mut samples = Vec::new();
    while let Some((now, a)) = acks.pop_front() {
        assert!(s.poll_timeout().is_none_or(|d| d > now), "no timeout");
        let was_recovering = matches!(s.phase(), Phase::Recovery { .. });
        s.on_ack(now, &ack(a as u32, WIN), &mut t);
        if was_recovering && s.phase() == Phase::Open {
            epoch = Some(now);
        }
        if epoch.is_some() {
            samples.push((now, s.cwnd()));
        }
        send(&mut s, now, &mut acks);
        if now > ms(8000) {
            break;
        }
    }
    assert_eq!(s.stats().fast_retransmits, 1);
    assert_eq!(s.stats().timeouts, 0);
    let epoch = epoch.expect("recovery ended");
    // The recovery ended on the ACK of the retransmission, one round trip after the third
    // duplicate ACK (at 100 ms), at ssthresh = 0.7 · 200 segments.
    assert_eq!(epoch, ms(2 * RTT_MS));
    assert_eq!(samples[0].1 / MSS, 140, "starts at β·W_max");
    // RFC 9438 eq. 2: K = cbrt((200 − 140)/0.4) = cbrt(150) s = 5.3133 s. cwnd approaches the
    // target W(t + RTT) within about one round trip, so it reaches W_max near t = K.
    let k_rfc = 5.313_293_f64;
    let reached = samples
        .iter()
        .find(|&&(_, c)| c >= 200 * MSS)
        .map(|&(at, _)| (at.as_nanos() - epoch.as_nanos()) as f64 / 1e9)
        .expect("regains W_max");
    eprintln!("measured K = {reached:.4} s, RFC K = {k_rfc:.4} s");
    assert!(
        (reached - k_rfc).abs() / k_rfc < 0.02,
        "measured K = {reached:.4} s, RFC K = {k_rfc:.4} s"
    );
    // The curve at quarter points of K and beyond: within one segment and one RTT of eq. 1.
    let w = |t: f64| 0.4 * (t - k_rfc).powi(3) + 200.0;
    for frac in [0.25, 0.5, 0.75, 1.1, 1.25] {
        let at = epoch.as_nanos() + (frac * k_rfc * 1e9) as u64;
        let &(when, c) = samples
            .iter()
            .find(|&&(x, _)| x.as_nanos() >= at)
            .expect("sampled");
        let t = (when.as_nanos() - epoch.as_nanos()) as f64 / 1e9;
        let segs = f64::from(c) / f64::from(MSS);
        let rtt = RTT_MS as f64 / 1e3;
        let (lo, hi) = (w(t - rtt) - 1.0, w(t + rtt) + 1.0);
        assert!(
            (lo..=hi).contains(&segs),
            "t = {t:.3} s: cwnd {segs:.2} segments, W(t) = {:.2}",
            w(t)
        );
    }
}
