"""The ``lossylink`` command line.

Bad input (unknown names, malformed values or units, unreadable files, bad options) exits with
status 2 and one line on stderr, ``lossylink: error: <message>``; no traceback. Genuine bugs are
not caught and surface with their traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from lossylink import __version__
from lossylink._limits import MAX_SEED, MAX_SEEDS, MAX_WORKERS
from lossylink.errors import LossylinkError

# Everything else is imported inside the command that needs it, so that --help, --version,
# schemes and preset start fast (numpy, pandas, pyarrow and rich load only for runs, sweeps and
# reports). These two lists are checked against their modules by the tests.
EXECUTORS = ("seq", "pool", "dask")
"""`lossylink.sweeps.executors.EXECUTORS`."""
PAPER_NAMES = ("balakrishnan97", "ludwig2000", "buchholcz", "llelsn")
"""`lossylink.papers.PAPERS`, in order."""

PROG = "lossylink"
EXIT_BAD_INPUT = 2
#: Longest quoted user value an error line shows whole (as the Rust core: lossylink::error).
_QUOTE_MAX, _QUOTE_PREFIX = 64, 32


def _shorten_quoted(line: str) -> str:
    """``line`` with every quoted value longer than 64 characters cut to its first 32 and its
    length, so that a huge value cannot make a huge error line (the Rust core does the same to
    its own messages; click's quote the user's values too)."""
    out, i = [], 0
    while i < len(line):
        c = line[i]
        out.append(c)
        i += 1
        if c not in "'\"":
            continue
        end = line.find(c, i)
        end = len(line) if end < 0 else end
        inner = line[i:end]
        if len(inner) > _QUOTE_MAX:
            inner = f"{inner[:_QUOTE_PREFIX]}… ({len(inner)} characters)"
        out.append(inner)
        if end < len(line):
            out.append(c)
        i = end + 1
    return "".join(out)


def _fail(message: str) -> NoReturn:
    """Print the one-line error and exit with status 2."""
    one_line = _shorten_quoted(" ".join(message.split()))
    click.echo(f"{PROG}: error: {one_line}", err=True)
    sys.exit(EXIT_BAD_INPUT)


class _Group(click.Group):
    """A group whose ``main`` turns user errors into one line on stderr and exit status 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(args, prog_name or PROG, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            # Bare `lossylink` or `lossylink preset`: the help, as --help prints it.
            click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            sys.exit(0)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            _fail(exc.format_message() + hint)
        except click.ClickException as exc:
            _fail(exc.format_message())
        except LossylinkError as exc:
            _fail(str(exc))
        except OSError as exc:
            # A file or directory we could not read or write: name it, say why, no traceback.
            where = exc.filename if exc.filename is not None else "file"
            _fail(f"{where}: {exc.strerror or exc}")
        except click.Abort:
            click.echo(f"{PROG}: aborted", err=True)
            sys.exit(130)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, "-V", "--version", prog_name=PROG, message="%(prog)s %(version)s"
)
def cli() -> None:
    """lossylink: a deterministic packet-level simulator of TCP over lossy (wireless) links."""


@cli.command("schemes")
def schemes_cmd() -> None:
    """List the schemes: name, family, description, source."""
    from lossylink._core import schemes  # the registry itself: no result types, no numpy

    rows = schemes()
    name_w = max((len(s["name"]) for s in rows), default=0)
    family_w = max((len(s["family"]) for s in rows), default=0)
    for s in rows:
        click.echo(
            f"{s['name']:<{name_w}}  {s['family']:<{family_w}}  {s['description']}  [{s['source']}]"
        )


@cli.group()
def preset() -> None:
    """The shipped scenario presets."""


@preset.command("list")
def preset_list() -> None:
    """Print the preset names, one per line."""
    from lossylink.scenario import Scenario

    for name in Scenario.preset_names():
        click.echo(name)


@preset.command("show")
@click.argument("name")
def preset_show(name: str) -> None:
    """Print the TOML of preset NAME, ready to copy into a file and edit."""
    from lossylink.scenario import Scenario

    text = Scenario.preset_toml(name)
    click.echo(text, nl=not text.endswith("\n"))


