"""What the emulator's results say about themselves, shared by `lossylink emulate` and
`lossylink validate linux` (docs/emulation.md)."""

from __future__ import annotations

from typing import Any

LATE_P99_US = 1000.0
"""The 99th percentile of the release timing error (µs) above which the emulator is said to
have fallen behind real time: a millisecond is the order of the delays the scenarios model."""


def timing_warning(result: dict[str, Any]) -> str | None:
    """One line when the emulator fell behind real time (its p99 timing error above
    :data:`LATE_P99_US`), ``None`` otherwise."""
    p99 = result.get("timing_p99_us")
    if not isinstance(p99, int | float) or p99 <= LATE_P99_US:
        return None
    worst = result.get("timing_max_us")
    most = f", at most {worst / 1000:.1f} ms" if isinstance(worst, int | float) else ""
    remedy = (
        "a lower rate, or fewer busy cores, keeps it on time"
        if result.get("relay_realtime", True)
        else "the relay ran without real-time scheduling (--no-realtime, or no CAP_SYS_NICE): "
        "with it, or with fewer busy cores, it keeps time"
    )
    return (
        f"the emulator fell behind real time: 1 % of the packets were released more than "
        f"{p99 / 1000:.1f} ms late{most}; results at this rate are not the model's ({remedy})"
    )
