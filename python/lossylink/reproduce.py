"""Reproduce a paper end to end: run its experiment catalogue, write results, tables, targets,
figures and a one-page HTML report.

>>> import lossylink.reproduce
>>> frame = lossylink.reproduce.balakrishnan97(seeds=10, out="out/b97")   # doctest: +SKIP
>>> rep = lossylink.reproduce.reproduce("ludwig2000", out="out/ludwig2000")  # doctest: +SKIP

The papers are registered in :data:`lossylink.papers.PAPERS`; each catalogue (configs, paper
values, tolerances) is data in :mod:`lossylink.papers`. Every experiment whose scheme is
registered and whose scenario the Rust side accepts is run; the rest are reported as "not
available". Runs go to a thread pool (the simulation releases the GIL), or with
``executor="dask"`` to a Dask cluster (a running scheduler, or a LocalCluster), one run per
seed; identical scenarios run once. The executor cannot change a result: every run is a pure
function of its scenario and seed.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from lossylink.errors import InvalidValueError, LossylinkError, LossylinkIOError
from lossylink.outcomes import Measurements, Outcome, Reproduction, TracedOutcome, Verdict
from lossylink.papers import PAPERS, catalogue
from lossylink.papers import _base as base
from lossylink.papers import balakrishnan97 as b97
from lossylink.papers import ludwig2000 as l2k
from lossylink.result import RunResult
from lossylink.runner import run, schemes
from lossylink.scenario import Scenario
from lossylink.seeds import seed_range

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_SEEDS = b97.DEFAULT_SEEDS
QUICK_SEEDS = b97.QUICK_SEEDS
"""Balakrishnan97's seeds per experiment; each catalogue has its own ``DEFAULT_SEEDS`` and
``QUICK_SEEDS``."""
SUMMARY_METRICS = (
    "throughput_mbps",
    "wireless_goodput_pct",
    "wired_goodput_pct",
    "sender_timeouts",
    "sender_fast_retransmits",
    "local_retransmissions",
)

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called after every run."""


def evaluate(
    targets: Iterable[base.Target], outcomes: Sequence[Outcome], traced: Sequence[TracedOutcome]
) -> list[Verdict]:
    """Compute every target and its verdict.

    A value outside the accepted range is "explained" only when its deviation earns it: the
    value lies in the band the deviation's mechanism predicts (``Target.predicted``), and the
    counterfactual the reproduction ran (``Target.counterfactual``: the mechanism off, or the
    source tool's setting on) gives a value where the mechanism says it must. A deviation
    without a band or a counterfactual, a value outside the band, or a counterfactual that does
    not move as claimed (or could not be run) is "fail", with the reason.
    """
    m = Measurements(outcomes, traced)
    out = []
    for t in targets:
        try:
            value = float(t.value(m))
        except base.Unavailable as exc:
            out.append(Verdict(t, None, "not available", str(exc)))
            continue
        except ZeroDivisionError:
            out.append(Verdict(t, None, "not available", "division by zero"))
            continue
        if _inside(value, t.accept):
            note = "listed deviation does not show in this run" if t.deviation else ""
            v = Verdict(t, value, "pass", note)
        elif t.deviation is not None:
            v = _judge_deviation(t, value, m)
        else:
            v = Verdict(t, value, "fail")
        if t.sensitivity is not None:
            _add_sensitivity(v, t.sensitivity, m)
        out.append(v)
    return out


def _add_sensitivity(v: Verdict, sens: base.Sensitivity, m: Measurements) -> None:
    """Report the target's value under each reading of a choice the source does not give."""
    values: dict[str, float | None] = {}
    for label, f in sens.values:
        try:
            values[label] = float(f(m))
        except (base.Unavailable, ZeroDivisionError):
            values[label] = None
    v.sensitivity = values
    shown = ", ".join(f"{k} {'–' if x is None else format(x, '.4g')}" for k, x in values.items())
    note = f"sensitivity to {sens.what}: {shown}"
    v.reason = f"{v.reason}; {note}" if v.reason else note


#: Relative slack of a range's ends: a value computed in floating point (a Spearman rho of
#: 0.8 comes out as 0.7999999999999999) is on the end it equals, not beside it.
ROUNDING = 1e-9


def _inside(value: float, band: tuple[float, float]) -> bool:
    """``value`` within ``band``, its ends included up to rounding (:data:`ROUNDING`)."""
    lo, hi = band
    slack = ROUNDING * max(
        1.0, abs(lo) if math.isfinite(lo) else 1.0, abs(hi) if math.isfinite(hi) else 1.0
    )
    return math.isfinite(value) and lo - slack <= value <= hi + slack


