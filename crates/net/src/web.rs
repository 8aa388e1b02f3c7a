//! SURGE-style web sessions: a user who requests pages, each a base object and its embedded
//! objects, thinking between pages (Barford & Crovella, "Generating representative Web
//! workloads", SIGMETRICS/Performance '98; the TCP-ELN study's web traffic, eln-llelsn spec §5.3
//! and §5.1 "5 sessions per mobile node").
//!
//! Sans-IO like the endpoints: a [`WebSession`] never touches packets or connections. It answers
//! the network's three calls — a wake-up it asked for is due ([`WebSession::on_wake`]), the
//! server has the whole request ([`WebSession::on_request_delivered`]), the client has the whole
//! object ([`WebSession::on_object_delivered`]) — with an [`Action`]; the network opens
//! connections, writes the bytes and schedules the wake-ups.
//!
//! The model, with its sources and the resolutions of what the spec leaves open:
//! - A page has one base object and `floor(X)` embedded objects, X ~ Pareto(k = 1, α = 2.43)
//!   (SURGE's "embedded references"); objects are fetched one after another (SURGE's sequential
//!   model), separated by an *active OFF* time ~ Weibull(shape 1.46, scale 0.382 s).
//! - An object's size has SURGE's hybrid file-size distribution: a lognormal body (μ = 9.357,
//!   σ = 1.318, bytes, natural log) below the cut k = 133 KB and a Pareto tail (k, α = 1.1)
//!   above it. The spec gives no mixing weight [GAP]; ours is the body's own mass above k,
//!   P(tail) = 1 − Φ((ln k − μ)/σ) ≈ 3.2 %, which makes the hybrid CDF continuous at k. SURGE's
//!   popularity (Zipf) and temporal locality only decide *which* file is asked for again, which
//!   matters to caches; with no cache on the path they do not change what is transferred, and
//!   are not modelled.
//! - Between pages the user thinks (*inactive OFF*) ~ Pareto(k = 1 s, α = 1.5).
//! - Each object costs a request of `request` bytes from client to server before the server
//!   writes the object (the spec names no request size [GAP]; default 320 bytes, a knob).
//! - Connections ([`HttpMode`]): HTTP/1.0 opens a fresh connection pair for every object (slow
//!   start every time); persistent (the spec's recommended default) opens one per page and
//!   writes every object of the page on it. A connection pair is a request connection (client
//!   to server) and a response connection (server to client); a real HTTP connection carries
//!   both directions on one, piggybacking ACKs on requests: not modelled.
//! - The page response time is the time from the page's request to the last byte of its last
//!   object at the client (the spec's resolution of its [GAP]: page level, not object level).

use engine::{RngStream, SimDuration, SimTime};

/// How objects map to TCP connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpMode {
    /// HTTP/1.0: one connection (pair) per object.
    PerObject,
    /// HTTP/1.1: one persistent connection (pair) per page.
    Persistent,
}

/// SURGE's distributions (Barford & Crovella 1998, Table 1 as the spec lists it) and the
/// session's knobs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WebConfig {
    /// Objects to connections.
    pub mode: HttpMode,
    /// Request bytes per object (client to server).
    pub request: u32,
    /// Lognormal body of object sizes: μ and σ of ln(bytes).
    pub body_mu: f64,
    /// See `body_mu`.
    pub body_sigma: f64,
    /// Pareto tail of object sizes: the cut and scale k, bytes.
    pub tail_k: f64,
    /// Pareto tail shape α.
    pub tail_alpha: f64,
    /// Embedded objects per page: Pareto scale k (objects).
    pub embedded_k: f64,
    /// Embedded objects per page: Pareto shape α.
    pub embedded_alpha: f64,
    /// Think time between pages: Pareto scale k.
    pub think_k: SimDuration,
    /// Think time between pages: Pareto shape α.
    pub think_alpha: f64,
    /// Time between a page's objects: Weibull shape.
    pub active_shape: f64,
    /// Time between a page's objects: Weibull scale.
    pub active_scale: SimDuration,
}

impl WebConfig {
    /// SURGE's parameters as the spec's §5.3 lists them, persistent connections, 320-byte
    /// requests.
    pub const SURGE: WebConfig = WebConfig {
        mode: HttpMode::Persistent,
        request: 320,
        body_mu: 9.357,
        body_sigma: 1.318,
        tail_k: 133_000.0,
        tail_alpha: 1.1,
        embedded_k: 1.0,
        embedded_alpha: 2.43,
        think_k: SimDuration::from_secs(1),
        think_alpha: 1.5,
        active_shape: 1.46,
        active_scale: SimDuration::from_millis(382),
    };

