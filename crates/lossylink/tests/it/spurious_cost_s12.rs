#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Ludwig2000 S12 packet-level (specs/ludwig2000.md §3.13.3, §6 S12, §8 RT14): what one
//! spurious fast retransmit or spurious timeout at the start of a congestion-avoidance cycle
//! costs a network-limited flow, with the pipe = W/2 and ≈ W, without and with Eifel.
//!
//! Testbed: the `wan` preset without errors (bottleneck: the 1.43 Mb/s `internet` hop, whose
//! queue `hops.0.forward.queue` is the path's router, not the source's interface), 64 KiB
//! windows so the flow is network-limited (W is set by the bottleneck queue, never by rwnd),
//! `tcp.quench = false`, 16 MiB. Timestamps with a 1 ms clock in every arm, so Reno and Eifel
//! send the same segments and a reordering of a few packets is resolvable (the bsd profile's
//! 500 ms clock would echo the same value as the retransmission). The path's pipe is about 16.4
//! segments (RTT ≈ 134 ms at 8.17 ms per 1460-byte frame): a 18-packet bottleneck queue gives
//! W = 35 (pipe ≈ W/2, cycle 7.9 s), a 3-packet queue W = 20 (pipe ≈ 0.8 W, cycle 3.0 s; with
//! 1-2 packets the flow's own two-segment bursts overflow the queue and the sawtooth breaks
//! down into timeouts).
//!
//! Each arm is its own baseline (Eifel's baseline is not Reno's: it undoes a fast retransmit of
//! the initial slow start). In the baseline the sixth fast retransmit (after the startup) starts
//! a cycle; 1 ms after its recovery ends (cwnd = ssthresh = W/2, the model's worst case) a second
//! run is perturbed on the wireless hop's data direction (`hops.2.forward`), so the perturbed
//! run is the baseline until then: a link-stage reorder of length 4 (3 or 4 duplicate ACKs,
//! whatever the delayed-ACK phase) makes a spurious fast retransmit; a 3 s link-stage hold (the
//! queue there has room for the flight) a spurious timeout. The loss is counted as in the
//! squares model: bytes acknowledged over the interval from the event until Reno's load is back
//! at W (its next fast retransmit), baseline against perturbed, (without − with) / with. For the
//! hold the perturbed run is measured from the hold's end, so the spike's own idle time is not
//! counted (the model counts the load reduction only). Eifel is measured over Reno's interval,
//! against its own baseline.

use crate::common;
use crate::sender_trace;
use common::scenario;
use lossylink::Scenario;
use sender_trace::{traced, Run};

const MSS: i64 = 1400;
/// Bottleneck queues: pipe ≈ W/2 and pipe ≈ W.
const PIPE_HALF_W: &str = "18";
const PIPE_W: &str = "3";
/// Which baseline fast retransmit starts the perturbed cycle (0-based; after the startup).
const NTH_FR: usize = 5;
const HOLD_MS: i64 = 3000;

#[derive(Clone, Copy, PartialEq)]
enum Spurious {
    FastRetransmit,
    Timeout,
}

fn wan(queue: &str, scheme: &str, extra: &[(&str, &str)]) -> Scenario {
    let mut o = vec![
        ("error_every", "0"),
        ("buffer", "65535"),
        ("tcp.quench", "false"),
        ("tcp.timestamps", "true"),
        ("tcp.ts_granularity", "1ms"),
        ("transfer", "16MiB"),
        ("hops.0.forward.queue", queue),
        ("scheme", scheme),
    ];
    o.extend_from_slice(extra);
    scenario("wan", &o)
}

fn una_at(r: &Run, t: f64) -> i64 {
    r.win.iter().rev().find(|w| w.t <= t).unwrap().una
}

/// One arm: a traced baseline and the same run with the spurious event at a cycle start.
struct Arm {
    base: Run,
    pert: Run,
    /// Baseline load at the end of the cycle before the event, in segments.
    w: i64,
    /// The event (hiccup start), s.
    at: f64,
    /// Where the perturbed run's interval starts: `at`, or the end of the hold.
    from: f64,
}

