"""A researcher's own question, end to end: multi-flow results shown as the whole
network (sweep table, sweep plot, reprs, frames) with each flow one option away; per-flow
cwnd and sequence plots; scheme aliases and their hints; a sweep in a script without the
``__main__`` guard; failed runs that warn; unmodelled features in words; grid files with list
values; DCF rates; the per-flow CSV; the aggregate's confidence interval; the progress bar
only on a terminal; the emulator's warning when it falls behind."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pyarrow.parquet as pq  # with numpy, before a CLI sweep here imports it for writing only
import pytest
from click.testing import CliRunner, Result

import lossylink as ll
from lossylink.cli import cli
from lossylink.errors import (
    InvalidValueError,
    RunsFailedWarning,
    UnknownFieldError,
    UnknownSchemeError,
)
from support import SMALL

# The wlan preset (four downloads through a shared 11 Mb/s cell), short.
WLAN_SHORT = ["--preset", "wlan", "--set", "run.warmup=0s", "--set", "run.duration=3s"]
STATIONS = ["sta1", "sta2", "sta3", "sta4"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="lossylink")


def wlan_short() -> ll.Scenario:
    return ll.Scenario.preset("wlan").update({"run.warmup": "0s", "run.duration": "3s"})


# -- item 1: the aggregate by default, each flow one option away -------------------------------


@pytest.fixture(scope="module")
def wlan_sweep(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result, Result]:
    """A two-scheme sweep of the short wlan preset (with aliases), printed without and with
    --per-flow (the second from the cache)."""
    out = tmp_path_factory.mktemp("sweep") / "r.parquet"
    args = [*WLAN_SHORT, "--grid", "scheme=reno,cubic", "--seeds", "2", "--out", str(out)]
    plain = invoke("sweep", *args, "--executor", "seq", "--no-progress")
    per_flow = invoke("sweep", *args, "--executor", "seq", "--no-progress", "--per-flow")
    return out, plain, per_flow


def test_a_sweep_of_flows_prints_the_network_not_flow_0(
    wlan_sweep: tuple[Path, Result, Result],
) -> None:
    out, plain, per_flow = wlan_sweep
    assert plain.exit_code == 0, plain.output
    head = "\n".join(plain.stdout.splitlines()[:3])
    assert "aggregate" in head
    assert "Jain" in head
    assert "flows" in head
    assert "sta1" not in plain.stdout  # the flows are one option away
    assert per_flow.exit_code == 0, per_flow.output
    assert all(s in per_flow.stdout for s in STATIONS)
    # The aggregate is the sum of the flows, more than the first flow alone.
    rows = pq.read_table(out).to_pylist()
    for row in rows:
        flows = [row[f"flow.{s}.goodput_mbps"] for s in STATIONS]
        assert row["agg.aggregate_goodput_mbps"] == pytest.approx(sum(flows))
        assert row["agg.aggregate_goodput_mbps"] > row["throughput_mbps"]


def test_the_sweep_plot_of_flows_draws_the_aggregate_or_each_flow(
    wlan_sweep: tuple[Path, Result, Result], tmp_path: Path
) -> None:
    from lossylink.figures import sweep_results_figure

    out, _, _ = wlan_sweep
    ax = sweep_results_figure(out).axes[0]
    assert ax.get_ylabel().startswith("agg.aggregate_goodput_mbps")
    ax = sweep_results_figure(out, per_flow=True).axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [f"flow {s}" for s in STATIONS]
    assert ax.get_ylabel().startswith("goodput_mbps")
    png = tmp_path / "flows.png"
    result = invoke("plot", str(out), "--kind", "sweep", "--per-flow", "--out", str(png))
    assert result.exit_code == 0, result.output
    assert png.stat().st_size > 0
    result = invoke("plot", str(out), "--kind", "sweep", "--per-flow", "--metric", "x",
                    "--out", str(png))  # fmt: skip
    assert result.exit_code == 2
    assert "--metric" in result.stderr
    assert "goodput_mbps" in result.stderr


def test_a_run_of_flows_reprs_and_frames_the_network() -> None:
    rs = ll.run_seeds(wlan_short(), 2)
    text = repr(rs[0])
    assert "aggregate_goodput_mbps=" in text
    assert "jain_index=" in text
    assert "flows=4" in text
    assert "throughput_mbps" not in text
    assert "wired_goodput_pct" not in text
    html = rs[0]._repr_html_()
    assert "aggregate_goodput_mbps" in html
    assert "throughput_mbps" not in html
    frame = ll.results_frame(rs)
    assert len(frame) == 2
    assert list(frame.columns[:4]) == ["scheme", "preset", "seed", "agg.flows"]
    assert "agg.jain_index" in frame.columns
    assert all(f"flow.{s}.goodput_mbps" in frame.columns for s in STATIONS)
    flows = ll.results_frame(rs, per_flow=True)
    assert len(flows) == 2 * 4
    assert list(flows["flow"]) == STATIONS * 2
    assert list(flows["seed"]) == [1] * 4 + [2] * 4
    by_seed = flows.groupby("seed")["goodput_mbps"].sum()
    assert list(by_seed) == pytest.approx(list(frame["agg.aggregate_goodput_mbps"]))
    with pytest.raises(ValueError, match="per_flow"):
        ll.results_frame([ll.run("lan", **SMALL)], per_flow=True)


# -- item 3: per-flow cwnd and sequence plots --------------------------------------------------


def test_cwnd_and_seq_plots_of_flows_have_a_line_per_flow_and_a_flow_option(
    tmp_path: Path,
) -> None:
    from lossylink.figures import figure_for

    saved = tmp_path / "run"
    result = invoke("run", *WLAN_SHORT, "--save", str(saved))
    assert result.exit_code == 0, result.output
    for kind in ("cwnd", "seq"):
        ax = figure_for(saved, kind).axes[0]
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert [label.split(" (")[0] for label in labels] == [f"flow {s}" for s in STATIONS]
        colours = {line.get_color() for line in ax.get_lines() if line.get_label()[:4] == "flow"}
        assert len(colours) == 4
    fig = figure_for(saved, "cwnd", flow="sta2")
    assert fig.axes[0].get_title().endswith("flow sta2")
    png = tmp_path / "one.png"
    result = invoke("plot", str(saved), "--kind", "seq", "--flow", "sta3", "--out", str(png))
    assert result.exit_code == 0, result.output
    result = invoke("plot", str(saved), "--kind", "seq", "--flow", "nope", "--out", str(png))
    assert result.exit_code == 2
    assert "no flow 'nope'" in result.stderr
    assert "sta1, sta2, sta3, sta4" in result.stderr


# -- item 5: scheme aliases ---------------------------------------------------------------------


def test_aliases_run_their_schemes_and_hints_use_them() -> None:
    table = {a["alias"]: a["scheme"] for a in ll.scheme_aliases()}
    assert table == {
        "reno": "e2e+modern",
        "newreno": "e2e-newreno+modern",
        "sack": "e2e-ietf-sack+modern",
        "cubic": "e2e-cubic",
        "bbr": "e2e-bbr",
    }
    for alias, scheme in table.items():
        a = ll.run("lan", scheme=alias, **SMALL).metrics
        b = ll.run("lan", scheme=scheme, **SMALL).metrics
        keep = {k for k in a if k not in ("scheme", "wall_s")}
        assert {k: a[k] for k in keep} == {k: b[k] for k in keep}, alias
    with pytest.raises(UnknownSchemeError, match="nearest: cubic"):
        ll.Scenario.preset("lan").set("scheme", "cubik")
    result = invoke("run", "--set", "scheme=westwod")
    assert result.exit_code == 2
    assert "nearest: e2e-westwood" in result.stderr


# -- item 2: the __main__ guard and failed runs -------------------------------------------------


def _script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "study.py"
    path.write_text(textwrap.dedent(body))
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=300, check=False
    )


def test_a_sweep_outside_the_main_guard_says_so_in_one_line_and_runs_on_threads(
    tmp_path: Path,
) -> None:
    unguarded = _script(
        tmp_path,
        """
        import lossylink as ll
        base = ll.Scenario.preset("lan", transfer="256KiB")
        r = ll.sweep(base, {"scheme": ["e2e", "reno"]}, seeds=2, executor="pool", workers=2)
        print("runs", len(r.rows), "failed", len(r.failures))
        """,
    )
    assert unguarded.returncode == 0, unguarded.stderr
    assert "runs 4 failed 0" in unguarded.stdout
    warning = [line for line in unguarded.stderr.splitlines() if "MainGuardWarning" in line]
    assert len(warning) == 1, unguarded.stderr
    assert 'outside `if __name__ == "__main__":`' in warning[0]
    assert "study.py, line 4" in warning[0]
    guarded = _script(
        tmp_path,
        """
        import lossylink as ll

        def main():
            base = ll.Scenario.preset("lan", transfer="256KiB")
            ll.sweep(base, {"scheme": ["e2e", "reno"]}, seeds=2, executor="pool", workers=2)

        if __name__ == "__main__":
            main()
        """,
    )
    assert guarded.returncode == 0, guarded.stderr
    assert "MainGuardWarning" not in guarded.stderr
    # A Dask LocalCluster's workers are processes: refused before any starts.
    dask = _script(
        tmp_path,
        """
        import lossylink as ll
        ll.sweep("lan", {"scheme": ["e2e"]}, seeds=1, executor="dask", workers=1)
        """,
    )
    assert dask.returncode == 1
    assert "InvalidValueError: executor dask: the sweep is started at" in dask.stderr


def test_the_guard_check_sees_tests_as_guarded() -> None:
    from lossylink.sweeps.guard import unguarded_call_site

    assert unguarded_call_site() is None  # pytest's own main module runs under its guard


def test_a_sweep_with_failed_runs_warns() -> None:
    # Runs that hit their time limit fail in the simulator (a bad grid value is an error
    # before anything runs: tests/python/sweeps/test_sweep.py).
    base = ll.Scenario.preset("lan", transfer="128KiB", error_every="16KiB")
    with pytest.warns(RunsFailedWarning, match=r"^2 of 4 runs failed .*first: point 1"):
        res = ll.sweep(base, {"time_limit": ["3600s", "2s"]}, seeds=2, executor="seq")
    assert len(res.failures) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", RunsFailedWarning)
        with pytest.raises(RunsFailedWarning):
            ll.sweep(base, {"time_limit": ["2s"]}, seeds=1, executor="seq")


# -- item 6: words for what is not modelled; grid files with lists; station errors --------------


def test_unmodelled_features_are_said_in_words() -> None:
    s = ll.Scenario.preset("wlan")
    # Queue disciplines and ECN are modelled now: accepted.
    s.set("links.1.queue", '{ kind = "red" }')
    s.set("tcp.ecn", "true")
    with pytest.raises(UnknownFieldError, match="RTS/CTS"):
        ll.Scenario.preset("llelsn").set("cells.0.dcf.rts_cts", "true")
    # A typo is still a typo.
    with pytest.raises(UnknownFieldError, match="unknown field `msss`"):
        s.set("tcp.msss", "1400")


def test_station_errors_name_the_station() -> None:
    s = ll.Scenario.preset("wlan")
    with pytest.raises(InvalidValueError) as e:
        s.set("cells.0.station_error", '{ sta3 = { model = "bernoulli", p = 2.0 } }')
    assert str(e.value).startswith("cells[0].station_error.sta3.p:"), str(e.value)
    with pytest.raises(InvalidValueError) as e:
        s.set("cells.0.error", '{ model = "bernoulli", p = 2.0 }')
    assert str(e.value).startswith("cells[0].error.p:"), str(e.value)


def test_a_grid_file_with_list_values(tmp_path: Path) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(
        '"hops.0.forward.hiccups" = [[], [{ kind = "hold", at = "100ms", duration = "2s" }]]\n'
    )
    out = tmp_path / "r.parquet"
    args = ["--set", f"transfer={SMALL['transfer']}", "--grid-file", str(grid), "--seeds", "1"]
    result = invoke("sweep", *args, "--out", str(out), "--executor", "seq", "--no-progress")
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out).to_pylist()
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert rows[0]["grid.hops.0.forward.hiccups"] == "[]"
    assert rows[1]["completion_s"] > rows[0]["completion_s"]  # the hold delays the transfer


# -- item 7: a DCF's rates ----------------------------------------------------------------------


def test_a_dcf_cell_refuses_a_rate_802_11b_does_not_have() -> None:
    s = ll.Scenario.preset("llelsn")
    with pytest.raises(InvalidValueError) as e:
        s.set("cells.0.rate", "54Mbps")
    message = str(e.value)
    assert message.startswith("cells[0].rate: 54Mbps is not an 802.11b rate")
    assert "1Mbps, 2Mbps, 5.5Mbps, 11Mbps" in message
    assert "\n" not in message
    s.set("cells.0.rate", "5.5Mbps")


# -- item 9: CSV, the aggregate's CI, the progress bar, the emulator ----------------------------


def test_the_per_flow_table_as_csv_and_the_aggregate_with_its_ci() -> None:
    result = invoke("run", *WLAN_SHORT, "--seeds", "2", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["flow"] for r in rows] == STATIONS * 2
    assert [r["seed"] for r in rows] == ["1"] * 4 + ["2"] * 4
    assert all(float(r["goodput_mbps"]) > 0 for r in rows)
    table = invoke("run", *WLAN_SHORT, "--seeds", "2")
    title = table.stdout.splitlines()[0]
    assert "±" in title.split("aggregate")[1].split("Mb/s")[0], title
    single = invoke("run", "--csv", *(f"--{k.replace('_', '-')}={v}" for k, v in SMALL.items()))
    assert single.exit_code == 0, single.output
    (row,) = csv.DictReader(io.StringIO(single.stdout))
    assert row["scheme"] == "e2e"
    assert float(row["throughput_mbps"]) > 0
    assert invoke("run", "--csv", "--json").exit_code == 2


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.mark.parametrize(
    ("stdout", "stderr", "shown"),
    [(True, True, True), (False, True, False), (True, False, False), (False, False, False)],
)
def test_the_progress_bar_is_drawn_only_with_both_streams_on_a_terminal(
    stdout: bool, stderr: bool, shown: bool
) -> None:
    from lossylink.commands.sweep import show_progress

    assert show_progress(_Stream(stdout), _Stream(stderr)) is shown


def test_a_piped_sweep_prints_no_progress_bar(cli_run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.parquet"
    done = cli_run("sweep", "--set", f"transfer={SMALL['transfer']}", "--seeds", "2",
                   "--out", str(out), "--executor", "seq")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "sweep" not in done.stderr
    assert "runs/s" not in done.stderr


def test_the_emulator_warns_when_it_falls_behind() -> None:
    from lossylink.emulation import timing_warning

    assert timing_warning({"timing_p99_us": 120.0, "timing_max_us": 900.0}) is None
    line = timing_warning({"timing_p99_us": 7300.0, "timing_max_us": 21000.0})
    assert line is not None
    assert "\n" not in line
    assert "fell behind real time" in line
    assert "7.3 ms" in line
    assert "21.0 ms" in line


def test_the_timing_warning_names_the_missing_real_time_scheduling() -> None:
    from lossylink.emulation import timing_warning

    late = {"timing_p99_us": 7300.0, "timing_max_us": 21000.0}
    with_rt = timing_warning({**late, "relay_realtime": True})
    without = timing_warning({**late, "relay_realtime": False})
    assert with_rt is not None
    assert without is not None
    assert "real-time scheduling" not in with_rt
    assert "without real-time scheduling" in without
    assert "\n" not in without
