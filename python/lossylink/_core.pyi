"""Type stubs for the Rust extension ``lossylink._core`` (crate ``crates/py``).

This module is private: use the wrappers in :mod:`lossylink` instead. It is a thin layer over
the Rust facade crate ``lossylink``; every rule about what a simulation means lives there.
"""

import os
from typing import Any

import numpy as np

from lossylink._types import RawRun, SchemeAliasInfo, SchemeInfo

__version__: str
"""The version of the Rust crates this extension was built from."""

class Scenario:
    """A complete, validated simulation scenario (topology, links, TCP, scheme, workload)."""

    @staticmethod
    def preset(name: str) -> Scenario:
        """The shipped preset ``name``; raises :class:`UnknownPresetError`."""

    @staticmethod
    def preset_names() -> list[str]:
        """Names of the shipped presets, in registry order."""

    @staticmethod
    def preset_toml(name: str) -> str:
        """The TOML text a preset is built from, ready to copy and edit."""

    @staticmethod
    def from_toml(text: str, edits: list[tuple[str, str]] = ...) -> Scenario:
        """Parse a TOML scenario document, apply ``edits`` and validate once; raises a
        :class:`ScenarioError` subclass."""

    @staticmethod
    def from_json(text: str, edits: list[tuple[str, str]] = ...) -> Scenario:
        """Parse a JSON scenario document (same schema as TOML), apply ``edits`` and validate
        once."""

    def to_toml(self) -> str:
        """The scenario as TOML; ``from_toml`` reads it back unchanged."""

    def to_json(self) -> str:
        """The scenario as JSON; ``from_json`` reads it back unchanged."""

    def set(self, key: str, value: str) -> None:
        """Set one field from text, in place.

        ``key`` is an alias (``scheme``, ``error_every``, ``ber``, ``loss``, ``buffer``,
        ``transfer``, ``mss``, ``profile``, ``time_limit``) or a dotted path into the TOML
        document (``hops.1.forward.queue``); ``value`` may carry units (``64KiB``, ``2Mbps``,
        ``10ms``).
        """

    def set_all(self, edits: list[tuple[str, str]]) -> None:
        """Set several fields from text, in order, validating the result once; nothing changes
        when one is refused."""

    def copy(self) -> Scenario:
        """An independent copy."""

    def __copy__(self) -> Scenario: ...
    def __deepcopy__(self, memo: object) -> Scenario: ...
    @property
    def name(self) -> str:
        """The preset name, or the ``name`` field of the scenario document."""

    @property
    def scheme(self) -> str:
        """The scheme's registry name."""

class Progress:
    """How far a run has come: pass one to :func:`run` and read it from another thread."""

    def __init__(self) -> None: ...
    @property
    def sim_s(self) -> float:
        """Simulated seconds reached."""
    @property
    def events(self) -> int:
        """Events processed."""
    @property
    def limit_s(self) -> float:
        """The latest end of the run, simulated seconds (0 until it has started)."""

def run(
    scenario: Scenario,
    seed: int,
    trace: bool = False,
    pcap: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
) -> RawRun:
    """Run ``scenario`` once with master seed ``seed`` (0 <= seed < 2**64).

    With ``pcap`` (a directory), one pcap file per link direction is written there and their
    paths are returned under ``"pcap"``. The GIL is released while simulating, so threads can
    run scenarios in parallel. With ``progress``, the run writes how far it has come into it
    after each thousandth of its simulated time limit (the run itself is the same).
    """

def run_seeds(
    scenario: Scenario,
    seeds: list[int],
    trace: bool = False,
    pcap: str | os.PathLike[str] | None = None,
    threads: int = 0,
) -> list[RawRun]:
    """Run ``scenario`` once per seed on ``threads`` threads (0: the usable cores), releasing
    the GIL once; results in seed order, the same for any number of threads.

    With ``pcap``, the files go into that directory for a single seed, into ``seed<S>``
    subdirectories of it for several.
    """

