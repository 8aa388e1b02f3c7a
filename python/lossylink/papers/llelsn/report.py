"""The report sections of the LL-ELSN study: per experiment group one table (a row per x, a
column per scheme, mean aggregate goodput over seeds) and one figure in the paper's form
(goodput against the swept quantity, a line per scheme; Fig. 10 plots Jain's index)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers._base import Figure
from lossylink.papers.llelsn import runs as r
from lossylink.report import Grid, placeholder, seed_text

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

G = "agg.aggregate_goodput_mbps"
METRIC = {"friendly": "flow.sta10.goodput_mbps"}
"""Groups whose goodput curve is one flow's: Fig. 12 plots the remaining Reno connection."""
X_LABEL = {
    "fer": "FER (%)",
    "ablation": "FER (%)",
    "rtt": "wired delay d (ms)",
    "uplink": "FER (%)",
    "nsweep": "connections N",
    "pareto": "background (Mb/s)",
    "friendly": "Reno flows replaced",
    "ersn": "FER (%)",
    "senders": "connections N",
    "congestion": "background mean (Mb/s)",
    "disconnect": "ELN filter",
    "retry": "FER (%)",
    "markov": "P_bb",
    "poweroff": "retry limit R",
}
GOOD = tuple(f"sta{i}" for i in range(1, 10))
"""Fig. 18's power-off runs: the nine stations beside the powered-off sta10."""


def describe(rep: Reproduction) -> str:
    quick = (
        "; --quick: the points a P1 target reads with all of them, the others with the first"
        if rep.quick
        else ""
    )
    return (
        f"seeds per experiment: {seed_text(rep)} (at most 20 without link ARQ, 50 with{quick}); "
        "llelsn network (server -10 Mb/s, 20 ms- router -10 Mb/s, 1 ms- access point ~ "
        "802.11b DCF, 11 Mb/s, MAC ACKs at 11 Mb/s, long preamble, no RTS/CTS; 50-packet "
        "queues, one FIFO shared by the stations at the access point; 1000-byte segments; "
        "200 s downloads); uniform FER of a 1076-byte frame, scaled by length, both "
        "directions; retry limit 1 unless the group varies it; ns-2.35's TCP defaults (minimum "
        "RTO 0.2 s, initial RTO 3 s, initial window 2, one ACK per segment, Sack1), an "
        "unbounded window and ns-2's snoop (docs/llelsn.md, settings table)."
    )


def _series(rep: Reproduction, group: str, metric: str) -> dict[str, list[tuple[float, float]]]:
    """Per curve (scheme label, and retry limit where the group varies it): (x, mean)."""
    out: dict[str, list[tuple[float, float]]] = {}
    for o in rep.outcomes:
        e = o.experiment
        if e.group != group or not o.available or not o.results or e.x < 0 or "~" in e.id:
            continue
        v = o.values(METRIC.get(e.group, metric) if metric == G else metric)
        if not v:
            continue
        params = dict(e.params)
        by_r = "retry_limit" in params and group != "poweroff"
        name = e.label + (f" R={params['retry_limit']}" if by_r else "")
        out.setdefault(name, []).append((e.x, sum(v) / len(v)))
    for pts in out.values():
        pts.sort()
    return out


def group_table(rep: Reproduction, group: str) -> Grid | None:
    metric = "agg.jain_index" if group == "nsweep-jain" else G
    s = _series(rep, group, metric)
    if not s:
        return None
    names = list(s)
    xs = sorted({x for pts in s.values() for x, _ in pts})
    rows = []
    for x in xs:
        cells = []
        for n in names:
            y = dict(s[n]).get(x)
            cells.append("" if y is None else f"{y:.3f}")
        rows.append([f"{x:g}", *cells])
    what = {"friendly": "goodput of the remaining Reno flow (Mb/s)"}.get(
        group, "aggregate goodput (Mb/s)"
    )
    missing = sorted(
        {
            o.experiment.label
            for o in rep.outcomes
            if o.experiment.group == group and not o.available
        }
    )
    note = f"Mean {what} over seeds."
    if missing:
        note += " Not available (scheme not registered): " + ", ".join(missing) + "."
    return Grid(group, r.GROUP_TITLES[group], [X_LABEL[group], *names], rows, note)


