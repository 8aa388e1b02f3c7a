"""What the LL-ELSN study's known deviations must show to be "explained" (the reproduction's
rule, :func:`lossylink.reproduce.evaluate`; docs/reproduction.md#earned): the band each
mechanism predicts for our value, computed where it can be from the runs' own measurements, and
a counterfactual run the reproduction makes with the mechanism switched off (or ns-2's setting
switched on; :mod:`lossylink.papers.llelsn.counterfactuals`, ids ``<experiment>~<key>``), which
must bring the target into its accepted range. A failure without both, a value outside the
band, or a counterfactual that does not move the target into its range stays "fail". The
mechanisms are traced in docs/llelsn.md (one section per deviation below); the bands' runs
that the target itself does not read are listed with the counterfactual's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from lossylink.papers._base import Counterfactual, Measured, Swapped, Target
from lossylink.papers.llelsn import counterfactuals as cfs
from lossylink.papers.llelsn import runs as r
from lossylink.papers.llelsn.targets.measures import ALL, G, g, has, others, point_id

Band = tuple[float, float] | Callable[[Measured], tuple[float, float]]

STALLED = 0.9
"""A point is hurt by the ERSN reading when LL-ELSN keeps less than this share of its goodput
under the other reading (10 %: the noise allowance of T004-11.sack)."""


@dataclass(frozen=True)
class Deviation:
    """A known deviation: its mechanism in one line, the targets it explains, the band its
    mechanism predicts, and the counterfactual run that tests it."""

    summary: str
    targets: tuple[str, ...]
    band: Band
    counterfactual: str
    """A key of :data:`lossylink.papers.llelsn.counterfactuals.RUNS`."""
    band_needs: tuple[str, ...] = ()
    """Runs the band reads besides the target's own."""


def _cf_ids(key: str) -> tuple[str, ...]:
    return tuple(e.id for e in r.EXPERIMENTS if e.id.endswith(f"~{key}"))


# -- bands -----------------------------------------------------------------------------------


def _elsn_r2(p: float) -> str:
    return point_id("retry", f"{p:g}-r2", "ll-elsn")


def _stalled_band(m: Measured) -> tuple[float, float]:
    """T004-16.ii: LL-ELSN wins at most at the FER points the spec's ERSN reading does not
    hurt (keeps at least :data:`STALLED` of its goodput under the other reading)."""
    stalled = [
        g(m, _elsn_r2(p)) < STALLED * g(m, f"{_elsn_r2(p)}~ersn-oldest") for p in r.RETRY_FER_PCT
    ]
    return (0.0, 1.0 - sum(stalled) / len(stalled))


def _snoop_band(m: Measured) -> tuple[float, float]:
    """T004-1.snoop: ns-2's snoop costs a share c of Balakrishnan97's goodput at each FER (both
    measured). Snoop must be second wherever Balakrishnan97's snoop leads the runner-up by more
    than the largest cost, and can be second only where it leads by more than the smallest:
    the band is those two shares of the grid. Bounds, not a sharp prediction (the cost varies
    with the FER): the counterfactual carries the test."""
    keys = [f"{p:g}" for p in r.FER_PCT]
    b97 = {k: g(m, f"{point_id('fer', k, 'snoop-newreno')}~snoop-b97") for k in keys}
    cost = [1 - g(m, point_id("fer", k, "snoop-newreno")) / b97[k] for k in keys]
    margin = []
    for k in keys:
        rest = {lab: v for lab, v in others(m, "fer", k).items() if lab != "Snoop"}
        margin.append(1 - max(rest.values()) / b97[k])
    n = len(keys)
    return (sum(x > max(cost) for x in margin) / n, sum(x > min(cost) for x in margin) / n)


STALL = 0.5
"""T004-1.first: a run of LL-ELSN stalls in the timer's Karn backoff when it gets less than this
share of its FER point's median goodput (docs/llelsn.md#karn-stall: 0.26 Mb/s against a median
of 1.66 at FER 9 %, seed 5)."""


def _karn_stall_band(m: Measured) -> tuple[float, float]:
    """T004-1.first: LL-ELSN's interval lies above the others at every FER point where none of
    its runs stalls; a stalled run widens the interval of its point, which may then overlap:
    the value lies between 1 - k/n and 1, k the points with a stalled run, n the FER points."""
    k = 0
    for p in r.FER_PCT:
        v = np.asarray(m.values(point_id("fer", f"{p:g}", "ll-elsn"), G), dtype=float)
        k += int(bool((v < STALL * np.median(v)).any()))
    n = len(r.FER_PCT)
    return (1.0 - k / n, 1.0)


