"""What the TCP-ELN study measures beside its targets: the loss runs the Markov channels of
Table 1 realise per flow (their burst lengths are in channel slots, not in a flow's packets),
and how many corrupted frames TCP-ELN's HACK identification could not attribute."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lossylink.papers.buchholcz import runs as r
from lossylink.papers.buchholcz.series import gain, series
from lossylink.report import Grid, find

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction

HEADER_BITS = 40 * 8
FRAME_BITS = 1040 * 8
"""A full data frame: 1000 bytes of payload and 40 of TCP/IP header (the radio links expose the
IP datagram)."""


def _downlinks(rep: Reproduction, exp_id: str) -> list[dict[str, float]]:
    """The radio downlinks' counters of every seed of one experiment."""
    o = find(rep.outcomes, exp_id)
    if o is None or not o.results:
        return []
    out = []
    for res in o.results:
        for link in res.links or []:
            if str(link.get("link", "")).startswith("radio") and link.get("direction") == "forward":
                out.append({k: float(v) for k, v in link.items() if isinstance(v, int | float)})
    return out


def run_length(links: list[dict[str, float]]) -> float | None:
    """Corrupted data frames per run of consecutive corrupted data frames (each downlink
    carries one download: the runs a flow sees)."""
    frames = sum(x.get("corrupted_data", 0.0) for x in links)
    runs = sum(x.get("corrupted_data_runs", 0.0) for x in links)
    return frames / runs if runs else None


def _cell(v: float | None, fmt: str = "{:.2f}") -> str:
    return fmt.format(v) if v is not None else "n/a"


def loss_runs(rep: Reproduction) -> Grid | None:
    """Per Markov model (and uniform p = 0.1 for comparison): Table 1's mean burst in slots,
    the realised mean loss run in a flow's data frames under Reno and TCP-ELN, and how busy
    the downlink is (the share of slots that carry a frame)."""
    rows = []
    for m, (speed, eps, burst) in r.MARKOV.items():
        reno = _downlinks(rep, r.exp_id("ftp", "markov", str(m), "reno"))
        eln = _downlinks(rep, r.exp_id("ftp", "markov", str(m), "eln"))
        if not reno and not eln:
            continue
        busy = [x.get("utilisation", 0.0) for x in eln]
        rows.append([
            f"model {m} ({speed}, ε = {eps:g})", f"{burst:g}", _cell(run_length(reno)),
            _cell(run_length(eln)), _cell(100 * sum(busy) / len(busy) if busy else None,
                                          "{:.0f} %"),
        ])  # fmt: skip
    u = _downlinks(rep, r.exp_id("ftp", "uniform", "0.1", "eln"))
    if u:
        busy = 100 * sum(x.get("utilisation", 0.0) for x in u) / len(u)
        ureno = _downlinks(rep, r.exp_id("ftp", "uniform", "0.1", "reno"))
        rows.append(["uniform p = 0.1", "1.11 (frames)", _cell(run_length(ureno)),
                     _cell(run_length(u)), f"{busy:.0f} %"])  # fmt: skip
    if not rows:
        return None
    return Grid(
        "loss-runs",
        "FTP: loss runs the channels realise per flow (Markov models of Table 1)",
        [
            "channel",
            "Table 1 burst (4.16 ms slots)",
            "Reno: frames per loss run",
            "TCP-ELN: frames per loss run",
            "TCP-ELN: downlink busy",
        ],
        rows,
        "Table 1's burst lengths count channel slots of one packet time (4.16 ms: a 1040-byte "
        "frame at 2 Mb/s, our assumption, as the paper gives none). A downlink is idle most of "
        "the time (the 1 Mb/s wired link feeds three 2 Mb/s radio links), so a fade of B slots "
        "meets fewer of a flow's frames: the realised run is corrupted data frames per run of "
        "consecutive corrupted data frames, summed over the three downlinks (one download each) "
        "and the seeds. A chain stepped per frame would realise B exactly.",
    )


def header_share(p: float) -> float:
    """The header-hit probability of a corrupted full frame at frame-error rate ``p``
    (crates/net error_model.rs, ``header_hit_probability``)."""
    share = HEADER_BITS / FRAME_BITS
    if p <= 0:
        return share
    return (1 - (1 - p) ** share) / p


def hack_table(rep: Reproduction) -> Grid | None:
    """Web under HACK identification: corrupted data frames, those whose header was hit (not
    attributed), and the response-time reduction beside the oracle's."""
    rows = []
    for group in ("web-uniform", "web-markov"):
        kind = group.split("-")[1]
        xs, reno, eln = series(rep, group, "hack")
        hx, hreno, heln = series(rep, group)
        oracle = {x: gain("web", a, b) for x, a, b in zip(hx, hreno, heln, strict=True)}
        for x, a, b in zip(xs, reno, eln, strict=True):
            key = f"{x:g}" if kind == "uniform" else str(int(x))
            links = _downlinks(rep, r.exp_id("web", kind, key, "eln", "hack"))
            corrupted = sum(v.get("corrupted_data", 0.0) for v in links)
            hits = sum(v.get("header_hits", 0.0) for v in links)
            eps = x if kind == "uniform" else r.MARKOV[int(x)][1]
            rows.append([
                f"p = {x:g}" if kind == "uniform" else f"model {int(x)}",
                f"{corrupted / max(len(links) // 3, 1):.0f}",
                f"{100 * hits / corrupted:.1f} %" if corrupted else "n/a",
                f"{100 * header_share(eps):.1f} %" if eps > 0 else "",
                f"{gain('web', a, b):+.0f} %",
                f"{oracle[x]:+.0f} %" if x in oracle else "",
            ])  # fmt: skip
    if not rows:
        return None
    return Grid(
        "hack",
        "Web: TCP-ELN identifying corrupted frames by their header (HACK)",
        [
            "error",
            "corrupted data frames per run",
            "header hit (not attributed)",
            "expected for a full frame",
            "reduction R, HACK",
            "reduction R, oracle",
        ],
        rows,
        'tcp.eln.identify = "hack": a corrupted frame counts for its connection only if its '
        "40-byte TCP/IP header survived; the header-hit probability follows from the error "
        "model, as independent bit errors at the rate that gives a frame its error probability "
        "(the Markov chains: their mean error rate). Reno is the headline's (HACK changes only "
        "TCP-ELN's receiver).",
    )
