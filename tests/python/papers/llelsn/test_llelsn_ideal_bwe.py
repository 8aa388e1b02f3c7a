"""Fig. 12's ideal BWE: the oracle's available rate is measured by the
network on every ACK (``tcp.ideal_bwe_available = "live"``: the cell's capacity less the other
flows' rate over the last round trip), and T004-11.aggressive reports its value under the two
fixed readings too (a flow's measured share; the whole cell), each a counterfactual run."""

from __future__ import annotations

import lossylink
from lossylink.papers.llelsn import runs, targets
from support import MeanMeasurements


def _overrides(eid: str) -> dict[str, str]:
    return dict(runs.BY_ID[eid].overrides)


def test_fig12s_oracles_are_live_and_the_fixed_readings_are_per_flow_counterfactuals() -> None:
    flows = _overrides("friendly-8-e2e-ideal-bwe")["flows"]
    live = f'tcp = {{ ideal_bwe_available = "live", ideal_bwe_rate = "{runs.IDEAL_BWE_CELL}" }}'
    assert flows.count(live) == 8, flows
    assert "ideal_bwe" not in _overrides("friendly-8-e2e-westwood")["flows"]
    for key, rate in (("bwe-share", runs.IDEAL_BWE_SHARE), ("bwe-cell", runs.IDEAL_BWE_CELL)):
        ov = _overrides(f"friendly-4-e2e-ideal-bwe~{key}")
        for i in range(4):
            assert ov[f"flows.{i}.tcp.ideal_bwe_available"] == "given"
            assert ov[f"flows.{i}.tcp.ideal_bwe_rate"] == rate
        # The Reno flows beside them refuse the oracle's knobs: none is set for them.
        assert "flows.4.tcp.ideal_bwe_rate" not in ov
        assert f"friendly-0-e2e-ideal-bwe~{key}" not in runs.BY_ID


def test_the_live_and_fixed_oracles_build_and_run_beside_reno_flows() -> None:
    """Two seconds of Fig. 12 at k = 2 under each reading: the scenarios validate (the knobs on
    the oracle's flows only) and the readings give different runs."""
    goodputs = []
    for eid in (
        "friendly-2-e2e-ideal-bwe",
        "friendly-2-e2e-ideal-bwe~bwe-share",
        "friendly-2-e2e-ideal-bwe~bwe-cell",
    ):
        s = lossylink.Scenario.preset("llelsn")
        for k, v in runs.BY_ID[eid].overrides:
            s = s.set(k, v)
        r = lossylink.run(s.set("run.duration", "2s"), seed=1)
        goodputs.append(tuple(f["goodput_mbps"] for f in r.flows))
    assert len(set(goodputs)) == 3, goodputs


def test_t004_11_aggressive_reports_its_value_under_each_reading() -> None:
    """The last Reno flow keeps 0.37 Mb/s beside eight live oracles and beside eight with the
    share, and falls to 0.25 beside eight given the whole cell: the value is 0 under the first
    two readings and 1/4 under the third (ideal BWE alone takes)."""
    t = next(x for x in targets.TARGETS if x.id == "T004-11.aggressive")
    assert t.sensitivity is not None
    means = {}
    for _, s in runs.FRIENDLY:
        for k in runs.REPLACED:
            means[f"friendly-{k}-{s}"] = 0.37
            for key in ("bwe-share", "bwe-cell"):
                means[f"friendly-{k}-{s}~{key}"] = 0.37
    means["friendly-8-e2e-ideal-bwe~bwe-cell"] = 0.25
    m = MeanMeasurements(means)
    assert [v(m) for _, v in t.sensitivity.values] == [0.0, 0.0, 0.25]
    assert set(t.sensitivity.needs) == {
        e.id for e in runs.EXPERIMENTS if e.id.endswith(("~bwe-share", "~bwe-cell"))
    }