TIBET_LIFT = 1.05
"""T004-1.reno: an FER point where capping TIBET's ACK gaps lifts its goodput by more than this
factor is one where the timeouts' idle waits depress its estimate (5 %: the noise allowance of
T004-6.monotone's steps)."""


RENO_LIFT = 1.05
"""T004-1.reno: an FER point where Reno halving its flight (singledup_'s two segments beyond cwnd
included) gets more than this factor over Reno halving its window, ns-2's rule, is one where the
flight rule lifts Reno over the senders whose ssthresh does not read the flight (5 %, as
:data:`TIBET_LIFT`)."""

BWE_SENDERS = ("e2e-westwood", "e2e-jersey", "e2e-tibet")
"""The Reno-recovery senders whose ssthresh after a loss is BWE x RTT_min, not the flight."""


def _tibet_gap_band(m: Measured) -> tuple[float, float]:
    """T004-1.reno: a scheme can fall below Reno only where a mechanism puts it there: TIBET
    where its interval filter's idle gaps cost it (the capped filter lifts it by more than
    :data:`TIBET_LIFT`), and Westwood+, Jersey and TIBET where Reno's flight halving lifts Reno
    (its run halving the window, ns-2's, gets less than 1/:data:`RENO_LIFT` of it); and one
    point at least is below (the failure): the value lies between 1 - k/n and 1 - 1/n, k those
    (scheme, FER) points, n the points the target compares."""
    n = 0
    below: set[tuple[str, str]] = set()
    for p in r.FER_PCT:
        key = f"{p:g}"
        n += len([lab for lab in others(m, "fer", key) if lab != "Reno"])
        tibet = point_id("fer", key, "e2e-tibet")
        if g(m, f"{tibet}~reno-window") > TIBET_LIFT * g(m, tibet):
            below.add((key, "e2e-tibet"))
        reno = point_id("fer", key, "e2e")
        if g(m, reno) > RENO_LIFT * g(m, f"{reno}~reno-window"):
            below.update((key, s) for s in BWE_SENDERS)
    return (1.0 - len(below) / n, 1.0 - 1.0 / n)


COLLISION_GAP = 0.05
"""T004-6.monotone: collisions cost a scheme more at the smallest d than at the next by more
than this share of its goodput (the 5 % noise allowance of the target's own steps)."""


def _collision_band(m: Measured) -> tuple[float, float]:
    """T004-6.monotone: a scheme can rise from the smallest d to the next only if collisions
    cost it more at the smallest d (measured with and without them); band: at least the
    schemes they do not hurt so are monotone."""
    d0, d1 = (str(d) for d in r.RTT_D_MS[:2])
    ran = [s for s in ALL if has(m, "rtt", d0, s)]
    hurt = 0
    for s in ran:
        if not has(m, "rtt", f"{d0}", f"{s}~no-collisions"):
            continue

        def cost(d: str, s: str = s) -> float:
            return 1 - g(m, point_id("rtt", d, s)) / g(m, f"{point_id('rtt', d, s)}~no-collisions")

        hurt += int(cost(d0) - cost(d1) > COLLISION_GAP)
    return (1.0 - hurt / len(ran), 1.0)


def _jain_spread_band(m: Measured) -> tuple[float, float]:
    """T004-9.lowest: when every index at N = 20 lies within 1 % of the others (the stations
    see one loss process, the 200 s runs average the flows' timeouts out), which three are
    least fair is noise: any value; otherwise the mechanism does not apply (band 1)."""
    js = [
        g(m, point_id("nsweep", "20", s), "agg.jain_index")
        for s in ALL
        if has(m, "nsweep", "20", s)
    ]
    return (0.0, 1.0) if max(js) - min(js) <= 0.01 else (1.0, 1.0)


LHP_BASE = f"{point_id('pareto', '8', 'e2e-lhp')}~no-header"
"""LHP without header protection: its base, Reno with a fast recovery per loss (spec §4.11 (c)),
which is not the preset's Reno under ns-2's bugFix_ (tests/it/lhp_header.rs)."""


def _lhp_band(m: Measured) -> tuple[float, float]:
    """T004-10.lhp: LHP is its base plus NACKs for the corrupted frames, which only repair, so
    it is among the worst two only when its base (the counterfactual's run) is."""
    o = others(m, "pareto", "8")
    o["LHP"] = g(m, LHP_BASE)
    worst = sorted(o, key=lambda k: o[k])[:2]
    return (0.0, 1.0) if "LHP" in worst else (0.0, 0.0)


