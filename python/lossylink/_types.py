"""Type aliases shared by the package and the extension's stubs (``_core.pyi``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, TypedDict

if TYPE_CHECKING:  # numpy only for the checker: a run without traces never needs it
    import numpy as np
    import numpy.typing as npt

MetricValue: TypeAlias = int | float | str | bool
"""One metric: counters are ``int``, rates and times ``float``, names ``str``."""

TraceColumn: TypeAlias = "npt.NDArray[np.float64] | npt.NDArray[np.int64] | list[str]"
"""One trace column: ``float64`` or ``int64`` numpy arrays, or a list of strings."""

Trace: TypeAlias = dict[str, dict[str, TraceColumn]]
"""``{table: {column: values}}``; all columns of a table have the same length."""


class RawRun(TypedDict):
    """What the extension's ``run`` returns for one seed."""

    metrics: dict[str, MetricValue]
    trace: Trace | None
    pcap: list[str] | None


class SchemeInfo(TypedDict):
    """One entry of the scheme registry."""

    name: str
    family: str
    description: str
    source: str


class SchemeAliasInfo(TypedDict):
    """One entry of the scheme alias table."""

    alias: str
    scheme: str
    description: str
