"""Value-level helpers for the short text and HTML representations (REPL and Jupyter) that each
type writes for itself (``RunResult``, ``Scenario``, ``SweepResult``): a few headline values and
counts, never the whole table, and always under :data:`LIMIT` characters. A leaf module: it
knows values and HTML, no type of the package."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

LIMIT = 2000
"""No repr, text or HTML, is longer than this many characters."""
MAX_ROWS = 8
"""Rows of a table shown in an HTML repr (a sweep's summary; the rest are counted)."""
_CELL = 40


def clip(text: str, limit: int = LIMIT) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis if longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def value_text(value: object) -> str:
    """A short display of one value: floats with 4 significant digits, text clipped."""
    if isinstance(value, float):
        return f"{value:.4g}"
    return clip(str(value), _CELL)


def html_table(
    rows: Iterable[Sequence[object]], header: Sequence[str] | None = None, caption: str = ""
) -> str:
    """A small HTML table of escaped, clipped cells."""
    out = ["<table>"]
    if caption:
        out.append(f"<caption style='text-align:left'>{html.escape(caption)}</caption>")
    if header:
        out.append("<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
    for row in rows:
        cells = "".join(f"<td>{html.escape(value_text(c))}</td>" for c in row)
        out.append(f"<tr>{cells}</tr>")
    out.append("</table>")
    return "".join(out)


def fit_html(parts: list[str], more: str) -> str:
    """Join ``parts``; if too long, drop trailing parts and say so with ``more``."""
    text = "".join(parts)
    while len(text) > LIMIT and len(parts) > 1:
        parts = parts[:-1]
        text = "".join(parts) + more
    return clip(text)


def brief(value: object) -> str:
    """A value in a few characters: a table or list by its size, anything else by
    :func:`value_text`."""
    if isinstance(value, Mapping):
        return f"{{{len(value)} fields}}"
    if isinstance(value, list):
        return f"[{len(value)} items]"
    return value_text(value)
