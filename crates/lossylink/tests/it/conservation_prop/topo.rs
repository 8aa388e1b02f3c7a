//! Random scenarios for the conservation property test: a random tree of routers with fixed
//! hosts, a base station and mobiles behind it on wireless links, a DCF cell or a GSM link,
//! flows of every kind, random error models, hiccups, warm-ups and stops, queue disciplines
//! (drop-tail, RED, CoDel, FQ-CoDel, with or without ECN marking) on random link directions,
//! ECN-capable flows and per-node jitter. The tree makes each flow's path unique, so the test
//! knows which links a flow crosses.

/// A scheme family of the issue: which base-station side and which schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// End to end over plain wireless links (ELN variants included).
    E2e,
    /// A link-layer agent at the base station (LL, snoop, SMART, ARQ, ELN marking).
    Agent,
    /// Split connection at the base station.
    Split,
    /// LL-ELSN on an 802.11 DCF cell.
    Elsn,
    /// End to end over an 802.11 DCF cell.
    Dcf,
    /// End to end over a GSM-CSD link (RLP, VJ compression, block erasures).
    Gsm,
}

pub const FAMILIES: [Family; 6] = [
    Family::E2e,
    Family::Agent,
    Family::Split,
    Family::Elsn,
    Family::Dcf,
    Family::Gsm,
];

/// End-to-end schemes (any flow; the only ones on fixed-to-fixed flows): every end-to-end
/// scheme the registry has, so that a sender joins the property by being registered, and two
/// of the profiles' combinations.
pub fn e2e() -> &'static [String] {
    static LIST: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        lossylink::schemes()
            .into_iter()
            .filter(|s| s.family == "end-to-end")
            .map(|s| s.name.to_string())
            .chain(["e2e+modern", "e2e-newreno+linux+ecn"].map(String::from))
            .collect()
    })
}
/// LL-ELSN and the senders the study put over it.
pub const ELSN: [&str; 4] = [
    "ll-elsn",
    "ll-elsn-hack",
    "ll-elsn-hack-fixed",
    "ll-elsn-lhp",
];
/// Schemes with an agent at the base station.
pub const AGENTS: [&str; 7] = [
    "ll",
    "ll-tcp-aware",
    "ll-smart",
    "ll-smart-tcp-aware",
    "snoop-newreno",
    "ll-arq",
    "eln-bs",
];
/// Split schemes.
pub const SPLIT: [&str; 2] = ["split", "split-smart"];

/// MSS of every TCP flow, and an upper bound on a frame's bytes (MSS, TCP/IP headers with
/// options, framing).
pub const MSS: u64 = 1000;
pub const FRAME: u64 = 1200;
/// Receive buffer of every TCP flow.
pub const BUFFER: u64 = 16 * 1024;

/// What a flow is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A bulk transfer of this many KiB.
    Finite(u32),
    /// Long-lived, stopping at this many ms (none: runs to the end).
    Long(Option<u32>),
    /// UDP constant bit rate source of this many kb/s, stopping at this many ms.
    Udp(u32, Option<u32>),
    /// A web session.
    Web,
}

/// One link of the tree: the up-link of a node towards its parent.
#[derive(Clone, Debug)]
pub struct Up {
    pub parent: usize,
    /// Capacity in bit/s (a cell's rate for a cell member's link).
    pub rate: u64,
    /// Queue in packets (each direction).
    pub queue: u64,
    /// Whether an agent, a proxy, a hiccup, a link ARQ or RLP may hold data past this link on
    /// the way down (the slack of the bound).
    pub holds: bool,
}

/// A node of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub kind: &'static str,
    pub up: Option<Up>,
    /// Its `jitter` in µs (0: none): each packet it sends waits up to this long first.
    pub jitter_us: u32,
}

