"""The report sections of Ludwig (2000)'s hiccup experiments: one row per run with the counts
that tell the story (timeouts, fast retransmits, retransmissions, Eifel's detections, local
drops), and the figures: time-sequence plots in the dissertation's style (every segment and
ACK, the hiccup shaded, timeouts, fast retransmits, local drops and undos marked), the S11
throughput comparison, the RTO of the Eifel timer against RTO_AGG (Fig 5-18, in
:mod:`lossylink.papers.ludwig2000.report_rto`), and S12's squares model (Fig 5-7, analytical) and
S13's throughput by hold length (in :mod:`lossylink.papers.ludwig2000.report_more`), and S12's
packet-level loss bars (in :mod:`lossylink.papers.ludwig2000.report_spurious`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers import ludwig2000 as l2k
from lossylink.papers._base import Figure
from lossylink.report import NA, Grid, find, mean_ci, placeholder, seed_text

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

COUNTS = (
    ("timeouts", "sender_timeouts", ".0f"),
    ("fast rexmits", "sender_fast_retransmits", ".0f"),
    ("rexmitted segments", "sender_retransmitted_segments", ".0f"),
    ("spurious TO / FR detected", None, ""),
    ("local drops", "sender_local_drops", ".0f"),
    ("completion s", "completion_s", ".2f"),
    ("throughput kbit/s", "throughput_mbps", ""),
)


def describe(rep: Reproduction) -> str:
    """The header line on seeds and transfers."""
    transfer = rep.transfer or (
        "100 KB on the hiccup testbed (S8f: 40 KB; RTO_AGG: 400 KB; LAN, S13: 8 MiB; "
        "S12 packet level: 16 MiB)"
    )
    model = any(v.target.id.startswith("s12.") for v in rep.verdicts)
    return (
        f"seeds per experiment: {seed_text(rep)} (the hiccup runs have no random losses); "
        f"transfer: {transfer}; BSD TCP-Lite (tcp.profile = bsd), timestamps on."
        + (" S12 is an analytical model (Fig 5-7), not a simulation." if model else "")
    )


def _kbps(v: float) -> float:
    return 1000.0 * v


def experiment_table(rep: Reproduction) -> Grid:
    """One row per experiment: what was run and what it measured (mean over seeds)."""
    rows = []
    for o in rep.outcomes:
        e = o.experiment
        label = [e.id, e.scenario, e.figure, e.description]
        if not o.available or not o.results:
            rows.append([*label, f"{NA}: {o.reason}", *("–" for _ in COUNTS[1:]), "0"])
            continue
        cells = []
        for _, metric, fmt in COUNTS:
            if metric is None:
                to, fr = (
                    o.summary("sender_spurious_timeouts"),
                    o.summary("sender_spurious_fast_retransmits"),
                )
                cells.append(f"{mean_ci(to, '.0f')} / {mean_ci(fr, '.0f')}")
            elif metric == "throughput_mbps":
                s = o.summary(metric)
                cells.append("–" if s is None else f"{_kbps(s.mean):.2f}")
            else:
                cells.append(mean_ci(o.summary(metric), fmt))
        rows.append([*label, *cells, str(len(o.results))])
    return Grid(
        "experiments",
        "The runs",
        ["id", "dissertation", "figure", "set-up", *(c for c, _, _ in COUNTS), "seeds"],
        rows,
        "Hiccup testbed: 9.6 kbit/s PPP, MSS 460, 18-segment window, interface queue 50 unless "
        "stated. Mean over seeds (identical runs for the hiccup preset).",
    )


def sections(rep: Reproduction) -> list[tuple[str, str, list[Grid]]]:
    """``(anchor, title, grids)`` of the sections before the targets: the runs (none with
    ``--only s12``), then S12's model when it is selected."""
    from lossylink.papers.ludwig2000 import report_more as more

    runs = [("runs", "Experiments", [experiment_table(rep)])] if rep.outcomes else []
    return [*runs, *more.sections(rep)]


def draw(rep: Reproduction, fig: Figure) -> Any:
    """The matplotlib figure of ``fig``."""
    from lossylink import plots

    if fig.kind == "bars":
        return _s11_bars(rep, fig)
    if fig.kind == "rto":
        from lossylink.papers.ludwig2000.report_rto import rto_figure

        return rto_figure(rep, fig)
    if fig.kind == "squares":
        from lossylink.papers.ludwig2000.report_more import squares_figure

        return squares_figure(fig)
    if fig.kind == "s12-bars":
        from lossylink.papers.ludwig2000.report_spurious import spurious_bars

        return spurious_bars(rep, fig)
    if fig.kind == "multilayer":
        from lossylink.papers.ludwig2000.report_gsm import multilayer_figure

        return multilayer_figure(rep, fig)
    if fig.kind == "utilization":
        from lossylink.papers.ludwig2000.report_gsm import utilization_figure

        return utilization_figure(rep, fig)
    if fig.kind == "timer-model":
        from lossylink.papers.ludwig2000.report_timers import model_figure

        return model_figure(fig)
    if fig.kind == "timer-s9":
        from lossylink.papers.ludwig2000.report_timers import s9_figure

        return s9_figure(rep, fig)
    if fig.kind == "s13-bars":
        from lossylink.papers.ludwig2000.report_more import hold_bars

        return hold_bars(rep, fig)
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


def _s11_bars(rep: Reproduction, fig: Figure) -> Any:
    from lossylink import plots

    bars = []
    base: float | None = None
    for exp_id, label in S11_ARMS:
        o = find(rep.outcomes, exp_id)
        s = o.summary() if o is not None and o.results else None
        if s is None:
            continue
        v = _kbps(s.mean)
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


def docs_table(rep: Reproduction) -> str:
    """The measured-against-dissertation table of ``docs/ludwig2000.md`` (one row per target),
    as Markdown. Regenerate with ``python -m lossylink.papers.ludwig2000.report``."""
    from lossylink.report import num, ours_cell

    lines = [
        "| experiment | target | dissertation | ours | accept | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for v in rep.verdicts:
        t = v.target
        paper = num(t.paper) if t.paper is not None else ""
        expected = f"{paper} ({t.expected})" if paper and t.expected else paper or t.expected
        verdict = v.verdict if not t.deviation else f"{v.verdict} ([why](#{t.deviation}))"
        cells = [t.table, t.description, expected or "–", ours_cell(v), t.tolerance, verdict]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from lossylink.reproduce import reproduce

    print(docs_table(reproduce(l2k.NAME, figures=False)), end="")
