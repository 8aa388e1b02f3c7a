"""A new user's first hour: tables that fit 80 columns, honest labels, help on bare
commands, clean plot errors, a user's sweep plotted, --save replacing an earlier run, and the
figures and reprs that work in a notebook."""

from __future__ import annotations

import io
import re
from pathlib import Path

import matplotlib
import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import lossylink as ll
from lossylink import reprs
from lossylink.cli import cli
from lossylink.tables import TableColumn, decimals, fit_table, natural_width
from support import SMALL

SMALL_FLAGS = ["--transfer", SMALL["transfer"], "--error-every", SMALL["error_every"]]
NUMBER = re.compile(r"[±]?\d+(\.\d+)?")


def invoke(*args: str, columns: int | None = None) -> Result:
    env = {"COLUMNS": str(columns)} if columns else {}
    return CliRunner(env=env).invoke(cli, list(args), prog_name="lossylink")


def _widest(text: str) -> int:
    return max(len(line.rstrip()) for line in text.splitlines())


# -- 80-column tables ---------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["e2e", "split", "e2e+eifel", "ll-tcp-aware"])
def test_run_table_fits_80_columns_and_cuts_no_number(scheme: str) -> None:
    result = invoke("run", *SMALL_FLAGS, "--scheme", scheme, "--seeds", "3", columns=80)
    assert result.exit_code == 0, result.output
    assert _widest(result.stdout) <= 80, result.stdout
    assert "…" not in result.stdout
    wide = invoke("run", *SMALL_FLAGS, "--scheme", scheme, "--seeds", "3", columns=160)
    # Every number shown at 80 columns is shown at 160 too: columns go, digits never.
    assert set(NUMBER.findall(result.stdout)) <= set(NUMBER.findall(wide.stdout))
    assert wide.stdout.count("\n") >= result.stdout.count("\n") - 2
    assert "not shown" not in wide.stdout


def test_tables_widen_when_there_is_room() -> None:
    narrow = invoke("run", *SMALL_FLAGS, "--seeds", "2", columns=80).stdout
    wide = invoke("run", *SMALL_FLAGS, "--seeds", "2", columns=160).stdout
    assert "not shown (too narrow)" in narrow
    assert "BS queue" in wide
    assert "BS queue" not in narrow.split("not shown")[0]


def test_one_column_one_precision() -> None:
    result = invoke("run", *SMALL_FLAGS, "--seeds", "3", columns=160)
    rows = [line.split() for line in result.stdout.splitlines() if line.split()[:1]]
    mbps = [r[1].lstrip("±") for r in rows if r[0] in ("1", "2", "3", "mean")]
    mbps += [r[2].lstrip("±") for r in rows if r[:2] == ["95%", "CI"]]
    assert len(mbps) == 5, result.stdout
    assert len({len(v.split(".")[1]) for v in mbps}) == 1, mbps


def test_sweep_and_demo_tables_fit_80_columns(tmp_path: Path) -> None:
    out = tmp_path / "s.parquet"
    args = ["--set", f"transfer={SMALL['transfer']}", "--grid", "scheme=e2e-ietf-sack,e2e-newreno"]
    args += ["--grid", "error_every=32KiB,64KiB", "--seeds", "3", "--out", str(out)]
    result = invoke("sweep", *args, "--executor", "seq", "--no-progress", columns=80)
    assert result.exit_code == 0, result.output
    assert _widest(result.stdout) <= 80, result.stdout
    assert "e2e-ietf-sack" in result.stdout
    result = invoke("demo", "--seeds", "2", columns=80)
    assert result.exit_code == 0, result.output
    assert _widest(result.stdout) <= 80, result.stdout
    assert "e2e-ietf-sack, WAN 32 KiB" in result.stdout


def test_fit_table_drops_the_lowest_priority_column_first() -> None:
    cols = [
        TableColumn("name", ["a" * 30], 100, justify="left"),
        TableColumn("keep", ["1.000"], 90),
        TableColumn("drop me", ["x" * 40], 10),
    ]
    table = fit_table(cols, width=60)
    assert natural_width(table) <= 60
    assert [c.header for c in table.columns] == ["name", "keep"]
    assert "drop me" in str(table.caption)
    assert [c.header for c in fit_table(cols, width=200).columns] == ["name", "keep", "drop me"]


