"""What ``lossylink plot`` draws from which source, with a one-line error for a source that does
not fit the kind (instead of a traceback or an empty figure).

- ``seq``, ``cwnd``, ``timeline``: a saved run directory (``run --save DIR``, a reproduction's
  ``runs/*``); of a run with several flows, ``seq`` and ``cwnd`` draw one coloured series per
  flow with a legend, and ``flow`` picks one flow for any of the three.
- ``bars``, ``burst``: a Balakrishnan et al. 1997 reproduction's ``results.csv`` (or its
  directory); a file without the rows the figure needs is refused, never drawn empty.
- ``sweep``: that reproduction's ``results.csv`` (Figure 12), or a results file of
  ``lossylink sweep`` (``.parquet``): a metric against one grid axis, one line per value of
  the other axes, with 95 % confidence intervals over the seeds (:func:`sweep_results_figure`);
  for a scenario with ``[[flows]]`` the aggregate goodput by default, or one line per flow.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink.errors import InvalidValueError, LossylinkIOError

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

RESULTS_CSV = "results.csv"
GRID_PREFIX = "grid."


def figure_for(
    source: Path,
    kind: str,
    *,
    table: str = "table3",
    reference: int | None = None,
    metric: str | None = None,
    x: str | None = None,
    by: str | None = None,
    per_flow: bool = False,
    flow: str | None = None,
) -> Figure:
    """The figure of ``kind`` drawn from ``source`` (see the module docstring)."""
    from lossylink import plots

    if kind in plots.KINDS:
        return _run_figure(source, kind, reference, flow)
    if kind == "sweep" and source.suffix.lower() == ".parquet":
        return sweep_results_figure(source, metric=metric, x=x, by=by, per_flow=per_flow)
    if source.suffix.lower() == ".parquet":
        raise InvalidValueError(
            f"{source}: a sweep results file; draw it with --kind sweep (--kind {kind} needs "
            "a balakrishnan97 reproduction's results.csv)"
        )
    return _reproduction_figure(_results_csv(source, kind), kind, table)


def _run_figure(source: Path, kind: str, reference: int | None, flow: str | None) -> Figure:
    from lossylink import plots
    from lossylink.saved import METRICS_FILE, load_run

    if not source.is_dir():
        raise InvalidValueError(
            f"{source}: --kind {kind} draws a saved run directory (`lossylink run --save DIR`, "
            "or a reproduction's runs/*), not a file"
        )
    if not (source / METRICS_FILE).exists():
        raise LossylinkIOError(
            f"{source}: not a saved run (no {METRICS_FILE}); several seeds are saved in "
            f"{source}/seed<S>"
        )
    r = load_run(source)
    if r.trace is None:
        raise InvalidValueError(f"{source}: the saved run has no trace")
    m = r.metrics
    label = f"{m.get('scheme', '?')}, {m.get('preset', '?')}, seed {m.get('seed', '?')}"
    panels = [(label, r.trace)]
    from lossylink import flow_plots

    flows = flow_plots.trace_flows(r.trace)
    if flow is not None:
        names = [name for name, _ in flows]
        if not names:
            raise InvalidValueError(f"--flow: {source} is a run with one flow (no [[flows]])")
        if flow not in names:
            raise InvalidValueError(
                f"--flow: no flow {flow!r} in {source} (flows: {', '.join(names)})"
            )
        panels = [(f"{label}, flow {flow}", dict(flows)[flow])]
    elif flows and kind == "cwnd":
        return flow_plots.flows_cwnd_figure(label, flows, reference)
    elif flows and kind == "seq":
        return flow_plots.flows_seq_figure(label, flows)
    if kind == "seq":
        return plots.seq_figure(panels)
    if kind == "cwnd":
        return plots.cwnd_figure(panels, reference_bytes=reference)
    return plots.timeline_figure(panels)


def _results_csv(source: Path, kind: str) -> Path:
    """``source`` itself, or the ``results.csv`` in the directory ``source``."""
    if source.is_dir():
        candidate = source / RESULTS_CSV
        if candidate.is_file():
            return candidate
        raise InvalidValueError(
            f"{source}: --kind {kind} draws a balakrishnan97 reproduction's {RESULTS_CSV} "
            "(this directory has none; seq, cwnd and timeline draw a saved run)"
        )
    return source


def _reproduction_figure(path: Path, kind: str, table: str) -> Figure:
    import pandas as pd

    from lossylink import plots
    from lossylink.papers import balakrishnan97 as b97

    try:
        frame = pd.read_csv(path)
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise LossylinkIOError(f"cannot read {path} as CSV: {_one_line(exc)}") from None
    needed = _needed_rows(frame, kind, table, b97)
    if not needed:
        raise InvalidValueError(
            f"{path}: no rows for --kind {kind}"
            + (f" --table {table}" if kind == "bars" else "")
            + " (it draws `lossylink reproduce balakrishnan97` results; "
            + ("run its table2-4 and peaks groups)" if kind == "bars" else f"its {kind} group)")
        )
    return plots.results_figure(path, kind, table)


def _needed_rows(frame: pd.DataFrame, kind: str, table: str, b97: Any) -> int:
    """How many rows of ``frame`` the figure of ``kind`` would draw."""
    if kind in ("sweep", "burst"):
        if "group" not in frame.columns:
            return 0
        return int((frame["group"] == kind).sum())
    if "experiment" not in frame.columns:
        return 0
    spec = next(t for t in b97.TABLES if t.key == table)
    cells = {b97.cell_id(s, c) for s in spec.cells for c in ("lan32", "wan32")}
    return int(frame["experiment"].isin(cells).sum())


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


# -- a user's sweep ---------------------------------------------------------------------------


AGGREGATE_METRIC = "agg.aggregate_goodput_mbps"
"""The default metric of a sweep of a scenario with ``[[flows]]``: the whole network's goodput."""
DEFAULT_METRIC = "throughput_mbps"
"""The default metric of a sweep of a single-flow chain."""


