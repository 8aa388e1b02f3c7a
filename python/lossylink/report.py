"""Writing a reproduction: results.csv, tables.md, targets.json, figures, saved traced runs and
a self-contained report.html (figures embedded as data URIs, tables as HTML).

What is common to every paper is here; each paper's own tables, header lines and figures come
from ``lossylink.papers.<name>.report`` (:func:`paper_report`), which defines ``describe(rep)`` (the
header line on the set-up), ``sections(rep)`` (``[(anchor, title, [Grid, ...]), ...]``) and
``draw(rep, figure)`` (a matplotlib figure)."""

from __future__ import annotations

import base64
import html
import importlib
import json
import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from lossylink import __version__
from lossylink.papers import catalogue
from lossylink.papers._base import Figure
from lossylink.stats import Summary

if TYPE_CHECKING:
    from lossylink.outcomes import Outcome, Reproduction, Verdict

NA = "not available"
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


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _td(cell: str) -> str:
    if cell in ("pass", "explained", "fail"):
        cls = f" class='v-{cell}'"
    elif cell.startswith(NA):
        cls = " class='v-na'"
    else:
        cls = ""
    return f"<td{cls}>{_linked(cell)}</td>"


def _linked(text: str) -> str:
    """``text`` escaped for HTML, its Markdown links ``[label](href)`` as ``<a>`` elements."""
    out, at = [], 0
    for m in _LINK.finditer(text):
        out.append(html.escape(text[at : m.start()]))
        label, href = html.escape(m.group(1)), html.escape(m.group(2), quote=True)
        out.append(f"<a href='{href}'>{label}</a>")
        at = m.end()
    out.append(html.escape(text[at:]))
    return "".join(out)


DOCS = Path(__file__).resolve().parents[2] / "docs"
"""The repository's docs/ (present in a source checkout, absent from an installed wheel)."""


def doc_link(doc: str, anchor: str, out: Path | None) -> str:
    """``see docs/x.md#anchor``, as a Markdown link relative to ``out`` (where report.html and
    tables.md are written) when the documentation is there to link to."""
    text = f"{doc}#{anchor}"
    target = DOCS.parent / doc
    if out is None or not target.is_file():
        return f"see {text}"
    href = Path(os.path.relpath(target, out.resolve())).as_posix()
    return f"see [{text}]({href}#{anchor})"


def paper_report(name: str) -> ModuleType:
    """The report module of paper ``name`` (``lossylink.papers.<name>.report``)."""
    return importlib.import_module(f"lossylink.papers.{catalogue(name).NAME}.report")


def mean_ci(s: Summary | None, fmt: str) -> str:
    if s is None:
        return "–"
    if s.half_width is None:
        return format(s.mean, fmt)
    return f"{format(s.mean, fmt)} ± {format(s.half_width, fmt)}"


def num(v: float | None, fmt: str = ".3g") -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return format(v, fmt)


def ours_cell(v: Verdict) -> str:
    """Our value, and beside it the value of the deviation's counterfactual run if one ran."""
    if v.counterfactual is None:
        return num(v.ours, ".4g")
    return f"{num(v.ours, '.4g')} (counterfactual {num(v.counterfactual, '.4g')})"


def target_tables(rep: Reproduction) -> list[Grid]:
    """The targets, one table per group, with the verdicts."""
    cat = catalogue(rep.paper)
    grids = []
    for table in cat.TARGET_TABLES:
        vs = [v for v in rep.verdicts if v.target.table == table]
        if not vs:
            continue
        rows = []
        for v in vs:
            t = v.target
            why = v.reason
            if t.deviation and v.verdict in ("explained", "fail"):
                link = doc_link(cat.DOC, t.deviation, rep.out)
                why = f"{link}; {v.reason}" if v.reason else link
            rows.append(
                [
                    t.description,
                    _paper_cell(t.paper, t.expected),
                    ours_cell(v),
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
                ["target", cat.PAPER_LABEL, "ours", "accept", "verdict", "note"],
                rows,
                note,
            )
        )
    return grids


def _paper_cell(paper: float | None, expected: str) -> str:
    if expected and paper is not None:
        return f"{num(paper)} ({expected})"
    return expected or num(paper)


def find(outcomes: Sequence[Outcome], exp_id: str) -> Outcome | None:
    for o in outcomes:
        if o.experiment.id == exp_id:
            return o
    return None


# -- figures --------------------------------------------------------------------------------


def draw_figures(
    rep: Reproduction, figures: Sequence[Figure], directory: Path
) -> dict[str, list[Path]]:
    """Draw every figure into ``directory`` as PNG and SVG; returns ``{key: [png, svg]}``."""
    from lossylink import plots

    draw = paper_report(rep.paper).draw
    out = {}
    for fig in figures:
        out[fig.key] = plots.save_figure(draw(rep, fig), directory / fig.key)
    return out


