#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The golden scenario table (DESIGN.md rule 9): one row per mechanism, exact results for a
//! fixed seed, compared with `tests/golden/scenarios.json`. Any change of behaviour shows up here
//! as a diff; if it is intended, regenerate with `LOSSYLINK_BLESS=1 cargo test -p lossylink --test it golden::`
//! and explain the change in the commit message.

use crate::common;
use common::scenario;
use lossylink::{run, RunOptions};
use serde_json::{json, Map, Value};

/// `key=value` overrides of a row.
type Overrides = &'static [(&'static str, &'static str)];

/// The wlan preset's cell (per_frame as in the preset) under an 802.11b DCF, retry limit 7.
const WLAN_DCF_CELL: (&str, &str) = ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"11Mbps\", delay = \"1us\", queue = 50, framing = 36, per_frame = { plcp = \"192us\", difs = \"50us\", sifs = \"10us\", mac_ack = \"248us\" }, dcf = { retry_limit = 7 } }");

/// (row name, mechanism exercised, preset, overrides).
const ROWS: &[(&str, &str, &str, Overrides)] = &[
    (
        "reno-lan-32k",
        "BSD Reno, exponential bit errors, shared medium",
        "lan",
        &[],
    ),
    (
        "reno-lan-8k",
        "socket buffer limits the window to 5 segments",
        "lan",
        &[("buffer", "8KiB")],
    ),
    (
        "reno-net3-retraction-lan-8k",
        "Net/3 keeps cwnd at ssthresh + 3 segments after a recovery of exactly three dupacks",
        "lan",
        &[("buffer", "8KiB"), ("tcp.exit_retraction", "net3")],
    ),
    (
        "reno-wan-32k",
        "16-hop WAN path in front of the testbed",
        "wan",
        &[],
    ),
    (
        "lan-error-free",
        "WaveLAN airtime calibration",
        "lan",
        &[("error_every", "0")],
    ),
    (
        "wan-error-free",
        "WAN bottleneck calibration",
        "wan",
        &[("error_every", "0")],
    ),
    (
        "modern-lan",
        "RFC 6298 timer (200 ms min) and RFC 5681 Reno",
        "lan",
        &[("profile", "modern")],
    ),
    (
        "net3-mss8-lan",
        "Net/3 +MSS/8 congestion-avoidance term",
        "lan",
        &[("tcp.ca_extra_mss_over_8", "true")],
    ),
    (
        "bernoulli-lan",
        "per-frame Bernoulli loss",
        "lan",
        &[("loss", "0.02")],
    ),
    (
        "ber-lan",
        "exponential errors given as a bit-error rate",
        "lan",
        &[("ber", "1.9e-6")],
    ),
    (
        "uniform-backoff-lan",
        "random contention on the shared medium",
        "lan",
        &[(
            "hops.1.contention",
            "{ cw = 31, slot = \"20us\", draw = \"uniform\" }",
        )],
    ),
    (
        "delack-off-lan",
        "receiver acknowledges every segment",
        "lan",
        &[("tcp.delayed_ack", "off")],
    ),
    (
        "bs-queue-5-lan",
        "drop-tail base-station queue",
        "lan",
        &[("error_every", "0"), ("hops.1.forward.queue", "5")],
    ),
    (
        "newreno-wan",
        "NewReno partial-ACK recovery (paper flavour)",
        "wan",
        &[("scheme", "e2e-newreno")],
    ),
    (
        "newreno-rfc6582-lan",
        "NewReno, RFC 6582 partial deflation and careful variant",
        "lan",
        &[("scheme", "e2e-newreno"), ("tcp.newreno", "rfc6582")],
    ),
    (
        "eln-lan-8k",
        "ELN oracle marks, retransmission on the 3rd marked dupack, no halving",
        "lan",
        &[("scheme", "e2e-eln"), ("buffer", "8KiB")],
    ),
    (
        "eln-rxmt-lan-8k",
        "ELN retransmission on the 1st marked dupack",
        "lan",
        &[("scheme", "e2e-eln-rxmt"), ("buffer", "8KiB")],
    ),
    (
        "limited-transmit-lan-8k",
        "RFC 3042 limited transmit",
        "lan",
        &[("scheme", "e2e-limited-transmit"), ("buffer", "8KiB")],
    ),
    (
        "eifel-lan",
        "timestamps on both ends and Eifel detection (500 ms BSD timestamp clock)",
        "lan",
        &[("scheme", "e2e+eifel")],
    ),
    (
        "newreno-modern-eifel-lan",
        "modern profile via the +modern modifier, RFC 4015 response, 1 ms timestamps",
        "lan",
        &[("scheme", "e2e-newreno+modern"), ("tcp.eifel", "rfc4015")],
    ),
    (
        "eifel-timer-modern-lan",
        "Eifel retransmission timer on 1 ms timestamps",
        "lan",
        &[
            ("profile", "modern"),
            ("tcp.rto", "eifel"),
            ("tcp.timestamps", "true"),
        ],
    ),
    (
        "hiccup-hold-e2e",
        "13 s hold (delay spike): spurious timeout, go-back-N, spurious fast retransmit",
        "hiccup",
        &[(
            "hops.0.forward.hiccups",
            "[{ kind = \"hold\", at = \"29.8s\", duration = \"13s\" }]",
        )],
    ),
    (
        "hiccup-hold-eifel",
        "13 s hold with Eifel: spurious timeout detected and undone",
        "hiccup",
        &[
            ("scheme", "e2e+eifel"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"hold\", at = \"29.8s\", duration = \"13s\" }]",
            ),
        ],
    ),
    (
        "hiccup-reorder-e2e",
        "reordering of length 6: spurious fast retransmit",
        "hiccup",
        &[(
            "hops.0.forward.hiccups",
            "[{ kind = \"reorder\", at = \"37.7s\", length = 6 }]",
        )],
    ),
    (
        "hiccup-hold-ip-ifq12-e2e",
        "S8b: 13 s IP-stage hold, 12-packet IFQ: go-back-N overflows it, tcp_quench on each drop",
        "hiccup",
        &[
            ("hops.0.queue", "12"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"hold\", at = \"29.8s\", duration = \"13s\", stage = \"ip\" }]",
            ),
        ],
    ),
    (
        "hiccup-ifq1-precise-rexmt",
        "S11: 1-packet IFQ, periodic local drops repaired by a timer counted from the oldest segment",
        "hiccup",
        &[("hops.0.forward.queue", "1"), ("tcp.rexmt", "precise")],
    ),
    (
        "hiccup-ack-outage-expire",
        "S8f: 23 s ACK-path outage, queued ACKs expire after 500 ms: a third timeout restarts the flow",
        "hiccup",
        &[
            ("transfer", "40KB"),
            (
                "hops.0.reverse.hiccups",
                "[{ kind = \"hold\", at = \"5s\", duration = \"23s\", stage = \"ip\", expire = \"500ms\" }]",
            ),
        ],
    ),
    (
        "hiccup-reorder-ip-e2e",
        "IP-stage reordering of length 6 (the dissertation's tool): spurious fast retransmit",
        "hiccup",
        &[(
            "hops.0.forward.hiccups",
            "[{ kind = \"reorder\", at = \"37.7s\", length = 6, stage = \"ip\" }]",
        )],
    ),
    (
        "hiccup-late-dupack-e2e",
        "segment held past the RTO while the ACK direction holds its dupacks 12 s: the 3rd late dupack fast-retransmits it again, go-back-N",
        "hiccup",
        &[
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"reorder\", at = \"40.5s\", length = 40 }]",
            ),
            (
                "hops.0.reverse.hiccups",
                "[{ kind = \"hold\", at = \"41.1s\", duration = \"12s\" }]",
            ),
        ],
    ),
    (
        "hiccup-late-dupack-eifel",
        "the same with Eifel: late fast retransmit suppressed, ssthresh halved from the saved window, cwnd = ssthresh (Ludwig2000 Q3 a)",
        "hiccup",
        &[
            ("scheme", "e2e+eifel"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"reorder\", at = \"40.5s\", length = 40 }]",
            ),
            (
                "hops.0.reverse.hiccups",
                "[{ kind = \"hold\", at = \"41.1s\", duration = \"12s\" }]",
            ),
        ],
    ),
    (
        "hiccup-late-dupack-eifel-restore",
        "the same with tcp.eifel_late_dupack = restore: the saved pre-timeout cwnd and ssthresh (Ludwig2000 Q3 b)",
        "hiccup",
        &[
            ("scheme", "e2e+eifel"),
            ("tcp.eifel_late_dupack", "restore"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"reorder\", at = \"40.5s\", length = 40 }]",
            ),
            (
                "hops.0.reverse.hiccups",
                "[{ kind = \"hold\", at = \"41.1s\", duration = \"12s\" }]",
            ),
        ],
    ),
    (
        "hiccup-reorder-eifel-paced",
        "S8e with the burst pacer: the window Eifel restores goes out over one smoothed RTT",
        "hiccup",
        &[
            ("scheme", "e2e+eifel"),
            ("tcp.eifel_burst_pacer", "srtt"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"reorder\", at = \"40.5s\", length = 6, stage = \"ip\" }]",
            ),
        ],
    ),
    (
        "hiccup-rto-agg",
        "RTO_AGG: the Eifel timer trained towards the RTT; a spurious timeout undone by Eifel",
        "hiccup",
        &[
            ("scheme", "e2e+eifel"),
            ("transfer", "400KB"),
            ("tcp.rto", "eifel-agg"),
        ],
    ),
    (
        "e2e-smart-lan-32k",
        "SMART bitmask sender: every gap resent at once, one halving per episode",
        "lan",
        &[("scheme", "e2e-smart")],
    ),
    (
        "e2e-smart-fine-rtt-lan-32k",
        "SMART's once-per-RTT rule on the fine smoothed RTT instead of BSD's slow ticks",
        "lan",
        &[("scheme", "e2e-smart"), ("tcp.smart_rtt", "fine")],
    ),
    (
        "e2e-ietf-sack-lan-32k",
        "RFC 2018 SACK, Fall-Floyd pipe sender on the 3rd dupack",
        "lan",
        &[("scheme", "e2e-ietf-sack")],
    ),
    (
        "sack-rfc6675-lan-32k",
        "RFC 6675 SACK sender, NextSeg rules (1)-(4) (rules 3 and 4 when no new data may go)",
        "lan",
        &[("scheme", "e2e-ietf-sack"), ("tcp.sack_sender", "rfc6675")],
    ),
    (
        "e2e-sack-eln-wan-32k",
        "SACK scoreboard plus ELN: holes resent without a congestion response",
        "wan",
        &[("scheme", "e2e-sack-eln")],
    ),
    (
        "ll-lan",
        "LL: local retransmission on the 2nd dupack or the 200 ms-tick timer, every ACK forwarded",
        "lan",
        &[("scheme", "ll")],
    ),
    (
        "ll-tcp-aware-lan",
        "snoop: dupack suppression, expected dupacks, partial-ACK rule",
        "lan",
        &[("scheme", "ll-tcp-aware")],
    ),
    (
        "ll-smart-lan-8k",
        "LL-SMART: selective local repeat from the SMART trigger, option stripped",
        "lan",
        &[("scheme", "ll-smart"), ("buffer", "8KiB")],
    ),
    (
        "ll-smart-tcp-aware-wan",
        "LL-SMART-TCP-AWARE in the WAN",
        "wan",
        &[("scheme", "ll-smart-tcp-aware")],
    ),
    (
        "eln-bs-lan-8k",
        "ELN marked by the base station on dupacks for segments it forwarded",
        "lan",
        &[("scheme", "eln-bs"), ("buffer", "8KiB")],
    ),
    (
        "burst4-snoop-lan",
        "burst errors: 4 consecutive data frames per burst, one burst per 64 KiB",
        "lan",
        &[
            ("scheme", "ll-tcp-aware"),
            ("error_every", "0"),
            (
                "hops.1.forward.error",
                "{ model = \"burst\", every = \"64KiB\", length = 4 }",
            ),
        ],
    ),
    (
        "burst4-fixed-spacing-snoop-lan",
        "burst errors: 4 consecutive data frames per burst, exactly 64 KiB apart",
        "lan",
        &[
            ("scheme", "ll-tcp-aware"),
            ("error_every", "0"),
            (
                "hops.1.forward.error",
                "{ model = \"burst\", every = \"64KiB\", length = 4, spacing = \"fixed\" }",
            ),
        ],
    ),
    (
        "upstream-congestion-snoop-wan",
        "a 4-packet queue before the base station: congestion losses pass snoop to the sender",
        "wan",
        &[("scheme", "ll-tcp-aware"), ("hops.0.forward.queue", "4")],
    ),
    (
        "split-lan-32k",
        "split connection: Reno on both legs, 64 KiB relay, the source stalls on a full relay",
        "lan",
        &[("scheme", "split")],
    ),
    (
        "split-smart-wan",
        "split connection with SMART on the wireless leg, WAN",
        "wan",
        &[("scheme", "split-smart")],
    ),
    (
        "split-ietf-sack-modern-lan-8k",
        "split connection running e2e-ietf-sack with the modern profile on the wireless leg, 16 KiB relay",
        "lan",
        &[
            ("scheme", "split"),
            ("buffer", "8KiB"),
            ("split.wireless_scheme", "e2e-ietf-sack+modern"),
            ("split.buffer", "16KiB"),
        ],
    ),
    (
        "ll-arq-lan",
        "link ARQ: link ACK frames, selective repeat on gap reports, out-of-order delivery",
        "lan",
        &[("scheme", "ll-arq")],
    ),
    (
        "ll-arq-in-order-wan",
        "link ARQ with resequencing at the mobile: no dupacks from repaired wireless losses",
        "wan",
        &[("scheme", "ll-arq"), ("ll.arq.in_order", "true")],
    ),
    (
        "ll-arq-limit-1-burst-lan",
        "semi-reliable link ARQ (1 retransmission) under 4-frame bursts: frames given up",
        "lan",
        &[
            ("scheme", "ll-arq"),
            ("ll.arq.max_retransmissions", "1"),
            ("ll.arq.in_order", "true"),
            ("error_every", "0"),
            (
                "hops.1.forward.error",
                "{ model = \"burst\", every = \"64KiB\", length = 4 }",
            ),
        ],
    ),
    (
        "reno-lan-gilbert",
        "Gilbert-Elliott channel per frame (mean error rate 1 %, mean burst 4.07 frames)",
        "lan",
        &[(
            "hops.1.error",
            "{ model = \"gilbert\", mean_error_rate = 0.01, mean_burst = 4.0701 }",
        )],
    ),
    (
        "reno-lan-fer",
        "frame-error rate 5 % at 1476 bytes, scaled by length (ACKs hit less)",
        "lan",
        &[(
            "hops.1.error",
            "{ model = \"fer\", fer = 0.05, reference = \"1476B\" }",
        )],
    ),
    (
        "reno-lan-trace",
        "a recorded per-frame erasure trace on both directions of the wireless hop (repeating)",
        "lan",
        &[(
            "hops.1.error",
            "{ model = \"trace\", file = \"tests/data/erasures-frame.txt\" }",
        )],
    ),
    (
        "reno-wan-slot-trace",
        "a per-time-slot erasure trace (20 ms slots) on the wireless hop's data direction",
        "wan",
        &[(
            "hops.2.forward.error",
            "{ model = \"trace\", file = \"tests/data/erasures-slot.txt\", slot = \"20ms\" }",
        )],
    ),
    (
        "reno-wan-mahimahi",
        "the wireless hop's downlink driven by a Mahimahi delivery trace (3 Mb/s for 1 s, 1 Mb/s for 1 s, repeating)",
        "wan",
        &[
            ("error_every", "0"),
            ("hops.2.forward.delivery", "\"tests/data/cellular.mahi\""),
        ],
    ),
    (
        "dumbbell-4-flows",
        "four long-lived flows staggered over a wired bottleneck, goodput window after warm-up",
        "dumbbell",
        &[("run.duration", "20s"), ("run.warmup", "5s")],
    ),
    (
        "wlan-cell-4-stations",
        "a cell of four stations sharing one channel with uniform backoff",
        "wlan",
        &[("run.duration", "10s"), ("run.warmup", "2s")],
    ),
    (
        "eln5-split-per-flow",
        "three flows split at one base station, one proxy per (node, flow)",
        "eln5",
        &[
            ("scheme", "split"),
            ("run.duration", "20s"),
            ("links.1.forward.error", "{ model = \"bernoulli\", p = 0.02 }"),
        ],
    ),
    (
        "dumbbell-pareto-background",
        "two TCP flows and a Pareto ON/OFF UDP source (mean 8 Mb/s) on a 10 Mb/s bottleneck",
        "dumbbell",
        &[
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            (
                "flows",
                "[{ name = \"f1\", from = \"s1\", to = \"d1\" }, { name = \"f2\", from = \"s2\", to = \"d2\" }, { name = \"bg\", from = \"s3\", to = \"d3\", udp = { model = \"pareto\", rate = \"10Mbps\", on = \"400ms\", off = \"100ms\", shape = 2.0, size = \"1000B\" } }]",
            ),
        ],
    ),
    (
        "eln5-cbr-probe",
        "a constant-bit-rate UDP probe beside three TCP downloads",
        "eln5",
        &[
            ("run.duration", "20s"),
            ("flows.2.name", "probe"),
            ("flows.2.udp", "{ model = \"cbr\", rate = \"200kbps\", size = \"500B\" }"),
        ],
    ),
    (
        "eln5-snoop-finite-flows",
        "snoop at a base station shared by three finite flows with different schemes and starts",
        "eln5",
        &[
            ("scheme", "ll-tcp-aware"),
            ("transfer", "200KiB"),
            ("run.duration", "60s"),
            ("run.warmup", "0s"),
            ("flows.1.start", "2s"),
            ("links.2.error", "{ model = \"exponential\", every = \"32KiB\" }"),
        ],
    ),    (
        "eln5-web-per-page",
        "SURGE web sessions (persistent connection per page): page response times",
        "eln5",
        &[
            (
                "flows",
                "[{ name = \"w1\", from = \"server\", to = \"m1\", web = {} }, { name = \"w2\", from = \"server\", to = \"m2\", web = {} }, { name = \"w3\", from = \"server\", to = \"m3\", web = {} }]",
            ),
            ("run.duration", "60s"),
        ],
    ),
    (
        "eln5-web-per-object-errors",
        "HTTP/1.0 web sessions (a connection per object) over a lossy radio link",
        "eln5",
        &[
            (
                "flows",
                "[{ name = \"w1\", from = \"server\", to = \"m1\", web = { connections = \"per-object\" } }, { name = \"w2\", from = \"server\", to = \"m1\", start = \"1s\", web = { connections = \"per-object\" } }]",
            ),
            ("run.duration", "60s"),
            ("links.1.forward.error", "{ model = \"exponential\", every = \"16KiB\" }"),
        ],
    ),    (
        "eln5-tcp-eln-32k-errors",
        "TCP-ELN: corruption counter on ACKs, resend on the first rise, cwnd kept and restored",
        "eln5",
        &[
            ("flows", "[{ name = \"ftp\", from = \"server\", to = \"m1\" }]"),
            ("run.duration", "30s"),
            ("run.warmup", "5s"),
            ("scheme", "tcp-eln"),
            ("links.1.forward.error", "{ model = \"exponential\", every = \"32KiB\" }"),
        ],
    ),
    (
        "eln5-tcp-eln-hack-two-downloads",
        "TCP-ELN identifying corrupted frames by their header (HACK): a hit header is not counted",
        "eln5",
        &[
            (
                "flows",
                "[{ name = \"a\", from = \"server\", to = \"m1\" }, { name = \"b\", from = \"server\", to = \"m1\" }]",
            ),
            ("run.duration", "30s"),
            ("run.warmup", "5s"),
            ("scheme", "tcp-eln"),
            ("tcp.eln", "{ identify = \"hack\" }"),
            ("links.1.forward.error", "{ model = \"exponential\", every = \"16KiB\" }"),
        ],
    ),
    (
        "eln5-gilbert-per-slot",
        "Gilbert-Elliott chain stepped per 4.16 ms slot through idle time (Table 1 model 3)",
        "eln5",
        &[
            ("flows", "[{ name = \"ftp\", from = \"server\", to = \"m1\" }]"),
            ("run.duration", "30s"),
            ("run.warmup", "5s"),
            ("scheme", "tcp-eln"),
            (
                "links.1.forward.error",
                "{ model = \"gilbert\", mean_error_rate = 0.1, mean_burst = 13.6708, slot = \"4160us\" }",
            ),
        ],
    ),
    (
        "eln5-tcp-eln-newreno-bursts",
        "TCP-ELN over newreno: bursts of corruption in one window repaired by NewReno's partial ACKs without a cut",
        "eln5",
        &[
            ("flows", "[{ name = \"ftp\", from = \"server\", to = \"m1\" }]"),
            ("run.duration", "30s"),
            ("run.warmup", "5s"),
            ("scheme", "tcp-eln-newreno"),
            (
                "links.1.forward.error",
                "{ model = \"gilbert\", mean_error_rate = 0.1, mean_burst = 13.6708, slot = \"4160us\" }",
            ),
        ],
    ),
    (
        "eln5-tcp-eln-sack-bursts",
        "TCP-ELN over sack: bursts of corruption in one window repaired by the SACK scoreboard without a cut",
        "eln5",
        &[
            ("flows", "[{ name = \"ftp\", from = \"server\", to = \"m1\" }]"),
            ("run.duration", "30s"),
            ("run.warmup", "5s"),
            ("scheme", "tcp-eln-sack"),
            (
                "links.1.forward.error",
                "{ model = \"gilbert\", mean_error_rate = 0.1, mean_burst = 13.6708, slot = \"4160us\" }",
            ),
        ],
    ),
    // Today's anchors.
    (
        "wlan-dcf-4-stations",
        "the wlan cell under an 802.11b DCF: backoff, collisions of data and TCP ACK frames, MAC retries",
        "wlan",
        // The wlan cell with a DCF instead of its half-duplex contention (refused beside one).
        &[WLAN_DCF_CELL, ("run.duration", "20s")],
    ),
    (
        "wlan-dcf-bad-station",
        "DCF cell with one station in a bad Gilbert channel: the access point retries its frames (HOL)",
        "wlan",
        &[
            WLAN_DCF_CELL,
            ("run.duration", "20s"),
            (
                "cells.0.station_error",
                "{ sta4 = { model = \"gilbert\", p_gb = 0.05, p_bb = 0.95, loss_good = 0.0, loss_bad = 0.9 } }",
            ),
        ],
    ),
    (
        "wlan-11a-dcf",
        "802.11a OFDM PHY (dcf.phy = 11a): slot 9 us, SIFS 16 us, CWmin 15, 54 Mb/s frames in OFDM symbols, ACKs at 24 Mb/s",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"54Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11a\" } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11g-mixed-rates",
        "802.11g ERP (short slot, 6 us signal extension) with one station at 1 Mb/s DSSS among ERP-OFDM 54 Mb/s ones (station_rate)",
        "wlan",
        &[("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"54Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11g\" }, station_rate = { sta1 = \"1Mbps\" } }"), ("run.duration", "20s")],
    ),
    (
        "wlan-11n-dcf",
        "802.11n HT-mixed, 40 MHz, 2 streams, short GI, MCS 15 (300 Mb/s), one MPDU per access",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"300Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", width = \"40MHz\", streams = 2, guard_interval = \"short\" } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11ac-dcf",
        "802.11ac VHT, 80 MHz, 1 stream, MCS 9 (390 Mb/s), VHT preamble with SIG-B, one MPDU per access",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"390Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11ac\", width = \"80MHz\" } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-ampdu",
        "the 802.11n cell of wlan-11n-dcf with A-MPDU aggregation and Block Ack (dcf.aggregation = ampdu): up to 64 MPDUs per access",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"300Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", width = \"40MHz\", streams = 2, guard_interval = \"short\", aggregation = \"ampdu\" } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-ampdu-lossy",
        "802.11n HT20 MCS 7 with A-MPDUs of at most 16 MPDUs over a channel with bit errors: each MPDU lost alone, resent in the next aggregate, released in order",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, error = { model = \"exponential\", every = \"32KiB\" }, dcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = 16 } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-ampdu-bar",
        "802.11n HT20 MCS 7 with A-MPDUs of at most 16 MPDUs over a channel with a bit error every 4 KiB: lost Block Acks answered by BlockAckReqs, MPDUs held in the recipient's reorder buffer behind a hole",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, error = { model = \"exponential\", every = \"4KiB\" }, dcf = { phy = \"11n\", aggregation = \"ampdu\", ampdu_max_frames = 16 } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11ac-ampdu",
        "the 802.11ac cell of wlan-11ac-dcf with A-MPDUs limited to 32 MPDUs and 50000 octets",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"390Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11ac\", width = \"80MHz\", aggregation = \"ampdu\", ampdu_max_frames = 32, ampdu_max_bytes = 50000 } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-snr",
        "802.11n HT20 MCS 7 A-MPDUs with frame errors from each station's SNR (dcf.error_model = snr, the NIST OFDM error model): stations at 22, 25, 30 and 40 dB",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", aggregation = \"ampdu\", error_model = \"snr\", snr = 40, station_snr = { sta1 = 22, sta2 = 25, sta3 = 30 } } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-ideal",
        "ideal rate control (dcf.rate_control = ideal) over SNR channels: one station's SNR steps from 35 to 12 dB at 5 s, another is 60 m away (log-distance path loss, 4 dB shadowing)",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", error_model = \"snr\", rate_control = \"ideal\", snr = 30, path_loss = { shadowing_db = 4 }, station_snr = { sta1 = [[\"0s\", 35], [\"5s\", 12]], sta2 = { distance_m = 60 } } } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-minstrel",
        "Minstrel-HT (dcf.rate_control = minstrel-ht, Linux mac80211's rc80211_minstrel_ht) with A-MPDUs over SNR channels: stations at 12, 18, 25 dB and one whose SNR steps from 35 to 15 dB at 5 s",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", aggregation = \"ampdu\", error_model = \"snr\", rate_control = \"minstrel-ht\", snr = 25, station_snr = { sta1 = 12, sta2 = 18, sta4 = [[\"0s\", 35], [\"5s\", 15]] } } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-11n-minstrel-sw-retries",
        "wlan-11n-minstrel with 30 attempts per MPDU (dcf.retry_limit = 30, ath9k's ATH_MAX_SW_RETRIES for an aggregate's MPDUs): the station whose SNR steps from 35 to 15 dB at 5 s keeps its MPDUs through Minstrel-HT's updates and is served after the step",
        "wlan",
        &[
            ("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"65Mbps\", delay = \"1us\", queue = 50, framing = 36, dcf = { phy = \"11n\", aggregation = \"ampdu\", error_model = \"snr\", rate_control = \"minstrel-ht\", retry_limit = 30, snr = 25, station_snr = { sta1 = 12, sta2 = 18, sta4 = [[\"0s\", 35], [\"5s\", 15]] } } }"),
            ("run.duration", "20s"),
            ("links.0.rate", "1Gbps"),
            ("links.1.rate", "1Gbps"),
        ],
    ),
    (
        "wlan-n",
        "the wlan-n preset: ten CUBIC downloads into an 802.11n HT40 cell of two streams under Minstrel-HT, stations at 36 to 9 dB, FQ-CoDel per station and airtime fairness; 3 s",
        "wlan-n",
        &[("run.duration", "3s"), ("run.warmup", "1s")],
    ),
    (
        "wlan-11b-anomaly",
        "Heusse et al.'s performance anomaly: one station at 1 Mb/s in an 802.11b DCF cell, the access point's stations in turn by frames",
        "wlan",
        &[("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"11Mbps\", delay = \"1us\", queue = 50, framing = 36, per_frame = \"192us\", dcf = { retry_limit = 7 }, station_rate = { sta1 = \"1Mbps\" } }"), ("run.duration", "20s")],
    ),
    (
        "wlan-11b-anomaly-airtime",
        "the anomaly's cell with airtime fairness at the access point (Linux mac80211's airtime deficit round robin)",
        "wlan",
        &[("cells.0", "{ name = \"cell\", access_point = \"ap\", stations = [\"sta1\", \"sta2\", \"sta3\", \"sta4\"], rate = \"11Mbps\", delay = \"1us\", queue = 50, framing = 36, per_frame = \"192us\", dcf = { retry_limit = 7, scheduler = \"airtime\" }, station_rate = { sta1 = \"1Mbps\" } }"), ("run.duration", "20s")],
    ),
    (
        "lan-wavelan-dcf-no-ack",
        "the WaveLAN hop as a two-member DCF without MAC ACKs: data and TCP ACK frames collide",
        "lan",
        &[(
            "hops.1",
            "{ name = \"wavelan\", role = \"wireless\", medium = \"dcf\", rate = \"2Mbps\", delay = \"1us\", framing = 36, per_frame = \"192us\", queue = 50, exposure = \"frame\", error = { model = \"exponential\", every = \"64KiB\" }, dcf = { mac_ack = false } }",
        )],
    ),
    (
        "westwood-wan",
        "Westwood+: ssthresh = bandwidth estimate x minimum RTT after a loss (Tustin filter)",
        "wan",
        &[("scheme", "e2e-westwood")],
    ),
    (
        "dcr-wan",
        "TCP-DCR: the response to duplicates waits one RTT; Reno's recovery after it",
        "wan",
        &[("scheme", "e2e-dcr")],
    ),
    (
        "dcr-sack-wan",
        "TCP-DCR over SACK: the response to duplicates waits one RTT; the SACK sender's recovery after it",
        "wan",
        &[("scheme", "e2e-dcr-sack")],
    ),
    (
        "veno-wan",
        "Veno: a fast retransmit with a small Vegas backlog cuts the window by a fifth",
        "wan",
        &[("scheme", "e2e-veno")],
    ),
    (
        "jersey-wan",
        "TCP-Jersey: the window from ABE x minimum RTT after a loss (no CW marks)",
        "wan",
        &[("scheme", "e2e-jersey")],
    ),
    (
        "jersey-cw-wan",
        "TCP-Jersey with CW marks from the internet hop's queue (cw_mark = 3 packets)",
        "wan",
        &[("scheme", "e2e-jersey"), ("hops.0.cw_mark", "3")],
    ),
    (
        "jtcp-wan",
        "JTCP: a loss with a flat jitter ratio keeps the window",
        "wan",
        &[("scheme", "e2e-jtcp")],
    ),
    (
        "tibet-wan",
        "TIBET: ssthresh = filtered length / filtered interval x minimum RTT after a loss",
        "wan",
        &[("scheme", "e2e-tibet")],
    ),
    (
        "tibet-wan-max-gap",
        "TIBET with its ACK gaps capped at 100 ms (tcp.tibet_max_gap, a counterfactual only: an idle wait after a timeout no longer counts whole in its interval filter)",
        "wan",
        &[("scheme", "e2e-tibet"), ("tcp.tibet_max_gap", "100ms")],
    ),
    (
        "ideal-bwe-wan",
        "ideal-BWE oracle: ssthresh = the path's slowest link rate x propagation RTT",
        "wan",
        &[("scheme", "e2e-ideal-bwe")],
    ),
    (
        "hack-wan",
        "TCP HACK: a NACKed corrupted segment is resent at once; duplicates still count",
        "wan",
        &[("scheme", "e2e-hack")],
    ),
    (
        "hack-fixed-wan",
        "HACK-fixed: the duplicates at a NACKed hole do not count",
        "wan",
        &[("scheme", "e2e-hack-fixed")],
    ),
    (
        "lhp-wan",
        "LHP packet list over Reno: listed losses resent at once, a fast recovery per other loss",
        "wan",
        &[("scheme", "e2e-lhp")],
    ),
    (
        "gsm-l2r-clean",
        "Ludwig2000 S1/S4: TCP-Lite over GSM RLP at L2R's 960 B/s, clean channel",
        "gsm",
        &[],
    ),
    (
        "gsm-poor-b-vj",
        "GSM RLP over a synthetic poor-signal channel with VJ header compression",
        "gsm",
        &[
            ("hops.0.blocks", "{ profile = \"poor-b\", minutes = 10 }"),
            ("hops.0.gsm", "{ n2 = 6, vj = true, l2r = { rate = 960 } }"),
        ],
    ),
    (
        "gsm-poor-c-clustered",
        "GSM RLP over the poor-signal chain clustered into dense fades of 0.5 s (sub-minute time scale)",
        "gsm",
        &[
            ("hops.0.blocks", "{ profile = \"poor-c@500ms:dense\", minutes = 10 }"),
            ("hops.0.gsm", "{ n2 = 6, l2r = { rate = 960 } }"),
        ],
    ),
    (
        "gsm-poor-b-fades-vj",
        "GSM RLP with VJ over a poor-signal channel with deep fades both ways (link-wide resets)",
        "gsm",
        &[
            ("transfer", "600KB"),
            (
                "hops.0.blocks",
                "{ profile = \"poor-b\", minutes = 20, draw = 104, fades = { per_hour = 30, length = \"4s\" } }",
            ),
            ("hops.0.gsm", "{ n2 = 6, vj = true, l2r = { rate = 960, draw = 104 } }"),
        ],
    ),
    (
        "gsm-poor-b-fades-vj-per-direction",
        "The same with each direction resetting alone (gsm.reset = \"direction\"), the counterfactual of RLP's link-wide reset",
        "gsm",
        &[
            ("transfer", "600KB"),
            (
                "hops.0.blocks",
                "{ profile = \"poor-b\", minutes = 20, draw = 104, fades = { per_hour = 30, length = \"4s\" } }",
            ),
            (
                "hops.0.gsm",
                "{ n2 = 6, vj = true, reset = \"direction\", l2r = { rate = 960, draw = 104 } }",
            ),
        ],
    ),
    (
        "cubic-wan",
        "CUBIC window growth (RFC 9438) over the SACK sender, modern profile",
        "wan",
        &[("scheme", "e2e-cubic")],
    ),
    (
        "cubic-long-fat-timeouts",
        "RFC 9438 section 4.8: the first congestion avoidance after a retransmission timeout starts at K = 0 with W_max the window it starts with; CUBIC (modern profile) with window scaling and a 1 MiB buffer on the WAN testbed made long and fat (10 Mb/s and 150 ms one way on the Internet hop, an 11 Mb/s WaveLAN hop with a 200-packet queue), errors every 512 KiB: one timeout, whose curve was aimed at the plateau of the cut before",
        "wan",
        &[
            ("scheme", "e2e-cubic"),
            ("hops.0.rate", "10Mbps"),
            ("hops.0.delay", "150ms"),
            ("hops.2.rate", "11Mbps"),
            ("hops.2.queue", "200"),
            ("error_every", "512KiB"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "1MiB"),
        ],
    ),
    (
        "prr-wan",
        "Proportional Rate Reduction (RFC 6937, SSRB) over the RFC 6675 SACK sender, modern profile",
        "wan",
        &[("scheme", "e2e-prr")],
    ),
    (
        "rack-wan",
        "RACK-TLP loss detection and tail loss probes (RFC 8985) over SACK, modern profile",
        "wan",
        &[("scheme", "e2e-rack")],
    ),
    (
        "bbr-wan",
        "BBR v1 with pacing (draft-cardwell-iccrg-bbr-congestion-control-00) over SACK, modern profile",
        "wan",
        &[("scheme", "e2e-bbr")],
    ),
    (
        "linux-wan",
        "the linux profile: IW 10, SACK + RACK-TLP, PRR, CUBIC, F-RTO, timestamps, Linux RTO and delayed ACKs",
        "wan",
        &[("scheme", "e2e-linux")],
    ),
    (
        "hiccup-hold-frto",
        "13 s hold with F-RTO (RFC 5682): the spurious timeout detected without timestamps, two new segments instead of the go-back-N",
        "hiccup",
        &[
            ("scheme", "e2e+frto"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"hold\", at = \"29.8s\", duration = \"13s\" }]",
            ),
        ],
    ),
    // LL-ELSN.
    (
        "llelsn-downlink-fer3",
        "LL-ELSN with ESACK on the 802.11b downlink, retry limit 1, 3% FER: each MAC drop an ELN over the wired path, resent without a window cut",
        "llelsn",
        &[
            ("run.duration", "20s"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-lhp-sender-fer3",
        "LL-ELSN's ELNs to LHP's packet-list sender (spec Fig. 14)",
        "llelsn",
        &[
            ("scheme", "ll-elsn-lhp"),
            ("run.duration", "20s"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-lhp-sender-clocking-fer3",
        "LL-ELSN's ELNs to LHP's packet-list sender, the second reading of a listed hole's duplicates (tcp.lhp_list_dupacks = clocking, RFC 3042 §2): each lets one new segment out, still uncounted",
        "llelsn",
        &[
            ("scheme", "ll-elsn-lhp"),
            ("run.duration", "20s"),
            ("tcp.lhp_list_dupacks", "clocking"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "lhp-header-protection-fer3",
        "LHP with its link-layer header protection (spec 4.11): corrupted frames are NACKed",
        "llelsn",
        &[
            ("scheme", "e2e-lhp"),
            ("run.duration", "20s"),
            (
                "cells.0.dcf",
                "{ retry_limit = 1, basic_rate = \"1Mbps\", header_protection = true }",
            ),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "snoop-station-uplink-fer3",
        "Snoop at the sending station (eln-llelsn spec 4.4): resends on duplicate ACKs one RTT late",
        "llelsn",
        &[
            ("scheme", "snoop-newreno"),
            ("run.duration", "20s"),
            (
                "flows",
                "[{ name = \"up\", from = \"sta1\", to = \"server\" }]",
            ),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-uplink-fer3",
        "LL-ELSN uplink: the station's own MAC notifies its TCP in the host (no ELN delay)",
        "llelsn",
        &[
            ("run.duration", "20s"),
            (
                "flows",
                "[{ name = \"up\", from = \"sta1\", to = \"server\" }]",
            ),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-ersn-retry-delay",
        "LL-ELSN with ERSN, four link attempts 100 ms apart (Fig. 13): ERSN restarts the sender's timer during the retries",
        "llelsn",
        &[
            ("run.duration", "20s"),
            (
                "cells.0.dcf",
                "{ retry_limit = 4, basic_rate = \"1Mbps\", retry_delay = \"100ms\" }",
            ),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "ns2-snoop-downlink-fer3",
        "ns-2's snoop (ll.snoop_style = ns2, tcp/snoop.cc) on the LL-ELSN downlink at 3% FER: resends to the tail of the access point's queue, timer from link-layer entry",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "snoop-newreno"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.03, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-retry-delay-aside",
        "LL-ELSN, four link attempts 100 ms apart that do not block the queue (dcf.retry_delay_blocks = false): the retried frame is reordered behind later ones",
        "llelsn",
        &[
            ("run.duration", "20s"),
            (
                "cells.0.dcf",
                "{ retry_limit = 4, basic_rate = \"11Mbps\", retry_delay = \"100ms\", retry_delay_blocks = false }",
            ),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-shared-ap-queue-bad-station",
        "ns-2's one interface queue at the access point (dcf.ap_queue = shared, net::ifq): three Reno downloads, sta3 in a mostly bad Gilbert channel, retry limit 7; its frames in retries hold the FIFO for the good stations",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "e2e"),
            (
                "nodes",
                "[{ name = \"server\", kind = \"host\" }, { name = \"router\", kind = \"router\" }, { name = \"ap\", kind = \"base-station\" }, { name = \"sta1\", kind = \"host\" }, { name = \"sta2\", kind = \"host\" }, { name = \"sta3\", kind = \"host\" }]",
            ),
            ("cells.0.stations", "[\"sta1\", \"sta2\", \"sta3\"]"),
            (
                "flows",
                "[{ name = \"sta1\", from = \"server\", to = \"sta1\" }, { name = \"sta2\", from = \"server\", to = \"sta2\" }, { name = \"sta3\", from = \"server\", to = \"sta3\" }]",
            ),
            (
                "cells.0.dcf",
                "{ retry_limit = 7, basic_rate = \"11Mbps\", ap_queue = \"shared\" }",
            ),
            ("cells.0.error", "{ model = \"none\" }"),
            (
                "cells.0.station_error",
                "{ sta3 = { model = \"gilbert\", p_gb = 0.01, p_bb = 0.5, loss_good = 0.0, loss_bad = 1.0 } }",
            ),
        ],
    ),
    (
        "llelsn-newreno-ns2-fer5",
        "ns-2's NewReno (tcp.newreno = ns2, tcp-newreno.cc newreno_changes1_): only the first partial ACK of a recovery restarts the retransmission timer, on the LL-ELSN downlink at 5% FER",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "e2e-newreno"),
            ("tcp.newreno", "ns2"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-reno-ns2-bugfix-fer5",
        "ns-2's bugFix_ on Reno (tcp.reno_bugfix, tcp-reno.cc dupack_action): at most one fast retransmit per window, a later loss of it left to the timer; Reno on the LL-ELSN downlink at 5% FER",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "e2e"),
            ("tcp.reno_bugfix", "true"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-reno-ns2-loss-window-fer5",
        "ns-2's slowdown halves the window, not the flight (tcp.loss_window, tcp.cc:1252-1290): limited transmit's segments beyond cwnd leave ssthresh alone; Reno on the LL-ELSN downlink (bugFix_ and singledup_ on, the preset's) at 5% FER",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "e2e"),
            ("tcp.loss_window", "true"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-ns2-rto-reno-fer5",
        "ns-2.35's retransmission timer (tcp.rto = ns2, tcp.cc rtt_update/rtt_timeout, tcpTick_ 10 ms): samples in tick boundaries, fixed-point srtt/rttvar, minrto_ 0.2 s before the backoff; Reno on the LL-ELSN downlink, d = 50 ms on each wired link (Fig. 7), 5% FER",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "e2e"),
            ("links.0.delay", "50ms"),
            ("links.1.delay", "50ms"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "llelsn-ns2-rto-timestamps-fer5",
        "ns-2.35's timer with the timestamp option: every ACK a sample, rounded to the nearest 10 ms tick (tcp.cc:580); Reno on the LL-ELSN downlink, d = 50 ms on each wired link (Fig. 7), 5% FER",
        "llelsn",
        &[
            ("run.duration", "20s"),
            ("scheme", "e2e"),
            ("links.0.delay", "50ms"),
            ("links.1.delay", "50ms"),
            ("tcp.timestamps", "true"),
            (
                "cells.0.error",
                "{ model = \"fer\", fer = 0.05, reference = \"1076B\" }",
            ),
        ],
    ),
    (
        "ideal-bwe-live-oracle-cell",
        "the ideal-BWE oracle's live ground truth (tcp.ideal_bwe_available = live, net network/oracle.rs): before every ACK the cell's capacity (3.71 Mb/s given, what ten Reno flows get from it) less the two Reno flows' data rate over the last propagation RTT; three downloads on the LL-ELSN cell, retry limit 7, no bit errors",
        "llelsn",
        &[
            ("run.duration", "20s"),
            (
                "nodes",
                "[{ name = \"server\", kind = \"host\" }, { name = \"router\", kind = \"router\" }, { name = \"ap\", kind = \"base-station\" }, { name = \"sta1\", kind = \"host\" }, { name = \"sta2\", kind = \"host\" }, { name = \"sta3\", kind = \"host\" }]",
            ),
            ("cells.0.stations", "[\"sta1\", \"sta2\", \"sta3\"]"),
            (
                "flows",
                "[{ name = \"sta1\", from = \"server\", to = \"sta1\", scheme = \"e2e-ideal-bwe\", tcp = { ideal_bwe_available = \"live\", ideal_bwe_rate = \"3710kbps\" } }, { name = \"sta2\", from = \"server\", to = \"sta2\", scheme = \"e2e\" }, { name = \"sta3\", from = \"server\", to = \"sta3\", scheme = \"e2e\" }]",
            ),
            (
                "cells.0.dcf",
                "{ retry_limit = 7, basic_rate = \"11Mbps\", ap_queue = \"shared\" }",
            ),
            ("cells.0.error", "{ model = \"none\" }"),
        ],
    ),
    (
        "esack-no-notices",
        "ESACK without a notifying link layer: SACK recovery, one halving per episode, on the LL-ELSN cell at 1% FER",
        "llelsn",
        &[("run.duration", "20s"), ("scheme", "e2e-esack")],
    ),
    (
        "s9-timer-testbed-eifel",
        "Ludwig2000 S9: the timer testbed (2.4 kbit/s async, MTU 1500, IFQ 40, timestamps) with the Eifel timer RTO_E, three congestion-avoidance cycles",
        "hiccup",
        &[
            ("transfer", "5MB"),
            ("run.time_limit", "8h"),
            ("hops.0.rate", "1920bps"),
            ("hops.0.forward.queue", "40"),
            ("tcp.mss", "1448"),
            ("buffer", "65535"),
            ("tcp.delayed_ack", "off"),
            ("tcp.quench", "false"),
            ("tcp.max_rto", "600s"),
            ("tcp.rto", "eifel"),
        ],
    ),
    (
        "gsm-flow-adaptive-poor-b",
        "Ludwig2000 §4.1: the flow-adaptive RLP (TCP persists up to the MSL instead of N2 = 6) over a synthetic poor-signal channel",
        "gsm",
        &[
            ("hops.0.blocks", "{ profile = \"poor-b\", minutes = 10 }"),
            ("hops.0.gsm", "{ adaptive = {}, l2r = { rate = 960 } }"),
        ],
    ),
    (
        "gsm-rfc2507-poor-b",
        "RFC 2507 header compression (the twice algorithm repairs one lost delta) over GSM RLP on a synthetic poor-signal channel",
        "gsm",
        &[
            ("hops.0.blocks", "{ profile = \"poor-b\", minutes = 10 }"),
            ("hops.0.gsm", "{ n2 = 6, hc = \"rfc2507\", l2r = { rate = 960 } }"),
        ],
    ),
    (
        "gsm-rfc2507-request-poor-b",
        "RFC 2507 with its header request (a context the twice algorithm cannot repair is asked for in full over the reverse link) over GSM RLP on a synthetic poor-signal channel",
        "gsm",
        &[
            ("hops.0.blocks", "{ profile = \"poor-b\", minutes = 10 }"),
            (
                "hops.0.gsm",
                "{ n2 = 6, hc = \"rfc2507\", hc_header_request = true, l2r = { rate = 960 } }",
            ),
        ],
    ),
    (
        "gsm-handover-lossy",
        "Ludwig2000 §2.4.2: a 2 s handover at 60 s loses the frames on the air; RLP resends them (delay, no packet loss)",
        "gsm",
        &[(
            "hops.0.gsm",
            "{ n2 = 6, l2r = { rate = 960 }, handovers = [{ at = \"60s\", duration = \"2s\", lossless = false }] }",
        )],
    ),
    (
        "gsm-adaptive-interactive",
        "Ludwig2000 §4.1.2: a bulk flow and an interactive one (DS AF21) share a flow-adaptive RLP link over a synthetic poor-signal channel; the interactive frames go first",
        "dumbbell",
        &[
            ("scheme", "e2e"),
            ("tcp", "{ profile = \"bsd\", mss = 460, buffer = \"8KiB\", timestamps = true }"),
            ("run", "{ duration = \"200s\" }"),
            ("links.0.medium", "gsm-csd"),
            ("links.0.rate", "9600bps"),
            ("links.0.delay", "90ms"),
            ("links.0.blocks", "{ profile = \"poor-b\", minutes = 10 }"),
            ("links.0.gsm", "{ adaptive = {}, l2r = { rate = 960 } }"),
            // A paper's set-up: the dumbbell hosts' phase jitter off.
            ("nodes.0.jitter", "0s"),
            ("nodes.1.jitter", "0s"),
            ("nodes.6.jitter", "0s"),
            ("nodes.7.jitter", "0s"),
            (
                "flows",
                "[{ name = \"bulk\", from = \"s1\", to = \"d1\" }, { name = \"telnet\", from = \"s2\", to = \"d2\", start = \"30s\", bytes = \"4KB\", ds = 18 }]",
            ),
        ],
    ),
    (
        "hiccup-syn-held",
        "the opening SYN (tcp.syn) held 8 s: its 6 s timer fires, the SYN is resent backed off, the first SYN-ACK opens the connection without an RTT sample (Karn)",
        "hiccup",
        &[
            ("tcp.syn", "true"),
            (
                "hops.0.forward.hiccups",
                "[{ kind = \"hold\", at = \"0s\", duration = \"8s\" }]",
            ),
        ],
    ),
    (
        "wan-window-scaling",
        "RFC 7323 window scaling: the WAN testbed with 256 KiB buffers (shift 3), no wireless loss",
        "wan",
        &[
            ("error_every", "0"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "256KiB"),
        ],
    ),
    (
        "dumbbell-red",
        "RED (Floyd-Jacobson 1993, gentle, ns-2 defaults) on the dumbbell bottleneck",
        "dumbbell",
        &[
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            ("links.0.queue", "{ kind = \"red\" }"),
        ],
    ),
    (
        "dumbbell-codel",
        "CoDel (RFC 8289) on the dumbbell bottleneck, four CUBIC flows with window scaling",
        "dumbbell",
        &[
            ("scheme", "e2e-cubic"),
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "1MiB"),
            ("links.0.queue", "{ kind = \"codel\" }"),
        ],
    ),
    (
        "dumbbell-fq-codel-udp",
        "FQ-CoDel (RFC 8290): a TCP flow beside an unresponsive 20 Mb/s UDP flow on 10 Mb/s",
        "dumbbell",
        &[
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            ("links.0.queue", "{ kind = \"fq_codel\" }"),
            (
                "flows",
                "[{ name = \"tcp\", from = \"s1\", to = \"d1\" }, { name = \"udp\", from = \"s2\", to = \"d2\", udp = { model = \"cbr\", rate = \"20Mbps\", size = \"1000B\" } }]",
            ),
        ],
    ),
    (
        "dumbbell-fq-codel-ecn",
        "ECN (RFC 3168): two CUBIC flows with window scaling marked by FQ-CoDel instead of dropped",
        "dumbbell",
        &[
            ("scheme", "e2e-cubic+ecn"),
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "4MiB"),
            ("links.0.queue", "{ kind = \"fq_codel\" }"),
            (
                "flows",
                "[{ name = \"f1\", from = \"s1\", to = \"d1\" }, { name = \"f2\", from = \"s2\", to = \"d2\", start = \"2s\" }]",
            ),
        ],
    ),    (
        "dumbbell-fq-codel-ecn-abe",
        "RFC 8511 ABE (tcp.abe, CUBIC's beta_ecn 0.85): dumbbell-fq-codel-ecn with each ECN response reducing to 0.85 of the window instead of CUBIC's 0.7",
        "dumbbell",
        &[
            ("scheme", "e2e-cubic+ecn"),
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "4MiB"),
            ("tcp.abe", "true"),
            ("links.0.queue", "{ kind = \"fq_codel\" }"),
            (
                "flows",
                "[{ name = \"f1\", from = \"s1\", to = \"d1\" }, { name = \"f2\", from = \"s2\", to = \"d2\", start = \"2s\" }]",
            ),
        ],
    ),
    (
        "dumbbell-codel-ecn-abe-reno",
        "RFC 8511 ABE with Reno (beta_ecn 0.8, RFC 8511 §3.1) on the dumbbell's CoDel bottleneck marking ECN (ecn = true), four flows",
        "dumbbell",
        &[
            ("scheme", "e2e-newreno+modern+ecn"),
            ("run.duration", "20s"),
            ("run.warmup", "5s"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "1MiB"),
            ("tcp.abe", "true"),
            ("links.0.queue", "{ kind = \"codel\", ecn = true }"),
        ],
    ),
    (
        "linux-wan-autotune-off",
        "the linux profile with fixed 32 KiB buffers (tcp.autotune = off, as a socket with SO_RCVBUF set) on the WAN testbed: linux-wan before receive-buffer autotuning",
        "wan",
        &[("scheme", "e2e-linux"), ("tcp.autotune", "off")],
    ),
    (
        "eln5-web-per-page-idle-restart",
        "slow-start restart after idle (RFC 5681 §4.1) on persistent web connections: eln5-web-per-page with tcp.slow_start_after_idle",
        "eln5",
        &[
            (
                "flows",
                "[{ name = \"w1\", from = \"server\", to = \"m1\", web = {} }, { name = \"w2\", from = \"server\", to = \"m2\", web = {} }, { name = \"w3\", from = \"server\", to = \"m3\", web = {} }]",
            ),
            ("run.duration", "60s"),
            ("tcp.slow_start_after_idle", "true"),
        ],
    ),    (
        "linux-wan-window-scaling-hystart-off",
        "the linux profile with plain slow start (tcp.hystart = off) on the error-free WAN testbed with 256 KiB buffers: slow start overflows the 50-packet queue",
        "wan",
        &[
            ("scheme", "e2e-linux"),
            ("error_every", "0"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "256KiB"),
            ("tcp.autotune", "off"),
            ("tcp.hystart", "off"),
        ],
    ),
    (
        "linux-wan-window-scaling",
        "Linux's HyStart (tcp_cubic.c, the linux profile's default): the error-free WAN testbed with 256 KiB buffers, slow start left on the ACK train or a delay rise before the queue overflows",
        "wan",
        &[
            ("scheme", "e2e-linux"),
            ("error_every", "0"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "256KiB"),
            ("tcp.autotune", "off"),
        ],
    ),
    (
        "linux-wan-window-scaling-hystart-rfc9406",
        "HyStart++ (RFC 9406, tcp.hystart = rfc9406): the error-free WAN testbed with 256 KiB buffers, CSS before the queue overflows (the linux profile's default before Linux's HyStart)",
        "wan",
        &[
            ("scheme", "e2e-linux"),
            ("error_every", "0"),
            ("tcp.window_scaling", "true"),
            ("tcp.buffer", "256KiB"),
            ("tcp.autotune", "off"),
            ("tcp.hystart", "rfc9406"),
        ],
    ),
    (
        "linux-wan-cubic-rfc9438",
        "the linux profile with RFC 9438's Reno-friendly estimate (tcp.cubic_friendly = rfc9438: alpha 1 once W_est regains the window before the reduction) instead of Linux's tcp_cubic.c (8/15 throughout), on the WAN testbed",
        "wan",
        &[("scheme", "e2e-linux"), ("tcp.cubic_friendly", "rfc9438")],
    ),
    (
        "linux-reno-wan",
        "Linux's reno module on the linux profile (e2e-linux+reno): the window grows per segment acknowledged (tcp_reno_cong_avoid) and halves the window at a loss; the kernel's reno as lossylink validate pairs it",
        "wan",
        &[("scheme", "e2e-linux+reno")],
    ),
    (
        "linux-wan-autotune-error-free",
        "Linux's quick ACK while the autotuned window opens (tcp_grow_window sets icsk_ack.quick |= 1): the linux profile with window scaling and receive-buffer autotuning on the error-free WAN testbed; every segment that raises rcv_ssthresh is acknowledged at once, as the kernel's receiver does in slow start",
        "wan",
        &[
            ("scheme", "e2e-linux"),
            ("error_every", "0"),
            ("tcp.window_scaling", "true"),
        ],
    ),
    (
        "linux-wan-error-free-cubic-rfc9438",
        "tcp_cubic.c's bictcp_update caps cnt at 20 until a loss sets last_max_cwnd (5 % a round trip after HyStart's exit): the row above with RFC 9438's Reno-friendly rules (tcp.cubic_friendly = rfc9438), which have no such floor and grow from K = 0 by the curve and W_est alone",
        "wan",
        &[
            ("scheme", "e2e-linux"),
            ("error_every", "0"),
            ("tcp.window_scaling", "true"),
            ("tcp.cubic_friendly", "rfc9438"),
        ],
    ),
    (
        "linux-wan-short-tail",
        "Linux's Nagle with Minshall's modification (tcp_nagle_check, tcp_minshall_check): the short last piece of a transfer leaves at once unless a short segment is still unacknowledged, where BSD's rule waits until nothing is outstanding; the linux profile with a 100 000-byte transfer (its last segment short) on the error-free WAN testbed",
        "wan",
        &[
            ("scheme", "e2e-linux"),
            ("error_every", "0"),
            ("transfer", "100000"),
        ],
    ),
];

/// Split-connection counters, only where they are not zero (rows without a proxy stay
/// unchanged).
const SPLIT_FIELDS: &[&str] = &[
    "source_stalled_s",
    "source_longest_stall_s",
    "wired_bytes_sent",
    "wired_retransmissions",
    "wired_timeouts",
    "wireless_bytes_sent",
    "wireless_retransmissions",
    "wireless_timeouts",
    "wireless_fast_retransmits",
    "relay_max_bytes",
];

/// Shown only where nonzero (local drops and IP-stage hiccups).
const HOST_FIELDS: &[&str] = &["sender_local_drops", "hiccup_intercepted", "hiccup_expired"];

/// Eifel counters added after the table was first written, only where they are not zero.
const EIFEL_FIELDS: &[&str] = &[
    "sender_suppressed_fast_retransmits",
    "sender_tlp_probes",
    "elsn_elns_sent",
    "elsn_ersns_sent",
    "sender_elns",
    "sender_elns_filtered",
    "sender_ersn_restarts",
];

const AGENT_FIELDS: &[&str] = &[
    "local_retransmissions",
    "bs_dupacks_suppressed",
    "bs_dupacks_forwarded_uncached",
    "bs_dupack_retransmissions",
    "bs_timer_retransmissions",
    "bs_partial_ack_retransmissions",
    "bs_eln_marks",
    "link_ack_frames",
    "corrupted_link_ack_frames",
    "link_frames_given_up",
    "link_frames_held",
    "link_duplicate_frames",
];

/// The GSM RLP link's counters (present only where the path has a GSM link).
const GSM_FIELDS: &[&str] = &[
    "rlp_frames",
    "rlp_retransmissions",
    "rlp_resets",
    "rlp_flushed_packets",
    "vj_discards",
    "l2r_gaps",
    "utilization_pct",
];

const FIELDS: &[&str] = &[
    "throughput_mbps",
    "completion_s",
    "wired_goodput_pct",
    "wireless_goodput_pct",
    "sender_timeouts",
    "sender_fast_retransmits",
    "sender_retransmitted_bytes",
    "bs_queue_drops",
    "corrupted_data_frames",
    "corrupted_ack_frames",
    "sender_segments",
    "receiver_acks",
    "events",
    "sender_spurious_timeouts",
    "sender_spurious_fast_retransmits",
    "receiver_duplicate_segments",
    "receiver_eln_acks",
];

fn row(preset: &str, overrides: &[(&str, &str)]) -> Value {
    let r = run(&scenario(preset, overrides), 1, &RunOptions::default()).expect("run");
    let m = r.metrics;
    let pairs: Map<String, Value> = m
        .to_pairs()
        .into_iter()
        // Base-station counters only where an agent ran, so rows without one stay unchanged.
        .filter(|(k, v)| {
            FIELDS.contains(k)
                // The GSM link's counters exist only on runs with one.
                || GSM_FIELDS.contains(k)
                || ((AGENT_FIELDS.contains(k)
                    || SPLIT_FIELDS.contains(k)
                    || HOST_FIELDS.contains(k)
                    || EIFEL_FIELDS.contains(k))
                    && *v != lossylink::Value::Int(0)
                    && *v != lossylink::Value::Float(0.0))
        })
        .map(|(k, v)| {
            let v = match v {
                lossylink::Value::Int(i) => json!(i),
                lossylink::Value::Float(f) => json!(f),
                lossylink::Value::Str(s) => json!(s),
                lossylink::Value::Bool(b) => json!(b),
            };
            (k.to_string(), v)
        })
        .collect();
    let mut out = Value::Object(pairs);
    // [[flows]] documents: each flow's goodput and counters, and the aggregates.
    if let Some(fr) = r.flows {
        let j = |pairs: Vec<(&'static str, lossylink::Value)>| -> Value {
            Value::Object(
                pairs
                    .into_iter()
                    .map(|(k, v)| {
                        let v = match v {
                            lossylink::Value::Int(i) => json!(i),
                            lossylink::Value::Float(f) if f.is_nan() => Value::Null,
                            lossylink::Value::Float(f) => json!(f),
                            lossylink::Value::Str(s) => json!(s),
                            lossylink::Value::Bool(b) => json!(b),
                        };
                        (k.to_string(), v)
                    })
                    .collect(),
            )
        };
        out["flows"] = Value::Array(fr.flows.into_iter().map(j).collect());
        out["aggregate"] = j(fr.aggregate);
        // Directions with a queue discipline: their sojourn times, drops and marks
        // (rows of drop-tail links have none, so older rows are unchanged).
        let queues: Vec<Value> = fr
            .links
            .into_iter()
            .filter(|l| l.iter().any(|(k, _)| *k == "codel_marks"))
            .map(j)
            .collect();
        if !queues.is_empty() {
            out["queues"] = Value::Array(queues);
        }
        // Cells with SNR channels: each member's counters and its data frames per MCS
        // (net::medium::dcf::snr; rows of other cells have none, so they are unchanged).
        let members: Vec<Value> = fr
            .members
            .into_iter()
            .filter(|m| m.iter().any(|(k, _)| *k == "mcs0"))
            .map(j)
            .collect();
        if !members.is_empty() {
            out["members"] = Value::Array(members);
        }
    }
    out
}

#[test]
fn golden_scenario_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/scenarios.json");
    let mut table = Map::new();
    for (name, mechanism, preset, overrides) in ROWS {
        let mut r = row(preset, overrides);
        r["mechanism"] = json!(mechanism);
        table.insert(name.to_string(), r);
    }
    let got = Value::Object(table);
    if std::env::var_os("LOSSYLINK_BLESS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(path)
        .expect("tests/golden/scenarios.json missing: run with LOSSYLINK_BLESS=1");
    let want: Value = serde_json::from_str(&text).unwrap();
    for (name, ..) in ROWS {
        assert_eq!(got[name], want[name], "golden row {name} changed");
    }
    assert_eq!(
        got.as_object().map(|o| o.len()),
        want.as_object().map(|o| o.len()),
        "rows added or removed"
    );
}

/// The event-order fingerprint of every golden row: a hash over the time, kind and
/// target of every event in the order handled (net's `network/fingerprint.rs`), compared with
/// `tests/golden/fingerprints.json`, recorded before the scheduler was replaced. Equal
/// fingerprints mean the same events in the same order, not only the same results. Record
/// again only for a change meant to change the order, with
/// `LOSSYLINK_BLESS_FINGERPRINTS=1 cargo test -p lossylink --test it golden::`, and say why in the commit.
#[test]
fn golden_event_order_fingerprints() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/fingerprints.json"
    );
    let opts = RunOptions {
        fingerprint: true,
        ..RunOptions::default()
    };
    let mut table = Map::new();
    for (name, _, preset, overrides) in ROWS {
        let r = run(&scenario(preset, overrides), 1, &opts).expect("run");
        let fp = r.fingerprint.expect("fingerprint asked for");
        table.insert(
            name.to_string(),
            json!({ "events": r.metrics.events, "fingerprint": format!("{fp:016x}") }),
        );
    }
    let got = Value::Object(table);
    if std::env::var_os("LOSSYLINK_BLESS_FINGERPRINTS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(path).expect("tests/golden/fingerprints.json missing");
    let want: Value = serde_json::from_str(&text).unwrap();
    for (name, ..) in ROWS {
        assert_eq!(
            got[name], want[name],
            "event order of golden row {name} changed"
        );
    }
    assert_eq!(
        got.as_object().map(|o| o.len()),
        want.as_object().map(|o| o.len()),
        "rows added or removed"
    );
}