def default_metric(columns: Any) -> str:
    """The metric a sweep's plot shows unless told: the aggregate goodput of a scenario with
    ``[[flows]]`` (whose ``throughput_mbps`` is its first flow's), else ``throughput_mbps``."""
    return AGGREGATE_METRIC if AGGREGATE_METRIC in columns else DEFAULT_METRIC


def flow_series(columns: Any, key: str) -> list[tuple[str, str]]:
    """``(flow name, column)`` of each flow's ``flow.<name>.<key>`` column, in column order."""
    suffix = f".{key}"
    return [
        (c[len("flow.") : -len(suffix)], c)
        for c in columns
        if c.startswith("flow.") and c.endswith(suffix) and len(c) > len("flow.") + len(suffix)
    ]


def sweep_results_figure(
    path: Path,
    *,
    metric: str | None = None,
    x: str | None = None,
    by: str | None = None,
    per_flow: bool = False,
) -> Figure:
    """``metric`` (mean and 95 % CI over seeds) against grid axis ``x``, one line per value of
    ``by`` (default: every other axis with more than one value, combined).

    ``metric`` defaults to the aggregate goodput for a scenario with ``[[flows]]`` and to
    ``throughput_mbps`` otherwise; ``per_flow`` draws one line per flow instead, of each flow's
    goodput (or of the flow column ``metric`` names, e.g. ``sender_timeouts``). ``x`` defaults
    to the axis with the most values. Axis values stay in grid order; when all are plain
    numbers the axis is numeric, otherwise they are evenly spaced labels.
    """
    frame = read_sweep(path)
    if per_flow:
        from lossylink.sweeps.executors import FLOW_COLUMNS

        if metric is not None and metric not in FLOW_COLUMNS:
            raise InvalidValueError(
                f"--metric: with --per-flow, one of each flow's columns: {', '.join(FLOW_COLUMNS)}"
            )
        key = metric or "goodput_mbps"
        series = flow_series(frame.columns, key)
        if not series:
            raise InvalidValueError(
                f"--per-flow: {path} has no per-flow columns (a sweep of a scenario with [[flows]])"
            )
        return _sweep_lines(frame, path, key, x, by, [(f"flow {n}", c) for n, c in series])
    metric = metric or default_metric(frame.columns)
    return _sweep_lines(frame, path, metric, x, by, [("", metric)])


