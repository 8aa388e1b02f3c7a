"""The worked examples of docs/examples run as written, with shorter runs and fewer
seeds; their outputs are checked for shape and plausibility, not for exact numbers. And the
README's lists of schemes, aliases and presets are those of `lossylink schemes` and
`lossylink preset list`."""

from __future__ import annotations

import csv
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq  # with numpy, before a CLI sweep here imports it for writing only
import pytest
from click.testing import CliRunner

import lossylink as ll
from lossylink.cli import cli
from support import ROOT

EXAMPLES = ROOT / "docs/examples"
README = ROOT / "README.md"
CELL_CAPACITY_MBPS = 11.0


def commands() -> list[str]:
    """The command lines of docs/examples/README.md's ``sh`` blocks, in order."""
    text = (EXAMPLES / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def quick(args: list[str]) -> list[str]:
    """``args`` with two seeds and short runs: what the tests can afford."""
    out = []
    for i, a in enumerate(args):
        if i > 0 and args[i - 1] == "--seeds":
            a = "2"
        out.append(a.replace("docs/examples/", f"{EXAMPLES}/"))
    if args[0] in ("run", "sweep"):
        config = args[args.index("--config") + 1]
        if config.endswith("wifi-cell.toml"):
            out += ["--set", "run.warmup=500ms", "--set", "run.duration=2s"]
        elif config.endswith("p2p-modern.toml"):
            out += ["--set", "transfer=256KiB"]
    return out


def test_the_examples_page_names_its_files() -> None:
    text = (EXAMPLES / "README.md").read_text()
    for path in EXAMPLES.iterdir():
        if path.name != "README.md":
            assert f"`{path.name}`" in text, path.name


def test_the_command_lines_run_and_their_outputs_are_plausible(tmp_path: Path) -> None:
    lines = commands()
    assert len(lines) == 8
    for line in lines:
        words = shlex.split(line)
        target = None
        if ">" in words:
            target = tmp_path / words[words.index(">") + 1]
            words = words[: words.index(">")]
        if words[0] == "python":
            continue  # the script: test_wifi_compare_script_runs
        assert words[0] == "lossylink", line
        args = quick(words[1:])
        result = CliRunner().invoke(cli, args, prog_name="lossylink", catch_exceptions=False)
        assert result.exit_code == 0, (line, result.output)
        out = result.stdout
        if target is not None:
            target.write_text(out)
        # Sweeps and plots write into the current directory: the temporary one (_in_tmp).
        if args[0] == "run" and target is None:
            title = out.splitlines()[0]
            m = re.search(r"10 flows · 2 seeds · aggregate ([\d.]+) ±([\d.]+) Mb/s", title)
            assert m, title
            assert 0 < float(m.group(1)) <= CELL_CAPACITY_MBPS
    # run --csv: ten flows, two seeds, positive goodputs within the cell's rate.
    rows = list(csv.DictReader(io.StringIO((tmp_path / "reno.csv").read_text())))
    assert len(rows) == 20
    assert {r["scheme"] for r in rows} == {"reno"}
    assert all(0 < float(r["goodput_mbps"]) < CELL_CAPACITY_MBPS for r in rows)
    # The station sweep: 6 numbers of stations x 3 schemes x 2 seeds, the flows as asked.
    stations = pq.read_table(tmp_path / "stations.parquet").to_pylist()
    assert len(stations) == 36
    assert all(r["status"] == "ok" for r in stations)
    for r in stations:
        assert r["agg.flows"] == int(r["grid.flows.0.copies"])
        assert 0 < r["agg.aggregate_goodput_mbps"] <= CELL_CAPACITY_MBPS
        assert 0 < r["agg.jain_index"] <= 1
    for png in ("stations.png", "stations-flows.png", "modern.png"):
        assert (tmp_path / png).stat().st_size > 0
    # The modern path: 4 schemes x 2 error rates x 2 seeds, each below the 2 Mb/s hop.
    modern = pq.read_table(tmp_path / "modern.parquet").to_pylist()
    assert len(modern) == 16
    assert all(r["status"] == "ok" and 0 < r["throughput_mbps"] < 2.0 for r in modern)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_wifi_compare_script_runs(tmp_path: Path) -> None:
    (line,) = [c for c in commands() if c.startswith("python ")]
    assert "docs/examples/wifi_compare.py" in line
    out = tmp_path / "out"
    args = ["--flows", "3", "--seeds", "2", "--duration", "3s", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "wifi_compare.py"), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines()[2:5]}
    assert list(rows) == ["reno", "cubic", "bbr"]
    for cells in rows.values():
        assert 0 < float(cells[1]) <= CELL_CAPACITY_MBPS
        assert cells[2].startswith("±")
        assert 0 < float(cells[3]) <= 1
    assert (out / "wifi-compare.png").stat().st_size > 0
    assert pq.read_table(out / "results.parquet").num_rows == 3 * 2


def test_the_notebook_runs(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(EXAMPLES / "wifi-cell.ipynb", as_version=4)
    (settings,) = [c for c in nb.cells if "FLOWS, SEEDS, DURATION =" in c.source]
    settings.source = "import lossylink as ll\n\nFLOWS, SEEDS, DURATION = 3, 2, '3s'"
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    texts = ["".join(o.get("data", {}).get("text/plain", "") for o in c.outputs) for c in code]
    assert "aggregate_goodput_mbps=" in texts[1]
    assert "flows=3" in texts[1]
    assert texts[2].count("dl") == 3  # one row per flow
    assert any("image/png" in o.get("data", {}) for o in code[3].outputs)
    assert all(s in texts[4] for s in ("reno", "cubic", "bbr"))
    streams = "".join(o.get("text", "") for c in code for o in c.outputs)
    assert "MainGuardWarning" not in streams


# -- the README's lists --------------------------------------------------------------------------


def _readme_section(title: str) -> str:
    text = README.read_text()
    start = text.index(title)
    return text[start : text.index("\n## ", start)]


def test_the_readmes_scheme_names_are_registered() -> None:
    models = _readme_section("## What lossylink models")
    names = {s["name"] for s in ll.schemes()}
    modifiers = {m.strip("+") for m in re.findall(r"\+[a-z-]+", _modifier_list())}
    mentioned = set(
        re.findall(r"`((?:e2e|ll|split|tcp|snoop|eln)[a-z0-9-]*(?:\+[a-z-]+)*)`", models)
    )
    assert len(mentioned) > 20
    for word in mentioned:
        base, *mods = word.split("+")
        assert base in names, f"README names scheme {base!r}, which `lossylink schemes` lacks"
        assert set(mods) <= modifiers, word
    for mod in re.findall(r"`\+([a-z-]+)`", models):
        assert mod in modifiers, mod
    # The aliases, each with the scheme it stands for.
    aliases = dict(re.findall(r"`([a-z]+)` \(= `([a-z0-9+-]+)`\)", models.replace("\n  ", " ")))
    assert aliases == {a["alias"]: a["scheme"] for a in ll.scheme_aliases()}


def _modifier_list() -> str:
    try:
        ll.Scenario.preset("lan").set("scheme", "e2e+nope")
    except ll.errors.UnknownSchemeError as e:
        return str(e)
    raise AssertionError("an unknown modifier was taken")


def test_the_readmes_preset_list_is_preset_list() -> None:
    line = next(x for x in README.read_text().splitlines() if "lossylink preset list" in x)
    listed = [p.strip() for p in line.split("#", 1)[1].split(",")]
    shown = CliRunner().invoke(cli, ["preset", "list"]).stdout.split()
    assert listed == shown
