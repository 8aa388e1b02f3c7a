"""The command line in separate processes: exit codes, stderr, cross-process determinism."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import lossylink as ll
from lossylink import _core
from support import SMALL, without_wall

CliRun = Callable[..., subprocess.CompletedProcess[str]]
SMALL_FLAGS = ["--transfer", SMALL["transfer"], "--error-every", SMALL["error_every"]]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["run", "--scheme", "no-such-scheme"], id="unknown-scheme"),
        pytest.param(["run", "--preset", "no-such-preset"], id="unknown-preset"),
        pytest.param(["run", "--buffer", "-5KiB"], id="negative-size"),
        pytest.param(["run", "--error-every", "12parsecs"], id="malformed-unit"),
        pytest.param(["run", "--config", "/no/such/file.toml"], id="unreadable-file"),
        pytest.param(["run", "--set", "no_such_field=1"], id="unknown-field"),
        pytest.param(["run", "--seeds", "zero"], id="not-a-number"),
    ],
)
def test_bad_input_one_line_no_traceback(cli_run: CliRun, args: list[str]) -> None:
    proc = cli_run(*args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("lossylink: error: ")
    assert proc.stdout == ""


def test_unknown_toml_key_in_config_file(cli_run: CliRun, tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text("no_such_key = 1\n" + ll.Scenario.preset_toml("lan"))
    proc = cli_run("run", "--config", str(path))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("lossylink: error: ")


def test_same_seed_same_results_across_processes(cli_run: CliRun) -> None:
    args = ["run", *SMALL_FLAGS, "--seed", "11", "--seeds", "3", "--json"]
    first, second = cli_run(*args), cli_run(*args)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    a = [without_wall(json.loads(line)) for line in first.stdout.splitlines()]
    b = [without_wall(json.loads(line)) for line in second.stdout.splitlines()]
    assert len(a) == 3
    assert a == b
    here = [without_wall(r.to_dict()) for r in ll.run_seeds("lan", seeds=3, start=11, **SMALL)]
    assert a == here


def test_json_stdout_is_only_json(cli_run: CliRun) -> None:
    proc = cli_run("run", *SMALL_FLAGS, "--seeds", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert isinstance(json.loads(line), dict)


def test_console_script_is_installed() -> None:
    script = shutil.which("lossylink", path=str(Path(sys.executable).parent))
    assert script is not None, "the `lossylink` console script is not installed next to python"
    proc = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"lossylink {ll.__version__}"


# The console script answers `--version`, `-V` and `schemes` itself, without click (entry.py);
# what it prints must be exactly what the click commands print.
_CLICK = [sys.executable, "-c", "import sys; from lossylink.cli import main; main()"]


@pytest.mark.parametrize("args", [["--version"], ["-V"], ["schemes"]], ids=" ".join)
def test_the_fast_answers_are_the_click_commands_output(cli_run: CliRun, args: list[str]) -> None:
    fast = cli_run(*args)
    slow = subprocess.run([*_CLICK, *args], capture_output=True, text=True, check=True)
    assert fast.returncode == 0, fast.stderr
    assert fast.stdout == slow.stdout
    assert fast.stderr == slow.stderr == ""
    schemes = len(ll.schemes()) + len(ll.scheme_aliases()) + len(_core.scheme_modifiers())
    assert len(fast.stdout.splitlines()) == (1 if args != ["schemes"] else schemes)


@pytest.mark.parametrize(
    ("args", "loaded"),
    [
        pytest.param(["--version"], "", id="version"),
        pytest.param(["schemes"], "", id="schemes"),
        # Anything more than the bare command line goes through click.
        pytest.param(["schemes", "--help"], "click", id="schemes-help"),
        pytest.param(["run", *SMALL_FLAGS, "--json"], "click", id="run"),
    ],
)
def test_what_the_light_commands_import(args: list[str], loaded: str) -> None:
    """--version and schemes import neither click nor typing; a run imports click but not
    pathlib (loaded only where a file is named), numpy, pandas, pyarrow or rich."""
    # Reported by an exit handler: the console script leaves through os._exit once the
    # handlers have run (entry._leave).
    code = (
        "import atexit, sys\nfrom lossylink.entry import main\nsys.argv[1:] = sys.argv[2:]\n"
        "heavy = ('click', 'typing', 'pathlib', 'numpy', 'pandas', 'pyarrow', 'rich')\n"
        "out, sys.stdout = sys.stdout, open('/dev/null', 'w')\n"
        "atexit.register(lambda: out.write(','.join(m for m in heavy if m in sys.modules)))\n"
        "main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "lossylink", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    got = set(proc.stdout.strip().split(",")) - {""}
    assert got == ({"click", "typing"} if loaded else set()), got


# After a command the console script leaves without the interpreter's teardown (entry._leave):
# output flushed, exit handlers run, status kept, and the usual exit while a thread runs.
_ENTRY = "import sys\nfrom lossylink.entry import main\nsys.argv[1:] = sys.argv[2:]\n"


def _entry(prelude: str, *args: str, call: str = "main()\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _ENTRY + prelude + call, "lossylink", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_leaving_keeps_the_output_the_status_and_the_exit_handlers(tmp_path: Path) -> None:
    mark = tmp_path / "handler-ran"
    handler = f"import atexit, pathlib\natexit.register(pathlib.Path({str(mark)!r}).touch)\n"
    proc = _entry(handler, "run", *SMALL_FLAGS, "--seeds", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    assert len([json.loads(line) for line in proc.stdout.splitlines()]) == 3
    assert mark.exists()
    mark.unlink()
    bad = _entry(handler, "run", "--scheme", "no-such-scheme")
    assert bad.returncode == 2
    assert bad.stderr.startswith("lossylink: error: ")
    assert bad.stdout == ""
    assert mark.exists()


def test_leaving_waits_for_a_running_thread() -> None:
    # A thread the command did not start (a notebook's, a plugin's) still finishes its work.
    # It finishes once the command has returned (an event, not a wait that a loaded machine
    # could outlast): the process must still wait for it before leaving.
    thread = (
        "import threading\n"
        "returned = threading.Event()\n"
        "def late():\n    returned.wait()\n    print('thread done', flush=True)\n"
        "threading.Thread(target=late).start()\n"
    )
    call = "try:\n    main()\nfinally:\n    returned.set()\n"
    proc = _entry(thread, "run", *SMALL_FLAGS, "--json", call=call)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "thread done"
