"""Plain-text listings the command line prints, in one place for its two paths: the console
script's own answer (:mod:`lossylink.entry`) and the click command (:mod:`lossylink.cli`). No
imports beyond the extension."""

from __future__ import annotations

PROG = "lossylink"
"""The command's name, as its messages and ``--version`` print it."""


def scheme_lines() -> list[str]:
    """``lossylink schemes``: one line per scheme, name and family in aligned columns, then the
    description and the source in brackets; then one line per alias (family ``alias``): the
    scheme it stands for and what that is; then one line per ``+`` modifier a scheme name may
    carry (family ``modifier``), from the table the parser reads."""
    # The registry: no result types, no numpy.
    from lossylink._core import scheme_aliases, scheme_modifiers, schemes

    rows = schemes()
    aliases = scheme_aliases()
    modifiers = scheme_modifiers()
    name_w = max((len(s["name"]) for s in rows), default=0)
    family_w = max((len(s["family"]) for s in rows), default=0)
    lines = [
        f"{s['name']:<{name_w}}  {s['family']:<{family_w}}  {s['description']}  [{s['source']}]"
        for s in rows
    ]
    lines += [
        f"{a['alias']:<{name_w}}  {'alias':<{family_w}}  = {a['scheme']}: {a['description']}"
        for a in aliases
    ]
    lines += [
        f"{'+' + m['name']:<{name_w}}  {'modifier':<{family_w}}  {m['description']}"
        for m in modifiers
    ]
    return lines
