//! The event-order fingerprint: a hash over the time, kind and target of every event popped,
//! in order, as OMNeT++'s fingerprint tests hash the events of a run (OMNeT++ Simulation
//! Manual, "Fingerprint tests"). Two runs with equal fingerprints handled the same events in
//! the same order, not only reached the same results; a change of the scheduler must leave it
//! unchanged. The queue computes it when enabled
//! ([`crate::EventQueue::enable_fingerprint`]), on its out-of-line pop path, so the plain pop
//! pays nothing for it.

/// What the fingerprint takes of an event: its kind (a number fixed by the caller, not an
/// enum's layout) and its target (the port, flow, node... it concerns).
pub type EventKey<E> = fn(&E) -> (u8, u64);

/// FNV-1a, 64 bits, over the little-endian bytes of each event's time (8 bytes), kind (1 byte)
/// and target (8 bytes): the offset basis and prime of Fowler, Noll and Vo
/// (draft-eastlake-fnv-21 §2.1 and §5); integer operations only, the same on every platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint(u64);

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Default for Fingerprint {
    fn default() -> Self {
        Self::new()
    }
}

impl Fingerprint {
    /// The hash of no event.
    pub const fn new() -> Self {
        Fingerprint(FNV_OFFSET)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    }

    /// Add one event: its time in nanoseconds, kind and target.
    pub fn add(&mut self, time_ns: u64, kind: u8, target: u64) {
        self.bytes(&time_ns.to_le_bytes());
        self.bytes(&[kind]);
        self.bytes(&target.to_le_bytes());
    }

    /// The hash so far.
    pub const fn value(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a's published test vectors (draft-eastlake-fnv-21, Appendix C: "" and "a").
    #[test]
    fn fnv1a_test_vectors() {
        let mut h = Fingerprint::new();
        assert_eq!(h.value(), 0xcbf2_9ce4_8422_2325);
        h.bytes(b"a");
        assert_eq!(h.value(), 0xaf63_dc4c_8601_ec8c);
    }

    /// The order of events, not only their set, changes the fingerprint.
    #[test]
    fn order_matters() {
        let (mut x, mut y) = (Fingerprint::new(), Fingerprint::new());
        x.add(5, 1, 1);
        x.add(5, 2, 1);
        y.add(5, 2, 1);
        y.add(5, 1, 1);
        assert_ne!(x, y);
    }
}
