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
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink._types import MetricValue
from lossylink.errors import LossylinkIOError

if TYPE_CHECKING:
    import pyarrow as pa

# Metrics that differ between equal runs (wall-clock time) stay out of the results file.
NONDETERMINISTIC_METRICS = frozenset({"wall_s"})

_NONE: Mapping[str, Any] = {}
"""What a failed run's metrics or an unbuildable point's scenario reads as: every value None."""

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
    key: str
    scenario: str
    """Canonical scenario JSON (a grid point that cannot be built stops the sweep before it is
    planned)."""
    metrics: dict[str, MetricValue] | None
    error: str | None


def warm_table_writer() -> None:
    """Import pyarrow, its Parquet writer and tempfile ahead of use (not pandas: see
    :func:`_array`), so that the first results file a sweep writes does not wait for them."""
    import tempfile  # noqa: F401  (write_parquet's)

    import pyarrow.parquet  # noqa: F401


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
    measured = [r.metrics or _NONE for r in rows]
    for name in metric_names:
        if name in NONDETERMINISTIC_METRICS or name in fixed:
            continue
        columns[name] = [m.get(name) for m in measured]
    flat_of: dict[str, dict[str, Any]] = {}  # the runs of a grid point share their scenario
    for r in rows:
        if r.scenario not in flat_of:
            flat_of[r.scenario] = flatten_scenario(r.scenario)
    flats = [flat_of[r.scenario] for r in rows]
    for path in _union_keys(flats):
        columns[f"scenario.{path}"] = [f.get(path) for f in flats]
    columns["scenario"] = [r.scenario for r in rows]

    fields = []
    arrays = []
    for name, values in columns.items():
        typ, converted = _typed(values)
        fields.append(pa.field(name, typ))
        arrays.append(_array(typ, converted))
    schema = pa.schema(fields, metadata={k.encode(): v.encode() for k, v in metadata.items()})
    return pa.Table.from_arrays(arrays, schema=schema)


def write_parquet(table: pa.Table, path: str | os.PathLike[str]) -> Path:
    """Write ``table`` to ``path`` atomically, with :data:`PARQUET_OPTIONS`."""
    import tempfile

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

    kinds = {_kind_of(t) for t in set(map(type, values)) if t is not type(None)}
    if kinds == {"bool"}:
        return pa.bool_(), values
    if kinds == {"int"}:
        ints = [v for v in values if v is not None]
        if min(ints) >= -(2**63) and max(ints) < 2**63:
            return pa.int64(), values
        return pa.uint64(), values
    if kinds <= {"int", "float"} and kinds:
        return pa.float64(), [None if v is None else float(v) for v in values]
    if kinds <= {"str"}:
        return pa.string(), values
    return pa.string(), [
        v if v is None or isinstance(v, str) else json.dumps(v, sort_keys=True) for v in values
    ]


def _array(typ: pa.DataType, values: list[Any]) -> pa.Array:
    """The Arrow array of ``values`` (``None`` for null), built from its buffers.

    What ``pa.array(values, type=typ)`` returns, without its first call's import of pandas
    (about 0.3 s, most of what a short sweep's results table costs).
    """
    import pyarrow as pa

    n = len(values)
    nulls = values.count(None)
    validity = _bits([v is not None for v in values]) if nulls else None
    if typ == pa.bool_():
        data = [_bits([bool(v) for v in values])]
    elif typ == pa.string():
        encoded = [b"" if v is None else v.encode() for v in values]
        if sum(map(len, encoded)) >= 2**31:  # past 32-bit offsets: pyarrow chunks it
            return pa.array(values, type=typ)
        offsets = array("i", [0, *accumulate(map(len, encoded))])
        data = [pa.py_buffer(offsets.tobytes()), pa.py_buffer(b"".join(encoded))]
    else:
        code = {pa.int64(): "q", pa.uint64(): "Q", pa.float64(): "d"}[typ]
        if nulls:
            zero = 0.0 if code == "d" else 0
            values = [zero if v is None else v for v in values]
        data = [pa.py_buffer(array(code, values).tobytes())]
    return pa.Array.from_buffers(typ, n, [validity, *data], null_count=nulls)


def _bits(flags: list[bool]) -> Any:
    """A little-endian bitmap of ``flags`` as a pyarrow buffer."""
    import pyarrow as pa

    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i >> 3] |= 1 << (i & 7)
    return pa.py_buffer(bytes(out))


def _kind_of(typ: type) -> str:
    """The kind of the values of type ``typ`` (asked once per type of a column, not per
    value: the columns of a 300-run sweep hold some 30,000 values)."""
    if issubclass(typ, bool):
        return "bool"
    if issubclass(typ, int):
        return "int"
    if issubclass(typ, float):
        return "float"
    if issubclass(typ, str):
        return "str"
    return "other"