    /// Probability that an object's size comes from the Pareto tail: the lognormal body's mass
    /// above the cut (so the hybrid CDF is continuous there).
    pub fn tail_probability(&self) -> f64 {
        let z = (libm::log(self.tail_k) - self.body_mu) / self.body_sigma;
        1.0 - normal_cdf(z)
    }

    /// The CDF of the hybrid object size (bytes before rounding up to whole bytes).
    pub fn object_size_cdf(&self, x: f64) -> f64 {
        if x < self.tail_k {
            normal_cdf((libm::log(x) - self.body_mu) / self.body_sigma)
        } else {
            let t = self.tail_probability();
            1.0 - t * libm::pow(self.tail_k / x, self.tail_alpha)
        }
    }
}

/// Φ, the standard normal CDF.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2))
}

/// The draws of a session, each from the session's own stream.
pub struct Samplers {
    rng: RngStream,
}

impl Samplers {
    /// Draws from `rng`.
    pub fn new(rng: RngStream) -> Self {
        Samplers { rng }
    }

    /// An object's size in bytes (at least 1): body or tail by the tail probability, the body
    /// redrawn until below the cut (a truncated lognormal), the tail Pareto from the cut.
    pub fn object_size(&mut self, c: &WebConfig) -> u64 {
        let x = if self.rng.bernoulli(c.tail_probability()) {
            self.rng.pareto(c.tail_k, c.tail_alpha)
        } else {
            loop {
                let v = self.rng.lognormal(c.body_mu, c.body_sigma);
                if v < c.tail_k {
                    break v;
                }
            }
        };
        // Whole bytes; a draw beyond 2^53 is astronomically rare but still a valid size.
        (libm::ceil(x) as u64).max(1)
    }

    /// Embedded objects of a page: `floor(Pareto(k, α))`.
    pub fn embedded(&mut self, c: &WebConfig) -> u32 {
        let v = libm::floor(self.rng.pareto(c.embedded_k, c.embedded_alpha));
        if v >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            v as u32
        }
    }

    /// A think time between pages.
    pub fn think(&mut self, c: &WebConfig) -> SimDuration {
        secs(self.rng.pareto(c.think_k.as_secs_f64(), c.think_alpha))
    }

    /// A pause between two objects of a page.
    pub fn active_off(&mut self, c: &WebConfig) -> SimDuration {
        secs(
            self.rng
                .weibull(c.active_shape, c.active_scale.as_secs_f64()),
        )
    }
}

/// Seconds to a duration, in whole nanoseconds (saturating for absurd draws).
fn secs(s: f64) -> SimDuration {
    let ns = libm::round(s * 1e9);
    if ns >= u64::MAX as f64 {
        SimDuration(u64::MAX)
    } else {
        SimDuration(ns as u64)
    }
}

/// Where a session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebState {
    /// Waiting to request the next page at `at` (session start, or thinking).
    Idle {
        /// When the page is requested.
        at: SimTime,
    },
    /// The request for object `obj` (0 is the base) of a page is on its way to the server.
    Requesting {
        /// Page request time.
        page: SimTime,
        /// Object index.
        obj: u32,
        /// Objects of the page.
        objs: u32,
        /// The object's size.
        size: u64,
    },
    /// The server writes object `obj`; the client waits for its last byte.
    Receiving {
        /// Page request time.
        page: SimTime,
        /// Object index.
        obj: u32,
        /// Objects of the page.
        objs: u32,
    },
    /// Between objects: object `next` is requested at `at`.
    Pausing {
        /// Page request time.
        page: SimTime,
        /// Next object's index.
        next: u32,
        /// Objects of the page.
        objs: u32,
        /// When it is requested.
        at: SimTime,
    },
    /// The session has stopped (past its stop time): it requests nothing more.
    Stopped,
}

/// What the network is to do for a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing.
    None,
    /// Wake the session at this time.
    Wake(SimTime),
    /// Send a request of `request` bytes for an object of `size` bytes, on a fresh connection
    /// pair if `new_connection`, else on the page's.
    Request {
        /// Request bytes, client to server.
        request: u32,
        /// Object bytes the server then writes.
        size: u64,
        /// Whether to open a new connection pair for it.
        new_connection: bool,
    },
    /// The server has the request: write the object's `size` bytes.
    Respond {
        /// Object bytes.
        size: u64,
    },
}

/// A finished page: when it was requested and how long until its last byte arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// Request time of the page.
    pub requested: SimTime,
    /// Page response time.
    pub response: SimDuration,
    /// Objects of the page.
    pub objects: u32,
}

