"""The figures of Ludwig (2000)'s hiccup experiments: time-sequence plots in the dissertation's
style (every segment and ACK, the hiccup shaded, timeouts, fast retransmits, local drops and
undos marked; with the burst pacer, the stretch its restored window leaves over; the other
families' time-sequence figures are drawn the same way), and the S11 throughput comparison
(Fig 5-16)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers import ludwig2000 as l2k
from lossylink.report import find, placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure


def kbps(v: float) -> float:
    """Mbit/s to kbit/s (the hiccup testbed's 9.6 kbit/s)."""
    return 1000.0 * v


def seq_figure(rep: Reproduction, fig: Figure) -> Any:
    """The time-sequence plot of ``fig``: one panel per traced run, its hiccup shaded."""
    from lossylink import plots

    panels, spans = [], []
    for run_id in fig.runs:
        t = next((t for t in rep.traced if t.run.id == run_id), None)
        if t is None or t.result is None or t.result.trace is None:
            continue
        e = l2k.TRACED_RUNS[run_id]
        panels.append((f"{e.scenario}: {e.description}", t.result.trace))
        if fig.kind == "pacer":
            spans.append(_restore_span(run_id, t.result.trace))
            continue
        s = e.shade
        spans.append(None if s is None else plots.Span(s.start, s.end, s.label))
    if not panels:
        return placeholder(fig, rep)
    return plots.seq_figure(panels, fig.title, xlim=fig.xlim, spans=spans, detail=True)


def _restore_span(run_id: str, trace: Any) -> Any:
    """The Eifel restore of an S8e run: the instant of the undo, or, with the burst pacer, the
    stretch over which the restored window leaves (the undo to the last segment it paced)."""
    from lossylink import plots
    from lossylink.papers._base import Unavailable
    from lossylink.papers._trace import SenderTrace

    try:
        tr = SenderTrace(run_id, trace)
        undo = tr.first("spurious-undo").t
    except Unavailable:
        return None
    sends = [e.t for e in tr.ev if e.t >= undo and e.kind == "send"]
    if run_id == "s8e" or len(sends) < 2:
        n = sum(1 for t in sends if t == undo)
        return plots.Span(undo, undo, f"Eifel restore: {n} segments at once")
    # The pacer releases the restored window over one smoothed RTT; the round trip of the
    # segment the undo's ACK covers is a sample of it.
    acked = tr.first("spurious-undo").seq
    sent = [e.t for e in tr.ev if e.t < undo and e.kind == "send" and e.seq < acked]
    rtt = undo - sent[-1] if sent else 0.0
    return plots.Span(undo, undo + rtt, f"restored window released over {rtt:.1f} s (one RTT)")


S11_ARMS = (
    ("s11-restart", "REXMT_L\nRTO_L"),
    ("s11-precise", "REXMT_E\nRTO_L"),
    ("s11-eifel-restart", "REXMT_L\nRTO_E (ablation)"),
    ("s11-eifel-precise", "REXMT_E\nRTO_E (ablation)"),
)


def s11_bars(rep: Reproduction, fig: Figure) -> Any:
    """Fig 5-16 (S11): the throughput of each timer arm, the gain over REXMT_L above its bar."""
    from lossylink import plots

    bars = []
    base: float | None = None
    for exp_id, label in S11_ARMS:
        o = find(rep.outcomes, exp_id)
        s = o.summary() if o is not None and o.results else None
        if s is None:
            continue
        v = kbps(s.mean)
        if exp_id.endswith("restart"):
            base, text = v, f"{v:.2f}"
        else:
            text = f"{v:.2f} ({100 * (v / base - 1):+.0f} %)" if base else f"{v:.2f}"
        bars.append((label, v, text))
    if not bars:
        return placeholder(fig, rep)
    notes = [
        "Dissertation (RTO_L in both arms): REXMT_E gives almost 30 % more throughput.",
        "Hiccup testbed, 1-packet interface queue: every drop is repaired by a timeout.",
    ]
    return plots.comparison_bars(fig.title, bars, "Throughput (kbit/s)", notes)
