"""Results of a run: metrics as attributes, optional trace tables as numpy arrays."""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from lossylink._types import MetricValue, RawRun, Trace, TraceColumn
from lossylink.errors import LossylinkIOError
from lossylink.reprs import clip, html_table

if TYPE_CHECKING:  # pathlib loads where a file is written or named, not on every run
    from pathlib import Path

    import pandas as pd

# Shown first in ``repr`` when present (the rest is one ``.metrics`` away).
_REPR_KEYS = (
    "scheme",
    "preset",
    "seed",
    "throughput_mbps",
    "wired_goodput_pct",
    "wireless_goodput_pct",
    "completion_s",
    "sender_timeouts",
    "sender_fast_retransmits",
)
# And for a run with [[flows]], before the aggregate goodput and Jain's index.
_NETWORK_REPR_KEYS = ("scheme", "preset", "seed")
# The rows of the HTML repr (Jupyter), when present.
_HTML_KEYS = (
    "scheme",
    "preset",
    "seed",
    "throughput_mbps",
    "wireless_goodput_pct",
    "completion_s",
    "sender_timeouts",
    "sender_fast_retransmits",
)


class RunResult:
    """The outcome of one run.

    Every metric is an attribute (``r.throughput_mbps``, ``r.sender_timeouts``, ...) and an
    entry of :attr:`metrics`, whose key order is the Rust facade's. :attr:`trace` is ``None``
    unless the run was traced; :attr:`pcap` lists the pcap files the run wrote (``None`` unless
    it was asked to) and :attr:`trace_csv` the CSV files :meth:`write_trace_csv` last wrote
    (``None`` before). A saved run (:mod:`lossylink.saved`) records and restores both lists.
    """

    __slots__ = ("metrics", "network", "pcap", "trace", "trace_csv")

    if TYPE_CHECKING:
        # The metrics every run reports (the Rust facade may add more; all are attributes).
        scheme: str
        preset: str
        seed: int
        error_every_bytes: int
        buffer_bytes: int
        transfer_bytes: int
        throughput_mbps: float
        wired_goodput_pct: float
        wireless_goodput_pct: float
        completion_s: float
        sender_timeouts: int
        sender_fast_retransmits: int
        sender_retransmitted_bytes: int
        local_retransmissions: int
        bs_queue_drops: int
        corrupted_data_frames: int
        corrupted_ack_frames: int
        events: int
        wall_s: float

    metrics: dict[str, MetricValue]
    network: dict[str, Any] | None
    trace: Trace | None
    pcap: list[Path] | None
    trace_csv: list[Path] | None

    def __init__(
        self,
        metrics: Mapping[str, MetricValue],
        trace: Trace | None = None,
        pcap: Iterable[str | os.PathLike[str]] | None = None,
        trace_csv: Iterable[str | os.PathLike[str]] | None = None,
        network: Mapping[str, Any] | None = None,
    ) -> None:
        """Wrap a metrics mapping, an optional trace and the paths of written pcap and trace
        CSV files; ``network`` holds the per-flow and per-link results of a ``[[flows]]``
        scenario (``flows``, ``links``, ``aggregate``)."""
        self.metrics = dict(metrics)
        self.network = dict(network) if network is not None else None
        self.trace = trace
        self.pcap = _paths(pcap)
        self.trace_csv = _paths(trace_csv)

    @classmethod
    def from_raw(cls, raw: RawRun) -> RunResult:
        """Wrap what the extension's ``run`` returns."""
        network = None
        if "flows" in raw:
            network = {k: raw[k] for k in ("flows", "links", "aggregate")}  # type: ignore[literal-required]
            network["members"] = raw.get("members", [])  # type: ignore[typeddict-item]
        return cls(raw["metrics"], raw["trace"], raw.get("pcap"), network=network)

    @property
    def flows(self) -> list[dict[str, MetricValue]] | None:
        """One dict per flow of a ``[[flows]]`` scenario (``None`` for a single-flow chain)."""
        return None if self.network is None else self.network["flows"]

    @property
    def links(self) -> list[dict[str, MetricValue]] | None:
        """One dict per link direction of a ``[[flows]]`` scenario (``None`` otherwise)."""
        return None if self.network is None else self.network["links"]

    @property
    def members(self) -> list[dict[str, MetricValue]] | None:
        """One dict per 802.11 DCF member (access point, stations) of a ``[[flows]]`` scenario
        with DCF cells: data rate, attempts, collisions, retries, drops, access delays, airtime
        share, the access point's airtime share towards the station and its packets' mean wait
        in the access point's queue, ``ap_queue_wait_mean_ms`` (empty without DCF
        cells, ``None`` for a chain)."""
        return None if self.network is None else self.network.get("members", [])

    @property
    def aggregate(self) -> dict[str, MetricValue] | None:
        """Aggregate goodput, Jain's index, ... of a ``[[flows]]`` scenario (``None`` otherwise)."""
        return None if self.network is None else self.network["aggregate"]

    def __getattr__(self, name: str) -> MetricValue:
        # Only called when normal lookup fails; guard the slots against recursion (pickling).
        if name.startswith("_") or name in RunResult.__slots__:
            raise AttributeError(name)
        try:
            return self.metrics[name]
        except KeyError:
            raise AttributeError(f"RunResult has no metric {name!r}") from None

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.metrics))

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.metrics, self.trace, self.pcap, self.trace_csv, self.network)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        # Shorter states come from versions without pcap files (2), trace CSV files (3) or
        # per-flow results (4).
        self.metrics, self.trace = state[0], state[1]
        self.pcap = state[2] if len(state) > 2 else None
        self.trace_csv = state[3] if len(state) > 3 else None
        self.network = state[4] if len(state) > 4 else None

    def to_dict(self, *, trace: bool = False) -> dict[str, Any]:
        """The metrics as a JSON-ready dict (non-finite floats become ``None``).

        With ``trace=True`` and a traced run, the trace is added under ``"trace"`` as lists.
        """
        out: dict[str, Any] = {k: _jsonable(v) for k, v in self.metrics.items()}
        if self.network is not None:
            out["flows"] = [{k: _jsonable(v) for k, v in f.items()} for f in self.network["flows"]]
            out["links"] = [{k: _jsonable(v) for k, v in x.items()} for x in self.network["links"]]
            if self.network.get("members"):
                out["members"] = [
                    {k: _jsonable(v) for k, v in x.items()} for x in self.network["members"]
                ]
            out["aggregate"] = {k: _jsonable(v) for k, v in self.network["aggregate"].items()}
        if trace and self.trace is not None:
            out["trace"] = {
                table: {col: _column_list(values) for col, values in cols.items()}
                for table, cols in self.trace.items()
            }
        return out

    def trace_frame(self, table: str) -> pd.DataFrame:
        """One trace table as a :class:`pandas.DataFrame` (requires a traced run)."""
        import pandas as pd

        if self.trace is None:
            raise ValueError("this run was not traced: pass trace=True to run()")
        if table not in self.trace:
            known = ", ".join(self.trace) or "none"
            raise KeyError(f"no trace table {table!r} (tables: {known})")
        frame: pd.DataFrame = pd.DataFrame(self.trace[table])
        return frame

    def write_trace_csv(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write each trace table to ``directory/<table>_seed<seed>.csv``; returns the paths.

        The directory is created if needed. Floats are written with full precision. The paths
        are also kept in :attr:`trace_csv`.
        """
        if self.trace is None:
            raise ValueError("this run was not traced: pass trace=True to run()")
        from pathlib import Path

        out = Path(directory)
        written = []
        try:
            out.mkdir(parents=True, exist_ok=True)
            for table, columns in self.trace.items():
                path = out / f"{table}_seed{self.metrics.get('seed', 0)}.csv"
                _write_csv(path, columns)
                written.append(path)
        except OSError as exc:
            target = exc.filename or out
            raise LossylinkIOError(f"cannot write {target}: {exc.strerror or exc}") from None
        self.trace_csv = written
        return written

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunResult):
            return NotImplemented
        return (
            self.metrics == other.metrics
            and _trace_equal(self.trace, other.trace)
            and repr(self.network) == repr(other.network)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        # A [[flows]] run's metrics are its first flow's: the repr shows the whole network's.
        keys = _REPR_KEYS if self.network is None else _NETWORK_REPR_KEYS
        shown = [f"{k}={_short(self.metrics[k])}" for k in keys if k in self.metrics]
        if self.network is not None:
            agg = self.network["aggregate"]
            shown.append(f"flows={len(self.network['flows'])}")
            shown.append(f"aggregate_goodput_mbps={_short(agg['aggregate_goodput_mbps'])}")
            shown.append(f"jain_index={_short(agg['jain_index'])}")
        if self.trace is not None:
            tables = ", ".join(f"{name}[{_table_len(cols)}]" for name, cols in self.trace.items())
            shown.append(f"trace=<{tables}>")
        return clip(f"RunResult({', '.join(shown)})")

    def _repr_html_(self) -> str:
        """A two-column HTML table of the headline metrics and the trace tables."""
        m = self.metrics
        if self.network is None:
            rows: list[tuple[str, object]] = [(k, m[k]) for k in _HTML_KEYS if k in m]
        else:
            # A [[flows]] run's metrics are its first flow's: show the whole network's.
            agg = self.network["aggregate"]
            rows = [(k, m[k]) for k in _NETWORK_REPR_KEYS if k in m]
            rows.append(("flows", len(self.network["flows"])))
            rows += [(k, agg[k]) for k in ("aggregate_goodput_mbps", "jain_index") if k in agg]
            rows.append(("per flow", ".flows, results_frame(..., per_flow=True)"))
        if self.trace is not None:
            rows.append(("trace", ", ".join(self.trace)))
        rows.append(("metrics", f"{len(m)} (see .metrics)"))
        return clip(html_table(rows, caption="RunResult"))


def results_frame(results: Iterable[RunResult], *, per_flow: bool = False) -> pd.DataFrame:
    """One row per result, one column per metric, in the facade's key order.

    A run of a scenario with ``[[flows]]`` (whose metrics are its first flow's) also gets the
    whole network's columns, as a sweep's results file has them, right after its scheme, preset
    and seed: ``agg.<key>`` for the aggregate (``agg.aggregate_goodput_mbps``,
    ``agg.jain_index``, ...) and ``flow.<name>.<key>`` for each flow's goodput, bytes, time and
    retransmissions. With ``per_flow=True`` the frame has one row per flow of each run instead:
    ``run`` (the result's position), ``seed``, then every entry of the flow's row
    (:attr:`RunResult.flows`).
    """
    import pandas as pd

    if per_flow:
        return _flow_rows(list(results))
    rows = []
    for r in results:
        if r.network is None:
            rows.append(r.metrics)
            continue
        from lossylink.sweeps.executors import network_columns

        head = {k: r.metrics[k] for k in _NETWORK_REPR_KEYS if k in r.metrics}
        rows.append({**head, **network_columns(r.network), **r.metrics})
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    frame: pd.DataFrame = pd.DataFrame.from_records(rows, columns=list(columns))
    return frame


def _flow_rows(results: list[RunResult]) -> pd.DataFrame:
    """One row per flow of each result (see :func:`results_frame`)."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for i, r in enumerate(results):
        if r.flows is None:
            raise ValueError(
                f"results[{i}] is a single-flow chain run: per_flow needs a scenario with [[flows]]"
            )
        for f in r.flows:
            rows.append({"run": i, "seed": r.metrics.get("seed"), **f})
    columns: dict[str, None] = {"run": None, "seed": None}
    for row in rows:
        columns.update(dict.fromkeys(row))
    frame: pd.DataFrame = pd.DataFrame.from_records(rows, columns=list(columns))
    return frame


def _paths(paths: Iterable[str | os.PathLike[str]] | None) -> list[Path] | None:
    if paths is None:
        return None
    from pathlib import Path

    return [Path(p) for p in paths]


def _jsonable(value: MetricValue) -> MetricValue | None:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _column_list(values: TraceColumn) -> list[Any]:
    tolist = getattr(values, "tolist", None)  # a numpy array, without importing numpy
    return tolist() if callable(tolist) else list(values)


def _table_len(columns: Mapping[str, TraceColumn]) -> int:
    return max((len(v) for v in columns.values()), default=0)


def _short(value: MetricValue) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return repr(value)


def _trace_equal(a: Trace | None, b: Trace | None) -> bool:
    if a is None or b is None:
        return a is b
    if a.keys() != b.keys():
        return False
    for table, cols in a.items():
        other = b[table]
        if cols.keys() != other.keys():
            return False
        import numpy as np

        if not all(np.array_equal(np.asarray(cols[c]), np.asarray(other[c])) for c in cols):
            return False
    return True


def _write_csv(path: Path, columns: Mapping[str, TraceColumn]) -> None:
    names = list(columns)
    lists = [_column_list(columns[n]) for n in names]
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(names)
        writer.writerows(zip(*lists, strict=True))
