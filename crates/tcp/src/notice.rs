//! Link-status notifications a TCP sender may receive from a link layer on its path: LL-ELSN's
//! ELN and ERSN (eln-llelsn spec §4.1-4.2, [PROPOSAL] there: the paper's §3 is not in our
//! excerpt). They name one TCP segment by its sequence number; they are not segments of the
//! connection and never acknowledge anything.

use crate::seq::SeqNum;

/// What the link layer says about the segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoticeKind {
    /// Explicit loss notification: the 802.11 MAC gave the frame carrying the segment up after
    /// its last retry (bit errors or collisions; never an interface-queue overflow, §4.1 (c)).
    Eln,
    /// Explicit retransmission start notification: the MAC starts retrying the frame (its first
    /// attempt was not acknowledged), so the sender should not time out meanwhile (§4.2 (c)).
    Ersn,
}

/// One notification: a kind and the segment's first sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LinkNotice {
    /// ELN or ERSN.
    pub kind: NoticeKind,
    /// The first sequence number of the segment the frame carried.
    pub seq: SeqNum,
}

/// What a loss-recovery part made of an ELN ([`crate::recovery::LossRecovery::on_eln`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElnVerdict {
    /// The part does not use ELNs (every sender but ESACK): nothing happens.
    Unheeded,
    /// Below snd_una, already selectively acknowledged, or not a segment sent: ignored.
    Stale,
    /// The segment will be resent as soon as the window allows, without a window cut.
    Resend,
    /// One of a run of consecutive ELNs beyond the filter (a link outage, spec §4.3 (c)): not
    /// resent; the retransmission timer probes.
    Filtered,
}