class _Path(click.Path):
    """A path option that must not be empty (``--out ''`` would mean the current directory)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("must not be empty: give a file or directory name", param, ctx)
        return super().convert(value, param, ctx)


class _Name(click.ParamType):
    """A name that must not be empty (``--preset ''`` is not the default preset)."""

    name = "name"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not str(value).strip():
            self.fail("must not be empty", param, ctx)
        return str(value)


# The flags that set one field each, named like the scenario aliases; applied in this order.
_FIELD_FLAGS = ("scheme", "error_every", "ber", "loss", "buffer", "transfer")


def _parse_assignment(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> list[tuple[str, str]]:
    pairs = []
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


@cli.command("run", short_help="Run a scenario over one or more seeds.")
@click.option(
    "--preset", "preset_name", type=_Name(), metavar="NAME", help="Start from this preset [lan]."
)
@click.option(
    "--config",
    type=_Path(dir_okay=False, path_type=Path),
    help="Start from a scenario file (.toml or .json) instead of a preset.",
)
@click.option(
    "--scheme",
    metavar="NAME",
    help=(
        "Scheme (see `lossylink schemes`), optionally with modifiers: +eifel, +modern, +lt,"
        " +cubic, +prr, +rack, +frto, +bbr, +linux."
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
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_parse_assignment,
    help="Set any field by alias or dotted path (repeatable), e.g. hops.1.forward.queue=20.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=MAX_SEED),
    default=1,
    show_default=True,
    metavar="S",
    help="First seed.",
)
@click.option(
    "--seeds",
    type=click.IntRange(min=1, max=MAX_SEEDS),
    default=1,
    show_default=True,
    metavar="N",
    help="Number of seeds: S .. S+N-1.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON object (metrics) per seed per line."
)
@click.option(
    "--trace-csv",
    type=_Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Trace the runs and write each trace table as CSV into DIR.",
)
@click.option(
    "--save",
    type=_Path(file_okay=False, path_type=Path),
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
    type=_Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write one pcap file per link direction (hop<i>-<name>-<forward|reverse>.pcap, "
    "Ethernet/IPv4/TCP with options, simulated times) into DIR (DIR/seed<S> for several seeds).",
)
def run_cmd(
    preset_name: str | None,
    config: Path | None,
    assignments: list[tuple[str, str]],
    eifel: bool,
    seed: int,
    seeds: int,
    as_json: bool,
    trace_csv: Path | None,
    save: Path | None,
    trace_format: str,
    pcap: Path | None,
    **fields: str | None,
) -> None:
    """Run a scenario for seeds S .. S+N-1 (see --seed, --seeds).

    The scenario is the --config file or the preset, then the field flags, then --eifel, then
    each --set in order. Hiccups (delay spikes, reordering) go in with --set, e.g.
    --set 'hops.0.forward.hiccups=[{kind="hold",at="30s",duration="13s"}]'.
    """
    from lossylink.runner import run_seeds, seed_range
    from lossylink.scenario import Scenario

    if preset_name is not None and config is not None:
        raise click.UsageError("--preset and --config are mutually exclusive")
    scenario = (
        Scenario.load(config) if config is not None else Scenario.preset(preset_name or "lan")
    )
    for alias in _FIELD_FLAGS:
        value = fields.get(alias)
        if value is not None:
            scenario.set(alias, value)
    if eifel:
        scenario.set("tcp.eifel", "dissertation")
    for key, value in assignments:
        scenario.set(key, value)

    traced = trace_csv is not None or save is not None
    results = run_seeds(scenario, seed_range(seeds, seed), trace=traced, pcap=pcap)
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
    from lossylink.render import flows_table, make_console, run_table

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
        console.print(f"pcap: wrote {files} files to {pcap}")


@cli.command("sweep", short_help="Run a grid of scenarios over seeds; results to Parquet.")
@click.option(
    "--preset", "preset_name", type=_Name(), metavar="NAME", help="Base scenario preset [lan]."
)
@click.option(
    "--config",
    type=_Path(dir_okay=False, path_type=Path),
    help="Base scenario file (.toml or .json) instead of a preset.",
)
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_parse_assignment,
    help="Set a field of the base scenario (repeatable).",
)
@click.option(
    "--grid",
    "axes",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help="One grid axis (repeatable; the first varies slowest), e.g. scheme=e2e,e2e-newreno.",
)
@click.option(
    "--grid-file",
    type=_Path(dir_okay=False, path_type=Path),
    help="Grid axes from a TOML/JSON file: key = [values] (before the --grid axes).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=MAX_SEED),
    default=1,
    show_default=True,
    metavar="S",
    help="First seed.",
)
@click.option(
    "--seeds",
    type=click.IntRange(min=1, max=MAX_SEEDS),
    default=10,
    show_default=True,
    metavar="N",
    help="Seeds S .. S+N-1 at every grid point.",
)
@click.option(
    "--out",
    type=_Path(dir_okay=False, path_type=Path),
    required=True,
    help="Results file (Parquet); the summary goes to <stem>.summary.csv beside it.",
)
@click.option(
    "--executor",
    type=click.Choice(EXECUTORS),
    default="pool",
    show_default=True,
    help="seq: this process; pool: local processes; dask: a Dask cluster.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    metavar="N",
    help="Pool or LocalCluster size [usable cores].",
)
@click.option(
    "--scheduler", metavar="ADDR", help="Dask scheduler (tcp://HOST:PORT); none: LocalCluster."
)
@click.option(
    "--batch",
    type=click.IntRange(min=1, max=MAX_SEEDS),
    metavar="N",
    help="Runs per task [auto: shrinking batches of at most 32].",
)
@click.option(
    "--cache",
    type=_Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Run cache directory [.lossylink-cache beside --out].",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the run cache.")
@click.option("--progress/--no-progress", default=True, help="Show the progress bar (stderr).")
def sweep_cmd(
    preset_name: str | None,
    config: Path | None,
    assignments: list[tuple[str, str]],
    axes: tuple[str, ...],
    grid_file: Path | None,
    seed: int,
    seeds: int,
    out: Path,
    executor: str,
    workers: int | None,
    scheduler: str | None,
    batch: int | None,
    cache: Path | None,
    no_cache: bool,
    progress: bool,
) -> None:
    """Run the base scenario at every grid point for seeds S .. S+N-1.

    Writes one Parquet row per run and prints (and saves) mean, standard deviation and 95 %
    confidence interval per grid point. Finished runs are cached: rerunning an interrupted or
    repeated sweep only runs what is missing. Exits with status 1 if any run failed (the other
    results are still written).
    """
    import threading

    # rich, for the printed summary, takes about 50 ms to import: on a thread while the grid
    # is planned and the runs go (the simulation releases the GIL), as sweep() does pyarrow.
    threading.Thread(target=_import_printing, name="lossylink-warm-rich", daemon=True).start()
    from lossylink.runner import seed_range
    from lossylink.scenario import Scenario
    from lossylink.sweeps.core import sweep
    from lossylink.sweeps.grid import load_grid_file, merge_axes, parse_axis
    from lossylink.sweeps.summary import failure_lines, summary_table

    if preset_name is not None and config is not None:
        raise click.UsageError("--preset and --config are mutually exclusive")
    if cache is not None and no_cache:
        raise click.UsageError("--cache and --no-cache are mutually exclusive")
    base = Scenario.load(config) if config is not None else Scenario.preset(preset_name or "lan")
    for key, value in assignments:
        base.set(key, value)
    file_axes = list(load_grid_file(grid_file).items()) if grid_file is not None else []
    grid = merge_axes([*file_axes, *(parse_axis(a) for a in axes)])

    from lossylink.sweeps import table

    table.WRITER_ONLY = True  # this process writes the table, never converts it to numpy
    started = time.perf_counter()
    result = sweep(
        base,
        grid,
        seed_range(seeds, seed),
        out=out,
        executor=executor,
        workers=workers,
        scheduler=scheduler,
        batch=batch,
        cache=False if no_cache else cache,
        progress=progress,
    )
    from lossylink.render import make_console

    console = make_console()
    console.print(summary_table(result.summary, result.grid.keys, width=console.width))
    wall = time.perf_counter() - started
    rate = f" ({result.executed / wall:.1f} runs/s)" if result.executed else ""
    console.print(
        f"{len(result.rows)} runs: {result.executed} run now, {result.cached} from the cache, "
        f"{len(result.failures)} failed, in {wall:.1f} s{rate}"
    )
    console.print(f"results {result.out} · summary {result.summary_path}")
    if result.failures:
        from lossylink.sweeps.executors import LOST

        lost = [r for r in result.failures if (r.error or "").startswith(LOST)]
        for line in failure_lines([r for r in result.failures if r not in lost]):
            click.echo(f"{PROG}: run failed: {line}", err=True)
        if lost:
            done = len(result.rows) - len(result.failures)
            where = f"; cached in {result.cache_dir}" if result.cache_dir else ""
            click.echo(
                f"{PROG}: {len(lost)} runs lost with dying workers; {done} finished, in "
                f"{result.out}{where}: rerun the same command to run only what is missing",
                err=True,
            )
        sys.exit(1)


def _import_printing() -> None:
    """Import what prints a sweep's summary (rich), ahead of use."""
    import lossylink.render
    import lossylink.tables  # noqa: F401


