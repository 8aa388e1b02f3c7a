"""The results file: one Arrow table row per run, written as Parquet with fixed options.

Byte-identical output for the same sweep, whatever executed it, needs:

- rows in run order (grid point, then seed), never in completion order;
- a schema derived only from the values (column order = first appearance in run order, column
  type = a function of the set of values), so it cannot depend on timing;
- no wall-clock values (the ``wall_s`` metric is left out);
- fixed writer options and no pandas metadata; the writer's ``created_by`` names the pinned
  pyarrow version, which is why pyarrow is pinned exactly (Makefile ``PIP_PINS``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink._types import MetricValue
from lossylink.errors import LossylinkIOError

if TYPE_CHECKING:
    import pyarrow as pa

# Metrics that differ between equal runs (wall-clock time) stay out of the results file.
NONDETERMINISTIC_METRICS = frozenset({"wall_s"})

# The writer options; changing any of them changes the bytes of every results file.
PARQUET_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 3,
    "use_dictionary": True,
    "write_statistics": True,
    "version": "2.6",
    "data_page_version": "1.0",
}


@dataclass
class Row:
    """One run of the sweep, as it goes into the table."""

    run: int
    point: int
    grid: tuple[tuple[str, str], ...]
    seed: int
    key: str | None
    scenario: str | None
    """Canonical scenario JSON; ``None`` if the grid point could not be built."""
    metrics: dict[str, MetricValue] | None
    error: str | None


def warm_table_writer() -> None:
    """Import pyarrow and what its first ``pa.array`` call imports (pandas), ahead of use."""
    import pyarrow as pa
    import pyarrow.parquet

    pa.array([0], type=pa.int64())


def flatten_scenario(canonical: str) -> dict[str, Any]:
    """The scenario document as ``{dotted.path: scalar}`` (list items by index)."""
    out: dict[str, Any] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}.{i}")
        else:
            out[path] = value

    walk(json.loads(canonical), "")
    return out


def build_table(
    rows: Sequence[Row], grid_keys: Sequence[str], metadata: Mapping[str, str], version: str
) -> pa.Table:
    """The results table: identity columns, grid columns, status, metrics, scenario fields."""
    import pyarrow as pa

    columns: dict[str, list[Any]] = {
        "run": [r.run for r in rows],
        "point": [r.point for r in rows],
        **{f"grid.{k}": [dict(r.grid).get(k) for r in rows] for k in grid_keys},
        "seed": [r.seed for r in rows],
        "status": ["ok" if r.error is None else "error" for r in rows],
        "error": [r.error for r in rows],
        "key": [r.key for r in rows],
        "lossylink_version": [version] * len(rows),
    }
    fixed = set(columns)
    metric_names = _union_keys(r.metrics for r in rows)
    for name in metric_names:
        if name in NONDETERMINISTIC_METRICS or name in fixed:
            continue
        columns[name] = [None if r.metrics is None else r.metrics.get(name) for r in rows]
    flats = [flatten_scenario(r.scenario) if r.scenario else None for r in rows]
    for path in _union_keys(flats):
        columns[f"scenario.{path}"] = [None if f is None else f.get(path) for f in flats]
    columns["scenario"] = [r.scenario for r in rows]

    fields = []
    arrays = []
    for name, values in columns.items():
        typ, converted = _typed(values)
        fields.append(pa.field(name, typ))
        arrays.append(pa.array(converted, type=typ))
    schema = pa.schema(fields, metadata={k.encode(): v.encode() for k, v in metadata.items()})
    return pa.Table.from_arrays(arrays, schema=schema)


def write_parquet(table: pa.Table, path: str | os.PathLike[str]) -> Path:
    """Write ``table`` to ``path`` atomically, with :data:`PARQUET_OPTIONS`."""
    import pyarrow.parquet as pq

    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        try:
            os.chmod(tmp, 0o666 & ~_umask())
            pq.write_table(table, tmp, **PARQUET_OPTIONS)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise LossylinkIOError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _union_keys(maps: Any) -> list[str]:
    """Keys of all non-None mappings, in order of first appearance."""
    seen: dict[str, None] = {}
    for m in maps:
        if m is not None:
            seen.update(dict.fromkeys(m))
    return list(seen)


def _typed(values: list[Any]) -> tuple[pa.DataType, list[Any]]:
    """An Arrow type for a column, decided by the kinds of its non-null values only."""
    import pyarrow as pa

    kinds = {_kind(v) for v in values if v is not None}
    if kinds == {"bool"}:
        return pa.bool_(), values
    if kinds == {"int"}:
        if all(v is None or -(2**63) <= v < 2**63 for v in values):
            return pa.int64(), values
        return pa.uint64(), values
    if kinds <= {"int", "float"} and kinds:
        return pa.float64(), [None if v is None else float(v) for v in values]
    if kinds <= {"str"}:
        return pa.string(), values
    return pa.string(), [
        v if v is None or isinstance(v, str) else json.dumps(v, sort_keys=True) for v in values
    ]


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return "other"
