"""``lossylink run``: one scenario over one or more seeds."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from lossylink.cli import (
    NonEmptyPath,
    config_option,
    preset_option,
    seed_option,
    seeds_option,
    set_option,
)

if TYPE_CHECKING:
    from pathlib import Path


# The flags that set one field each, named like the scenario aliases; applied in this order.
_FIELD_FLAGS = ("scheme", "error_every", "ber", "loss", "buffer", "transfer")


@click.command("run", short_help="Run a scenario over one or more seeds.")
@preset_option("Start from this preset [lan].")
@config_option("Start from a scenario file (.toml or .json) instead of a preset.")
@click.option(
    "--scheme",
    metavar="NAME",
    help=(
        "Scheme, optionally with + modifiers, e.g. e2e-newreno+cubic+ecn (`lossylink schemes`"
        " lists the schemes, their aliases and every modifier)."
    ),
)
@click.option("--error-every", metavar="SIZE", help="Mean bytes between wireless errors; 0: none.")
@click.option("--ber", metavar="FLOAT", help="Wireless bit-error rate; 0: none.")
@click.option("--loss", metavar="P", help="Wireless frame loss probability.")
@click.option("--buffer", metavar="SIZE", help="Socket buffer, e.g. 32KiB.")
@click.option("--transfer", metavar="SIZE", help="Bytes to transfer, e.g. 4MiB.")
@click.option(
    "--eifel",
    is_flag=True,
    help="Turn on Eifel spurious-retransmission detection (tcp.eifel=dissertation; Ludwig2000).",
)
@set_option("Set any field by alias or dotted path (repeatable), e.g. hops.1.forward.queue=20.")
@seed_option("First seed.")
@seeds_option(1, "Number of seeds: S .. S+N-1.")
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON object (metrics) per seed per line."
)
@click.option(
    "--csv",
    "as_csv",
    is_flag=True,
    help="The table as CSV on stdout: one row per flow and seed for a scenario with [[flows]], "
    "one row per seed (every metric) otherwise.",
)
@click.option(
    "--trace-csv",
    type=NonEmptyPath(file_okay=False),
    metavar="DIR",
    help="Trace the runs and write each trace table as CSV into DIR.",
)
@click.option(
    "--save",
    type=NonEmptyPath(file_okay=False),
    metavar="DIR",
    help="Trace the runs and save each (metrics.json, scenario.toml, trace tables) into DIR "
    "(DIR/seed<S> for several seeds), for `lossylink plot`. A run saved there before is "
    "replaced (its files removed; other files are left alone).",
)
@click.option(
    "--trace-format",
    type=click.Choice(["parquet", "csv"]),
    default="parquet",
    show_default=True,
    help="File format of the trace tables written by --save.",
)
@click.option(
    "--pcap",
    type=NonEmptyPath(file_okay=False),
    metavar="DIR",
    help="Write one pcap file per link direction (hop<i>-<name>-<forward|reverse>.pcap, "
    "Ethernet/IPv4/TCP with options, simulated times) into DIR (DIR/seed<S> for several seeds); "
    "on an 802.11 DCF, 802.11 frames (MAC retries, MAC ACKs) and <name>-ip.pcap beside; "
    "index.json and index.csv list the files, their nodes, counts and times.",
)
@click.option(
    "--quiet",
    is_flag=True,
    help="No progress line (a single run longer than 2 s shows simulated time, events/s and "
    "the time left on stderr when it is a terminal).",
)
def run_cmd(
    preset_name: str | None,
    config: Path | None,
    assignments: list[tuple[str, str]],
    eifel: bool,
    seed: int,
    seeds: int,
    as_json: bool,
    as_csv: bool,
    trace_csv: Path | None,
    save: Path | None,
    trace_format: str,
    pcap: Path | None,
    quiet: bool,
    **fields: str | None,
) -> None:
    """Run a scenario for seeds S .. S+N-1 (see --seed, --seeds).

    The scenario is the --config file or the preset, then the field flags, then --eifel, then
    each --set in order. Hiccups (delay spikes, reordering) go in with --set, e.g.
    --set 'hops.0.forward.hiccups=[{kind="hold",at="30s",duration="13s"}]'.
    """
    from lossylink.runner import run_seeds
    from lossylink.scenario import Scenario
    from lossylink.seeds import seed_range

    if preset_name is not None and config is not None:
        raise click.UsageError("--preset and --config are mutually exclusive")
    edits = [(alias, fields[alias]) for alias in _FIELD_FLAGS if fields.get(alias) is not None]
    if eifel:
        edits.append(("tcp.eifel", "dissertation"))
    # One validation at the end: settings that go together may come in any order, and a
    # --config file invalid alone can be repaired by them.
    edits = [*edits, *assignments]
    scenario = (
        Scenario.load(config, edits)
        if config is not None
        else Scenario.preset(preset_name or "lan").update(edits)
    )

    if as_json and as_csv:
        raise click.UsageError("--json and --csv are mutually exclusive")
    traced = trace_csv is not None or save is not None
    seed_list = seed_range(seeds, seed)
    if len(seed_list) == 1 and not quiet and sys.stderr.isatty():
        from lossylink.live import run_live

        results = [run_live(scenario, seed_list[0], trace=traced, pcap=pcap, stream=sys.stderr)]
    else:
        results = run_seeds(scenario, seed_list, trace=traced, pcap=pcap)
    written = [p for r in results for p in r.write_trace_csv(trace_csv)] if trace_csv else []
    if save is not None:
        from lossylink.saved import clear_saved_runs, save_run

        clear_saved_runs(save)  # an earlier run saved here is replaced, never mixed in
        for r in results:
            target = save if len(results) == 1 else save / f"seed{r.metrics.get('seed', 0)}"
            save_run(r, target, scenario=scenario, trace_format=trace_format)

    if as_json:
        for r in results:
            click.echo(json.dumps(r.to_dict()))
        return
    if as_csv:
        from lossylink.render import flows_csv

        click.echo(flows_csv(results), nl=False)
        return
    from lossylink.console import make_console
    from lossylink.render import flows_table, run_table

    console = make_console()
    per_flow = flows_table(results, width=console.width)
    if per_flow is not None:
        console.print(per_flow)
    else:
        label = scenario.scheme
        eifel_on = "+eifel" in label or (scenario.to_dict().get("tcp") or {}).get("eifel") not in (
            None,
            "off",
        )
        if eifel_on and "+eifel" not in label:
            label += "+eifel"  # --eifel / tcp.eifel: the same scheme as --scheme NAME+eifel
        console.print(run_table(results, width=console.width, scheme=label, eifel=eifel_on))
    if written:
        console.print(f"trace: wrote {len(written)} CSV files to {trace_csv}")
    if save is not None:
        console.print(f"saved {len(results)} run(s) to {save}")
    if pcap is not None:
        files = sum(len(r.pcap or []) for r in results)
        where = "index.json, index.csv" if len(results) == 1 else "seed<S>/index.json, index.csv"
        console.print(f"pcap: wrote {files} files to {pcap} (listed in {where})")