/// One user's web session.
pub struct WebSession {
    cfg: WebConfig,
    draws: Samplers,
    state: WebState,
    stop: Option<SimTime>,
    pages: Vec<Page>,
    objects: u64,
}

impl WebSession {
    /// A session whose first page is requested at `start` and that requests no page at or after
    /// `stop`, drawing from `rng`.
    pub fn new(cfg: WebConfig, start: SimTime, stop: Option<SimTime>, rng: RngStream) -> Self {
        WebSession {
            cfg,
            draws: Samplers::new(rng),
            state: WebState::Idle { at: start },
            stop,
            pages: Vec::new(),
            objects: 0,
        }
    }

    /// Where it is.
    pub fn state(&self) -> WebState {
        self.state
    }

    /// Its settings.
    pub fn config(&self) -> &WebConfig {
        &self.cfg
    }

    /// When it first wants to be woken.
    pub fn first_wake(&self) -> Option<SimTime> {
        match self.state {
            WebState::Idle { at } => Some(at),
            _ => None,
        }
    }

    /// The pages completed, in order.
    pub fn pages(&self) -> &[Page] {
        &self.pages
    }

    /// Objects completely received.
    pub fn objects(&self) -> u64 {
        self.objects
    }

    /// A wake-up it asked for is due (a page request or the next object of a page).
    pub fn on_wake(&mut self, now: SimTime) -> Action {
        match self.state {
            WebState::Idle { at } if now >= at => {
                if self.stop.is_some_and(|s| now >= s) {
                    self.state = WebState::Stopped;
                    return Action::None;
                }
                let objs = 1u32.saturating_add(self.draws.embedded(&self.cfg));
                self.request(now, 0, objs)
            }
            WebState::Pausing {
                page,
                next,
                objs,
                at,
            } if now >= at => self.request(page, next, objs),
            // An early or stale wake-up: nothing to do.
            _ => Action::None,
        }
    }

    fn request(&mut self, page: SimTime, obj: u32, objs: u32) -> Action {
        let size = self.draws.object_size(&self.cfg);
        self.state = WebState::Requesting {
            page,
            obj,
            objs,
            size,
        };
        Action::Request {
            request: self.cfg.request,
            size,
            new_connection: obj == 0 || self.cfg.mode == HttpMode::PerObject,
        }
    }

    /// The server has received the whole request.
    pub fn on_request_delivered(&mut self) -> Action {
        match self.state {
            WebState::Requesting {
                page,
                obj,
                objs,
                size,
            } => {
                self.state = WebState::Receiving { page, obj, objs };
                Action::Respond { size }
            }
            _ => Action::None,
        }
    }

