"""`lossylink reproduce ludwig2000 --only gsm-ext`: the flow-adaptive link (with its interactive
class), RFC 2507 (with its header request) and handovers on the GSM link, the runs and checks
of crates/lossylink/tests/it/gsm_adaptive.rs, gsm_hc.rs and gsm_handover.rs."""

from __future__ import annotations

import re

import pytest

from lossylink.papers.ludwig2000.gsm_ext import runs as gsm_ext
from lossylink.papers.ludwig2000.gsm_ext import targets as gsm_ext_targets
from lossylink.reproduce import Reproduction, reproduce
from support import L2K_DOC, ROOT, RUST_TESTS


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", groups=["gsm-ext"], out=tmp_path_factory.mktemp("l2k-ext"))


def test_every_target_passes(rep: Reproduction) -> None:
    mine = [v for v in rep.verdicts if v.target.table == gsm_ext_targets.TABLE]
    assert len(mine) == len(gsm_ext_targets.TARGETS) == 13
    assert all(v.verdict == "pass" for v in mine), [(v.target.id, v.ours) for v in mine]


def test_the_shared_link_is_the_rust_tests() -> None:
    rust = (RUST_TESTS / "gsm_adaptive.rs").read_text()
    body = re.search(r'r#"\n(.*?)"#', rust, re.S)
    assert body is not None
    expected = (
        body.group(1)
        .replace("{{", "{")
        .replace("}}", "}")
        .replace(
            'gsm = {gsm}\nforward = { blocks = { file = "{trace}" } }\n',
            "gsm = { n2 = 6, l2r = { rate = 960 } }\n",
        )
    )
    toml = (ROOT / "python/lossylink/papers" / gsm_ext.ADAPTIVE_FILE).read_text()
    lines = [x for x in toml.splitlines() if not x.startswith("#")]
    assert "\n".join(lines).strip() == expected.strip()


def test_the_interactive_case_is_the_rust_tests() -> None:
    rust = (RUST_TESTS / "gsm_adaptive.rs").read_text()
    bodies = re.findall(r'r#"\n(.*?)"#', rust, re.S)
    assert len(bodies) == 2
    expected = (
        bodies[1]
        .replace("{{", "{")
        .replace("}}", "}")
        .replace("queue = {queue}", "queue = 50")
        .replace(
            'gsm = {gsm}\nforward = { blocks = { file = "{trace}" } }\n',
            "gsm = { adaptive = {}, l2r = { rate = 960 } }\n",
        )
        .replace("{ds}\n", "")
    )
    toml = (ROOT / "python/lossylink/papers" / gsm_ext.INTERACTIVE_FILE).read_text()
    lines = [x for x in toml.splitlines() if not x.startswith("#")]
    assert "\n".join(lines).strip() == expected.strip()


def test_docs_name_the_group() -> None:
    assert "--only gsm-ext" in L2K_DOC.read_text()