def placeholder(fig: Figure, rep: Reproduction) -> Any:
    """A figure that says why it could not be drawn (its traced runs are not available)."""
    from lossylink.plots import subplots

    reasons = sorted({t.reason for t in rep.traced if t.run.id in fig.runs and t.reason})
    f, ax = subplots(figsize=(7.5, 2.0))
    ax.axis("off")
    ax.set_title(fig.title, fontsize=10)
    ax.text(0.5, 0.5, f"{NA}: " + ("; ".join(reasons) or "not traced"), ha="center", va="center",
            fontsize=8, color="grey", wrap=True, transform=ax.transAxes)  # fmt: skip
    return f


# -- writers --------------------------------------------------------------------------------


def seed_text(rep: Reproduction) -> str:
    """The seeds of a reproduction, for its header: ``3 (seeds 1..3)``, ``1 (seed 1)``."""
    seeds = rep.seeds
    if len(seeds) == 1:
        return f"1 (seed {seeds[0]})"
    return f"{len(seeds)} (seeds {seeds[0]}..{seeds[-1]})"


def plural(n: int, word: str) -> str:
    """``1 seed``, ``3 seeds``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _header(rep: Reproduction) -> list[str]:
    lines = [
        f"Paper: {catalogue(rep.paper).PAPER}.",
        f"lossylink {__version__}; " + paper_report(rep.paper).describe(rep),
        "Ours: mean ± half-width of the 95% confidence interval (Student t) over seeds.",
    ]
    if rep.quick or rep.transfer:
        what = []
        if rep.quick:
            what.append(f"fewer seeds ({len(rep.seeds)})")
        if rep.transfer:
            what.append(f"shorter transfers ({rep.transfer})")
        lines.append(
            f"QUICK RUN: {' and '.join(what)} than the full reproduction; the verdicts are "
            "indicative only."
        )
    missing = sorted({o.reason for o in rep.outcomes if not o.available})
    if missing:
        lines.append("Not available in this build: " + "; ".join(missing) + ".")
    return lines


def run_summary(rep: Reproduction) -> str:
    """``219 result rows from 206 runs, 1.2 s of simulation on 2 threads``: the numbers the
    console prints too (the progress bar counts the runs; identical scenarios run once and fill
    several rows)."""
    rows = len(rep.frame)
    runs = rep.runs if rep.runs else rows
    shared = f"{plural(rows, 'result row')} from " if rows != runs else ""
    return (
        f"{shared}{plural(runs, 'run')}, {rep.wall_s:.1f} s of simulation on "
        f"{plural(rep.workers, 'thread')}"
    )


def tables_markdown(rep: Reproduction) -> str:
    cat = catalogue(rep.paper)
    parts = [f"# Reproduction of {cat.NAME}", "", *(f"{x}  " for x in _header(rep)), ""]
    for _anchor, title, grids in paper_report(rep.paper).sections(rep):
        parts.append(f"## {title}\n")
        parts += [g.markdown() for g in grids]
    parts.append("## Targets\n")
    parts.append(
        "Verdicts: pass (inside the accepted range), explained (outside, with the mechanism "
        f"named in {cat.DOC}), fail, not available. All targets with values are in "
        "targets.json.\n"
    )
    parts += [g.markdown() for g in target_tables(rep)]
    return "\n".join(parts)


def targets_json(rep: Reproduction) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for v in rep.verdicts:
        counts.setdefault(v.target.table, dict.fromkeys(VERDICT_ORDER, 0))[v.verdict] += 1
    cat = catalogue(rep.paper)
    return {
        "paper": cat.PAPER,
        "name": cat.NAME,
        "lossylink": __version__,
        "seeds": rep.seeds,
        "transfer": rep.transfer or cat.TRANSFER,
        "quick": rep.quick,
        "verdicts": list(VERDICT_ORDER),
        "summary": counts,
        "targets": [v.to_dict(cat.DOC, cat.DEVIATIONS) for v in rep.verdicts],
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


def report_html(rep: Reproduction, figures: Sequence[Figure], drawn: dict[str, list[Path]]) -> str:
    """One self-contained page: header, verdict counts, tables, targets, figures."""
    esc = html.escape
    name = catalogue(rep.paper).NAME
    counts = Counter(v.verdict for v in rep.verdicts)
    summary = ", ".join(f"{counts[k]} {k}" for k in VERDICT_ORDER if counts[k])
    body = [f"<h1>Reproduction of {esc(name)}</h1>"]
    body += [f"<p>{esc(x)}</p>" for x in _header(rep)]
    body.append(f"<p>Targets: {esc(summary)}. {esc(run_summary(rep))}.</p>")
    for anchor, title, grids in paper_report(rep.paper).sections(rep):
        body.append(f"<h2 id='{anchor}'>{esc(title)}</h2>")
        body += [g.html() for g in grids]
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
        f"<title>lossylink: {esc(name)} reproduction</title><style>{CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def write_all(rep: Reproduction, out: Path, figures: Sequence[Figure]) -> list[Path]:
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
