"""The report sections of Buchholcz et al.'s TCP-ELN study: per group of experiments one table
(Reno, TCP-ELN and the relative improvement at each error setting), the improvement under every
reading the paper leaves open, the bands of the targets over those readings, the realised loss
runs of the Markov channels, HACK's attribution, and the figures in the paper's form: Fig. 4
(cwnd of both senders around one corrupted packet) and Figs 6-9 (left: throughput or mean page
response time; right: the relative improvement)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers._base import Figure
from lossylink.papers.buchholcz import bands, measured
from lossylink.papers.buchholcz import runs as r
from lossylink.papers.buchholcz.series import gain, series, speedup, xs_of
from lossylink.papers.buchholcz.targets import TARGETS
from lossylink.report import Grid, find, placeholder, seed_text

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction


def describe(rep: Reproduction) -> str:
    """The header line on seeds and set-up."""
    return (
        f"seeds per experiment: {seed_text(rep)}; eln5 network (1 Mb/s, 100 ms wired; 2 Mb/s "
        f"radio links; 50-packet queues; 1000-byte segments); headline TCP: ns-2's 2003 "
        f"defaults (no delayed ACKs, initial window 2, 20-packet window, 1 s minimum RTO) with "
        f"RFC 2001's Reno (no limited transmit), TCP-ELN with C2 = W and C6 on; FTP: three "
        f"downloads for {r.FTP_DURATION} (goodput after {r.WARMUP}); web: five SURGE "
        f"sessions in all (2, 2, 1 per mobile) for {r.WEB_DURATION}, and 5 per mobile beside "
        f"it; errors on the radio "
        f"downlinks only. Every other reading of what the paper leaves open runs beside the "
        f"headline (section Readings)."
    )


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
        if traffic == "web":
            rows[-1].append(f"{speedup(a, b):+.0f} %")
    if traffic == "ftp":
        header = ["error", "Reno Mb/s", "TCP-ELN Mb/s", "TCP-ELN kB/s per flow", "improvement"]
        note = ("Aggregate goodput of the three downloads after the warm-up, mean over seeds; "
                "improvement I = T_ELN/T_Reno - 1. The paper prints TCP-ELN's throughput at "
                "ε = 0.1 as 8407-18433 'kBytes/s', impossible on a 1 Mb/s (125 kB/s) link; read "
                "as bytes/s per flow it is 8.4-18.4 kB/s, beside our kB/s per flow (T002-11). "
                "Only ratios are targets (spec §6.1.3).")  # fmt: skip
    else:
        header = ["error", "Reno s", "TCP-ELN s", "reduction", "RT_Reno/RT_ELN - 1"]
        note = (
            "Mean page response time over every page of the 5 sessions (in all) requested "
            "after the warm-up, mean over seeds; the paper's '10% to 60% better' read as the "
            "reduction R = (RT_Reno - RT_ELN)/RT_Reno (the targets) and as RT_Reno/RT_ELN - 1 "
            "(the form of the FTP metric)."
        )
    return Grid(group, r.GROUP_TITLES[group], header, rows, note)


def _model_text(k: int) -> str:
    speed, eps, burst = r.MARKOV[k]
    return f"model {k} ({speed}, ε = {eps:g}, B = {burst:g})"


HEADLINE_GROUPS = ("ftp-uniform", "ftp-markov", "web-uniform", "web-markov")


def readings_table(rep: Reproduction, group: str) -> Grid | None:
    """The improvement (FTP) or reduction (web) of each setting of ``group`` under the headline
    and every variant that ran for it."""
    traffic = group.split("-")[0]
    variants = [v.key for v in r.VARIANTS if traffic in v.traffic]
    cols: list[tuple[str, dict[float, float]]] = []
    for key in ["", *variants]:
        xs, reno, eln = series(rep, group, key)
        if xs:
            cols.append((key or "headline", {
                x: gain(traffic, a, b) for x, a, b in zip(xs, reno, eln, strict=True)
            }))  # fmt: skip
    if len(cols) < 2:
        return None
    kind = group.split("-")[1]
    rows = []
    for x in xs_of(group):
        setting = f"p = {x:g}" if kind == "uniform" else f"model {int(x)}"
        rows.append([setting] + [f"{c[x]:+.0f} %" if x in c else "" for _, c in cols])
    metric = "improvement I" if traffic == "ftp" else "reduction R"
    note = "; ".join(f"{v.key}: {v.title}" for v in r.VARIANTS if v.key in dict(cols))
    return Grid(
        f"readings-{group}",
        f"{r.GROUP_TITLES[group]}: {metric} under every reading",
        ["error", *[k for k, _ in cols]],
        rows,
        f"Mean over seeds. Headline: {bands.HEADLINE_TEXT[traffic]}. {note}.",
    )


def sections(rep: Reproduction) -> list[tuple[str, str, list[Grid]]]:
    """``(anchor, title, grids)`` of the sections before the targets."""
    groups = {o.experiment.group for o in rep.outcomes}
    grids = [group_table(rep, g) for g in HEADLINE_GROUPS if g in groups]
    out = [("runs", "Experiments", grids)] if grids else []
    readings = [t for g in HEADLINE_GROUPS if (t := readings_table(rep, g)) is not None]
    readings += bands.band_table(rep, [t for t in TARGETS if any(
        find(rep.outcomes, n) is not None for n in t.needs)])  # fmt: skip
    if readings:
        out.append(("readings", "Readings", readings))
    extra = [g for g in (measured.loss_runs(rep), measured.hack_table(rep),
                         measured.bases_table(rep), measured.stall_table(rep))
             if g is not None]  # fmt: skip
    if extra:
        out.append(("measured", "Loss runs and attribution", extra))
    return out


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
