"""The report parts of S12 of Ludwig (2000), the cost of a spurious retransmission: the squares
model of Fig 5-7 (a table and the figure, computed by
:mod:`lossylink.papers.ludwig2000.spurious_cost.model`: an analytical model, no run), and the
packet-level loss per case (RT14), Reno, Eifel and Eifel + burst pacer, with the squares model's
number marked (runs in :mod:`lossylink.papers.ludwig2000.spurious_cost.runs`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from lossylink.papers._base import Unavailable
from lossylink.papers.ludwig2000.spurious_cost import model as squares
from lossylink.papers.ludwig2000.spurious_cost import runs as sp
from lossylink.papers.ludwig2000.spurious_cost.targets import (
    EVENT_NAME,
    EVENT_TEXT,
    MODEL_TABLE,
    MODEL_W,
    PIPE_NAME,
    model_pct,
)
from lossylink.report import Grid, placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure

MODEL_COLUMNS = ("event", "pipe", "load", "interval (cycles)", "squares without", "squares with",
                 "loss %", "dissertation %")  # fmt: skip
WITHOUT, WITH, LOST, GAINED, PIPE = "#1f4e9c", "#c0392b", "#f5b7b1", "#abebc6", "#d6eaf8"


def model_table() -> Grid:
    """The four graphs of Fig 5-7 from the model: the drop, the interval, the squares, the
    loss, beside the dissertation's."""
    rows = []
    for c in squares.cases(MODEL_W):
        rows.append([
            EVENT_NAME[c.event], PIPE_NAME[c.pipe],
            f"W/2 → {'W/4' if c.event == 'fast-retransmit' else '0'}", f"{c.interval:g}",
            f"{c.without:g}", f"{c.with_:g}", f"{c.loss_pct:.1f}",
            f"{squares.DISSERTATION_PCT[(c.event, c.pipe)]:g}",
        ])  # fmt: skip
    return Grid(
        "s12-model",
        "S12: the squares model of Fig 5-7 (analytical, not a simulation)",
        list(MODEL_COLUMNS),
        rows,
        "Load rising at one segment per RTT, throughput per RTT = min(load, pipe); the event hits "
        "at a cycle start (load W/2) and the interval lasts until the load is back at W. A cycle "
        "is W/2 RTTs, a square (W/4)² segment·RTTs; the numbers do not depend on W.",
    )


def sections(rep: Reproduction) -> list[tuple[str, str, list[Grid]]]:
    """The model section, when the S12 targets are part of ``rep``."""
    if not any(v.target.table == MODEL_TABLE for v in rep.verdicts):
        return []
    return [("s12", "S12: the cost model of Fig 5-7 (analytical)", [model_table()])]


def squares_figure(fig: Figure) -> Any:
    """Fig 5-7 from the model: one panel per event (columns) and pipe (rows, W/2 above W),
    load against time in cycles, the pipe shaded, the squares lost in red."""
    from lossylink.plots import subplots

    f, axes = subplots(2, 2, figsize=(9.0, 7.0), sharey=True, squeeze=False)
    legend: dict[str, Any] = {}
    for col, event in enumerate(squares.EVENTS):
        t, without, with_ = squares.load_curves(event, MODEL_W)
        for row, pipe in enumerate(squares.PIPES):
            ax, c = axes[row][col], squares.case(event, pipe, MODEL_W)
            ax.axhspan(0.0, pipe, color=PIPE, zorder=0, label=f"pipe capacity {PIPE_NAME[pipe]}")
            after = t >= squares.CYCLES_BEFORE
            sent_without = np.minimum(without, pipe)
            sent_with = np.minimum(with_, pipe)
            ax.fill_between(t, sent_with, sent_without, where=after & (sent_without > sent_with),
                            color=LOST, zorder=1, label="squares lost")  # fmt: skip
            # Where the load without the event halves and the load with it does not yet, the
            # sender with it sends more: those squares count against the loss.
            ax.fill_between(t, sent_without, sent_with, where=after & (sent_with > sent_without),
                            color=GAINED, zorder=1, label="squares gained back")  # fmt: skip
            ax.plot(t, without, "--", color=WITHOUT, lw=1.0, label="load without")
            ax.plot(t, with_, color=WITH, lw=1.4, label="load with the spurious retransmission")
            ax.axvline(squares.CYCLES_BEFORE, color="grey", lw=0.6, ls=":")
            # The squares: W/4 RTTs (half a cycle) by W/4 segments.
            for x in np.arange(0.0, t[-1] + 1e-9, 0.5):
                ax.axvline(x, color="white", lw=0.5, zorder=0.5)
            for y in (0.25, 0.5, 0.75):
                ax.axhline(y, color="white", lw=0.5, zorder=0.5)
            ax.set_xlim(0.0, t[-1])
            ax.set_ylim(0.0, 1.08)
            ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "W/4", "W/2", "3W/4", "W"])
            ax.set_title(
                f"{EVENT_NAME[event]}, pipe {PIPE_NAME[pipe]}\n{c.without:g} against "
                f"{c.with_:g} squares: loss {c.loss_pct:.1f} % (dissertation "
                f"{squares.DISSERTATION_PCT[(event, pipe)]:g} %)", fontsize=8,
            )  # fmt: skip
            if row == 1:
                ax.set_xlabel("Time (cycles of W/2 RTTs)")
            if col == 0:
                ax.set_ylabel("Load (segments in flight)")
            for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
                legend.setdefault(label.replace(f" {PIPE_NAME[pipe]}", ""), h)
    f.suptitle(fig.title, fontsize=9.5)
    f.legend(list(legend.values()), list(legend.keys()), loc="lower center", ncol=3, fontsize=7,
             bbox_to_anchor=(0.5, 0.03))  # fmt: skip
    f.text(0.5, 0.005, "Analytical model (spec §3.13.3), not a simulation run: a square is "
           "(W/4)² segment·RTTs (the white grid); the loss counts from the event until the load "
           "is back at W.", ha="center", fontsize=7, color="#444")  # fmt: skip
    f.tight_layout(rect=(0, 0.1, 1, 0.97))
    return f


