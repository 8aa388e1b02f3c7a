"""The report of Ludwig (2000) (``lossylink.papers.ludwig2000.report``, what
:func:`lossylink.report.paper_report` loads): the header line, one row per run with the counts
that tell the story (timeouts, fast retransmits, retransmissions, Eifel's detections, local
drops), S12's model section, and each figure drawn by its family's ``report`` module
(``hiccup``: time-sequence plots and S11's bars; ``eifel``: Fig 5-18; ``spurious_cost``:
Fig 5-7 and S12's loss bars; ``intermittent``: S13's bars; ``gsm``; ``timers``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lossylink.papers import ludwig2000 as l2k
from lossylink.papers._base import Figure
from lossylink.papers.ludwig2000.hiccup.report import kbps, s11_bars, seq_figure
from lossylink.report import NA, Grid, mean_ci, seed_text

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
                cells.append("–" if s is None else f"{kbps(s.mean):.2f}")
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
    from lossylink.papers.ludwig2000.spurious_cost import report as s12

    runs = [("runs", "Experiments", [experiment_table(rep)])] if rep.outcomes else []
    return [*runs, *s12.sections(rep)]


def draw(rep: Reproduction, fig: Figure) -> Any:
    """The matplotlib figure of ``fig``."""
    if fig.kind == "bars":
        return s11_bars(rep, fig)
    if fig.kind == "rto":
        from lossylink.papers.ludwig2000.eifel.report import rto_figure

        return rto_figure(rep, fig)
    if fig.kind == "squares":
        from lossylink.papers.ludwig2000.spurious_cost.report import squares_figure

        return squares_figure(fig)
    if fig.kind == "s12-bars":
        from lossylink.papers.ludwig2000.spurious_cost.report import spurious_bars

        return spurious_bars(rep, fig)
    if fig.kind == "multilayer":
        from lossylink.papers.ludwig2000.gsm.report import multilayer_figure

        return multilayer_figure(rep, fig)
    if fig.kind == "utilization":
        from lossylink.papers.ludwig2000.gsm.report import utilization_figure

        return utilization_figure(rep, fig)
    if fig.kind == "timer-model":
        from lossylink.papers.ludwig2000.timers.report import model_figure

        return model_figure(fig)
    if fig.kind == "timer-agg":
        from lossylink.papers.ludwig2000.timers.report import agg_figure

        return agg_figure(fig)
    if fig.kind == "timer-s9":
        from lossylink.papers.ludwig2000.timers.report import s9_figure

        return s9_figure(rep, fig)
    if fig.kind == "s13-bars":
        from lossylink.papers.ludwig2000.intermittent.report import hold_bars

        return hold_bars(rep, fig)
    return seq_figure(rep, fig)


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
