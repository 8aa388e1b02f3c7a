"""Summary of a sweep: per grid point, the mean, standard deviation and 95 % confidence
half-width (Student's t, :mod:`lossylink.stats`) of every numeric metric over the seeds."""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink.errors import LossylinkIOError
from lossylink.stats import summarize
from lossylink.sweeps.table import NONDETERMINISTIC_METRICS, Row

if TYPE_CHECKING:
    from rich.table import Table  # imported with the printed table only (35 ms)

# Metrics that identify a run rather than measure it.
_NOT_SUMMARIZED = frozenset({"seed"}) | NONDETERMINISTIC_METRICS

# The value types summed without a closer look (bool, a subclass of int, is not one).
_PLAIN = frozenset({int, float})

# Shown in the printed table (all numeric metrics are in the saved summary): key, header and
# priority (higher stays longer on a narrow terminal, :mod:`lossylink.tables`).
HEADLINE = (
    ("throughput_mbps", "Mb/s", 90),
    ("wireless_goodput_pct", "wireless\ngoodput %", 50),
    ("completion_s", "time s", 60),
    ("sender_timeouts", "timeouts", 70),
)
# For a scenario with [[flows]], whose run metrics are its first flow's: the whole network's
# (the ``agg.*`` columns of the results file), then with ``per_flow`` each flow's goodput.
NETWORK_HEADLINE = (
    ("agg.flows", "flows", 95),
    ("agg.aggregate_goodput_mbps", "aggregate\nMb/s", 90),
    ("agg.jain_index", "Jain's\nindex", 70),
)
FLOW_PREFIX = "flow."
FLOW_GOODPUT = ".goodput_mbps"


def summary_rows(rows: Sequence[Row], grid_keys: Sequence[str]) -> list[dict[str, Any]]:
    """One dict per grid point: grid values, ``runs``, ``failed``, then per numeric metric
    ``<metric>_mean``, ``<metric>_std`` and ``<metric>_ci95`` (``None`` where undefined)."""
    by_point: dict[int, list[Row]] = {}
    for r in rows:
        by_point.setdefault(r.point, []).append(r)
    metrics: dict[str, None] = {}  # numeric somewhere, in order of first numeric value
    for r in rows:
        if r.metrics is not None:
            for k, v in r.metrics.items():
                if k not in metrics and k not in _NOT_SUMMARIZED and _numeric(v):
                    metrics[k] = None
    out = []
    for point, runs in by_point.items():
        grid = dict(runs[0].grid)
        ok = [r.metrics for r in runs if r.metrics is not None]
        entry: dict[str, Any] = {"point": point}
        entry.update({k: grid.get(k) for k in grid_keys})
        entry["runs"] = len(ok)
        entry["failed"] = len(runs) - len(ok)
        for name in metrics:
            raw = [m.get(name) for m in ok]
            if _PLAIN.issuperset(map(type, raw)):  # the usual case, fast
                values = list(map(float, raw))
            else:
                values = [float(v) for v in raw if _numeric(v)]
            s = summarize(values) if values else None
            entry[f"{name}_mean"] = s.mean if s else None
            entry[f"{name}_std"] = s.stdev if s else None
            entry[f"{name}_ci95"] = s.half_width if s else None
        out.append(entry)
    return out


def write_summary_csv(entries: Sequence[dict[str, Any]], path: str | os.PathLike[str]) -> Path:
    """Write the summary as CSV (floats at full precision, empty cells for ``None``)."""
    target = Path(path)
    names: dict[str, None] = {}
    for e in entries:
        names.update(dict.fromkeys(e))
    try:
        with target.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(names), lineterminator="\n")
            writer.writeheader()
            writer.writerows(entries)
    except OSError as exc:
        raise LossylinkIOError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def is_network(entries: Sequence[dict[str, Any]]) -> bool:
    """Whether the summary is of a scenario with ``[[flows]]`` (it has aggregate columns)."""
    return any(e.get("agg.aggregate_goodput_mbps_mean") is not None for e in entries)


