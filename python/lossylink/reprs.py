"""Short text and HTML representations of results, scenarios and sweeps (for the REPL and
Jupyter): a few headline values and counts, never the whole table, and always under
:data:`LIMIT` characters. The full data is one call away (``.metrics``, ``.frame()``,
``.summary_frame()``, ``.to_toml()``)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lossylink.result import RunResult
    from lossylink.scenario import Scenario
    from lossylink.sweeps.core import SweepResult

LIMIT = 2000
"""No repr, text or HTML, is longer than this many characters."""
MAX_ROWS = 8
"""Rows of a sweep summary shown in its HTML repr (the rest are counted)."""
_CELL = 40

RUN_KEYS = (
    "scheme",
    "preset",
    "seed",
    "throughput_mbps",
    "wireless_goodput_pct",
    "completion_s",
    "sender_timeouts",
    "sender_fast_retransmits",
)
SWEEP_METRICS = ("throughput_mbps", "completion_s", "sender_timeouts")
NETWORK_SWEEP_METRICS = ("agg.aggregate_goodput_mbps", "agg.jain_index")
"""A sweep of a scenario with ``[[flows]]``: the whole network's, not its first flow's."""


def clip(text: str, limit: int = LIMIT) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis if longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def value_text(value: object) -> str:
    """A short display of one value: floats with 4 significant digits, text clipped."""
    if isinstance(value, float):
        return f"{value:.4g}"
    return clip(str(value), _CELL)


def html_table(
    rows: Iterable[Sequence[object]], header: Sequence[str] | None = None, caption: str = ""
) -> str:
    """A small HTML table of escaped, clipped cells."""
    out = ["<table>"]
    if caption:
        out.append(f"<caption style='text-align:left'>{html.escape(caption)}</caption>")
    if header:
        out.append("<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
    for row in rows:
        cells = "".join(f"<td>{html.escape(value_text(c))}</td>" for c in row)
        out.append(f"<tr>{cells}</tr>")
    out.append("</table>")
    return "".join(out)


def _fit_html(parts: list[str], more: str) -> str:
    """Join ``parts``; if too long, drop trailing parts and say so with ``more``."""
    text = "".join(parts)
    while len(text) > LIMIT and len(parts) > 1:
        parts = parts[:-1]
        text = "".join(parts) + more
    return clip(text)


def run_html(result: RunResult) -> str:
    """A run as a two-column HTML table of its headline metrics and trace tables."""
    m = result.metrics
    if result.network is None:
        rows: list[tuple[str, object]] = [(k, m[k]) for k in RUN_KEYS if k in m]
    else:
        # A [[flows]] run's metrics are its first flow's: show the whole network's.
        agg = result.network["aggregate"]
        rows = [(k, m[k]) for k in ("scheme", "preset", "seed") if k in m]
        rows.append(("flows", len(result.network["flows"])))
        rows += [(k, agg[k]) for k in ("aggregate_goodput_mbps", "jain_index") if k in agg]
        rows.append(("per flow", ".flows, results_frame(..., per_flow=True)"))
    if result.trace is not None:
        rows.append(("trace", ", ".join(result.trace)))
    rows.append(("metrics", f"{len(m)} (see .metrics)"))
    return clip(html_table(rows, caption="RunResult"))


def scenario_text(scenario: Scenario) -> str:
    """``Scenario(name='lan', scheme='e2e')``."""
    return clip(f"Scenario(name={scenario.name!r}, scheme={scenario.scheme!r})")


def scenario_html(scenario: Scenario) -> str:
    """A scenario's name, scheme and top-level settings (tables summarized by their size)."""
    data = scenario.to_dict()
    rows: list[tuple[str, object]] = [("name", scenario.name), ("scheme", scenario.scheme)]
    for key, value in data.items():
        if key in ("name", "scheme"):
            continue
        rows.append((key, _brief(value)))
    parts = [html_table(rows[: MAX_ROWS * 2], caption="Scenario (.to_toml() for all of it)")]
    return clip("".join(parts))


def _brief(value: object) -> str:
    if isinstance(value, Mapping):
        return f"{{{len(value)} fields}}"
    if isinstance(value, list):
        return f"[{len(value)} items]"
    return value_text(value)


def sweep_text(result: SweepResult) -> str:
    """``SweepResult(points=4, seeds=1..3, runs=12: 12 run, 0 cached, 0 failed, grid=...)``."""
    return clip(
        f"SweepResult({_sweep_counts(result)}, grid={_axes(result)}"
        + (f", out={str(result.out)!r}" if result.out is not None else "")
        + ")"
    )


def sweep_html(result: SweepResult) -> str:
    """The counts and the first :data:`MAX_ROWS` grid points of the summary (mean ± CI)."""
    keys = list(result.grid.keys)
    network = any(e.get("agg.aggregate_goodput_mbps_mean") is not None for e in result.summary)
    wanted = NETWORK_SWEEP_METRICS if network else SWEEP_METRICS
    metrics = [m for m in wanted if any(f"{m}_mean" in e for e in result.summary)]
    header = [*keys, "runs", *metrics]
    rows = []
    for e in result.summary[:MAX_ROWS]:
        cells: list[Any] = [e.get(k, "") for k in keys]
        cells.append(e.get("runs", ""))
        for m in metrics:
            mean, ci = e.get(f"{m}_mean"), e.get(f"{m}_ci95")
            text = "–" if mean is None else f"{mean:.4g}"
            if ci is not None and mean is not None:
                text += f" ±{ci:.2g}"
            cells.append(text)
        rows.append(cells)
    hidden = len(result.summary) - len(rows)
    caption = f"SweepResult: {_sweep_counts(result)}"
    parts = [html_table(rows, header, caption)]
    if hidden > 0:
        parts.append(f"<p>… {hidden} more grid points (.summary_frame())</p>")
    return _fit_html(parts, "<p>(.summary_frame() for the summary)</p>")


def _sweep_counts(result: SweepResult) -> str:
    seeds = result.seeds
    span = (
        f"{seeds[0]}..{seeds[-1]}"
        if seeds and seeds == list(range(seeds[0], seeds[-1] + 1))
        else str(len(seeds))
    )
    return (
        f"points={len(result.summary)}, seeds={span}, runs={len(result.rows)}: "
        f"{result.executed} run, {result.cached} cached, {len(result.failures)} failed"
    )


def _axes(result: SweepResult) -> str:
    axes = [f"{k}[{len(v)}]" for k, v in result.grid.axes]
    return " x ".join(axes) or "base"
