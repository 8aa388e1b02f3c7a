"""Packaging: pinned tool versions agree, the package is typed and versioned consistently."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest

import lossylink

ROOT = Path(__file__).resolve().parents[2]


def _makefile_pins() -> dict[str, str]:
    text = (ROOT / "Makefile").read_text()
    return dict(re.findall(r"^\s+([A-Za-z0-9_.-]+)==([^\s\\]+)", text, flags=re.MULTILINE))


def test_dev_extra_pins_match_the_makefile() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dev = dict(pin.split("==") for pin in project["optional-dependencies"]["dev"])
    make = _makefile_pins()
    assert dev, "the dev extra pins nothing"
    for name, version in dev.items():
        assert make.get(name) == version, name


def test_runtime_dependencies_are_pinned_in_the_makefile() -> None:
    tomllib = pytest.importorskip("tomllib")
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=!~ ]", d, maxsplit=1)[0] for d in deps}
    assert names <= set(_makefile_pins())


def test_package_is_typed() -> None:
    package = Path(lossylink.__file__).parent
    assert (package / "py.typed").exists()
    assert (package / "_core.pyi").exists()


def test_installed_version_is_the_crate_version() -> None:
    assert metadata.version("lossylink") == lossylink.__version__


def test_every_exact_pin_in_an_extra_matches_the_makefile() -> None:
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    make = _makefile_pins()
    for extra, pins in extras.items():
        for pin in pins:
            if "==" in pin:
                name, version = pin.split("==")
                assert make.get(name) == version, f"{extra}: {name}"


@pytest.mark.parametrize("name", ["pyarrow", "dask", "distributed"])
def test_packages_that_decide_sweep_bytes_are_pinned_exactly(name: str) -> None:
    # The Parquet writer records its version in every results file (docs/sweeps.md).
    tomllib = pytest.importorskip("tomllib")
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "dev"
    ]
    assert name in _makefile_pins()
    assert any(pin.startswith(f"{name}==") for pin in dev)


# DESIGN.md house rule 12: no module of the package patches the import system, builtins or
# another library's state to save start-up time (an earlier `sys.modules["numpy"] = None` made
# any later use of pyarrow with numpy in the same process crash the interpreter).
_PATCHES = re.compile(
    r"sys\.modules\s*\[[^\]]*\]\s*=|sys\.modules\.(?:update|pop|setdefault)\(|del\s+sys\.modules"
    r"|sys\.meta_path|sys\.path_hooks|builtins\.\w+\s*=|setattr\(\s*builtins"
    r"|importlib\.abc|__import__\s*="
)


def _patching_lines(root: Path) -> list[str]:
    hits = []
    for path in sorted(root.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if _PATCHES.search(line.split("#", 1)[0]):
                hits.append(f"{path}:{n}: {line.strip()}")
    return hits


def test_no_module_patches_the_import_system_or_builtins() -> None:
    assert _patching_lines(ROOT / "python" / "lossylink") == []


def test_the_patch_check_sees_a_patch(tmp_path: Path) -> None:
    """Negative control: the check finds each kind of patch it is meant to forbid."""
    for line in (
        'sys.modules["numpy"] = None',
        "del sys.modules['numpy']",
        "builtins.print = print",
        "sys.meta_path.insert(0, finder)",
    ):
        (tmp_path / "m.py").write_text(f"import sys, builtins\n{line}\n")
        assert _patching_lines(tmp_path), line
