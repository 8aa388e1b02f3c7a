"""`lossylink reproduce llelsn`: the LL-ELSN study over an 802.11b cell (eln-llelsn spec §5.4,
§7.2): the catalogue, the docs' deviation anchors, and the P1 targets of Fig. 6 with the
collision ablation, on one seed."""

from __future__ import annotations

from lossylink.papers import PAPERS, llelsn
from lossylink.papers.llelsn import runs, targets
from lossylink.reproduce import reproduce
from support import ROOT

DOC = ROOT / "docs" / "llelsn.md"


def test_catalogue_covers_every_figure_and_every_target_of_the_spec() -> None:
    assert PAPERS["llelsn"] is llelsn
    groups = {e.group for e in runs.EXPERIMENTS}
    assert {"fer", "ablation", "rtt", "uplink", "nsweep", "pareto", "friendly"} <= groups
    assert {"ersn", "disconnect", "retry", "markov"} <= groups
    ids = {t.id.split(".")[0] for t in targets.TARGETS}
    assert ids == {f"T004-{i}" for i in range(1, 18)}
    # 20 runs per point, 50 where the link retries (retry limit above one).
    assert runs.BY_ID["fer-1-ll-elsn"].max_seeds == 20
    arq = [e for e in runs.EXPERIMENTS if e.group == "retry" and e.id.endswith("r2-e2e")]
    assert arq
    assert all(e.max_seeds == 50 for e in arq)


def test_every_deviation_has_its_section_in_the_docs() -> None:
    text = DOC.read_text()
    for key in targets.DEVIATIONS:
        assert f"### {key}" in text, key
    for t in targets.TARGETS:
        assert t.deviation is None or t.deviation in targets.DEVIATIONS, t.id


def test_llelsn_leads_at_low_fer_because_of_collisions() -> None:
    """T004-1 (first at every FER), T004-3 and its ablation, T004-5: P1/P2 targets of Fig. 6."""
    rep = reproduce("llelsn", seeds=1, groups=["fer", "ablation"], figures=False)
    v = {x.target.id: x for x in rep.verdicts}
    for tid in ("T004-1.first", "T004-3", "T004-3.ablation", "T004-5", "T004-4.reno"):
        assert v[tid].verdict == "pass", v[tid]
