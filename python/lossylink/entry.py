"""The ``lossylink`` console script's entry point.

The two commands that only look something up, ``lossylink --version`` (or ``-V``) and
``lossylink schemes``, are answered here without importing click, which alone takes longer to
import than the rest of such a command (issue 21: under 80 ms). Their output is byte for byte
what the click command prints (tests/python/test_cli.py compares them); every other command line,
including these two with anything added, goes to :func:`lossylink.cli.main`.
"""

from __future__ import annotations

import sys

PROG = "lossylink"


def scheme_lines() -> list[str]:
    """``lossylink schemes``: one line per scheme, name and family in aligned columns, then the
    description and the source in brackets."""
    from lossylink._core import schemes  # the registry itself: no result types, no numpy

    rows = schemes()
    name_w = max((len(s["name"]) for s in rows), default=0)
    family_w = max((len(s["family"]) for s in rows), default=0)
    return [
        f"{s['name']:<{name_w}}  {s['family']:<{family_w}}  {s['description']}  [{s['source']}]"
        for s in rows
    ]


def main() -> None:
    """Entry point of the ``lossylink`` console script and of ``python -m lossylink``."""
    args = sys.argv[1:]
    if args in (["--version"], ["-V"]):
        from lossylink import __version__

        lines = [f"{PROG} {__version__}"]
    elif args == ["schemes"]:
        lines = scheme_lines()
    else:
        from lossylink.cli import main as cli_main

        cli_main()
        return
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    sys.stdout.flush()