COLORS = {"e2e": "#7f8c8d", "eifel": "#c0392b", "pacer": "#1f4e9c"}


def losses(rep: Reproduction) -> dict[tuple[str, str], dict[str, float]]:
    """``{(event, pipe): {arm: loss %}}`` for the cases whose runs are available."""
    from lossylink.outcomes import Measurements

    m = Measurements(rep.outcomes, rep.traced)
    out = {}
    for event in sp.EVENTS:
        for pipe in sp.QUEUES:
            try:
                c = sp.Case(m, pipe, event)
                out[(event, pipe)] = {arm: c.loss(arm) for arm in sp.ARMS}
            except Unavailable:
                continue
    return out


def spurious_bars(rep: Reproduction, fig: Figure) -> Any:
    """Grouped bars (symlog scale: the losses span 0.0 … 221 %), the model's loss a black
    tick over each group."""
    from lossylink.plots import subplots

    data = losses(rep)
    if not data:
        return placeholder(fig, rep)
    f, ax = subplots(figsize=(9.0, 4.8))
    width = 0.26
    labels = []
    for i, ((event, pipe), by_arm) in enumerate(data.items()):
        labels.append(f"{EVENT_TEXT[event]}\npipe {sp.PIPE_LABEL[pipe]} (queue {sp.QUEUES[pipe]})")
        for j, arm in enumerate(sp.ARMS):
            x, v = i + (j - 1) * width, by_arm[arm]
            ax.bar(x, v, width, color=COLORS[arm], label=sp.ARM_LABEL[arm] if i == 0 else None)
            ax.text(x, max(v, 0.0) * 1.15 + 0.05, f"{v:.1f}", ha="center", va="bottom",
                    fontsize=7)  # fmt: skip
        pct = model_pct(event, pipe)
        ax.hlines(pct, i - 1.6 * width, i + 1.6 * width, colors="black", linestyles="--",
                  label="squares model (Fig 5-7)" if i == 0 else None)  # fmt: skip
        ax.text(i + 1.6 * width, pct, f" {pct:g} %", va="center", fontsize=7)
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set_ylim(0.0, 2000.0)
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylabel("throughput lost, % (symlog)")
    ax.set_title(fig.title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    f.text(0.5, 0.005, "wan preset, 64 KiB windows, one event 1 ms after a cycle-starting fast "
           "retransmit; loss = (without - with) / with over Reno's interval. Eifel at pipe ≈ W "
           "after a reorder: the restore burst overflows the 3-packet queue "
           "(docs/ludwig2000.md#s12-restore-burst).", ha="center", fontsize=6.5, color="#444",
           wrap=True)  # fmt: skip
    f.tight_layout(rect=(0, 0.06, 1, 1))
    return f
