"""The run cache: one small JSON file per finished run, named by the run's content hash.

The key of a run is the SHA-256 of its canonical scenario JSON, its seed and the lossylink
version (:func:`run_key`). Equal keys mean equal results (DESIGN.md, "Determinism"), so a
finished run never has to run again: an interrupted sweep resumes by skipping the keys already
present, and a repeated or overlapping sweep reuses them. Entries are written to a temporary
file in the same directory and renamed into place, so a kill leaves either a whole entry or
none. Only successful runs are cached; failures are cheap to repeat and may be fixed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from lossylink._types import MetricValue
from lossylink.errors import LossylinkIOError

FORMAT = 1
"""Version of the entry layout; entries of another format are ignored (treated as missing)."""


def canonical_json(scenario_json: str) -> str:
    """The scenario document with sorted keys and no insignificant whitespace."""
    return json.dumps(json.loads(scenario_json), sort_keys=True, separators=(",", ":"))


def run_key(canonical: str, seed: int, version: str) -> str:
    """The content hash of one run: ``sha256(canonical scenario JSON, seed, version)``."""
    h = hashlib.sha256()
    for part in (f"lossylink-run/{FORMAT}", version, str(seed), canonical):
        data = part.encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


class RunCache:
    """A directory of finished runs, ``DIR/ab/abcdef....json``."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        """Use (and create on first write) ``directory``."""
        self.directory = Path(directory)

    def path(self, key: str) -> Path:
        """Where the entry of ``key`` lives."""
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, MetricValue] | None:
        """The metrics of a finished run, or ``None`` (missing, unreadable or foreign entry)."""
        try:
            entry = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        metrics = entry.get("metrics")
        return metrics if isinstance(metrics, dict) else None

    def put(self, key: str, metrics: dict[str, MetricValue], **extra: Any) -> None:
        """Store a finished run atomically (temporary file, then rename)."""
        import tempfile  # here: with shutil, random and the compressors, 5 ms of start-up

        entry = {"format": FORMAT, "key": key, "metrics": metrics, **extra}
        target = self.path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=target.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(entry, fh, separators=(",", ":"))
                os.replace(tmp, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            where = exc.filename or target
            raise LossylinkIOError(f"cannot write {where}: {exc.strerror or exc}") from None

    def keys(self) -> set[str]:
        """The keys of every entry present (a cheap directory listing; entries not read)."""
        if not self.directory.is_dir():
            return set()
        return {p.stem for p in self.directory.glob("??/*.json")}

    def __len__(self) -> int:
        return len(self.keys())
