"""S5's second connection in `lossylink reproduce ludwig2000 --only gsm` (spec §6 S5, §8
RT21): the scenario file is the Rust test's, the SYN times out behind the loaded queue and not
behind a 4-packet one, and a target on the wrong run fails."""

from __future__ import annotations

import dataclasses
import re

import pytest

from lossylink.papers import ludwig2000 as l2k
from lossylink.papers.ludwig2000 import gsm
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
