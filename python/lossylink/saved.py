"""Saved runs: a run's metrics (and scenario) as JSON and its trace tables as Parquet or CSV, in
one directory that :func:`load_run` (and ``lossylink plot``) read back.

Layout of a saved run directory::

    metrics.json          the metrics, keys in the facade's order (a [[flows]] scenario's run
                          adds "flows", "links" and "aggregate")
    scenario.toml         the scenario that was run (when known)
    trace/<table>.parquet one file per trace table (or .csv)
    outputs.json          the files the run wrote elsewhere (when any): {"pcap": [...],
                          "trace_csv": [...]}, paths relative to this directory, "/"-separated

Saving into a directory that already holds a saved run replaces that run: :func:`save_run`
first removes the files listed above (and nothing else), and :func:`clear_saved_runs` also
removes earlier runs saved per seed in ``seed<S>/`` subdirectories, so that ``lossylink plot``
never draws a stale run.

:func:`load_run` gives those paths back relative to the directory it was given (absolute paths,
stored where no relative path exists, stay absolute). A saved run moved together with its pcap
and CSV files keeps pointing at them.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from lossylink.errors import LossylinkIOError
from lossylink.result import RunResult
from lossylink.scenario import Scenario

TRACE_FORMATS = ("parquet", "csv")
METRICS_FILE = "metrics.json"
SCENARIO_FILE = "scenario.toml"
TRACE_DIR = "trace"
OUTPUTS_FILE = "outputs.json"
# RunResult attributes recorded in OUTPUTS_FILE, in the file's key order.
OUTPUT_FIELDS = ("pcap", "trace_csv")


def save_run(
    result: RunResult,
    directory: str | os.PathLike[str],
    *,
    scenario: Scenario | None = None,
    trace_format: str = "parquet",
) -> Path:
    """Write ``result`` (and its trace, if traced) into ``directory``; returns the directory."""
    if trace_format not in TRACE_FORMATS:
        raise ValueError(
            f"trace format must be one of {', '.join(TRACE_FORMATS)}, not {trace_format!r}"
        )
    out = Path(directory)
    try:
        _clear_run(out)
        out.mkdir(parents=True, exist_ok=True)
        (out / METRICS_FILE).write_text(
            json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8"
        )
        if scenario is not None:
            (out / SCENARIO_FILE).write_text(scenario.to_toml(), encoding="utf-8")
        _write_outputs(out, result)
        if result.trace is not None:
            tdir = out / TRACE_DIR
            tdir.mkdir(exist_ok=True)
            for table, columns in result.trace.items():
                if trace_format == "parquet":
                    _write_parquet(tdir / f"{table}.parquet", columns)
                else:
                    _write_csv(tdir / f"{table}.csv", columns)
    except OSError as exc:
        raise LossylinkIOError(
            f"cannot write {exc.filename or out}: {exc.strerror or exc}"
        ) from None
    return out


def clear_saved_runs(directory: str | os.PathLike[str]) -> None:
    """Remove the saved run in ``directory`` and those in its ``seed<S>`` subdirectories (only
    the files :func:`save_run` writes; other files stay, and so do directories holding them)."""
    d = Path(directory)
    if not d.is_dir():
        return
    try:
        _clear_run(d)
        for sub in sorted(d.glob("seed*")):
            if sub.is_dir() and sub.name[4:].isdigit() and (sub / METRICS_FILE).exists():
                _clear_run(sub)
                _rmdir_if_empty(sub)
    except OSError as exc:
        raise LossylinkIOError(f"cannot clear {exc.filename or d}: {exc.strerror or exc}") from None


def _clear_run(d: Path) -> None:
    """Remove the files of a saved run in ``d`` (none if ``d`` holds no saved run)."""
    for name in (METRICS_FILE, SCENARIO_FILE, OUTPUTS_FILE):
        (d / name).unlink(missing_ok=True)
    tdir = d / TRACE_DIR
    if tdir.is_dir():
        for old in tdir.iterdir():
            if old.suffix in (".parquet", ".csv"):
                old.unlink()
        _rmdir_if_empty(tdir)


def _rmdir_if_empty(d: Path) -> None:
    if not any(d.iterdir()):
        d.rmdir()


def load_run(directory: str | os.PathLike[str]) -> RunResult:
    """Read a directory written by :func:`save_run` back into a :class:`RunResult`."""
    d = Path(directory)
    try:
        metrics = json.loads((d / METRICS_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LossylinkIOError(f"{d}: not a saved run (no {METRICS_FILE})") from None
    except (OSError, ValueError) as exc:
        raise LossylinkIOError(f"cannot read {d / METRICS_FILE}: {exc}") from None
    _check_metrics(d / METRICS_FILE, metrics)
    network = None
    if "flows" in metrics:
        network = {
            "flows": [_nan(row) for row in metrics.pop("flows")],
            "links": [_nan(row) for row in metrics.pop("links", [])],
            "members": [_nan(row) for row in metrics.pop("members", [])],
            "aggregate": _nan(metrics.pop("aggregate", {})),
        }
    metrics = _nan(metrics)
    outputs = _read_outputs(d)
    trace: dict[str, dict[str, Any]] | None = None
    tdir = d / TRACE_DIR
    if tdir.is_dir():
        trace = {}
        for path in sorted(tdir.iterdir()):
            if path.suffix == ".parquet":
                trace[path.stem] = _read_parquet(path)
            elif path.suffix == ".csv":
                trace[path.stem] = _read_csv(path)
    return RunResult(metrics, trace, outputs.get("pcap"), outputs.get("trace_csv"), network=network)


def _check_metrics(path: Path, metrics: Any) -> None:
    """Refuse, in one line, a metrics file that is not the object :func:`save_run` writes."""
    if not isinstance(metrics, dict):
        raise LossylinkIOError(
            f"{path}: expected a JSON object of metrics (name: value), not {type(metrics).__name__}"
        )
    for key in ("flows", "links", "members"):
        rows = metrics.get(key, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise LossylinkIOError(f"{path}: {key}: expected a list of JSON objects (one per row)")
    if not isinstance(metrics.get("aggregate", {}), dict):
        raise LossylinkIOError(f"{path}: aggregate: expected a JSON object")


def _nan(row: dict[str, Any]) -> dict[str, Any]:
    """JSON's null back to NaN (non-finite floats are written as null)."""
    return {k: (float("nan") if v is None else v) for k, v in row.items()}


