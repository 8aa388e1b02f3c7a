"""Terminal output with rich: the per-seed run table with mean and 95 % CI rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console
from rich.table import Table

from lossylink.result import RunResult
from lossylink.stats import summarize


@dataclass(frozen=True)
class Column:
    """One displayed metric: its key, header and number format."""

    key: str
    header: str
    fmt: str


# The headline metrics shown per seed (all metrics are in `--json`); absent keys are skipped.
RUN_COLUMNS = (
    Column("throughput_mbps", "Mb/s", ".4g"),
    Column("wired_goodput_pct", "wired\ngoodput %", ".1f"),
    Column("wireless_goodput_pct", "wireless\ngoodput %", ".1f"),
    Column("completion_s", "time\ns", ".2f"),
    Column("sender_timeouts", "time-\nouts", "d"),
    Column("sender_fast_retransmits", "fast\nrexmits", "d"),
    Column("local_retransmissions", "local\nrexmits", "d"),
    Column("bs_queue_drops", "BS queue\ndrops", "d"),
)


def make_console(*, stderr: bool = False) -> Console:
    """A console that does not wrap tables when writing to a pipe or file."""
    console = Console(highlight=False, stderr=stderr)
    if not console.is_terminal:
        console.width = max(console.width, 120)
    return console


def size_text(nbytes: object) -> str:
    """``65536`` -> ``"64 KiB"``; exact binary multiples only, else bytes."""
    if not isinstance(nbytes, int) or isinstance(nbytes, bool):
        return str(nbytes)
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes and nbytes % factor == 0:
            return f"{nbytes // factor} {unit}"
    return f"{nbytes} B"


def run_title(first: RunResult) -> str:
    """A one-line description of the scenario behind a run (from its metrics)."""
    m = first.metrics
    parts = [str(m.get("preset", "?")), f"scheme {m.get('scheme', '?')}"]
    if "error_every_bytes" in m:
        every = m["error_every_bytes"]
        parts.append("no errors" if every == 0 else f"1 error / {size_text(every)}")
    if "buffer_bytes" in m:
        parts.append(f"buffer {size_text(m['buffer_bytes'])}")
    if "transfer_bytes" in m:
        parts.append(f"transfer {size_text(m['transfer_bytes'])}")
    return " · ".join(parts)


def run_table(results: Sequence[RunResult]) -> Table:
    """One row per seed; for more than one seed, then the mean and the 95 % CI half-width."""
    if not results:
        raise ValueError("no results to show")
    columns = [c for c in RUN_COLUMNS if c.key in results[0].metrics and _applies(c, results)]
    table = Table(title=run_title(results[0]), box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("seed", justify="right")
    for col in columns:
        table.add_column(col.header, justify="right")
    for i, r in enumerate(results):
        cells = [_fmt(r.metrics.get(c.key), c.fmt) for c in columns]
        table.add_row(str(r.metrics.get("seed", "")), *cells, end_section=i == len(results) - 1)
    if len(results) > 1:
        summaries = [summarize([float(r.metrics[c.key]) for r in results]) for c in columns]
        means = [_fmt(s.mean, _float_fmt(c.fmt)) for s, c in zip(summaries, columns, strict=True)]
        table.add_row("mean", *means, style="bold")
        cis = [
            "±" + _fmt(s.half_width, _float_fmt(c.fmt))
            for s, c in zip(summaries, columns, strict=True)
        ]
        table.add_row("95% CI", *cis, style="dim")
    return table


def _applies(col: Column, results: Sequence[RunResult]) -> bool:
    """Whether a column means something for these runs: the wireless goodput only where a
    wireless hop carried data (the hiccup testbed has none)."""
    if col.key == "wireless_goodput_pct":
        return any(r.metrics.get("wireless_data_frames", 1) != 0 for r in results)
    return True


def _float_fmt(fmt: str) -> str:
    return ".1f" if fmt == "d" else fmt


def _fmt(value: object, fmt: str) -> str:
    if value is None:
        return "–"
    try:
        return format(value, fmt)
    except (TypeError, ValueError):
        return str(value)


def flows_table(results: Sequence[RunResult]) -> Table | None:
    """For a ``[[flows]]`` scenario: one row per flow (the mean over the seeds, with the 95 %
    CI half-width of the goodput for more than one seed), then the aggregate goodput and Jain's
    index. ``None`` for single-flow chain runs."""
    if not results or results[0].flows is None:
        return None
    first = results[0].flows
    title = f"{len(first)} flows · {len(results)} seed{'s' if len(results) != 1 else ''}"
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left")
    for header in ("flow", "scheme", "path", "goodput Mb/s", "timeouts", "fast rexmits", "done s"):
        table.add_column(
            header, justify="left" if header in ("flow", "scheme", "path") else "right"
        )

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else float("nan")

    for i, f in enumerate(first):
        rows = [r.flows[i] for r in results if r.flows is not None]
        goodputs = [float(x["goodput_mbps"]) for x in rows]
        g = _fmt(mean(goodputs), ".4g")
        if len(goodputs) > 1:
            g += " ±" + _fmt(summarize(goodputs).half_width, ".2g")
        done = [float(x["completion_s"]) for x in rows]
        table.add_row(
            str(f["flow"]),
            str(f["scheme"]),
            f"{f['from']} → {f['to']}",
            g,
            _fmt(mean([float(x["sender_timeouts"]) for x in rows]), ".3g"),
            _fmt(mean([float(x["sender_fast_retransmits"]) for x in rows]), ".3g"),
            "–" if any(d != d for d in done) else _fmt(mean(done), ".2f"),
        )
    aggs = [r.aggregate for r in results if r.aggregate is not None]
    total = mean([float(a["aggregate_goodput_mbps"]) for a in aggs])
    jain = mean([float(a["jain_index"]) for a in aggs])
    table.add_row("all", "", "", _fmt(total, ".4g"), "", "", "", style="bold", end_section=True)
    table.caption = f"aggregate goodput {total:.4g} Mb/s · Jain's fairness index {jain:.3f}"
    table.caption_justify = "left"
    return table
