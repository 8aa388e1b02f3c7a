#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The access point's queue (net::ifq, `dcf.ap_queue`) with explicit times: ns-2's one shared
//! FIFO against one queue per station served in turn.

use crate::common;
use common::num;
use lossylink::{run, RunOptions, Scenario};

/// Station s1's channel loses every frame; s2's is clean. The source sends A1 at 0 and A2 at
/// 100 µs to s1 and B1 at 200 µs to s2 (1000-byte datagrams; a 1 Gb/s wire to the access
/// point), retry limit 2, for `duration`. The AP queue holds `queue` packets. Returns the bytes
/// delivered to s1 and to s2, and the AP's queue drops on its port towards s2.
fn script(ap_queue: &str, queue: u32, duration: &str, a_frames: u32) -> (f64, f64, f64) {
    let (a, b, drops, _) = script_wait(ap_queue, queue, duration, a_frames);
    (a, b, drops)
}

/// [`script`] and the mean wait of the AP's packets for s2 in its queue, ms.
fn script_wait(ap_queue: &str, queue: u32, duration: &str, a_frames: u32) -> (f64, f64, f64, f64) {
    let mut t = format!(
        "name = \"apq\"\nscheme = \"e2e\"\n[run]\nduration = \"{duration}\"\n\
         [[nodes]]\nname = \"src\"\nkind = \"host\"\n[[nodes]]\nname = \"ap\"\nkind = \"base-station\"\n\
         [[nodes]]\nname = \"s1\"\nkind = \"host\"\n[[nodes]]\nname = \"s2\"\nkind = \"host\"\n\
         [[links]]\nname = \"wire\"\nbetween = [\"src\", \"ap\"]\nrole = \"wired\"\nrate = \"1Gbps\"\ndelay = \"1us\"\nqueue = 1000\n\
         [[nodes]]\nname = \"h\"\nkind = \"host\"\n[[links]]\nname = \"side\"\nbetween = [\"src\", \"h\"]\nrole = \"wired\"\nrate = \"1Gbps\"\ndelay = \"1us\"\n\
         [[flows]]\nname = \"tcp\"\nfrom = \"src\"\nto = \"h\"\nbytes = \"1400B\"\n\
         [[cells]]\nname = \"cell\"\naccess_point = \"ap\"\nstations = [\"s1\", \"s2\"]\nrate = \"11Mbps\"\ndelay = \"1us\"\nqueue = {queue}\nframing = 36\nper_frame = \"192us\"\n\
         dcf = {{ retry_limit = 2, ap_queue = \"{ap_queue}\" }}\n\
         station_error = {{ s1 = {{ model = \"bernoulli\", p = 1.0 }} }}\n"
    );
    // A CBR of 80 Mb/s sends a 1000-byte datagram every 100 µs from its start until its stop.
    let a_stop = 100 * a_frames - 50;
    t += &format!(
        "[[flows]]\nname = \"a\"\nfrom = \"src\"\nto = \"s1\"\nstop = \"{a_stop}us\"\nudp = {{ model = \"cbr\", rate = \"80Mbps\", size = \"1000B\" }}\n\
         [[flows]]\nname = \"b\"\nfrom = \"src\"\nto = \"s2\"\nstart = \"{}us\"\nstop = \"{}us\"\nudp = {{ model = \"cbr\", rate = \"80Mbps\", size = \"1000B\" }}\n",
        100 * a_frames,
        100 * a_frames + 50
    );
    let s = Scenario::from_toml_str(&t).expect("scenario");
    let r = run(&s, 1, &RunOptions::default()).unwrap();
    let f = r.flows.as_ref().unwrap();
    let by = |name: &str| {
        f.flows
            .iter()
            .find(|row| row[0].1 == lossylink::Value::Str(name.into()))
            .map(|row| num(row, "delivered_bytes"))
            .unwrap()
    };
    // The AP's port towards s2: the cell's second link, from the access point.
    let drops = f
        .links
        .iter()
        .filter(|row| num(row, "queue_drops") > 0.0)
        .map(|row| num(row, "queue_drops"))
        .sum();
    let s2 = f
        .members
        .iter()
        .find(|row| row[1].1 == lossylink::Value::Str("s2".into()))
        .unwrap();
    (by("a"), by("b"), drops, num(s2, "ap_queue_wait_mean_ms"))
}

