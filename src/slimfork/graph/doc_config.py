"""The project modules a Sphinx configuration loads: ``extensions = ["pkg._sphinxext"]`` in a ``conf.py`` (also
``extensions += [...]``, ``.append``/``.extend`` at module level). Sphinx imports each when it builds the docs, which
the fork keeps with their ``conf.py``: they are roots, as a pytest plugin its configuration names is test support."""

from __future__ import annotations

import ast
from pathlib import Path


def sphinx_extensions(root: Path, paths) -> list[tuple[str, str]]:
    """(module name, the conf.py naming it), for each ``conf.py`` among ``paths`` (relative to ``root``)."""
    out = []
    for path in paths:
        if path.rsplit("/", 1)[-1] != "conf.py":
            continue
        try:
            tree = ast.parse((root / path).read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        out += [(name, path) for name in _extensions(tree)]
    return out


def _extensions(tree: ast.Module) -> list[str]:
    found: list[str] = []
    for node in tree.body:
        value = None
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "extensions" for t in node.targets):
            value = node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) \
                and node.target.id == "extensions":
            value = node.value
        elif isinstance(node, ast.Expr) and isinstance(call := node.value, ast.Call) \
                and isinstance(call.func, ast.Attribute) and call.func.attr in ("append", "extend") \
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "extensions" and call.args:
            value = call.args[0] if call.func.attr == "extend" else ast.List([call.args[0]])
        if value is not None:  # every literal string of it: a list may mix in computed entries
            found += [c.value for c in ast.walk(value) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return found
