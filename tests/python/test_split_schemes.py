"""The split-connection schemes of Balakrishnan et al. 1997 (a base-station proxy), from Python."""

from __future__ import annotations

import numpy as np
import pytest

import lossylink as ll
from lossylink.errors import InvalidValueError
from support import SMALL

TABLE_4 = ["split", "split-smart"]


def test_table_4_names_are_registered_with_their_family() -> None:
    infos = {i["name"]: i for i in ll.schemes()}
    for name in TABLE_4:
        assert infos[name]["family"] == "split-connection"
        assert "Balakrishnan97" in infos[name]["source"]


@pytest.mark.parametrize("name", TABLE_4)
def test_split_reports_per_leg_metrics(name: str) -> None:
    r = ll.run("lan", seed=3, scheme=name, **SMALL)
    # The proxy acknowledges into its relay buffer: the fixed host never retransmits.
    assert r.wired_goodput_pct == 100.0
    assert r.wired_retransmissions == 0
    assert r.wired_timeouts == 0
    assert r.wired_bytes_sent == r.transfer_bytes
    # The wireless leg does all the repair.
    assert r.wireless_retransmissions > 0
    assert r.wireless_bytes_sent > r.transfer_bytes
    assert 0 < r.relay_max_bytes <= 65536
    assert r.source_stalled_s >= r.source_longest_stall_s >= 0.0


def test_split_trace_has_a_table_pair_per_leg() -> None:
    r = ll.run("lan", seed=3, scheme="split", trace=True, **SMALL)
    assert {"sender", "events", "sender_wireless", "events_wireless"} <= set(r.trace)
    assert int(np.max(r.trace["sender"]["cwnd"])) == 65535


def test_wireless_leg_runs_any_end_to_end_scheme() -> None:
    r = ll.run(
        "lan", seed=3, scheme="split", **SMALL,
        **{"split.wireless_scheme": "e2e-ietf-sack+modern", "split.buffer": "16KiB"},
    )  # fmt: skip
    assert r.relay_max_bytes <= 16384
    assert r.wired_retransmissions == 0


def test_split_knobs_are_validated_with_their_path() -> None:
    with pytest.raises(InvalidValueError, match=r"split\.wireless_scheme"):
        ll.run("lan", seed=1, scheme="split", **SMALL, **{"split.wireless_scheme": "ll"})
    with pytest.raises(InvalidValueError, match=r"split\.buffer"):
        ll.run("lan", seed=1, scheme="split", **SMALL, **{"split.buffer": "100"})
