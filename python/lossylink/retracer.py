"""ReTracer (Ludwig 2000, §3.1.4 and §4.3): the best-case throughput a block-erasure trace allows
an RLP of each frame size, and pure end-to-end recovery at each MTU (Tab 4-14, Figs 4-13,
4-15, 4-16). The computation is the Rust core's (``net::medium::gsm::retrace``); this module reads
traces and ranges and returns the tables as DataFrames.

>>> import lossylink as ll
>>> text = ll.erasure_trace("poor-c", minutes=10, seed=1)           # doctest: +SKIP
>>> r = ll.retrace(text, frames="30..1410", mtus=[296, 576, 1500])   # doctest: +SKIP
>>> r.best_frame, r.rlp.head()                                      # doctest: +SKIP

A trace is the ``block_trace`` text format: one ``0`` (received) or ``1`` (erased) per 20 ms
radio block, ``#`` comments; pass the text, or a path to a file holding it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink import _core
from lossylink.errors import InvalidValueError, LossylinkIOError

if TYPE_CHECKING:
    import pandas as pd

BLOCK_BYTES = 30
"""Bytes of one radio block (an RLP frame is a multiple of it)."""
DEFAULT_FRAMES = "30..1410"
"""Fig 4-13's sweep: 30 to 1410 bytes in steps of one block."""
DEFAULT_MTUS = (296, 576, 1500)
"""Tab 4-14's MTUs."""
PROFILES = ("good", "poor-b", "poor-c", "fading-c")
"""The synthetic erasure profiles: the chains (trace_A-, trace_B- and trace_C-like) and the
fading channel (trace_C-like, ``net::medium::gsm::fading``). A poor chain clustered into fades of
mean length T_c is named ``poor-c@2s`` or ``poor-b@500ms:dense`` (``net::medium::gsm::clustered``:
fades at the worst minute's erasure density, the default, or ``:dense``, the densest the burst
statistics allow; T_c from 20ms to 600s in whole 20 ms blocks)."""


def parse_range(spec: str | int | Iterable[int], step: int = BLOCK_BYTES) -> list[int]:
    """``"30..1500"`` (inclusive, in steps of ``step``), ``"30..1500/60"`` (steps of 60),
    ``"296,576,1500"``, an int or an iterable of ints -> a list of ints."""
    if isinstance(spec, int):
        return [spec]
    if not isinstance(spec, str):
        return [int(v) for v in spec]
    out: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if ".." in part:
                lo_text, rest = part.split("..", 1)
                hi_text, _, step_text = rest.partition("/")
                lo, hi = int(lo_text), int(hi_text)
                by = int(step_text) if step_text else step
                if by <= 0 or hi < lo:
                    raise ValueError
                out.extend(range(lo, hi + 1, by))
            else:
                out.append(int(part))
        except ValueError:
            raise InvalidValueError(
                f"range: {part!r} is not N, LO..HI or LO..HI/STEP with LO <= HI, STEP > 0"
            ) from None
    return out


def read_trace(trace: str | os.PathLike[str]) -> str:
    """The ``block_trace`` text of ``trace``: a path to a file, or the text itself (anything
    with a line break, or only ``0``/``1``)."""
    text = None if isinstance(trace, os.PathLike) else str(trace)
    if text is not None and ("\n" in text or (text and set(text.strip()) <= {"0", "1"})):
        return text
    try:
        return Path(trace).read_text()
    except OSError as exc:
        raise LossylinkIOError(f"trace: {exc.strerror or exc}: {str(trace)!r}") from None


