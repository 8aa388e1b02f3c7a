"""The targets of the GSM link's options in Ludwig (2000) (group ``gsm-ext``; runs in
:mod:`lossylink.papers.ludwig2000.gsm_ext.runs`): the checks of
``crates/lossylink/tests/it/gsm_adaptive.rs``, ``gsm_hc.rs`` and ``gsm_handover.rs``, expected
behaviour in words (the dissertation gives no numbers)."""

from __future__ import annotations

from lossylink.papers._base import INF, Target, mean
from lossylink.papers.ludwig2000.checks import Value, mean_of, target

TABLE = "GSM link options (§4.1, §2.2.3, §2.4.2)"
TARGET_TABLES = (TABLE,)
TABLE_GROUP = {TABLE: "gsm-ext"}


def _late(run: str) -> Value:
    return lambda m: mean(m, run, "completion_s") - mean(m, "gsm-base", "completion_s")


def _targets() -> list[Target]:
    tb = TABLE
    ho = "spec §3.5, §7.1 item 11; tests/gsm_handover.rs"
    hc = "spec §3.8; tests/gsm_hc.rs"
    fa = "spec §3.7; tests/gsm_adaptive.rs"
    return [
        target("gsmx.ho.lossless_late", tb, "2 s lossless handover: how much later the transfer "
               "ends", None, (1.999, 2.001), _late("gsm-ho-lossless"),
               ("gsm-ho-lossless", "gsm-base"), ho, unit="s",
               expected="extra delay, no loss (§2.4.2)"),
        target("gsmx.ho.lossy_late", tb, "2 s lossy handover: how much later", None, (1.999, 2.001),
               _late("gsm-ho-lossy"), ("gsm-ho-lossy", "gsm-base"), ho, unit="s",
               expected="RLP resends the air interface's lost frames: delay only"),
        target("gsmx.ho.lossy_rexmit", tb, "2 s lossy handover: RLP retransmissions", None,
               (100, 100), mean_of("gsm-ho-lossy", "rlp_retransmissions"), ("gsm-ho-lossy",), ho,
               expected="the 100 frames sent into the interruption"),
        target("gsmx.ho.lossy_timeouts", tb, "2 s lossy handover: TCP timeouts and RLP resets",
               None, (0, 0), lambda m: mean(m, "gsm-ho-lossy", "sender_timeouts")
               + mean(m, "gsm-ho-lossy", "rlp_resets"), ("gsm-ho-lossy",), ho, expected="none"),
        target("gsmx.ho.long_reset", tb, "4 s lossy handover: RLP resets", None, (1, 1),
               mean_of("gsm-ho-lossy-4s", "rlp_resets"), ("gsm-ho-lossy-4s",), ho,
               expected="longer than N2 = 6 covers (2.4 s): a reset"),
        target("gsmx.hc.rfc2507", tb, "S2's reset: RFC 2507 discards minus VJ's", None, (0, 0),
               lambda m: mean(m, "gsm-s2-rfc2507", "vj_discards")
               - mean(m, "gsm-s2-vj", "vj_discards"), ("gsm-s2-rfc2507", "gsm-s2-vj"), hc,
               expected="two deltas lost back to back: twice fails as VJ (§2.5.5)"),
        target("gsmx.hc.vj", tb, "S2's reset with VJ: discards", None, (1, INF),
               mean_of("gsm-s2-vj", "vj_discards"), ("gsm-s2-vj",), hc,
               expected="the rest of the flight (RT20)"),
        target("gsmx.hc.request", tb, "S2's reset, RFC 2507 with its header request: discards",
               None, (1, 4), mean_of("gsm-s2-request", "vj_discards"), ("gsm-s2-request",), hc,
               expected="the packets in RLP's buffer for one link round trip, not the flight"),
        target("gsmx.hc.request_newreno", tb, "the same with NewReno: TCP timeouts", None, (0, 0),
               mean_of("gsm-s2-request-newreno", "sender_timeouts"), ("gsm-s2-request-newreno",),
               hc, expected="none: the intact segments bring the duplicate ACKs"),
        target("gsmx.ho.twenty_late", tb, "20 lossless 500 ms handovers: how much later", None,
               (9.999, 10.001), lambda m: mean(m, "gsm-ho-20", "completion_s")
               - mean(m, "gsm-base-nol2r", "completion_s"), ("gsm-ho-20", "gsm-base-nol2r"), ho,
               unit="s", expected="their 10 s (any number of handovers)"),
        target("gsmx.fa.interactive", tb, "interactive exchange: completion unmarked minus marked",
               None, (0.139, 0.141),
               lambda m: mean(m, "gsm-ia-unmarked", "flow.telnet.completion_s")
               - mean(m, "gsm-ia-marked", "flow.telnet.completion_s"), ("gsm-ia-unmarked",
               "gsm-ia-marked"), fa, unit="s",
               expected="earlier: its frames go before bulk retransmissions (§4.1.2)"),
        target("gsmx.fa.plain_reset", tb, "shared link, RLP as GSM runs it: resets", None, (1, 1),
               mean_of("gsm-shared-plain", "rlp_resets"), ("gsm-shared-plain",), fa,
               expected="N2 = 6 is too low (§4.2.3)"),
        target("gsmx.fa.adaptive_reset", tb, "shared link, flow-adaptive: resets and TCP timeouts",
               None, (0, 0), lambda m: mean(m, "gsm-shared-adaptive", "rlp_resets")
               + mean(m, "gsm-shared-adaptive", "sender_timeouts"), ("gsm-shared-adaptive",), fa,
               expected="TCP's bytes persist up to the MSL (§4.1.2)"),
    ]  # fmt: skip


TARGETS: tuple[Target, ...] = tuple(_targets())
