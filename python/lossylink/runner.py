"""Running scenarios from Python: :func:`run` and :func:`run_seeds`.

Both release the GIL inside the extension while simulating, so several Python threads can run
scenarios in parallel (one per core).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from lossylink import _core
from lossylink._types import SchemeAliasInfo, SchemeInfo
from lossylink.errors import InvalidValueError
from lossylink.overrides import OverrideValue
from lossylink.result import RunResult
from lossylink.scenario import Scenario, ScenarioLike
from lossylink.seeds import check_seed, seed_range


def run(
    scenario: ScenarioLike = None,
    *,
    seed: int = 1,
    trace: bool = False,
    pcap: str | os.PathLike[str] | None = None,
    **overrides: OverrideValue,
) -> RunResult:
    """Run one simulation and return its :class:`RunResult`.

    ``scenario`` is a :class:`Scenario`, a preset name, a path to a ``.toml``/``.json`` file,
    or ``None`` for the ``lan`` preset; keyword ``overrides`` (``scheme="e2e"``,
    ``error_every="64KiB"``, ...) are applied to a copy. Same scenario and seed, same result.

    ``trace=True`` records the trace tables (``sender``, ``events``, ``rtt``, ``receiver``,
    ``base_station`` when a base-station agent runs and ``rlp`` on a GSM link; docs/traces.md).
    ``pcap=DIR`` writes one classic pcap file per link direction into ``DIR``
    (``hop<i>-<name>-<forward|reverse>.pcap``; docs/traces.md), listed in :attr:`RunResult.pcap`,
    and ``index.json`` / ``index.csv`` beside them (each file's nodes, link type, frame count and
    first and last timestamp; the nodes' addresses; the flows' ports).

    >>> r = run("lan", seed=3, error_every="64KiB", buffer="32KiB")   # doctest: +SKIP
    >>> r.throughput_mbps                                             # doctest: +SKIP
    """
    sc = _prepare(scenario, overrides)
    return RunResult.from_raw(_core.run(sc.core, check_seed(seed), trace, pcap))


def run_seeds(
    scenario: ScenarioLike = None,
    seeds: int | Iterable[int] = 10,
    start: int = 1,
    *,
    trace: bool = False,
    pcap: str | os.PathLike[str] | None = None,
    threads: int = 0,
    **overrides: OverrideValue,
) -> list[RunResult]:
    """Run one simulation per seed and return the results in seed order.

    ``seeds`` is a count (seeds ``start .. start+seeds-1``) or an explicit iterable of seeds.
    The seeds run concurrently on ``threads`` Rust threads (0: the usable cores, 1: one after
    another); the results do not depend on it. ``pcap=DIR`` writes the pcap files of each seed
    into ``DIR/seed<S>`` (into ``DIR`` itself when there is a single seed).
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise InvalidValueError(
            f"threads: expected a whole number >= 0 (0: all cores), got {threads!r}"
        )
    sc = _prepare(scenario, overrides)
    seed_list = seed_range(seeds, start)
    raws = _core.run_seeds(sc.core, seed_list, trace, pcap, threads)
    return [RunResult.from_raw(raw) for raw in raws]


def schemes() -> list[SchemeInfo]:
    """The scheme registry: dicts with ``name``, ``family``, ``description`` and ``source``."""
    return _core.schemes()


def scheme_aliases() -> list[SchemeAliasInfo]:
    """The scheme aliases: dicts with ``alias``, ``scheme`` (the registered scheme, with its
    modifiers, that the alias stands for: ``cubic`` is ``e2e-cubic``) and ``description``."""
    return _core.scheme_aliases()


def _prepare(scenario: ScenarioLike, overrides: dict[str, OverrideValue]) -> Scenario:
    sc = Scenario.resolve(scenario)
    return sc.update(overrides)
