"""S5's second connection in `lossylink reproduce ludwig2000 --only gsm` (spec §6 S5, §8
RT21): the scenario file is the Rust test's, the SYN times out behind the loaded queue and not
behind a 4-packet one, and a target on the wrong run fails."""

from __future__ import annotations

import dataclasses
import re

import pytest

from lossylink.papers import ludwig2000 as l2k
from lossylink.papers.ludwig2000.gsm import runs as gsm
from lossylink.reproduce import Reproduction, evaluate, reproduce
from support import ROOT, RUST_TESTS


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", groups=["gsm"], out=tmp_path_factory.mktemp("l2k-s5"))


def test_the_scenario_file_is_the_rust_tests() -> None:
    rust = (RUST_TESTS / "gsm_s5.rs").read_text()
    body = re.search(r'r#"\n(.*?)"#', rust, re.S)
    assert body is not None
    expected = (
        body.group(1)
        .replace("{{", "{")
        .replace("}}", "}")
        .replace("{queue}", "50")
        .replace("{second_at}", f"{gsm.S5_SECOND_AT:g}s")
    )
    toml = (ROOT / "python/lossylink/papers" / gsm.S5_FILE).read_text()
    body_lines = [x for x in toml.splitlines() if not x.startswith("#")]
    assert "\n".join(body_lines).strip() == expected.strip()


def test_the_syn_times_out_behind_the_queue_only(rep: Reproduction) -> None:
    ours = {v.target.id: (v.ours, v.verdict) for v in rep.verdicts}
    assert ours["gsm.rt21.syn"] == (1.0, "pass")
    assert ours["gsm.rt21.q4_syn"] == (0.0, "pass")
    assert 9.5 < ours["gsm.rt21.connect"][0] < 10.5
    assert ours["gsm.rt21.q4_connect"][0] < 3.0


def test_a_target_on_the_wrong_run_fails(rep: Reproduction) -> None:
    by_id = {t.run.id: t for t in rep.traced}
    swapped = [
        dataclasses.replace(t, result=by_id["gsm-s5-q4"].result) if t.run.id == "gsm-s5" else t
        for t in rep.traced
    ]
    target = next(t for t in l2k.TARGETS if t.id == "gsm.rt21.syn")
    assert evaluate((target,), rep.outcomes, swapped)[0].verdict == "fail"


# -- the GSM figures (multi-layer plot, Fig 4-5) --------------------------------------------------


def test_traced_gsm_runs_carry_the_rlp_layer(rep: Reproduction) -> None:
    by_id = {t.run.id: t for t in rep.traced}
    rlp = by_id["gsm-s2"].result.trace["rlp"]
    kinds = set(rlp["kind"])
    assert {"data", "xmit", "xoff", "xon", "reset"} <= kinds
    reset = [t for t, k in zip(rlp["time_s"], rlp["kind"], strict=True) if k == "reset"]
    assert reset == pytest.approx([gsm.S2_RESET_S], abs=0.01)


def test_the_utilization_bins_round_up() -> None:
    from lossylink.papers.ludwig2000.gsm.report import histogram_bins

    # 97.01 % counts as 98 %: "between 99 and 100 percent is counted as 100 percent".
    assert histogram_bins([99.2, 100.0, 98.0, 97.01, 91.5]) == {100: 2, 98: 2, 92: 1}


def test_the_gsm_figures_are_drawn(rep: Reproduction) -> None:
    from lossylink.papers.ludwig2000.report import draw

    for key in ("gsm-multilayer", "gsm-utilization"):
        fig = next(f for f in l2k.FIGURES if f.key == key)
        f = draw(rep, fig)
        assert len(f.axes) >= 1
