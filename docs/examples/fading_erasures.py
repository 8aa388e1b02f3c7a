"""An exploration, not a generator of the simulator: can a fading channel thresholded per 20 ms
block, calibrated to the trace statistics Ludwig (2000) publishes only (RT28: per-minute BLER,
burst lengths), predict his ReTracer results (Fig 4-13, Tab 4-14, Figs 4-15, 4-16)?

The channel: Rayleigh fading by a sum of sinusoids (Jakes; 16 oscillators) at maximum Doppler
``fd`` (900 MHz at 3 km/h walking: 2.5 Hz), times log-normal shadowing (``sigma`` dB, an AR(1)
process with correlation time ``tau`` blocks); a block's power is the mean over an interleaving
window of ``win`` ms ending with the block; within each minute the threshold is the quantile
that gives the minute its BLER, drawn as the ``poor-c`` profile draws it (35 % of the minutes
below 0.01, the rest log-uniform up to 0.28). ``fd``, ``win``, ``sigma`` and ``tau`` are the
free parameters; only the burst statistics may choose them (> 50 % of the bursts 1-2 blocks,
95th percentile about 18 blocks for trace_C). ReTracer's arms are recomputed here in numpy as
``net::medium::gsm::retrace`` defines them, for speed of exploration.

    python docs/examples/fading_erasures.py 3 40 500 10     # fd win tau sigma
"""

from __future__ import annotations

import sys

import numpy as np

BLOCKS_PER_MINUTE = 3000
rng = np.random.default_rng(1)


def minute_blers(n: int, p_low: float = 0.35, low: float = 0.01, top: float = 0.28) -> np.ndarray:
    lows = rng.random(n) < p_low
    out = np.empty(n)
    out[lows] = low * (1 - rng.random(lows.sum()))
    out[~lows] = low * (top / low) ** (1 - rng.random((~lows).sum()))
    return out


def rayleigh_power(seconds: float, fd: float, dt: float, oscillators: int = 16) -> np.ndarray:
    t = np.arange(int(seconds / dt)) * dt
    h = np.zeros(len(t), complex)
    for _ in range(oscillators):
        a, ph = rng.uniform(0, 2 * np.pi, 2)
        h += np.exp(1j * (2 * np.pi * fd * np.cos(a) * t + ph))
    return np.abs(h) ** 2 / oscillators


def shadowing(n: int, tau: float, sigma_db: float) -> np.ndarray:
    a = np.exp(-1 / tau)
    x = np.empty(n)
    x[0] = rng.normal()
    e = rng.normal(size=n) * np.sqrt(1 - a * a)
    for i in range(1, n):
        x[i] = a * x[i - 1] + e[i]
    return 10 ** (sigma_db * x / 10)


def trace(minutes: int, fd: float, win_ms: float, tau: float, sigma: float) -> np.ndarray:
    dt = 0.002
    per = int(0.02 / dt)
    p = rayleigh_power(minutes * 60, fd, dt)
    p *= np.repeat(shadowing(minutes * BLOCKS_PER_MINUTE, tau, sigma), per)
    c = np.concatenate([[0], np.cumsum(p)])
    ends = np.arange(1, minutes * BLOCKS_PER_MINUTE + 1) * per
    starts = np.maximum(ends - int(win_ms / 1000 / dt), 0)
    block = (c[ends] - c[starts]) / (ends - starts)
    erased = np.zeros(len(block), bool)
    for m, b in enumerate(minute_blers(minutes)):
        x = block[m * BLOCKS_PER_MINUTE : (m + 1) * BLOCKS_PER_MINUTE]
        erased[m * BLOCKS_PER_MINUTE : (m + 1) * BLOCKS_PER_MINUTE] = x < np.quantile(x, b)
    return erased


def bursts(e: np.ndarray) -> np.ndarray:
    d = np.diff(np.concatenate([[0], e.astype(int), [0]]))
    return np.sort(np.nonzero(d == -1)[0] - np.nonzero(d == 1)[0])


def rlp_bps(e: np.ndarray, n: int, overhead: int = 6) -> float:
    k = len(e) // n
    ok = ~e[: k * n].reshape(k, n).any(1)
    return ok.sum() * (30 * n - overhead) * 50 / (k * n)


def e2e(e: np.ndarray, mtu: int) -> tuple[float, float, float]:
    """Throughput (B/s), retransmission fraction, share of loss runs of ≥ 2 packets."""
    cum = np.concatenate([[0], np.cumsum(e)])
    unit, start, sent, lost, run, payload, runs = mtu + 7, 0, 0, 0, 0, 0, []
    last = 0
    while (start + unit - 1) // 30 < len(e):
        first, last = start // 30, (start + unit - 1) // 30
        sent += 1
        if cum[last + 1] - cum[first] > 0:
            lost, run = lost + 1, run + 1
        else:
            payload += mtu - 40
            if run:
                runs.append(run)
                run = 0
        start += unit
    r = np.array(runs)
    return payload * 50 / (last + 1), lost / sent, float((r >= 2).mean()) if len(r) else 0.0


def main(fd: float, win: float, tau: float, sigma: float, minutes: int = 60) -> None:
    e = trace(minutes, fd, win, tau, sigma)
    b = bursts(e)
    print(f"fd {fd} Hz, window {win} ms, shadowing {sigma} dB over {tau} blocks")
    print(f"  calibration: BLER {e.mean():.4f}, bursts of 1-2 blocks {np.mean(b <= 2):.2f}, "
          f"95th percentile {b[int(len(b) * 0.95)]}, longest {b.max()}")  # fmt: skip
    frames = range(30, 1411, 30)
    best = max(frames, key=lambda f: rlp_bps(e, f // 30))
    even = np.zeros_like(e)
    even[np.linspace(0, len(e) - 1, int(e.sum())).astype(int)] = True
    best_even = max(frames, key=lambda f: rlp_bps(even, f // 30))
    gain = 100 * (rlp_bps(e, 7) / rlp_bps(e, 1) - 1)
    print(f"  predictions: best frame {best} B (even {best_even} B), 210 B over 30 B {gain:+.1f} %")
    for mtu in (296, 576, 1500):
        bps, rx, multi = e2e(e, mtu)
        print(f"  MTU {mtu}: pure e2e {bps:.0f} B/s, retransmitted {100 * rx:.1f} %, "
              f"runs ≥ 2 {100 * multi:.0f} %")  # fmt: skip


if __name__ == "__main__":
    main(*(float(a) for a in sys.argv[1:5]))
