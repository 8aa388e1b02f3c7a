"""The report sections of Balakrishnan et al. 1997: Tables 2-4 cell by cell, the loss-free
peaks, the burst and sweep experiments, and the figures (bar charts, sweep, burst, traces)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from lossylink.papers import balakrishnan97 as b97
from lossylink.papers._base import Figure
from lossylink.report import NA, Grid, find, mean_ci, placeholder, seed_text

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

TESTBED = {"lan32": "LAN", "wan32": "WAN"}


def describe(rep: Reproduction) -> str:
    """The header line on seeds, transfer and error rate."""
    transfer = rep.transfer or "8 MiB (the paper's)"
    return (
        f"seeds per experiment: {seed_text(rep)}; transfer: {transfer}; "
        "one bit error per 64 KiB on average unless stated."
    )


def sections(rep: Reproduction) -> list[tuple[str, str, list[Grid]]]:
    """``(anchor, title, grids)`` of the sections before the targets."""
    return [
        ("tables", "Published tables", published_tables(rep)),
        ("other", "Other experiments", extra_tables(rep)),
    ]


# -- tables ---------------------------------------------------------------------------------


def published_tables(rep: Reproduction) -> list[Grid]:
    """Tables 2-4, cell by cell: the paper's value and ours (mean ± 95 % CI)."""
    grids = []
    for table in b97.TABLES:
        rows = []
        for scheme, cells in table.cells.items():
            for config, cell in zip(b97.CONFIGS, cells, strict=True):
                if cell is None:
                    continue
                o = find(rep.outcomes, b97.cell_id(scheme, config))
                label = [scheme.upper(), b97.CONFIGS[config].label]
                paper = [f"{cell.mbps:.2f}", f"{cell.wireless:.1f}, {cell.wired:.1f}"]
                if o is None:
                    continue
                if not o.available or not o.results:
                    rows.append([*label, paper[0], f"{NA}: {o.reason}", "–", paper[1], "–", "0"])
                    continue
                tp = o.summary("throughput_mbps")
                assert tp is not None
                rows.append(
                    [
                        *label,
                        paper[0],
                        mean_ci(tp, ".3f"),
                        f"{tp.mean / cell.mbps:.2f}",
                        paper[1],
                        f"{mean_ci(o.summary('wireless_goodput_pct'), '.1f')}, "
                        f"{mean_ci(o.summary('wired_goodput_pct'), '.1f')}",
                        str(tp.n),
                    ]
                )
        if rows:
            grids.append(
                Grid(
                    table.key,
                    table.title,
                    [
                        "scheme",
                        "testbed",
                        "paper Mb/s",
                        "ours Mb/s (95% CI)",
                        "ours / paper",
                        "paper goodput % (wireless, wired)",
                        "ours goodput % (wireless, wired)",
                        "seeds",
                    ],
                    rows,
                )
            )
    return grids