_CELL = st.text(alphabet="0123456789.–± abcéx", max_size=14)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["Mb/s", "wireless\ngoodput %", "time s", "", "a long header"]),
            st.sampled_from(["left", "right"]),
        ),
        min_size=1,
        max_size=8,
    ),
    st.lists(st.lists(_CELL, min_size=8, max_size=8), max_size=12),
    st.lists(st.integers(0, 11), max_size=3),
)
def test_natural_width_is_the_longest_rendered_line(
    heads: list[tuple[str, str]], rows: list[list[str]], sections: list[int]
) -> None:
    cols = [TableColumn(h, [r[i] for r in rows], 0, justify=j) for i, (h, j) in enumerate(heads)]
    table = fit_table(cols, width=10_000, row_styles=["bold"] * len(rows), sections=sections)
    console = Console(width=10_000, file=io.StringIO(), color_system=None, highlight=False)
    with console.capture() as capture:
        console.print(table)
    lines = capture.get().splitlines()
    assert natural_width(table) == max((len(line) for line in lines), default=0)


def test_decimals_give_the_largest_value_three_significant_digits() -> None:
    assert decimals([0.775, 0.8841, 0.009505]) == 3
    assert decimals([87.4, 24.8]) == 1
    assert decimals([1500.0]) == 0
    assert decimals([None, float("nan")]) == 0


# -- labels: split legs, Eifel -----------------------------------------------------------------


def test_split_shows_the_wireless_legs_timeouts_and_fast_retransmits() -> None:
    result = invoke("run", "--scheme", "split", *SMALL_FLAGS, "--json")
    m = __import__("json").loads(result.stdout)
    table = invoke("run", "--scheme", "split", *SMALL_FLAGS, columns=160).stdout
    assert "wireless" in table
    assert "leg t/o" in table
    assert "leg fast" in table
    row = next(line.split() for line in table.splitlines() if line.split()[:1] == ["1"])
    assert str(m["wireless_timeouts"]) in row
    assert str(m["wireless_fast_retransmits"]) in row


def test_eifel_flag_is_labelled_like_the_modifier() -> None:
    flag = invoke("run", *SMALL_FLAGS, "--eifel", columns=160).stdout
    modifier = invoke("run", *SMALL_FLAGS, "--scheme", "e2e+eifel", columns=160).stdout
    for out in (flag, modifier):
        assert "scheme e2e+eifel" in out
        assert "spurious" in out
    plain = invoke("run", *SMALL_FLAGS, columns=160).stdout
    assert "scheme e2e ·" in plain
    assert "spurious" not in plain


# -- help, errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [(), ("preset",)])
def test_bare_commands_show_their_help(args: tuple[str, ...]) -> None:
    result = invoke(*args)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: lossylink")
    assert "\nCommands:\n" in result.stdout
    assert "error" not in result.output


def test_second_flow_says_what_is_supported(tmp_path: Path) -> None:
    text = ll.Scenario.preset_toml("lan").replace("[flow]", "[[flow]]")
    text += '\n[[flow]]\nfrom = "source"\nto = "mobile"\nbytes = "1MiB"\n'
    path = tmp_path / "two.toml"
    path.write_text(text)
    result = invoke("run", "--config", str(path))
    assert result.exit_code == 2
    assert "flow: 2 [[flow]] entries" in result.stderr
    assert "[[flows]]" in result.stderr


