//! The parts a [`super::Sender`] is built from, and how it calls them.
//!
//! Each part is one decision behind its trait ([`CongestionControl`], [`LossRecovery`],
//! [`RtoEstimator`]; DESIGN.md "The sender is assembled from parts"). The sender holds each
//! part as an enum with a variant for each of the common implementations (Reno's window, the
//! Reno and NewReno recoveries, the BSD and RFC 6298 timers) and `Custom` for any other: the
//! enum implements the trait by passing every call on with a `match`, so the common parts are
//! called directly and inlined into the sender's ACK and output paths instead of through a
//! virtual call (callgrind, the reference run: see docs/performance.md). The enum decides
//! nothing; a part behaves the same in its own variant and in `Custom`.
//!
//! Build a part with `.into()` from the implementation (`RenoCc::new(..).into()`) or from a
//! `Box<dyn Trait>`; any controller other than Reno's with `CcPart::custom`.

use crate::cc::{AckSample, CongestionControl, CongestionEvent, ModelState, RateSample, RenoCc};
use crate::notice::ElnVerdict;
use crate::recovery::{
    AckDecision, AckInput, DcrRecovery, ElnRecovery, EsackRecovery, HackRecovery, LossRecovery,
    NewRenoRecovery, Phase, RackRecovery, RenoRecovery, Retransmit, SackRecovery, SenderView,
    SmartRecovery, TcpElnOver, TcpElnRecovery,
};
use crate::rto::{AggRto, BsdRto, EifelRto, LinuxRto, Ns2Rto, Rfc6298Rto, RtoEstimator};
use crate::spurious::Eifel;
use engine::{SimDuration, SimTime};

/// The parts a sender is built from.
pub struct SenderParts {
    /// How much may be in flight.
    pub cc: CcPart,
    /// What is lost and how to react to ACKs.
    pub recovery: RecoveryPart,
    /// When to time out.
    pub rto: RtoPart,
    /// Spurious-retransmission detection and undo (needs timestamps).
    pub eifel: Option<Eifel>,
}

/// A sender's [`CongestionControl`].
pub enum CcPart {
    /// Reno AIMD (either flavour).
    Reno(RenoCc),
    /// Any other controller.
    Custom(Box<dyn CongestionControl>),
}

/// A sender's [`LossRecovery`].
pub enum RecoveryPart {
    /// Reno (or Tahoe) fast retransmit and recovery.
    Reno(RenoRecovery),
    /// NewReno (RFC 6582).
    NewReno(NewRenoRecovery),
    /// Any other recovery.
    Custom(Box<dyn LossRecovery>),
}

/// A sender's [`RtoEstimator`].
pub enum RtoPart {
    /// The BSD coarse timer.
    Bsd(BsdRto),
    /// The RFC 6298 fine-grained timer.
    Fine(Rfc6298Rto),
    /// Any other estimator.
    Custom(Box<dyn RtoEstimator>),
}

/// `From` the listed implementations into the part enum: the common ones into their variant,
/// the others boxed into `Custom`.
macro_rules! part_from {
    ($part:ident: $($variant:ident($ty:ty)),*; custom $($other:ty),*) => {
        part_from!($part: $($variant($ty)),*);
        $(impl From<$other> for $part {
            fn from(p: $other) -> Self {
                $part::Custom(Box::new(p))
            }
        })*
    };
    ($part:ident: $($variant:ident($ty:ty)),*) => {
        $(impl From<$ty> for $part {
            fn from(p: $ty) -> Self {
                $part::$variant(p)
            }
        })*
    };
}

// Every other controller goes in with `CcPart::custom`: no list here to keep in step with
// `cc/`.
part_from!(CcPart: Reno(RenoCc));
part_from!(RecoveryPart: Reno(RenoRecovery), NewReno(NewRenoRecovery); custom DcrRecovery,
    ElnRecovery, EsackRecovery, HackRecovery, RackRecovery, SackRecovery, SmartRecovery,
    TcpElnOver, TcpElnRecovery);
part_from!(RtoPart: Bsd(BsdRto), Fine(Rfc6298Rto); custom AggRto, EifelRto, LinuxRto, Ns2Rto);

