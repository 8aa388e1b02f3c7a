"""The GSM figures of Ludwig (2000) in the dissertation's style (spec §4.2, §4.4, §7.4):

- the multi-layer time-sequence plot of MultiTracer (Figs 3-6, 4-7, 4-10): the TCP sender's
  curves (``TcpSnd_Data``, ``TcpSnd_Ack``, from the ``events`` table), 10,000 bytes above them
  the TCP receiver's (``TcpRcv_Data``: segments it accepted, ``TcpRcv_Ack``: ACKs it sent, from
  the ``receiver`` table), and 10,000 bytes above those the RLP sender's first transmissions
  (``RlpSnd_Data``) and retransmissions (``RlpSnd_Xmit``), L2R's XOFF/XON
  (``RlpRcv_XOFF``/``RlpRcv_XON``) and resets (``RlpSnd_Rst``) from the run's ``rlp`` table,
  in the TCP sequence space (spec §4.2: each layer 10,000 bytes from the next); RLP counts
  every byte of its stream (PPP framing and headers), so its curve is steeper than TCP's, as in
  the dissertation. The simulation's clocks agree, so the receiver's curves need no alignment.
- the utilization histogram of Fig 4-5: the S1 campaign's runs by utilization in 1 % bins,
  rounded up (a run between 99 and 100 % counts as 100 %), each bin annotated with the
  throughput range of its runs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from lossylink.papers.ludwig2000.gsm import runs as gsm
from lossylink.report import find, placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure

OFFSET = 10_000
"""Bytes between the layers' curves (spec §4.2): TCP sender, TCP receiver, RLP sender."""
STYLE = {
    "data": ("RlpSnd_Data", "#1f4e9c", ".", 1.5),
    "xmit": ("RlpSnd_Xmit", "#c0392b", "x", 4.0),
    "xoff": ("RlpRcv_XOFF", "#7f8c8d", "v", 4.0),
    "xon": ("RlpRcv_XON", "#27ae60", "^", 4.0),
    "reset": ("RlpSnd_Rst", "#8e44ad", "D", 7.0),
}


def _trace(rep: Reproduction, run_id: str) -> Any:
    t = next((t for t in rep.traced if t.run.id == run_id), None)
    return None if t is None or t.result is None else t.result.trace


def _layers(ax: Any, trace: Any, title: str, xlim: tuple[float, float] | None) -> None:
    ev = trace["events"]
    t = np.asarray(ev["time_s"], dtype=float)
    kind = np.asarray(ev["kind"], dtype=object)
    seq = np.asarray(ev["seq"], dtype=float)
    sent = (kind == "send") | (kind == "retransmit")
    ax.plot(t[sent], seq[sent], ".", ms=1.5, color="#333333", label="TcpSnd_Data")
    acks = kind == "ack"
    ax.plot(t[acks], seq[acks], ".", ms=1.5, color="#e67e22", label="TcpSnd_Ack")
    ys = [seq]
    rcv = trace.get("receiver")
    if rcv is not None and len(rcv["time_s"]):
        ct = np.asarray(rcv["time_s"], dtype=float)
        ck = np.asarray(rcv["kind"], dtype=object)
        cs = np.asarray(rcv["seq"], dtype=float) + OFFSET
        for k, label, colour in (
            ("data", "TcpRcv_Data", "#16a085"),
            ("ack", "TcpRcv_Ack", "#d35400"),
        ):
            sel = ck == k
            ax.plot(ct[sel], cs[sel], ".", ms=1.5, color=colour, label=f"{label} (+{OFFSET:,} B)")
        t = np.concatenate([t, ct])
        ys.append(cs)
    rlp = trace.get("rlp")
    if rlp is not None and len(rlp["time_s"]):
        rt = np.asarray(rlp["time_s"], dtype=float)
        rk = np.asarray(rlp["kind"], dtype=object)
        port = np.asarray(rlp["port"])
        off = np.asarray(rlp["offset"], dtype=float) + 2 * OFFSET
        # The data direction: the port that sent the most frames.
        ports, counts = np.unique(port[rk == "data"], return_counts=True)
        mine = port == ports[np.argmax(counts)] if len(ports) else np.ones(len(rt), bool)
        for k, (label, colour, marker, size) in STYLE.items():
            sel = mine & (rk == k)
            if sel.any():
                ax.plot(rt[sel], off[sel], marker, ms=size, color=colour,
                        label=f"{label} (+{2 * OFFSET:,} B)", mew=1.0)  # fmt: skip
        t = np.concatenate([t, rt[mine]])
        ys.append(off[mine])
    if xlim is not None:
        ax.set_xlim(*xlim)
        y = np.concatenate(ys)
        inside = y[(t >= xlim[0]) & (t <= xlim[1])]
        if len(inside):
            ax.set_ylim(inside.min() - 1000, inside.max() + 1000)
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("Time (sec)", fontsize=8)
    ax.set_ylabel("Sequence number (bytes)", fontsize=8)
    ax.legend(fontsize=6, loc="lower right", markerscale=1.5)