def flow_names(entries: Sequence[dict[str, Any]]) -> list[str]:
    """The flows with a goodput column in the summary, in order of first appearance."""
    names: dict[str, None] = {}
    for e in entries:
        for key in e:
            if key.startswith(FLOW_PREFIX) and key.endswith(f"{FLOW_GOODPUT}_mean"):
                names[key[len(FLOW_PREFIX) : -len(f"{FLOW_GOODPUT}_mean")]] = None
    return list(names)


def summary_table(
    entries: Sequence[dict[str, Any]],
    grid_keys: Sequence[str],
    *,
    width: int = 120,
    per_flow: bool = False,
) -> Table:
    """The printed summary: grid values, runs, and headline metrics as mean ± 95 % CI, every
    cell of a metric with the same decimals; fits ``width`` columns by dropping the headline
    metrics of lowest priority first (:func:`lossylink.tables.fit_table`).

    For a scenario with ``[[flows]]`` the headline is the whole network's (number of flows,
    aggregate goodput, Jain's index), not its first flow's; ``per_flow`` adds each flow's
    goodput (Mb/s), the columns dropped first when the terminal is narrow."""
    from lossylink.tables import TableColumn, fit_table

    columns = [
        TableColumn(key, [str(e.get(key, "")) for e in entries], 100, justify="left")
        for key in grid_keys
    ]
    runs = [f"{e['runs']}" + (f" ({e['failed']} failed)" if e["failed"] else "") for e in entries]
    columns.append(TableColumn("runs", runs, 95))
    network = is_network(entries)
    headline = list(NETWORK_HEADLINE if network else HEADLINE)
    if network and per_flow:
        headline += [
            (f"{FLOW_PREFIX}{name}{FLOW_GOODPUT}", f"{name}\nMb/s", 30)
            for name in flow_names(entries)
        ]
    for name, header, priority in headline:
        if not any(f"{name}_mean" in e for e in entries):
            continue
        columns.append(TableColumn(header, metric_cells(entries, name), priority))
    return fit_table(columns, width=width)


def metric_cells(entries: Sequence[dict[str, Any]], name: str) -> list[str]:
    """The cells of metric ``name``: mean ± 95 % CI with one number of decimals for the column;
    a metric that never varies within a point (a count of flows) shows its mean alone."""
    from lossylink.tables import decimals, number

    means = [e.get(f"{name}_mean") for e in entries]
    cis = [e.get(f"{name}_ci95") for e in entries]
    stds = [e.get(f"{name}_std") for e in entries]
    if all(not s for s in stds) and all(m is None or float(m).is_integer() for m in means):
        return [number(m, 0) for m in means]
    places = decimals([*means, *cis])
    return [_mean_ci(m, c, places, number) for m, c in zip(means, cis, strict=True)]


def _mean_ci(mean: float | None, ci: float | None, places: int, number: Any) -> str:
    if mean is None:
        return "–"
    text: str = number(mean, places)
    if ci is not None and math.isfinite(ci):
        text += f" ±{number(ci, places)}"
    return text


def _numeric(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def failure_lines(failures: Sequence[Row]) -> list[str]:
    """One line per grid point and error: ``point 3 (scheme=x): seeds 1, 2: <error>``."""
    groups: dict[tuple[int, str], list[Row]] = {}
    for r in failures:
        groups.setdefault((r.point, r.error or ""), []).append(r)
    lines = []
    for (point, error), runs in groups.items():
        label = ", ".join(f"{k}={v}" for k, v in runs[0].grid) or "base"
        seeds = _ranges([r.seed for r in runs])
        lines.append(
            f"point {point} ({label}), seed{'s' if len(runs) > 1 else ''} {seeds}: {error}"
        )
    return lines


def _ranges(values: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"1-3, 7"``."""
    parts: list[str] = []
    start = prev = None
    for v in [*values, None]:
        if v is not None and prev is not None and v == prev + 1:
            prev = v
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = v
    return ", ".join(parts)
