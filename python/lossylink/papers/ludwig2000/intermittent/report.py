"""The report part of S13 of Ludwig (2000): the throughput by hold length, Reno and Eifel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers.ludwig2000.intermittent.runs import SWEEP_HOLDS_S, run_id
from lossylink.report import find, placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure


def hold_bars(rep: Reproduction, fig: Figure) -> Any:
    """S13's throughput, Reno and Eifel, for each hold length, Eifel's gain above its bar."""
    from lossylink import plots

    bars = []
    for d in SWEEP_HOLDS_S:
        pair = []
        for scheme, who in (("e2e", "Reno"), ("e2e+eifel", "Eifel")):
            o = find(rep.outcomes, run_id(scheme, d))
            s = o.summary() if o is not None and o.results else None
            if s is not None:
                pair.append((f"{d:g} s holds\n{who}", s.mean))
        if len(pair) == 2:
            (lr, reno), (le, eifel) = pair
            bars += [(lr, reno, f"{reno:.3f}"),
                     (le, eifel, f"{eifel:.3f} ({100 * (eifel / reno - 1):+.0f} %)")]  # fmt: skip
    if not bars:
        return placeholder(fig, rep)
    notes = [
        "wan preset, no errors, 8 MiB; twelve link-stage holds every 10 s from 5 s on the "
        "wireless hop (data direction).",
        "Dissertation: Eifel gains 'several tens of percent' under intermittent connectivity "
        "(no parameters given).",
    ]
    return plots.comparison_bars(fig.title, bars, "Throughput (Mbit/s)", notes)
