"""The experiments of Buchholcz et al.'s TCP-ELN study (eln-llelsn spec §5.1-5.3, §6.1): the
``eln5`` network (a server, a base station, three mobiles; 1 Mb/s, 100 ms wired; 2 Mb/s radio
links), Reno (``e2e``) against ``tcp-eln``, FTP (one long-lived download per mobile) and web
traffic (five SURGE sessions per mobile), over the uniform error model (per-packet loss p on
the radio downlinks) and the nine two-state Markov models of Table 1 (a Gilbert-Elliott chain
per downlink, stepped per frame, matching the mean error rate and mean burst length exactly),
and the Fig. 4 micro-scenario (one corrupted frame)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMES = (("reno", "e2e"), ("eln", "tcp-eln"))
"""(label, scheme): the paper's "original TCP" (Reno, §3.1 point 11) and TCP-ELN."""

UNIFORM_P = (0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2)
"""Spec T002-2's grid (the paper's plot points are not in its text)."""
WEB_UNIFORM_P = (0.0, 0.01, 0.05, 0.1, 0.2)

MARKOV = {
    1: ("pedestrian", 0.001, 1.4913),
    2: ("pedestrian", 0.01, 4.0701),
    3: ("pedestrian", 0.1, 13.6708),
    4: ("intermediate", 0.001, 1.0083),
    5: ("intermediate", 0.01, 1.0838),
    6: ("intermediate", 0.1, 1.8629),
    7: ("high", 0.001, 1.0024),
    8: ("high", 0.01, 1.012),
    9: ("high", 0.1, 1.1317),
}
"""Table 1: model -> (user speed, average error rate, average error burst length)."""

FTP_DURATION = "100s"
WEB_DURATION = "300s"
WARMUP = "10s"
RADIO = (1, 2, 3)
"""The radio links of the eln5 preset (links.1..3; their `forward` direction is the downlink)."""

FIG4_TRACE = Path(__file__).with_name("fig4.trace")
"""One corrupted frame: the 16th on the downlink to m1 (the paper's Fig. 4, packet 16)."""


@dataclass(frozen=True)
class Experiment:
    """One run configuration of the study."""

    id: str
    group: str
    """``ftp-uniform``, ``ftp-markov``, ``web-uniform``, ``web-markov``, ``fig4``."""
    label: str
    """``reno`` or ``eln``."""
    x: float
    """p (uniform), the model number (Markov), or 0."""
    overrides: tuple[tuple[str, str], ...]
    description: str
    params: tuple[tuple[str, str | int], ...] = ()
    max_seeds: int | None = None
    traced: bool = False

    @property
    def preset(self) -> str:
        return "eln5"

    def columns(self) -> dict[str, Any]:
        """The ``results.csv`` columns naming the paper's experiment."""
        return {"tcp": self.label, "x": self.x}


def _errors(error: str | None) -> tuple[tuple[str, str], ...]:
    if error is None:
        return ()
    return tuple((f"links.{i}.forward.error", error) for i in RADIO)


def _ftp() -> str:
    return (
        "["
        + ", ".join(f'{{ name = "ftp-m{m}", from = "server", to = "m{m}" }}' for m in (1, 2, 3))
        + "]"
    )


def _web() -> str:
    return (
        '[{ name = "web-m1-{i}", from = "server", to = "m1", copies = 5, stagger = "200ms", '
        'web = {} }, { name = "web-m2-{i}", from = "server", to = "m2", copies = 5, '
        'stagger = "200ms", web = {} }, { name = "web-m3-{i}", from = "server", to = "m3", '
        'copies = 5, stagger = "200ms", web = {} }]'
    )


def uniform(p: float) -> str | None:
    return None if p == 0 else f'{{ model = "bernoulli", p = {p} }}'


MARKOV_SLOT = "4160us"
"""The Markov chain's time step: one packet time T_p of the radio link (1040 bytes at 2 Mb/s).
The chain stands for a Rayleigh-fading channel whose memory is set by the Doppler product
f_d·T_p (spec §5.2, origin of the model): the channel changes with time whether or not a packet
is sent, so the chain steps per slot of T_p, idle time included. Stepped per sent frame instead
(the spec's default for its [GAP]), a chain in its Bad state stays there through a timeout's
silence: see docs/buchholcz.md, "Why the Markov chain steps per 4.16 ms slot"."""


def markov(model: int) -> str:
    _, eps, burst = MARKOV[model]
    return (
        f'{{ model = "gilbert", mean_error_rate = {eps}, mean_burst = {burst}, '
        f'slot = "{MARKOV_SLOT}" }}'
    )


def _experiments() -> list[Experiment]:
    out = []
    for traffic, flows, duration in (("ftp", _ftp(), FTP_DURATION), ("web", _web(), WEB_DURATION)):
        base = (("flows", flows), ("run.duration", duration), ("run.warmup", WARMUP))
        grid = UNIFORM_P if traffic == "ftp" else WEB_UNIFORM_P
        for label, scheme in SCHEMES:
            for p in grid:
                out.append(
                    Experiment(
                        id=f"{traffic}-uniform-{p:g}-{label}",
                        group=f"{traffic}-uniform",
                        label=label,
                        x=p,
                        overrides=(*base, ("scheme", scheme), *_errors(uniform(p))),
                        description=f"{traffic.upper()}, uniform p = {p:g}, {scheme}",
                        params=(("p", str(p)),),
                    )
                )
            for m in MARKOV:
                out.append(
                    Experiment(
                        id=f"{traffic}-markov-{m}-{label}",
                        group=f"{traffic}-markov",
                        label=label,
                        x=float(m),
                        overrides=(*base, ("scheme", scheme), *_errors(markov(m))),
                        description=f"{traffic.upper()}, Markov model {m}, {scheme}",
                        params=(("model", m),),
                    )
                )
    trace = f'{{ model = "trace", file = "{FIG4_TRACE.as_posix()}", repeat = false }}'
    for label, scheme in SCHEMES:
        out.append(
            Experiment(
                id=f"fig4-{label}",
                group="fig4",
                label=label,
                x=0.0,
                overrides=(
                    ("flows", '[{ name = "ftp", from = "server", to = "m1" }]'),
                    ("run.duration", "30s"),
                    ("run.warmup", "0s"),
                    ("scheme", scheme),
                    ("links.1.forward.error", trace),
                ),
                description=f"Fig. 4: the 16th downlink frame corrupted, {scheme}",
                max_seeds=1,
                traced=True,
            )
        )
    return out


EXPERIMENTS: tuple[Experiment, ...] = tuple(_experiments())
BY_ID = {e.id: e for e in EXPERIMENTS}
GROUPS = ("ftp-uniform", "ftp-markov", "web-uniform", "web-markov", "fig4")
GROUP_TITLES = {
    "ftp-uniform": "FTP, uniform error (Fig. 6)",
    "ftp-markov": "FTP, Markov models 1-9 (Fig. 7)",
    "web-uniform": "Web, uniform error (Fig. 8)",
    "web-markov": "Web, Markov models 1-9 (Fig. 9)",
    "fig4": "Fig. 4: one corrupted packet",
}
