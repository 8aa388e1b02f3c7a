"""``lossylink demo`` and ``lossylink reproduce``: a paper's experiments end to end."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from lossylink._limits import MAX_SEEDS, MAX_WORKERS
from lossylink.cli import NonEmptyPath

if TYPE_CHECKING:
    from pathlib import Path

# Checked against lossylink.papers.PAPERS by the tests (importing it here would load every
# paper's catalogue for --help).
PAPER_NAMES = ("balakrishnan97", "ludwig2000", "buchholcz", "llelsn")
"""`lossylink.papers.PAPERS`, in order."""


@click.command("demo", short_help="Our numbers beside the paper's (Table 3).")
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


@click.command("reproduce", short_help="Run every experiment of a paper; write a report.")
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
    type=NonEmptyPath(file_okay=False),
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
    "(a model, no runs), s13; buchholcz: ftp-uniform, ftp-markov, web-uniform, web-markov, "
    "fig4, ftp-knobs, baseline, web-load, web-hack, counterfactual; llelsn: fer, ablation, "
    "rtt, uplink, nsweep, pareto, friendly, ersn, senders, congestion, disconnect, retry, "
    "markov, poweroff (with the runs of other groups its targets compare against).",
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
                    errors (Figs 4, 6-9; T002-1..12; every reading the paper leaves
                    open and the counterfactual runs; 20 seeds, 3 with --quick).
    llelsn          The LL-ELSN study: twelve loss-coping TCPs over an 802.11b cell,
                    FER, RTT, uplink, N flows, fairness, Pareto background,
                    friendliness, ERSN, disconnection, retry limit and Markov channels
                    (Figs 6-18; T004-1..17; 20 runs per point, 50 with link ARQ; 1
                    with --quick, 10 on the points of P1 targets, of T004-10.best
                    and T004-12.gain, which count paired ties, and of T004-11.sack,
                    which one seed flipped).

    Writes into DIR: results.csv (one row per run), tables.md (the paper's values beside ours,
    mean and 95% CI), targets.json (every target with paper value, ours, tolerance and
    verdict), figures/ (PNG and SVG), runs/ (the traced runs, for `lossylink plot`) and
    report.html (all of it on one page). Schemes that are not registered in this build are
    reported as "not available".
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from lossylink.console import make_console
    from lossylink.papers import catalogue
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
    from pathlib import Path

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
