"""The figure every plot draws on: a matplotlib :class:`~matplotlib.figure.Figure` made without
pyplot (no backend switch, nothing left in pyplot's registry) that Jupyter shows inline, and
writing it as PNG and SVG without timestamps."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

Trace = Mapping[str, Mapping[str, Any]]

FORMATS = ("png", "svg")
COLORS = {"lan": "#1f4e9c", "wan": "#c0392b"}
KINDS = ("seq", "cwnd", "timeline")
"""Figure kinds drawn from one saved (traced) run."""


class LossylinkFigure(Figure):
    """A matplotlib figure that Jupyter displays inline as PNG without pyplot."""

    def _repr_png_(self) -> bytes:
        import io

        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=90, bbox_inches="tight")
        return buf.getvalue()


def new_figure(figsize: tuple[float, float]) -> Figure:
    """An empty figure outside pyplot (no backend switch, nothing left open)."""
    return LossylinkFigure(figsize=figsize)


def subplots(
    nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float], **kwargs: Any
) -> tuple[Figure, Any]:
    """``pyplot.subplots`` without pyplot: a :func:`new_figure` and its axes."""
    fig = new_figure(figsize)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def save_figure(
    fig: Figure, stem: str | os.PathLike[str], formats: Iterable[str] = FORMATS
) -> list[Path]:
    """Write ``fig`` as ``stem.png`` and ``stem.svg`` (or the given formats); returns the paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = stem.with_name(f"{stem.name}.{fmt}")
        fig.savefig(path, format=fmt, dpi=110, bbox_inches="tight", metadata=_metadata(fmt))
        paths.append(path)
    return paths


def _metadata(fmt: str) -> dict[str, Any]:
    # Reproducible files: no creation date in SVG/PNG metadata.
    if fmt == "svg":
        return {"Date": None}
    if fmt == "png":
        return {"Software": None}
    return {}
