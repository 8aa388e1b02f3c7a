"""No module circle inside a Rust crate (DESIGN.md: one home per concern; docs/architecture.md).

A module is a source file (``foo.rs`` or ``foo/mod.rs``); it uses another when its code names a
path into it (``crate::a::b``, ``super::x``, ``self::y``, in a ``use`` or inline), resolved to
the longest module prefix that exists. Inline ``#[cfg(test)]`` modules at the end of a file are
left out (a test may reach anywhere), as are comments and doc comments. Cargo already forbids a
circle between crates; this keeps each crate's own modules layered too.
"""

from __future__ import annotations

import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from support import ROOT

CRATES = ("engine", "tcp", "net", "lossylink", "emu", "py")
PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+)")
COMMENT = re.compile(r"//[^\n]*")
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+\w+\s*\{")


def modules(src: Path) -> dict[tuple[str, ...], Path]:
    """Every module file of a crate's ``src``, by its path of names (the root is ``()``)."""
    found = {}
    for path in sorted(src.rglob("*.rs")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        found[tuple(parts)] = path
    return found


def is_dir_module(path: Path) -> bool:
    return path.name in ("mod.rs", "lib.rs", "main.rs")


def uses(mods: dict[tuple[str, ...], Path], module: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The modules `module`'s code names, itself and the crate root left out."""
    text = COMMENT.sub("", mods[module].read_text())
    cut = TEST_MODULE.search(text)
    if cut:
        text = text[: cut.start()]
    out = set()
    for m in PATH.finditer(text):
        head, parts = m.group(1), m.group(2).strip(":").split("::")
        if head == "crate":
            base: list[str] = []
        elif head == "self":
            base = list(module)
        else:
            # `super` of foo.rs (module a::foo) and of foo/mod.rs (module a::foo) is a.
            base = list(module[:-1])
            while parts and parts[0] == "super":
                base, parts = base[:-1], parts[1:]
        target = tuple(base + parts)
        while target and target not in mods:
            target = target[:-1]
        if target and target != module:
            out.add(target)
    return out


def graph(crate: str) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    mods = modules(ROOT / "crates" / crate / "src")
    return {m: uses(mods, m) for m in mods}


def circle(g: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[str] | None:
    try:
        TopologicalSorter(g).prepare()
    except CycleError as e:
        return ["::".join(m) for m in e.args[1]]
    return None


def test_no_module_circle_in_any_crate():
    found = {crate: circle(graph(crate)) for crate in CRATES}
    assert {c: m for c, m in found.items() if m} == {}


def test_the_graph_sees_a_circle_and_every_kind_of_path(tmp_path):
    """Negative control: a crate whose modules name each other through `crate::`, `super::`
    and `self::` is a circle; the same names in comments or a test module are not."""
    src = tmp_path / "src"
    (src / "medium").mkdir(parents=True)
    (src / "lib.rs").write_text("pub mod config;\npub mod medium;\n")
    (src / "config.rs").write_text("pub use crate::medium::Contention;\n")
    (src / "medium" / "mod.rs").write_text("mod build;\npub struct Contention;\n")
    (src / "medium" / "build.rs").write_text("fn f(_: &super::super::config::Link) {}\n")
    mods = modules(src)
    g = {m: uses(mods, m) for m in mods}
    assert g[("medium", "build")] == {("config",)}
    assert circle(g) is None  # config -> medium, medium::build -> config: layered
    (src / "medium" / "mod.rs").write_text("mod build;\npub use self::build::make;\n")
    g = {m: uses(mods, m) for m in mods}
    assert set(circle(g) or []) == {"config", "medium", "medium::build"}
    (src / "medium" / "mod.rs").write_text(
        "mod build;\n// self::build::make\n"
        "#[cfg(test)]\nmod tests {\n    use self::build::make;\n}\n"
    )
    g = {m: uses(mods, m) for m in mods}
    assert circle(g) is None


ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)


def test_no_issue_numbers_in_the_code():
    """Names and comments say what a thing is and cite its source; which issue asked for it is
    git's to keep (DESIGN.md: names by concept). Docs may tell the project's history."""
    roots = [ROOT / "crates", ROOT / "python" / "lossylink", ROOT / "tests"]
    found = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".rs", ".py", ".toml") or "target" in path.parts:
                continue
            if path == Path(__file__).resolve():
                continue
            for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if ISSUE_NUMBER.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []
    # The pattern sees what it is for, and not its look-alikes.
    assert ISSUE_NUMBER.search("(callgrind, issue 38)")
    assert ISSUE_NUMBER.search("Issue #4")
    assert not ISSUE_NUMBER.search("issued 3 ACKs")
    assert not ISSUE_NUMBER.search("an issue")
