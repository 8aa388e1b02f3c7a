"""``lossylink plot``: a figure from a saved run, a results.csv or a sweep."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from lossylink.cli import NonEmptyPath

if TYPE_CHECKING:
    from pathlib import Path


@click.command("plot", short_help="Draw a figure from a saved run, a results.csv or a sweep.")
@click.argument("source", type=NonEmptyPath(exists=True))
@click.option(
    "--kind",
    type=click.Choice(["seq", "cwnd", "timeline", "bars", "sweep", "burst"]),
    required=True,
    help="seq, cwnd, timeline: from a saved run (`run --save`, `reproduce` runs/*); "
    "bars, sweep, burst: from a balakrishnan97 reproduction's results.csv; "
    "sweep: also from a `lossylink sweep` results file (.parquet).",
)
@click.option(
    "--out",
    "out_file",
    type=NonEmptyPath(dir_okay=False),
    required=True,
    metavar="FILE",
    help="Output file, .png or .svg.",
)
@click.option(
    "--table",
    type=click.Choice(["table2", "table3", "table4"]),
    default="table3",
    show_default=True,
    help="For --kind bars: which table's schemes.",
)
@click.option("--reference", type=int, metavar="BYTES", help="For --kind cwnd: a dashed line.")
@click.option(
    "--metric",
    metavar="NAME",
    help="For --kind sweep on a .parquet: the metric on the y axis [agg.aggregate_goodput_mbps "
    "for a scenario with [[flows]], else throughput_mbps; with --per-flow a flow column, "
    "goodput_mbps].",
)
@click.option(
    "--per-flow",
    is_flag=True,
    help="For --kind sweep on a .parquet of a scenario with [[flows]]: one line per flow.",
)
@click.option(
    "--flow",
    metavar="NAME",
    help="For seq, cwnd, timeline of a run with [[flows]]: only this flow [every flow, one "
    "colour each].",
)
@click.option(
    "--x", "x_axis", metavar="AXIS", help="For --kind sweep on a .parquet: the grid axis on x "
    "[the one with the most values]."
)  # fmt: skip
@click.option(
    "--by", metavar="AXIS", help="For --kind sweep on a .parquet: one line per value of this "
    "grid axis [every other axis that varies]."
)  # fmt: skip
def plot_cmd(
    source: Path,
    kind: str,
    out_file: Path,
    table: str,
    reference: int | None,
    metric: str | None,
    per_flow: bool,
    flow: str | None,
    x_axis: str | None,
    by: str | None,
) -> None:
    """Draw a figure from SOURCE: a saved run directory, a results.csv or a sweep's .parquet."""
    from lossylink import plots
    from lossylink.figures import figure_for

    if flow is not None and kind not in plots.KINDS:
        raise click.BadParameter(f"only for --kind {', '.join(plots.KINDS)}", param_hint="--flow")
    if per_flow and kind != "sweep":
        raise click.BadParameter("only for --kind sweep", param_hint="--per-flow")
    fmt = out_file.suffix.lower().lstrip(".")
    if fmt not in plots.FORMATS:
        raise click.BadParameter("the file must end in .png or .svg", param_hint="--out")
    fig = figure_for(
        source,
        kind,
        table=table,
        reference=reference,
        metric=metric,
        x=x_axis,
        by=by,
        per_flow=per_flow,
        flow=flow,
    )
    out_file.parent.mkdir(parents=True, exist_ok=True)
    plots.save_figure(fig, out_file.with_suffix(""), formats=[fmt])
    click.echo(f"wrote {out_file}")
