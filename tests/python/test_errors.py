"""lossylink.errors: each Rust error kind raises its own class, all under LossylinkError."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import lossylink as ll
from lossylink import Scenario, errors
from lossylink.errors import (
    InvalidValueError,
    LossylinkError,
    LossylinkIOError,
    ScenarioError,
    ScenarioSyntaxError,
    SimulationError,
    UnitError,
    UnknownFieldError,
    UnknownPresetError,
    UnknownSchemeError,
)

SCENARIO_ERRORS = [
    UnknownSchemeError,
    UnknownPresetError,
    UnknownFieldError,
    InvalidValueError,
    UnitError,
    ScenarioSyntaxError,
]


def test_hierarchy() -> None:
    assert issubclass(LossylinkError, Exception)
    assert issubclass(ScenarioError, LossylinkError)
    for cls in SCENARIO_ERRORS:
        assert issubclass(cls, ScenarioError), cls
    assert issubclass(SimulationError, LossylinkError)
    assert issubclass(LossylinkIOError, LossylinkError)
    assert not issubclass(SimulationError, ScenarioError)
    assert not issubclass(LossylinkIOError, ScenarioError)
    assert issubclass(errors.EmulationError, LossylinkError)
    assert issubclass(errors.PrivilegeError, errors.EmulationError)
    assert not issubclass(errors.EmulationError, ScenarioError)


def test_every_class_is_public_and_distinct() -> None:
    classes = [getattr(errors, name) for name in errors.__all__]
    assert len(set(classes)) == len(classes) == 14  # 12 errors, 2 warnings of sweeps
    for cls in classes:
        assert cls.__module__ == "lossylink.errors"
        assert cls.__doc__


def _preset(name: str) -> Callable[[], object]:
    return lambda: Scenario.preset(name)


def _set(key: str, value: str) -> Callable[[], object]:
    return lambda: Scenario.preset("lan").set(key, value)


CASES = [
    pytest.param(_set("scheme", "no-such-scheme"), UnknownSchemeError, id="unknown-scheme"),
    pytest.param(_preset("no-such-preset"), UnknownPresetError, id="unknown-preset"),
    pytest.param(_set("no_such_field", "1"), UnknownFieldError, id="unknown-alias"),
    pytest.param(_set("tcp.no_such_field", "1"), UnknownFieldError, id="unknown-path"),
    pytest.param(
        lambda: Scenario.from_toml("no_such_key = 1\n" + Scenario.preset_toml("lan")),
        UnknownFieldError,
        id="unknown-toml-key",
    ),
    pytest.param(_set("loss", "1.5"), InvalidValueError, id="probability-above-one"),
    pytest.param(_set("buffer", "12parsecs"), UnitError, id="bad-size-unit"),
    pytest.param(_set("time_limit", "10 fortnights"), UnitError, id="bad-time-unit"),
    pytest.param(lambda: Scenario.from_toml("this is [not toml"), ScenarioSyntaxError, id="toml"),
    pytest.param(lambda: Scenario.from_json("{"), ScenarioSyntaxError, id="json"),
    pytest.param(lambda: ll.run("lan", seed=-1), InvalidValueError, id="negative-seed"),
    pytest.param(lambda: ll.run_seeds("lan", seeds=0), InvalidValueError, id="zero-seeds"),
]


@pytest.mark.parametrize(("action", "expected"), CASES)
def test_each_kind_raises_its_class(action: Callable[[], object], expected: type) -> None:
    with pytest.raises(expected) as info:
        action()
    assert isinstance(info.value, LossylinkError)
    message = str(info.value)
    assert message
    assert "\n" not in message


def test_negative_size_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError):
        Scenario.preset("lan", buffer="-5KiB")


def test_failed_set_leaves_the_scenario_usable() -> None:
    s = Scenario.preset("lan")
    with pytest.raises(UnitError):
        s.set("buffer", "12parsecs")
    assert s.set("buffer", "8KiB") is s


def test_messages_name_what_is_allowed() -> None:
    with pytest.raises(UnknownPresetError) as info:
        Scenario.preset("no-such-preset")
    for name in Scenario.preset_names():
        assert name in str(info.value)


def test_catchable_as_the_base_class() -> None:
    with pytest.raises(LossylinkError):
        Scenario.preset("lan", scheme="no-such-scheme")


# -- nonsense refused in one line, a --config file repaired by --set --------------


def _cli_error(*args: str) -> str:
    from click.testing import CliRunner

    from lossylink.cli import cli

    result = CliRunner().invoke(cli, list(args), prog_name="lossylink")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert len(lines[0]) < 300, result.stderr
    return lines[0]


def test_a_scalar_grid_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"^grid: expected a mapping \{key: \[values\]\}"):
        ll.sweep("lan", grid="scheme", seeds=1)  # type: ignore[arg-type]


def test_duplicate_seeds_are_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"^seeds: 1 is listed twice"):
        ll.sweep("lan", seeds=[1, 1])
    with pytest.raises(InvalidValueError, match=r"^seeds: 3 is listed twice"):
        ll.run_seeds("lan", seeds=[3, 4, 3])


def test_emulate_bytes_zero_is_refused() -> None:
    line = _cli_error("emulate", "lan", "--bytes", "0")
    assert "bytes: 0 is not allowed: the built-in transfer sends at least 1 byte" in line


def test_plot_of_a_saved_run_whose_metrics_are_not_an_object(tmp_path: Path) -> None:
    from lossylink.saved import METRICS_FILE, save_run

    save_run(ll.run("lan", seed=1, transfer="64KiB"), tmp_path)
    (tmp_path / METRICS_FILE).write_text("[]")
    line = _cli_error("plot", str(tmp_path), "--kind", "seq", "--out", str(tmp_path / "f.png"))
    assert "metrics.json: expected a JSON object of metrics (name: value), not list" in line


def test_a_config_file_is_repaired_by_set(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(Scenario.preset_toml("lan").replace("[tcp]", '[tcp]\nmin_rto = "0s"', 1))
    with pytest.raises(InvalidValueError, match=r"bad\.toml: tcp\.min_rto: "):
        Scenario.load(bad)
    line = _cli_error("run", "--config", str(bad), "--json")
    assert "tcp.min_rto" in line
    fixed = Scenario.load(bad, [("tcp.min_rto", "1s")])
    assert fixed.to_dict()["tcp"]["min_rto"] == "1s"
    from click.testing import CliRunner

    from lossylink.cli import cli

    result = CliRunner().invoke(
        cli,
        ["run", "--config", str(bad), "--set", "tcp.min_rto=1s", "--transfer", "64KiB", "--json"],
        prog_name="lossylink",
    )
    assert result.exit_code == 0, result.output


def test_an_unknown_key_lists_the_closest_keys_not_all() -> None:
    with pytest.raises(UnknownFieldError) as info:
        Scenario.preset("lan").set("tcp.msss", "1")
    message = str(info.value)
    assert "`mss`" in message
    assert "see docs/scenarios.md" in message
    assert len(message) < 300, message


def test_contention_on_a_dcf_cell_is_refused() -> None:
    # The DCF draws its own backoff (dcf.cw_min, dcf.slot): a second, unused wait is refused.
    with pytest.raises(InvalidValueError, match=r"^cells\[0\]\.contention: a dcf cell draws"):
        Scenario.preset("llelsn").set("cells.0.contention", '{ cw = 31, slot = "20us" }')
    line = _cli_error("run", "--preset", "wlan", "--set", "cells.0.dcf={ retry_limit = 7 }")
    assert "cells[0].contention: a dcf cell draws its own backoff" in line
    assert "leave contention out" in line


def test_an_apostrophe_in_a_long_message_is_not_cut() -> None:
    from lossylink.cli import _shorten_quoted

    sentence = (
        "x: --kind seq draws a balakrishnan97 reproduction's results.csv (this directory has "
        "none; seq, cwnd and timeline draw a saved run)"
    )
    assert _shorten_quoted(sentence) == sentence
    long = "z" * 100
    cut = _shorten_quoted(f"the scheme's value '{long}' isn't known")
    assert cut.endswith("… (100 characters)' isn't known"), cut
