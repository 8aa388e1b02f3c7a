"""Experiment catalogues of the papers lossylink reproduces (data only: configs, paper values,
targets). :mod:`lossylink.reproduce` runs them; ``lossylink.reports.<name>`` writes the
paper's own report sections. The interface of a catalogue module is described in
:mod:`lossylink.papers._base`."""

from __future__ import annotations

from types import ModuleType

from lossylink.errors import InvalidValueError
from lossylink.papers import balakrishnan97, ludwig2000

PAPERS: dict[str, ModuleType] = {m.NAME: m for m in (balakrishnan97, ludwig2000)}
"""Paper name (as on the command line) -> catalogue module."""


def catalogue(name: str) -> ModuleType:
    """The catalogue module of paper ``name``; an unknown name raises
    :class:`~lossylink.errors.InvalidValueError` listing the known ones."""
    try:
        return PAPERS[name]
    except KeyError:
        known = ", ".join(PAPERS)
        raise InvalidValueError(f"paper: unknown paper {name!r} (known: {known})") from None


__all__ = ["PAPERS", "balakrishnan97", "catalogue", "ludwig2000"]