/// The generated scenario and what the checks need to know of it.
#[derive(Clone, Debug)]
pub struct Topo {
    pub nodes: Vec<Node>,
    /// Flows in document order: (source node, destination node, kind, start ms).
    pub flows: Vec<(usize, usize, Kind, u32)>,
    pub warmup_ms: u32,
    pub text: String,
    /// Block-erasure files written for it (removed by [`Topo::remove_files`]).
    pub files: Vec<std::path::PathBuf>,
}

impl Topo {
    /// Remove the files written for the scenario.
    pub fn remove_files(&self) {
        for f in &self.files {
            let _ = std::fs::remove_file(f);
        }
    }

    /// The links (by child node) from `a` to `b`, in order, each with its direction: `true`
    /// when the packet goes down the tree (parent to child).
    pub fn path(&self, a: usize, b: usize) -> Vec<(usize, bool)> {
        let ancestors = |mut n: usize| {
            let mut v = vec![n];
            while let Some(u) = &self.nodes[n].up {
                n = u.parent;
                v.push(n);
            }
            v
        };
        let (pa, pb) = (ancestors(a), ancestors(b));
        let lca = *pa.iter().find(|n| pb.contains(n)).expect("a tree");
        let mut out: Vec<(usize, bool)> = pa
            .iter()
            .take_while(|&&n| n != lca)
            .map(|&n| (n, false))
            .collect();
        let down: Vec<(usize, bool)> = pb
            .iter()
            .take_while(|&&n| n != lca)
            .map(|&n| (n, true))
            .collect();
        out.extend(down.into_iter().rev());
        out
    }
}

/// The random draws a scenario is made of (proptest picks and shrinks them).
#[derive(Clone, Debug)]
pub struct Genes {
    pub family: usize,
    pub scheme: usize,
    /// Parent choice of each router after the first.
    pub routers: Vec<usize>,
    /// Fixed hosts: (router choice, rate choice, queue).
    pub fixed: Vec<(usize, usize, u32)>,
    /// The base station's router, rate choice and queue.
    pub bs: (usize, usize, u32),
    /// Mobiles: (rate choice, queue).
    pub mobiles: Vec<(usize, u32)>,
    /// Error model of the wireless links: (model, parameter 0..1000).
    pub error: (usize, u32),
    /// A hiccup on the first wireless downlink: (kind, at ms, length).
    pub hiccup: (usize, u32, u32),
    /// Flows: (kind, source choice, destination choice, size, start ms, stop ms, scheme).
    pub flows: Vec<(usize, usize, usize, u32, u32, u32, usize)>,
    pub warmup_ms: u32,
    pub length_ms: u32,
    /// DCF retry limit, GSM option.
    pub extra: u32,
    /// Queue disciplines: (which link directions, by bit; kinds, two bits a direction;
    /// their parameters).
    pub aqm: (u32, u32, u32),
    /// ECN: (none / every flow / the flows of a mask, the mask).
    pub ecn: (usize, u32),
    /// Node jitter: (which nodes, by bit; the jitter's draw).
    pub jitter: (u32, u32),
    /// ns-2's TCP rules (the LL-ELSN study's preset), by bit: its timer (`rto = "ns2"`), an
    /// unbounded window, `singledup_` (limited transmit), Reno's `bugFix_`, `slowdown`'s loss
    /// window, Sack1 (`fall-floyd`) and ns-2's NewReno.
    pub ns2: u32,
}

/// The `[tcp]` lines of ns-2's rules that `bits` picks (Genes::ns2).
fn ns2_text(bits: u32) -> String {
    let rules = [
        "rto = \"ns2\"\n",
        "window = \"unbounded\"\n",
        "limited_transmit = true\n",
        "reno_bugfix = true\n",
        "loss_window = true\n",
        "sack_sender = \"fall-floyd\"\n",
        "newreno = \"ns2\"\n",
    ];
    (0..rules.len())
        .filter(|&i| (bits >> i) & 1 == 1)
        .map(|i| rules[i])
        .collect()
}

