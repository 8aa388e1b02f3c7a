"""The report sections of Buchholcz et al.'s TCP-ELN study: per group of experiments one table
(Reno, TCP-ELN and the relative improvement at each error setting), and the figures in the
paper's form: Fig. 4 (cwnd of both senders around one corrupted packet) and Figs 6-9 (left:
throughput or mean page response time; right: the relative improvement)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers._base import Figure
from lossylink.papers.buchholcz import runs as r
from lossylink.papers.buchholcz.targets import GOODPUT, RESPONSE
from lossylink.report import Grid, find, placeholder, seed_text

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

METRIC = {"ftp": GOODPUT, "web": RESPONSE}


def describe(rep: Reproduction) -> str:
    """The header line on seeds and set-up."""
    return (
        f"seeds per experiment: {seed_text(rep)}; eln5 network (1 Mb/s, 100 ms wired; 2 Mb/s "
        f"radio links; 50-packet queues; 1000-byte segments; RFC 5681 Reno timers); FTP: three "
        f"downloads for {r.FTP_DURATION} (goodput after {r.WARMUP}); web: five SURGE sessions "
        f"per mobile for {r.WEB_DURATION}; errors on the radio downlinks only."
    )


def _xs(group: str) -> list[float]:
    traffic, kind = group.split("-")
    if kind == "markov":
        return [float(k) for k in r.MARKOV]
    return list(r.UNIFORM_P if traffic == "ftp" else r.WEB_UNIFORM_P)


def _exp_id(group: str, x: float, label: str) -> str:
    traffic, kind = group.split("-")
    key = f"{x:g}" if kind == "uniform" else str(int(x))
    return f"{traffic}-{kind}-{key}-{label}"


def _mean(rep: Reproduction, exp_id: str, metric: str) -> float | None:
    o = find(rep.outcomes, exp_id)
    if o is None or not o.results:
        return None
    v = o.values(metric)
    return sum(v) / len(v) if v else None


def series(rep: Reproduction, group: str) -> tuple[list[float], list[float], list[float]]:
    """x, Reno and TCP-ELN (mean over seeds) where both ran."""
    traffic = group.split("-")[0]
    xs, reno, eln = [], [], []
    for x in _xs(group):
        a = _mean(rep, _exp_id(group, x, "reno"), METRIC[traffic])
        b = _mean(rep, _exp_id(group, x, "eln"), METRIC[traffic])
        if a is not None and b is not None:
            xs.append(x)
            reno.append(a)
            eln.append(b)
    return xs, reno, eln


def gain(traffic: str, reno: float, eln: float) -> float:
    """I = T_ELN/T_Reno - 1 (FTP) or R = (RT_Reno - RT_ELN)/RT_Reno (web), in %."""
    if traffic == "ftp":
        return 100.0 * (eln / reno - 1.0) if reno > 0 else float("nan")
    return 100.0 * (reno - eln) / reno if reno > 0 else float("nan")


def group_table(rep: Reproduction, group: str) -> Grid:
    """One row per error setting of ``group``."""
    traffic, kind = group.split("-")
    xs, reno, eln = series(rep, group)
    rows = []
    for x, a, b in zip(xs, reno, eln, strict=True):
        setting = f"p = {x:g}" if kind == "uniform" else _model_text(int(x))
        if traffic == "ftp":
            # T002-11: kB/s per flow, beside the paper's impossible "kBytes/s" (§6.1.3).
            cells = [f"{a:.3f}", f"{b:.3f}", f"{1e3 * b / 8 / 3:.1f}"]
        else:
            cells = [f"{a:.2f}", f"{b:.2f}"]
        rows.append([setting, *cells, f"{gain(traffic, a, b):+.0f} %"])
    if traffic == "ftp":
        header = ["error", "Reno Mb/s", "TCP-ELN Mb/s", "TCP-ELN kB/s per flow", "improvement"]
        note = ("Aggregate goodput of the three downloads after the warm-up, mean over seeds; "
                "improvement I = T_ELN/T_Reno - 1. The paper prints TCP-ELN's throughput at "
                "ε = 0.1 as 8407-18433 'kBytes/s', impossible on a 1 Mb/s (125 kB/s) link; read "
                "as bytes/s per flow it is 8.4-18.4 kB/s, beside our kB/s per flow (T002-11). "
                "Only ratios are targets (spec §6.1.3).")  # fmt: skip
    else:
        header = ["error", "Reno s", "TCP-ELN s", "reduction"]
        note = (
            "Mean page response time over every page of the 15 sessions requested after "
            "the warm-up, mean over seeds; reduction R = (RT_Reno - RT_ELN)/RT_Reno."
        )
    return Grid(group, r.GROUP_TITLES[group], header, rows, note)


def _model_text(k: int) -> str:
    speed, eps, burst = r.MARKOV[k]
    return f"model {k} ({speed}, ε = {eps:g}, B = {burst:g})"


def sections(rep: Reproduction) -> list[tuple[str, str, list[Grid]]]:
    """``(anchor, title, grids)`` of the sections before the targets."""
    groups = {o.experiment.group for o in rep.outcomes}
    grids = [group_table(rep, g) for g in r.GROUPS if g in groups and g != "fig4"]
    return [("runs", "Experiments", grids)] if grids else []


def draw(rep: Reproduction, fig: Figure) -> Any:
    """The matplotlib figure of ``fig``."""
    from lossylink import plots

    if fig.kind == "cwnd":
        panels = []
        for run_id in fig.runs:
            t = next((t for t in rep.traced if t.run.id == run_id), None)
            if t is not None and t.result is not None and t.result.trace is not None:
                label = "Reno" if run_id.endswith("reno") else "TCP-ELN"
                panels.append((label, t.result.trace))
        if not panels:
            return placeholder(fig, rep)
        return plots.cwnd_figure(panels, fig.title)
    group = fig.table or ""
    xs, reno, eln = series(rep, group)
    if not xs:
        return placeholder(fig, rep)
    traffic, kind = group.split("-")
    f, (left, right) = plots.subplots(1, 2, figsize=(9.0, 3.2))
    left.plot(xs, reno, "o-", label="original TCP (Reno)", color="#7f7f7f")
    left.plot(xs, eln, "s-", label="TCP-ELN", color="#1f4e9c")
    left.set_ylabel("throughput (Mb/s, 3 flows)" if traffic == "ftp" else "mean response time (s)")
    right.plot(xs, [gain(traffic, a, b) for a, b in zip(reno, eln, strict=True)], "s-",
               color="#1f4e9c")  # fmt: skip
    right.axhline(0, color="black", lw=0.6)
    right.set_ylabel("improvement (%)" if traffic == "ftp" else "reduction (%)")
    for ax in (left, right):
        ax.set_xlabel("error probability" if kind == "uniform" else "Markov model")
        if kind == "markov":
            ax.set_xticks(xs)
    left.legend(fontsize=7)
    f.suptitle(fig.title, fontsize=10)
    f.tight_layout()
    return f
