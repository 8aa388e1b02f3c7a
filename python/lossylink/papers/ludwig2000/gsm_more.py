"""What the dissertation proposes for the GSM link beyond its measurements (group ``gsm-ext``):
the flow-adaptive link layer (§4.1, spec §3.7) with its interactive class, RFC 2507 header
compression beside VJ with its header request (§2.2.3, §2.5.5) and handovers (§2.4.2). The
runs and checks are those of
``crates/lossylink/tests/gsm_adaptive.rs``, ``gsm_hc.rs`` and ``gsm_handover.rs``; the
dissertation gives their expected behaviour in words, no numbers (docs/ludwig2000.md,
"The flow-adaptive link layer", "RFC 2507 beside VJ", "Handovers").
"""

from __future__ import annotations

from pathlib import Path

from lossylink.papers._base import INF, Target, mean
from lossylink.papers.ludwig2000.gsm import S2_TRACE, _blocks
from lossylink.papers.ludwig2000.runs import Experiment
from lossylink.papers.ludwig2000.targets import Value, _metric, _t

GROUPS = ("gsm-ext",)
GROUP_TITLES = {
    "gsm-ext": "The flow-adaptive link, RFC 2507 and handovers on the GSM link (§4.1, §2.2.3, "
    "§2.4.2)"
}
TABLE = "GSM link options (§4.1, §2.2.3, §2.4.2)"
TARGET_TABLES = (TABLE,)
TABLE_GROUP = {TABLE: "gsm-ext"}
ADAPTIVE_FILE = "ludwig2000/gsm_adaptive.toml"
INTERACTIVE_FILE = "ludwig2000/gsm_interactive.toml"
L2R = "l2r = { rate = 960 }"
REQUEST = 'hc = "rfc2507", hc_header_request = true'
SEVENTH_TRACE = Path(__file__).parent / "seventh.trace"


def _handover(duration: str, lossless: bool) -> tuple[str, str]:
    ho = f'{{ at = "60s", duration = "{duration}", lossless = {str(lossless).lower()} }}'
    return ("hops.0.gsm", f"{{ n2 = 6, {L2R}, handovers = [{ho}] }}")


def _handovers(n: int) -> tuple[str, str]:
    """`n` lossless handovers of 500 ms, one every 10 s from 20 s, on the link without L2R."""
    ho = ", ".join(f'{{ at = "{20 + 10 * k}s", duration = "500ms" }}' for k in range(n))
    return ("hops.0.gsm", f"{{ n2 = 6, handovers = [{ho}] }}")


def _interactive(marked: bool) -> tuple[tuple[str, str], ...]:
    """The bulk and interactive flows, one block in seven erased from 20 s to 120 s; the
    exchange marked AF21 or not."""
    blocks = ("links.0.forward.blocks", f'{{ file = "{SEVENTH_TRACE.as_posix()}" }}')
    return (blocks, ("flows.1.ds", "18")) if marked else (blocks,)


def _shared(gsm: str) -> tuple[tuple[str, str], ...]:
    return (
        ("links.0.forward.blocks", f'{{ file = "{S2_TRACE.as_posix()}" }}'),
        ("links.0.gsm", f"{{ {gsm}, {L2R} }}"),
    )


def _exp(eid: str, desc: str, *overrides: tuple[str, str], preset: str = "gsm") -> Experiment:
    scheme = (("scheme", "e2e"),) if preset == "gsm" else ()
    return Experiment(
        eid, "gsm-ext", "§4.1/§2.4.2", "-", preset, (*scheme, *overrides), desc,
        traced=False, max_seeds=1,
    )  # fmt: skip


EXPERIMENTS: tuple[Experiment, ...] = (
    _exp("gsm-base", "230 KB over RLP at 960 B/s, clean channel (the reference of the handovers)"),
    _exp("gsm-ho-lossless", "a 2 s lossless handover at 60 s", _handover("2s", True)),
    _exp("gsm-ho-lossy", "a 2 s lossy handover at 60 s", _handover("2s", False)),
    _exp("gsm-ho-lossy-4s", "a 4 s lossy handover at 60 s", _handover("4s", False)),
    _exp("gsm-s2-vj", "S2's reset (4 s burst at 60 s), VJ", _blocks(S2_TRACE),
         ("hops.0.gsm", f'{{ n2 = 6, hc = "vj", {L2R} }}')),
    _exp("gsm-s2-rfc2507", "S2's reset, RFC 2507 (twice)", _blocks(S2_TRACE),
         ("hops.0.gsm", f'{{ n2 = 6, hc = "rfc2507", {L2R} }}')),
    _exp("gsm-s2-request", "S2's reset, RFC 2507 with its header request", _blocks(S2_TRACE),
         ("hops.0.gsm", f'{{ n2 = 6, {REQUEST}, {L2R} }}')),
    _exp("gsm-s2-request-newreno", "the same with a NewReno sender", _blocks(S2_TRACE),
         ("hops.0.gsm", f'{{ n2 = 6, {REQUEST}, {L2R} }}'), ("scheme", "e2e-newreno")),
    _exp("gsm-base-nol2r", "230 KB over RLP without L2R, clean channel",
         ("hops.0.gsm", "{ n2 = 6 }")),
    _exp("gsm-ho-20", "20 lossless 500 ms handovers, one every 10 s, without L2R",
         _handovers(20)),
    _exp("gsm-ia-unmarked", "bulk TCP and a 2 KB exchange at 60 s, flow-adaptive RLP, one "
         "block in seven erased from 20 s; the exchange unmarked (bulk)", *_interactive(False),
         preset=INTERACTIVE_FILE),
    _exp("gsm-ia-marked", "the same, the exchange marked interactive (DS 18)",
         *_interactive(True), preset=INTERACTIVE_FILE),
    _exp("gsm-shared-plain", "bulk TCP and 160 B UDP every 1.6 s sharing RLP (N2 = 6), S2's "
         "burst", *_shared("n2 = 6"), preset=ADAPTIVE_FILE),
    _exp("gsm-shared-adaptive", "the same with the flow-adaptive link", *_shared("adaptive = {}"),
         preset=ADAPTIVE_FILE),
)  # fmt: skip