impl CcPart {
    /// Any controller other than Reno's window, boxed.
    pub fn custom(cc: impl CongestionControl + 'static) -> Self {
        CcPart::Custom(Box::new(cc))
    }
}

impl From<Box<dyn CongestionControl>> for CcPart {
    fn from(p: Box<dyn CongestionControl>) -> Self {
        CcPart::Custom(p)
    }
}

impl From<Box<dyn LossRecovery>> for RecoveryPart {
    fn from(p: Box<dyn LossRecovery>) -> Self {
        RecoveryPart::Custom(p)
    }
}

impl From<Box<dyn RtoEstimator>> for RtoPart {
    fn from(p: Box<dyn RtoEstimator>) -> Self {
        RtoPart::Custom(p)
    }
}

/// `$p.$call` on the part in whichever variant it is.
macro_rules! cc {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            CcPart::Reno($p) => $call,
            CcPart::Custom($p) => $call,
        }
    };
}

macro_rules! recovery {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            RecoveryPart::Reno($p) => $call,
            RecoveryPart::NewReno($p) => $call,
            RecoveryPart::Custom($p) => $call,
        }
    };
}

macro_rules! rto {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            RtoPart::Bsd($p) => $call,
            RtoPart::Fine($p) => $call,
            RtoPart::Custom($p) => $call,
        }
    };
}

impl RecoveryPart {
    /// Whether the part is the built-in Reno or NewReno recovery with no forced retransmission
    /// waiting: then `next_retransmission` and `next_fallback` return `None` and change nothing,
    /// `pipe` is `None` and no segment is SACKed (the sender's plain path,
    /// `Sender::is_plain`). Always `false` for `Custom`, whose part is asked in full.
    #[inline(always)]
    pub(crate) fn has_no_forced(&self) -> bool {
        match self {
            RecoveryPart::Reno(r) => !r.has_forced(),
            RecoveryPart::NewReno(r) => !r.has_forced(),
            RecoveryPart::Custom(_) => false,
        }
    }
}

// Every method is passed on, those with a default included, so that a part's own version runs.
impl CongestionControl for CcPart {
    fn name(&self) -> &'static str {
        cc!(self, p => p.name())
    }
    #[inline]
    fn cwnd(&self) -> u32 {
        cc!(self, p => p.cwnd())
    }
    #[inline]
    fn ssthresh(&self) -> u32 {
        cc!(self, p => p.ssthresh())
    }
    #[inline]
    fn on_ack(&mut self, ack: AckSample) {
        cc!(self, p => p.on_ack(ack))
    }
    fn on_congestion(&mut self, event: CongestionEvent) {
        cc!(self, p => p.on_congestion(event))
    }
    fn on_recovery_dupack(&mut self) {
        cc!(self, p => p.on_recovery_dupack())
    }
    fn on_recovery_exit(&mut self) {
        cc!(self, p => p.on_recovery_exit())
    }
    fn on_partial_ack(&mut self, acked: u32) {
        cc!(self, p => p.on_partial_ack(acked))
    }
    fn undo(&mut self, cwnd: u32, ssthresh: u32) {
        cc!(self, p => p.undo(cwnd, ssthresh))
    }
    fn on_idle_restart(&mut self, cwnd: u32, ssthresh: u32) {
        cc!(self, p => p.on_idle_restart(cwnd, ssthresh))
    }
    fn wants_rate_samples(&self) -> bool {
        cc!(self, p => p.wants_rate_samples())
    }
    fn on_rate_sample(&mut self, rs: &RateSample) {
        cc!(self, p => p.on_rate_sample(rs))
    }
    fn pacing_rate(&self) -> Option<u64> {
        cc!(self, p => p.pacing_rate())
    }
    fn on_available_rate(&mut self, bytes_per_s: u64) {
        cc!(self, p => p.on_available_rate(bytes_per_s))
    }
    fn on_congestion_warning(&mut self, now: SimTime) {
        cc!(self, p => p.on_congestion_warning(now))
    }
    fn model(&self) -> Option<ModelState> {
        cc!(self, p => p.model())
    }
    fn on_ecn_abe(&mut self, flight_bytes: u32, peer_window: u32, beta_ecn: u32) -> bool {
        cc!(self, p => p.on_ecn_abe(flight_bytes, peer_window, beta_ecn))
    }
}