def _esack_over_lhp(m: Measured, group: str, key: str) -> float:
    return g(m, point_id(group, key, "ll-elsn")) / g(m, point_id(group, key, "ll-elsn-lhp"))


def _senders_gap_band(m: Measured) -> tuple[float, float]:
    """T004-14.low: the gap comes from the senders (LHP answers each server-queue drop with a
    Reno recovery), not the background: it is Fig. 14's gap at N = 1 (no background) within
    a factor 1.25 either way."""
    gap = abs(_esack_over_lhp(m, "senders", "1") - 1.0)
    return (gap / 1.25, gap * 1.25)


# -- the deviations ----------------------------------------------------------------------------

DEVIATIONS_BY_KEY: dict[str, Deviation] = {
    "ersn-reading": Deviation(
        "the spec's ERSN reading (an ERSN for any outstanding segment restarts the timer) with "
        "the unbounded window: access-point queue drops leave holes only the timer repairs, and "
        "ERSNs for other segments keep restarting it, so LL-ELSN stalls at the higher FERs of "
        "Fig. 17 and loses to Reno there; with ERSN restarting only the guarded segment's timer "
        "(the counterfactual) it beats Reno at every FER",
        ("T004-16.ii",),
        _stalled_band,
        "ersn-oldest",
    ),
    "ns2-snoop": Deviation(
        "ns-2's snoop forwards the first duplicate and queues its resend at the tail of the "
        "access point's queue, so it repairs more slowly than Balakrishnan97's and DCR over "
        "Sack1 passes it at the low FERs; with Balakrishnan97's snoop it is second everywhere",
        ("T004-1.snoop",),
        _snoop_band,
        "snoop-b97",
    ),
    "ack-collisions": Deviation(
        "at d = 1 ms the access point is always backlogged, so the station's ACKs collide with "
        "its data more often than at d = 10 ms, and Westwood+'s and TIBET's ssthresh (BWE x "
        "RTT_min, about 2 segments there) turns those losses into timeouts: they rise from "
        "d = 1 to 10 ms; without collisions both fall with d",
        ("T004-6.monotone",),
        _collision_band,
        "no-collisions",
    ),
    "equal-channels": Deviation(
        "the hypothesis, refuted: every station sees one loss process, so at N = 20 the Jain "
        "indexes lie within 1 % and the order of the least fair is noise, and the "
        "counterfactual (flows starting 0.5 s apart, so that later flows measure RTT_min behind "
        "a standing queue) tests whether unequal RTT_min makes Westwood+ and TIBET the least "
        "fair. Measured at 20 seeds instead (docs/llelsn.md, tenth session): the indexes span "
        "1.4 % and the order is beyond noise; BWE x RTT_min is about 1.1 kB at N = 20, under "
        "the 2-segment floor, so every loss cuts Westwood+ and TIBET to about 2 segments (0.34-"
        "0.36 of the window, Reno 0.5) and they fill the shared FIFO least (81-86 drops per "
        "flow, Reno 110): the two fairest; DCR and LL-ELSN keep their windows through the "
        "losses they see, fill the FIFO and take its drops unequally: the least fair",
        ("T004-9.lowest",),
        _jain_spread_band,
        "staggered-starts",
    ),
    "reno-family-bg": Deviation(
        "the background's queue drops give every Reno-recovery sender the same multiple fast "
        "recoveries, and LHP is its base (Reno with a fast recovery per loss, not ns-2's "
        "bugFix_) plus NACKs for corrupted frames, so it is among the worst two only if its "
        "base is; the counterfactual (LHP without header protection, its base) tests that its "
        "NACKs are what keep it above. Refuted at 20 seeds (docs/llelsn.md, sixth and ninth "
        "sessions): LHP without header protection equals Reno without bugFix_ on every seed, "
        "and the preset's Reno under ns-2's bugFix_ waits for the timer on the background's "
        "bursts where LHP's per-loss fast recovery does not, so LHP is 7th of 11, above Reno "
        "on 20 of 20 seeds, under every ns-2 rule off and every open reading",
        ("T004-10.lhp",),
        _lhp_band,
        "no-header",
    ),
    "bwe-gentle": Deviation(
        "in a cell shared by ten flows BWE x RTT_min is a flow's share of the cell times the "
        "propagation round trip, about 2 segments, while the shared FIFO's standing queue makes "
        "the round trip two to three times RTT_min: Westwood+ and TIBET cut deeper than Reno "
        "and the last Reno flow gains; the counterfactual (a 10-packet access point queue, so "
        "the round trip nears RTT_min and BWE x RTT_min nears the window) tests whether the "
        "standing queue is what keeps them gentle. Veno gives way for another reason, measured "
        "at 20 seeds (docs/llelsn.md, tenth session): the standing queue of about 5 packets a "
        "flow keeps its backlog estimate at 3 segments or more, so it halves on 92-95 % of its "
        "fast retransmits and grows at half Reno's rate on 43-89 % of its ACKs; over the "
        "wired delay d the band is 0-0.5",
        ("T004-11.aggressive",),
        (0.0, 0.25),
        "short-ap-queue",
    ),
    "shared-fifo-friendly": Deviation(
        "ns-2's one shared FIFO at the access point drops 3 000-3 500 packets per run where "
        "per-station queues drop none, so Fig. 12 measures recovery under congestion; "
        "LL-ELSN's ESACK sender (without notices: e2e-esack exactly) sends more than Sack1 "
        "while holes are outstanding and takes 10-30 % from the last Reno flow at k = 6-8; "
        "with per-station queues LL-ELSN and HACK match SACK",
        ("T004-11.sack",),
        (0.10, 0.30),
        "per-station",
    ),
    "burst-drops-lhp": Deviation(
        "the unbounded window fills the server's 50-packet queue: LHP answers each drop of a "
        "burst with a Reno recovery (ESACK: one per episode), the same gap as in Fig. 14 at "
        "N = 1 without background; with no server drops (16-bit window and a 100-packet queue) "
        "ESACK and LHP are level",
        ("T004-14.low",),
        _senders_gap_band,
        "no-server-drops",
        band_needs=(point_id("senders", "1", "ll-elsn"), point_id("senders", "1", "ll-elsn-lhp")),
    ),
    "saturated-cell": Deviation(
        "with the unbounded window ESACK and LHP saturate the cell until the background fills "
        "the wired hops (6-8 Mb/s), where ESACK's lead shrinks; with the 16-bit window the "
        "lead grows with the background (one seed; refuted at 20 seeds under ns-2's three "
        "rules, where the 16-bit window gives rho -0.2: docs/llelsn.md#saturated-cell). "
        "Measured at 20 seeds instead (docs/llelsn.md, ninth session): LHP's packet list holds "
        "its window on every hole an ELN names (gaps over 20 ms are 20-23 % of its run at 2-4 "
        "Mb/s of background), which puts ESACK 33 % ahead; as the background grows the "
        "bottleneck moves to the server's queue (ESACK's drops there 0, 0, 829, 2 964 a run, "
        "its ELNs 5 834 to 197) and the lead falls; rho stays between -1 and 0.2 with each "
        "ns-2 rule off and under every open reading",
        ("T004-14.rise",),
        (-1.0, 0.0),
        "window-field",
    ),
    "unbounded-flight": Deviation(
        "with the unbounded window the whole flight at the disconnection is outstanding when "
        "its ELNs arrive, and both variants send alike after it (ratio 0.8-1.25); with the "
        "16-bit window the filter stops ESACK as the paper says",
        ("T004-15",),
        (0.8, 1.25),
        "window-field",
    ),
    "snoop-two-advantages": Deviation(
        "Snoop (R = 1 and 2) is at least Reno R = 2 at every FER < 3 % (value 0) through two "
        "advantages, each refuted alone: its senders are NewReno (the seed's choice), which "
        "recover the shared FIFO's overflow drops that cost Reno R = 2 a halving or a timeout "
        "each (what decides FER 0.5 %), and snoop repairs locally the frames both MAC attempts "
        "lost, mostly to collisions between the access point's data and the station's ACKs, "
        "on which Reno halves (what decides FER 2 %); the paper's cost, snoop's duplicates "
        "(200-1 600 at the receiver per run), is there but smaller. The counterfactual "
        "switches both off (no collisions in the cell, the same ns-2 snoop over Reno senders): "
        "Reno R = 2 must then beat Snoop R = 1 and 2 at every FER < 3 %",
        ("T004-16.i",),
        (0.0, 0.0),
        "reno-senders-no-collisions",
    ),
    "karn-stall": Deviation(
        "with the unbounded window the whole flight is outstanding at a timeout, every segment "
        "sent after it is a retransmission and Karn's rule times none (ns-2 too: rtt_active_ "
        "only for seqno > maxseq_, tcp/tcp.cc:789-798), so no RTT sample ends the backoff and "
        "a run of LL-ELSN can stall towards the 60 s maxrto_ (FER 9 %, 10 seeds: 0.26 and 0.87 "
        "Mb/s on seeds 5 and 1 against a median of 1.66): its interval at that FER widens "
        "below DCR's and Snoop's, which ns-2's bugFix_ and singledup_ lifted; with timestamps "
        "(every ACK a sample) no run stalls and LL-ELSN is first at every FER",
        ("T004-1.first",),
        _karn_stall_band,
        "timestamps",
    ),
    "tibet-idle-gap": Deviation(
        "TIBET's interval filter (alpha 0.99) takes every gap between ACKs, a timeout's idle "
        "wait included, so its estimate is the connection's average rate and its ssthresh sits "
        "at the 2-segment floor: TIBET below Reno at the timeout-bound FERs. Until the preset "
        "took ns-2's window rule (slowdown halves min(cwnd_, wnd_), tcp.cc:1252-1290), Reno "
        "halving a flight that held the two segments singledup_ (limited transmit) sent beyond "
        "cwnd put Westwood+, Jersey and TIBET below Reno as well (RFC 5681 leaves those "
        "segments out too; the counterfactual still sets the window rule). With TIBET's gaps "
        "capped at 100 ms (the counterfactual; the cap is not TIBET's filter) every scheme is "
        "at least Reno at every FER",
        ("T004-1.reno",),
        _tibet_gap_band,
        "reno-window",
    ),
    "bugfix-timeouts": Deviation(
        "ns-2's bugFix_ (one fast retransmit per window, a second loss in it left to the "
        "timer; ns-default.tcl:954, tcp-reno.cc:171-212) holds for Reno, Westwood+ and TIBET "
        "alike, and at d = 1 ms it makes Reno time out as often as the BWE senders (431 "
        "timeouts per run against 402 and 384, 20 seeds), so neither is below Reno "
        "(Westwood+ +0.033 +- 0.014 Mb/s, TIBET tied); with a fast retransmit per loss both "
        "are below Reno on every seed",
        ("T004-6.small-rtt",),
        (0.0, 0.0),
        "bugfix-off",
    ),
    "window-rule-sack-timeouts": Deviation(
        "ns-2's rules the preset follows put LL-ELSN below Snoop with the 8 Mb/s background "
        "(0.085 +- 0.018 Mb/s, 20 seeds): under slowdown's window rule a timeout inside a SACK "
        "recovery halves a cwnd the recovery already halved (ssthresh 2.7 segments against 9.0 "
        "under the flight rule, seed 1), which costs ESACK's LL-ELSN 26 % and Snoop's NewReno "
        "3 %, and singledup_ lifts DCR over Sack1 above LL-ELSN; with none of the three rules "
        "LL-ELSN ties for best",
        ("T004-10.best",),
        (0.0, 0.0),
        "ns2-rules-off",
    ),
}

