"""The targets of Buchholcz et al. (eln-llelsn spec §7.1, T002-1..12): relative improvements of
TCP-ELN over Reno, I = T_ELN/T_Reno - 1 for FTP throughput (aggregate goodput of the three
downloads) and R = (RT_Reno - RT_ELN)/RT_Reno for the web's mean page response time. Only
ratios are targets: the paper's absolute throughputs carry an impossible unit (spec §6.1.3)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from lossylink.papers._base import INF, Measured, Target, Unavailable, mean
from lossylink.papers.buchholcz import earned
from lossylink.papers.buchholcz.earned import GOODPUT
from lossylink.papers.buchholcz.runs import MARKOV, UNIFORM_P, WEB_UNIFORM_P

RESPONSE = "agg.response_mean_s"

TARGET_TABLES = ("ftp", "web", "mechanism")
TABLE_GROUP = {"ftp": "ftp-uniform", "web": "web-uniform", "mechanism": "fig4"}
TABLE_TITLES = {
    "ftp": "FTP: throughput improvement (Figs 6, 7); headline reading: ns-2 2003 baseline "
    "with RFC 2001 Reno, C2 = W, C6 on (the band over the other readings: section Readings)",
    "web": "Web: response-time reduction (Figs 8, 9); headline reading: 5 sessions in all, the "
    "one matching the paper's stated results (5 per mobile: section Readings)",
    "mechanism": "The mechanism: no-error equivalence and the Fig. 4 packet",
}

DEVIATIONS: dict[str, str] = {
    "bottleneck-cap": "under every reading TCP-ELN reaches 98 % of the shared 1 Mb/s bottleneck "
    "at low and medium loss, so its gain is at most C / T_Reno - 1 (C its loss-free goodput: "
    "headline p = 0.005 1.3 %, Markov 2, 5, 8 7-8 %); with the wired link at 10 Mb/s (the "
    "counterfactual) the Markov 2, 5, 8 gains come back to 40-46 %, the p = 0.005 gain to 28 %",
    "long-bursts": "under every reading Markov model 3's fades (13.7 slots of 4.16 ms, 3.4-4.2 "
    "of a flow's frames) take out several frames of a window at once and TCP-ELN still times "
    "out (16.9 timeouts per flow in 100 s, uniform p = 0.1: 12.2), so its throughput on model 3 "
    "gains no more over uniform ε = 0.1 than Reno's (1.21 against Reno's 1.72, paper 2.19); "
    "with model 3's loss events as single losses (the counterfactual) the ratio is 2.0; with "
    "TCP-ELN over SACK or NewReno, which repair every hole of a run, the timeouts stay "
    "(16.0, 16.9) and the ratio is 0.94, 0.83: the fade takes the frames that would report "
    "the loss, or the retransmission",
}


def improvement(m: Measured, traffic: str, kind: str, x: float | int) -> float:
    """I (FTP) or R (web) of one grid point."""
    key = f"{x:g}" if kind == "uniform" else str(int(x))
    reno, eln = (f"{traffic}-{kind}-{key}-{lab}" for lab in ("reno", "eln"))
    if traffic == "ftp":
        base = mean(m, reno, GOODPUT)
        if base <= 0:
            raise Unavailable(f"{reno}: Reno moved no data after the warm-up (no ratio)")
        return mean(m, eln, GOODPUT) / base - 1.0
    rt_reno = mean(m, reno, RESPONSE)
    return (rt_reno - mean(m, eln, RESPONSE)) / rt_reno


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (ties get their mean rank)."""

    def ranks(v: list[float]) -> np.ndarray:
        a = np.asarray(v, dtype=float)
        order = a.argsort(kind="stable")
        r = np.empty(len(a))
        r[order] = np.arange(len(a), dtype=float)
        for value in np.unique(a):
            same = a == value
            r[same] = r[same].mean()
        return r

    rx, ry = ranks(x), ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        raise Unavailable("a constant series has no rank correlation")
    return float(np.corrcoef(rx, ry)[0, 1])


def _ids(traffic: str, kind: str, xs: tuple[float, ...] | list[int]) -> tuple[str, ...]:
    key = (lambda x: f"{x:g}") if kind == "uniform" else (lambda x: str(int(x)))
    return tuple(f"{traffic}-{kind}-{key(x)}-{lab}" for x in xs for lab in ("reno", "eln"))


def _t(
    tid: str,
    table: str,
    description: str,
    paper: float | None,
    accept: tuple[float, float],
    tolerance: str,
    value: Callable[[Measured], float],
    needs: tuple[str, ...],
    *,
    unit: str = "",
    expected: str = "",
    deviation: str | None = None,
) -> Target:
    return Target(tid, table, description, paper, accept, tolerance, value, needs,
                  source=f"eln-llelsn spec §7.1 {tid.split('.')[0]}", unit=unit,
                  expected=expected, deviation=deviation)  # fmt: skip


P_POS = tuple(p for p in UNIFORM_P if p > 0)
P_MIN = min(P_POS)
"""The smallest error rate the reproduction examines (the paper's plot points are not in its
text): T002-3b judges the low end of "60-200 % for the examined error rates" there."""


