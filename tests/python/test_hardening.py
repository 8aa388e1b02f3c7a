"""Hostile input: every case of the hardening review as a test, and a property test
that mutates the shipped presets and command lines and accepts only exit 0, or exit 2 with one
short stderr line naming a field or an option: never a traceback, a panic, a hang or a signal."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import tomllib
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lossylink as ll
from lossylink.cli import cli
from lossylink.errors import InvalidValueError, UnknownSchemeError

PRESETS = ll.Scenario.preset_names()


def cli_line(args: list[str]) -> tuple[int, str]:
    """Run the CLI in this process: exit code and stderr (a traceback fails the test)."""
    r = CliRunner().invoke(cli, args)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"{args}: uncaught {r.exception!r}")
    return r.exit_code, r.stderr


def assert_one_line_error(code: int, err: str, names: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert len(lines[0]) < 300, lines[0]
    assert lines[0].startswith("lossylink: error: "), lines[0]
    assert names in lines[0], lines[0]


# Item 1: tracebacks instead of one-line errors.
def test_an_unwritable_report_directory_is_one_line(tmp_path: Path) -> None:
    code, err = cli_line(["reproduce", "ludwig2000", "--only", "s12", "--out", "/proc/nope"])
    assert_one_line_error(code, err, "/proc/nope")


def test_plotting_a_directory_as_results_csv_is_one_line(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    assert cli_line(["run", "--preset", "lan", "--save", str(saved)])[0] == 0
    code, err = cli_line(["plot", str(saved), "--kind", "burst", "--out", str(tmp_path / "p.svg")])
    assert_one_line_error(code, err, str(saved))


# Item 2: absurd seed counts.
@pytest.mark.parametrize("cmd", ["run", "sweep"])
def test_absurd_seed_counts_are_rejected_with_their_limit(cmd: str, tmp_path: Path) -> None:
    extra = ["--out", str(tmp_path / "s.parquet")] if cmd == "sweep" else []
    code, err = cli_line([cmd, "--seeds", "18446744073709551616", *extra])
    assert_one_line_error(code, err, "--seeds")
    assert "1000000" in err
    code, err = cli_line([cmd, "--seed", "18446744073709551616", *extra])
    assert_one_line_error(code, err, "--seed")
    with pytest.raises(InvalidValueError, match=r"1\.\.1000000"):
        ll.run_seeds(ll.Scenario.preset("lan"), seeds=10**12)


# Item 4: a table replaced by a list.
def test_a_table_replaced_by_a_list_is_an_error() -> None:
    code, err = cli_line(["run", "--set", "tcp=[]"])
    assert_one_line_error(code, err, "tcp: must be a table")


# Item 5: the leaf of a two-shape field, no Rust type names.
def test_errors_name_the_leaf_and_no_rust_types() -> None:
    code, err = cli_line(["run", "--set", "hops.1.per_frame.sifs=-1us"])
    assert_one_line_error(code, err, "hops[1].per_frame.sifs")
    assert "Doc" not in err
    assert "untagged" not in err


# Item 6: long values are quoted short.
def test_error_lines_quote_a_short_prefix_of_long_values() -> None:
    code, err = cli_line(["run", "--set", "scheme=" + "x" * 10_000])
    assert_one_line_error(code, err, "scheme")
    assert "(10000 characters)" in err
    with pytest.raises(UnknownSchemeError) as e:
        ll.Scenario.preset("lan").set("scheme", "y" * 10_000)
    assert len(str(e.value)) < 300


# Item 7: lenient parsing.
@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["run", "--set", "transfer=12.KiB"], "12.KiB"),
        (["run", "--set", "hops.1.forward.rate=7"], "rate"),
        (["run", "--preset", ""], "--preset"),
        (["reproduce", "ludwig2000", "--out", ""], "--out"),
        (["run", "--pcap", ""], "--pcap"),
        (["run", "--save", " "], "--save"),
    ],
)
def test_lenient_forms_are_rejected_with_the_allowed_ones(args: list[str], names: str) -> None:
    code, err = cli_line(args)
    assert_one_line_error(code, err, names)


# Item 3: a pool worker killed mid-sweep. The workers hold their batches (support.held_run_batch)
# until the test has killed one of them: the kill always lands while runs are pending, on any
# machine, and which runs finish before it is fixed by the executor's rounds, not by timing.
def _kill_a_holding_worker(
    hold: Path, stop: threading.Event, killed: list[int], release: bool
) -> None:
    """SIGKILL the first pool worker that reports holding a batch; then, if ``release``, let
    the others (and the retries' fresh pool) go."""
    while not stop.is_set():
        started = sorted(hold.glob("*.started"))
        if started:
            pid = int(started[0].name.split(".")[0])
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            if release:
                (hold / "go").touch()
            return
        stop.wait(0.005)


SWEEP = ["--preset", "lan", "--set", "transfer=256KiB"]


def _sweep(out: Path, seeds: int) -> tuple[int, str, str]:
    r = CliRunner().invoke(
        cli,
        ["sweep", *SWEEP, "--seeds", str(seeds), "--executor", "pool", "--workers", "2",
         "--batch", "1", "--out", str(out)],
    )  # fmt: skip
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"uncaught {r.exception!r}")
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def held_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Worker processes from the first batch after the threads' round (these sweeps are short
    enough for the threads alone), each holding its batch until ``<hold>/go`` exists."""
    import support
    from lossylink.sweeps import executors

    hold = tmp_path / "hold"
    hold.mkdir()
    monkeypatch.setattr(executors, "PROCESSES_PAY_OFF_S", 0.0)
    monkeypatch.setattr(
        executors.PoolExecutor, "batch_runner", functools.partial(support.held_run_batch, str(hold))
    )
    return hold


def _killing(hold: Path, out: Path, seeds: int, release: bool) -> tuple[int, str, str, list[int]]:
    stop, killed = threading.Event(), []
    killer = threading.Thread(target=_kill_a_holding_worker, args=(hold, stop, killed, release))
    killer.start()
    try:
        code, out_text, err = _sweep(out, seeds)
    finally:
        stop.set()
        killer.join()
    return code, out_text, err, killed


def test_a_killed_pool_worker_costs_only_a_retry(tmp_path: Path, held_workers: Path) -> None:
    code, _, err, killed = _killing(held_workers, tmp_path / "r.parquet", 6, release=True)
    assert killed, "no worker was killed"
    assert code == 0, err
    assert "Traceback" not in err
    import pandas as pd

    df = pd.read_parquet(tmp_path / "r.parquet")
    assert len(df) == 6
    assert df["error"].isna().all()


def test_runs_lost_past_the_retries_are_one_line_and_a_rerun_runs_only_those(
    tmp_path: Path, held_workers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lossylink.sweeps import executors

    monkeypatch.setattr(executors, "WORKER_RETRIES", 0)
    original = executors.PoolExecutor.__init__
    monkeypatch.setattr(
        executors.PoolExecutor,
        "__init__",
        lambda self, workers=None, retries=0: original(self, workers, 0),
    )
    # Nothing is released: the other worker holds its batch until the broken pool ends it.
    code, out, err, killed = _killing(held_workers, tmp_path / "r.parquet", 6, release=False)
    assert killed, "no worker was killed"
    assert code == 1
    # The progress bar aside, one line.
    lines = [x for x in err.strip().splitlines() if x.startswith("lossylink:")]
    assert len(lines) == 1, err
    assert "lost with dying workers" in lines[0]
    assert "rerun the same command" in lines[0]
    import pandas as pd

    df = pd.read_parquet(tmp_path / "r.parquet")
    # The threads' round (one batch of one run per worker) finished before any process
    # started; the four batches on the processes were pending when the kill broke the pool.
    assert int(df["error"].notna().sum()) == 4
    monkeypatch.undo()
    code, out, err = _sweep(tmp_path / "r.parquet", 6)
    assert code == 0, err
    assert "4 run now, 2 from the cache" in " ".join(out.split())


# The property test: mutated presets and command lines.
def _paths(value: object, prefix: str = "") -> list[str]:
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out += [f"{prefix}{k}", *_paths(v, f"{prefix}{k}.")]
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += [f"{prefix}{i}", *_paths(v, f"{prefix}{i}.")]
    return out


def _at(doc: object, path: str) -> object:
    """The value at dotted ``path`` of ``doc``, or None."""
    for part in path.split("."):
        if isinstance(doc, dict):
            doc = doc.get(part)
        elif isinstance(doc, list) and part.isdigit() and int(part) < len(doc):
            doc = doc[int(part)]
        else:
            return None
    return doc


def _literal(value: str) -> object:
    """``value`` as the CLI reads it: a TOML literal, else a string."""
    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value


PATHS = {p: _paths(tomllib.loads(ll.Scenario.preset_toml(p))) for p in PRESETS}
# Any text a shell can pass (no NUL, valid UTF-8).
ARG = st.characters(codec="utf-8", exclude_characters="\x00")
VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            "[]",
            "{}",
            "true",
            "-1",
            "0",
            "1e400",
            "nan",
            "12.KiB",
            "7",
            "-5ms",
            "1.5",
            "18446744073709551616",
            '{ model = "none" }',
            "[1, 2]",
            '""',
            "x" * 5000,
            '{ model = "gilbert" }',
            "persistent",
            "1bps",
            "0s",
            "2Mbps",
            "64KiB",
            "10ms",
        ]
    ),
    st.text(ARG, max_size=12),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_presets_and_command_lines_exit_cleanly(data: st.DataObject) -> None:
    preset = data.draw(st.sampled_from(PRESETS))
    path = data.draw(
        st.one_of(st.sampled_from(PATHS[preset]), st.text(ARG, min_size=1, max_size=8))
    )
    value = data.draw(VALUES)
    flag = data.draw(
        st.sampled_from([[], ["--seeds", "2"], ["--json"], ["--seed", value], ["--seeds", value]])
    )
    args = ["run", "--preset", preset, "--set", f"{path}={value}", *flag]
    if "duration" not in path:
        # Long-lived presets: keep each run short.
        args += ["--set", "run.time_limit=600s"] if preset in ("lan", "wan", "hiccup") else []
    proc = subprocess.run(
        [sys.executable, "-m", "lossylink", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "RUST_BACKTRACE": "0"},
    )
    assert proc.returncode in (0, 2), (args, proc.returncode, proc.stderr[-2000:])
    # Nothing asked for is silently lost: a table or a list replaced by a value of another
    # shape is an error, not a fallback to defaults.
    old = _at(tomllib.loads(ll.Scenario.preset_toml(preset)), path)
    new = _literal(value)
    if (
        isinstance(old, (dict, list))
        and type(new) is not type(old)
        and path.split(".")[-1] != "per_frame"
    ):
        assert proc.returncode == 2, (args, "a table or list was replaced by another shape")
    assert "Traceback" not in proc.stderr, (args, proc.stderr[-2000:])
    assert "panicked" not in proc.stderr, (args, proc.stderr[-2000:])
    if proc.returncode == 2:
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, (args, proc.stderr[-2000:])
        line = lines[0]
        assert len(line) < 300, (args, line)
        # It names a field (`field: ...`) or an option (`--name`).
        body = line.removeprefix("lossylink: error: ")
        assert "--" in body or ": " in body, (args, line)
