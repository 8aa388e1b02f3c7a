"""Terminal tables that fit the console: whole numbers or no column, never cut digits.

A table is described column by column (:class:`TableColumn`: header, cells, priority) and
:func:`fit_table` builds the widest rich table that fits the console width: when the table is
too wide it drops the columns of lowest priority, one at a time, and says which in its caption
(the dropped values are one ``--json`` or ``.frame()`` away). Cells never wrap, so an 80-column
terminal shows fewer columns instead of ``0.00…`` or a scheme name broken over two lines; a
wider terminal shows every column.

:func:`decimals` picks one number of decimals for a column so that its values (means and
confidence half-widths alike) are printed with the same precision.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

SIGNIFICANT = 3
"""Significant digits of a column's largest value; the other cells use the same decimals."""
MAX_DECIMALS = 4


@dataclass
class TableColumn:
    """One column: its header, its cells (one per row), and how badly it is wanted."""

    header: str
    cells: list[str] = field(default_factory=list)
    priority: int = 0
    """Higher stays longer: the lowest-priority column is dropped first when space runs out."""
    justify: str = "right"
    short: str | None = None
    """The header's name in the "not shown" caption (default: the header on one line)."""


def decimals(values: Iterable[float | None], significant: int = SIGNIFICANT) -> int:
    """Decimals that give the largest finite magnitude ``significant`` digits (0 to 4)."""
    finite = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return 0
    exponent = math.floor(math.log10(max(finite)))
    return max(0, min(MAX_DECIMALS, significant - 1 - exponent))


def number(value: float | None, places: int) -> str:
    """``value`` with ``places`` decimals; an en dash for ``None`` or a non-finite value."""
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.{places}f}"


def fit_table(
    columns: Sequence[TableColumn],
    *,
    width: int,
    title: str | None = None,
    row_styles: Sequence[str | None] = (),
    sections: Sequence[int] = (),
) -> Table:
    """The rich table of ``columns`` that fits ``width`` characters, dropping the columns of
    lowest priority (later ones first among equals) until it fits; a caption names them.

    ``row_styles`` styles rows by index; ``sections`` lists the rows after which a rule goes.
    """
    kept = list(columns)
    dropped: list[TableColumn] = []
    while True:
        table = _build(kept, title, row_styles, sections, dropped)
        if natural_width(_build(kept, None, row_styles, sections, ())) <= width or len(kept) <= 1:
            return table
        victim = min(
            reversed(range(len(kept))), key=lambda i: (kept[i].priority, -i)
        )  # lowest priority, the rightmost among equals
        dropped.insert(0, kept.pop(victim))


def natural_width(table: Table) -> int:
    """The width ``table`` takes when nothing limits it: its longest rendered line, as rich
    measures it (half the time of rendering it; the tests check the two agree)."""
    console = Console(width=10_000, file=io.StringIO(), color_system=None, highlight=False)
    return Measurement.get(console, console.options, table).maximum


def _build(
    columns: Sequence[TableColumn],
    title: str | None,
    row_styles: Sequence[str | None],
    sections: Sequence[int],
    dropped: Sequence[TableColumn],
) -> Table:
    caption = None
    if dropped:
        names = ", ".join(c.short or " ".join(c.header.split()) for c in dropped)
        caption = f"not shown (too narrow): {names}"
    table = Table(
        title=title,
        caption=caption,
        box=box.SIMPLE_HEAD,
        title_justify="left",
        caption_justify="left",
    )
    for col in columns:
        table.add_column(col.header, justify=col.justify, no_wrap=True)  # type: ignore[arg-type]
    rows = max((len(c.cells) for c in columns), default=0)
    for i in range(rows):
        style = row_styles[i] if i < len(row_styles) else None
        table.add_row(
            *(c.cells[i] if i < len(c.cells) else "" for c in columns),
            style=style,
            end_section=i in sections,
        )
    return table
