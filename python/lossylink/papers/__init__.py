"""The papers lossylink reproduces, one package each (``balakrishnan97``, ``ludwig2000``,
``buchholcz``): its catalogue in ``__init__`` (data only: configs, paper values, targets), the
parts it is assembled from, and its report sections in ``report``. :mod:`lossylink.reproduce`
runs them; the interface of a catalogue module is described in :mod:`lossylink.papers._base`."""

from __future__ import annotations

from types import ModuleType

from lossylink.errors import InvalidValueError
from lossylink.papers import balakrishnan97, buchholcz, llelsn, ludwig2000

PAPERS: dict[str, ModuleType] = {m.NAME: m for m in (balakrishnan97, ludwig2000, buchholcz, llelsn)}
"""Paper name (as on the command line) -> catalogue module."""


def catalogue(name: str) -> ModuleType:
    """The catalogue module of paper ``name``; an unknown name raises
    :class:`~lossylink.errors.InvalidValueError` listing the known ones."""
    try:
        return PAPERS[name]
    except KeyError:
        known = ", ".join(PAPERS)
        raise InvalidValueError(f"paper: unknown paper {name!r} (known: {known})") from None


__all__ = ["PAPERS", "balakrishnan97", "buchholcz", "catalogue", "llelsn", "ludwig2000"]