def _write_outputs(out: Path, result: RunResult) -> None:
    """Record the paths of the run's pcap and trace CSV files (or remove a stale record)."""
    record = {
        name: [_relative(p, out) for p in paths]
        for name in OUTPUT_FIELDS
        if (paths := getattr(result, name)) is not None
    }
    path = out / OUTPUTS_FILE
    if record:
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    else:
        path.unlink(missing_ok=True)


def _relative(path: Path, start: Path) -> str:
    try:
        return Path(os.path.relpath(path, start)).as_posix()
    except ValueError:  # no relative path (another drive on Windows)
        return Path(os.path.abspath(path)).as_posix()


def _read_outputs(d: Path) -> dict[str, list[Path]]:
    """The paths of OUTPUTS_FILE, relative to ``d``; ``{}`` when the run recorded none."""
    path = d / OUTPUTS_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise LossylinkIOError(f"cannot read {path}: {exc}") from None
    if not isinstance(record, dict):
        raise LossylinkIOError(f"{path}: expected a JSON object with keys {_allowed()}")
    out: dict[str, list[Path]] = {}
    for name, paths in record.items():
        if name not in OUTPUT_FIELDS:
            raise LossylinkIOError(f"{path}: unknown field {name!r} (allowed: {_allowed()})")
        if not isinstance(paths, list):
            raise LossylinkIOError(
                f"{path}: {name}: expected a list of paths, not {type(paths).__name__}"
            )
        for i, p in enumerate(paths):
            if not isinstance(p, str) or not p:
                raise LossylinkIOError(
                    f"{path}: {name}[{i}]: expected a non-empty path string, not {p!r}"
                )
        out[name] = [Path(os.path.normpath(d / p)) for p in paths]
    return out


def _allowed() -> str:
    return ", ".join(OUTPUT_FIELDS)


def _write_parquet(path: Path, columns: dict[str, Any]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {name: pa.array(list(v) if isinstance(v, list) else v) for name, v in columns.items()}
    )
    pq.write_table(table, path)


def _read_parquet(path: Path) -> dict[str, Any]:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    out: dict[str, Any] = {}
    for name in table.column_names:
        col = table.column(name)
        if col.type in ("string", "large_string") or str(col.type) in ("string", "large_string"):
            out[name] = col.to_pylist()
        else:
            out[name] = col.to_numpy()
    return out


def _write_csv(path: Path, columns: dict[str, Any]) -> None:
    names = list(columns)
    lists = [v.tolist() if isinstance(v, np.ndarray) else list(v) for v in columns.values()]
    kinds = [
        "f"
        if isinstance(v, np.ndarray) and v.dtype.kind == "f"
        else "i"
        if isinstance(v, np.ndarray)
        else "s"
        for v in columns.values()
    ]
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        # The second header row keeps the column types (f: float64, i: int64, s: text).
        writer.writerow(names)
        writer.writerow(kinds)
        writer.writerows(zip(*lists, strict=True))


def _read_csv(path: Path) -> dict[str, Any]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        names = next(reader)
        kinds = next(reader)
        rows = list(reader)
    cols = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    out: dict[str, Any] = {}
    for name, kind, values in zip(names, kinds, cols, strict=True):
        if kind == "f":
            out[name] = np.array([float(v) for v in values], dtype=np.float64)
        elif kind == "i":
            out[name] = np.array([int(v) for v in values], dtype=np.int64)
        else:
            out[name] = list(values)
    return out
