//! The packet account (DESIGN.md rule 11): every packet the network creates ends in exactly one
//! bucket. A packet leaves the network only through [`crate::packet::PacketPool`]'s
//! `release` / `retire`, each naming its [`Fate`]; the packets still inside are the pool's
//! occupied slots plus the packets a link receiver holds for in-order delivery. So
//! `created == sum of the fates + in_flight` holds by construction at any instant between
//! two events, which [`PacketAccount::balances`] checks.

/// What became of a packet that left the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Handed to its destination (a TCP endpoint, a UDP sink, the sender of an LL-ELSN notice,
    /// the emulator).
    Delivered,
    /// A full drop-tail queue refused it (a port's interface queue, or the queue a reorder
    /// hiccup released it into).
    QueueDrop,
    /// An IP-stage hold hiccup intercepted it and expired before the hold ended.
    HoldExpired,
    /// It reached the far end of a hop corrupted (error model, a lost MAC attempt without
    /// retries, a GSM frame that failed its check or was flushed by an RLP reset) and was
    /// discarded there.
    Corrupted,
    /// It reached the far end intact, but the header decompressor there, out of step, discarded
    /// it (VJ or RFC 2507 compression on a GSM link).
    Discarded,
    /// An 802.11 MAC gave it up after its retry limit.
    MacDrop,
    /// A base-station agent kept it (snoop's suppressed duplicate ACKs; the data an LL or
    /// ARQ agent takes into its own buffer and sends later as new packets).
    AgentAbsorbed,
    /// A split-connection proxy terminated it (its bytes go on in the proxy's other leg).
    ProxyAbsorbed,
    /// The link layer consumed it: a link ACK reached the ARQ sender it was for, or was merged
    /// into a newer one waiting in the queue; a link frame the link receiver already had.
    LinkAbsorbed,
    /// Its node had no route towards its destination.
    Unroutable,
}

impl Fate {
    /// Every fate, in the account's column order.
    pub(crate) const ALL: [Fate; 10] = [
        Fate::Delivered,
        Fate::QueueDrop,
        Fate::HoldExpired,
        Fate::Corrupted,
        Fate::Discarded,
        Fate::MacDrop,
        Fate::AgentAbsorbed,
        Fate::ProxyAbsorbed,
        Fate::LinkAbsorbed,
        Fate::Unroutable,
    ];
}

/// Packets that left the network, by fate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fates([u64; Fate::ALL.len()]);

impl Fates {
    /// Count one packet with `fate`.
    #[inline(always)]
    pub(crate) fn add(&mut self, fate: Fate) {
        self.0[fate as usize] += 1;
    }
    /// Packets counted with `fate`.
    pub(crate) fn get(&self, fate: Fate) -> u64 {
        self.0[fate as usize]
    }
}

/// Where every packet the network created went: each packet in exactly one bucket, so
/// `created` equals the sum of the others ([`PacketAccount::balances`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketAccount {
    /// Packets created (by endpoints, proxies, agents, link receivers, UDP sources, LL-ELSN
    /// notices and the emulator).
    pub created: u64,
    /// Packets delivered at their destination.
    pub delivered: u64,
    /// Packets a full drop-tail queue refused, on any port.
    pub queue_drops: u64,
    /// Packets an IP-stage hold hiccup intercepted and discarded when it expired.
    pub hold_expired: u64,
    /// Packets that reached the far end of a hop corrupted and were discarded there (including
    /// GSM frames flushed by an RLP reset).
    pub corrupted: u64,
    /// Packets the header decompressor at the far end of a GSM link discarded, out of step.
    pub decompressor_discards: u64,
    /// Frames a MAC gave up after its retry limit (802.11 DCF).
    pub mac_drops: u64,
    /// Packets a base-station agent absorbed (suppressed duplicate ACKs, data taken into the
    /// agent's own buffer).
    pub agent_absorbed: u64,
    /// Packets a split-connection proxy terminated.
    pub proxy_absorbed: u64,
    /// Link ACKs consumed by the link layer and duplicate link frames its receiver discarded.
    pub link_absorbed: u64,
    /// Packets dropped for want of a route.
    pub unroutable: u64,
    /// Packets still inside at the end: in a queue, on a wire, held by a hiccup, a MAC or a
    /// framing medium, or by a link receiver waiting for a hole to be repaired.
    pub in_flight: u64,
}

impl PacketAccount {
    /// The account of `fates` with `created` packets and `in_flight` still inside.
    pub(crate) fn new(created: u64, fates: &Fates, in_flight: u64) -> Self {
        PacketAccount {
            created,
            delivered: fates.get(Fate::Delivered),
            queue_drops: fates.get(Fate::QueueDrop),
            hold_expired: fates.get(Fate::HoldExpired),
            corrupted: fates.get(Fate::Corrupted),
            decompressor_discards: fates.get(Fate::Discarded),
            mac_drops: fates.get(Fate::MacDrop),
            agent_absorbed: fates.get(Fate::AgentAbsorbed),
            proxy_absorbed: fates.get(Fate::ProxyAbsorbed),
            link_absorbed: fates.get(Fate::LinkAbsorbed),
            unroutable: fates.get(Fate::Unroutable),
            in_flight,
        }
    }

    /// The buckets, named, in column order (`created` not among them).
    pub fn buckets(&self) -> [(&'static str, u64); 11] {
        [
            ("delivered", self.delivered),
            ("queue_dropped", self.queue_drops),
            ("hold_expired", self.hold_expired),
            ("corrupted", self.corrupted),
            ("decompressor_discarded", self.decompressor_discards),
            ("mac_dropped", self.mac_drops),
            ("agent_absorbed", self.agent_absorbed),
            ("proxy_absorbed", self.proxy_absorbed),
            ("link_absorbed", self.link_absorbed),
            ("unroutable", self.unroutable),
            ("in_flight", self.in_flight),
        ]
    }

    /// Whether every created packet is in exactly one bucket.
    pub fn balances(&self) -> bool {
        self.buckets().iter().map(|(_, v)| v).sum::<u64>() == self.created
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fate_has_its_own_bucket_and_the_account_balances() {
        let mut f = Fates::default();
        for (i, &fate) in Fate::ALL.iter().enumerate() {
            for _ in 0..=i {
                f.add(fate);
            }
        }
        let a = PacketAccount::new(55 + 7, &f, 7);
        let b = a.buckets();
        // Each fate's count lands in its own column (1, 2, ... 10), then in flight.
        for (i, (_, v)) in b.iter().take(10).enumerate() {
            assert_eq!(*v, i as u64 + 1, "{b:?}");
        }
        assert!(a.balances());
        assert!(!PacketAccount { created: 63, ..a }.balances());
    }
}