DEVIATIONS: dict[str, str] = {k: d.summary for k, d in DEVIATIONS_BY_KEY.items()}


def _counterfactual(t: Target, key: str, band_needs: tuple[str, ...]) -> Counterfactual:
    """The target's own value computed from the counterfactual runs (each of its experiments
    that has one replaced by it); it must land in the target's accepted range. Its needs: the
    counterfactual runs of the target's experiments, and the band's other runs."""
    own = set(t.needs)
    needs = tuple(n for n in _cf_ids(key) if n.split("~")[0] in own)
    return Counterfactual(
        cfs.WHAT[key],
        lambda m: t.value(Swapped(m, key, r.BY_ID)),
        (*needs, *band_needs),
        t.accept,
    )


def earn(targets: Sequence[Target]) -> tuple[Target, ...]:
    """The targets with the predicted band and counterfactual of their deviation attached."""
    by_target = {tid: (k, d) for k, d in DEVIATIONS_BY_KEY.items() for tid in d.targets}
    out = []
    for t in targets:
        if t.id in by_target:
            key, d = by_target[t.id]
            t = dataclasses.replace(
                t,
                deviation=key,
                predicted=d.band,
                counterfactual=_counterfactual(t, d.counterfactual, d.band_needs),
            )
        out.append(t)
    return tuple(out)


__all__ = ["DEVIATIONS", "DEVIATIONS_BY_KEY", "STALLED", "Deviation", "earn"]
