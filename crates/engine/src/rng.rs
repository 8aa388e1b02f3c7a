//! Named random streams (DESIGN.md, "Determinism"; house rule 2).
//!
//! Every random component draws from its own [`RngStream`], derived from the run's master seed
//! and a stable key such as `"hop1/forward/errors"`. The key, not the creation order, decides the
//! stream, so adding a flow or swapping a TCP variant never changes the losses a link produces
//! (common random numbers across schemes).
//!
//! We own the generator (xoshiro256** seeded through SplitMix64, both public-domain algorithms by
//! Blackman and Vigna) and the few samplers we need, and the logarithm comes from the pinned
//! pure-Rust `libm`, so that results depend on neither a dependency bump nor the platform's libm.

/// FNV-1a 64-bit hash of a stream key: stable across builds, platforms and Rust versions
/// (unlike `std`'s `DefaultHasher`, whose algorithm is unspecified).
pub fn stream_key(key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An independent, reproducible stream of random numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RngStream {
    s: [u64; 4],
}

impl RngStream {
    /// The stream named `key` under master seed `seed`.
    pub fn new(seed: u64, key: &str) -> Self {
        let mut sm = seed ^ stream_key(key).rotate_left(17);
        // Mix the seed once more so that seeds 1, 2, 3 ... do not give correlated states.
        let _ = splitmix64(&mut sm);
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        RngStream { s }
    }

    /// The next 64 random bits (xoshiro256**).
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform float in the half-open interval (0, 1]: never zero, so `ln` is always finite.
    pub fn unit_open0(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift; the bias is below 2^-64 · n).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An exponentially distributed float with the given mean (inverse transform).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * libm::log(self.unit_open0())
    }

    /// A geometrically distributed whole number `k ≥ 1` with the given mean `m ≥ 1`
    /// (P(k) = (1 - 1/m)^(k-1) / m, the number of trials up to the first success), by inverse
    /// transform: `ceil(ln U / ln(1 - 1/m))`, at least 1.
    pub fn geometric(&mut self, mean: f64) -> u64 {
        let q = 1.0 - 1.0 / mean.max(1.0);
        if q <= 0.0 {
            return 1;
        }
        let k = libm::ceil(libm::log(self.unit_open0()) / libm::log(q));
        if k >= u64::MAX as f64 {
            u64::MAX
        } else {
            (k as u64).max(1)
        }
    }

    /// A Pareto-distributed float with scale `xm > 0` and shape `a > 0` (inverse transform:
    /// `xm / U^(1/a)`, U in (0, 1]); its mean is `a·xm / (a − 1)` for `a > 1`.
    pub fn pareto(&mut self, xm: f64, shape: f64) -> f64 {
        xm / libm::pow(self.unit_open0(), 1.0 / shape)
    }

    /// A standard normal float (Box–Muller, Box & Muller 1958: `sqrt(-2 ln U1) · cos(2π U2)`).
    /// Each call draws two uniforms and keeps no second variate, so a stream's later draws never
    /// depend on how many normals came before in another order.
    pub fn normal(&mut self) -> f64 {
        let r = libm::sqrt(-2.0 * libm::log(self.unit_open0()));
        r * libm::cos(2.0 * std::f64::consts::PI * self.unit_open0())
    }

    /// A lognormally distributed float: `exp(mu + sigma · N)`, `mu` and `sigma` of the
    /// underlying normal (natural log), as SURGE's file-size body is given (Barford & Crovella 1998).
    pub fn lognormal(&mut self, mu: f64, sigma: f64) -> f64 {
        libm::exp(mu + sigma * self.normal())
    }

    /// A Weibull-distributed float with `shape > 0` and `scale > 0` (inverse transform:
    /// `scale · (−ln U)^(1/shape)`, U in (0, 1]); F(x) = 1 − exp(−(x/scale)^shape).
    pub fn weibull(&mut self, shape: f64, scale: f64) -> f64 {
        scale * libm::pow(-libm::log(self.unit_open0()), 1.0 / shape)
    }

    /// `true` with probability `p` (clamped to [0, 1] by the comparison itself).
    pub fn bernoulli(&mut self, p: f64) -> bool {
        // unit_open0 is in (0, 1]; p = 1 always succeeds, p = 0 never does.
        self.unit_open0() <= p
    }
}