@dataclass
class Retrace:
    """What ReTracer made of one trace."""

    rlp: pd.DataFrame
    """One row per frame size: ``frame_bytes``, ``throughput_bps``,
    ``retransmission_fraction``, ``frames_sent``, ``frames_delivered``."""
    e2e: pd.DataFrame
    """One row per MTU: ``mtu``, ``throughput_bps``, ``retransmission_fraction``,
    ``multi_loss_share`` (runs of ≥ 2 back-to-back lost packets, Fig 4-15), ``packets_sent``,
    ``packets_delivered``, ``rlp_bps`` and ``rlp_vj_bps`` (Tab 4-14's link-ARQ rows at the best
    frame of the sweep)."""
    loss_runs: pd.DataFrame
    """Every run of back-to-back lost packets: ``mtu``, ``length``."""
    blocks: int
    erasures: int
    bler: float

    @property
    def best_frame(self) -> int:
        """The frame size of the highest RLP throughput (the smallest of equals)."""
        if self.rlp.empty:
            raise InvalidValueError("frames: no frame size was retraced")
        return int(self.rlp.loc[self.rlp["throughput_bps"].idxmax(), "frame_bytes"])

    @property
    def best_mtu(self) -> int:
        """The MTU of the highest end-to-end throughput."""
        if self.e2e.empty:
            raise InvalidValueError("mtus: no MTU was retraced")
        return int(self.e2e.loc[self.e2e["throughput_bps"].idxmax(), "mtu"])

    def rlp_bps(self, frame: int) -> float:
        """RLP payload throughput at ``frame`` bytes."""
        row = self.rlp[self.rlp["frame_bytes"] == frame]
        if row.empty:
            raise InvalidValueError(f"frame: {frame} was not retraced")
        return float(row["throughput_bps"].iloc[0])

    def e2e_row(self, mtu: int) -> dict[str, Any]:
        """The end-to-end row of ``mtu``."""
        row = self.e2e[self.e2e["mtu"] == mtu]
        if row.empty:
            raise InvalidValueError(f"mtu: {mtu} was not retraced")
        return {k: v.item() if hasattr(v, "item") else v for k, v in row.iloc[0].items()}


def retrace(
    trace: str | os.PathLike[str],
    frames: str | int | Iterable[int] = DEFAULT_FRAMES,
    mtus: str | int | Iterable[int] = DEFAULT_MTUS,
    *,
    packing: str = "continuous",
) -> Retrace:
    """Retrace ``trace`` (text or a path) for RLP frames of ``frames`` bytes (multiples of 30,
    e.g. ``"30..1410"``) and pure end-to-end recovery at ``mtus`` (``packing``: packets back to
    back in the byte stream, ``"continuous"``, or each on a block boundary, ``"aligned"``)."""
    import pandas as pd

    text = read_trace(trace)
    tables = _core.retrace(text, parse_range(frames), parse_range(mtus, 1), packing)
    summary = tables["trace"]
    return Retrace(
        rlp=pd.DataFrame(tables["rlp"]),
        e2e=pd.DataFrame(tables["e2e"]),
        loss_runs=pd.DataFrame(tables["loss_runs"]),
        blocks=int(summary["blocks"][0]),
        erasures=int(summary["erasures"][0]),
        bler=float(summary["bler"][0]),
    )


def erasure_trace(profile: str, minutes: int = 60, seed: int = 1, *, even: bool = False) -> str:
    """A synthetic block-erasure trace (``block_trace`` text) of ``minutes`` from ``profile``
    (``good``, ``poor-b``, ``poor-c``, ``fading-c``, or a clustered reading such as
    ``poor-c@2s`` or ``poor-c@500ms:dense``, :data:`PROFILES`); ``even``: its ``_even`` version
    (the same erasures, isolated and evenly spaced). An unknown profile raises
    :class:`~lossylink.errors.InvalidValueError` naming the field ``profile``."""
    return str(_core.erasure_trace(profile, minutes, seed, even))


def erasure_stats(trace: str | os.PathLike[str]) -> dict[str, Any]:
    """The statistics the dissertation publishes of its traces: ``minute_bler`` (one BLER per
    whole minute) and ``bursts`` (the lengths of the runs of erased blocks), numpy arrays."""
    tables = _core.erasure_stats(read_trace(trace))
    return {"minute_bler": tables["minutes"]["bler"], "bursts": tables["bursts"]["length"]}
