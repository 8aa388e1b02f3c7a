"""Plots, saved runs and `lossylink plot`."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import lossylink as ll
from lossylink import plots
from lossylink.cli import cli
from lossylink.result import _trace_equal
from lossylink.saved import load_run, save_run
from support import SMALL, without_wall


def _invoke(*args: str) -> SimpleNamespace:
    """The CLI in-process (click's CliRunner), shaped like a completed subprocess."""
    result = CliRunner().invoke(cli, list(args), prog_name="lossylink")
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


@pytest.fixture(scope="module")
def traced() -> ll.RunResult:
    return ll.run("wan", seed=1, trace=True, **SMALL)


def _written(paths: list[Path]) -> None:
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert paths[0].read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in paths[1].read_bytes()[:2000]


def test_trace_figures(traced: ll.RunResult, tmp_path: Path) -> None:
    assert traced.trace is not None
    panels = [("e2e", traced.trace)]
    _written(plots.save_figure(plots.seq_figure(panels, "seq"), tmp_path / "seq"))
    _written(plots.save_figure(plots.cwnd_figure(panels, "cwnd", 23000), tmp_path / "cwnd"))
    _written(plots.save_figure(plots.timeline_figure(panels, "t"), tmp_path / "timeline"))


def test_bar_chart_and_lines(tmp_path: Path) -> None:
    bars = {("e2e", "LAN"): plots.Bar(0.7, 46.7, 97.5, 97.5)}
    _written(plots.save_figure(plots.bar_chart("bars", ["e2e", "ll"], bars), tmp_path / "b"))
    frame = pd.DataFrame(
        {
            "scheme": ["e2e", "e2e"],
            "error_every_kib": [16, 64],
            "mean": [0.3, 0.7],
            "half_width": [0.1, None],
        }
    )
    _written(plots.save_figure(plots.sweep_figure(frame, "s"), tmp_path / "s"))
    empty = pd.DataFrame(columns=["scheme", "burst_packets", "mean", "half_width"])
    _written(plots.save_figure(plots.burst_figure(empty, "burst"), tmp_path / "burst"))


def test_repairs_attribute_retransmissions() -> None:
    kinds = ["send", "fast-retransmit", "retransmit", "timeout", "retransmit", "retransmit"]
    trace = {
        "events": {
            "time_s": np.arange(len(kinds), dtype=float),
            "kind": kinds,
            "seq": np.zeros(len(kinds), dtype=np.int64),
            "len": np.zeros(len(kinds), dtype=np.int64),
        },
        "bs": {"time_s": np.array([0.5, 1.5]), "kind": ["local-retransmit", "forward"]},
    }
    rows = plots.repairs(trace)
    assert [len(v) for v in rows.values()] == [1, 2, 1]
    assert list(rows[plots.REPAIR_ROWS[2]]) == [0.5]


def test_flows_pair_sender_and_event_tables() -> None:
    table = {"time_s": np.zeros(0)}
    trace = {"sender": table, "events": table, "sender.bs": table, "events.bs": table}
    assert [f.label for f in plots.flows(trace)] == ["source", "bs"]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_save_and_load_round_trip(traced: ll.RunResult, tmp_path: Path, fmt: str) -> None:
    save_run(traced, tmp_path, scenario=ll.Scenario.preset("wan"), trace_format=fmt)
    assert (tmp_path / "scenario.toml").exists()
    back = load_run(tmp_path)
    assert without_wall(back.metrics) == without_wall(traced.metrics)
    assert _trace_equal(back.trace, traced.trace)
    assert back.trace is not None
    assert back.trace["sender"]["cwnd"].dtype == np.int64
    assert isinstance(back.trace["events"]["kind"], list)


def test_load_run_of_a_plain_directory_fails(tmp_path: Path) -> None:
    with pytest.raises(ll.errors.LossylinkIOError, match="not a saved run"):
        load_run(tmp_path)


def test_cli_run_save_then_plot(tmp_path: Path) -> None:
    cli_run = _invoke
    run_dir = tmp_path / "run"
    proc = cli_run("run", "--transfer", "256KiB", "--save", str(run_dir))
    assert proc.returncode == 0, proc.stderr
    assert (run_dir / "trace" / "sender.parquet").exists()
    for kind, name in (("seq", "seq.png"), ("cwnd", "cwnd.svg"), ("timeline", "t.png")):
        proc = cli_run("plot", str(run_dir), "--kind", kind, "--out", str(tmp_path / name))
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / name).stat().st_size > 0
    proc = cli_run("plot", str(run_dir), "--kind", "seq", "--out", str(tmp_path / "x.jpg"))
    assert proc.returncode == 2
    proc = cli_run("plot", str(tmp_path), "--kind", "seq", "--out", str(tmp_path / "x.png"))
    assert proc.returncode == 2
    assert "not a saved run" in proc.stderr


