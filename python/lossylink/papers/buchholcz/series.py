"""The TCP-ELN study's series: per error setting of a group of experiments, Reno's and
TCP-ELN's mean over seeds, and the paper's improvement measures over them (the report's tables
and figures and the measured extras read them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lossylink.papers.buchholcz import runs as r
from lossylink.papers.buchholcz.targets import GOODPUT, RESPONSE
from lossylink.report import find

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

METRIC = {"ftp": GOODPUT, "web": RESPONSE}
"""The headline metric of each traffic."""


def xs_of(group: str) -> list[float]:
    traffic, kind = group.split("-")
    if kind == "markov":
        return [float(k) for k in r.MARKOV]
    return list(r.UNIFORM_P if traffic == "ftp" else r.WEB_UNIFORM_P)


def exp_id(group: str, x: float, label: str, variant: str = "") -> str:
    traffic, kind = group.split("-")
    key = f"{x:g}" if kind == "uniform" else str(int(x))
    return r.exp_id(traffic, kind, key, label, variant)


def _mean(rep: Reproduction, run_id: str, metric: str) -> float | None:
    o = find(rep.outcomes, run_id)
    if o is None or not o.results:
        return None
    v = o.values(metric)
    return sum(v) / len(v) if v else None


def _variant_id(rep: Reproduction, group: str, x: float, label: str, variant: str) -> str:
    """The run of ``label`` under ``variant``, or the headline's where the variant leaves it."""
    alt = exp_id(group, x, label, variant)
    return alt if variant and find(rep.outcomes, alt) is not None else exp_id(group, x, label)


def series(
    rep: Reproduction, group: str, variant: str = ""
) -> tuple[list[float], list[float], list[float]]:
    """x, Reno and TCP-ELN (mean over seeds) where both ran, under ``variant``."""
    traffic = group.split("-")[0]
    xs, reno, eln = [], [], []
    for x in xs_of(group):
        if variant and find(rep.outcomes, exp_id(group, x, "eln", variant)) is None:
            continue
        a = _mean(rep, _variant_id(rep, group, x, "reno", variant), METRIC[traffic])
        b = _mean(rep, _variant_id(rep, group, x, "eln", variant), METRIC[traffic])
        if a is not None and b is not None:
            xs.append(x)
            reno.append(a)
            eln.append(b)
    return xs, reno, eln


def gain(traffic: str, reno: float, eln: float) -> float:
    """I = T_ELN/T_Reno - 1 (FTP) or R = (RT_Reno - RT_ELN)/RT_Reno (web), in %."""
    if traffic == "ftp":
        return 100.0 * (eln / reno - 1.0) if reno > 0 else float("nan")
    return 100.0 * (reno - eln) / reno if reno > 0 else float("nan")


def speedup(reno: float, eln: float) -> float:
    """The web's other reading of "better": RT_Reno/RT_ELN - 1, in % (the FTP metric's form)."""
    return 100.0 * (reno / eln - 1.0) if eln > 0 else float("nan")
