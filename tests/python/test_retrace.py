"""ReTracer from Python and the command line (Ludwig 2000 §4.3; lossylink.retracer)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import lossylink as ll
from lossylink.errors import InvalidValueError, LossylinkError, LossylinkIOError
from lossylink.retracer import parse_range


def test_ranges() -> None:
    assert parse_range("30..120") == [30, 60, 90, 120]
    assert parse_range("296..300/2") == [296, 298, 300]
    assert parse_range("296, 576,1500") == [296, 576, 1500]
    assert parse_range(210) == [210]
    assert parse_range([30, 60]) == [30, 60]
    for bad in ("30..", "60..30", "1..5/0", "x"):
        with pytest.raises(InvalidValueError, match="range"):
            parse_range(bad)


def test_a_clean_trace_gives_the_overhead_bounds() -> None:
    r = ll.retrace("0\n" * 3000, frames="30,210", mtus=[576])
    assert r.blocks == 3000
    assert r.erasures == 0
    assert r.bler == 0.0
    # 50 blocks/s: (30 - 6) · 50 = 1200 B/s; (210 - 6) / 7 · 50.
    assert r.rlp_bps(30) == pytest.approx(1200.0)
    assert r.rlp_bps(210) == pytest.approx(204 / 7 * 50)
    assert r.best_frame == 210
    row = r.e2e_row(576)
    assert row["retransmission_fraction"] == 0.0
    # Tab 4-14's arithmetic at the best frame: channel · (MTU - 40) / (MTU - 40 + 40 + 7).
    assert row["rlp_bps"] == pytest.approx(r.rlp_bps(210) * 536 / 583)
    assert row["rlp_vj_bps"] == pytest.approx(r.rlp_bps(210) * 536 / 549)


def test_one_erased_block_loses_the_frame_and_the_packet_over_it(tmp_path: Path) -> None:
    flags = ["0"] * 3000
    flags[5] = "1"  # bytes 150-179: inside the first 303-byte packet only
    path = tmp_path / "one.trace"
    path.write_text("# one erasure\n" + "\n".join(flags) + "\n")
    r = ll.retrace(path, frames=[30, 60], mtus=[296])
    assert r.erasures == 1
    assert int(r.rlp.loc[r.rlp["frame_bytes"] == 30, "frames_sent"].iloc[0]) == 3000
    assert int(r.rlp.loc[r.rlp["frame_bytes"] == 30, "frames_delivered"].iloc[0]) == 2999
    assert list(r.loss_runs["length"]) == [1]
    assert ll.retrace(str(path), frames=[30], mtus=[]).erasures == 1


def test_bad_input_is_typed() -> None:
    with pytest.raises(LossylinkError, match="trace"):
        ll.retrace("0\n2\n", frames=[30], mtus=[])
    with pytest.raises(LossylinkError, match="frame"):
        ll.retrace("0\n" * 10, frames=[31], mtus=[])
    with pytest.raises(LossylinkError, match="mtu"):
        ll.retrace("0\n" * 10, frames=[30], mtus=[40])
    with pytest.raises(LossylinkIOError, match="trace"):
        ll.retrace("no/such/file.trace")
    with pytest.raises(LossylinkError, match="profile"):
        ll.erasure_trace("nope", 1)


def test_synthetic_traces_are_seeded_and_even_keeps_the_erasures() -> None:
    a = ll.erasure_trace("poor-c", minutes=2, seed=3)
    assert a == ll.erasure_trace("poor-c", minutes=2, seed=3)
    assert a != ll.erasure_trace("poor-c", minutes=2, seed=4)
    even = ll.erasure_trace("poor-c", minutes=2, seed=3, even=True)
    assert a.count("1") == even.count("1")
    stats = ll.erasure_stats(a)
    assert len(stats["minute_bler"]) == 2
    assert np.sum(stats["bursts"]) == a.count("1")
    assert ll.erasure_stats(even)["bursts"].max() == 1


def test_clustered_readings_share_the_minutes_and_bad_names_are_one_line(
    cli_run: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    # A poor chain clustered into fades of mean length T_c (net::gsm::clustered).
    a = ll.erasure_trace("poor-c@2s", minutes=3, seed=1)
    dense = ll.erasure_trace("poor-c@500ms:dense", minutes=3, seed=1)
    assert a == ll.erasure_trace("poor-c@2s", minutes=3, seed=1)
    assert len(a.split()) == len(dense.split()) == 3 * 3000
    assert a != dense != ll.erasure_trace("poor-c", minutes=3, seed=1)
    for bad in ("poor-c@2", "good@2s", "poor-c@2s:odd", "poor-c@10ms"):
        with pytest.raises(LossylinkError, match="profile: unknown"):
            ll.erasure_trace(bad, 1)
    proc = cli_run("retrace", "--profile", "poor-c@2s:dense", "--minutes", "2", "--json",
                   "--frame", "30,210", "--mtu", "576")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["blocks"] == 6000
    bad = cli_run("retrace", "--profile", "poor-c@1ms")
    assert bad.returncode != 0
    lines = [x for x in bad.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, bad.stderr
    assert "profile: unknown" in lines[0]


def test_cli_retrace(
    cli_run: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    path = tmp_path / "c.trace"
    path.write_text(ll.erasure_trace("poor-c", minutes=3, seed=1))
    proc = cli_run("retrace", str(path), "--frame", "30..300", "--mtu", "296,576,1500")
    assert proc.returncode == 0, proc.stderr
    assert "RLP (best frame" in proc.stdout
    assert "Pure end-to-end (best MTU" in proc.stdout
    proc = cli_run("retrace", "--profile", "poor-c", "--minutes", "3", "--seed", "1", "--json",
                   "--frame", "30..300", "--mtu", "296,576,1500")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    same = ll.retrace(path, frames="30..300", mtus=[296, 576, 1500])
    assert data["best_frame"] == same.best_frame
    assert [r["throughput_bps"] for r in data["e2e"]] == list(same.e2e["throughput_bps"])
    bad = cli_run("retrace")
    assert bad.returncode == 2
    assert "TRACE file or --profile" in bad.stderr
