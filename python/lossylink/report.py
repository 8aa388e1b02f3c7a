"""Writing a reproduction: results.csv, tables.md, targets.json, figures, saved traced runs and
a self-contained report.html (figures embedded as data URIs, tables as HTML)."""

from __future__ import annotations

import base64
import html
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink import __version__
from lossylink.papers import balakrishnan97 as b97
from lossylink.stats import Summary

if TYPE_CHECKING:
    from lossylink.reproduce import Outcome, Reproduction

NA = "not available"
TESTBED = {"lan32": "LAN", "wan32": "WAN"}
VERDICT_ORDER = ("pass", "explained", "fail", NA)


@dataclass
class Grid:
    """A table to render as Markdown and HTML."""

    key: str
    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""

    def markdown(self) -> str:
        lines = [f"### {self.title}", ""]
        if self.note:
            lines += [self.note, ""]
        lines.append("| " + " | ".join(self.header) + " |")
        lines.append("|" + "|".join("---" for _ in self.header) + "|")
        for row in self.rows:
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.header)
        body = "".join("<tr>" + "".join(_td(c) for c in row) + "</tr>" for row in self.rows)
        note = f"<p class='note'>{html.escape(self.note)}</p>" if self.note else ""
        return (
            f"<section id='table-{self.key}'><h3>{html.escape(self.title)}</h3>{note}"
            f"<table class='data' data-table='{self.key}'><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></section>"
        )


def _td(cell: str) -> str:
    if cell in ("pass", "explained", "fail"):
        cls = f" class='v-{cell}'"
    elif cell.startswith(NA):
        cls = " class='v-na'"
    else:
        cls = ""
    return f"<td{cls}>{html.escape(cell)}</td>"


def _mean_ci(s: Summary | None, fmt: str) -> str:
    if s is None:
        return "–"
    if s.half_width is None:
        return format(s.mean, fmt)
    return f"{format(s.mean, fmt)} ± {format(s.half_width, fmt)}"


def _num(v: float | None, fmt: str = ".3g") -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return format(v, fmt)


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
                o = _find(rep.outcomes, b97.cell_id(scheme, config))
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
                        _mean_ci(tp, ".3f"),
                        f"{tp.mean / cell.mbps:.2f}",
                        paper[1],
                        f"{_mean_ci(o.summary('wireless_goodput_pct'), '.1f')}, "
                        f"{_mean_ci(o.summary('wired_goodput_pct'), '.1f')}",
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
                    _mean_ci(o.summary(), ".3f") if o.results else f"{NA}: {o.reason}",
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
            k = dict(o.experiment.params)["burst_packets"]
            if not o.available or not o.results:
                rows.append(
                    [o.experiment.scheme.upper(), str(k), f"{NA}: {o.reason}", "–", "–", "–", "0"]
                )
                continue
            rows.append(
                [
                    o.experiment.scheme.upper(),
                    str(k),
                    _mean_ci(o.summary(), ".3f"),
                    f"{_mean_ci(o.summary('wireless_goodput_pct'), '.1f')}, "
                    f"{_mean_ci(o.summary('wired_goodput_pct'), '.1f')}",
                    _mean_ci(o.summary("sender_timeouts"), ".1f"),
                    _mean_ci(o.summary("local_retransmissions"), ".1f"),
                    str(len(o.results)),
                ]
            )
        grids.append(
            Grid(
                "burst",
                b97.GROUP_TITLES["burst"],
                [
                    "scheme",
                    "packets per burst",
                    "ours Mb/s (95% CI)",
                    "ours goodput % (wireless, wired)",
                    "coarse timeouts",
                    "local retransmissions",
                    "seeds",
                ],
                rows,
                "The paper's values are held back (spec §B.3): ours only.",
            )
        )
    sweep = [o for o in rep.outcomes if o.experiment.group == "sweep"]
    if sweep:
        kibs = list(b97.SWEEP_EVERY_KIB)
        rows = []
        for scheme in b97.SWEEP_SCHEMES:
            row = [scheme.upper()]
            for kib in kibs:
                o = _find(sweep, f"{scheme}@{b97.SWEEP_CONFIG}/{kib}KiB")
                if o is None:
                    row.append("–")
                elif not o.available or not o.results:
                    row.append(NA)
                else:
                    row.append(_mean_ci(o.summary(), ".3f"))
            rows.append(row)
        reasons = sorted({o.reason for o in sweep if not o.available})
        grids.append(
            Grid(
                "sweep",
                b97.GROUP_TITLES["sweep"],
                ["scheme", *(f"1 / {k} KB" for k in kibs)],
                rows,
                "Throughput in Mb/s (95% CI). The paper's values are held back (spec §B.4): "
                "ours only." + (f" Not available: {'; '.join(reasons)}." if reasons else ""),
            )
        )
    return grids