def _sweep_lines(
    frame: pd.DataFrame,
    path: Path,
    metric: str,
    x: str | None,
    by: str | None,
    series: list[tuple[str, str]],
) -> Figure:
    """The checks of :func:`sweep_results_figure`, then its figure: each ``(label, column)`` of
    ``series`` is drawn for each line of ``by``."""
    axes = [c[len(GRID_PREFIX) :] for c in frame.columns if c.startswith(GRID_PREFIX)]
    varying = [a for a in axes if frame[GRID_PREFIX + a].nunique(dropna=False) > 1]
    if not varying:
        raise InvalidValueError(f"{path}: the sweep has no grid axis with two or more values")
    if any(column not in frame.columns for _, column in series):
        numeric = [c for c in frame.columns if _is_metric(frame, c)]
        raise InvalidValueError(
            f"--metric: {metric!r} is not a column of {path} (metrics: {', '.join(numeric)})"
        )
    x = x or max(varying, key=lambda a: frame[GRID_PREFIX + a].nunique())
    for name, value in (("--x", x), ("--by", by)):
        if value is not None and value not in axes:
            raise InvalidValueError(
                f"{name}: {value!r} is not a grid axis of {path} (axes: {', '.join(axes)})"
            )
    lines = [by] if by is not None else [a for a in varying if a != x]
    if x in lines:
        raise InvalidValueError("--by must name another grid axis than --x")
    ok = frame[frame["status"] == "ok"] if "status" in frame.columns else frame
    return _draw_sweep(ok, metric, x, lines, path.name, series)


def read_sweep(path: Path) -> pd.DataFrame:
    """A sweep results file as a DataFrame (a one-line error if it is not one)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        frame: pd.DataFrame = pq.read_table(path).to_pandas()
    except (OSError, pa.ArrowException) as exc:
        raise LossylinkIOError(f"cannot read {path} as Parquet: {_one_line(exc)}") from None
    if not any(c.startswith(GRID_PREFIX) for c in frame.columns) and "point" not in frame:
        raise InvalidValueError(f"{path}: not a `lossylink sweep` results file (no grid columns)")
    return frame


def _is_metric(frame: pd.DataFrame, column: str) -> bool:
    skip = ("run", "point", "seed")
    return (
        column not in skip
        and not column.startswith((GRID_PREFIX, "scenario"))
        and frame[column].dtype.kind in "if"
    )


def _draw_sweep(
    frame: pd.DataFrame,
    metric: str,
    x: str,
    lines: list[str],
    title: str,
    series: list[tuple[str, str]],
) -> Figure:
    from lossylink.plots import subplots
    from lossylink.stats import summarize

    xcol = GRID_PREFIX + x
    order = list(dict.fromkeys(frame[xcol]))
    numbers = [_number(v) for v in order]
    numeric = all(n is not None for n in numbers)
    pos = {v: (numbers[i] if numeric else float(i)) for i, v in enumerate(order)}
    fig, ax = subplots(figsize=(6.5, 4.0))
    keys = [GRID_PREFIX + a for a in lines]
    groups = frame.groupby(keys, sort=False, dropna=False) if keys else [((), frame)]
    drawn = 0
    for values, sub in groups:
        vals = values if isinstance(values, tuple) else (values,)
        group = ", ".join(f"{a}={v}" for a, v in zip(lines, vals, strict=True))
        for name, column in series:
            label = ", ".join(p for p in (name, group) if p) or metric
            xs, means, errs = [], [], []
            for xv, cell in sub.groupby(xcol, sort=False):
                data = [float(v) for v in cell[column] if _finite(v)]
                if not data:
                    continue  # a flow that does not exist at this point (fewer copies)
                s = summarize(data)
                xs.append(pos[xv])
                means.append(s.mean)
                errs.append(s.half_width or 0.0)
            ordered = sorted(zip(xs, means, errs, strict=True))
            if ordered:
                px, pm, pe = zip(*ordered, strict=True)
                ax.errorbar(
                    px, pm, yerr=pe, marker="o", ms=4, capsize=3, label=label,
                    color=f"C{drawn % 10}",
                )  # fmt: skip
                drawn += 1
    ax.set_xticks([pos[v] for v in order])
    ax.set_xticklabels([str(v) for v in order], fontsize=8)
    ax.set_xlabel(x)
    ax.set_ylabel(f"{metric} (mean, 95% CI)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _finite(value: object) -> bool:
    """Whether a cell holds a finite number (not None, NaN or infinite)."""
    try:
        return value is not None and math.isfinite(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def _number(value: object) -> float | None:
    try:
        return float(str(value))
    except ValueError:
        return None
