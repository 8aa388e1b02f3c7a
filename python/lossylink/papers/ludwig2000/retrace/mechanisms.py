"""What makes the six ReTracer predictions that stay "fail" under every reading of the band
(docs/ludwig2000.md#six-fails): the measurements behind each statement, on the traces the
targets use (``targets._text``: 120 minutes, seeds 1-3).

    python -m lossylink.papers.ludwig2000.retrace.mechanisms          # every table
    python -m lossylink.papers.ludwig2000.retrace.mechanisms b2 600   # B2 per trace, 600 minutes

The quantities are ReTracer's (``net::medium::gsm::retrace``): ``q(n)``, the share of n-block RLP
frame slots with an erased block; ``p(mtu)``, the share of ``mtu + 7``-byte packets lost; the
throughput curves; the runs of back-to-back lost packets. An *erasure cluster* is a maximal
stretch of erased blocks less than ``gap`` blocks apart (a fade as a packet of ``gap`` blocks
sees it). The counterfactual traces change one property of a trace and keep the rest:
``shorten``, every burst cut to its first block (burst lengths only; the bursts' starts, so the
fades' spacing, kept); ``respace``, the clusters of each minute dealt afresh into it (the fades'
spacing only; every cluster's blocks kept as they are).
"""

from __future__ import annotations

import sys
from functools import cache

import numpy as np

from lossylink.papers.ludwig2000.retrace import targets as t

RLP_OVERHEAD = 6
PPP = 7
HEADERS = 40
VJ = 6


def ceiling_pure_over_rlp(mtu: int) -> float:
    """The most pure end-to-end can gain over the best RLP frame at ``mtu``, %, on a stationary
    trace: a packet of ``mtu + 7`` bytes covers every block of an RLP frame of
    ``n = (mtu + 7) // 30`` blocks, so it is lost at least as often, and the frame pays only
    RLP's 6 bytes: pure ÷ RLP_best ≤ pure ÷ RLP(n) ≤ 1 / (1 - 6 / 30n)."""
    n = (mtu + PPP) // 30
    return 100.0 * (1.0 / (1.0 - RLP_OVERHEAD / (30.0 * n)) - 1.0)