def target_tables(rep: Reproduction) -> list[Grid]:
    """The targets, one table per group, with the verdicts."""
    grids = []
    for table in b97.TARGET_TABLES:
        vs = [v for v in rep.verdicts if v.target.table == table]
        if not vs:
            continue
        rows = []
        for v in vs:
            t = v.target
            why = v.reason
            if t.deviation and v.verdict == "explained":
                why = f"see docs/reproduction.md#{t.deviation}"
            rows.append(
                [
                    t.description,
                    _num(t.paper),
                    _num(v.ours, ".4g"),
                    t.tolerance,
                    v.verdict,
                    why,
                ]
            )
        counts = Counter(v.verdict for v in vs)
        note = ", ".join(f"{counts[k]} {k}" for k in VERDICT_ORDER if counts[k])
        grids.append(
            Grid(
                "targets-" + table.lower().replace(" ", ""),
                f"Targets: {table}",
                ["target", "paper", "ours", "accept", "verdict", "note"],
                rows,
                note,
            )
        )
    return grids


def _find(outcomes: Sequence[Outcome], exp_id: str) -> Outcome | None:
    for o in outcomes:
        if o.experiment.id == exp_id:
            return o
    return None


# -- figures --------------------------------------------------------------------------------


def draw_figures(
    rep: Reproduction, figures: Sequence[b97.Figure], directory: Path
) -> dict[str, list[Path]]:
    """Draw every figure into ``directory`` as PNG and SVG; returns ``{key: [png, svg]}``."""
    from lossylink import plots

    out = {}
    for fig in figures:
        drawn = _draw(rep, fig)
        out[fig.key] = plots.save_figure(drawn, directory / fig.key)
    return out


def _draw(rep: Reproduction, fig: b97.Figure) -> Any:
    from lossylink import plots

    if fig.kind == "bars":
        table = next(t for t in b97.TABLES if t.key == fig.table)
        bars = {}
        for scheme in table.cells:
            for config, bed in TESTBED.items():
                o = _find(rep.outcomes, b97.cell_id(scheme, config))
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
        return _placeholder(fig, rep)
    if fig.kind == "seq":
        return plots.seq_figure(panels, fig.title)
    if fig.kind == "cwnd":
        return plots.cwnd_figure(panels, fig.title, fig.reference_bytes)
    return plots.timeline_figure(panels, fig.title)


def _empty_line(x: str) -> Any:
    import pandas as pd

    return pd.DataFrame(columns=["scheme", x, "mean", "half_width"])


def _placeholder(fig: b97.Figure, rep: Reproduction) -> Any:
    import matplotlib.pyplot as plt

    reasons = sorted({t.reason for t in rep.traced if t.run.id in fig.runs and t.reason})
    f, ax = plt.subplots(figsize=(7.5, 2.0))
    ax.axis("off")
    ax.set_title(fig.title, fontsize=10)
    ax.text(0.5, 0.5, f"{NA}: " + ("; ".join(reasons) or "not traced"), ha="center", va="center",
            fontsize=8, color="grey", wrap=True, transform=ax.transAxes)  # fmt: skip
    return f


def _peak(rep: Reproduction, preset: str) -> float:
    o = _find(rep.outcomes, f"peak@{preset}")
    if o is not None and o.results:
        s = o.summary()
        if s is not None and s.mean > 0:
            return s.mean
    return b97.PEAKS[preset]


# -- writers --------------------------------------------------------------------------------


def _header(rep: Reproduction) -> list[str]:
    transfer = rep.transfer or "8 MiB (the paper's)"
    seeds = rep.seeds
    seed_text = f"{len(seeds)} (seeds {seeds[0]}..{seeds[-1]})" if len(seeds) > 1 else str(seeds)
    lines = [
        f"Paper: {b97.PAPER}.",
        f"lossylink {__version__}; seeds per experiment: {seed_text}; transfer: {transfer}; "
        "one bit error per 64 KiB on average unless stated.",
        "Ours: mean ± half-width of the 95% confidence interval (Student t) over seeds.",
    ]
    if rep.quick:
        lines.append(
            "QUICK RUN: fewer seeds and shorter transfers than the paper; the verdicts are "
            "indicative only."
        )
    missing = sorted({o.reason for o in rep.outcomes if not o.available})
    if missing:
        lines.append("Not available in this build: " + "; ".join(missing) + ".")
    return lines


