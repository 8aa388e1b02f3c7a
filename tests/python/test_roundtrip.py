"""Property tests: overrides survive serialisation (to_toml -> from_toml is the identity)."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

import lossylink as ll
from lossylink import Scenario

SCHEMES = [info["name"] for info in ll.schemes()]
PRESETS = Scenario.preset_names()
# The error aliases put errors on wireless hops; a preset without one (hiccup) rejects them.
WIRED_ONLY = {p for p in PRESETS if 'role = "wireless"' not in Scenario.preset_toml(p)}
# Link-layer schemes run an agent on a base station; a preset without one rejects them.
NO_BASE_STATION = {p for p in PRESETS if 'kind = "base-station"' not in Scenario.preset_toml(p)}
END_TO_END = {info["name"] for info in ll.schemes() if info["family"] == "end-to-end"}


def _has_dcf(preset: str) -> bool:
    try:
        Scenario.preset(preset, scheme="ll-elsn")
    except ll.errors.InvalidValueError:
        return False
    return True


# The LL-ELSN schemes' notices are an 802.11 MAC's retries: a preset without a DCF rejects them.
NO_DCF = {p for p in PRESETS if not _has_dcf(p)}


def applicable(preset: str, changes: dict[str, str | float]) -> dict[str, str | float]:
    """The overrides that make sense for `preset`."""
    scheme = str(changes.get("scheme", "e2e"))
    if (preset in NO_BASE_STATION and scheme not in END_TO_END) or (
        preset in NO_DCF and scheme.startswith("ll-elsn")
    ):
        changes = {k: v for k, v in changes.items() if k != "scheme"}
    if preset not in WIRED_ONLY:
        return changes
    return {k: v for k, v in changes.items() if k not in ("error_every", "loss")}


sizes_kib = st.integers(min_value=1, max_value=4096).map(lambda n: f"{n}KiB")
overrides = st.fixed_dictionaries(
    {},
    optional={
        "scheme": st.sampled_from(SCHEMES),
        "error_every": st.one_of(st.just("0"), sizes_kib),
        # Socket buffers lie in [mss, 65535] bytes (no window scaling).
        "buffer": st.integers(min_value=2, max_value=63).map(lambda n: f"{n}KiB"),
        "transfer": sizes_kib,
        "loss": st.floats(min_value=0.0, max_value=0.5, allow_nan=False),
    },
)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESETS), changes=overrides)
def test_toml_round_trip_is_identity(preset: str, changes: dict[str, str | float]) -> None:
    changes = applicable(preset, changes)
    s = Scenario.preset(preset, **changes)
    text = s.to_toml()
    back = Scenario.from_toml(text)
    assert back == s
    assert back.to_toml() == text
    assert (back.name, back.scheme) == (s.name, s.scheme)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESETS), changes=overrides)
def test_json_dict_and_pickle_round_trips(preset: str, changes: dict[str, str | float]) -> None:
    changes = applicable(preset, changes)
    s = Scenario.preset(preset, **changes)
    assert Scenario.from_json(s.to_json()) == s
    assert Scenario.from_dict(s.to_dict()) == s
    assert pickle.loads(pickle.dumps(s)) == s


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS), changes=overrides)
def test_overrides_commute_with_serialisation(preset: str, changes: dict[str, str | float]) -> None:
    """Applying the overrides before or after a TOML round trip gives the same scenario."""
    changes = applicable(preset, changes)
    direct = Scenario.preset(preset, **changes)
    via_text = Scenario.from_toml(Scenario.preset(preset).to_toml(), **changes)
    assert direct == via_text