/// Every failed frame of s1 costs two attempts: DIFS 50 µs + backoff (CW 31, then 63 slots
/// of 20 µs) + 966 µs on the air (1064 bytes at 11 Mb/s + 192 µs PLCP) + the ACK timeout 334 µs
/// (SIFS 10 + ACK 304 at 1 Mb/s + a slot), 2 700-4 580 µs; B1's exchange DIFS + backoff (CW 31)
/// plus 966 + SIFS + ACK = 1 330-1 950 µs. A1 reaches the access point at 9 µs and the MAC takes it.
/// Per station: A1 is dropped, then B1 goes (s2's turn): delivered at 4 039-6 539 µs. Shared:
/// A2 arrived before B1, so it goes first and fails too: B1 at 6 739-11 119 µs, whatever the
/// backoff draws.
#[test]
fn a_frame_in_retries_holds_the_shared_fifo_but_not_the_station_queues() {
    let (a, b, _) = script("per-station", 50, "6600us", 2);
    assert_eq!((a, b), (0.0, 1000.0), "per station: B1 by 6.6 ms");
    let (a, b, _) = script("shared", 50, "6600us", 2);
    assert_eq!((a, b), (0.0, 0.0), "shared: B1 still behind A2 at 6.6 ms");
    let (a, b, _) = script("shared", 50, "11200us", 2);
    assert_eq!(
        (a, b),
        (0.0, 1000.0),
        "shared: B1 after A1's and A2's retries"
    );
    // B1 reaches the access point at 209 µs and waits in its queue until the MAC takes it:
    // after A1's drop (9 µs + 2 700-4 580 µs) per station, after A2's too when shared.
    let (.., wait) = script_wait("per-station", 50, "20ms", 2);
    assert!(
        (2.49..=4.39).contains(&wait),
        "per station: B1 waited {wait} ms"
    );
    let (.., wait) = script_wait("shared", 50, "20ms", 2);
    assert!((5.19..=8.97).contains(&wait), "shared: B1 waited {wait} ms");
}

/// The shared queue is drop-tail on the stations' packets together: with room for 2, A1 at the
/// MAC and A2, A3 queued, B1 is dropped although s2 has nothing queued; per station it waits in
/// s2's own queue and is delivered.
#[test]
fn the_shared_fifo_drops_on_the_total_of_the_stations_packets() {
    let (_, b, drops) = script("per-station", 2, "30ms", 3);
    assert_eq!((b, drops), (1000.0, 0.0));
    let (_, b, drops) = script("shared", 2, "30ms", 3);
    assert_eq!((b, drops), (0.0, 1.0));
}

/// A shared FIFO is one queue: the airtime scheduler (which picks stations) does not apply,
/// and neither does a queue discipline; a name outside the two is refused. Each a one-line
/// error naming the field.
#[test]
fn a_shared_ap_queue_refuses_what_a_fifo_cannot_be() {
    for (value, says) in [
        (
            "{ ap_queue = \"shared\", scheduler = \"airtime\" }",
            "not \"airtime\"",
        ),
        ("{ ap_queue = \"fifo\" }", "per-station"),
    ] {
        let mut s = common::scenario("llelsn", &[]);
        let e = s.set("cells.0.dcf", value).unwrap_err().to_string();
        assert!(e.contains("cells") && e.contains("ap_queue"), "{e}");
        assert!(e.contains(says) && !e.contains('\n'), "{e}");
    }
    let mut s = common::scenario("llelsn", &[]);
    let e = s
        .set_all([
            ("cells.0.dcf.ap_queue", "\"shared\""),
            ("cells.0.queue", "{ kind = \"codel\" }"),
        ])
        .unwrap_err()
        .to_string();
    assert!(e.contains("cells[0].dcf.ap_queue"), "{e}");
}
