"""``lossylink validate linux``: the simulated senders beside the real kernel's on a grid of
paths (docs/validation.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lossylink.cli import PROG


@click.group("validate", short_help="Check the simulated senders against the real kernel (root).")
def validate_cmd() -> None:
    """Check lossylink's sender models against a real TCP implementation."""


@validate_cmd.command("linux")
@click.option(
    "--grid",
    "axes",
    multiple=True,
    metavar="AXIS=V1,V2,...",
    help="Replace one axis of the default grid (repeatable): rate_mbps (2,10,50), rtt_ms "
    "(20,100), queue_bdp (0.5,2: the bottleneck queue in bandwidth-delay products), loss "
    "(0,0.01: random loss of data packets on the bottleneck).",
)
@click.option(
    "--cc",
    "ccs",
    multiple=True,
    type=click.Choice(["reno", "cubic", "bbr"]),
    help="Kernel congestion controls to check (repeatable) [reno, cubic, bbr].",
)
@click.option(
    "--seeds",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Seeds per point (the spread of the kernel's runs over them is its noise).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("validate-linux"),
    show_default=True,
    metavar="DIR",
    help="Where validate.csv, validate.json and report.html go.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.1, 600),
    default=8.0,
    show_default=True,
    help="Each transfer lasts about this long at the rate the path allows (the bottleneck, or "
    "with random loss the Mathis bound if lower; at least 1 MiB).",
)
@click.option("--dry-run", is_flag=True, help="Print the points and the estimate; run nothing.")
def linux_cmd(
    axes: tuple[str, ...],
    ccs: tuple[str, ...],
    seeds: int,
    out: Path,
    seconds: float,
    dry_run: bool,
) -> None:
    """Run every point of the grid with each kernel congestion control twice, emulated (the
    real kernel's TCP through the links in real time, as `lossylink emulate`) and simulated
    (reno: e2e-linux+reno, cubic: e2e-linux, bbr: e2e-linux+bbr), with the same seeds,
    and tabulate goodput, queue drops, retransmitted segments, timeouts and recoveries side by
    side, worst points first. The emulated half needs root and runs points one at a time in
    real time: the estimate is printed before the start."""
    from lossylink import _core
    from lossylink.errors import LossylinkIOError
    from lossylink.sweeps.grid import merge_axes, parse_axis
    from lossylink.validate import (
        estimate_seconds,
        grid_points,
        require_privileges,
        run_point,
        summarise,
        verdict,
    )
    from lossylink.validate_report import write_report, write_table
    from lossylink.writable import ensure_writable_dir

    points = grid_points(merge_axes(parse_axis(a) for a in axes), seconds)
    chosen = list(dict.fromkeys(ccs)) or ["reno", "cubic", "bbr"]
    runs = len(points) * len(chosen) * seeds
    minutes = estimate_seconds(points, chosen, seeds) / 60
    click.echo(
        f"{len(points)} points x {len(chosen)} congestion controls x {seeds} seeds = {runs} "
        f"emulated runs, about {minutes:.0f} minutes of real time (plus the simulations)"
    )
    if dry_run:
        for p in points:
            click.echo(f"  {p.label}: queue {p.queue_packets} packets, {p.transfer_bytes} bytes")
        return
    require_privileges()
    try:
        ensure_writable_dir(out)
    except LossylinkIOError as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None
    rows = []
    interrupted = False
    jobs = [(p, cc, seed) for p in points for cc in chosen for seed in range(1, seeds + 1)]
    try:
        for k, (p, cc, seed) in enumerate(jobs, 1):
            row = run_point(p, cc, seed, _core.emulate)
            if row.emulated.get("interrupted"):
                raise KeyboardInterrupt
            rows.append(row)
            emu = row.emulated.get("throughput_mbps", 0.0)
            sim = row.simulated.get("throughput_mbps", 0.0)
            late = " (the emulator fell behind real time)" if row.late_warning else ""
            click.echo(
                f"[{k}/{runs}] {p.label}, {cc}, seed {seed}: kernel {emu:.3f} Mb/s, "
                f"model {sim:.3f} Mb/s{late}"
            )
    except KeyboardInterrupt:
        # What has run is kept: the files below hold the finished runs.
        interrupted = True
        click.echo(f"{PROG}: interrupted after {len(rows)} of {runs} runs", err=True)
    if not rows:
        sys.exit(130)
    records = summarise(rows)
    verdicts = verdict(records)
    files = [*write_table(records, out), write_report(records, verdicts, rows, out)]
    for cc, v in verdicts.items():
        click.echo(
            f"{cc}: median |goodput ratio - 1| {v['goodput_median_off'] * 100:.1f} %, worst "
            f"{v['goodput_worst_off'] * 100:.1f} %, {v['beyond_15pct']:.0f} of {v['points']:.0f} "
            f"points beyond 15 %; drops {v['drops_median_off'] * 100:.1f} %, retransmissions "
            f"{v['retransmissions_median_off'] * 100:.1f} % at the median"
        )
    click.echo(f"{PROG}: wrote " + ", ".join(str(f) for f in files))
    if interrupted:
        sys.exit(130)
