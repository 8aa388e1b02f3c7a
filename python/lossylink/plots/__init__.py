"""Plots (matplotlib), in the style of the paper's figures.

The figures are :class:`matplotlib.figure.Figure` objects made without pyplot, so importing
this module never changes the matplotlib backend of the process (a notebook keeps its inline
backend) and no figure stays open in pyplot's registry. In Jupyter a figure shows itself inline
(:meth:`LossylinkFigure._repr_png_`); elsewhere write it with :func:`save_figure`.

One module per kind of plot, every public name re-exported here:
:mod:`~lossylink.plots.figure` (the figure, :func:`save_figure`),
:mod:`~lossylink.plots.bars`, :mod:`~lossylink.plots.sequence`, :mod:`~lossylink.plots.cwnd`,
:mod:`~lossylink.plots.repairs`, :mod:`~lossylink.plots.lines`, and
:mod:`~lossylink.plots.traces` (what the trace figures read from a trace).

- :func:`bar_chart`: absolute throughput and % of the maximum on twin axes, goodputs annotated
  (Figures 3, 6, 9; requirement P1).
- :func:`seq_figure`: sequence number against time, with rows of markers for fast
  retransmissions, coarse timeouts and local (base-station) retransmissions (Figures 5, 7, 10; P3);
  with ``detail``, a zoom and a shaded hiccup, in the style of Ludwig (2000)'s Figures 4-3 to
  5-6 (every segment and ACK, local drops and Eifel's undos marked).
- :func:`cwnd_figure`: cwnd (and ssthresh) against time, optional reference line (Figures 4, 8,
  11; P2).
- :func:`sweep_figure`: throughput against the error interval on a log axis (Figure 12; P4);
  :func:`burst_figure`: throughput against burst size (P4).
- :func:`timeline_figure`: which retransmissions repaired losses, and who sent them.
- :func:`comparison_bars`: one bar per arm with a reference value (Ludwig (2000) Fig 5-16).

Trace-based figures take a trace (``{table: {column: array}}``, as in
:attr:`lossylink.RunResult.trace`). A run with several senders (a split connection) has one
``sender*``/``events*`` table pair per sender and gets one panel each.
"""

from __future__ import annotations

from lossylink.plots.bars import Bar, bar_chart, comparison_bars
from lossylink.plots.cwnd import cwnd_figure
from lossylink.plots.figure import (
    COLORS,
    FORMATS,
    KINDS,
    LossylinkFigure,
    Trace,
    new_figure,
    save_figure,
    subplots,
)
from lossylink.plots.lines import (
    burst_figure,
    burst_series,
    line_summary,
    results_figure,
    sweep_figure,
)
from lossylink.plots.repairs import REPAIR_ROWS, repairs, timeline_figure
from lossylink.plots.sequence import Span, seq_figure
from lossylink.plots.traces import (
    LOCAL_DROP,
    Flow,
    acks_received,
    flows,
    local_retransmission_times,
)

__all__ = [
    "COLORS",
    "FORMATS",
    "KINDS",
    "LOCAL_DROP",
    "REPAIR_ROWS",
    "Bar",
    "Flow",
    "LossylinkFigure",
    "Span",
    "Trace",
    "acks_received",
    "bar_chart",
    "burst_figure",
    "burst_series",
    "comparison_bars",
    "cwnd_figure",
    "flows",
    "line_summary",
    "local_retransmission_times",
    "new_figure",
    "repairs",
    "results_figure",
    "save_figure",
    "seq_figure",
    "subplots",
    "sweep_figure",
    "timeline_figure",
]
