"""`lossylink validate linux` (docs/validation.md): the grid, the comparison's arithmetic and
report, the command line; and, where root can emulate, a 2-point grid end to end."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lossylink as ll
from lossylink.errors import InvalidValueError
from lossylink.validate import (
    SIMULATED,
    Point,
    Row,
    estimate_seconds,
    grid_points,
    summarise,
    verdict,
)
from lossylink.validate_report import write_report, write_table

CLI = [sys.executable, "-m", "lossylink"]


def test_the_default_grid_has_24_points_within_the_issue_ranges() -> None:
    points = grid_points()
    assert len(points) == 24
    assert {p.rate_mbps for p in points} == {2.0, 10.0, 50.0}
    assert all(10 <= p.rtt_ms <= 200 and 0 <= p.loss <= 0.02 for p in points)
    # 0.5 BDP of 10 Mb/s x 100 ms = 62 500 bytes: 42 packets of 1500 bytes.
    assert Point(10.0, 100.0, 0.5, 0.0).queue_packets == 42
    # Every point's scenario builds with every simulated sender.
    for p in points[:4]:
        for scheme in SIMULATED.values():
            ll.Scenario.from_toml(p.toml(scheme))
    # The estimate: 24 transfers of 8 s plus slow start and set-up, per control.
    one = estimate_seconds(points, ["reno"], 1)
    assert 24 * 8 < one < 24 * 12
    assert estimate_seconds(points, ["reno", "cubic"], 2) == pytest.approx(4 * one)


@pytest.mark.parametrize(
    ("axes", "message"),
    [
        ({"rtt": [10]}, r"grid: unknown axis 'rtt' \(allowed: rate_mbps"),
        ({"loss": [0.9]}, r"grid: loss: 0.9 is outside 0..=0.5"),
        ({"rate_mbps": ["fast"]}, r"grid: rate_mbps: 'fast' is not a number"),
    ],
)
def test_a_bad_axis_is_one_line(axes: dict[str, list[object]], message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        grid_points(axes)


def _row(point: Point, cc: str, seed: int, emu: float, sim: float, drops: tuple[int, int]) -> Row:
    base = {"queue_drops": 0, "sender_retransmitted_segments": 0, "sender_timeouts": 0,
            "sender_fast_retransmits": 0}  # fmt: skip
    return Row(
        point=point,
        cc=cc,
        seed=seed,
        scheme=SIMULATED[cc],
        emulated={**base, "throughput_mbps": emu, "queue_drops": drops[0]},
        simulated={**base, "throughput_mbps": sim, "queue_drops": drops[1]},
        emulated_cwnd=[(0.0, 14480.0), (0.1, 28960.0)],
        simulated_cwnd=[(0.0, 14480.0), (0.1, 20000.0)],
    )


def test_records_are_means_over_seeds_with_ratios_and_the_kernel_noise(tmp_path: Path) -> None:
    a, b = Point(2.0, 20.0, 1.0, 0.0), Point(10.0, 100.0, 1.0, 0.01)
    rows = [
        _row(a, "reno", 1, 1.8, 1.9, (10, 12)),
        _row(a, "reno", 2, 2.0, 1.9, (10, 8)),
        _row(b, "reno", 1, 5.0, 4.0, (0, 0)),
    ]
    records = summarise(rows)
    # Worst goodput agreement first: b is 20 % off, a 0 %.
    assert [r["rate_mbps"] for r in records] == [10.0, 2.0]
    worst, best = records
    assert worst["throughput_mbps_ratio"] == pytest.approx(0.8)
    assert worst["beyond_noise"]
    assert not best["beyond_noise"]
    assert best["throughput_mbps_emulated"] == pytest.approx(1.9)
    assert best["kernel_noise"] == pytest.approx(0.2 / 1.9)
    assert best["queue_drops_ratio"] == pytest.approx(1.0)
    assert worst["queue_drops_ratio"] == 1.0  # none on either side
    v = verdict(records)["reno"]
    assert v["goodput_median_off"] == pytest.approx(0.1)
    assert v["goodput_worst_off"] == pytest.approx(0.2)
    assert v["beyond_15pct"] == 1
    files = write_table(records, tmp_path)
    assert [f.name for f in files] == ["validate.csv", "validate.json"]
    assert len(json.loads(files[1].read_text())) == 2
    page = write_report(records, verdict(records), rows, tmp_path).read_text()
    assert page.count('<tr class="off">') == 1
    assert page.count("<figure>") == 2
    assert "data:image/png;base64," in page


def test_a_ratio_with_nothing_on_the_kernel_side_is_infinite_and_kept_out_of_medians() -> None:
    p = Point(2.0, 20.0, 1.0, 0.0)
    rec = summarise([_row(p, "cubic", 1, 2.0, 2.0, (0, 5))])[0]
    assert math.isinf(rec["queue_drops_ratio"])
    assert verdict([rec])["cubic"]["drops_median_off"] == 0.0


def test_dry_run_prints_the_points_and_the_estimate() -> None:
    out = subprocess.run(
        [*CLI, "validate", "linux", "--dry-run", "--grid", "rate_mbps=2", "--cc", "reno"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("8 points x 1 congestion controls x 1 seeds = 8 emulated runs")
    assert len(lines) == 9


def _can_emulate() -> str | None:
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return "needs root on Linux"
    if not Path("/dev/net/tun").exists() or shutil.which("ip") is None:
        return "needs /dev/net/tun and iproute2"
    return None


def test_without_the_privilege_it_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("util-linux's setpriv is not installed")
        prefix = [setpriv, "--bounding-set", "-net_admin"]
    else:
        prefix = []
    out = subprocess.run(
        [*prefix, *CLI, "validate", "linux", "--out", str(tmp_path / "v")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "missing privilege CAP_NET_ADMIN" in lines[0]
    assert not (tmp_path / "v").exists(), "nothing is written"


@pytest.mark.emulation
@pytest.mark.skipif(_can_emulate() is not None, reason=f"emulation: {_can_emulate()}")
def test_a_two_point_grid_runs_end_to_end(tmp_path: Path) -> None:
    out = subprocess.run(
        [*CLI, "validate", "linux", "--grid", "rate_mbps=10", "--grid", "rtt_ms=20",
         "--grid", "queue_bdp=1", "--grid", "loss=0,0.01", "--cc", "reno", "--cc", "cubic",
         "--seconds", "0.5", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    records = json.loads((tmp_path / "validate.json").read_text())
    assert len(records) == 4
    for r in records:
        # Both halves moved the whole transfer over a 10 Mb/s bottleneck.
        assert 3.0 < r["throughput_mbps_emulated"] <= 10.0, r
        assert 3.0 < r["throughput_mbps_simulated"] <= 10.0, r
        if r["loss"] > 0:
            # The kernel's own counters saw the random losses.
            assert r["sender_retransmitted_segments_emulated"] > 0, r
    assert "<figure>" in (tmp_path / "report.html").read_text()
    assert "reno: median |goodput ratio - 1|" in out.stdout