@cli.command("demo", short_help="Our numbers beside the paper's (Table 3).")
@click.option(
    "--seeds",
    type=click.IntRange(min=2, max=MAX_SEEDS),
    default=10,
    show_default=True,
    help="Seeds per lossy row.",
)
def demo_cmd(seeds: int) -> None:
    """Reproduce Balakrishnan et al. 1997, Table 3 (end-to-end schemes), and the loss-free peaks."""
    from lossylink.demo import run_demo

    run_demo(seeds=seeds)


@cli.command("reproduce", short_help="Run every experiment of a paper; write a report.")
@click.argument("paper", type=click.Choice(PAPER_NAMES))
@click.option(
    "--seeds",
    type=click.IntRange(min=1, max=MAX_SEEDS),
    default=None,
    metavar="N",
    help="Seeds per experiment (1..N) [balakrishnan97: 10, 3 with --quick; ludwig2000: 1].",
)
@click.option(
    "--out",
    type=_Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Output directory [out/PAPER].",
)
@click.option(
    "--quick", is_flag=True, help="Fewer seeds (balakrishnan97: 3): a check in a few seconds."
)
@click.option("--transfer", metavar="SIZE", help="Override the transfer of every run.")
@click.option(
    "--only",
    "groups",
    multiple=True,
    metavar="GROUP",
    help="Run only these experiment groups (repeatable). balakrishnan97: table2, table3, "
    "table4, peaks, burst, sweep; ludwig2000: s8, s8f, s11, lan, late, pacer, agg, s12 "
    "(a model, no runs), s13.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    default=None,
    metavar="N",
    help="Threads, or with --executor dask the LocalCluster's processes [all cores].",
)
@click.option(
    "--executor",
    type=click.Choice(("threads", "dask")),
    default="threads",
    show_default=True,
    help="threads: this process; dask: a Dask cluster (same results).",
)
@click.option(
    "--scheduler",
    metavar="ADDR",
    help="Dask scheduler (tcp://HOST:PORT) for --executor dask; none: a LocalCluster.",
)
def reproduce_cmd(
    paper: str,
    seeds: int | None,
    out: Path | None,
    quick: bool,
    transfer: str | None,
    groups: tuple[str, ...],
    workers: int | None,
    executor: str,
    scheduler: str | None,
) -> None:
    """Reproduce PAPER end to end.

    \b
    balakrishnan97  Balakrishnan et al. 1997: Tables 2-4, Figures 3-12, the burst and
                    error-rate experiments (10 seeds; 3 with --quick).
    ludwig2000      Ludwig's dissertation (2000), the hiccup experiments: S8a-S8e
                    (Figs 5-2 to 5-6), S8f (Figs 4-3/4-4), S11 (Figs 5-16/5-17), a
                    delay spike on the LAN preset, the Eifel refinements (late DUPACK,
                    burst pacer, RTO_AGG), intermittent connectivity on the WAN preset
                    (S13) and the analytical cost model of Fig 5-7 (S12) (1 seed: the
                    runs have no random losses).
    buchholcz       Buchholcz et al., TCP-ELN: Reno against TCP-ELN on the five-node
                    network, FTP and web (SURGE) traffic, uniform and Markov (Table 1)
                    errors (Figs 4, 6-9; T002-1..12; 5 seeds, 1 with --quick).
    llelsn          The LL-ELSN study: twelve loss-coping TCPs over an 802.11b cell,
                    FER, RTT, uplink, N flows, fairness, Pareto background,
                    friendliness, ERSN, disconnection, retry limit and Markov channels
                    (Figs 6-18; T004-1..17; 20 runs per point, 50 with link ARQ; 1
                    with --quick).

    Writes into DIR: results.csv (one row per run), tables.md (the paper's values beside ours,
    mean and 95% CI), targets.json (every target with paper value, ours, tolerance and
    verdict), figures/ (PNG and SVG), runs/ (the traced runs, for `lossylink plot`) and
    report.html (all of it on one page). Schemes that are not registered in this build are
    reported as "not available".
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from lossylink.papers import catalogue
    from lossylink.render import make_console
    from lossylink.reproduce import reproduce

    if scheduler and executor != "dask":
        raise click.BadParameter("only --executor dask takes a scheduler", param_hint="--scheduler")
    known = catalogue(paper).GROUPS
    unknown = [g for g in groups if g not in known]
    if unknown:
        raise click.BadParameter(
            f"{', '.join(unknown)} is not a group of {paper} (its groups: {', '.join(known)})",
            param_hint="--only",
        )
    out = out or Path("out") / paper
    # A directory we cannot write is an error before the runs, not after them.
    out.mkdir(parents=True, exist_ok=True)
    if not os.access(out, os.W_OK):
        raise click.BadParameter(f"{out} is not writable", param_hint="--out")
    console = make_console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task("runs", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        rep = reproduce(
            paper,
            seeds=seeds,
            out=out,
            quick=quick,
            transfer=transfer,
            groups=groups or None,
            workers=workers,
            progress=progress,
            executor=executor,
            scheduler=scheduler,
        )
    counts: dict[str, int] = {}
    for v in rep.verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    stdout = make_console()
    from lossylink.report import plural, run_summary

    stdout.print(
        f"{paper}: {run_summary(rep)} (+{rep.write_s:.1f} s writing), "
        f"{plural(len(rep.seeds), 'seed')}; targets: "
        + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    )
    stdout.print(f"wrote {out}/results.csv, tables.md, targets.json, figures/, report.html")


@cli.command("plot", short_help="Draw a figure from a saved run, a results.csv or a sweep.")
@click.argument("source", type=_Path(exists=True, path_type=Path))
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
    type=_Path(dir_okay=False, path_type=Path),
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
    default="throughput_mbps",
    show_default=True,
    metavar="NAME",
    help="For --kind sweep on a .parquet: the metric on the y axis.",
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
    metric: str,
    x_axis: str | None,
    by: str | None,
) -> None:
    """Draw a figure from SOURCE: a saved run directory, a results.csv or a sweep's .parquet."""
    from lossylink import plots
    from lossylink.figures import figure_for

    fmt = out_file.suffix.lower().lstrip(".")
    if fmt not in plots.FORMATS:
        raise click.BadParameter("the file must end in .png or .svg", param_hint="--out")
    fig = figure_for(source, kind, table=table, reference=reference, metric=metric, x=x_axis, by=by)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    plots.save_figure(fig, out_file.with_suffix(""), formats=[fmt])
    click.echo(f"wrote {out_file}")


