"""``python -m lossylink``: the command line (same as the ``lossylink`` script)."""

from lossylink.cli import main

main()