def _judge_deviation(t: base.Target, value: float, m: Measurements) -> Verdict:
    """The verdict of a value outside the accepted range whose target lists a deviation."""
    dev = f"deviation {t.deviation}"
    if t.predicted is None:
        return Verdict(t, value, "fail", f"{dev}: no predicted band")
    try:
        band = t.predicted(m) if callable(t.predicted) else t.predicted
    except (base.Unavailable, ZeroDivisionError) as exc:
        return Verdict(t, value, "fail", f"{dev}: predicted band: {exc}")
    moved = None
    cf = t.counterfactual
    cf_note = ""
    if cf is not None:
        try:
            moved = float(cf.value(m))
            cf_note = f"counterfactual ({cf.what}): {moved:.4g}"
        except (base.Unavailable, ZeroDivisionError) as exc:
            cf_note = f"counterfactual ({cf.what}) not available: {exc}"

    def verdict(kind: str, why: str) -> Verdict:
        return Verdict(t, value, kind, why, moved, band)

    if not _inside(value, band):
        why = f"{dev}: outside its predicted band {band[0]:.4g} to {band[1]:.4g}"
        return verdict("fail", "; ".join(x for x in (why, cf_note) if x))
    if cf is None:
        return verdict("fail", f"{dev}: no counterfactual run")
    if moved is None:
        return verdict("fail", cf_note)
    if not _inside(moved, cf.moves_to):
        claim = base.range_text(cf.moves_to)
        return verdict("fail", f"{cf_note}, not {claim} as the mechanism claims")
    return verdict("explained", cf_note)


# -- running --------------------------------------------------------------------------------


def _wireless_hop(sc: Scenario) -> int:
    hops = sc.to_dict().get("hops", [])
    for i, hop in enumerate(hops):
        if hop.get("role") == "wireless":
            return i
    raise base.Unavailable("the preset has no wireless hop")


def build(
    preset: str, overrides: Sequence[tuple[str, str]], transfer: str | None, registered: set[str]
) -> tuple[Scenario | None, str]:
    """The scenario of an experiment, or ``(None, reason)`` if it cannot be built here."""
    scheme = dict(overrides).get("scheme")
    # A scheme may carry modifiers (``e2e+eifel``): the registry lists the base names.
    if scheme is not None and scheme.split("+")[0] not in registered:
        return None, f"scheme {scheme!r} is not registered"
    try:
        if preset.endswith(".toml"):
            # A scenario file of a catalogue, relative to the papers package.
            sc = Scenario.load(Path(base.__file__).parent / preset)
        else:
            sc = Scenario.preset(preset)
        hop = str(_wireless_hop(sc)) if any(base.WIRELESS in k for k, _ in overrides) else ""
        edits = [(key.replace(base.WIRELESS, hop), value) for key, value in overrides]
        if transfer is not None:
            edits.append(("transfer", transfer))
        sc.update(edits)
    except (LossylinkError, base.Unavailable) as exc:
        return None, f"scenario rejected: {exc}"
    return sc, ""


EXECUTORS = ("threads", "dask")
"""Where ``reproduce`` runs: this process's threads, or a Dask cluster."""

Job: TypeAlias = tuple[str, int, bool]
"""One run of a reproduction: ``(scenario TOML, seed, traced)``."""

BATCHES_PER_WORKER = 8
"""Dask: the untraced runs go out in about this many batches per worker thread, enough to
balance long and short runs, few enough that the scheduler's cost per task stays small."""


def run_batch(tasks: Sequence[tuple[int, str, int, bool]]) -> tuple[str, list[tuple[int, Any]]]:
    """Run ``(index, scenario JSON, seed, traced)`` tasks in this process (on a Dask worker)
    and return the worker's lossylink version with each run's raw result."""
    from lossylink import _core

    out = []
    for index, scenario_json, seed, traced in tasks:
        sc = _core.Scenario.from_json(scenario_json)
        out.append((index, _core.run(sc, seed, traced, None)))
    return _core.__version__, out


def _threads(
    jobs: dict[Job, Scenario], workers: int, progress: Progress | None
) -> dict[Job, RunResult]:
    done: dict[Job, RunResult] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run, sc, seed=key[1], trace=key[2]): key for key, sc in jobs.items()}
        for i, fut in enumerate(as_completed(futures), 1):
            done[futures[fut]] = fut.result()
            if progress:
                progress(i, len(jobs))
    return done


