"""The figure of S12 at the packet level (RT14): the loss per case, Reno, Eifel and Eifel + burst
pacer, with the squares model's number marked (runs in
:mod:`lossylink.papers.ludwig2000.spurious`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers._base import Unavailable
from lossylink.papers.ludwig2000 import spurious as sp
from lossylink.papers.ludwig2000.spurious_targets import EVENT_TEXT, model_pct
from lossylink.report import placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure

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
