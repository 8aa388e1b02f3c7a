"""``python -m lossylink``: the command line (same as the ``lossylink`` script)."""

from lossylink.entry import main

if __name__ == "__main__":  # not when a worker process re-imports the main module
    main()