def sections(rep: Reproduction) -> list[tuple[str, str, list[Grid]]]:
    groups = {o.experiment.group for o in rep.outcomes}
    grids = [t for g in r.GROUPS if g in groups if (t := group_table(rep, g)) is not None]
    if "nsweep" in groups:
        s = _series(rep, "nsweep", "agg.jain_index")
        if s:
            names = list(s)
            xs = sorted({x for pts in s.values() for x, _ in pts})
            rows = [
                [f"{x:g}", *(f"{dict(s[n]).get(x, float('nan')):.3f}" for n in names)] for x in xs
            ]
            grids.append(
                Grid(
                    "jain",
                    "Fig. 10: Jain's fairness index against N",
                    ["N", *names],
                    rows,
                    "Mean over seeds.",
                )
            )
    if "ersn" in groups:
        s = _series(rep, "ersn", "sender_timeouts")
        # Ground truth from the simulator: the timeouts whose segment the receiver already
        # held when the timer fired (its ACK had not come back), not a detector's count.
        arrived = _series(rep, "ersn", "sender_timeouts_after_arrival")
        if s:
            names = list(s)
            xs = sorted({x for pts in s.values() for x, _ in pts})

            def cell(n: str, x: float) -> str:
                t = f"{dict(s[n]).get(x, float('nan')):.1f}"
                a = dict(arrived.get(n, [])).get(x)
                return t if a is None else f"{t} ({a:.1f})"

            rows = [[f"{x:g}", *(cell(n, x) for n in names)] for x in xs]
            grids.append(
                Grid(
                    "ersn-timeouts",
                    "Fig. 13: timeouts per run, in brackets those whose segment the receiver "
                    "already held when the timer fired (spurious by ground truth)",
                    ["FER (%)", *names],
                    rows,
                    "Mean over seeds; the bracket counts from the simulator "
                    "(sender_timeouts_after_arrival), not from a detector.",
                )
            )
    if "poweroff" in groups:
        grids.extend(_poweroff_grids(rep))
    return [("runs", "Experiments", grids)] if grids else []


def _mean(o: Any, metric: str) -> float:
    v = o.values(metric)
    return sum(v) / len(v) if v else float("nan")


def _poweroff_grids(rep: Reproduction) -> list[Grid]:
    """Fig. 18's powered-off station: the nine good stations' goodput and their packets' mean
    wait in the access point's queue, per retry limit, queue and power-off."""
    rows = []
    for o in rep.outcomes:
        e = o.experiment
        if e.group != "poweroff" or not o.available or not o.results:
            continue
        p = dict(e.params)
        good = sum(_mean(o, f"flow.{s}.goodput_mbps") for s in GOOD)
        waits = [_mean(o, f"member.{s}.ap_queue_wait_mean_ms") for s in GOOD]
        waits = [w for w in waits if w == w]
        wait = sum(waits) / len(waits) if waits else float("nan")
        off = _mean(o, "flow.sta10.goodput_mbps")
        rows.append(
            [
                str(p["ap_queue"]),
                "off at 10 s" if p["powered_off"] else "live",
                str(p["retry_limit"]),
                f"{good:.3f}",
                f"{wait:.1f}",
                f"{off:.3f}",
            ]
        )
    if not rows:
        return []
    return [
        Grid(
            "poweroff-hol",
            "Fig. 18: head-of-line blocking beside a powered-off station (10 Reno downloads)",
            [
                "AP queue",
                "sta10",
                "R",
                "sta1-9 goodput (Mb/s)",
                "sta1-9 AP queue wait (ms)",
                "sta10 goodput (Mb/s)",
            ],
            rows,
            "Means over seeds, measured from the power-off at 10 s to 15 s.",
        )
    ]


def draw(rep: Reproduction, fig: Figure) -> Any:
    from lossylink import plots

    group = fig.table or ""
    s = _series(rep, group, G)
    if not s:
        return placeholder(fig, rep)
    panels = [("goodput", s)]
    if group == "nsweep":
        panels.append(("Jain's index", _series(rep, group, "agg.jain_index")))
    if group == "ersn":
        panels.append(("timeouts per run", _series(rep, group, "sender_timeouts")))
    f, axes = plots.subplots(1, len(panels), figsize=(4.6 * len(panels), 3.4))
    axes = axes if len(panels) > 1 else [axes]
    for ax, (ylabel, series) in zip(axes, panels, strict=True):
        for name, pts in series.items():
            lw = 2.2 if name.startswith("LL-ELSN") else 1.0
            ax.plot([x for x, _ in pts], [y for _, y in pts], "o-", ms=3, lw=lw, label=name)
        ax.set_xlabel(X_LABEL[group])
        ax.set_ylabel(
            ylabel
            if ylabel != "goodput"
            else ("Reno flow goodput (Mb/s)" if group == "friendly" else "goodput (Mb/s)")
        )
        if group in ("fer", "uplink", "retry", "ersn"):
            ax.set_xscale("log")
    axes[0].legend(fontsize=6, ncol=2)
    f.suptitle(fig.title, fontsize=10)
    f.tight_layout()
    return f