@cli.command("emulate", short_help="Real Linux TCP through a scenario's links (root).")
@click.argument("scenario_name", metavar="SCENARIO")
@click.option(
    "--cc",
    type=click.Choice(["reno", "cubic", "bbr"]),
    default="reno",
    show_default=True,
    help="Kernel congestion control (TCP_CONGESTION; the namespaces' default for --server and "
    "--client).",
)
@click.option("--bytes", "nbytes", metavar="SIZE", help="Bytes the built-in transfer sends "
              "[the scenario's transfer].")  # fmt: skip
@click.option(
    "--buffer",
    metavar="SIZE",
    help="Socket buffers of the built-in transfer; 0: the scenario's tcp.buffer "
    "[the kernel's autotuning].",
)
@click.option("--server", metavar="CMD", help="Shell command to run in the server's namespace.")
@click.option("--client", metavar="CMD", help="Shell command to run in the client's namespace "
              "(the run ends when it exits).")  # fmt: skip
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_parse_assignment,
    help="Set any scenario field by alias or dotted path (repeatable), e.g. error_every=0.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=MAX_SEED),
    default=1,
    show_default=True,
    metavar="S",
    help="Seed of the links' error models and media.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.001),
    default=600.0,
    show_default=True,
    metavar="SECONDS",
    help="Stop the run after this long.",
)
@click.option(
    "--pcap",
    type=_Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write client-to-server.pcap and server-to-client.pcap (real datagrams as released, "
    "model times) and hop<i>-<name>-<forward|reverse>.pcap per link direction into DIR.",
)
@click.option(
    "--sysctl",
    "sysctls",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_parse_assignment,
    help="A net.* kernel setting for every namespace (repeatable), e.g. net.ipv4.tcp_sack=0.",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also simulate the scenario (same seed, the emulated byte count) and print both "
    "side by side under the same metric names.",
)
@click.option("--json", "as_json", is_flag=True, help="The results as one JSON object.")
def emulate_cmd(
    scenario_name: str,
    cc: str,
    nbytes: str | None,
    buffer: str | None,
    server: str | None,
    client: str | None,
    assignments: list[tuple[str, str]],
    seed: int,
    time_limit: float,
    pcap: Path | None,
    sysctls: list[tuple[str, str]],
    compare: bool,
    as_json: bool,
) -> None:
    """Emulate SCENARIO (a preset name or a .toml/.json file) with real Linux TCP.

    Two network namespaces (ll-<pid>-c for the first flow's sender, ll-<pid>-s for its
    receiver, addresses 10.77.0.1 and 10.77.0.2, in $LL_CLIENT_ADDR and $LL_SERVER_ADDR) are
    joined through TUN devices to the scenario's links, which every real datagram crosses in
    real time. The scheme's snoop or LL agent runs on the real segments; a split scheme's
    base station is a third namespace (ll-<pid>-b, 10.77.0.3, $LL_PROXY_ADDR) whose proxy
    terminates the connection. Without --server and --client, a built-in transfer sends the
    scenario's bytes. Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN); everything it creates is
    removed on exit, and leftovers of a killed emulator on the next start. See
    docs/emulation.md.
    """
    from lossylink import _core
    from lossylink.scenario import Scenario

    path = Path(scenario_name)
    scenario = (
        Scenario.load(path) if path.suffix in (".toml", ".json") else Scenario.preset(scenario_name)
    )
    for key, value in assignments:
        scenario.set(key, value)
    if compare and (server or client):
        raise click.BadParameter("needs the built-in transfer (no --server/--client)",
                                 param_hint="--compare")  # fmt: skip
    result = _core.emulate(
        scenario.core,
        seed=seed,
        cc=cc,
        bytes=nbytes,
        buffer=buffer,
        server=server,
        client=client,
        time_limit=time_limit,
        pcap=pcap,
        sysctls=list(sysctls),
    )
    simulated = None
    if compare and not result.get("interrupted"):
        from lossylink.runner import run

        # The same scenario and seed, sending what the emulated transfer sent.
        scenario.set("transfer", str(result["transfer_bytes"]))
        simulated = run(scenario, seed=seed).to_dict()
    if as_json:
        both = {"emulated": result, "simulated": simulated} if simulated else result
        click.echo(json.dumps(both))
    else:
        _print_emulated(result, simulated)
    if result.get("interrupted"):
        sys.exit(130)


def _print_emulated(result: dict[str, Any], simulated: dict[str, Any] | None) -> None:
    """One metric a line; with ``simulated``, its value of the same metric beside (``-``:
    the simulator has no such metric)."""

    def shown(value: Any) -> str:
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    rows = [(k, v) for k, v in result.items() if not (k == "pcap" and not v)]
    width = max(len(k) for k, _ in rows)
    if simulated is None:
        for key, value in rows:
            click.echo(f"{key:<{width}}  {shown(value)}")
        return
    col = max(len("emulated"), *(len(shown(v)) for k, v in rows if k != "pcap"))
    click.echo(f"{'metric':<{width}}  {'emulated':>{col}}  simulated")
    for key, value in rows:
        sim = shown(simulated[key]) if key in simulated else "-"
        if key == "pcap":
            click.echo(f"{key:<{width}}  {shown(value)}")
        else:
            click.echo(f"{key:<{width}}  {shown(value):>{col}}  {sim}")


def main() -> None:
    """Entry point of the ``lossylink`` console script."""
    cli.main(prog_name=PROG)
