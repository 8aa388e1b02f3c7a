"""Override values: what a keyword override, a ``set`` call or a grid axis may hold, and the
text the Rust side parses for it (a leaf module, shared by :mod:`lossylink.scenario` and the
sweep grid)."""

from __future__ import annotations

import json
import numbers
from collections.abc import Mapping
from typing import Any, TypeAlias

OverrideValue: TypeAlias = "str | int | float | bool | list[Any] | dict[str, Any]"
"""What an override may be: text (``"64KiB"``, ``"e2e"``), a plain number or bool, or a list
or table of them (written as its TOML inline literal)."""


def to_text(value: OverrideValue) -> str:
    """The text form of an override value: bools as ``true``/``false``, numbers via ``str()``;
    a list or a mapping (a grid file's ``key = [[...], [...]]``, a list of hiccups) as its TOML
    inline literal, strings inside it quoted.

    >>> to_text(True), to_text(1460), to_text(1e-06), to_text("64KiB")
    ('true', '1460', '1e-06', '64KiB')
    >>> to_text([{"kind": "hold", "at": "1s"}]), to_text(["a", 2])
    ('[{ kind = "hold", at = "1s" }]', '["a", 2]')
    """
    if isinstance(value, str):
        return value
    return _toml_literal(value)


def _toml_literal(value: Any) -> str:
    """``value`` as a TOML inline literal (strings quoted, JSON's escapes being TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_literal(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{_toml_key(k)} = {_toml_literal(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    raise TypeError(
        "override values must be str, int, float, bool, or lists and tables of them, "
        f"not {type(value).__name__}"
    )


def _toml_key(key: object) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    text = str(key)
    if text and all(c.isascii() and (c.isalnum() or c in "_-") for c in text):
        return text
    return json.dumps(text, ensure_ascii=False)