def tables_markdown(rep: Reproduction) -> str:
    parts = [f"# Reproduction of {b97.NAME}", "", *(f"{x}  " for x in _header(rep)), ""]
    parts.append("## Published tables\n")
    parts += [g.markdown() for g in published_tables(rep)]
    parts.append("## Other experiments\n")
    parts += [g.markdown() for g in extra_tables(rep)]
    parts.append("## Targets\n")
    parts.append(
        "Verdicts: pass (inside the accepted range), explained (outside, with the mechanism "
        "named in docs/reproduction.md), fail, not available. All targets with values are in "
        "targets.json.\n"
    )
    parts += [g.markdown() for g in target_tables(rep)]
    return "\n".join(parts)


def targets_json(rep: Reproduction) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for v in rep.verdicts:
        counts.setdefault(v.target.table, dict.fromkeys(VERDICT_ORDER, 0))[v.verdict] += 1
    return {
        "paper": b97.PAPER,
        "name": b97.NAME,
        "lossylink": __version__,
        "seeds": rep.seeds,
        "transfer": rep.transfer or "8MiB",
        "quick": rep.quick,
        "verdicts": list(VERDICT_ORDER),
        "summary": counts,
        "targets": [v.to_dict() for v in rep.verdicts],
    }


CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em}
table.data{border-collapse:collapse;font-size:.82em;margin:.5em 0 1.5em}
table.data th,table.data td{border:1px solid #ddd;padding:3px 7px;text-align:right}
table.data td:first-child,table.data th:first-child{text-align:left}
table.data tr:nth-child(even){background:#f7f7f7}
.v-pass{background:#d5f5d5}.v-explained{background:#fff1c2}.v-fail{background:#f8c9c4}
.v-na{color:#888}.note{color:#555;font-size:.85em}
figure{margin:1em 0 2em}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.85em;color:#444}
"""


def report_html(
    rep: Reproduction, figures: Sequence[b97.Figure], drawn: dict[str, list[Path]]
) -> str:
    """One self-contained page: header, verdict counts, tables, targets, figures."""
    esc = html.escape
    counts = Counter(v.verdict for v in rep.verdicts)
    summary = ", ".join(f"{counts[k]} {k}" for k in VERDICT_ORDER if counts[k])
    body = [f"<h1>Reproduction of {esc(b97.NAME)}</h1>"]
    body += [f"<p>{esc(x)}</p>" for x in _header(rep)]
    body.append(
        f"<p>Targets: {esc(summary)}. Simulation wall time {rep.wall_s:.1f} s "
        f"on {rep.workers} threads.</p>"
    )
    body.append("<h2 id='tables'>Published tables</h2>")
    body += [g.html() for g in published_tables(rep)]
    body.append("<h2 id='other'>Other experiments</h2>")
    body += [g.html() for g in extra_tables(rep)]
    body.append("<h2 id='targets'>Targets</h2>")
    body += [g.html() for g in target_tables(rep)]
    body.append("<h2 id='figures'>Figures</h2>")
    for fig in figures:
        paths = drawn.get(fig.key, [])
        png = next((p for p in paths if p.suffix == ".png"), None)
        if png is None:
            continue
        data = base64.b64encode(png.read_bytes()).decode("ascii")
        caption = esc(fig.title + (f" ({fig.note})" if fig.note else ""))
        body.append(
            f"<figure id='fig-{fig.key}' data-figure='{fig.key}'>"
            f"<img alt='{esc(fig.title)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{caption}</figcaption></figure>"
        )
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>lossylink: {esc(b97.NAME)} reproduction</title><style>{CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def write_all(rep: Reproduction, out: Path, figures: Sequence[b97.Figure]) -> list[Path]:
    """Write everything into ``out``; returns the files written (traced runs as directories)."""
    from lossylink.saved import save_run

    out.mkdir(parents=True, exist_ok=True)
    files = []
    path = out / "results.csv"
    rep.frame.to_csv(path, index=False)
    files.append(path)
    for t in rep.traced:
        if t.result is not None:
            sc = next(
                (o.scenario for o in rep.outcomes if o.experiment.id == t.run.id and o.scenario),
                None,
            )
            t.path = save_run(t.result, out / "runs" / t.run.id, scenario=sc)
            files.append(t.path)
    drawn = draw_figures(rep, figures, out / "figures")
    files += [p for ps in drawn.values() for p in ps]
    path = out / "tables.md"
    path.write_text(tables_markdown(rep), encoding="utf-8")
    files.append(path)
    path = out / "targets.json"
    path.write_text(
        json.dumps(targets_json(rep), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    files.append(path)
    path = out / "report.html"
    path.write_text(report_html(rep, figures, drawn), encoding="utf-8")
    files.append(path)
    return files
