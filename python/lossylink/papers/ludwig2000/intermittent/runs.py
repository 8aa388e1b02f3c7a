"""S13 of Ludwig (2000), intermittent connectivity (§2.4.2, §4.1.4; group ``s13``):
"disconnections on the order of seconds without losing data", where the dissertation claims
Eifel's gain of "several tens of percent". The dissertation gives no parameters; as
``crates/lossylink/tests/it/intermittent_s13.rs`` does, the ``wan`` preset without errors, its
wireless hop's data direction held at the link stage for 5 s every 10 s, twelve times from
5 s, Reno (``e2e``) against Eifel (``e2e+eifel``). Shorter holds (3 s, 1.5 s) are an
observation (docs/scenarios.md, S13).

The targets are in :mod:`lossylink.papers.ludwig2000.intermittent.targets`.
"""

from __future__ import annotations

from lossylink.papers._base import Figure
from lossylink.papers.ludwig2000.experiment import Experiment, Shade

HOLDS = 12
FIRST_S = 5
EVERY_S = 10
HOLD_S = 5.0
SWEEP_HOLDS_S = (1.5, 3.0, 5.0)
"""The hold lengths of the observation (docs/scenarios.md, S13); 5 s is the main pair."""
HOP = "hops.2.forward.hiccups"
"""The wan preset's wireless hop, data direction (intermittent_s13.rs)."""


def hold_starts() -> list[int]:
    """When the holds begin, in seconds (the same for every hold length)."""
    return [FIRST_S + i * EVERY_S for i in range(HOLDS)]


def holds(duration_s: float) -> str:
    """:data:`HOLDS` link-stage holds of ``duration_s`` every :data:`EVERY_S` from
    :data:`FIRST_S` (the ``holds(12, 5, 10, d)`` of intermittent_s13.rs)."""
    items = [
        f'{{ kind = "hold", at = "{at}s", duration = "{duration_s:g}s" }}' for at in hold_starts()
    ]
    return "[" + ", ".join(items) + "]"


def _s13(scheme: str, duration_s: float) -> tuple[tuple[str, str], ...]:
    return (("scheme", scheme), ("error_every", "0"), (HOP, holds(duration_s)))


def run_id(scheme: str, duration_s: float) -> str:
    """``s13-e2e`` / ``s13-eifel`` for the 5 s holds, ``s13-e2e-3s`` ... for the others."""
    arm = "eifel" if scheme == "e2e+eifel" else "e2e"
    return f"s13-{arm}" if duration_s == HOLD_S else f"s13-{arm}-{duration_s:g}s"


ZOOM_HOLD = (FIRST_S + EVERY_S, FIRST_S + EVERY_S + HOLD_S)
"""The hold the figure shows (the second, 15-20 s: the flow is in steady state)."""


def _experiments() -> tuple[Experiment, ...]:
    out = []
    for d in SWEEP_HOLDS_S:
        for scheme, who in (("e2e", "Reno"), ("e2e+eifel", "Eifel")):
            main = d == HOLD_S
            out.append(
                Experiment(
                    run_id(scheme, d), "s13", "S13" if main else "S13 (observation)", "-",
                    "wan", _s13(scheme, d),
                    f"wan preset, no errors, {HOLDS} link-stage holds of {d:g} s every "
                    f"{EVERY_S} s from {FIRST_S} s on the wireless hop, {who}",
                    Shade(*ZOOM_HOLD, f"link-stage hold, {d:g} s") if main else None,
                    traced=main, params=(("hold_s", f"{d:g}"),),
                )
            )  # fmt: skip
    return tuple(out)


EXPERIMENTS: tuple[Experiment, ...] = _experiments()
GROUPS = ("s13",)
GROUP_TITLES = {"s13": "S13: intermittent connectivity, Reno against Eifel"}
FIGURES: tuple[Figure, ...] = (
    Figure("s13", "S13: a 5 s outage of the wan preset's wireless hop, Reno (top) and Eifel "
           "(bottom)", "seq", ("s13-e2e", "s13-eifel"),
           xlim=(ZOOM_HOLD[0] - 2.0, ZOOM_HOLD[1] + 4.0)),
    Figure("s13-holds", "S13: throughput with intermittent connectivity, by hold length",
           "s13-bars", note="the dissertation: Eifel gains several tens of percent"),
)  # fmt: skip
FIGURE_GROUP = {"s13-holds": "s13"}
"""The group of a figure without traced runs."""
