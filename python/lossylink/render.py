"""Terminal output with rich: the per-seed run table with mean and 95 % CI rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table

from lossylink.result import RunResult
from lossylink.stats import summarize


@dataclass(frozen=True)
class Column:
    """One displayed metric: its key, header, whether it counts events, and its priority
    (higher stays longer on a narrow terminal, :mod:`lossylink.tables`)."""

    key: str
    header: str
    count: bool
    priority: int


# The headline metrics shown per seed (all metrics are in `--json`); absent keys are skipped.
RUN_COLUMNS = (
    Column("throughput_mbps", "Mb/s", False, 90),
    Column("wired_goodput_pct", "wired\ngoodput %", False, 30),
    Column("wireless_goodput_pct", "wireless\ngoodput %", False, 50),
    Column("completion_s", "time\ns", False, 80),
    Column("sender_timeouts", "time-\nouts", True, 70),
    Column("sender_spurious_timeouts", "spurious\ntimeouts", True, 65),
    Column("sender_fast_retransmits", "fast\nrexmits", True, 60),
    Column("wireless_timeouts", "wireless\nleg t/o", True, 68),
    Column("wireless_fast_retransmits", "wireless\nleg fast", True, 58),
    Column("local_retransmissions", "local\nrexmits", True, 40),
    Column("bs_queue_drops", "BS queue\ndrops", True, 20),
)


def size_text(nbytes: object) -> str:
    """``65536`` -> ``"64 KiB"``; exact binary multiples only, else bytes."""
    if not isinstance(nbytes, int) or isinstance(nbytes, bool):
        return str(nbytes)
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes and nbytes % factor == 0:
            return f"{nbytes // factor} {unit}"
    return f"{nbytes} B"


def run_title(first: RunResult, scheme: str | None = None) -> str:
    """A one-line description of the scenario behind a run (from its metrics); ``scheme``
    replaces the metrics' scheme name (e.g. ``e2e+eifel`` for a run with ``--eifel``)."""
    m = first.metrics
    parts = [str(m.get("preset", "?")), f"scheme {scheme or m.get('scheme', '?')}"]
    if "error_every_bytes" in m:
        every = m["error_every_bytes"]
        parts.append("no errors" if every == 0 else f"1 error / {size_text(every)}")
    if "buffer_bytes" in m:
        parts.append(f"buffer {size_text(m['buffer_bytes'])}")
    if "transfer_bytes" in m:
        parts.append(f"transfer {size_text(m['transfer_bytes'])}")
    return " · ".join(parts)


def run_table(
    results: Sequence[RunResult],
    *,
    width: int = 120,
    scheme: str | None = None,
    eifel: bool = False,
) -> Table:
    """One row per seed; for more than one seed, then the mean and the 95 % CI half-width.

    The table fits ``width`` columns (:func:`lossylink.tables.fit_table`). ``eifel`` adds the
    spurious-timeout column; split-connection runs get the wireless leg's timeouts and fast
    retransmits beside the fixed host's.
    """
    from lossylink.tables import TableColumn, decimals, fit_table, number

    if not results:
        raise ValueError("no results to show")
    columns = [
        c for c in RUN_COLUMNS if c.key in results[0].metrics and _applies(c, results, eifel)
    ]
    several = len(results) > 1
    table_columns = [TableColumn("seed", [str(r.metrics.get("seed", "")) for r in results], 100)]
    if several:
        table_columns[0].cells += ["mean", "95% CI"]
    for col in columns:
        values = [_float(r.metrics.get(col.key)) for r in results]
        summary = summarize([v for v in values if v is not None]) if several else None
        shown = [*values, *((summary.mean, summary.half_width) if summary else ())]
        # Counts: whole numbers per seed, one decimal for their mean and CI.
        places = 1 if col.count else decimals(shown)
        cells = [number(v, 0 if col.count else places) for v in values]
        if summary is not None:
            cells.append(number(summary.mean, places))
            half = summary.half_width
            cells.append("–" if half is None else "±" + number(half, places))
        table_columns.append(TableColumn(col.header, cells, col.priority))
    styles = [None] * len(results) + (["bold", "dim"] if several else [])
    return fit_table(
        table_columns,
        width=width,
        title=run_title(results[0], scheme),
        row_styles=styles,
        sections=[len(results) - 1] if several else [],
    )


