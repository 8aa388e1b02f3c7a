"""What the dissertation proposes for the GSM link beyond its measurements (group ``gsm-ext``):
the flow-adaptive link layer (§4.1, spec §3.7) with its interactive class, RFC 2507 header
compression beside VJ with its header request (§2.2.3, §2.5.5) and handovers (§2.4.2). The
runs (targets in :mod:`lossylink.papers.ludwig2000.gsm_ext.targets`) and checks are those of
``crates/lossylink/tests/it/gsm_adaptive.rs``, ``gsm_hc.rs`` and ``gsm_handover.rs``; the
dissertation gives their expected behaviour in words, no numbers (docs/ludwig2000.md,
"The flow-adaptive link layer", "RFC 2507 beside VJ", "Handovers").
"""

from __future__ import annotations

from lossylink.papers.ludwig2000.experiment import DATA, Experiment
from lossylink.papers.ludwig2000.gsm.runs import S2_TRACE, _blocks

GROUPS = ("gsm-ext",)
GROUP_TITLES = {
    "gsm-ext": "The flow-adaptive link, RFC 2507 and handovers on the GSM link (§4.1, §2.2.3, "
    "§2.4.2)"
}
ADAPTIVE_FILE = "ludwig2000/gsm_adaptive.toml"
INTERACTIVE_FILE = "ludwig2000/gsm_interactive.toml"
L2R = "l2r = { rate = 960 }"
REQUEST = 'hc = "rfc2507", hc_header_request = true'
SEVENTH_TRACE = DATA / "seventh.trace"


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
