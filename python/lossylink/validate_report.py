"""The files ``lossylink validate linux`` writes: the table (CSV and JSON, one record per point
and congestion control) and a report page (HTML) with the table, worst points first, the
verdict per congestion control, and the congestion window of both halves over time per point."""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lossylink.validate import METRICS, Row

#: Column headings of the report's table: (record key, heading).
_SHOWN = [
    ("cc", "cc"),
    ("rate_mbps", "rate Mb/s"),
    ("rtt_ms", "RTT ms"),
    ("queue_packets", "queue pkts"),
    ("loss", "loss"),
    ("throughput_mbps_emulated", "goodput kernel"),
    ("throughput_mbps_simulated", "goodput model"),
    ("throughput_mbps_ratio", "ratio"),
    ("kernel_noise", "kernel noise"),
    ("queue_drops_emulated", "drops kernel"),
    ("queue_drops_simulated", "drops model"),
    ("sender_retransmitted_segments_emulated", "rexmit kernel"),
    ("sender_retransmitted_segments_simulated", "rexmit model"),
    ("sender_timeouts_emulated", "RTOs kernel"),
    ("sender_timeouts_simulated", "RTOs model"),
    ("sender_fast_retransmits_emulated", "recoveries kernel"),
    ("sender_fast_retransmits_simulated", "recoveries model"),
    ("late", "late runs"),
]


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return "inf"
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"
    return html.escape(str(value))


def write_table(records: Sequence[Mapping[str, Any]], out: Path) -> list[Path]:
    """``validate.csv`` and ``validate.json`` in ``out``."""
    import pandas as pd

    csv, js = out / "validate.csv", out / "validate.json"
    pd.DataFrame(list(records)).to_csv(csv, index=False)
    clean = [
        {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}
        for r in records
    ]
    js.write_text(json.dumps(clean, indent=1) + "\n", encoding="utf-8")
    return [csv, js]


def _cwnd_png(rows: Sequence[Row]) -> str:
    """One small figure: the kernel's cwnd samples and the simulated sender's cwnd, in segments
    of the first seed; base64 PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = rows[0]
    fig, ax = plt.subplots(figsize=(5.0, 2.2), dpi=80)
    if r.emulated_cwnd:
        t, c = zip(*r.emulated_cwnd, strict=True)
        ax.plot(t, [x / 1448 for x in c], lw=0.8, label="kernel (TCP_INFO)")
    if r.simulated_cwnd:
        t, c = zip(*r.simulated_cwnd, strict=True)
        ax.plot(t, [x / 1448 for x in c], lw=0.8, label=f"model ({r.scheme})")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("cwnd (segments)")
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def write_report(
    records: Sequence[Mapping[str, Any]],
    verdicts: Mapping[str, Mapping[str, float]],
    rows: Sequence[Row],
    out: Path,
    *,
    title: str = "lossylink validate linux",
) -> Path:
    """``report.html`` in ``out``."""
    by_point: dict[tuple[Any, str], list[Row]] = {}
    for r in rows:
        by_point.setdefault((r.point, r.cc), []).append(r)
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h in _SHOWN)
    body = []
    for rec in records:
        style = ' class="off"' if rec.get("beyond_noise") else ""
        cells = "".join(f"<td>{_cell(rec.get(k))}</td>" for k, _ in _SHOWN)
        body.append(f"<tr{style}>{cells}</tr>")
    verdict_rows = "".join(
        f"<tr><td>{html.escape(cc)}</td><td>{v['points']:.0f}</td>"
        f"<td>{v['goodput_median_off'] * 100:.1f} %</td>"
        f"<td>{v['goodput_worst_off'] * 100:.1f} %</td><td>{v['beyond_15pct']:.0f}</td>"
        f"<td>{v['drops_median_off'] * 100:.1f} %</td>"
        f"<td>{v['retransmissions_median_off'] * 100:.1f} %</td></tr>"
        for cc, v in verdicts.items()
    )
    figures = []
    for rec in records:
        group = next(
            (rs for (p, cc), rs in by_point.items()
             if cc == rec["cc"] and (p.rate_mbps, p.rtt_ms, p.queue_bdp, p.loss)
             == (rec["rate_mbps"], rec["rtt_ms"], rec["queue_bdp"], rec["loss"])),
            None,
        )  # fmt: skip
        if not group:
            continue
        ratio = _cell(rec["throughput_mbps_ratio"])
        caption = f"{group[0].point.label}, {rec['cc']}: goodput ratio {ratio}"
        figures.append(
            f'<figure><img src="data:image/png;base64,{_cwnd_png(group)}" alt="cwnd">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    metrics = ", ".join(METRICS)
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
td, th {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
tr.off {{ background: #fde2e2; }}
figure {{ display: inline-block; margin: 0.4em; }}
figcaption {{ font-size: 0.8em; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Each point of the grid ran twice with the same seed: emulated (the kernel's TCP through the
scenario's links in real time) and simulated (the matching profile). Ratios are model / kernel
for the metrics {html.escape(metrics)}. Rows shaded: the goodput disagrees by more than the
kernel's own spread over the seeds (or 5 %). Worst points first.</p>
<h2>Verdict</h2>
<table><tr><th>cc</th><th>points</th><th>median |goodput ratio - 1|</th><th>worst</th>
<th>points beyond 15 %</th><th>median |drops ratio - 1|</th>
<th>median |retransmissions ratio - 1|</th></tr>{verdict_rows}</table>
<h2>Points</h2>
<table><tr>{head}</tr>{"".join(body)}</table>
<h2>Congestion window, kernel and model</h2>
{"".join(figures)}
</body></html>
"""
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
