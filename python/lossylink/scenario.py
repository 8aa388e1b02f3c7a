"""Building scenarios: presets, files, and keyword overrides.

A :class:`Scenario` wraps the Rust ``Scenario``. Python values are turned into the text the
Rust side parses (:func:`~lossylink.overrides.to_text`), so units, ranges and field names are
checked in one place, and a bad value raises a :class:`~lossylink.errors.ScenarioError` subclass
naming the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from lossylink import _core
from lossylink.errors import LossylinkError, LossylinkIOError
from lossylink.overrides import OverrideValue, to_text
from lossylink.reprs import MAX_ROWS, brief, clip, html_table

if TYPE_CHECKING:  # pathlib loads where a file is read or written, not on every run
    from pathlib import Path

ScenarioLike: TypeAlias = "Scenario | str | os.PathLike[str] | None"
"""What :func:`lossylink.run` accepts: a scenario, a preset name, a ``.toml``/``.json`` path,
or ``None`` for the ``lan`` preset."""

DEFAULT_PRESET = "lan"
_LOADERS = {".toml": _core.Scenario.from_toml, ".json": _core.Scenario.from_json}


class Scenario:
    """A complete, validated simulation scenario.

    >>> s = Scenario.preset("lan", scheme="e2e", error_every="64KiB", buffer="32KiB")
    >>> s.with_(buffer="8KiB").set("tcp.min_rto", "1s")   # doctest: +SKIP

    Keyword overrides use the Rust aliases (``scheme``, ``error_every``, ``ber``, ``loss``,
    ``buffer``, ``transfer``, ``mss``, ``profile``, ``time_limit``); any field can be reached by
    its dotted path with :meth:`set` or a mapping passed to :meth:`with_`.
    """

    __slots__ = ("_core",)
    __hash__ = None  # type: ignore[assignment]  # mutable: equal scenarios may change

    def __init__(self, core: _core.Scenario) -> None:
        """Wrap an extension-level scenario (use the constructors below instead)."""
        self._core = core

    # -- constructors --------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = DEFAULT_PRESET, /, **overrides: OverrideValue) -> Scenario:
        """The shipped preset ``name``, with keyword ``overrides`` applied in order."""
        return cls(_core.Scenario.preset(name)).update(overrides)

    @classmethod
    def from_toml(cls, text: str, /, **overrides: OverrideValue) -> Scenario:
        """Parse a TOML scenario document, then apply ``overrides``."""
        return cls(_core.Scenario.from_toml(text)).update(overrides)

    @classmethod
    def from_json(cls, text: str, /, **overrides: OverrideValue) -> Scenario:
        """Parse a JSON scenario document, then apply ``overrides``."""
        return cls(_core.Scenario.from_json(text)).update(overrides)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], /, **overrides: OverrideValue) -> Scenario:
        """Build from a plain mapping shaped like the JSON document (see :meth:`to_dict`)."""
        return cls.from_json(json.dumps(data), **overrides)

    @classmethod
    def load(cls, path: str | os.PathLike[str], /, **overrides: OverrideValue) -> Scenario:
        """Read a scenario file: TOML or JSON, chosen by the suffix (``.toml`` / ``.json``).

        Errors in the document are re-raised with the file name in front of the message.
        """
        from pathlib import Path

        p = Path(path)
        loader = _LOADERS.get(p.suffix.lower())
        if loader is None:
            raise LossylinkIOError(f"{p}: unknown scenario file type (expected .toml or .json)")
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise LossylinkIOError(f"cannot read {p}: {reason}") from None
        try:
            core = loader(text)
        except LossylinkError as exc:
            raise type(exc)(f"{p}: {exc}") from None
        return cls(core).update(overrides)

    @classmethod
    def resolve(cls, spec: ScenarioLike, /) -> Scenario:
        """Turn what :func:`lossylink.run` accepts into a scenario (a copy if already one).

        ``None`` is the ``lan`` preset; a string or path ending in ``.toml``/``.json`` is
        loaded from disk; any other string is a preset name.
        """
        if spec is None:
            return cls.preset(DEFAULT_PRESET)
        if isinstance(spec, Scenario):
            return spec.copy()
        if isinstance(spec, _core.Scenario):
            return cls(spec.copy())
        if isinstance(spec, os.PathLike) or os.path.splitext(spec)[1].lower() in _LOADERS:
            return cls.load(spec)
        return cls.preset(spec)

    @staticmethod
    def preset_names() -> list[str]:
        """Names of the shipped presets."""
        return list(_core.Scenario.preset_names())

    @staticmethod
    def preset_toml(name: str) -> str:
        """The TOML text a preset is built from (what ``lossylink preset show`` prints)."""
        return _core.Scenario.preset_toml(name)

    # -- editing -------------------------------------------------------------------------

    def set(self, key: str, value: OverrideValue) -> Scenario:
        """Set one field in place and return ``self`` (for chaining).

        ``key`` is an alias or a dotted path (``"hops.1.forward.queue"``).
        """
        self._core.set(key, to_text(value))
        return self

    def update(
        self,
        overrides: Mapping[str, OverrideValue] | Iterable[tuple[str, OverrideValue]],
        /,
    ) -> Scenario:
        """Apply several overrides in place, in order, and validate the result once, so that
        settings which only make sense together (``tcp.window_scaling=True`` with
        ``tcp.buffer="1MiB"``) may come in any order; returns ``self``. ``overrides`` is a
        mapping or (key, value) pairs (a key may repeat; the last wins). When one is refused,
        nothing changes."""
        pairs = overrides.items() if isinstance(overrides, Mapping) else overrides
        self._core.set_all([(key, to_text(value)) for key, value in pairs])
        return self

    def with_(
        self, overrides: Mapping[str, OverrideValue] | None = None, /, **kw: OverrideValue
    ) -> Scenario:
        """A modified copy: ``overrides`` (a mapping, may hold dotted paths), then ``kw``.

        The original is left unchanged.
        """
        return self.copy().update([*(overrides or {}).items(), *kw.items()])

    def copy(self) -> Scenario:
        """An independent copy."""
        return Scenario(self._core.copy())

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Scenario:
        return self.copy()

    # -- views ---------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The preset name, or the ``name`` field of the scenario document."""
        return self._core.name

    @property
    def scheme(self) -> str:
        """The scheme's registry name."""
        return self._core.scheme

    @property
    def core(self) -> _core.Scenario:
        """The underlying extension object (shared, not copied)."""
        return self._core

    def to_toml(self) -> str:
        """The whole scenario as a TOML document (round-trips through :meth:`from_toml`)."""
        return self._core.to_toml()

    def to_json(self) -> str:
        """The whole scenario as a JSON document (round-trips through :meth:`from_json`)."""
        return self._core.to_json()

    def to_dict(self) -> dict[str, Any]:
        """The whole scenario as plain Python data (via JSON)."""
        data: dict[str, Any] = json.loads(self.to_json())
        return data

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the scenario to ``path`` as TOML or JSON (by suffix); returns the path."""
        from pathlib import Path

        p = Path(path)
        suffix = p.suffix.lower()
        if suffix not in _LOADERS:
            raise LossylinkIOError(f"{p}: unknown scenario file type (expected .toml or .json)")
        text = self.to_toml() if suffix == ".toml" else self.to_json()
        try:
            p.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise LossylinkIOError(f"cannot write {p}: {exc.strerror or exc}") from None
        return p

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Scenario.from_json, (self.to_json(),))

    def __repr__(self) -> str:
        """``Scenario(name='lan', scheme='e2e')``."""
        return clip(f"Scenario(name={self.name!r}, scheme={self.scheme!r})")

    def _repr_html_(self) -> str:
        """The name, scheme and top-level settings (tables summarized by their size)."""
        rows: list[tuple[str, object]] = [("name", self.name), ("scheme", self.scheme)]
        for key, value in self.to_dict().items():
            if key not in ("name", "scheme"):
                rows.append((key, brief(value)))
        return clip(html_table(rows[: MAX_ROWS * 2], caption="Scenario (.to_toml() for all of it)"))
