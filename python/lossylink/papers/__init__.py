"""Experiment catalogues of the papers lossylink reproduces (data only: configs, paper values,
targets). :mod:`lossylink.reproduce` runs them."""

from __future__ import annotations

from lossylink.papers import balakrishnan97

PAPERS = {"balakrishnan97": balakrishnan97}
"""Paper name (as on the command line) -> catalogue module."""

__all__ = ["PAPERS", "balakrishnan97"]