def _late(run: str) -> Value:
    return lambda m: mean(m, run, "completion_s") - mean(m, "gsm-base", "completion_s")


def _targets() -> list[Target]:
    tb = TABLE
    ho = "spec §3.5, §7.1 item 11; tests/gsm_handover.rs"
    hc = "spec §3.8; tests/gsm_hc.rs"
    fa = "spec §3.7; tests/gsm_adaptive.rs"
    return [
        _t("gsmx.ho.lossless_late", tb, "2 s lossless handover: how much later the transfer "
           "ends", None, (1.999, 2.001), _late("gsm-ho-lossless"),
           ("gsm-ho-lossless", "gsm-base"), ho, unit="s",
           expected="extra delay, no loss (§2.4.2)"),
        _t("gsmx.ho.lossy_late", tb, "2 s lossy handover: how much later", None, (1.999, 2.001),
           _late("gsm-ho-lossy"), ("gsm-ho-lossy", "gsm-base"), ho, unit="s",
           expected="RLP resends the air interface's lost frames: delay only"),
        _t("gsmx.ho.lossy_rexmit", tb, "2 s lossy handover: RLP retransmissions", None,
           (100, 100), _metric("gsm-ho-lossy", "rlp_retransmissions"), ("gsm-ho-lossy",), ho,
           expected="the 100 frames sent into the interruption"),
        _t("gsmx.ho.lossy_timeouts", tb, "2 s lossy handover: TCP timeouts and RLP resets",
           None, (0, 0), lambda m: mean(m, "gsm-ho-lossy", "sender_timeouts")
           + mean(m, "gsm-ho-lossy", "rlp_resets"), ("gsm-ho-lossy",), ho, expected="none"),
        _t("gsmx.ho.long_reset", tb, "4 s lossy handover: RLP resets", None, (1, 1),
           _metric("gsm-ho-lossy-4s", "rlp_resets"), ("gsm-ho-lossy-4s",), ho,
           expected="longer than N2 = 6 covers (2.4 s): a reset"),
        _t("gsmx.hc.rfc2507", tb, "S2's reset: RFC 2507 discards minus VJ's", None, (0, 0),
           lambda m: mean(m, "gsm-s2-rfc2507", "vj_discards")
           - mean(m, "gsm-s2-vj", "vj_discards"), ("gsm-s2-rfc2507", "gsm-s2-vj"), hc,
           expected="two deltas lost back to back: twice fails as VJ (§2.5.5)"),
        _t("gsmx.hc.vj", tb, "S2's reset with VJ: discards", None, (1, INF),
           _metric("gsm-s2-vj", "vj_discards"), ("gsm-s2-vj",), hc,
           expected="the rest of the flight (RT20)"),
        _t("gsmx.hc.request", tb, "S2's reset, RFC 2507 with its header request: discards",
           None, (1, 4), _metric("gsm-s2-request", "vj_discards"), ("gsm-s2-request",), hc,
           expected="the packets in RLP's buffer for one link round trip, not the flight"),
        _t("gsmx.hc.request_newreno", tb, "the same with NewReno: TCP timeouts", None, (0, 0),
           _metric("gsm-s2-request-newreno", "sender_timeouts"), ("gsm-s2-request-newreno",),
           hc, expected="none: the intact segments bring the duplicate ACKs"),
        _t("gsmx.ho.twenty_late", tb, "20 lossless 500 ms handovers: how much later", None,
           (9.999, 10.001), lambda m: mean(m, "gsm-ho-20", "completion_s")
           - mean(m, "gsm-base-nol2r", "completion_s"), ("gsm-ho-20", "gsm-base-nol2r"), ho,
           unit="s", expected="their 10 s (any number of handovers)"),
        _t("gsmx.fa.interactive", tb, "interactive exchange: completion unmarked minus marked",
           None, (0.139, 0.141), lambda m: mean(m, "gsm-ia-unmarked", "flow.telnet.completion_s")
           - mean(m, "gsm-ia-marked", "flow.telnet.completion_s"), ("gsm-ia-unmarked",
           "gsm-ia-marked"), fa, unit="s",
           expected="earlier: its frames go before bulk retransmissions (§4.1.2)"),
        _t("gsmx.fa.plain_reset", tb, "shared link, RLP as GSM runs it: resets", None, (1, 1),
           _metric("gsm-shared-plain", "rlp_resets"), ("gsm-shared-plain",), fa,
           expected="N2 = 6 is too low (§4.2.3)"),
        _t("gsmx.fa.adaptive_reset", tb, "shared link, flow-adaptive: resets and TCP timeouts",
           None, (0, 0), lambda m: mean(m, "gsm-shared-adaptive", "rlp_resets")
           + mean(m, "gsm-shared-adaptive", "sender_timeouts"), ("gsm-shared-adaptive",), fa,
           expected="TCP's bytes persist up to the MSL (§4.1.2)"),
    ]  # fmt: skip


TARGETS: tuple[Target, ...] = tuple(_targets())
