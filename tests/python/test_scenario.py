"""lossylink.Scenario: presets, keyword overrides, files, copies and serialisation."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

import lossylink as ll
from lossylink import Scenario
from lossylink.errors import LossylinkIOError, ScenarioSyntaxError, UnknownPresetError
from lossylink.overrides import to_text
from support import SMALL


def test_preset_names_include_the_paper_testbeds() -> None:
    names = Scenario.preset_names()
    assert {"lan", "wan"} <= set(names)


@pytest.mark.parametrize("name", ["lan", "wan"])
def test_preset_has_its_name(name: str) -> None:
    s = Scenario.preset(name)
    assert s.name == name
    assert s.scheme in {info["name"] for info in ll.schemes()}


@pytest.mark.parametrize("name", ["lan", "wan"])
def test_preset_toml_is_the_preset(name: str) -> None:
    assert Scenario.from_toml(Scenario.preset_toml(name)) == Scenario.preset(name)


def test_keyword_overrides_reach_the_run() -> None:
    s = Scenario.preset("lan", scheme="e2e", error_every="64KiB", buffer="8KiB", transfer="128KiB")
    r = ll.run(s, seed=1)
    assert (r.scheme, r.error_every_bytes, r.buffer_bytes) == ("e2e", 65536, 8192)
    assert r.transfer_bytes == 128 * 1024


def test_integer_overrides_are_bytes() -> None:
    assert Scenario.preset("lan", buffer=8192) == Scenario.preset("lan", buffer="8KiB")


def test_set_returns_self_for_chaining() -> None:
    s = Scenario.preset("lan")
    assert s.set("buffer", "8KiB").set("error_every", "64KiB") is s


def test_set_dotted_path_changes_the_document() -> None:
    s = Scenario.preset("lan")
    before = s.to_toml()
    s.set("hops.1.forward.queue", 20)
    assert s.to_toml() != before


def test_with_returns_a_modified_copy() -> None:
    base = Scenario.preset("lan")
    text = base.to_toml()
    changed = base.with_(buffer="8KiB")
    assert changed is not base
    assert changed != base
    assert base.to_toml() == text
    assert changed == Scenario.preset("lan", buffer="8KiB")


def test_with_accepts_a_mapping_of_dotted_paths() -> None:
    base = Scenario.preset("lan")
    a = base.with_({"hops.1.forward.queue": 20}, buffer="8KiB")
    b = base.copy().set("hops.1.forward.queue", 20).set("buffer", "8KiB")
    assert a == b


def test_overrides_that_go_together_come_in_any_order() -> None:
    """One validation after all of them: a 1 MiB buffer needs window scaling, and neither
    order of the two is refused; `set` one at a time refuses the buffer first."""
    base = Scenario.preset("wan")
    with pytest.raises(ll.errors.LossylinkError, match=r"^tcp\.buffer: .*window_scaling"):
        base.copy().set("tcp.buffer", "1MiB")
    a = base.with_({"tcp.buffer": "1MiB"}, **{"tcp.window_scaling": True})
    b = base.with_({"tcp.window_scaling": True, "tcp.buffer": "1MiB"})
    c = base.copy().update([("tcp.buffer", "1MiB"), ("tcp.window_scaling", "true")])
    assert a == b == c
    assert a.to_dict()["tcp"]["buffer"] == "1MiB"
    kept = base.copy()
    with pytest.raises(ll.errors.LossylinkError, match=r"^tcp\.buffer:"):
        kept.update([("tcp.window_scaling", "true"), ("tcp.buffer", "2GiB")])
    assert kept == base, "a refused batch changes nothing"


def test_copy_is_independent() -> None:
    a = Scenario.preset("lan")
    for b in (a.copy(), copy.copy(a), copy.deepcopy(a)):
        b.set("buffer", "8KiB")
        assert a != b
        assert a == Scenario.preset("lan")


def test_pickle_round_trip() -> None:
    s = Scenario.preset("wan", **SMALL)
    assert pickle.loads(pickle.dumps(s)) == s
    core = s.core
    assert pickle.loads(pickle.dumps(core)).to_json() == core.to_json()


@pytest.mark.parametrize("name", ["lan", "wan"])
def test_toml_json_and_dict_round_trips(name: str) -> None:
    s = Scenario.preset(name, **SMALL)
    assert Scenario.from_toml(s.to_toml()) == s
    assert Scenario.from_json(s.to_json()) == s
    assert Scenario.from_dict(s.to_dict()) == s
    assert Scenario.from_toml(s.to_toml()).to_toml() == s.to_toml()
    assert s.to_dict() == json.loads(s.to_json())


@pytest.mark.parametrize("suffix", [".toml", ".json", ".TOML"])
def test_save_and_load(tmp_path: Path, suffix: str) -> None:
    s = Scenario.preset("wan", buffer="8KiB")
    path = s.save(tmp_path / f"scenario{suffix}")
    assert Scenario.load(path) == s
    assert Scenario.load(str(path)) == s
    assert Scenario.load(path, buffer="16KiB") == s.with_(buffer="16KiB")


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LossylinkIOError, match="cannot read"):
        Scenario.load(tmp_path / "absent.toml")


def test_load_unknown_suffix(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text("name: lan\n")
    with pytest.raises(LossylinkIOError, match=r"\.toml or \.json"):
        Scenario.load(path)


def test_load_syntax_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("this is [not toml\n")
    with pytest.raises(ScenarioSyntaxError, match=r"broken\.toml"):
        Scenario.load(path)


def test_resolve(tmp_path: Path) -> None:
    assert Scenario.resolve(None) == Scenario.preset("lan")
    assert Scenario.resolve("wan") == Scenario.preset("wan")
    path = Scenario.preset("wan", buffer="8KiB").save(tmp_path / "w.toml")
    assert Scenario.resolve(path) == Scenario.load(path)
    assert Scenario.resolve(str(path)) == Scenario.load(path)
    s = Scenario.preset("lan")
    resolved = Scenario.resolve(s)
    assert resolved == s
    assert resolved is not s
    with pytest.raises(UnknownPresetError):
        Scenario.resolve("no-such-preset")


def test_repr_names_preset_and_scheme() -> None:
    s = Scenario.preset("wan")
    assert repr(s) == f"Scenario(name='wan', scheme={s.scheme!r})"
    assert "wan" in repr(s.core)


def test_scenarios_are_unhashable() -> None:
    with pytest.raises(TypeError):
        hash(Scenario.preset("lan"))


@pytest.mark.parametrize(
    ("value", "text"),
    [(True, "true"), (False, "false"), (1460, "1460"), (0, "0"), (1e-06, "1e-06"), (0.5, "0.5"),
     ("64KiB", "64KiB")],
)  # fmt: skip
def test_to_text(value: str | int | float | bool, text: str) -> None:
    assert to_text(value) == text


def test_to_text_writes_lists_and_tables_as_toml_and_rejects_other_types() -> None:
    assert to_text([1, 2]) == "[1, 2]"
    assert to_text([]) == "[]"
    assert to_text({"model": "bernoulli", "p": 0.1}) == '{ model = "bernoulli", p = 0.1 }'
    assert to_text([{"a b": 'say "x"'}]) == '[{ "a b" = "say \\"x\\"" }]'
    with pytest.raises(TypeError, match="set"):
        to_text({1, 2})  # type: ignore[arg-type]


def test_json_round_trip_keeps_floats_exact() -> None:
    """JSON must read back the exact float it wrote (serde_json's `float_roundtrip` feature)."""
    s = Scenario.preset("lan", loss=0.09882295820746215)
    assert Scenario.from_json(s.to_json()).to_json() == s.to_json()
