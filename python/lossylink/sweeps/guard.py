"""Whether a sweep was started by a script's top-level code outside ``if __name__ ==
"__main__":``.

Worker processes (the pool's ``forkserver`` or ``spawn`` workers, a Dask ``LocalCluster``) start
by importing the main script again so that they can find what it defines; a sweep at the top of
the script then starts again inside every worker, which fails in multiprocessing's bootstrapping
and, after the retries, loses the runs. :func:`unguarded_call_site` finds that case before any
worker starts: it walks the stack to the main script's module-level frame and reads, with
:mod:`ast`, whether the statement running there is that guard. Nothing is patched or imported.
"""

from __future__ import annotations

import ast
import sys

GUARD = 'if __name__ == "__main__":'


def unguarded_call_site() -> str | None:
    """``"path, line N"`` when the calling code runs from the main script's top level outside
    the ``__main__`` guard; ``None`` when it runs under the guard, in a notebook or REPL (no
    script to import again), or the script's source cannot be read."""
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__file__", None) is None:
        return None
    main_globals = vars(main)
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is main_globals and frame.f_code.co_name == "<module>":
            break
        frame = frame.f_back
    if frame is None:
        return None
    path, line = frame.f_code.co_filename, frame.f_lineno
    try:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return None
    for stmt in tree.body:
        if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
            return None if _is_main_guard(stmt) else f"{path}, line {line}"
    return None


def _is_main_guard(stmt: ast.stmt) -> bool:
    """Whether ``stmt`` is ``if __name__ == "__main__":`` (either operand order)."""
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare):
        return False
    test = stmt.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]
