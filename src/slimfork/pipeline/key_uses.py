"""Registry keys a cut removes that kept code still falls back on or looks up: ``def run(x, backend="safe")``,
``os.environ.get("FMT", "yaml")``, ``name or "yaml"``, and, for a registry whose variable is known,
``FORMATS["gzip"]`` or ``FORMATS.get("gzip")`` (a literal key in another dict is no use of the registry's). The fork then fails with KeyError
where the original worked, and the tests the spec keeps need not call that path: a warning names the key, the
place and the registry (the inverse of pipeline/stale.py's "key kept but only removed code names it")."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator

from slimfork.decisions import GONE_KINDS
from slimfork.globs import first_match
from slimfork.index.parse import parse_python
from slimfork.plan.stages import Stages
from slimfork.source.test_folders import tests_of

_DEFAULT_GETTERS = ("get", "getenv", "setdefault", "pop")


def removed_keys_in_use(analysis, stages: Stages, scratch: Path) -> list[str]:
    """One warning per removed key that a kept, non-test Python file of ``scratch`` uses as a fallback or a
    lookup (the first place)."""
    keys = {key: (where, variable) for key, where, variable in stages.cut_keys}
    for reg in stages.symbols.registries if stages.symbols is not None else ():
        kept = {str(k) for k in reg["kept"]}
        keys.update({str(k): (f"{reg['module']}.{reg['variable']}", reg["variable"]) for k in reg["removed"]
                     if str(k) not in kept})
    if not keys:
        return []
    gone = {r.path for r in stages.plan.removals if r.kind in GONE_KINDS}
    tests = tests_of(analysis)
    quoted = {key: (f'"{key}"'.encode(), f"'{key}'".encode()) for key in keys}
    out: dict[str, str] = {}
    for rel in sorted(analysis.index.files):
        if rel in gone or first_match(tests, rel) is not None or not (scratch / rel).is_file():
            continue
        data = (scratch / rel).read_bytes()
        if not any(q in data for key, pair in quoted.items() if key not in out for q in pair):
            continue
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        for key, line, shape, container in _fallbacks(tree):
            if key in keys and key not in out and container in ("", keys[key][1]):
                out[key] = (f"registries: the cut removes the key '{key}' of {keys[key][0]}, but kept code uses it "
                            f"({shape}, {rel}:{line}): that path fails with KeyError in the fork; hint: add "
                            f"'{key}' to the registry's keep if that code runs")
    return list(out.values())


def _fallbacks(tree: ast.Module) -> Iterator[tuple[str, int, str, str]]:
    """(string, line, what it is, the variable it is looked up in or "") for each string literal the code falls
    back on or looks up."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                if (text := _text(default)) is not None:
                    yield text, default.lineno, "a parameter's default", ""
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id
            if name in _DEFAULT_GETTERS and len(node.args) >= 2 and (text := _text(node.args[1])) is not None:
                yield text, node.lineno, f"the default of {name}()", ""
            if name == "get" and isinstance(func, ast.Attribute) and node.args \
                    and (text := _text(node.args[0])) is not None and (owner := _last_name(func.value)):
                yield text, node.lineno, f"a lookup in {owner}", owner
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and (text := _text(node.values[-1])):
            yield text, node.lineno, "the fallback of an `or`", ""
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                and (text := _text(node.slice)) is not None and (owner := _last_name(node.value)):
            yield text, node.lineno, f"a lookup in {owner}", owner


def _last_name(node: ast.AST) -> str:
    """``FORMATS`` of ``FORMATS`` or ``pkg.formats.FORMATS``; "" otherwise."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