/// The queue of link direction `j` (numbered as the generator makes them) with `packets`
/// packets: drop-tail as a count, or a discipline with random valid parameters, the same
/// packet limit, and ECN marking or not.
fn queue_text(g: &Genes, j: usize, packets: u64) -> String {
    let (mask, kinds, params) = g.aqm;
    if (mask >> (j % 32)) & 1 == 0 {
        return packets.to_string();
    }
    let p = params
        .wrapping_mul(2_654_435_761)
        .wrapping_add((j as u32).wrapping_mul(40_503));
    let ecn = (p >> 3) & 1 == 1;
    let target = 1 + (p >> 4) % 10;
    let interval = target * (2 + (p >> 8) % 20);
    match (kinds >> (2 * (j % 16))) & 3 {
        0 => format!("{{ kind = \"droptail\", packets = {packets} }}"),
        1 => {
            let min_th = f64::from(p % 6);
            let max_th = min_th + 1.0 + f64::from((p >> 5) % 15);
            format!(
                "{{ kind = \"red\", packets = {packets}, min_th = {min_th:.1}, max_th = {max_th:.1}, w_q = {}, max_p = {}, gentle = {}, ecn = {ecn} }}",
                [0.002, 0.02, 0.2, 1.0][((p >> 10) % 4) as usize],
                [0.02, 0.1, 0.5, 1.0][((p >> 12) % 4) as usize],
                (p >> 14) & 1 == 1,
            )
        }
        2 => format!(
            "{{ kind = \"codel\", packets = {packets}, target = \"{target}ms\", interval = \"{interval}ms\", ecn = {ecn} }}"
        ),
        _ => format!(
            "{{ kind = \"fq_codel\", packets = {packets}, flows = {}, quantum = \"{}B\", memory_limit = \"{}\", target = \"{target}ms\", interval = \"{interval}ms\", ecn = {ecn} }}",
            1 + (p >> 15) % 64,
            300 + (p >> 17) % 1300,
            ["8KiB", "64KiB", "32MiB"][((p >> 22) % 3) as usize],
        ),
    }
}

/// The two directions of link `j` (forward `2j`, reverse `2j + 1`) with `packets` packets each,
/// the forward one with `hiccups` (a list; a discipline cannot share a direction with them).
fn directions(g: &Genes, j: &mut usize, packets: u64, hiccups: Option<String>) -> String {
    let fwd = match hiccups {
        Some(h) => format!("queue = {packets}, hiccups = {h}"),
        None => format!("queue = {}", queue_text(g, 2 * *j, packets)),
    };
    let rev = queue_text(g, 2 * *j + 1, packets);
    *j += 1;
    format!("forward = {{ {fwd} }}\nreverse = {{ queue = {rev} }}\n")
}

const WIRED_KBPS: [u64; 4] = [256, 512, 1000, 2000];
const WIRELESS_KBPS: [u64; 3] = [500, 1000, 2000];

fn error_text(model: usize, p: u32) -> String {
    let x = f64::from(p % 1000) / 1000.0;
    match model % 6 {
        0 => String::new(),
        1 => format!("error = {{ model = \"bernoulli\", p = {} }}\n", x * 0.1),
        2 => format!(
            "error = {{ model = \"fer\", fer = {}, reference = \"1000B\" }}\n",
            x * 0.1
        ),
        3 => format!(
            "error = {{ model = \"exponential\", every = \"{}KiB\" }}\n",
            8 + p % 120
        ),
        4 => format!(
            "error = {{ model = \"burst\", every = \"{}KiB\", length = {} }}\n",
            16 + p % 100,
            1 + p % 4
        ),
        _ => format!(
            "error = {{ model = \"gilbert\", p_gb = {}, p_bb = {} }}\n",
            0.01 + x * 0.09,
            0.1 + x * 0.7
        ),
    }
}

