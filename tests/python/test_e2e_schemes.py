"""The end-to-end schemes of Balakrishnan et al. 1997 and the scheme modifiers, from Python."""

from __future__ import annotations

import pytest

import lossylink as ll
from lossylink.errors import InvalidValueError, UnknownSchemeError
from support import SMALL

TABLE_1_END_TO_END = ["e2e", "e2e-newreno", "e2e-eln", "e2e-eln-rxmt"]


def test_table_1_end_to_end_names_are_registered_with_their_family() -> None:
    infos = {i["name"]: i for i in ll.schemes()}
    for name in [*TABLE_1_END_TO_END, "e2e-limited-transmit"]:
        assert infos[name]["family"] == "end-to-end"
        assert "Balakrishnan97" in infos[name]["source"]


def test_eln_marks_acks_and_never_halves_on_them() -> None:
    r = ll.run("lan", seed=2, scheme="e2e-eln", **SMALL)
    assert r.metrics["receiver_eln_acks"] > 0
    assert r.sender_fast_retransmits == 0  # ELN resends are not congestion fast retransmits
    plain = ll.run("lan", seed=2, scheme="e2e", **SMALL)
    assert plain.metrics["receiver_eln_acks"] == 0


@pytest.mark.parametrize(
    "name",
    [
        "e2e+eifel",
        "e2e-newreno+modern",
        "e2e+lt",
        "e2e-eln+eifel+modern",
        "e2e-cubic",
        "e2e-newreno+modern+cubic",
        "e2e-prr",
        "e2e-newreno+modern+prr",
        "e2e-rack",
        "e2e-frto",
        "e2e-bbr",
        "e2e-linux",
        "e2e-newreno+linux",
    ],
)
def test_modifiers_run_and_are_reported_in_the_scheme(name: str) -> None:
    r = ll.run("lan", seed=1, scheme=name, **SMALL)
    assert r.scheme == name
    assert r.throughput_mbps > 0


def test_cubic_is_listed_with_its_rfc() -> None:
    infos = {i["name"]: i for i in ll.schemes()}
    assert infos["e2e-cubic"]["family"] == "end-to-end"
    assert "RFC 9438" in infos["e2e-cubic"]["source"]


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("e2e-prr", "RFC 6937"),
        ("e2e-rack", "RFC 8985"),
        ("e2e-frto", "RFC 5682"),
        ("e2e-bbr", "draft-cardwell-iccrg-bbr-congestion-control-00"),
        ("e2e-linux", "Linux"),
    ],
)
def test_todays_anchors_are_listed_with_their_source(name: str, source: str) -> None:
    infos = {i["name"]: i for i in ll.schemes()}
    assert infos[name]["family"] == "end-to-end"
    assert source in infos[name]["source"]
    assert infos[name]["description"]


def _first_flight_and_first_cut(profile: str) -> tuple[int, float, float]:
    """Segments sent at the first instant, and ssthresh over the window and over the flight
    size just before the first fast recovery, less what limited transmit sent beyond the
    window (RFC 5681 §3.2 (2) leaves it out of the halving)."""
    s = ll.Scenario.preset("lan").set("tcp.profile", profile).set("scheme", "e2e-ietf-sack")
    r = ll.run(s, seed=1, trace=True, **SMALL)
    events = r.trace_frame("events")
    sends = events[events["kind"] == "send"]
    first = int((sends["time_s"] == sends["time_s"].min()).sum())
    sender = r.trace_frame("sender")
    recovery = sender.index[sender["phase"] == "fast-recovery"]
    assert len(recovery) > 0, f"{profile}: no fast recovery in a lossy run"
    at = int(recovery[0])
    row, prev = sender.iloc[at], sender.iloc[at - 1]
    # The flight when recovery starts (the retransmission does not move snd_nxt), without
    # limited transmit's segments beyond the window before it.
    flight = float(row["snd_nxt"] - row["snd_una"])
    halved = min(flight, float(prev["cwnd"]))
    return first, float(row["ssthresh"]) / float(prev["cwnd"]), float(row["ssthresh"]) / halved


def test_the_linux_profile_sends_linux_s_first_flight_and_cubic_s_cut() -> None:
    """What defines the profile against `modern`: Linux's initial window of 10 segments (RFC
    6928, TCP_INIT_CWND) and CUBIC's multiplicative decrease to 0.7 of the window (RFC 9438
    §4.6, beta_cubic, as Linux's tcp_cubic.c), where `modern` starts with 3 segments (RFC 3390
    for 1460-byte segments) and sets ssthresh to half the flight size (RFC 5681, eq. 4), limited
    transmit's segments left out (§3.2 (2))."""
    linux_first, linux_cut, _ = _first_flight_and_first_cut("linux")
    modern_first, _, modern_cut = _first_flight_and_first_cut("modern")
    assert linux_first == 10
    assert modern_first == 3
    assert abs(linux_cut - 0.7) <= 0.02, linux_cut
    assert abs(modern_cut - 0.5) <= 0.02, modern_cut


def test_unknown_modifier_names_the_allowed_ones() -> None:
    with pytest.raises(UnknownSchemeError, match=r"\+eifel"):
        ll.run("lan", seed=1, scheme="e2e+turbo", **SMALL)


def test_eifel_off_contradicting_the_modifier_is_an_error() -> None:
    s = ll.Scenario.preset("lan", scheme="e2e+eifel")
    with pytest.raises(InvalidValueError, match=r"tcp\.eifel"):
        s.set("tcp.eifel", "off")


# Ludwig2000 §3.1.2 / Q3: segment 94 held past the RTO, its duplicate ACKs held on the ACK
# direction until after the timeout has resent it (crates/lossylink/tests/it/late_dupack.rs).
LATE_DUPACK = {
    "scheme": "e2e+eifel",
    "hops.0.forward.hiccups": '[{kind="reorder",at="40.5s",length=40}]',
    "hops.0.reverse.hiccups": '[{kind="hold",at="41.1s",duration="12s"}]',
}


@pytest.mark.parametrize(
    ("policy", "fast_retransmits", "suppressed", "retransmitted"),
    [("off", 2, 0, 20), ("halve", 0, 1, 1), ("restore", 0, 1, 1)],
)
def test_eifel_late_dupack_policy(
    policy: str, fast_retransmits: int, suppressed: int, retransmitted: int
) -> None:
    s = ll.Scenario.preset("hiccup").update(LATE_DUPACK).set("tcp.eifel_late_dupack", policy)
    r = ll.run(s, seed=1)
    assert r.sender_timeouts == 1
    assert r.sender_fast_retransmits == fast_retransmits
    assert r.sender_suppressed_fast_retransmits == suppressed
    assert r.sender_retransmitted_segments == retransmitted


def test_eifel_late_dupack_errors_name_the_field_and_the_values() -> None:
    s = ll.Scenario.preset("hiccup").update(LATE_DUPACK)
    allowed = r"^tcp\.eifel_late_dupack: .*`halve`, `restore`, `off`"
    with pytest.raises(InvalidValueError, match=allowed):
        s.set("tcp.eifel_late_dupack", "halved")
    plain = ll.Scenario.preset("hiccup")
    with pytest.raises(InvalidValueError, match=r"^tcp\.eifel_late_dupack: is an Eifel rule"):
        plain.set("tcp.eifel_late_dupack", "restore")