def floor_rlp_hc_over_pure(mtu: int, reading: str = "ours") -> float:
    """The least RLP with header compression can gain over pure end-to-end at ``mtu``, %, by the
    same ceiling: ``ours``, RLP+HC = channel · (mtu - 40) / (mtu - 40 + 6 + 7) (the segment
    kept, its header compressed: ``lossylink::retrace``); ``source``, channel · (mtu - 6) /
    (mtu + 7) (the packet kept, its payload grown: Tab 4-14's 1239/1265/1284 exactly)."""
    rlp_to_pure = 1.0 - RLP_OVERHEAD / (30.0 * ((mtu + PPP) // 30))
    if reading == "ours":
        hc = (mtu - HEADERS) / (mtu - HEADERS + VJ + PPP)
    else:
        hc = (mtu - VJ) / (mtu + PPP)
    return 100.0 * (rlp_to_pure * hc * (mtu + PPP) / (mtu - HEADERS) - 1.0)


def flags(text: str) -> np.ndarray:
    return np.frombuffer(text.replace("\n", "").encode(), dtype=np.uint8) == ord("1")


def to_text(e: np.ndarray) -> str:
    return "\n".join("1" if v else "0" for v in e) + "\n"


def runs(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and lengths of the runs of erased blocks."""
    d = np.diff(np.concatenate(([0], e.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    return starts, ends - starts


def clusters(e: np.ndarray, gap: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """Starts and lengths of the erasure clusters: runs merged across fewer than ``gap`` good
    blocks."""
    s, n = runs(e)
    if len(s) == 0:
        return s, n
    ends = s + n
    keep = np.concatenate(([True], s[1:] - ends[:-1] >= gap))
    idx = np.flatnonzero(keep)
    cs = s[idx]
    ce = np.concatenate((ends[idx[1:] - 1], [ends[-1]]))
    return cs, ce - cs


def shorten(e: np.ndarray) -> np.ndarray:
    """Every burst cut to its first block (burst lengths only)."""
    s, _ = runs(e)
    out = np.zeros_like(e)
    out[s] = True
    return out


def respace(e: np.ndarray, seed: int, gap: int = 10) -> np.ndarray:
    """The clusters of each minute dealt afresh into it, in random order and at uniform random
    spacing (their blocks kept as they are; the fades' spacing only)."""
    rng = np.random.default_rng(seed)
    out = np.zeros_like(e)
    m = 3000
    for k in range(len(e) // m):
        seg = e[k * m : (k + 1) * m]
        cs, cl = clusters(seg, gap)
        if len(cs) == 0:
            continue
        pieces = [seg[a : a + b] for a, b in zip(cs, cl, strict=True)]
        rng.shuffle(pieces)
        free = m - int(cl.sum())
        # len(pieces) + 1 clear gaps summing to `free`, the inner ones at least `gap` blocks
        # where room allows (so clusters stay clusters).
        inner = min(gap, free // max(1, len(pieces)))
        cuts = np.sort(rng.integers(0, free - inner * (len(pieces) - 1) + 1, len(pieces)))
        at = k * m
        last = 0
        for i, (c, piece) in enumerate(zip(cuts, pieces, strict=True)):
            at += int(c - last) + (inner if i else 0)
            last = c
            out[at : at + len(piece)] = piece
            at += len(piece)
    return out


@cache
def retraced(reading: str, seed: int, change: str = "", sweep: bool = False) -> t.Retrace:
    """ReTracer on the reading's trace of ``seed``, changed by ``change`` ("", "shorten",
    "respace")."""
    from lossylink.retracer import retrace

    e = flags(t._text(reading, seed))
    if change == "shorten":
        e = shorten(e)
    elif change == "respace":
        e = respace(e, seed)
    mtus = t.SWEEP_MTUS if sweep else (*t.TAB_MTUS, 690, 900)
    return retrace(to_text(e), t.FRAMES, mtus)


def q(r: t.Retrace, frame: int) -> float:
    row = r.rlp[r.rlp["frame_bytes"] == frame].iloc[0]
    return 1.0 - row["frames_delivered"] / row["frames_sent"]


def p(r: t.Retrace, mtu: int) -> float:
    return float(r.e2e_row(mtu)["retransmission_fraction"])


def row(reading: str, seed: int, change: str = "") -> dict[str, float]:
    """The quantities of one trace."""
    r = retraced(reading, seed, change)
    e = flags(t._text(reading, seed))
    if change == "shorten":
        e = shorten(e)
    elif change == "respace":
        e = respace(e, seed)
    cs, cl = clusters(e)
    hours = len(e) / 180000
    best = r.best_frame
    curve = r.rlp.set_index("frame_bytes")["throughput_bps"]
    top = float(curve.max())
    plateau = curve[curve >= 0.995 * top].index
    lr = r.loss_runs[r.loss_runs["mtu"] == 296]["length"].to_numpy()
    gap = {
        u: 100 * (r.e2e_row(u)["throughput_bps"] / r.e2e_row(u)["rlp_bps"] - 1) for u in (296, 576)
    }
    hc296 = 100 * (r.e2e_row(296)["rlp_vj_bps"] / r.e2e_row(296)["throughput_bps"] - 1)
    # The slope of q(n) at the optimum: each extra block of frame adds about one frame hit per
    # cluster; the optimum of (1 - q)(1 - 6/30n) is then near n* = sqrt(0.2 (1 - q) / slope).
    n0 = best // 30
    lo, hi = max(1, n0 - 3), n0 + 3
    slope = (q(r, 30 * hi) - q(r, 30 * lo)) / (hi - lo)
    return {
        "bler": float(e.mean()),
        "clusters_h": len(cs) / hours,
        "cluster_mean": float(cl.mean()) if len(cl) else 0.0,
        "cluster_le10": float(np.mean(cl <= 10)) if len(cl) else 0.0,
        "q1": q(r, 30),
        "q7": q(r, 210),
        "q10": q(r, 300),
        "p296": p(r, 296),
        "p576": p(r, 576),
        "p1500": p(r, 1500),
        "best": float(best),
        "at210": 100 * (1 - float(curve[210]) / top),
        "plateau_lo": float(plateau.min()),
        "plateau_hi": float(plateau.max()),
        "slope": slope,
        "n_star": 30 * float(np.sqrt(0.2 * (1 - q(r, best)) / slope)) if slope > 0 else np.inf,
        "gap296": gap[296],
        "gap576": gap[576],
        "hc296": hc296,
        "runs1": float(np.mean(lr == 1)),
        "runs2": float(np.mean(lr == 2)),
        "runs3": float(np.mean(lr == 3)),
        "runs4+": float(np.mean(lr >= 4)),
        "run_mean": float(lr.mean()),
    }


def mtu_curve(reading: str, seed: int) -> dict[str, float]:
    r = retraced(reading, seed, sweep=True)
    curve = r.e2e.set_index("mtu")["throughput_bps"]
    top = float(curve.max())
    plateau = curve[curve >= 0.995 * top].index
    return {
        "best_mtu": float(r.best_mtu),
        "at690": 100 * (1 - float(curve[690]) / top),
        "at900": 100 * (1 - float(curve[900]) / top),
        "plateau_lo": float(plateau.min()),
        "plateau_hi": float(plateau.max()),
        "ratio": (r.best_mtu + PPP) / r.best_frame,
    }


def table(readings: list[str], cols: list[str], change: str = "") -> None:
    print("reading".ljust(24) + "".join(c.rjust(13) for c in cols))
    for rd in readings:
        vals = [row(rd, s, change) for s in t.SEEDS]
        cells = []
        for c in cols:
            v = [x[c] for x in vals]
            cells.append(f"{np.mean(v):.4g}".rjust(13))
        print((rd + (f" [{change}]" if change else "")).ljust(24) + "".join(cells))


def b2(minutes: int) -> None:
    """B2 per single trace and pooled, and where the low minutes go."""
    from lossylink.retracer import erasure_trace

    for rd in (
        "poor-c",
        "poor-c@500ms",
        "poor-c@2s",
        "poor-c@500ms:dense",
        "poor-b",
        "poor-b@30s",
        "poor-b@500ms:dense",
    ):
        shares, spill = [], []
        for s in t.SEEDS:
            e = flags(erasure_trace(rd, minutes, s))
            m = e.reshape(-1, 3000)
            bl = m.mean(axis=1)
            shares.append(float(np.mean(bl < 0.01)))
            # Erasures of a minute in a burst that began in the minute before.
            st, ln = runs(e)
            cross = [
                (a, b) for a, b in zip(st, ln, strict=True) if a // 3000 != (a + b - 1) // 3000
            ]
            spill.append(sum(a + b - ((a + b - 1) // 3000) * 3000 for a, b in cross) / len(m))
        print(
            f"{rd:22s} below 0.01: per trace "
            + " ".join(f"{x:.3f}" for x in shares)
            + f"  pooled {np.mean(shares):.3f}  spill/min {np.mean(spill):.2f}"
        )


def main(argv: list[str]) -> None:
    if argv and argv[0] == "b2":
        b2(int(argv[1]) if len(argv) > 1 else 120)
        return
    print(
        f"ceilings: pure over RLP at 296 {ceiling_pure_over_rlp(296):.2f} %, at 576 "
        f"{ceiling_pure_over_rlp(576):.2f} %; RLP+HC over pure at 296 at least "
        f"{floor_rlp_hc_over_pure(296):.2f} % (ours), "
        f"{floor_rlp_hc_over_pure(296, 'source'):.2f} % (the source's HC arithmetic)"
    )
    band = ["poor-c", "poor-c@500ms", "poor-c@2s", "poor-c@8s", "poor-c@500ms:dense"]
    bband = ["poor-b", "poor-b@500ms", "poor-b@2s", "poor-b@500ms:dense"]
    extra = ["poor-c@240ms:dense", "poor-c@1s:dense", "poor-b@240ms:dense", "poor-b@1s:dense"]
    print("\n== the RLP frame (Fig 4-13)")
    table(
        bband + band + extra,
        [
            "bler",
            "clusters_h",
            "cluster_mean",
            "q1",
            "q7",
            "q10",
            "best",
            "plateau_lo",
            "plateau_hi",
            "at210",
            "slope",
            "n_star",
        ],
    )
    print("\n== Tab 4-14 at 296 and 576 against the ceilings")
    table(band + extra[:2], ["q10", "p296", "gap296", "gap576", "hc296"])
    print("\n== Fig 4-15 at 296")
    table(
        band + extra[:2],
        ["cluster_mean", "cluster_le10", "runs1", "runs2", "runs3", "runs4+", "run_mean"],
    )
    print("\n== one property changed (500 ms dense)")
    for ch in ("", "shorten", "respace"):
        table(
            ["poor-b@500ms:dense", "poor-c@500ms:dense"],
            ["bler", "clusters_h", "best", "gap296", "runs1", "run_mean"],
            ch,
        )
    print("\n== the MTU (RT23)")
    for rd in ("poor-c", "poor-c@500ms", "poor-c@2s", "poor-c@500ms:dense", "poor-c@240ms:dense"):
        for s in t.SEEDS:
            m = mtu_curve(rd, s)
            print(f"{rd:22s} seed {s}: " + " ".join(f"{k} {v:.4g}" for k, v in m.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