PANELS = (
    ("gsm-s1", "Fig 3-6 (S1/S4): L2R's XOFF gaps at 960 B/s, clean channel", (60.0, 75.0)),
    ("gsm-s3", "Fig 4-10 (S3): a 1.3 s burst of erased blocks at 60 s", (58.0, 66.0)),
    ("gsm-s2", "Figs 4-7/4-8 (S2): a reset at 62.4 s with VJ compression", (58.0, 90.0)),
    (
        "gsm-s2-backoff",
        "Fig 4-9: S2, and the ACK of the timeout's retransmission lost in a reset "
        "of the ACK direction: the timer backs off to 24 s",
        (58.0, 102.0),
    ),
)


def multilayer_figure(rep: Reproduction, fig: Figure) -> Any:
    """One panel per GSM run: the RLP layer above the TCP receiver's and sender's curves."""
    from lossylink.plots import subplots

    panels = [(r, title, xl) for r, title, xl in PANELS if _trace(rep, r) is not None]
    if not panels:
        return placeholder(fig, rep)
    f, axes = subplots(len(panels), 1, figsize=(8.0, 3.6 * len(panels)), squeeze=False)
    for ax, (run_id, title, xlim) in zip(axes[:, 0], panels, strict=True):
        _layers(ax, _trace(rep, run_id), title, xlim)
    f.suptitle(fig.title, fontsize=9.5)
    f.tight_layout()
    return f


def histogram_bins(utilization: list[float]) -> dict[int, int]:
    """Runs per 1 % bin, rounded up (Fig 4-5 fn.: 99-100 % counts as 100 %)."""
    out: dict[int, int] = {}
    for u in utilization:
        b = min(100, math.ceil(u - 1e-9))
        out[b] = out.get(b, 0) + 1
    return out


def _campaign_runs(rep: Reproduction, ids: tuple[str, ...]) -> list[tuple[float, float]]:
    """(utilization %, throughput B/s) of each run of ``ids``."""
    runs = []
    for run_id in ids:
        o = find(rep.outcomes, run_id)
        if o is None or not o.results:
            continue
        for r in o.results:
            m = r.metrics
            runs.append((float(m["utilization_pct"]), float(m["throughput_mbps"]) * 1e6 / 8.0))
    return runs


def utilization_figure(rep: Reproduction, fig: Figure) -> Any:
    """Fig 4-5: the S1 campaign's runs by utilization, 1 % bins rounded up, each bin with the
    throughput range (B/s) of its runs; beside each bar the same runs without VJ (the
    counterfactual of §4.2.1's attribution of the low runs to resets with VJ)."""
    from lossylink.plots import subplots

    runs = _campaign_runs(rep, gsm.CAMPAIGN)
    novj = _campaign_runs(rep, tuple(gsm.NOVJ.values()))
    if not runs:
        return placeholder(fig, rep)

    def binned(rs: list[tuple[float, float]]) -> dict[int, list[float]]:
        out: dict[int, list[float]] = {}
        for u, bps in rs:
            (b,) = histogram_bins([u])
            out.setdefault(b, []).append(bps)
        return out

    bins, bins_novj = binned(runs), binned(novj)
    lo = min(min(bins), min(bins_novj, default=100), 90)
    xs = list(range(lo, 101))
    share = [100.0 * len(bins.get(x, [])) / len(runs) for x in xs]
    f, ax = subplots(figsize=(7.5, 4.2))
    ax.bar([x - 0.2 for x in xs], share, width=0.4, color="#1f4e9c", label="VJ on")
    if novj:
        share_novj = [100.0 * len(bins_novj.get(x, [])) / len(novj) for x in xs]
        ax.bar([x + 0.2 for x in xs], share_novj, width=0.4, color="#aaaaaa",
               label="the same runs without VJ")  # fmt: skip
    for x, s in zip(xs, share, strict=True):
        if x in bins:
            v = bins[x]
            ax.text(x - 0.2, s + 1.0, f"{min(v):.0f}-{max(v):.0f} B/s", ha="center", fontsize=6,
                    rotation=90 if len(xs) > 6 else 0)  # fmt: skip
    ax.set_xlabel("Utilization (%, 1 % bins rounded up)")
    ax.set_ylabel("Share of runs (%)")
    ax.set_ylim(0, 115)
    ax.set_xticks(xs)
    ax.tick_params(axis="x", labelsize=7)
    ax.legend(fontsize=7, loc="center left")
    ax.set_title(f"{len(runs)} runs: {gsm.CAMPAIGN_GOOD} good, {gsm.CAMPAIGN_POOR} poor "
                 f"(trace_B-like, deep fades at {gsm.RESETS_PER_POOR_HOUR:g}/h), "
                 f"{gsm.SIZE_MIN_KB} KB-{gsm.SIZE_MAX_KB / 1000:g} MB", fontsize=8)  # fmt: skip
    ax.text(0.01, 0.97, "Dissertation: almost 85 % of runs ≥ 98 %, none below 91 %",
            transform=ax.transAxes, fontsize=7, va="top", color="#555555")  # fmt: skip
    f.suptitle(fig.title, fontsize=9.5)
    f.tight_layout()
    return f
