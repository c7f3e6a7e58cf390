"""Submodule loads a removed file performed that kept tests still rely on. ``import click.testing`` (or
``from click.testing import CliRunner``) loads ``click.testing`` and sets it as an attribute of ``click``: any file
that did only ``import click`` can then read ``click.testing.CliRunner``. Session 39, cookiecutter 2.6.0: only
``tests/test_cli.py`` (removed with the CLI) imported ``click.testing``; ``tests/test_prompt.py`` and
``test_read_user_dict.py`` read ``click.testing.CliRunner()`` after ``import click`` and 6 of their tests failed in
the fork with ``AttributeError``. pytest imports every collected file before any test runs, so a load by any file
reached every test; the fork's own file list decides that now.

When the fork removes a file (a test file, a library module) or cuts a test file, the submodules its imports loaded
(certainly: ``import a.b``, ``from a.b import x``; maybe: ``from a import b`` where the file reads ``b.attr``) that no
kept file of the tests loads any more and that a kept test file reads as an attribute chain (``a.b...`` off
``import a``) without importing it itself are imported at the top of that file, guarded by ``except ImportError``:
where the original's load failed, its test file did not collect and the reader read nothing more than it does now.
A submodule inside the project counts only while the fork keeps it (a test reading a removed one goes anyway)."""

from __future__ import annotations

import ast

ALWAYS_LOADED = frozenset({"os.path", "collections.abc"})  # their package imports them itself


def _tree(source: bytes) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _parents(dotted: str) -> list[str]:
    """``a.b.c`` -> ``a.b``, ``a.b.c`` (the submodules an ``import a.b.c`` loads)."""
    parts = dotted.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts) + 1)]


def submodule_loads(source: bytes) -> tuple[set[str], set[str]] | None:
    """(certain, maybe): the submodules the file's absolute imports load, at any scope. ``maybe``: ``from a import
    b`` where the file reads ``b.attr`` (b may be the submodule ``a.b``). None when the file does not parse."""
    tree = _tree(source)
    if tree is None:
        return None
    certain: set[str] = set()
    named: dict[str, str] = {}  # local name -> "a.b" of a `from a import b`
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                certain.update(_parents(a.name))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            certain.update(_parents(node.module))
            for a in node.names:
                if a.name != "*":
                    named[a.asname or a.name] = f"{node.module}.{a.name}"
    read_off = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    return certain, {dotted for local, dotted in named.items() if local in read_off} - certain


def _module_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> the module (or maybe module) an import binds it to, at any scope."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                out[a.asname or top] = a.name if a.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if a.name != "*":
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def chain_reads(source: bytes) -> set[str]:
    """Every dotted prefix, past the module itself, of the attribute chains the file reads off a name an import
    bound (``import click`` then ``click.testing.CliRunner()``: ``click.testing``, ``click.testing.CliRunner``)."""
    tree = _tree(source)
    if tree is None:
        return set()
    names = _module_names(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        chain: list[str] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            chain.insert(0, cur.attr)
            cur = cur.value
        if isinstance(cur, ast.Name) and cur.id in names:
            base = names[cur.id]
            out.update(".".join([base, *chain[:i]]) for i in range(1, len(chain) + 1))
    return out


def lost_loads(gone: dict[str, bytes], cut: dict[str, tuple[bytes, bytes]],
               kept: dict[str, bytes]) -> dict[str, str]:
    """Submodule -> the removed or cut file that loaded it, for those no kept file (``kept``: path -> content in
    the fork) loads any more. ``gone``: removed files' contents; ``cut``: path -> (original, fork) of cut files."""
    out: dict[str, str] = {}
    for path, source in sorted(gone.items()):
        found = submodule_loads(source)
        if found is not None:
            for module in sorted(found[0] | found[1]):
                out.setdefault(module, path)
    for path, (before, after) in sorted(cut.items()):
        old, new = submodule_loads(before), submodule_loads(after)
        if old is not None and new is not None:
            for module in sorted((old[0] | old[1]) - new[0] - new[1]):
                out.setdefault(module, path)
    for source in kept.values():
        found = submodule_loads(source)
        if found is not None:
            for module in found[0]:
                out.pop(module, None)
    for module in ALWAYS_LOADED:
        out.pop(module, None)
    return out


def needed_loads(source: bytes, lost: dict[str, str]) -> dict[str, str]:
    """The lost submodules (-> the file that loaded them) this file reads as a chain without loading them itself;
    of a submodule and its parent only the deeper one (its import loads both)."""
    found = submodule_loads(source)
    own = found[0] | found[1] if found is not None else set()
    need = {m: lost[m] for m in chain_reads(source) if m in lost and m not in own}
    return {m: why for m, why in sorted(need.items()) if not any(o.startswith(m + ".") for o in need)}


def add_loads(source: bytes, needed: dict[str, str]) -> bytes:
    """``source`` with a guarded ``import`` of each needed submodule after its docstring and ``__future__``
    imports (before anything else runs)."""
    tree = _tree(source)
    assert tree is not None  # needed_loads found chains in it
    at = len(tree.body)
    for i, stmt in enumerate(tree.body):
        docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
            and isinstance(stmt.value.value, str)
        if not docstring and not (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
            at = i
            break
    lines = source.splitlines(keepends=True)
    if at < len(tree.body):
        stmt = tree.body[at]
        line = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))]) - 1
    else:
        line = len(lines)
    newline = b"\r\n" if b"\r\n" in source else b"\n"
    if lines and not lines[-1].endswith((b"\n", b"\r")) and line == len(lines):
        lines[-1] += newline
    block = []
    for module, why in sorted(needed.items()):
        block += [f"try:  # slimfork: {why}, which the fork removes or cuts, imported it; this file reads it",
                  f"    import {module}", "except ImportError:", "    pass"]
    text = newline.join(s.encode() for s in block) + newline
    out = b"".join(lines[:line]) + text + b"".join(lines[line:])
    compile(out, "<loads>", "exec")  # never hand back a file that does not parse
    return out