def extra_tables(rep: Reproduction) -> list[Grid]:
    """Loss-free peaks, the burst experiment and the error-rate sweep (ours only)."""
    grids = []
    peaks = [o for o in rep.outcomes if o.experiment.group == "peaks"]
    if peaks:
        rows = []
        for o in peaks:
            preset = o.experiment.preset
            rows.append(
                [
                    preset.upper(),
                    f"{b97.PEAKS[preset]:.2f}",
                    mean_ci(o.summary(), ".3f") if o.results else f"{NA}: {o.reason}",
                    str(len(o.results)),
                ]
            )
        grids.append(
            Grid(
                "peaks",
                b97.GROUP_TITLES["peaks"],
                ["testbed", "paper Mb/s", "ours Mb/s (95% CI)", "seeds"],
                rows,
                "E2E, 32 KB buffer, no wireless errors: the base of our % of maximum.",
            )
        )
    burst = [o for o in rep.outcomes if o.experiment.group == "burst"]
    if burst:
        rows = []
        for o in burst:
            params = dict(o.experiment.params)
            k, spacing = params["burst_packets"], str(params.get("burst_spacing", "exponential"))
            if not o.available or not o.results:
                rows.append(
                    [
                        o.experiment.scheme.upper(),
                        spacing,
                        str(k),
                        f"{NA}: {o.reason}",
                        "–",
                        "–",
                        "–",
                        "0",
                    ]
                )
                continue
            rows.append(
                [
                    o.experiment.scheme.upper(),
                    spacing,
                    str(k),
                    mean_ci(o.summary(), ".3f"),
                    f"{mean_ci(o.summary('wireless_goodput_pct'), '.1f')}, "
                    f"{mean_ci(o.summary('wired_goodput_pct'), '.1f')}",
                    mean_ci(o.summary("sender_timeouts"), ".1f"),
                    mean_ci(o.summary("local_retransmissions"), ".1f"),
                    str(len(o.results)),
                ]
            )
        grids.append(
            Grid(
                "burst",
                b97.GROUP_TITLES["burst"],
                [
                    "scheme",
                    "burst spacing",
                    "packets per burst",
                    "ours Mb/s (95% CI)",
                    "ours goodput % (wireless, wired)",
                    "coarse timeouts",
                    "local retransmissions",
                    "seeds",
                ],
                rows,
                "Ours only: the paper's burst results (its Table 5) are kept out of this "
                "reproduction as an independent check of the model, so there is nothing to put "
                "beside ours. Exponential spacing: bursts at random gaps of 64 KB on average; "
                "fixed: exactly 64 KB apart (the paper's two wordings, spec §B.3).",
            )
        )
    sweep = [o for o in rep.outcomes if o.experiment.group == "sweep"]
    if sweep:
        kibs = list(b97.SWEEP_EVERY_KIB)
        rows = []
        for scheme in b97.SWEEP_SCHEMES:
            row = [scheme.upper()]
            for kib in kibs:
                o = find(sweep, f"{scheme}@{b97.SWEEP_CONFIG}/{kib}KiB")
                if o is None:
                    row.append("–")
                elif not o.available or not o.results:
                    row.append(NA)
                else:
                    row.append(mean_ci(o.summary(), ".3f"))
            rows.append(row)
        reasons = sorted({o.reason for o in sweep if not o.available})
        grids.append(
            Grid(
                "sweep",
                b97.GROUP_TITLES["sweep"],
                ["scheme", *(f"1 / {k} KB" for k in kibs)],
                rows,
                "Throughput in Mb/s (95% CI). Ours only: the paper gives the sweep only as a "
                "plot (its Figure 12), with no values to put beside ours."
                + (f" Not available: {'; '.join(reasons)}." if reasons else ""),
            )
        )
    return grids


def draw(rep: Reproduction, fig: Figure) -> Any:
    """The matplotlib figure of ``fig``."""
    from lossylink import plots

    if fig.kind == "bars":
        table = next(t for t in b97.TABLES if t.key == fig.table)
        bars = {}
        for scheme in table.cells:
            for config, bed in TESTBED.items():
                o = find(rep.outcomes, b97.cell_id(scheme, config))
                if o is None or not o.results:
                    continue
                tp = o.summary()
                assert tp is not None
                base = _peak(rep, b97.CONFIGS[config].preset)
                wl, wd = o.summary("wireless_goodput_pct"), o.summary("wired_goodput_pct")
                bars[(scheme, bed)] = plots.Bar(
                    tp.mean,
                    100 * tp.mean / base,
                    wl.mean if wl else math.nan,
                    wd.mean if wd else math.nan,
                )
        return plots.bar_chart(fig.title, list(table.cells), bars)
    if fig.kind in ("sweep", "burst"):
        x = "error_every_kib" if fig.kind == "sweep" else "burst_packets"
        frame = rep.frame
        sub = frame[frame["group"] == fig.kind] if len(frame) else frame
        if fig.kind == "burst":
            sub = plots.burst_series(sub)
        summary = plots.line_summary(sub, x) if len(sub) else _empty_line(x)
        draw = plots.sweep_figure if fig.kind == "sweep" else plots.burst_figure
        return draw(summary, fig.title)
    panels = []
    for run_id in fig.runs:
        t = next((t for t in rep.traced if t.run.id == run_id), None)
        if t is not None and t.result is not None and t.result.trace is not None:
            panels.append(
                (f"{t.run.scheme.upper()}, {b97.CONFIGS[t.run.config].label}", t.result.trace)
            )
    if not panels:
        return placeholder(fig, rep)
    if fig.kind == "seq":
        return plots.seq_figure(panels, fig.title)
    if fig.kind == "cwnd":
        return plots.cwnd_figure(panels, fig.title, fig.reference_bytes)
    return plots.timeline_figure(panels, fig.title)


def _empty_line(x: str) -> Any:
    import pandas as pd

    return pd.DataFrame(columns=["scheme", x, "mean", "half_width"])


def _peak(rep: Reproduction, preset: str) -> float:
    o = find(rep.outcomes, f"peak@{preset}")
    if o is not None and o.results:
        s = o.summary()
        if s is not None and s.mean > 0:
            return s.mean
    return b97.PEAKS[preset]