def test_toml_syntax_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\n\n[tcp\n')
    result = invoke("run", "--config", str(path))
    assert result.exit_code == 2
    assert "line 3, column" in result.stderr


def test_hours_are_a_duration() -> None:
    s = ll.Scenario.preset("hiccup")
    s.set("hops.0.forward.hiccups", '[{kind="hold",at="1h",duration="0.5h"}]')
    hiccup = s.to_dict()["hops"][0]["forward"]["hiccups"][0]
    assert (hiccup["at"], hiccup["duration"]) == ("3600s", "1800s")


# -- plot ---------------------------------------------------------------------------------------


def test_plot_refuses_sources_that_do_not_fit(tmp_path: Path) -> None:
    saved = tmp_path / "run"
    assert invoke("run", *SMALL_FLAGS, "--save", str(saved)).exit_code == 0
    result = invoke("plot", str(saved), "--kind", "bars", "--out", str(tmp_path / "b.png"))
    assert result.exit_code == 2
    assert result.stderr.startswith("lossylink: error:")
    assert "results.csv" in result.stderr
    assert not (tmp_path / "b.png").exists()
    # A results.csv without balakrishnan97 rows (e.g. ludwig2000's) is refused, not drawn empty.
    csv = tmp_path / "results.csv"
    csv.write_text("paper,group,experiment,seed,throughput_mbps\nludwig2000,s8,s8a,1,1.0\n")
    for kind in ("bars", "sweep", "burst"):
        out = tmp_path / f"{kind}.png"
        result = invoke("plot", str(csv), "--kind", kind, "--out", str(out))
        assert result.exit_code == 2, (kind, result.output)
        assert "no rows" in result.stderr
        assert not out.exists()
    result = invoke("plot", str(csv), "--kind", "seq", "--out", str(tmp_path / "q.png"))
    assert result.exit_code == 2
    assert "saved run directory" in result.stderr


def test_plot_a_users_sweep(tmp_path: Path) -> None:
    out = tmp_path / "s.parquet"
    args = ["--set", f"transfer={SMALL['transfer']}", "--grid", "scheme=e2e,e2e-newreno"]
    args += ["--grid", "error_every=32KiB,64KiB,128KiB", "--seeds", "2", "--out", str(out)]
    assert invoke("sweep", *args, "--executor", "seq", "--no-progress").exit_code == 0
    from lossylink.figures import sweep_results_figure

    fig = sweep_results_figure(out)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "error_every"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["32KiB", "64KiB", "128KiB"]
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == [
        "scheme=e2e",
        "scheme=e2e-newreno",
    ]
    assert len(ax.containers) == 2  # one errorbar container (with CIs) per line
    png = tmp_path / "s.png"
    result = invoke("plot", str(out), "--kind", "sweep", "--out", str(png), "--x", "scheme")
    assert result.exit_code == 0, result.output
    assert png.stat().st_size > 0
    result = invoke("plot", str(out), "--kind", "sweep", "--out", str(png), "--metric", "nope")
    assert result.exit_code == 2
    assert "throughput_mbps" in result.stderr


# -- --save replaces an earlier run ------------------------------------------------------------


def test_save_replaces_an_earlier_run(tmp_path: Path) -> None:
    d = tmp_path / "saved"
    assert invoke("run", *SMALL_FLAGS, "--save", str(d), "--trace-format", "csv").exit_code == 0
    (d / "notes.txt").write_text("mine")
    assert invoke("run", *SMALL_FLAGS, "--seeds", "2", "--save", str(d)).exit_code == 0
    assert sorted(p.name for p in d.iterdir()) == ["notes.txt", "seed1", "seed2"]
    assert invoke("run", *SMALL_FLAGS, "--seed", "7", "--save", str(d)).exit_code == 0
    assert sorted(p.name for p in d.iterdir()) == [
        "metrics.json",
        "notes.txt",
        "scenario.toml",
        "trace",
    ]
    assert {p.suffix for p in (d / "trace").iterdir()} == {".parquet"}
    from lossylink.saved import load_run

    assert load_run(d).metrics["seed"] == 7


# -- notebooks: no backend switch, short reprs ---------------------------------------------------


def test_importing_plots_keeps_the_backend() -> None:
    import subprocess
    import sys

    code = (
        "import matplotlib; matplotlib.use('svg'); import lossylink.plots, lossylink.report; "
        "print(matplotlib.get_backend())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "svg"
    assert matplotlib.get_backend()  # this process is untouched as well


def test_sweep_repr_is_short(tmp_path: Path) -> None:
    grid = {"scheme": ["e2e", "e2e-newreno", "e2e-smart"], "error_every": ["16KiB", "32KiB"]}
    grid["tcp.min_rto"] = ["500ms", "1s", "1500ms", "2s"]  # multiples of the bsd slow tick
    base = ll.Scenario.preset("lan", transfer="64KiB")
    result = ll.sweep(base, grid, seeds=2, executor="seq", cache=False)
    for text in (repr(result), result._repr_html_()):
        assert len(text) < reprs.LIMIT, len(text)
    assert "points=24" in repr(result)
    assert "16 more grid points" in result._repr_html_()
    s = ll.Scenario.preset("wan")
    assert len(repr(s)) < reprs.LIMIT
    assert len(s._repr_html_()) < reprs.LIMIT


# -- docs/sweeps.md's example runs as written ---------------------------------------------------


def test_sweeps_doc_example_runs_as_a_script(tmp_path: Path) -> None:
    import subprocess
    import sys

    doc = (Path(__file__).resolve().parents[2] / "docs" / "sweeps.md").read_text()
    example = re.search(r"```python\n(.*?)```", doc, flags=re.DOTALL)
    assert example is not None
    script = tmp_path / "sweep_example.py"
    script.write_text(example.group(1))
    out = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    assert (tmp_path / "results.parquet").exists()
    assert (tmp_path / "results.summary.csv").exists()
    assert "[]" in out.stdout  # no failures


def test_every_tcp_key_is_documented() -> None:
    root = Path(__file__).resolve().parents[2]
    source = (root / "crates" / "lossylink" / "src" / "schema" / "tcp.rs").read_text()
    body = source[source.index("pub struct TcpDoc") :]
    body = body[: body.index("\n}\n")]
    keys = re.findall(r"^\s+pub (\w+):", body, flags=re.MULTILINE)
    assert "sack_sender" in keys
    doc = (root / "docs" / "scenarios.md").read_text()
    missing = [k for k in keys if f"`{k}`" not in doc and f"`{k} " not in doc]
    assert not missing, missing


def test_make_demo_says_what_it_is_doing() -> None:
    text = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    for target in ("develop:", "demo:"):
        recipe = text[text.index(f"\n{target}") :].split("\n\n")[0]
        assert "@echo" in recipe, target
    assert "about 20 s" not in text


# -- the reproduction's header and console line agree -----------------------------------------


def test_report_header_is_consistent(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = tmp_path / "r"
    cmd = [sys.executable, "-m", "lossylink", "reproduce", "balakrishnan97", "--quick"]
    cmd += ["--seeds", "1", "--transfer", "256KiB", "--only", "table3", "--out", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    html = (out / "report.html").read_text()
    tables = (out / "tables.md").read_text()
    # QUICK RUN names what it shortened; the transfer line says the same size.
    assert "QUICK RUN: fewer seeds (1) and shorter transfers (256KiB)" in tables
    assert "transfer: 256KiB" in tables
    assert "1 (seed 1)" in tables
    assert "1 seeds" not in tables + proc.stdout
    # One wall time and one run count, in the report and on the console.
    summary = re.search(r"(\d+ runs?, [\d.]+ s of simulation on \d+ threads?)", proc.stdout)
    assert summary is not None, proc.stdout
    assert summary.group(1) in html
    # The progress bar's total is the run count.
    runs = int(summary.group(1).split()[0])
    assert re.search(rf"\b{runs}/{runs}\b", proc.stderr), proc.stderr[-500:]
    # "see docs/...#anchor" notes are links.
    notes = re.findall(r"see (<a href='[^']+'>|docs/)", html)
    assert all(n.startswith("<a href=") for n in notes), notes


def test_doc_notes_link_to_the_docs(tmp_path: Path) -> None:
    from lossylink.report import _linked, doc_link

    note = doc_link("docs/calibration.md", "some-anchor", tmp_path / "out")
    m = re.fullmatch(r"see \[docs/calibration\.md#some-anchor\]\(([^)#]+)#some-anchor\)", note)
    assert m is not None, note
    assert ((tmp_path / "out") / m.group(1)).resolve().is_file()
    assert _linked(note).startswith("see <a href='")
    assert doc_link("docs/calibration.md", "a", None) == "see docs/calibration.md#a"
