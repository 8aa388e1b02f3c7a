"""The one check that an output directory can be written, made before any run so that a
directory we cannot write is an error at once, not after the work (sweeps, `validate linux`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from lossylink.errors import LossylinkIOError


def ensure_writable_dir(directory: Path) -> None:
    """Make ``directory`` (with its parents) and create and remove a probe file in it; a
    :class:`LossylinkIOError` naming the place otherwise."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".lossylink-probe.", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        where = exc.filename or directory
        raise LossylinkIOError(f"cannot write {where}: {exc.strerror or exc}") from None