POSITIVE = 1e-6
"""T002-6's "> 0": above the judge's rounding slack (``reproduce.ROUNDING``, 1e-9 absolute for
ranges near 0), which would otherwise take an improvement of exactly 0 (both schemes at the
bottleneck, 3 seeds) as inside."""


def _t2(m: Measured) -> float:
    return spearman(list(P_POS), [improvement(m, "ftp", "uniform", p) for p in P_POS])


def _t6(m: Measured) -> float:
    """The smallest margin of the low-loss model under the medium one at the same speed, if
    every low-loss improvement is positive; else that improvement (negative)."""
    lows = [improvement(m, "ftp", "markov", k) for k in (1, 4, 7)]
    if min(lows) <= 0:
        return min(lows)
    return min(
        improvement(m, "ftp", "markov", k + 1) - improvement(m, "ftp", "markov", k)
        for k in (1, 4, 7)
    )


def _markov_gain(model: int) -> Callable[[Measured], float]:
    return lambda m: improvement(m, "ftp", "markov", model)


def _eln_ratio(model: int) -> Callable[[Measured], float]:
    return lambda m: (
        mean(m, f"ftp-markov-{model}-eln", GOODPUT) / mean(m, "ftp-uniform-0.1-eln", GOODPUT)
    )


def _t7_order(m: Measured) -> float:
    """1 if M3 > M6 > M9 and M9 >= 0.9 U (ELN throughput at ε = 0.1), else 0."""
    t3, t6, t9 = (mean(m, f"ftp-markov-{k}-eln", GOODPUT) for k in (3, 6, 9))
    u = mean(m, "ftp-uniform-0.1-eln", GOODPUT)
    return 1.0 if t3 > t6 > t9 and t9 >= 0.9 * u else 0.0


def _t8(m: Measured) -> float:
    """+1 if at ε = 0.01 and 0.1 ELN's throughput falls with speed (pedestrian > intermediate >
    high), else the worst violation (negative, Mb/s)."""
    worst = INF
    for models in ((2, 5, 8), (3, 6, 9)):
        t = [mean(m, f"ftp-markov-{k}-eln", GOODPUT) for k in models]
        worst = min(worst, t[0] - t[1], t[1] - t[2])
    return 1.0 if worst > 0 else worst


W_POS = tuple(p for p in WEB_UNIFORM_P if p > 0)


def _t9(m: Measured) -> float:
    """Spearman rho(p, R) if every R is within [0, 0.75]; else -1."""
    r = [improvement(m, "web", "uniform", p) for p in W_POS]
    if min(r) < 0 or max(r) > 0.75:
        return -1.0
    return spearman(list(W_POS), r)


def _band(models: tuple[int, ...]) -> Callable[[Measured], float]:
    return lambda m: float(np.mean([improvement(m, "web", "markov", k) for k in models]))


def _t10_order(m: Measured) -> float:
    low, med, high = (_band(g)(m) for g in ((1, 4, 7), (2, 5, 8), (3, 6, 9)))
    return 1.0 if low < med < high else 0.0


def _t1(m: Measured) -> float:
    return abs(mean(m, "ftp-uniform-0-eln", GOODPUT) / mean(m, "ftp-uniform-0-reno", GOODPUT) - 1)


