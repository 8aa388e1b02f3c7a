"""The link-layer schemes of Balakrishnan et al. 1997 (base-station agents), from Python."""

from __future__ import annotations

import pytest

import lossylink as ll
from lossylink.errors import InvalidValueError
from support import SMALL

TABLE_2 = ["ll", "ll-tcp-aware", "ll-smart", "ll-smart-tcp-aware"]


def test_table_2_names_are_registered_with_their_family() -> None:
    infos = {i["name"]: i for i in ll.schemes()}
    for name in [*TABLE_2, "eln-bs"]:
        assert infos[name]["family"] == "link-layer"
        assert "Balakrishnan97" in infos[name]["source"]


@pytest.mark.parametrize("name", TABLE_2)
def test_agents_retransmit_locally(name: str) -> None:
    r = ll.run("lan", seed=3, scheme=name, **SMALL)
    assert r.local_retransmissions > 0
    aware = name.endswith("tcp-aware")
    assert (r.bs_dupacks_suppressed > 0) == aware


def test_tcp_aware_agents_hide_wireless_losses_from_the_sender() -> None:
    r = ll.run("lan", seed=3, scheme="ll-smart-tcp-aware", **SMALL)
    assert r.sender_fast_retransmits == 0
    assert r.sender_timeouts == 0
    assert r.wired_goodput_pct == 100.0


def test_ll_knobs_are_validated_with_their_path() -> None:
    with pytest.raises(InvalidValueError, match=r"ll\.dupthresh"):
        ll.run("lan", seed=1, scheme="ll", **SMALL, **{"ll.dupthresh": 0})


def test_eln_bs_marks_without_the_receiver_oracle() -> None:
    r = ll.run("lan", seed=2, scheme="eln-bs", **SMALL)
    assert r.bs_eln_marks > 0
    assert r.receiver_eln_acks == 0


def test_ll_arq_runs_with_link_acks_and_in_order_delivery() -> None:
    infos = {i["name"]: i for i in ll.schemes()}
    assert infos["ll-arq"]["family"] == "link-layer"
    out = ll.run("lan", seed=3, scheme="ll-arq", **SMALL)
    assert out.link_ack_frames > 0
    assert out.local_retransmissions > 0
    assert out.link_frames_held == 0
    held = ll.run("lan", seed=3, scheme="ll-arq", **SMALL, **{"ll.arq.in_order": True})
    assert held.link_frames_held > 0
    assert held.sender_fast_retransmits == 0


def test_ll_arq_knobs_are_validated_with_their_path() -> None:
    with pytest.raises(InvalidValueError, match=r"ll\.arq\.max_retransmissions"):
        ll.run("lan", seed=1, scheme="ll-arq", **SMALL, **{"ll.arq.max_retransmissions": "often"})