/// The one-sample Kolmogorov–Smirnov statistic of `sorted` (ascending) against the CDF `cdf`:
/// the largest gap between the empirical and the given distribution. How the samplers' tests
/// check their draws (the 1 % critical value is about 1.63/√n).
pub fn ks_distance(sorted: &[f64], cdf: impl Fn(f64) -> f64) -> f64 {
    let n = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let c = cdf(v);
            (c - i as f64 / n).abs().max((c - (i + 1) as f64 / n).abs())
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn streams_depend_on_key_and_seed_only() {
        let a1: Vec<u64> = (0..4)
            .map({
                let mut r = RngStream::new(7, "hop1/fwd");
                move |_| r.next_u64()
            })
            .collect();
        let a2: Vec<u64> = (0..4)
            .map({
                let mut r = RngStream::new(7, "hop1/fwd");
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = RngStream::new(7, "hop1/rev");
                move |_| r.next_u64()
            })
            .collect();
        let c: Vec<u64> = (0..4)
            .map({
                let mut r = RngStream::new(8, "hop1/fwd");
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a1, a2);
        assert_ne!(a1, b);
        assert_ne!(a1, c);
    }

    #[test]
    fn golden_values_never_change() {
        // A dependency bump or refactor must not silently change published results.
        let mut r = RngStream::new(1, "golden");
        let v: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(
            v,
            GOLDEN.to_vec(),
            "RngStream output changed: published results would change"
        );
        assert_eq!(stream_key(""), 0xcbf2_9ce4_8422_2325);
    }
    const GOLDEN: [u64; 3] = [
        11512863714455853509,
        15938203215791011309,
        4539098007345450037,
    ];

    #[test]
    fn exponential_mean_and_bernoulli_rate() {
        let mut r = RngStream::new(3, "stats");
        let n = 200_000;
        let mean: f64 = (0..n).map(|_| r.exponential(5.0)).sum::<f64>() / n as f64;
        assert!((mean - 5.0).abs() < 0.05, "mean {mean}");
        let hits = (0..n).filter(|_| r.bernoulli(0.1)).count() as f64 / n as f64;
        assert!((hits - 0.1).abs() < 0.003, "rate {hits}");
        assert!(!RngStream::new(1, "x").bernoulli(0.0));
        assert!(RngStream::new(1, "x").bernoulli(1.0));
    }

    proptest! {
        #[test]
        fn below_stays_in_range(seed in any::<u64>(), n in 1u64..1_000_000) {
            let mut r = RngStream::new(seed, "below");
            for _ in 0..32 { prop_assert!(r.below(n) < n); }
        }

        #[test]
        fn unit_is_in_open_zero_closed_one(seed in any::<u64>()) {
            let mut r = RngStream::new(seed, "unit");
            for _ in 0..64 { let u = r.unit_open0(); prop_assert!(u > 0.0 && u <= 1.0); }
        }
    }
    #[test]
    fn geometric_has_its_mean_and_support() {
        let mut r = RngStream::new(3, "geometric");
        let n = 200_000;
        let mut sum = 0u64;
        for _ in 0..n {
            let k = r.geometric(4.0);
            assert!(k >= 1);
            sum += k;
        }
        // Variance (1 - p)/p^2 = 12: the standard error of the mean is 0.0077.
        let mean = sum as f64 / n as f64;
        assert!((mean - 4.0).abs() < 0.04, "{mean}");
        assert_eq!(r.geometric(1.0), 1);
    }
    fn ks(x: &[f64], f: impl Fn(f64) -> f64) -> f64 {
        ks_distance(x, f)
    }

    fn sorted(n: usize, mut draw: impl FnMut() -> f64) -> Vec<f64> {
        let mut x: Vec<f64> = (0..n).map(|_| draw()).collect();
        x.sort_by(f64::total_cmp);
        x
    }

    #[test]
    fn lognormal_follows_its_cdf() {
        // SURGE's file-size body (mu 9.357, sigma 1.318); F(x) = Φ((ln x − mu)/sigma),
        // Φ(z) = (1 + erf(z/√2))/2. 1 % critical value for n = 20000: 0.0115.
        let (mu, sigma) = (9.357, 1.318);
        let mut r = RngStream::new(12, "lognormal");
        let x = sorted(20_000, || r.lognormal(mu, sigma));
        let d = ks(&x, |v| {
            0.5 * (1.0 + libm::erf((v.ln() - mu) / sigma / std::f64::consts::SQRT_2))
        });
        assert!(d < 0.0115, "KS distance {d}");
    }

    #[test]
    fn normal_has_mean_zero_and_unit_variance() {
        let mut r = RngStream::new(3, "normal");
        let x: Vec<f64> = (0..50_000).map(|_| r.normal()).collect();
        let m = x.iter().sum::<f64>() / x.len() as f64;
        let v = x.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / x.len() as f64;
        assert!(m.abs() < 0.02, "mean {m}");
        assert!((v - 1.0).abs() < 0.03, "variance {v}");
    }

    #[test]
    fn weibull_follows_its_cdf() {
        // SURGE's inter-object time (shape 1.46, scale 0.382 s).
        let (k, l) = (1.46, 0.382);
        let mut r = RngStream::new(13, "weibull");
        let x = sorted(20_000, || r.weibull(k, l));
        let d = ks(&x, |v| 1.0 - (-(v / l).powf(k)).exp());
        assert!(d < 0.0115, "KS distance {d}");
        // A wrong shape is caught by the same test (the test can fail).
        assert!(ks(&x, |v| 1.0 - (-(v / l).powf(1.2)).exp()) > 0.0115);
    }

    #[test]
    fn pareto_follows_its_cdf() {
        // Kolmogorov-Smirnov against F(x) = 1 - (xm/x)^a; the 1 % critical value for n = 20000
        // is 1.63/sqrt(n) = 0.0115.
        let (xm, a) = (0.2, 2.0);
        let mut r = RngStream::new(11, "pareto");
        let n = 20_000;
        let mut x: Vec<f64> = (0..n).map(|_| r.pareto(xm, a)).collect();
        x.sort_by(f64::total_cmp);
        let d = ks(&x, |v| 1.0 - (xm / v).powf(a));
        assert!(d < 0.0115, "KS distance {d}");
        assert!(x[0] >= xm);
    }
}