def _dask(
    jobs: dict[Job, Scenario],
    workers: int | None,
    scheduler: str | None,
    progress: Progress | None,
) -> tuple[dict[Job, RunResult], int]:
    from lossylink import _core
    from lossylink.sweeps.executors import WORKER_RETRIES, DaskExecutor

    keys = list(jobs)
    tasks = [(i, jobs[k].to_json(), k[1], k[2]) for i, k in enumerate(keys)]
    ex = DaskExecutor(scheduler, workers)
    try:
        plain = [t for t in tasks if not t[3]]
        size = max(1, math.ceil(len(plain) / (ex.workers * BATCHES_PER_WORKER)))
        # A traced run returns its trace tables: one per task.
        batches = [plain[i : i + size] for i in range(0, len(plain), size)]
        batches += [[t] for t in tasks if t[3]]
        done: dict[Job, RunResult] = {}
        for batch, result in ex.map_batches(run_batch, batches):
            if result is None:
                raise LossylinkIOError(
                    f"executor dask: a worker running {len(batch)} runs died "
                    f"{WORKER_RETRIES + 1} times (killed, or out of memory)"
                )
            version, raws = result
            if version != _core.__version__:
                raise LossylinkIOError(
                    f"executor dask: a worker has lossylink {version}, this process "
                    f"{_core.__version__}; install the same version on every worker"
                )
            for index, raw in raws:
                done[keys[index]] = RunResult.from_raw(raw)
            if progress:
                progress(len(done), len(jobs))
        return done, ex.workers
    finally:
        ex.close()


def run_catalogue(
    experiments: Sequence[base.ExperimentLike],
    traced_runs: Sequence[base.TracedRunLike],
    seeds: Sequence[int],
    *,
    transfer: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str = "threads",
    scheduler: str | None = None,
    quick: bool = False,
) -> tuple[list[Outcome], list[TracedOutcome], int]:
    """Run experiments (one run per seed) and traced runs (first seed) on a thread pool, or
    on a Dask cluster (``executor="dask"``: the ``scheduler`` address, else a LocalCluster of
    ``workers`` processes). With ``quick``, an experiment with a ``quick_seeds`` attribute
    runs at most that many of ``seeds``."""
    if executor not in EXECUTORS:
        raise InvalidValueError(
            f"executor: unknown {executor!r} (choose from {', '.join(EXECUTORS)})"
        )
    if scheduler and executor != "dask":
        raise InvalidValueError("scheduler: only the dask executor takes a scheduler address")
    registered = {s["name"] for s in schemes()}
    outcomes = []
    for exp in experiments:
        sc, reason = build(exp.preset, exp.overrides, transfer, registered)
        outcomes.append(Outcome(exp, sc is not None, reason, sc))
    traced = []
    for tr in traced_runs:
        sc, reason = build(tr.preset, tr.overrides, transfer, registered)
        traced.append(TracedOutcome(tr, sc is not None, reason))

    # Identical scenarios (the sweep's 64 KiB column and the tables) run once.
    jobs: dict[Job, Scenario] = {}
    for o in outcomes:
        if o.available and o.scenario is not None:
            n = (
                len(seeds)
                if o.experiment.max_seeds is None
                else min(len(seeds), o.experiment.max_seeds)
            )
            if quick:
                # A catalogue may run some points with fewer of the quick seeds than others
                # (llelsn: more for the points its P1 targets read).
                n = min(n, getattr(o.experiment, "quick_seeds", n))
            for seed in seeds[:n]:
                jobs.setdefault((o.scenario.to_toml(), seed, False), o.scenario)
    traced_scenarios = {}
    for t in traced:
        if t.available:
            sc, _ = build(t.run.preset, t.run.overrides, transfer, registered)
            assert sc is not None
            traced_scenarios[t.run.id] = sc
            jobs.setdefault((sc.to_toml(), seeds[0], True), sc)

    if progress:
        progress(0, len(jobs))
    if executor == "dask":
        done, workers = _dask(jobs, workers, scheduler, progress)
    else:
        workers = workers or os.cpu_count() or 1
        done = _threads(jobs, workers, progress)

    for o in outcomes:
        if o.available and o.scenario is not None:
            key = o.scenario.to_toml()
            o.results = [done[(key, s, False)] for s in seeds if (key, s, False) in done]
    for t in traced:
        if t.available:
            t.result = done[(traced_scenarios[t.run.id].to_toml(), seeds[0], True)]
    return outcomes, traced, workers


def results_frame(outcomes: Sequence[Outcome]) -> pd.DataFrame:
    """One row per run (experiment and seed): the experiment's fields, every metric, and the
    scenario's fields flattened (``scenario.tcp.mss``, ``scenario.hops.1.rate``, ...)."""
    import pandas as pd

    rows = []
    for o in outcomes:
        if not o.available or o.scenario is None:
            continue
        exp = o.experiment
        flat = _flatten(o.scenario.to_dict(), "scenario")
        for r in o.results:
            row: dict[str, Any] = {"experiment": exp.id, "group": exp.group}
            row.update(exp.columns())
            row.update(dict(exp.params))
            row.update(r.metrics)
            if r.aggregate is not None:
                row.update({f"agg.{k}": v for k, v in r.aggregate.items()})
            row.update(flat)
            rows.append(row)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    frame: pd.DataFrame = pd.DataFrame.from_records(rows, columns=list(columns))
    return frame