fn hiccup_list((kind, at, len): (usize, u32, u32)) -> Option<String> {
    let h = match kind % 5 {
        0 | 1 => return None,
        2 => format!("{{ kind = \"hold\", at = \"{at}ms\", duration = \"{}ms\" }}", 50 + len),
        3 => format!(
            "{{ kind = \"hold\", at = \"{at}ms\", duration = \"{}ms\", stage = \"ip\", expire = \"{}ms\" }}",
            50 + len,
            20 + len / 2
        ),
        _ => format!(
            "{{ kind = \"reorder\", at = \"{at}ms\", length = {} }}",
            1 + len % 5
        ),
    };
    Some(format!("[{h}]"))
}

/// Build the scenario of `g`.
pub fn build(g: &Genes) -> Topo {
    let family = FAMILIES[g.family % FAMILIES.len()];
    let mut nodes: Vec<Node> = Vec::new();
    let mut links = String::new();
    let node = |name: String, kind: &'static str, up: Option<Up>| Node {
        name,
        kind,
        up,
        jitter_us: 0,
    };
    let mut j = 0;
    nodes.push(node("r0".into(), "router", None));
    for (i, &p) in g.routers.iter().enumerate() {
        let i = i + 1;
        let rate = WIRED_KBPS[(p / 7) % 4] * 1000;
        let up = Up {
            parent: p % i,
            rate,
            queue: 20,
            holds: false,
        };
        links += &wired(&format!("r{}", p % i), &format!("r{i}"), rate);
        links += &directions(g, &mut j, 20, None);
        nodes.push(node(format!("r{i}"), "router", Some(up)));
    }
    let routers = nodes.len();
    for (i, &(r, rate, q)) in g.fixed.iter().enumerate() {
        let rate = WIRED_KBPS[rate % 4] * 1000;
        let parent = r % routers;
        links += &wired(&nodes[parent].name.clone(), &format!("h{i}"), rate);
        links += &directions(g, &mut j, u64::from(q), None);
        let up = Up {
            parent,
            rate,
            queue: u64::from(q),
            holds: false,
        };
        nodes.push(node(format!("h{i}"), "host", Some(up)));
    }
    let fixed = g.fixed.len();
    let (r, rate, q) = g.bs;
    let bs_rate = WIRED_KBPS[rate % 4] * 1000;
    let parent = r % routers;
    links += &wired(&nodes[parent].name.clone(), "bs", bs_rate);
    links += &directions(g, &mut j, u64::from(q), None);
    let bs_kind = match family {
        Family::E2e | Family::Dcf | Family::Gsm => "router",
        _ => "base-station",
    };
    let up = Up {
        parent,
        rate: bs_rate,
        queue: u64::from(q),
        holds: false,
    };
    nodes.push(node("bs".into(), bs_kind, Some(up)));
    let bs = nodes.len() - 1;
    let holds = !matches!(family, Family::E2e | Family::Dcf);
    let err = error_text(g.error.0, g.error.1);
    let mut cells = String::new();
    let mut files = Vec::new();
    let mobiles = match family {
        Family::Gsm => 1,
        _ => g.mobiles.len(),
    };
    match family {
        Family::Elsn | Family::Dcf => {
            // A DCF cell: each station's link to the access point shares the cell's 2 Mb/s
            // (802.11b); or an 802.11a cell at 6 Mb/s with airtime fairness at the access
            // point; or an 802.11g cell at 54 Mb/s whose first station sends at 1 Mb/s
            // (net::medium::dcf::phy); or an 802.11n cell with A-MPDU aggregation (up to
            // 1-64 MPDUs, its first station at MCS 0, airtime fairness in half the cases;
            // net::medium::dcf::ampdu); or an 802.11n cell whose frame errors come from each
            // station's SNR (5-35 dB, the first station's stepping at a time of the run), with
            // a fixed rate, ideal rate control or Minstrel-HT, A-MPDUs in half the cases
            // (net::medium::dcf::snr); its cell has no error model of its own.
            let names: Vec<String> = (0..mobiles).map(|i| format!("\"m{i}\"")).collect();
            let retry = 1 + g.extra % 4;
            let variant = (g.extra / 4) % 5;
            let err = if variant == 4 { String::new() } else { err };
            let (phy, rate_of): (String, fn(usize) -> u64) = match variant {
                4 => (
                    format!(
                        "rate = \"65Mbps\"\ndcf = {{ retry_limit = {retry}, phy = \"11n\", error_model = \"snr\", rate_control = \"{}\", aggregation = \"{}\", snr = {}, station_snr = {{ m0 = [[\"0s\", {}], [\"{}ms\", {}]] }} }}",
                        ["fixed", "ideal", "minstrel-ht"][(g.extra % 3) as usize],
                        if (g.extra / 8).is_multiple_of(2) { "off" } else { "ampdu" },
                        5 + g.error.1 % 31,
                        5 + (g.error.1 / 7) % 31,
                        1 + g.hiccup.1 % 3000,
                        5 + (g.hiccup.2 as u64) % 31,
                    ),
                    |_| 65_000_000,
                ),
                3 => (
                    format!(
                        "rate = \"65Mbps\"\nstation_rate = {{ m0 = \"6.5Mbps\" }}\ndcf = {{ retry_limit = {retry}, phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = {}, scheduler = \"{}\" }}",
                        1 + (g.extra / 16) % 64,
                        if g.extra % 8 < 4 { "frames" } else { "airtime" },
                    ),
                    |i| if i == 0 { 6_500_000 } else { 65_000_000 },
                ),
                0 => (
                    format!("rate = \"2Mbps\"\nper_frame = \"192us\"\ndcf = {{ retry_limit = {retry}, basic_rate = \"1Mbps\" }}"),
                    |_| 2_000_000,
                ),
                1 => (
                    format!("rate = \"6Mbps\"\ndcf = {{ retry_limit = {retry}, phy = \"11a\", scheduler = \"airtime\" }}"),
                    |_| 6_000_000,
                ),
                _ => (
                    format!("rate = \"54Mbps\"\nstation_rate = {{ m0 = \"1Mbps\" }}\ndcf = {{ retry_limit = {retry}, phy = \"11g\" }}"),
                    |i| if i == 0 { 1_000_000 } else { 54_000_000 },
                ),
            };
            cells += &format!(
                "[[cells]]\nname = \"cell\"\naccess_point = \"bs\"\nstations = [{}]\n{phy}\ndelay = \"1us\"\nqueue = {}\nframing = 36\n{err}",
                names.join(", "),
                queue_text(g, 2 * j, 30),
            );
            for i in 0..mobiles {
                let up = Up {
                    parent: bs,
                    rate: rate_of(i),
                    queue: 30,
                    holds,
                };
                nodes.push(node(format!("m{i}"), "host", Some(up)));
            }
        }
        Family::Gsm => {
            let vj = g.extra % 2 == 1;
            // Few retransmissions before RLP resets (then VJ's decompressor falls out of step).
            let n2 = 1 + (g.extra / 6) % 3;
            let blocks = match (g.extra / 2) % 3 {
                0 => "blocks = { profile = \"poor-b\", minutes = 1 }\n".to_string(),
                1 => String::new(),
                // A recorded channel of 20 ms blocks: a burst long enough to reset RLP (then
                // VJ's decompressor falls out of step), and sparse single erasures.
                _ => {
                    let (start, len) = (g.hiccup.1 as usize % 1000, 1 + g.hiccup.2 as usize % 120);
                    let sparse = (g.error.1 % 10) as usize;
                    let text: String = (0..1500usize)
                        .map(|i| {
                            let erased = (start..start + len).contains(&i)
                                || (i * 7919 + g.error.1 as usize) % 97 < sparse;
                            if erased {
                                "1\n"
                            } else {
                                "0\n"
                            }
                        })
                        .collect();
                    let path = block_file(&text);
                    files.push(path.clone());
                    format!("blocks = {{ file = \"{}\" }}\n", path.display())
                }
            };
            links += &format!(
                "[[links]]\nname = \"gsm\"\nbetween = [\"bs\", \"m0\"]\nrole = \"wireless\"\nmedium = \"gsm-csd\"\nrate = \"9600bps\"\ndelay = \"90ms\"\ngsm = {{ vj = {vj}, n2 = {n2} }}\n{blocks}"
            );
            links += &directions(g, &mut j, 20, None);
            let up = Up {
                parent: bs,
                rate: 9600,
                queue: 20,
                holds: true,
            };
            nodes.push(node("m0".into(), "host", Some(up)));
        }
        _ => {
            for (i, &(rate, q)) in g.mobiles.iter().enumerate() {
                let rate = WIRELESS_KBPS[rate % 3] * 1000;
                let hic = if i == 0 { hiccup_list(g.hiccup) } else { None };
                let hiccup_holds = hic.is_some();
                links += &format!(
                    "[[links]]\nname = \"radio{i}\"\nbetween = [\"bs\", \"m{i}\"]\nrole = \"wireless\"\nrate = \"{}kbps\"\ndelay = \"2ms\"\n{err}",
                    rate / 1000
                );
                links += &directions(g, &mut j, u64::from(q), hic);
                let up = Up {
                    parent: bs,
                    rate,
                    queue: u64::from(q),
                    holds: holds || hiccup_holds,
                };
                nodes.push(node(format!("m{i}"), "host", Some(up)));
            }
        }
    }
    let doc_scheme = match family {
        Family::Agent => AGENTS[g.scheme % AGENTS.len()],
        Family::Split => SPLIT[g.scheme % SPLIT.len()],
        Family::Elsn => ELSN[g.scheme % ELSN.len()],
        _ => e2e()[g.scheme % e2e().len()].as_str(),
    };
    // GSM runs are cheap (960 B/s) and need long ones for TCP to keep packets queued behind
    // a flushed one.
    let end = g.warmup_ms + g.length_ms * if family == Family::Gsm { 6 } else { 1 };
    // Small segments on the 960 B/s GSM link (the Ludwig2000 testbed's MTU 512), so that a run
    // carries enough of them for RLP resets and decompressor discards.
    let mss = if family == Family::Gsm { 460 } else { MSS };
    let mut text = format!(
        "name = \"random\"\nscheme = \"{doc_scheme}\"\n[tcp]\nmss = {mss}\nbuffer = \"{}\"\necn = {}\n{}[run]\nduration = \"{end}ms\"\nwarmup = \"{}ms\"\n",
        BUFFER,
        g.ecn.0 % 3 == 1,
        ns2_text(g.ns2),
        g.warmup_ms
    );
    let (which, draw) = g.jitter;
    for (i, n) in nodes.iter_mut().enumerate() {
        text += &format!("[[nodes]]\nname = \"{}\"\nkind = \"{}\"\n", n.name, n.kind);
        if (which >> (i % 32)) & 1 == 1 && draw > 0 {
            // Up to 5 ms.
            n.jitter_us = 1 + draw.wrapping_mul(i as u32 + 1).wrapping_mul(7919) % 5000;
            text += &format!("jitter = \"{}us\"\n", n.jitter_us);
        }
    }
    text += &links;
    text += &cells;
    let mut flows = Vec::new();
    let hosts: Vec<usize> = (routers..routers + fixed).collect();
    let mobile_ids: Vec<usize> = (bs + 1..nodes.len()).collect();
    for (f, &(kind, a, b, size, start, stop, scheme)) in g.flows.iter().enumerate() {
        let start = start % end.max(1);
        let stop = start + 1 + stop % end.max(1);
        let kind = match kind % 6 {
            0 => Kind::Finite(4 + size % 200),
            1 => Kind::Long(None),
            2 => Kind::Long(Some(stop)),
            3 => Kind::Udp(50 + size % 500, (size % 2 == 0).then_some(stop)),
            4 => Kind::Web,
            _ => Kind::Long(None),
        };
        // TCP flows cross the base station downwards (fixed host to mobile) or join two
        // fixed hosts; UDP goes either way.
        // (A UDP source takes the document's scheme: a split one needs a base station on
        // its path.)
        let udp = matches!(kind, Kind::Udp(..));
        let fixed_pair = hosts.len() >= 2 && a % 4 == 0 && !(udp && family == Family::Split);
        let (src, dst) = if fixed_pair {
            let s = hosts[b % hosts.len()];
            let d = hosts[(b / 7 + 1 + b) % hosts.len()];
            if s == d {
                (
                    s,
                    hosts[(hosts.iter().position(|&x| x == s).unwrap_or(0) + 1) % hosts.len()],
                )
            } else {
                (s, d)
            }
        } else {
            let s = hosts[a % hosts.len()];
            let d = mobile_ids[b % mobile_ids.len()];
            match kind {
                Kind::Udp(..) if a % 3 == 1 => (d, s),
                _ => (s, d),
            }
        };
        if src == dst {
            continue;
        }
        let (s, d) = (&nodes[src].name, &nodes[dst].name);
        text += &format!(
            "[[flows]]\nname = \"f{f}\"\nfrom = \"{s}\"\nto = \"{d}\"\nstart = \"{start}ms\"\n"
        );
        // Web sessions run end to end only with a split scheme.
        if !udp && (fixed_pair || (family == Family::Split && kind == Kind::Web)) {
            text += &format!("scheme = \"{}\"\n", e2e()[scheme % e2e().len()]);
        }
        if !udp && g.ecn.0 % 3 == 2 && (g.ecn.1 >> (f % 32)) & 1 == 1 {
            text += "tcp = { ecn = true }\n";
        }
        match kind {
            Kind::Finite(k) => text += &format!("bytes = \"{k}KiB\"\n"),
            Kind::Long(Some(t)) => text += &format!("stop = \"{t}ms\"\n"),
            Kind::Long(None) => {}
            Kind::Udp(kbps, stop) => {
                text += &format!(
                    "udp = {{ model = \"cbr\", rate = \"{kbps}kbps\", size = \"500B\" }}\n"
                );
                if let Some(t) = stop {
                    text += &format!("stop = \"{t}ms\"\n");
                }
            }
            Kind::Web => text += "web = { connections = \"per-page\" }\n",
        }
        flows.push((src, dst, kind, start));
    }
    // A scenario needs a TCP flow.
    if flows.iter().all(|f| matches!(f.2, Kind::Udp(..))) {
        let (src, dst) = (hosts[0], mobile_ids[0]);
        text += &format!(
            "[[flows]]\nname = \"tcp\"\nfrom = \"{}\"\nto = \"{}\"\n",
            nodes[src].name, nodes[dst].name
        );
        flows.push((src, dst, Kind::Long(None), 0));
    }
    Topo {
        nodes,
        flows,
        warmup_ms: g.warmup_ms,
        text,
        files,
    }
}

/// Write `text` to a new file in the temporary directory; its path.
fn block_file(text: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "lossylink-conservation-{}-{n}.blocks",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("a temporary file");
    path
}

/// A wired link from `a` down to `b` (its directions follow: [`directions`]).
fn wired(a: &str, b: &str, rate: u64) -> String {
    format!(
        "[[links]]\nname = \"{a}-{b}\"\nbetween = [\"{a}\", \"{b}\"]\nrole = \"wired\"\nrate = \"{}kbps\"\ndelay = \"5ms\"\n",
        rate / 1000
    )
}