MARKOV_IDS = _ids("ftp", "markov", list(MARKOV))
TARGETS: tuple[Target, ...] = (
    _t("T002-1", "mechanism", "p = 0: TCP-ELN and Reno move the same data", 0.0, (0.0, 0.001),
       "|T_ELN/T_Reno - 1| ≤ 0.1 % (the packets are identical: tests/tcp_eln.rs)", _t1,
       _ids("ftp", "uniform", (0.0,)), expected="equal"),
    _t("T002-2", "ftp", "Uniform FTP: improvement grows with p (Spearman rho over p > 0)", None,
       (0.8, 1.0), "rho ≥ 0.8", _t2, _ids("ftp", "uniform", P_POS), expected="non-decreasing"),
    _t("T002-3a", "ftp", "Uniform FTP: improvement at p = 0.2", None, (1.3, 2.6),
       "I(0.2) ∈ [130 %, 260 %]", lambda m: improvement(m, "ftp", "uniform", 0.2),
       _ids("ftp", "uniform", (0.2,)), expected="60-200 % over the range"),
    _t("T002-3b", "ftp", f"Uniform FTP: improvement at the smallest examined p ({P_MIN:g})",
       None, (0.3, INF), f"I({P_MIN:g}) ≥ 30 % (the paper: 60-200 % 'for the examined error "
       "rates', which it does not list)", lambda m: improvement(m, "ftp", "uniform", P_MIN),
       _ids("ftp", "uniform", (P_MIN,)), expected="60-200 % over the range",
       deviation="bottleneck-cap"),
    *(
        _t(f"T002-4.M{k}", "ftp", f"Markov FTP, high loss: improvement, model {k}", 1.25,
           (0.8, 1.7), "within 110-140 % ± 30 pp", _markov_gain(k),
           _ids("ftp", "markov", [k]), expected="110-140 %")
        for k in (3, 6, 9)
    ),
    *(
        _t(f"T002-5.M{k}", "ftp", f"Markov FTP, medium loss: improvement, model {k}", 0.9,
           (0.3, 1.5), "within 60-120 % ± 30 pp", _markov_gain(k),
           _ids("ftp", "markov", [k]), expected="60-120 %",
           deviation="bottleneck-cap")
        for k in (2, 5, 8)
    ),
    _t("T002-6", "ftp", "Markov FTP, low loss: improvement > 0 and below medium at each speed",
       None, (POSITIVE, INF), "min(I_med - I_low) > 0 with every I_low > 0", _t6, MARKOV_IDS,
       expected="somewhat lower than medium", deviation="bottleneck-cap"),
    _t("T002-7.M3", "ftp", "ELN throughput at ε = 0.1: Markov 3 / uniform", 2.193, (1.6, 2.8),
       "∈ [1.6, 2.8]", _eln_ratio(3), ("ftp-markov-3-eln", "ftp-uniform-0.1-eln"),
       deviation="long-bursts"),
    _t("T002-7.M6", "ftp", "ELN throughput at ε = 0.1: Markov 6 / uniform", 1.185, (1.0, 1.4),
       "∈ [1.0, 1.4]", _eln_ratio(6), ("ftp-markov-6-eln", "ftp-uniform-0.1-eln")),
    _t("T002-7.M9", "ftp", "ELN throughput at ε = 0.1: Markov 9 / uniform", 1.033, (0.9, 1.15),
       "∈ [0.9, 1.15]", _eln_ratio(9), ("ftp-markov-9-eln", "ftp-uniform-0.1-eln"), ),
    _t("T002-7.order", "ftp", "ELN throughput at ε = 0.1: Markov 3 > 6 > 9, and 9 ≥≈ uniform",
       None, (1.0, 1.0), "ordinal (1 = holds; 9 within 10 % of uniform or above)",
       _t7_order, ("ftp-markov-3-eln", "ftp-markov-6-eln", "ftp-markov-9-eln",
                   "ftp-uniform-0.1-eln"), expected="bursty losses suit ELN better"),
    _t("T002-8", "ftp", "ELN throughput falls with user speed at ε = 0.01 and 0.1", None,
       (1.0, 1.0), "ordinal: pedestrian > intermediate > high (1 = holds)", _t8, MARKOV_IDS,
       expected="bursty losses suit ELN better"),
    _t("T002-9", "web", "Web uniform: response-time reduction in [0, 75 %], rising with p",
       None, (0.7, 1.0), "each R ∈ [0, 75 %] and Spearman rho ≥ 0.7 (-1: a value outside)", _t9,
       _ids("web", "uniform", W_POS), expected="10-60 %, increasing with p"),
    _t("T002-10.low", "web", "Web Markov, low loss (1, 4, 7): mean reduction", 0.075,
       (-0.15, 0.30), "0-15 % ± 15 pp", _band((1, 4, 7)), _ids("web", "markov", [1, 4, 7]),
       expected="slight"),
    _t("T002-10.medium", "web", "Web Markov, medium loss (2, 5, 8): mean reduction", 0.225,
       (0.0, 0.45), "15-30 % ± 15 pp", _band((2, 5, 8)), _ids("web", "markov", [2, 5, 8]),
       expected="15-30 %"),
    _t("T002-10.high", "web", "Web Markov, high loss (3, 6, 9): mean reduction", 0.40,
       (0.15, 0.65), "30-50 % ± 15 pp", _band((3, 6, 9)), _ids("web", "markov", [3, 6, 9]),
       expected="30-50 %"),
    _t("T002-10.order", "web", "Web Markov: reduction low < medium < high", None, (1.0, 1.0),
       "ordinal (1 = holds)", _t10_order, _ids("web", "markov", list(MARKOV)),
       expected="grows with the loss"),
    _t("T002-12.eln", "mechanism", "Fig. 4: TCP-ELN's window cuts for the corrupted packet", 0.0,
       (0.0, 0.0), "no fast retransmit, no timeout (packet script: tcp/src/tests/tcp_eln.rs)",
       lambda m: mean(m, "fig4-eln", "sender_fast_retransmits")
       + mean(m, "fig4-eln", "sender_timeouts"), ("fig4-eln",),
       expected="cwnd kept, then restored"),
    _t("T002-12.reno", "mechanism", "Fig. 4: Reno's fast retransmits for the same packet", 1.0,
       (1.0, 1.0), "one halving", lambda m: mean(m, "fig4-reno", "sender_fast_retransmits"),
       ("fig4-reno",), expected="halves"),
)  # fmt: skip
"""T002-11 (absolute FTP throughput) is not a target: the paper's unit is impossible (§6.1.3);
the report gives our throughput per flow in kB/s beside it."""
TARGETS = earned.earn(TARGETS)
"""The deviations' predicted bands and counterfactual runs attached (:mod:`.earned`)."""

TABLE_GROUP_OF = {t.id: TABLE_GROUP[t.table] for t in TARGETS}