def run_batch(
    scenarios: list[Scenario], seeds: list[int], threads: int = 1
) -> list[tuple[RawRun | None, str | None, float]]:
    """Run each ``(scenario, seed)`` pair on ``threads`` threads (0: the usable cores),
    releasing the GIL once; a failing run does not stop the others. Returns, in order,
    ``(result shaped like run's, None, seconds)`` or ``(None, "ExceptionClass: message",
    seconds)``, with the wall seconds the run took on its thread.
    """

def schemes() -> list[SchemeInfo]:
    """The scheme registry, in registry order."""

def scheme_aliases() -> list[SchemeAliasInfo]:
    """The scheme aliases (``reno``, ``cubic``, ...), each with the scheme it stands for."""

def scheme_modifiers() -> list[dict[str, str]]:
    """The ``+`` modifiers a scheme name may carry (``name`` without the ``+``,
    ``description``), from the one table the parser and its errors read."""

def emulate(
    scenario: Scenario,
    seed: int = 1,
    cc: str = "reno",
    bytes: str | None = None,
    buffer: str | None = None,
    server: str | None = None,
    client: str | None = None,
    time_limit: float = 600.0,
    pcap: str | os.PathLike[str] | None = None,
    sysctls: list[tuple[str, str]] = ...,
) -> dict[str, Any]:
    """Emulate ``scenario`` with real Linux TCP in network namespaces (needs root). With the
    built-in transfer the result carries the kernel's own counters of the sender
    (``sender_retransmitted_segments``, ``sender_timeouts``, ``sender_fast_retransmits``: the
    namespace's RetransSegs, TCPTimeouts, TCPSackRecovery + TCPRenoRecovery) and
    ``cwnd_samples``, its TCP_INFO samples as (seconds, cwnd bytes, ssthresh bytes or None,
    ca_state)."""

def timer_model(
    w: int,
    service: str,
    tick: str,
    cycles: int,
    timer: str,
    sampling: str,
    k: float | None = None,
    timeouts: str | None = None,
) -> dict[str, np.ndarray]:
    """The steady-state timer model of Ludwig (2000) §3.4.2: one row per ACK (``time_s``,
    ``cycle``, ``load``, ``rtt_s``, ``sampled``, ``rto_prev_s``, ``rto_s``,
    ``rexmt_restart_s``, ``rexmt_precise_s``, ``timeouts``, ``timeout_s``, ``agg``);
    ``timer`` is ``lite``, ``eifel`` or ``agg`` (RTO_AGG with MAXCWND = ``w``; needs ``k``,
    0 < k < 1), ``sampling`` ``every-ack`` or ``once-per-rtt``, ``timeouts`` ``shown``
    (default: computed, never acted on) or ``eifel`` (the precise timer fires, backs off and
    Eifel detects it spurious on the original's ACK)."""

class LossylinkError(Exception):
    """Base class of every error lossylink raises."""

class ScenarioError(LossylinkError):
    """A scenario could not be built: bad name, field, value, unit or syntax."""

class UnknownSchemeError(ScenarioError):
    """The scheme name is not in the registry."""

class UnknownPresetError(ScenarioError):
    """The preset name is not one of ``Scenario.preset_names()``."""

class UnknownFieldError(ScenarioError):
    """A key or dotted path names no field of the scenario."""

class InvalidValueError(ScenarioError):
    """A field's value is out of range or of the wrong kind."""

class UnitError(ScenarioError):
    """A quantity has a malformed or unknown unit."""

class ScenarioSyntaxError(ScenarioError):
    """A TOML or JSON scenario document is not well-formed."""

class SimulationError(LossylinkError):
    """A valid scenario failed while running."""

class LossylinkIOError(LossylinkError):
    """A file could not be read or written."""

class EmulationError(LossylinkError):
    """The emulator could not set up or run."""

class PrivilegeError(EmulationError):
    """The emulator lacks CAP_NET_ADMIN or CAP_SYS_ADMIN."""