fn arm(queue: &str, scheme: &str, event: Spurious, extra: &[(&str, &str)]) -> Arm {
    let base = traced(&wan(queue, scheme, extra));
    let fr = base.events("fast-retransmit")[NTH_FR].t;
    let w = base.before(fr).cwnd / MSS;
    // Recovery ends on the first new ACK: cwnd deflates to ssthresh (+ the CA increment).
    let exit = base
        .win
        .iter()
        .find(|r| r.t > fr && r.cwnd <= r.ssthresh + MSS)
        .unwrap();
    let at_ms = (exit.t * 1000.0).ceil() as i64 + 1;
    let (hiccup, hold) = match event {
        Spurious::FastRetransmit => (
            format!(r#"[{{ kind = "reorder", at = "{at_ms}ms", length = 4 }}]"#),
            0,
        ),
        Spurious::Timeout => (
            format!(r#"[{{ kind = "hold", at = "{at_ms}ms", duration = "{HOLD_MS}ms" }}]"#),
            HOLD_MS,
        ),
    };
    let mut o = extra.to_vec();
    o.push(("hops.2.forward.hiccups", &hiccup));
    let pert = traced(&wan(queue, scheme, &o));
    let at = at_ms as f64 / 1000.0;
    Arm {
        base,
        pert,
        w,
        at,
        from: at + hold as f64 / 1000.0,
    }
}

impl Arm {
    /// Bytes acknowledged over `len` seconds after the event: (baseline, perturbed).
    fn acked(&self, len: f64) -> (i64, i64) {
        (
            una_at(&self.base, self.at + len) - una_at(&self.base, self.at),
            una_at(&self.pert, self.from + len) - una_at(&self.pert, self.from),
        )
    }
    /// The squares model's loss in %: (without − with) / with.
    fn loss_pct(&self, len: f64) -> f64 {
        let (b, p) = self.acked(len);
        100.0 * (b - p) as f64 / p as f64
    }
    /// Perturbed-run events of `kind` in [at, from + len).
    fn count(&self, kind: &str, len: f64) -> usize {
        self.pert
            .events(kind)
            .iter()
            .filter(|e| e.t >= self.at && e.t < self.from + len)
            .count()
    }
}

/// Reno, Eifel and Eifel with the burst pacer at one pipe, for one kind of spurious event.
struct Case {
    reno: Arm,
    eifel: Arm,
    paced: Arm,
    /// From the event until Reno's load is back at W (its next fast retransmit), s.
    len: f64,
}

fn case(queue: &str, event: Spurious) -> Case {
    let reno = arm(queue, "e2e", event, &[]);
    let eifel = arm(queue, "e2e+eifel", event, &[]);
    let paced = arm(
        queue,
        "e2e+eifel",
        event,
        &[("tcp.eifel_burst_pacer", "srtt")],
    );
    let next = reno
        .pert
        .events("fast-retransmit")
        .iter()
        .map(|e| e.t)
        .find(|t| *t > reno.from + 0.5)
        .unwrap();
    let len = next - reno.from;
    Case {
        reno,
        eifel,
        paced,
        len,
    }
}

impl Case {
    /// (Reno's loss, Eifel's loss, Eifel-with-pacer's loss) in %.
    fn losses(&self) -> (f64, f64, f64) {
        (
            self.reno.loss_pct(self.len),
            self.eifel.loss_pct(self.len),
            self.paced.loss_pct(self.len),
        )
    }
    /// The share of Reno's lost bytes that `arm` gets back, in %.
    fn recovered_pct(&self, arm: &Arm) -> f64 {
        let (b, p) = self.reno.acked(self.len);
        let (be, pe) = arm.acked(self.len);
        100.0 * (1.0 - (be - pe) as f64 / (b - p) as f64)
    }
}

/// Print one case's numbers (`cargo test -p lossylink --test it spurious_cost_s12:: -- --nocapture`).
fn report(label: &str, c: &Case) {
    let (reno, eifel, paced) = c.losses();
    println!(
        "{label}: loss reno {reno:.1} %, eifel {eifel:.1} % ({:.0} % back), \
         eifel+pacer {paced:.1} % ({:.0} % back), over {:.2} s",
        c.recovered_pct(&c.eifel),
        c.recovered_pct(&c.paced),
        c.len
    );
}

#[test]
fn the_two_testbeds_have_pipe_w_half_and_pipe_about_w() {
    // W = pipe + queue + ~1; pipe ≈ 16.4 segments.
    let half = arm(PIPE_HALF_W, "e2e", Spurious::FastRetransmit, &[]);
    let full = arm(PIPE_W, "e2e", Spurious::FastRetransmit, &[]);
    assert_eq!((half.w, full.w), (35, 20));
    // Reno's regular sawtooth: the cycle start halves W; the perturbed run is the baseline up
    // to the event.
    for a in [&half, &full] {
        let exit = a.base.before(a.at);
        assert_eq!(exit.ssthresh / MSS, a.w / 2);
        assert_eq!(a.base.before(a.at).una, a.pert.before(a.at).una);
        assert!(a.base.m.queue_drops > 0, "congestion cycles");
    }
}

/// A spurious fast retransmit at the cycle start: Reno loses 3.3 % with pipe = W/2 and 14.9 %
/// with pipe ≈ W (squares model: 9 % and 13 %). Eifel gets 86 % back with pipe = W/2 (loss
/// 0.5 %); with pipe ≈ W its restore releases the window at once into a 3-packet queue (the
/// burst of Fig 5-6) and loses a segment for real, which costs a fast retransmit and a timeout
/// (loss 86 %, worse than Reno); with the burst pacer the loss is 1.6 % (89 % recovered).
#[test]
fn rt14_spurious_fast_retransmit() {
    let half = case(PIPE_HALF_W, Spurious::FastRetransmit);
    let full = case(PIPE_W, Spurious::FastRetransmit);
    for c in [&half, &full] {
        // Exactly one spurious fast retransmit, seen as such by Eifel (and the pacer arm).
        assert_eq!(c.reno.count("fast-retransmit", 1.0), 1);
        assert_eq!(c.reno.count("timeout", c.len), 0);
        assert_eq!(c.eifel.count("spurious-undo", 1.0), 1);
        assert_eq!(c.paced.count("spurious-undo", 1.0), 1);
    }
    let reno_half = half.losses().0;
    let (reno_full, eifel_full, _) = full.losses();
    report("FR, pipe W/2", &half);
    report("FR, pipe W", &full);
    // RT14 direction: the loss grows as the load/pipe ratio falls.
    assert!(reno_half > 3.0 && reno_full > reno_half + 3.0);
    // RT14: Eifel recovers ≥ 80 % of the loss, pipe = W/2.
    assert!(half.recovered_pct(&half.eifel) >= 80.0);
    assert!(half.recovered_pct(&half.paced) >= 80.0);
    // Pipe ≈ W: not without the pacer (the restore burst overflows the queue) ...
    assert!(eifel_full > reno_full, "{eifel_full} against {reno_full}");
    assert!(full.eifel.count("timeout", full.len) >= 1);
    assert_eq!(full.paced.count("timeout", full.len), 0);
    // ... but with it.
    assert!(full.recovered_pct(&full.paced) >= 80.0);
}

/// A spurious timeout at the cycle start (3 s hold): Reno loses 12.7 % with pipe = W/2 and
/// 221 % with pipe ≈ W (squares model: 33 % and 50 %). With pipe = W/2 Reno's slow start gets
/// back to W/4 in a few RTTs (the model takes it as linear), which is why it loses less than the
/// model; with pipe ≈ W its go-back-N slow start overflows the 3-packet queue, real losses
/// follow and a second timeout, so the load is back at W only 4.3 cycles later. Eifel undoes the
/// timeout on the first ACK and loses 0.2 % (≥ 98 % recovered) at both pipes.
#[test]
fn rt14_spurious_timeout() {
    let half = case(PIPE_HALF_W, Spurious::Timeout);
    let full = case(PIPE_W, Spurious::Timeout);
    for c in [&half, &full] {
        for a in [&c.reno, &c.eifel, &c.paced] {
            assert_eq!(a.count("timeout", 0.0), 1, "one timeout during the hold");
        }
        assert_eq!(c.eifel.count("spurious-undo", 1.0), 1);
        assert_eq!(c.paced.count("spurious-undo", 1.0), 1);
    }
    let reno_half = half.losses().0;
    let reno_full = full.losses().0;
    report("TO, pipe W/2", &half);
    report("TO, pipe W", &full);
    // RT14 direction, and a timeout costs more than a fast retransmit at the same pipe.
    assert!(reno_half > 8.0 && reno_full > reno_half);
    let fr_half = case(PIPE_HALF_W, Spurious::FastRetransmit).losses().0;
    assert!(reno_half > fr_half);
    // With pipe ≈ W Reno's go-back-N drops segments for real and times out again.
    assert!(full.reno.count("timeout", full.len) >= 2);
    // RT14: Eifel recovers ≥ 80 % of the loss at both pipes, with or without the pacer.
    for c in [&half, &full] {
        assert!(c.recovered_pct(&c.eifel) >= 80.0);
        assert!(c.recovered_pct(&c.paced) >= 80.0);
    }
}
