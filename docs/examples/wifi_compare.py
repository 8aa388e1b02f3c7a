"""Reno, CUBIC and BBR sharing a lossy Wi-Fi cell: a worked example of one's own question
(docs/examples/README.md).

    python docs/examples/wifi_compare.py [--flows N] [--seeds S] [--duration T] [--out DIR]

Runs docs/examples/wifi-cell.toml (an 802.11b DCF cell, ten stations, 5 % frame errors) with N
downloads (10) for each scheme over S seeds (10), prints each scheme's aggregate goodput and
Jain's fairness index with their 95 % confidence intervals over the seeds, and writes into DIR
(out/wifi-compare): results.parquet (one row per run, each flow's columns included),
results.summary.csv (mean, standard deviation and 95 % CI per scheme) and wifi-compare.png
(the aggregate goodput per scheme with its CI, each flow's mean goodput as a dot).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import lossylink as ll
from lossylink.plots import save_figure, subplots

HERE = Path(__file__).resolve().parent
SCHEMES = ["reno", "cubic", "bbr"]  # aliases: e2e+modern, e2e-cubic, e2e-bbr


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the sweep, print the table, draw the figure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flows", type=int, default=10, help="downloads, 1-10 (10)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per scheme (10)")
    parser.add_argument("--duration", default="20s", help="simulated time per run (20s)")
    parser.add_argument("--out", type=Path, default=Path("out/wifi-compare"), help="directory")
    args = parser.parse_args(argv)

    base = ll.Scenario.load(HERE / "wifi-cell.toml")
    base.set("flows.0.copies", args.flows)
    base.set("run.duration", args.duration)
    # One sweep: every scheme sees the same seeds, so the same channel errors (docs/sweeps.md).
    result = ll.sweep(
        base, {"scheme": SCHEMES}, seeds=args.seeds, out=args.out / "results.parquet"
    )

    print(f"{args.flows} downloads through one 802.11b cell, {args.seeds} seeds, 95 % CI")
    print(f"{'scheme':<8} {'aggregate Mb/s':>16} {'Jain index':>16} {'flows Mb/s (min-max)':>22}")
    frame = result.frame()
    flows = [c for c in frame.columns if c.startswith("flow.") and c.endswith(".goodput_mbps")]
    for entry in result.summary:
        scheme = entry["scheme"]
        goodput, jain_index = "agg.aggregate_goodput_mbps", "agg.jain_index"
        agg = f"{entry[goodput + '_mean']:.2f} ±{_ci(entry, goodput)}"
        jain = f"{entry[jain_index + '_mean']:.3f} ±{_ci(entry, jain_index, 3)}"
        per_flow = frame[frame["grid.scheme"] == scheme][flows].mean()
        spread = f"{per_flow.min():.2f}-{per_flow.max():.2f}"
        print(f"{scheme:<8} {agg:>16} {jain:>16} {spread:>22}")

    fig, ax = subplots(figsize=(5.5, 3.8))
    xs = range(len(result.summary))
    means = [e["agg.aggregate_goodput_mbps_mean"] for e in result.summary]
    cis = [e["agg.aggregate_goodput_mbps_ci95"] or 0.0 for e in result.summary]
    ax.bar(xs, means, 0.6, yerr=cis, capsize=4, color="#9dbbe3", label="aggregate (95 % CI)")
    for x, entry in zip(xs, result.summary, strict=True):
        per_flow = frame[frame["grid.scheme"] == entry["scheme"]][flows].mean()
        ax.plot([x] * len(per_flow), per_flow.to_numpy(), "o", ms=3, color="#1f4e9c")
    ax.plot([], [], "o", ms=3, color="#1f4e9c", label="each flow (mean)")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([e["scheme"] for e in result.summary])
    ax.set_ylabel("Goodput (Mb/s)")
    ax.set_title(f"{args.flows} downloads, one 802.11b cell, 5 % frame errors", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    (png,) = save_figure(fig, args.out / "wifi-compare", formats=["png"])
    print(f"wrote {result.out}, {result.summary_path} and {png}")


def _ci(entry: dict[str, object], metric: str, places: int = 2) -> str:
    half = entry.get(f"{metric}_ci95")
    return "–" if half is None else f"{half:.{places}f}"


if __name__ == "__main__":  # worker processes import this script again: run only as a script
    main()
