"""The ``lossylink`` console script's entry point.

The two commands that only look something up, ``lossylink --version`` (or ``-V``) and
``lossylink schemes``, are answered here without importing click, which alone takes longer to
import than the rest of such a command (the budget: under 80 ms). Their output is byte for byte
what the click command prints (tests/python/test_cli.py compares them); every other command line,
including these two with anything added, goes to :func:`lossylink.cli.main`.

When a command has finished, the process leaves without tearing the interpreter down
(:func:`_leave`): the output is flushed and the exit handlers run, as at any exit, but the
modules are not freed one by one, which after a sweep (pyarrow, rich and their thread pools)
takes longer than writing its results.
"""

from __future__ import annotations

import sys

from lossylink.listing import PROG, scheme_lines

TYPE_CHECKING = False  # typing's, without importing typing (see lossylink/__init__.py)
if TYPE_CHECKING:
    from typing import NoReturn


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

        try:
            cli_main()
        except SystemExit as done:
            if done.code is None or isinstance(done.code, int):
                _leave(done.code or 0)
            raise
        return
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    sys.stdout.flush()


def _leave(status: int) -> NoReturn:
    """Exit with ``status`` once the output is flushed and the exit handlers have run, without
    the interpreter's teardown (freeing every module and object, and the extension modules'
    own clean-up), which a finished command does not need: every file the commands write is
    closed when they return. Leaves the usual way when a thread is still running (Python then
    waits for it) or the output cannot be flushed (a closed pipe: Python reports it)."""
    import threading

    if threading.active_count() > 1:
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        sys.exit(status)
    import atexit
    import os

    # What Python runs at exit after waiting for threads; then the output once more, in case
    # a handler wrote to it.
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)