impl LossRecovery for RecoveryPart {
    fn name(&self) -> &'static str {
        recovery!(self, p => p.name())
    }
    fn phase(&self) -> Phase {
        recovery!(self, p => p.phase())
    }
    #[inline]
    fn on_ack(&mut self, ack: &AckInput<'_>, view: SenderView) -> AckDecision {
        recovery!(self, p => p.on_ack(ack, view))
    }
    fn on_timeout(&mut self, view: SenderView) {
        recovery!(self, p => p.on_timeout(view))
    }
    #[inline]
    fn next_retransmission(
        &mut self,
        now: SimTime,
        view: SenderView,
        budget: u64,
    ) -> Option<Retransmit> {
        recovery!(self, p => p.next_retransmission(now, view, budget))
    }
    fn new_ack_is_duplicate(&self) -> bool {
        recovery!(self, p => p.new_ack_is_duplicate())
    }
    fn keeps_timer(&self) -> bool {
        recovery!(self, p => p.keeps_timer())
    }
    fn next_fallback(&mut self, now: SimTime, view: SenderView, budget: u64) -> Option<Retransmit> {
        recovery!(self, p => p.next_fallback(now, view, budget))
    }
    #[inline]
    fn pipe(&self, view: SenderView) -> Option<u64> {
        recovery!(self, p => p.pipe(view))
    }
    #[inline]
    fn is_sacked(&self, off: u64) -> bool {
        recovery!(self, p => p.is_sacked(off))
    }
    fn on_eln(&mut self, now: SimTime, off: u64, view: SenderView) -> ElnVerdict {
        recovery!(self, p => p.on_eln(now, off, view))
    }
    fn heeds_notices(&self) -> bool {
        recovery!(self, p => p.heeds_notices())
    }
    fn on_undo(&mut self) {
        recovery!(self, p => p.on_undo())
    }
    fn sacked_bytes(&self) -> Option<u64> {
        recovery!(self, p => p.sacked_bytes())
    }
    fn tracks_sends(&self) -> bool {
        recovery!(self, p => p.tracks_sends())
    }
    fn on_sent(&mut self, now: SimTime, off: u64, len: u32) {
        recovery!(self, p => p.on_sent(now, off, len))
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        recovery!(self, p => p.poll_timeout())
    }
    fn on_nack(&mut self, now: SimTime, off: u64, view: SenderView) {
        recovery!(self, p => p.on_nack(now, off, view))
    }
    fn on_timer(&mut self, now: SimTime, view: SenderView) -> AckDecision {
        recovery!(self, p => p.on_timer(now, view))
    }
    fn hold(&mut self, ack: &AckInput<'_>, view: SenderView) {
        recovery!(self, p => p.hold(ack, view))
    }
    fn respond_now(&mut self, now: SimTime, view: SenderView, dupthresh: u32) -> AckDecision {
        recovery!(self, p => p.respond_now(now, view, dupthresh))
    }
}

impl RtoEstimator for RtoPart {
    #[inline]
    fn on_sample(&mut self, sent: SimTime, acked: SimTime) {
        rto!(self, p => p.on_sample(sent, acked))
    }
    fn on_timeout(&mut self) {
        rto!(self, p => p.on_timeout())
    }
    fn on_spurious_timeout(&mut self) {
        rto!(self, p => p.on_spurious_timeout())
    }
    #[inline]
    fn deadline(&self, now: SimTime) -> SimTime {
        rto!(self, p => p.deadline(now))
    }
    fn deadline_for(&self, sent: SimTime, now: SimTime) -> SimTime {
        rto!(self, p => p.deadline_for(sent, now))
    }
    fn current(&self) -> SimDuration {
        rto!(self, p => p.current())
    }
    fn backoff_shift(&self) -> u32 {
        rto!(self, p => p.backoff_shift())
    }
    #[inline]
    fn observe_window(&mut self, cwnd: u32, ssthresh: u32, mss: u32) {
        rto!(self, p => p.observe_window(cwnd, ssthresh, mss))
    }
    fn srtt_ticks(&self) -> u32 {
        rto!(self, p => p.srtt_ticks())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::RenoFlavor;
    use crate::recovery::{AckKind, NewRenoFlavor};
    use crate::rto::{BsdRtoConfig, Rfc6298Config, TickClock};

    const MSS: u32 = 1000;

    fn view() -> SenderView {
        SenderView {
            snd_una: 0,
            snd_nxt: 8 * u64::from(MSS),
            snd_max: 8 * u64::from(MSS),
            mss: MSS,
        }
    }

    fn dup(count: u32) -> AckInput<'static> {
        AckInput {
            now: SimTime(10),
            kind: AckKind::Dup { count },
            ack: 0,
            sack: &[],
            smart: None,
            eln: false,
            cc: None,
            srtt: SimDuration::ZERO,
            srtt_ticks: 0,
        }
    }

