"""The ``lossylink`` console script's entry point.

The two commands that only look something up, ``lossylink --version`` (or ``-V``) and
``lossylink schemes``, are answered here without importing click, which alone takes longer to
import than the rest of such a command (issue 21: under 80 ms). Their output is byte for byte
what the click command prints (tests/python/test_cli.py compares them); every other command line,
including these two with anything added, goes to :func:`lossylink.cli.main`.
"""

from __future__ import annotations

import sys

from lossylink.listing import PROG, scheme_lines


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