def _flatten(value: Any, prefix: str) -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flatten(v, f"{prefix}.{k}"))
        return out
    if isinstance(value, list):
        if all(isinstance(v, dict) for v in value) and value:
            out = {}
            for i, v in enumerate(value):
                out.update(_flatten(v, f"{prefix}.{i}"))
            return out
        return {prefix: repr(value) if value else ""}
    return {prefix: value}


def reproduce(
    paper: str = b97.NAME,
    *,
    seeds: int | Iterable[int] | None = None,
    out: str | os.PathLike[str] | None = None,
    quick: bool = False,
    transfer: str | None = None,
    groups: Iterable[str] | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    figures: bool = True,
    executor: str = "threads",
    scheduler: str | None = None,
) -> Reproduction:
    """Run a paper's catalogue (``paper``: a name of :data:`lossylink.papers.PAPERS`); with
    ``out``, write results.csv, tables.md, targets.json, the figures (PNG and SVG), the traced
    runs and report.html into it.

    ``seeds``: a count or a list; default the catalogue's ``DEFAULT_SEEDS``, or its
    ``QUICK_SEEDS`` with ``quick``.
    ``executor``: ``"threads"`` (this process, ``workers`` threads [all cores]) or ``"dask"``
    (the Dask ``scheduler`` at an address such as ``tcp://host:8786``, whose workers have the
    same lossylink installed; without one a LocalCluster of ``workers`` processes). Either gives
    the same results.
    ``groups`` restricts the experiments (balakrishnan97: ``table3``, ``sweep``, ...;
    ludwig2000: ``s8``, ``s8f``, ...); ``transfer`` overrides the transfer of every run (for
    tests).
    """
    cat = catalogue(paper)
    if seeds is None:
        seeds = cat.QUICK_SEEDS if quick else cat.DEFAULT_SEEDS
    seed_list = seed_range(seeds)
    wanted = set(groups) if groups is not None else set(cat.GROUPS)
    unknown = wanted - set(cat.GROUPS)
    if unknown:
        raise InvalidValueError(
            f"groups: unknown {', '.join(sorted(unknown))} for {cat.NAME} "
            f"(known: {', '.join(cat.GROUPS)})"
        )
    sel: base.Selection = cat.select(wanted, figures)

    start = time.perf_counter()
    counted: list[int] = [0]

    def counting(done: int, total: int) -> None:
        counted[0] = total
        if progress:
            progress(done, total)

    outcomes, traced, n_workers = run_catalogue(
        sel.experiments,
        sel.traced_runs,
        seed_list,
        transfer=transfer,
        workers=workers,
        progress=counting,
        executor=executor,
        scheduler=scheduler,
        quick=quick,
    )
    verdicts = evaluate(sel.targets, outcomes, traced)
    frame = results_frame(outcomes)
    rep = Reproduction(
        paper=cat.NAME,
        seeds=seed_list,
        transfer=transfer,
        quick=quick,
        outcomes=outcomes,
        traced=traced,
        verdicts=verdicts,
        frame=frame,
        wall_s=time.perf_counter() - start,
        workers=n_workers,
        runs=counted[0],
    )
    if out is not None:
        from lossylink import report

        rep.out = Path(out)
        written = time.perf_counter()
        rep.files = report.write_all(rep, rep.out, figures=sel.figures)
        rep.write_s = time.perf_counter() - written
    return rep


def balakrishnan97(
    seeds: int | Iterable[int] | None = None,
    out: str | os.PathLike[str] | None = None,
    *,
    quick: bool = False,
    **kwargs: Any,
) -> pd.DataFrame:
    """Reproduce Balakrishnan et al. 1997 and return ``results.csv`` as a DataFrame (one row per
    run). With ``out``, also write the tables, targets, figures and report there. Keyword
    arguments are those of :func:`reproduce` (``transfer``, ``groups``, ``workers``, ...)."""
    return reproduce(b97.NAME, seeds=seeds, out=out, quick=quick, **kwargs).frame


def ludwig2000(
    seeds: int | Iterable[int] | None = None,
    out: str | os.PathLike[str] | None = None,
    **kwargs: Any,
) -> pd.DataFrame:
    """Reproduce the hiccup experiments of Ludwig's dissertation (S8a-S8f, S11, the LAN delay
    spike, the Eifel refinements, S13's intermittent connectivity; S12 is an analytical model
    with no runs) and return ``results.csv`` as a DataFrame. Keyword arguments are those of
    :func:`reproduce`."""
    return reproduce(l2k.NAME, seeds=seeds, out=out, **kwargs).frame


PAPER_NAMES = tuple(PAPERS)
"""The papers ``reproduce`` knows, in registry order."""
