"""The `lossylink` command line, in-process through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import lossylink as ll
from lossylink import Scenario, _core
from lossylink.cli import cli
from support import SMALL, without_wall

SMALL_FLAGS = ["--transfer", SMALL["transfer"], "--error-every", SMALL["error_every"]]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="lossylink")


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"lossylink {ll.__version__}"


def test_help_lists_the_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("run", "schemes", "preset", "demo"):
        assert command in result.stdout


def test_schemes_one_line_each() -> None:
    result = invoke("schemes")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    infos = ll.schemes()
    aliases = ll.scheme_aliases()
    modifiers = _core.scheme_modifiers()
    assert len(lines) == len(infos) + len(aliases) + len(modifiers)
    for line, info in zip(lines, infos, strict=False):
        assert line.startswith(info["name"] + " ")
        for field in ("family", "description", "source"):
            assert info[field] in line
    # Then the aliases, each naming the scheme it stands for.
    for line, alias in zip(lines[len(infos) : len(infos) + len(aliases)], aliases, strict=True):
        assert line.split()[:3] == [alias["alias"], "alias", "="]
        assert f"= {alias['scheme']}: {alias['description']}" in line
    # Then the modifiers, from the parser's own table: the ones its errors list.
    tail = lines[len(infos) + len(aliases) :]
    assert [line.split()[:2] for line in tail] == [[f"+{m['name']}", "modifier"] for m in modifiers]
    assert {"+cubic", "+prr", "+ecn"} <= {line.split()[0] for line in tail}


def test_preset_list() -> None:
    result = invoke("preset", "list")
    assert result.exit_code == 0
    assert result.stdout.split() == Scenario.preset_names()


def test_preset_show_prints_the_shipped_toml() -> None:
    result = invoke("preset", "show", "wan")
    assert result.exit_code == 0
    assert result.stdout.rstrip("\n") == Scenario.preset_toml("wan").rstrip("\n")
    assert Scenario.from_toml(result.stdout) == Scenario.preset("wan")


def test_run_table_has_seed_rows_mean_and_ci() -> None:
    result = invoke("run", *SMALL_FLAGS, "--seeds", "3", "--seed", "5")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Mb/s" in out
    for seed in ("5", "6", "7"):
        assert any(line.split()[:1] == [seed] for line in out.splitlines())
    assert "mean" in out
    assert "95% CI" in out
    assert result.stderr == ""


def test_run_single_seed_has_no_ci() -> None:
    result = invoke("run", *SMALL_FLAGS)
    assert result.exit_code == 0, result.stderr
    assert "95% CI" not in result.stdout


def test_run_json_lines() -> None:
    result = invoke("run", *SMALL_FLAGS, "--seeds", "3", "--json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    expected = ll.run_seeds("lan", seeds=3, **SMALL)
    for line, r in zip(lines, expected, strict=True):
        data = json.loads(line)
        assert list(data) == list(r.metrics)  # the facade's key order
        assert without_wall(data) == without_wall(r.to_dict())


def test_config_then_flags_then_set(tmp_path: Path) -> None:
    path = Scenario.preset("wan", buffer="8KiB", **{"transfer": SMALL["transfer"]}).save(
        tmp_path / "wan.toml"
    )
    result = invoke("run", "--config", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    first = json.loads(result.stdout)
    assert (first["preset"], first["buffer_bytes"]) == ("wan", 8192)

    result = invoke(
        "run", "--config", str(path), "--buffer", "16KiB", "--set", "buffer=4KiB", "--json"
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["buffer_bytes"] == 4096


def test_run_matches_the_library(tmp_path: Path) -> None:
    result = invoke("run", *SMALL_FLAGS, "--scheme", "e2e", "--seed", "3", "--json")
    assert result.exit_code == 0, result.stderr
    r = ll.run("lan", seed=3, scheme="e2e", **SMALL)
    assert without_wall(json.loads(result.stdout)) == without_wall(r.to_dict())


def test_trace_csv(tmp_path: Path) -> None:
    out = tmp_path / "trace"
    result = invoke("run", *SMALL_FLAGS, "--seeds", "2", "--trace-csv", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 2
    names = sorted(p.name for p in out.iterdir())
    assert "sender_seed1.csv" in names
    assert "sender_seed2.csv" in names
    header = (out / "sender_seed1.csv").read_text().splitlines()[0]
    assert "time_s" in header.split(",")


BAD_INPUT = [
    pytest.param(["run", "--scheme", "no-such-scheme"], id="unknown-scheme"),
    pytest.param(["run", "--preset", "no-such-preset"], id="unknown-preset"),
    pytest.param(["run", "--buffer", "-5KiB"], id="negative-size"),
    pytest.param(["run", "--error-every", "12parsecs"], id="malformed-unit"),
    pytest.param(["run", "--loss", "1.5"], id="bad-probability"),
    pytest.param(["run", "--set", "no_such_field=1"], id="unknown-field"),
    pytest.param(["run", "--set", "buffer"], id="set-without-equals"),
    pytest.param(["run", "--config", "/no/such/file.toml"], id="unreadable-file"),
    pytest.param(["run", "--seed", "-1"], id="negative-seed"),
    pytest.param(["run", "--seeds", "0"], id="zero-seeds"),
    pytest.param(["run", "--no-such-option"], id="unknown-option"),
    pytest.param(["run", "--preset", "lan", "--config", "x.toml"], id="preset-and-config"),
    pytest.param(["preset", "show", "no-such-preset"], id="show-unknown-preset"),
    pytest.param(["preset", "show"], id="missing-argument"),
    pytest.param(["no-such-command"], id="unknown-command"),
]


@pytest.mark.parametrize("args", BAD_INPUT)
def test_bad_input_exits_2_with_one_line(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("lossylink: error: ")
    assert result.stdout == ""


def test_unknown_toml_key_in_config(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("no_such_key = 1\n" + Scenario.preset_toml("lan"))
    result = invoke("run", "--config", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith("lossylink: error: ")
    assert "bad.toml" in result.stderr
    assert "no_such_key" in result.stderr


def test_demo_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    from rich.console import Console

    from lossylink import demo

    monkeypatch.setattr(demo, "EXPERIMENTS", tuple(
        demo.Experiment(e.label, e.preset, {**e.overrides, "transfer": "128KiB"}, e.paper_mbps,
                        e.paper_goodput, e.lossy)
        for e in demo.EXPERIMENTS
    ))  # fmt: skip
    buffer = StringIO()
    rows = demo.run_demo(seeds=2, console=Console(file=buffer, width=160))
    text = buffer.getvalue()
    assert len(rows) == len(demo.EXPERIMENTS)
    for exp in demo.EXPERIMENTS:
        assert exp.label in text
        assert f"{exp.paper_mbps:.2f}" in text
    assert all(row.throughput.mean > 0 for row in rows)


HOLD = 'hops.0.forward.hiccups=[{kind="hold",at="29.8s",duration="13s"}]'


def test_hiccup_preset_with_a_hold_and_the_eifel_flag() -> None:
    # S8a: a 13 s delay spike makes TCP-Lite time out and go back N (18-segment flight).
    result = invoke("run", "--preset", "hiccup", "--set", HOLD, "--json")
    assert result.exit_code == 0, result.stderr
    plain = json.loads(result.stdout)
    assert plain["sender_timeouts"] == 1
    assert plain["sender_spurious_timeouts"] == 0
    assert plain["sender_retransmitted_segments"] >= 18
    # S8d: --eifel (tcp.eifel = dissertation) detects it and resends one segment only.
    result = invoke("run", "--preset", "hiccup", "--eifel", "--set", HOLD, "--json")
    assert result.exit_code == 0, result.stderr
    eifel = json.loads(result.stdout)
    assert eifel["sender_spurious_timeouts"] == 1
    assert eifel["sender_retransmitted_segments"] == 1
    assert eifel["completion_s"] < plain["completion_s"]


def test_hiccup_error_names_the_list_item() -> None:
    bad = 'hops[0].forward.hiccups=[{kind="reorder",at="1s",length=0}]'
    result = invoke("run", "--preset", "hiccup", "--set", bad)
    assert result.exit_code == 2
    assert "hops[0].forward.hiccups[0].length" in result.stderr


def test_the_cli_names_lists_match_their_modules() -> None:
    from lossylink.commands import reproduce, sweep
    from lossylink.papers import PAPERS
    from lossylink.sweeps.executors import EXECUTORS

    assert sweep.EXECUTORS == EXECUTORS
    assert tuple(PAPERS) == reproduce.PAPER_NAMES


def test_every_command_is_listed_and_loads() -> None:
    """The lazily loaded commands: each module defines the command under its listed name."""
    import click

    from lossylink.cli import LAZY_COMMANDS

    ctx = click.Context(cli)
    assert set(LAZY_COMMANDS) <= set(cli.list_commands(ctx))
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert command.name == name


def test_the_light_paths_import_no_numpy() -> None:
    import subprocess
    import sys

    code = (
        "import sys, lossylink.cli, lossylink; lossylink.__version__; "
        "heavy = ('numpy', 'pandas', 'pyarrow', 'matplotlib'); "
        "print(','.join(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_an_untraced_run_loads_no_numpy() -> None:
    import subprocess
    import sys

    code = (
        "import sys, json, lossylink as ll; "
        "r = ll.run('lan', seed=1, transfer='64KiB'); json.dumps(r.to_dict()); "
        "print('numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_set_flags_that_go_together_come_in_any_order() -> None:
    """--set tcp.buffer=1MiB before --set tcp.window_scaling=true is not refused: the
    scenario is validated once, after every --set."""
    result = invoke(
        "run", "--preset", "wan", "--set", "transfer=64KiB", "--set", "tcp.buffer=1MiB",
        "--set", "tcp.window_scaling=true", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["buffer_bytes"] == 1 << 20
