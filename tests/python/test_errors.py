"""lossylink.errors: each Rust error kind raises its own class, all under LossylinkError."""

from __future__ import annotations

from collections.abc import Callable

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
