"""The reproduction targets of Balakrishnan et al. 1997 (spec §7.1-§7.3, §B.11 (a)): the
target half of :mod:`lossylink.papers.balakrishnan97`."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from lossylink.papers._base import (
    INF,
    Measured,
    Target,
    Unavailable,
    mean,
    range_text,
)
from lossylink.papers.balakrishnan97.runs import (
    CONFIGS,
    PEAKS,
    TABLE_2,
    TABLE_3,
    cell_id,
)

# -- targets --------------------------------------------------------------------------------


def peak(m: Measured, preset: str) -> float:
    """Our loss-free peak of a testbed (Mb/s): the base of our "% of maximum"."""
    return mean(m, f"peak@{preset}")


def pct_of_max(m: Measured, exp: str, config: str) -> float:
    """Throughput as a percentage of our loss-free peak of the same testbed."""
    return 100.0 * mean(m, exp) / peak(m, CONFIGS[config].preset)


def _rel(paper: float, tol: float) -> tuple[float, float]:
    return (paper * (1.0 - tol), paper * (1.0 + tol))


def _cell_target(table: str, scheme: str, config: str, paper: float, tol: float, **kw) -> Target:
    exp = cell_id(scheme, config)
    return Target(
        f"{table.lower().replace(' ', '')}.{exp}.mbps",
        table,
        f"{scheme.upper()} {CONFIGS[config].label} throughput",
        paper,
        _rel(paper, tol),
        f"±{tol * 100:.0f}%",
        lambda m, exp=exp: mean(m, exp),
        (exp,),
        unit="Mb/s",
        **kw,
    )


def _ratio(a: str, b: str, metric: str = "throughput_mbps") -> Callable[[Measured], float]:
    return lambda m: mean(m, a, metric) / mean(m, b, metric)


def _fraction_greater(a: str, b: str) -> Callable[[Measured], float]:
    """Fraction of seeds in which ``a`` beats ``b`` (paired by seed)."""

    def f(m: Measured) -> float:
        va, vb = m.values(a, "throughput_mbps"), m.values(b, "throughput_mbps")
        n = min(len(va), len(vb))
        if n == 0:
            raise Unavailable("no seeds")
        return sum(x > y for x, y in zip(va[:n], vb[:n], strict=True)) / n

    return f


# -- Table 3: mirrors crates/lossylink/tests/it/paper_table3.rs --------------------------------

TABLE3_TOL = {"lan8": 0.20, "lan32": 0.20, "wan32": 0.25}
"""§7.3: ±20-25% absolute for the end-to-end family (the Rust test uses 20% LAN, 25% WAN)."""

TABLE3_KNOWN_DEVIATIONS: dict[tuple[str, str], str] = {
    # (scheme, config) -> anchor in docs/reproduction.md; KNOWN_DEVIATIONS of paper_table3.rs.
    ("e2e", "lan8"): "net3-reno",
    ("e2e", "lan32"): "net3-reno",
    ("e2e-newreno", "lan8"): "net3-reno",
    ("e2e-newreno", "wan32"): "wan-ceiling",
    ("e2e-smart", "lan8"): "smart-lan",
    ("e2e-ietf-sack", "lan32"): "ietf-sack-small-windows",
    ("e2e-ietf-sack", "wan32"): "wan-ceiling",
    ("e2e-eln", "lan8"): "eln-lan",
    ("e2e-eln-rxmt", "lan8"): "eln-lan",
    ("e2e-eln-rxmt", "lan32"): "eln-lan",
}


def _table3_targets() -> list[Target]:
    out: list[Target] = []
    src = "spec §7.3; crates/lossylink/tests/it/paper_table3.rs"
    for scheme, cells in TABLE_3.items():
        for config, cell in zip(CONFIGS, cells, strict=True):
            if cell is None:
                continue
            exp = cell_id(scheme, config)
            out.append(
                _cell_target(
                    "Table 3",
                    scheme,
                    config,
                    cell.mbps,
                    TABLE3_TOL[config],
                    source=src,
                    deviation=TABLE3_KNOWN_DEVIATIONS.get((scheme, config)),
                )
            )
            out.append(
                Target(
                    f"table3.{exp}.wireless_goodput",
                    "Table 3",
                    f"{scheme.upper()} {CONFIGS[config].label} wireless goodput",
                    cell.wireless,
                    (96.5, 97.9),
                    "96.5-97.9 %",
                    lambda m, exp=exp: mean(m, exp, "wireless_goodput_pct"),
                    (exp,),
                    src,
                    unit="%",
                )
            )
            out.append(
                Target(
                    f"table3.{exp}.wired_minus_wireless",
                    "Table 3",
                    f"{scheme.upper()} {CONFIGS[config].label} wired - wireless goodput",
                    round(cell.wired - cell.wireless, 1),
                    (-0.05, 0.05),
                    "wired ≈ wireless (±0.05 points; no BS queue drops)",
                    lambda m, exp=exp: (
                        mean(m, exp, "wired_goodput_pct") - mean(m, exp, "wireless_goodput_pct")
                    ),
                    (exp,),
                    src,
                    unit="points",
                )
            )
    c = cell_id

    def best_other(config: str) -> Callable[[Measured], float]:
        def f(m: Measured) -> float:
            smart = mean(m, c("e2e-smart", config))
            others = [
                mean(m, c(s, config))
                for s, cells in TABLE_3.items()
                if s != "e2e-smart" and cells[list(CONFIGS).index(config)] is not None
            ]
            return smart - max(others)

        return f

    def eln_gain_larger_at_8(m: Measured) -> float:
        g8 = _ratio(c("e2e-eln-rxmt", "lan8"), c("e2e-eln", "lan8"))(m)
        g32 = _ratio(c("e2e-eln-rxmt", "lan32"), c("e2e-eln", "lan32"))(m)
        return g8 - g32

    others = tuple(c(s, cfg) for s in TABLE_3 for cfg in ("lan8", "lan32") if s != "e2e-smart")
    claims = [
        ("newreno-over-e2e.lan8", "E2E-NEWRENO ÷ E2E, LAN 8 KB", 1.20, (1.05, 1.45),
         _ratio(c("e2e-newreno", "lan8"), c("e2e", "lan8")), "newreno-lan8"),
        ("newreno-over-e2e.lan32", "E2E-NEWRENO ÷ E2E, LAN 32 KB", 1.27, (1.05, 1.45),
         _ratio(c("e2e-newreno", "lan32"), c("e2e", "lan32")), None),
        ("newreno-over-e2e.wan32", "E2E-NEWRENO ÷ E2E, WAN", 2.06, (1.5, 2.6),
         _ratio(c("e2e-newreno", "wan32"), c("e2e", "wan32")), "wan-ceiling"),
        ("eln-over-e2e.wan32", "E2E-ELN ÷ E2E, WAN", 2.06, (1.6, INF),
         _ratio(c("e2e-eln", "wan32"), c("e2e", "wan32")), None),
        ("eln-rxmt-over-eln.lan8", "E2E-ELN-RXMT ÷ E2E-ELN, LAN 8 KB", 1.25, (1.10, 1.45),
         _ratio(c("e2e-eln-rxmt", "lan8"), c("e2e-eln", "lan8")), None),
        ("eln-rxmt-over-eln.lan32", "E2E-ELN-RXMT ÷ E2E-ELN, LAN 32 KB", 1.02, (0.95, 1.12),
         _ratio(c("e2e-eln-rxmt", "lan32"), c("e2e-eln", "lan32")), "eln-lan"),
        # The paper's gaps (1.25 - 0.95, 1.12 - 0.86, 0.25 - 0.02), accepted within half.
        ("smart-best.lan32", "E2E-SMART - best other end-to-end scheme, LAN 32 KB (C19)",
         0.30, (0.15, 0.45), best_other("lan32"), "eln-rxmt-near-smart"),
        ("smart-best.lan8", "E2E-SMART - best other end-to-end scheme, LAN 8 KB (Q7)",
         0.26, (0.13, 0.39), best_other("lan8"), "eln-rxmt-near-smart"),
        ("eln-rxmt-gain-8-vs-32", "ELN-RXMT gain at 8 KB - gain at 32 KB (C18)",
         0.23, (0.115, 0.345), eln_gain_larger_at_8, "eln-rxmt-near-smart"),
    ]  # fmt: skip
    for key, desc, paper, accept, fn, dev in claims:
        out.append(
            Target(
                f"table3.{key}",
                "Table 3",
                desc,
                paper,
                accept,
                range_text(accept),
                fn,
                others,
                "spec §4.5, §7.3; paper_table3.rs",
                dev,
            )
        )
    for config in CONFIGS:
        e2e, eln = c("e2e", config), c("e2e-eln", config)
        out.append(
            Target(
                f"table3.timeouts-e2e-over-eln.{config}",
                "Table 3",
                f"coarse timeouts E2E ÷ E2E-ELN, {CONFIGS[config].label} (Fig. 7)",
                None,
                (2.0, INF),
                "≥ 2",
                _ratio(e2e, eln, "sender_timeouts"),
                (e2e, eln),
                "spec §7.3; paper_table3.rs",
            )
        )
        out.append(
            Target(
                f"table3.eln-timeouts.{config}",
                "Table 3",
                f"E2E-ELN coarse timeouts per run, {CONFIGS[config].label} (Fig. 7)",
                None,
                (1e-9, INF),
                "> 0",
                lambda m, eln=eln: mean(m, eln, "sender_timeouts"),
                (eln,),
                "spec §7.3; paper_table3.rs",
            )
        )
    pct = [
        ("e2e", "lan32", 46.7, (30.0, 55.0), "30-55 points", "net3-reno"),
        ("e2e", "wan32", 23.0, (12.0, 30.0), "12-30 points", None),
        ("e2e-smart", "lan32", 83.3, (73.3, 93.3), "±10 points", "smart-lan"),
        ("e2e-smart", "lan8", 74.7, (64.7, 84.7), "±10 points", "smart-lan"),
        ("e2e-ietf-sack", "lan32", 74.7, (62.7, 86.7), "±12 points", "ietf-sack-small-windows"),
        ("e2e-ietf-sack", "wan32", 59.3, (47.3, 71.3), "±12 points", "wan-ceiling"),
    ]
    for scheme, config, paper, accept, tol, dev in pct:
        out.append(_pct_target("Table 3", scheme, config, paper, accept, tol, dev))
    return out


def _pct_target(
    table: str,
    scheme: str,
    config: str,
    paper: float,
    accept: tuple[float, float],
    tol: str,
    deviation: str | None = None,
) -> Target:
    exp = cell_id(scheme, config)
    preset = CONFIGS[config].preset
    return Target(
        f"{table.lower().replace(' ', '')}.{exp}.pct_of_max",
        table,
        f"{scheme.upper()} {CONFIGS[config].label} throughput, % of the loss-free peak",
        paper,
        accept,
        tol,
        lambda m: pct_of_max(m, exp, config),
        (exp, f"peak@{preset}"),
        "spec §7.3",
        deviation,
        "%",
    )


# -- Calibration (§7.1) and orderings (§7.2) ------------------------------------------------


def _calibration_targets() -> list[Target]:
    return [
        Target(
            f"calibration.peak@{preset}",
            "Calibration",
            f"loss-free peak, {preset.upper()} 32 KB (E2E)",
            paper,
            _rel(paper, 0.02),
            "±2%",
            lambda m, preset=preset: peak(m, preset),
            (f"peak@{preset}",),
            "spec §7.1",
            unit="Mb/s",
        )
        for preset, paper in PEAKS.items()
    ]


# §7.2: the paper's throughput orderings; a pair is a strict target where the paper's gap is
# at least 10 % (smaller gaps may reverse).
ORDERING_MIN_GAP = 0.10
ORDERING_MIN_FRACTION = 0.8
ORDERING_DEVIATIONS: dict[tuple[str, str, str], str] = {
    # Reversals that follow from a known cell deviation (IETF SACK below the paper).
    ("e2e-ietf-sack", "e2e-eln-rxmt", "lan32"): "ietf-sack-small-windows",
    ("e2e-ietf-sack", "e2e-eln-rxmt", "wan32"): "wan-ceiling",
    # ELN-RXMT's LAN 8 KB cell is far above the paper's, close behind SMART's.
    ("e2e-smart", "e2e-eln-rxmt", "lan8"): "eln-lan",
    # LL-SMART's WAN cell is far above the paper's, level with LL-TCP-AWARE.
    ("ll-tcp-aware", "ll-smart", "wan32"): "ll-wan-empty-queue",
}


def _ordering_targets() -> list[Target]:
    out: list[Target] = []
    for i, config in enumerate(CONFIGS):
        cells = [
            (scheme, cells[i].mbps)
            for table in (TABLE_2, TABLE_3)
            for scheme, cells in table.items()
            if cells[i] is not None
        ]
        cells.sort(key=lambda x: -x[1])
        for (a, pa), (b, pb) in itertools.pairwise(cells):
            if (pa - pb) / pb < ORDERING_MIN_GAP:
                continue
            out.append(
                Target(
                    f"orderings.{config}.{a}>{b}",
                    "Orderings",
                    f"{a.upper()} ({pa:.2f}) > {b.upper()} ({pb:.2f}), "
                    f"{CONFIGS[config].label}: fraction of seeds",
                    1.0,
                    (ORDERING_MIN_FRACTION, 1.0),
                    f"≥ {ORDERING_MIN_FRACTION:.0%} of seeds",
                    _fraction_greater(cell_id(a, config), cell_id(b, config)),
                    (cell_id(a, config), cell_id(b, config)),
                    "spec §7.2",
                    ORDERING_DEVIATIONS.get((a, b, config)),
                )
            )
    return out
