"""Kept code that sets or removes an environment variable a ``[facts.env]`` fact fixes: ``os.environ["X"] = v``,
``del os.environ["X"]``, ``os.environ.setdefault/pop("X", ...)``, ``os.environ.update({"X": v})`` or
``update(X=v)``, ``os.putenv/unsetenv("X")``, ``monkeypatch.setenv/delenv("X")``. The fold took every read of X
for the fact's value; once that code has run, the original reads another: the fact may be false at run time."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator

from slimfork.facts.model import ENV
from slimfork.index.parse import parse_python

_ENVIRON_METHODS = {"setdefault": "sets", "pop": "removes", "update": "sets", "__setitem__": "sets",
                    "__delitem__": "removes"}
_OS_CALLS = {"putenv": "sets", "unsetenv": "removes", "setenv": "sets", "delenv": "removes"}  # os.*, monkeypatch.*


def env_write_warnings(facts, files: Iterable[tuple[str, bytes]]) -> list[str]:
    """``files``: (path, content) of the kept Python files of the fork, outside the tests."""
    fixed = {f.target: f for f in (facts.by_kind(ENV) if facts else [])}
    if not fixed:
        return []
    out = []
    for rel, data in files:
        if not any(name.encode() in data for name in fixed):
            continue
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        for name, line, how in _writes(tree):
            fact = fixed.get(name)
            if fact is not None:
                out.append(f"{fact.key}: {rel}:{line} {how}, an environment variable the fact fixes "
                           f"({fact.describe()}): the fold read it as that value everywhere, which may be false once "
                           "that code has run")
    return out


def _writes(tree: ast.Module) -> Iterator[tuple[str, int, str]]:
    """(variable, line, what the code does) for each write of a literal variable name."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            verb = "removes" if isinstance(node, ast.Delete) else "sets"
            for target in targets:
                if isinstance(target, ast.Subscript) and _is_environ(target.value) \
                        and (name := _text(target.slice)) is not None:
                    yield name, node.lineno, f"{verb} {name} (os.environ[...]{' = ...' if verb == 'sets' else ''})"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if func.attr in _ENVIRON_METHODS and _is_environ(func.value):
                for name in _call_names(node):
                    yield name, node.lineno, f"{_ENVIRON_METHODS[func.attr]} {name} (environ.{func.attr})"
            elif func.attr in _OS_CALLS and node.args and (name := _text(node.args[0])) is not None:
                yield name, node.lineno, f"{_OS_CALLS[func.attr]} {name} ({func.attr})"


def _call_names(call: ast.Call) -> list[str]:
    """The variables ``environ.update({"X": v}, Y=w)`` or ``environ.setdefault("X", v)`` names."""
    names = [k.arg for k in call.keywords if k.arg]
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Dict):
        names += [t for k in first.keys if k is not None and (t := _text(k)) is not None]
    elif first is not None and (t := _text(first)) is not None:
        names.append(t)
    return names


def _is_environ(node: ast.AST) -> bool:
    """``os.environ``, ``environ`` (``from os import environ``)."""
    return isinstance(node, ast.Attribute) and node.attr == "environ" or isinstance(node, ast.Name) \
        and node.id == "environ"


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