def flows_csv(results: Sequence[RunResult]) -> str:
    """The per-flow table of a ``[[flows]]`` run as CSV: one row per flow and seed, every entry
    of the flow's row (:attr:`RunResult.flows`) after the seed; or, for single-flow runs, one
    row per seed with every metric. Floats at full precision."""
    import csv
    import io

    if results and results[0].flows is not None:
        rows = [{"seed": r.metrics.get("seed"), **f} for r in results for f in r.flows or []]
    else:
        rows = [dict(r.metrics) for r in results]
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(names), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _float(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _applies(col: Column, results: Sequence[RunResult], eifel: bool) -> bool:
    """Whether a column means something for these runs: the wireless goodput only where a
    wireless hop carried data (the hiccup testbed has none), the wireless leg's counts only
    for split connections, the spurious timeouts only with Eifel on (or any counted)."""
    if col.key == "wireless_goodput_pct":
        return any(r.metrics.get("wireless_data_frames", 1) != 0 for r in results)
    if col.key in ("wireless_timeouts", "wireless_fast_retransmits"):
        return any(r.metrics.get("wireless_bytes_sent", 0) for r in results)
    if col.key == "sender_spurious_timeouts":
        return eifel or any(r.metrics.get(col.key, 0) for r in results)
    return True


def flows_table(results: Sequence[RunResult], width: int = 80) -> Table | None:
    """For a ``[[flows]]`` scenario: one row per flow (the mean over the seeds, with the 95 %
    CI half-width of the goodput for more than one seed), an ``all`` row with the aggregate
    goodput, and Jain's index in the caption; fitted to ``width`` like the run table.
    ``None`` for single-flow chain runs."""
    from lossylink.tables import TableColumn, decimals, fit_table, number

    if not results or results[0].flows is None:
        return None
    first = results[0].flows

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else float("nan")

    def per_flow(key: str) -> list[list[float]]:
        return [[float(r.flows[i][key]) for r in results if r.flows] for i in range(len(first))]

    goodput = per_flow("goodput_mbps")
    aggs = [r.aggregate for r in results if r.aggregate is not None]
    total = mean([float(a["aggregate_goodput_mbps"]) for a in aggs])
    jain = mean([float(a["jain_index"]) for a in aggs])
    means = [mean(g) for g in goodput]
    places = decimals([*means, total])
    totals = [float(a["aggregate_goodput_mbps"]) for a in aggs]
    all_cell = number(total, places)
    aggregate = f"{total:.4g}"
    if len(totals) > 1:
        # The aggregate's 95 % CI over the seeds, in the all row and the title.
        all_cell += " ±" + number(summarize(totals).half_width, places)
        aggregate = all_cell
    g_cells = []
    for g, m in zip(goodput, means, strict=True):
        cell = number(m, places)
        if len(g) > 1:
            cell += " ±" + number(summarize(g).half_width, places)
        g_cells.append(cell)
    counts = {
        k: [mean(v) for v in per_flow(k)] for k in ("sender_timeouts", "sender_fast_retransmits")
    }
    done = [mean(v) for v in per_flow("completion_s")]

    def count_places(values: list[float]) -> int:
        # Whole numbers for one seed; one decimal for means over seeds.
        return 0 if all(float(v).is_integer() for v in values) else 1

    cols = [
        TableColumn("flow", [str(f["flow"]) for f in first] + ["all"], 100, "left"),
        TableColumn("scheme", [str(f["scheme"]) for f in first] + [""], 60, "left"),
        TableColumn("path", [f"{f['from']} → {f['to']}" for f in first] + [""], 30, "left"),
        TableColumn("goodput\nMb/s", [*g_cells, all_cell], 90),
        TableColumn(
            "time-\nouts",
            [number(v, count_places(counts["sender_timeouts"])) for v in counts["sender_timeouts"]]
            + [""],
            50,
        ),
        TableColumn(
            "fast\nrexmits",
            [
                number(v, count_places(counts["sender_fast_retransmits"]))
                for v in counts["sender_fast_retransmits"]
            ]
            + [""],
            40,
        ),
        TableColumn("done\ns", [number(d, decimals(done)) for d in done] + [""], 20),
    ]
    if any("pages" in f for f in first):
        # Web sessions: pages completed and their mean response time (blank for other flows).
        def web_mean(key: str, i: int) -> float:
            return mean([float(r.flows[i].get(key, "nan")) for r in results if r.flows])

        pages = [web_mean("pages", i) for i in range(len(first))]
        resp = [web_mean("response_mean_s", i) for i in range(len(first))]
        agg_resp = mean([float(a.get("response_mean_s", "nan")) for a in aggs])
        cols.append(
            TableColumn(
                "pages",
                ["" if p != p else number(p, count_places([p])) for p in pages] + [""],
                45,
            )
        )
        cols.append(
            TableColumn(
                "page\nresp s",
                ["" if v != v else number(v, 3) for v in resp] + [number(agg_resp, 3)],
                45,
            )
        )
    seeds = f"{len(results)} seed{'s' if len(results) != 1 else ''}"
    title = f"{len(first)} flows · {seeds} · aggregate {aggregate} Mb/s · Jain's index {jain:.3f}"
    styles: list[str | None] = [None] * len(first) + ["bold"]
    return fit_table(cols, width=width, title=title, row_styles=styles, sections=[len(first) - 1])