    /// The client has received the object's last byte at `now`.
    pub fn on_object_delivered(&mut self, now: SimTime) -> Action {
        let WebState::Receiving { page, obj, objs } = self.state else {
            return Action::None;
        };
        self.objects += 1;
        if obj + 1 < objs {
            let at = now + self.draws.active_off(&self.cfg);
            self.state = WebState::Pausing {
                page,
                next: obj + 1,
                objs,
                at,
            };
            return Action::Wake(at);
        }
        self.pages.push(Page {
            requested: page,
            response: now.saturating_since(page),
            objects: objs,
        });
        let at = now + self.draws.think(&self.cfg);
        self.state = WebState::Idle { at };
        Action::Wake(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ks(x: &mut [f64], f: impl Fn(f64) -> f64) -> f64 {
        x.sort_by(f64::total_cmp);
        engine::ks_distance(x, f)
    }

    /// 1 % critical value of the one-sample KS statistic for n = 20000.
    const KS_1PCT: f64 = 0.0115;

    #[test]
    fn tail_weight_makes_the_hybrid_cdf_continuous() {
        let c = WebConfig::SURGE;
        let p = c.tail_probability();
        // (ln 133000 − 9.357)/1.318 = 1.852; 1 − Φ(1.852) = 0.0320.
        assert!((p - 0.0320).abs() < 0.0005, "{p}");
        let below = c.object_size_cdf(c.tail_k * (1.0 - 1e-12));
        let at = c.object_size_cdf(c.tail_k);
        assert!((below - at).abs() < 1e-9);
    }

    #[test]
    fn object_sizes_follow_the_hybrid_distribution() {
        let c = WebConfig::SURGE;
        let mut s = Samplers::new(RngStream::new(1, "web"));
        // Sizes are whole bytes (rounded up): compare the CDF at the byte's upper edge with a
        // half-byte correction, negligible against sizes of kilobytes.
        let mut x: Vec<f64> = (0..20_000).map(|_| s.object_size(&c) as f64).collect();
        let d = ks(&mut x, |v| c.object_size_cdf(v - 0.5));
        assert!(d < KS_1PCT, "KS distance {d}");
        // The test can fail: a plain lognormal (no tail) is told apart over the tail region.
        let tail = x.iter().filter(|&&v| v >= c.tail_k).count() as f64 / x.len() as f64;
        assert!((tail - c.tail_probability()).abs() < 0.005, "{tail}");
    }

    #[test]
    fn think_and_active_off_times_follow_pareto_and_weibull() {
        let c = WebConfig::SURGE;
        let mut s = Samplers::new(RngStream::new(2, "web"));
        let mut t: Vec<f64> = (0..20_000).map(|_| s.think(&c).as_secs_f64()).collect();
        let d = ks(&mut t, |v| 1.0 - (1.0 / v).powf(1.5));
        assert!(d < KS_1PCT, "think KS {d}");
        let mut a: Vec<f64> = (0..20_000)
            .map(|_| s.active_off(&c).as_secs_f64())
            .collect();
        let d = ks(&mut a, |v| 1.0 - (-(v / 0.382).powf(1.46)).exp());
        assert!(d < KS_1PCT, "active OFF KS {d}");
    }

    #[test]
    fn embedded_counts_are_floored_pareto() {
        // P(floor(X) >= n) = n^-2.43 for n >= 1, so P(0 embedded) = 0 and P(1) = 1 − 2^-2.43.
        let c = WebConfig::SURGE;
        let mut s = Samplers::new(RngStream::new(3, "web"));
        let n = 50_000;
        let e: Vec<u32> = (0..n).map(|_| s.embedded(&c)).collect();
        assert!(e.iter().all(|&k| k >= 1));
        let ones = e.iter().filter(|&&k| k == 1).count() as f64 / n as f64;
        let want = 1.0 - 2f64.powf(-2.43);
        assert!((ones - want).abs() < 0.01, "{ones} vs {want}");
    }

    #[test]
    fn a_session_requests_objects_in_turn_and_times_its_pages() {
        let cfg = WebConfig {
            mode: HttpMode::PerObject,
            ..WebConfig::SURGE
        };
        let t0 = SimTime::ZERO + SimDuration::from_secs(2);
        let mut w = WebSession::new(cfg, t0, None, RngStream::new(4, "web"));
        assert_eq!(w.first_wake(), Some(t0));
        // Too early: nothing.
        assert_eq!(w.on_wake(SimTime::ZERO), Action::None);
        let Action::Request {
            request,
            size,
            new_connection,
        } = w.on_wake(t0)
        else {
            panic!("no request")
        };
        assert_eq!((request, new_connection), (320, true));
        let WebState::Requesting { objs, .. } = w.state() else {
            panic!()
        };
        assert_eq!(w.on_request_delivered(), Action::Respond { size });
        let mut now = t0 + SimDuration::from_millis(500);
        for obj in 0..objs {
            let a = w.on_object_delivered(now);
            let Action::Wake(at) = a else { panic!() };
            assert!(at > now);
            now = at;
            if obj + 1 < objs {
                let Action::Request { new_connection, .. } = w.on_wake(now) else {
                    panic!()
                };
                // HTTP/1.0: every object on its own connection.
                assert!(new_connection);
                assert!(matches!(w.on_request_delivered(), Action::Respond { .. }));
                now += SimDuration::from_millis(100);
            }
        }
        assert_eq!(w.pages().len(), 1);
        assert_eq!(w.pages()[0].requested, t0);
        assert_eq!(w.pages()[0].objects, objs);
        assert_eq!(w.objects(), u64::from(objs));
        assert!(matches!(w.state(), WebState::Idle { .. }));
    }

    #[test]
    fn persistent_mode_reuses_the_page_connection_and_a_stop_ends_the_session() {
        let mut w = WebSession::new(
            WebConfig::SURGE,
            SimTime::ZERO,
            Some(SimTime::ZERO + SimDuration::from_secs(1)),
            RngStream::new(9, "web"),
        );
        let mut now = SimTime::ZERO;
        let mut first = true;
        loop {
            match w.on_wake(now) {
                Action::Request { new_connection, .. } => {
                    assert_eq!(new_connection, first);
                    first = false;
                }
                Action::None => break,
                a => panic!("{a:?}"),
            }
            w.on_request_delivered();
            let Action::Wake(at) = w.on_object_delivered(now) else {
                panic!()
            };
            now = at;
            if matches!(w.state(), WebState::Idle { .. }) {
                first = true;
            }
        }
        assert_eq!(w.state(), WebState::Stopped);
        assert!(now >= SimTime::ZERO + SimDuration::from_secs(1));
    }
}
