"""Every target of the TCP-ELN study under every reading the paper leaves open (DESIGN.md rule
13): the headline verdicts read the headline runs; here each target's value function reads a
variant's runs instead (:class:`VariantView`), and the values across the readings form the
target's *band*. An "explained" verdict stands only where the whole band is outside the accepted
range (the mechanism holds under every reading); where some reading passes, the band names it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lossylink.outcomes import Measurements
from lossylink.papers._base import Target, Unavailable
from lossylink.papers.buchholcz import runs as r
from lossylink.report import Grid

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

HEADLINE = "headline"
BAND_VARIANTS = {
    "ftp": (*(k for k, *_ in r.KNOBS), "modern", "iw1", "lt"),
    "web": ("per-mobile", "modern", "iw1", "lt", "hack"),
    "mechanism": (),
}
"""The readings each target table's band runs over."""

HEADLINE_TEXT = {
    "ftp": "ns-2 2003 baseline with RFC 2001 Reno; C2 = W, C6 on",
    "web": "ns-2 2003 baseline with RFC 2001 Reno; 5 sessions in all; C2 = W, C6 on; oracle "
    "attribution",
    "mechanism": "ns-2 2003 baseline with RFC 2001 Reno; C2 = W, C6 on",
}


class VariantView:
    """The measurements as one reading sees them: an experiment id names the variant's run
    where it has one, else the headline run (Reno under an ELN-only variant)."""

    def __init__(self, m: Measurements, variant: str, ids: set[str]) -> None:
        self._m = m
        self._variant = variant
        self._ids = ids

    def _id(self, exp: str) -> str:
        alt = f"{exp}~{self._variant}"
        return alt if self._variant and alt in self._ids else exp

    def values(self, exp: str, metric: str) -> Sequence[float]:
        return self._m.values(self._id(exp), metric)

    def trace(self, run: str) -> dict[str, Any]:
        return self._m.trace(run)


def value(t: Target, m: Any) -> float | None:
    """The target's value under a view, or None."""
    try:
        v = float(t.value(m))
    except (Unavailable, ZeroDivisionError):
        return None
    return v if math.isfinite(v) else None


def inside(t: Target, v: float | None) -> bool:
    lo, hi = t.accept
    return v is not None and lo <= v <= hi


def band(rep: Reproduction, t: Target) -> dict[str, float | None]:
    """``{reading: value}``: the headline and every variant of the target's table that ran."""
    m = Measurements(rep.outcomes, rep.traced)
    ids = {o.experiment.id for o in rep.outcomes if o.available}
    out = {HEADLINE: value(t, m)}
    for variant in BAND_VARIANTS.get(t.table, ()):
        if not any(i.endswith(f"~{variant}") for i in ids):
            continue
        out[variant] = value(t, VariantView(m, variant, ids))
    return out


def _fmt(v: float | None, t: Target) -> str:
    if v is None:
        return "n/a"
    mark = "✓" if inside(t, v) else "✗"
    return f"{v:.3g} {mark}"


def band_table(rep: Reproduction, targets: Sequence[Target]) -> list[Grid]:
    """One grid per target table: each target's value under every reading (✓ inside the
    accepted range), and the band (min-max) over them."""
    grids = []
    for table in ("ftp", "web"):
        ts = [t for t in targets if t.table == table]
        if not ts:
            continue
        variants = [HEADLINE, *BAND_VARIANTS[table]]
        bands = [band(rep, t) for t in ts]
        shown = [v for v in variants if any(v in b for b in bands)]
        rows = []
        for t, b in zip(ts, bands, strict=True):
            vals = [x for x in b.values() if x is not None]
            span = f"{min(vals):.3g} to {max(vals):.3g}" if vals else "n/a"
            passing = [k for k in shown if k != HEADLINE and inside(t, b.get(k))]
            rows.append(
                [t.id, f"{t.accept[0]:g} to {t.accept[1]:g}"]
                + [_fmt(b.get(k), t) if k in b else "" for k in shown]
                + [span, ", ".join(passing) or "none"]
            )
        header = ["target", "accept", *[_title(k) for k in shown], "band", "other readings inside"]
        note = (
            f"Headline: {HEADLINE_TEXT[table]}. Each other column changes one thing: "
            + "; ".join(f"{k}: {_title_long(k)}" for k in shown if k != HEADLINE)
            + ". ✓: inside the accepted range. A verdict 'explained' needs the whole band "
            "outside it; where another reading is inside, that reading is named."
        )
        grids.append(Grid(f"band-{table}", f"Readings: {table.upper()} targets", header, rows,
                          note))  # fmt: skip
    return grids


def _title(k: str) -> str:
    return k


def _title_long(k: str) -> str:
    return r.BY_VARIANT[k].title if k in r.BY_VARIANT else k
