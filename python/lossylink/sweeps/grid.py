"""The grid of a sweep: named axes of values, expanded into points in a fixed order.

A grid is an ordered mapping ``key -> values``. Keys are anything :meth:`Scenario.set` takes
(aliases such as ``scheme`` or ``error_every``, or dotted paths such as ``tcp.min_rto``);
values are kept as the text the Rust side parses (:func:`~lossylink.overrides.to_text`), so a
grid is validated in the same place as every other override. Points are the Cartesian product
with the first key varying slowest, numbered from 0 in that order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

from lossylink.errors import InvalidValueError, LossylinkIOError
from lossylink.overrides import OverrideValue, to_text

GridSpec = Mapping[str, "OverrideValue | Sequence[OverrideValue]"]
"""What :func:`lossylink.sweep` takes as a grid: ``{key: value or list of values}``."""


@dataclass(frozen=True)
class GridPoint:
    """One combination of grid values, with its position in the expansion order."""

    index: int
    values: tuple[tuple[str, str], ...]
    """``(key, value text)`` pairs, in grid key order."""

    def overrides(self) -> dict[str, str]:
        """The point as overrides for :meth:`Scenario.with_`."""
        return dict(self.values)

    def label(self) -> str:
        """``"scheme=e2e, error_every=64KiB"`` (``"base"`` for an empty grid)."""
        return ", ".join(f"{k}={v}" for k, v in self.values) or "base"


@dataclass(frozen=True)
class Grid:
    """Named axes of values; iterate it for its :class:`GridPoint` s."""

    axes: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def from_spec(cls, spec: GridSpec | Grid | None) -> Grid:
        """Build from ``{key: value or [values]}`` (``None``: an empty grid, one point)."""
        if spec is None:
            return cls(())
        if isinstance(spec, Grid):
            return spec
        axes = []
        for key, raw in spec.items():
            if not isinstance(key, str) or not key.strip():
                raise InvalidValueError(f"grid: keys must be non-empty strings, got {key!r}")
            values = [raw] if isinstance(raw, str | bool | int | float) else list(raw)
            if not values:
                raise InvalidValueError(f"grid: {key} has no values")
            texts = tuple(to_text(v) for v in values)
            if len(set(texts)) != len(texts):
                raise InvalidValueError(f"grid: {key} lists a value twice: {', '.join(texts)}")
            axes.append((key.strip(), texts))
        return cls(tuple(axes))

    @property
    def keys(self) -> tuple[str, ...]:
        """The axis names, in order."""
        return tuple(k for k, _ in self.axes)

    def __len__(self) -> int:
        n = 1
        for _, values in self.axes:
            n *= len(values)
        return n

    def __iter__(self) -> Iterator[GridPoint]:
        keys = self.keys
        for index, combo in enumerate(product(*(v for _, v in self.axes))):
            yield GridPoint(index, tuple(zip(keys, combo, strict=True)))

    def to_json(self) -> str:
        """A canonical JSON description (stored in the results file's metadata)."""
        return json.dumps([[k, list(v)] for k, v in self.axes], separators=(",", ":"))


def parse_axis(text: str) -> tuple[str, list[str]]:
    """``"scheme=e2e,e2e-newreno"`` -> ``("scheme", ["e2e", "e2e-newreno"])`` (CLI form)."""
    key, sep, values = text.partition("=")
    items = [v.strip() for v in values.split(",")]
    if not sep or not key.strip() or not all(items):
        raise InvalidValueError(f"grid: expected KEY=V1,V2,..., got {text!r}")
    return key.strip(), items


def merge_axes(axes: Iterable[tuple[str, Sequence[OverrideValue]]]) -> dict[str, list[Any]]:
    """Axes into one grid mapping; a key given twice is an error."""
    out: dict[str, list[Any]] = {}
    for key, values in axes:
        if key in out:
            raise InvalidValueError(f"grid: {key} is given twice")
        out[key] = list(values)
    return out


def load_grid_file(path: str | Path) -> dict[str, list[Any]]:
    """Read a grid from TOML or JSON: ``key = [values]``; nested tables give dotted keys.

    ```toml
    scheme = ["e2e", "e2e-newreno"]
    error_every = ["16KiB", "64KiB"]
    [tcp]
    min_rto = ["200ms", "1s"]        # the key tcp.min_rto
    ```
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise LossylinkIOError(f"cannot read {p}: {reason}") from None
    suffix = p.suffix.lower()
    if suffix not in (".json", ".toml"):
        raise LossylinkIOError(f"{p}: unknown grid file type (expected .toml or .json)")
    try:
        if suffix == ".json":
            data = json.loads(text)
        else:
            import tomllib  # Python >= 3.11

            data = tomllib.loads(text)
    except ValueError as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise InvalidValueError(f"{p}: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidValueError(f"{p}: a grid file holds a table of key = [values]")
    return _flatten(data, "")


def _flatten(data: Mapping[str, Any], prefix: str) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{path}."))
        else:
            out[path] = value if isinstance(value, list) else [value]
    return out
