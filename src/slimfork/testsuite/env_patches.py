"""The environment variables a test sets or removes other than through ``monkeypatch.setenv/delenv``:
``mock.patch.dict(os.environ, {"X": v}, Y=w)`` (also ``"os.environ"`` as a string, as a decorator),
``monkeypatch.setitem(os.environ, "X", v)``/``delitem``, ``os.environ["X"] = v`` and ``del os.environ["X"]``.
A test that sets a variable a ``[facts.env]`` fact fixes to another value fakes the fact, as ``setenv`` does."""

from __future__ import annotations

import ast
from typing import Iterator

REMOVED = object()  # the variable is removed (its value: unset)


def env_patches(call: ast.Call) -> Iterator[tuple[str, ast.expr | object | None, int]]:
    """(variable, the value's node, REMOVED, or None when unknown; line) for a call that patches ``os.environ``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "in_dict"), None)
    if first is None or not _is_environ(first):
        return
    if name == "dict":  # mock.patch.dict(os.environ, {...}, **kw)
        values = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "values"),
                                                              None)
        if isinstance(values, ast.Dict):
            for key, value in zip(values.keys, values.values):
                if (text := _text(key)) is not None:
                    yield text, value, call.lineno
        for k in call.keywords:
            if k.arg not in (None, "in_dict", "values", "clear"):
                yield k.arg, k.value, call.lineno
    elif name in ("setitem", "delitem") and len(call.args) >= 2 and (text := _text(call.args[1])) is not None:
        yield text, (call.args[2] if len(call.args) > 2 else None) if name == "setitem" else REMOVED, call.lineno


def env_stores(node: ast.Assign | ast.Delete) -> Iterator[tuple[str, ast.expr | object | None, int]]:
    for target in node.targets:
        if isinstance(target, ast.Subscript) and _is_environ(target.value) and (text := _text(target.slice)):
            yield text, node.value if isinstance(node, ast.Assign) else REMOVED, node.lineno


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" or isinstance(node, ast.Name) \
        and node.id == "environ" or isinstance(node, ast.Constant) and node.value == "os.environ"


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