def test_cli_run_save_several_seeds_csv(tmp_path: Path) -> None:
    cli_run = _invoke
    proc = cli_run(
        "run",
        "--transfer",
        "128KiB",
        "--seeds",
        "2",
        "--save",
        str(tmp_path),
        "--trace-format",
        "csv",
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "seed1" / "trace" / "events.csv").exists()
    assert (tmp_path / "seed2" / "metrics.json").exists()


def test_cli_plot_from_results_csv(tmp_path: Path) -> None:
    cli_run = _invoke
    from lossylink.reproduce import balakrishnan97

    frame = balakrishnan97(seeds=1, transfer="128KiB", groups=["table3", "peaks", "sweep"])
    csv = tmp_path / "results.csv"
    frame.to_csv(csv, index=False)
    for kind in ("bars", "sweep"):
        out = tmp_path / f"{kind}.svg"
        proc = cli_run("plot", str(csv), "--kind", kind, "--out", str(out))
        assert proc.returncode == 0, proc.stderr
        assert out.stat().st_size > 0
    # The burst group did not run: refused with a one-line error, no empty figure.
    out = tmp_path / "burst.svg"
    proc = cli_run("plot", str(csv), "--kind", "burst", "--out", str(out))
    assert proc.returncode == 2
    assert "no rows for --kind burst" in proc.stderr
    assert not out.exists()


def _labels(fig: object) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]  # type: ignore[attr-defined]


def test_local_drops_are_not_local_retransmissions() -> None:
    s = ll.Scenario.preset("hiccup")
    s.set("hops.0.forward.queue", "12")
    r = ll.run(s, seed=1, trace=True)
    assert r.trace is not None
    assert r.sender_local_drops > 0
    assert "local-drop" in list(r.trace["events"]["kind"])
    assert len(plots.local_retransmission_times(r.trace)) == 0


def test_detailed_seq_figure_shades_the_hiccup_and_marks_drops(tmp_path: Path) -> None:
    s = ll.Scenario.preset("hiccup")
    s.set("hops.0.forward.queue", "12")
    s.set("hops.0.forward.hiccups", '[{kind="hold",at="29.8s",duration="13s",stage="ip"}]')
    r = ll.run(s, seed=1, trace=True)
    assert r.trace is not None
    span = plots.Span(29.8, 42.8, "IP-stage hold")
    fig = plots.seq_figure([("S8b", r.trace)], xlim=(26.0, 62.0), spans=[span], detail=True)
    (ax,) = fig.axes
    assert ax.get_xlim() == (26.0, 62.0)
    lo, _hi = ax.get_ylim()
    assert lo > 20000, "the y axis follows the zoom"
    labels = _labels(fig)
    assert "IP-stage hold" in labels
    assert f"local drops (ENOBUFS) ({r.sender_local_drops})" in labels
    assert "ACKs received" in labels
    _written(plots.save_figure(fig, tmp_path / "s8b"))
    # Without detail, the Balakrishnan97 style: no shading, no extra rows, y from 0.
    fig = plots.seq_figure([("S8b", r.trace)])
    assert fig.axes[0].get_ylim()[0] == 0
    assert "ACKs received" not in _labels(fig)
