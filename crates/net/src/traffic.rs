//! Background traffic: UDP sources that load queues and links but are not TCP (the LL-ELSN
//! study's Pareto background, eln-llelsn spec §5.4.3; constant-bit-rate probes). Sans-IO: a
//! source only says when its next datagram leaves; the network sends it and asks again.
//!
//! - [`UdpSourceConfig::Cbr`]: one datagram of `size` bytes every `size·8/rate` seconds, the
//!   k-th at `start + floor(k · size · 8 · 10^9 / rate)` ns exactly (no drift).
//! - [`UdpSourceConfig::Pareto`]: an ON/OFF source after ns-2's `Application/Traffic/Pareto`:
//!   ON and OFF periods are Pareto-distributed with the given means and shape (> 1; scale
//!   `mean · (shape − 1) / shape`). During an ON period of length D, datagrams leave every
//!   `size·8/rate` seconds, `max(1, round(D / interval))` of them; the next ON period starts an
//!   OFF period after the burst's last interval. The mean rate is about
//!   `rate · on / (on + off)`. Draws come from the flow's own stream.

use engine::{RngStream, SimDuration, SimTime};

/// A validated UDP source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UdpSourceConfig {
    /// Constant bit rate.
    Cbr {
        /// Bit rate of the datagrams' payload (> 0).
        rate_bps: u64,
        /// Payload bytes per datagram (> 0).
        size: u32,
    },
    /// Pareto ON/OFF.
    Pareto {
        /// Bit rate during ON periods (> 0).
        rate_bps: u64,
        /// Mean ON period (> 0).
        mean_on: SimDuration,
        /// Mean OFF period (> 0).
        mean_off: SimDuration,
        /// Shape of both distributions (> 1).
        shape: f64,
        /// Payload bytes per datagram (> 0).
        size: u32,
    },
}

impl UdpSourceConfig {
    /// Payload bytes per datagram.
    pub fn size(&self) -> u32 {
        match *self {
            UdpSourceConfig::Cbr { size, .. } | UdpSourceConfig::Pareto { size, .. } => size,
        }
    }

    /// Nanoseconds between datagrams at the source's (ON) rate, exactly: `k` intervals are
    /// `k · size · 8 · 10^9 / rate` ns, floored.
    fn after(&self, k: u64) -> SimDuration {
        let (rate, size) = match *self {
            UdpSourceConfig::Cbr { rate_bps, size }
            | UdpSourceConfig::Pareto { rate_bps, size, .. } => (rate_bps, size),
        };
        let ns = u128::from(k) * u128::from(size) * 8 * 1_000_000_000 / u128::from(rate.max(1));
        SimDuration(u64::try_from(ns).unwrap_or(u64::MAX))
    }
}

/// Where a source is in its pattern.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Constant rate: the next datagram is the `k`-th since `origin`.
    Steady { origin: SimTime, k: u64 },
    /// Inside a burst of `n` datagrams starting at `origin`, the next being the `k`-th.
    Burst { origin: SimTime, k: u64, n: u64 },
}

/// A running UDP source.
#[derive(Clone, Debug)]
pub struct UdpSource {
    cfg: UdpSourceConfig,
    phase: Phase,
    rng: RngStream,
}

impl UdpSource {
    /// A source whose first datagram leaves at `start`, drawing from `rng`.
    pub fn new(cfg: UdpSourceConfig, start: SimTime, mut rng: RngStream) -> Self {
        let phase = match cfg {
            UdpSourceConfig::Cbr { .. } => Phase::Steady {
                origin: start,
                k: 0,
            },
            UdpSourceConfig::Pareto { .. } => Phase::Burst {
                origin: start,
                k: 0,
                n: Self::burst_len(&cfg, &mut rng),
            },
        };
        UdpSource { cfg, phase, rng }
    }

    /// The configuration.
    pub fn config(&self) -> &UdpSourceConfig {
        &self.cfg
    }

    /// Datagrams in the next ON period.
    fn burst_len(cfg: &UdpSourceConfig, rng: &mut RngStream) -> u64 {
        let UdpSourceConfig::Pareto { mean_on, shape, .. } = *cfg else {
            return 1;
        };
        let on = rng.pareto(mean_on.as_nanos() as f64 * (shape - 1.0) / shape, shape);
        let interval = cfg.after(1).as_nanos().max(1) as f64;
        (on / interval).round().max(1.0).min(u64::MAX as f64 / 2.0) as u64
    }

    /// The departure time of the next datagram; the source then moves on to the one after.
    pub fn next_departure(&mut self) -> SimTime {
        match self.phase {
            Phase::Steady { origin, k } => {
                self.phase = Phase::Steady { origin, k: k + 1 };
                origin + self.cfg.after(k)
            }
            Phase::Burst { origin, k, n } => {
                let at = origin + self.cfg.after(k);
                self.phase = if k + 1 < n {
                    Phase::Burst {
                        origin,
                        k: k + 1,
                        n,
                    }
                } else {
                    let UdpSourceConfig::Pareto {
                        mean_off, shape, ..
                    } = self.cfg
                    else {
                        unreachable!("bursts come from Pareto sources")
                    };
                    let off = self
                        .rng
                        .pareto(mean_off.as_nanos() as f64 * (shape - 1.0) / shape, shape);
                    let off = SimDuration(off.min(u64::MAX as f64 / 4.0) as u64);
                    Phase::Burst {
                        origin: origin + self.cfg.after(n) + off,
                        k: 0,
                        n: Self::burst_len(&self.cfg, &mut self.rng),
                    }
                };
                at
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbr_departures_are_exact_and_do_not_drift() {
        // 1000 bytes at 3 Mb/s: 2666666.67 ns apart, floored each time from the origin; the
        // 999999th after the first leaves at exactly 999999 · 8000 / 3e6 s = 2666.664 s.
        let cfg = UdpSourceConfig::Cbr {
            rate_bps: 3_000_000,
            size: 1000,
        };
        let mut s = UdpSource::new(cfg, SimTime(5), RngStream::new(1, "t"));
        assert_eq!(s.next_departure(), SimTime(5));
        assert_eq!(s.next_departure(), SimTime(5 + 2_666_666));
        assert_eq!(s.next_departure(), SimTime(5 + 5_333_333));
        let mut last = SimTime(0);
        for _ in 3..1_000_000 {
            last = s.next_departure();
        }
        assert_eq!(last, SimTime(5 + 2_666_664_000_000));
    }

    #[test]
    fn pareto_on_off_has_its_mean_rate() {
        // ON rate 10 Mb/s, ON 0.4 s, OFF 0.1 s (mean 8 Mb/s, the LL-ELSN background), shape 2.
        let cfg = UdpSourceConfig::Pareto {
            rate_bps: 10_000_000,
            mean_on: SimDuration::from_millis(400),
            mean_off: SimDuration::from_millis(100),
            shape: 2.0,
            size: 1000,
        };
        let mut s = UdpSource::new(cfg, SimTime::ZERO, RngStream::new(4, "bg"));
        let n = 2_000_000u64;
        let mut last = SimTime::ZERO;
        for _ in 0..n {
            let t = s.next_departure();
            assert!(t >= last);
            last = t;
        }
        let mbps = n as f64 * 8000.0 / last.as_secs_f64() / 1e6;
        // Shape 2 has infinite variance: the long-run mean converges slowly; 10 % here.
        assert!((mbps - 8.0).abs() < 0.8, "{mbps}");
    }
}
