"""The lossylink exception hierarchy.

Every error lossylink raises on bad input or a failed run is a :class:`LossylinkError`; the
classes are defined in the Rust extension (one per Rust ``ErrorKind``) and re-exported here::

    LossylinkError
    ├── ScenarioError
    │   ├── UnknownSchemeError     scheme name not in the registry
    │   ├── UnknownPresetError     preset name not shipped
    │   ├── UnknownFieldError      key or dotted path names no field
    │   ├── InvalidValueError      value out of range or of the wrong kind
    │   ├── UnitError              malformed or unknown unit ("64KiB", "2Mbps", "10ms")
    │   └── ScenarioSyntaxError    TOML / JSON document not well-formed
    ├── SimulationError            a valid scenario failed while running
    ├── LossylinkIOError           a file could not be read or written
    └── EmulationError             the emulator could not set up or run
        └── PrivilegeError         it lacks CAP_NET_ADMIN or CAP_SYS_ADMIN

and two warnings of sweeps: :class:`RunsFailedWarning` (some runs failed) and
:class:`MainGuardWarning` (started outside ``if __name__ == "__main__":``, runs on threads).
"""

from lossylink._core import (
    EmulationError,
    InvalidValueError,
    LossylinkError,
    LossylinkIOError,
    PrivilegeError,
    ScenarioError,
    ScenarioSyntaxError,
    SimulationError,
    UnitError,
    UnknownFieldError,
    UnknownPresetError,
    UnknownSchemeError,
)

__all__ = [
    "EmulationError",
    "InvalidValueError",
    "LossylinkError",
    "LossylinkIOError",
    "MainGuardWarning",
    "PrivilegeError",
    "RunsFailedWarning",
    "ScenarioError",
    "ScenarioSyntaxError",
    "SimulationError",
    "UnitError",
    "UnknownFieldError",
    "UnknownPresetError",
    "UnknownSchemeError",
]


class RunsFailedWarning(UserWarning):
    """A sweep returned with failed runs: :attr:`lossylink.SweepResult.failures` lists them
    (``warnings.simplefilter("error", RunsFailedWarning)`` makes it raise)."""


class MainGuardWarning(RuntimeWarning):
    """A sweep was started from a script's top level outside ``if __name__ == "__main__":``;
    worker processes would run the script again, so it runs on threads only."""
