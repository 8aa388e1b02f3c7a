"""The seeds a call runs: a count from a start, or an explicit list, each checked to be a
64-bit seed (a leaf module, shared by :func:`lossylink.run_seeds`, the sweeps and the commands)."""

from __future__ import annotations

import operator
from collections.abc import Iterable

from lossylink._limits import MAX_SEEDS
from lossylink.errors import InvalidValueError

_SEED_LIMIT = 2**64


def seed_range(seeds: int | Iterable[int], start: int = 1) -> list[int]:
    """The list of seeds meant by a count (``start, start+1, ...``) or an explicit iterable."""
    if isinstance(seeds, bool):
        raise InvalidValueError(f"seeds: expected a count or a list of seeds, got {seeds!r}")
    if isinstance(seeds, int):
        if not 1 <= seeds <= MAX_SEEDS:
            raise InvalidValueError(
                f"seeds: the number of seeds must be in 1..{MAX_SEEDS}, got {seeds}"
            )
        return [check_seed(s) for s in range(start, start + seeds)]
    return [check_seed(s) for s in seeds]


def check_seed(seed: int) -> int:
    """``seed`` as a plain int, if it is an integer in ``[0, 2**64)`` (numpy ints accepted)."""
    try:
        value = operator.index(seed) if not isinstance(seed, bool) else None
    except TypeError:
        value = None
    if value is None or not 0 <= value < _SEED_LIMIT:
        raise InvalidValueError(f"seed: expected an integer in [0, 2**64), got {seed!r}")
    return value
