"""The timer figures of Ludwig (2000) in the dissertation's style (spec §4.2, "Timer plots"):
RTT(i), RTO(i-1) and REXMT against time. S10 from the steady-state model (Figs 5-8, 5-9,
5-11, 5-13, 5-14), S9 from the traced runs of the timer testbed (Figs 5-10, 5-12, 5-15,
5-19; RTO_E drawn without connecting lines, so the fast-recovery gaps show)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from lossylink.papers.ludwig2000.timers import runs as tm
from lossylink.report import placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure

RTT = "#7f8c8d"
RTO = "#1f4e9c"
REXMT = "#c0392b"


def _panel(ax: Any, rows: dict[str, np.ndarray], title: str, rexmt: bool) -> None:
    t = np.asarray(rows["time_s"], dtype=float)
    ax.plot(t, rows["rtt_s"], ".", ms=2, color=RTT, label="RTT(i)")
    ax.plot(t, rows["rto_prev_s"], "-", lw=1.0, color=RTO, label="RTO(i-1)")
    if rexmt:
        ax.plot(t[:-1], np.asarray(rows["rexmt_restart_s"])[:-1], "-", lw=0.8, color=REXMT,
                label="REXMT restarted on each ACK (from the oldest segment's send)")  # fmt: skip
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("Time (sec)", fontsize=8)
    ax.set_ylabel("Seconds", fontsize=8)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=6, loc="upper left")


def model_figure(fig: Figure) -> Any:
    """Four panels: RTO_L at W = 10, 1 ms (Figs 5-8, 5-11) and W = 40, 500 ms (Fig 5-9), RTO_E
    at W = 10 (Fig 5-13), and RTO_E/RTT over a cycle for W = 10, 20, 40 (Fig 5-14)."""
    from lossylink.plots import subplots

    f, axes = subplots(2, 2, figsize=(10.0, 7.5), squeeze=False)
    cut = lambda rows, c0: {k: np.asarray(v)[np.asarray(rows["cycle"]) >= c0]  # noqa: E731
                            for k, v in rows.items()}  # fmt: skip
    _panel(
        axes[0][0],
        cut(tm.model(10, "1ms", "lite"), 2),
        "Figs 5-8, 5-11: RTO_L, W = 10, 1 ms: spikes when the RTT drops",
        True,
    )
    _panel(
        axes[0][1],
        cut(tm.model(40, "500ms", "lite"), 4),
        "Fig 5-9: RTO_L, W = 40, 500 ms, every ACK timed: collapses into the RTT",
        False,
    )
    _panel(
        axes[1][0],
        cut(tm.model(10, "1ms", "eifel"), 2),
        "Fig 5-13: RTO_E, W = 10, 1 ms: no spikes (REXMT_E = RTO_E)",
        False,
    )
    ax = axes[1][1]
    for w, colour in ((10, "#1f4e9c"), (20, "#27ae60"), (40, "#c0392b")):
        rows = tm.model(w, "1ms", "eifel")
        last = np.asarray(rows["cycle"]) == tm.CYCLES - 1
        t = np.asarray(rows["time_s"], dtype=float)[last]
        ratio = np.asarray(rows["rto_prev_s"])[last] / np.asarray(rows["rtt_s"])[last]
        ax.plot((t - t[0]) / (t[-1] - t[0]), ratio, "-", lw=1.0, color=colour, label=f"W = {w}")
    ax.set_title("Fig 5-14: RTO_E(i-1)/RTT(i) over one cycle, W = 10, 20, 40", fontsize=8)
    ax.set_xlabel("Fraction of the cycle", fontsize=8)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7)
    f.suptitle(fig.title, fontsize=9.5)
    f.text(0.5, 0.005, "Steady-state model (spec §3.13.1) with the simulator's estimators; a "
           "segment's service time 6.25 s (1500 bytes at 240 B/s). Not a simulation run.",
           ha="center", fontsize=7, color="#444")  # fmt: skip
    f.tight_layout(rect=(0, 0.02, 1, 0.97))
    return f


def agg_figure(fig: Figure) -> Any:
    """Fig 5-18 from the model: RTT(i), RTO_AGG(i-1) and RTO_E(i-1) over cycles 1-20, the
    spurious timeouts marked; below, AGG with its timeouts acted on and without (the
    counterfactual: AGG never learns)."""
    from lossylink.plots import subplots

    f, (top, bottom) = subplots(2, 1, figsize=(10.0, 7.0), squeeze=True)
    agg, eifel, shown = tm.agg_model(), tm.agg_model(timer="eifel"), tm.agg_model("shown")

    def cut(rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        c = np.asarray(rows["cycle"])
        keep = (c >= 1) & (c <= 20)
        return {k: np.asarray(v)[keep] for k, v in rows.items()}

    a, e, s = cut(agg), cut(eifel), cut(shown)
    t = np.asarray(a["time_s"], dtype=float)
    top.plot(t, a["rtt_s"], ".", ms=1.5, color=RTT, label="RTT(i)")
    top.plot(t, e["rto_prev_s"], "-", lw=0.8, color="#95a5a6", label="RTO_E(i-1)")
    top.plot(t, a["rto_prev_s"], "-", lw=1.0, color=RTO, label="RTO_AGG(i-1)")
    hit = np.asarray(a["timeouts"]) > 0
    top.plot(np.asarray(a["timeout_s"], dtype=float)[hit], np.asarray(a["rto_prev_s"])[hit],
             "x", color=REXMT, ms=6, label="spurious timeout (detected by Eifel)")  # fmt: skip
    top.set_ylabel("Seconds", fontsize=8)
    top.set_ylim(bottom=0)
    top.legend(fontsize=6, loc="upper left")
    top.set_title("RTO_AGG converges towards the RTT until a spurious timeout pushes AGG halfway "
                  "back to 1", fontsize=8)  # fmt: skip
    bottom.plot(t, a["agg"], "-", lw=1.0, color=RTO, label="AGG, timeouts acted on")
    bottom.plot(t, s["agg"], "--", lw=1.0, color="#7f8c8d",
                label="AGG, timeouts only computed (counterfactual)")  # fmt: skip
    bottom.set_xlabel("Time (sec)", fontsize=8)
    bottom.set_ylabel("AGG", fontsize=8)
    bottom.set_ylim(0, 1.05)
    bottom.legend(fontsize=6, loc="lower left")
    f.suptitle(fig.title, fontsize=9.5)
    f.text(0.5, 0.005, "Steady-state model (spec §3.13.1), W = MAXCWND = 26, cycles 1-20; a "
           "segment's service time 6.25 s. Not a simulation run.", ha="center", fontsize=7,
           color="#444")  # fmt: skip
    f.tight_layout(rect=(0, 0.02, 1, 0.97))
    return f


def s9_figure(rep: Reproduction, fig: Figure) -> Any:
    """One panel per S9 run: RTT samples and RTO(i-1) of its ``rtt`` trace table, its fast
    retransmits marked."""
    from lossylink.plots import subplots

    traces = []
    for run_id in fig.runs:
        t = next((t for t in rep.traced if t.run.id == run_id), None)
        if t is not None and t.result is not None and t.result.trace is not None:
            traces.append((run_id, t.result.trace))
    if not traces:
        return placeholder(fig, rep)
    f, axes = subplots(2, 2, figsize=(10.0, 7.5), squeeze=False)
    by_id = {e.id: e for e in tm.EXPERIMENTS}
    for ax, (run_id, trace) in zip([a for row in axes for a in row], traces, strict=False):
        r = trace["rtt"]
        t = np.asarray(r["time_s"], dtype=float)
        rto = np.asarray(r["rto_s"], dtype=float)
        ax.plot(t, r["rtt_s"], ".", ms=2, color=RTT, label="RTT(i)")
        style = ("o", 1.5) if "eifel" in run_id else ("-", 1.0)
        ax.plot(t[1:], rto[:-1], style[0], lw=style[1], ms=style[1], color=RTO,
                label="RTO(i-1)")  # fmt: skip
        ev = trace["events"]
        kind = np.asarray(ev["kind"], dtype=object)
        fr = np.asarray(ev["time_s"], dtype=float)[kind == "fast-retransmit"]
        for x in fr:
            ax.axvline(x, color="#e67e22", lw=0.6, ls=":")
        e = by_id[run_id]
        ax.set_title(f"{e.figure}: {e.description.split(': ', 1)[1]}", fontsize=8)
        ax.set_xlabel("Time (sec)", fontsize=8)
        ax.set_ylabel("Seconds", fontsize=8)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=6, loc="upper left")
    f.suptitle(fig.title, fontsize=9.5)
    f.text(0.5, 0.005, "Dotted: fast retransmits (the congestion signal, a drop at the 40-packet "
           "interface queue). RTO_L is capped at 600 s here (BSD: 64 s).", ha="center",
           fontsize=7, color="#444")  # fmt: skip
    f.tight_layout(rect=(0, 0.02, 1, 0.97))
    return f