    /// A part in its own variant and the same part in `Custom` answer every call alike.
    #[test]
    fn a_part_behaves_alike_in_its_variant_and_boxed() {
        let reno = || RenoCc::new(RenoFlavor::Rfc5681, MSS, 2 * MSS, 65535);
        let boxed: Box<dyn CongestionControl> = Box::new(reno());
        let mut ccs = [CcPart::from(reno()), CcPart::from(boxed)];
        assert!(matches!(ccs[0], CcPart::Reno(_)) && matches!(ccs[1], CcPart::Custom(_)));
        for cc in &mut ccs {
            cc.on_ack(AckSample {
                acked_bytes: MSS,
                flight_bytes: 2 * MSS,
                now: SimTime(1),
                srtt: SimDuration::ZERO,
                rtt: None,
                ack: 0,
                snd_nxt: 0,
            });
            cc.on_congestion(CongestionEvent::FastRetransmit {
                flight_bytes: 3 * MSS,
                peer_window: 65535,
                dupacks: 3,
            });
            cc.on_recovery_dupack();
        }
        let state = |c: &CcPart| (c.name(), c.cwnd(), c.ssthresh(), c.wants_rate_samples());
        assert_eq!(state(&ccs[0]), state(&ccs[1]));

        let newreno = || NewRenoRecovery::new(NewRenoFlavor::Rfc6582, 3);
        let boxed: Box<dyn LossRecovery> = Box::new(newreno());
        let mut recs = [RecoveryPart::from(newreno()), RecoveryPart::from(boxed)];
        assert!(matches!(recs[0], RecoveryPart::NewReno(_)));
        let mut decisions = Vec::new();
        for r in &mut recs {
            let d = (1..=3).map(|k| r.on_ack(&dup(k), view())).last();
            let next = r.next_retransmission(SimTime(10), view(), 0);
            decisions.push((d.map(|d| d.window), next, r.phase(), r.name()));
        }
        assert_eq!(decisions[0], decisions[1]);
        assert_ne!(
            decisions[0].2,
            Phase::Open,
            "the third duplicate starts a recovery"
        );
        let reno_rec = RecoveryPart::from(RenoRecovery::new(3));
        assert!(matches!(reno_rec, RecoveryPart::Reno(_)));

        let bsd = || {
            BsdRto::new(BsdRtoConfig {
                clock: TickClock {
                    period: SimDuration::from_millis(500),
                    phase: SimDuration::ZERO,
                },
                min_ticks: 2,
                max_ticks: 128,
                initial_ticks: 6,
            })
        };
        let fine = Rfc6298Rto::new(Rfc6298Config {
            min: SimDuration::from_millis(200),
            max: SimDuration::from_secs(60),
            initial: SimDuration::from_secs(1),
            granularity: SimDuration::from_millis(1),
        });
        let boxed: Box<dyn RtoEstimator> = Box::new(bsd());
        let mut rtos = [RtoPart::from(bsd()), RtoPart::from(boxed)];
        assert!(matches!(RtoPart::from(fine), RtoPart::Fine(_)));
        for r in &mut rtos {
            r.on_sample(SimTime(0), SimTime(300_000_000));
            r.on_timeout();
        }
        let state = |r: &RtoPart| {
            let now = SimTime(1_000_000_000);
            (
                r.deadline(now),
                r.current(),
                r.backoff_shift(),
                r.srtt_ticks(),
            )
        };
        assert_eq!(state(&rtos[0]), state(&rtos[1]));
    }
}
