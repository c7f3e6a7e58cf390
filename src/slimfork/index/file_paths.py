"""Paths computed from ``__file__`` (``Path(__file__).parent / "ops"``, ``os.path.join(os.path.dirname(__file__),
"csrc")``): how many folders up from the file and the sub-path below, for the kernel scan's folder listings."""

from __future__ import annotations

import ast

_FILE_PASS = {"Path", "PurePath", "PosixPath", "abspath", "realpath", "normpath", "fspath", "str"}


def file_level(file_vars: list[dict[str, tuple[int, str]]], e) -> tuple[int, str] | None:
    """Where an expression points from ``__file__``: (folders up, sub-path below): (0, "") the file,
    (1, "") its folder (``Path(__file__).parent``, ``os.path.dirname(__file__)``, ``__path__[0]``),
    (1, "old") ``os.path.join(here, "old")``, (2, "") the folder above ..."""
    if isinstance(e, ast.Name):
        if e.id == "__file__":
            return 0, ""
        if e.id == "__path__":
            return 1, ""
        for scope in reversed(file_vars):
            if e.id in scope:
                return scope[e.id]
        return None
    if isinstance(e, ast.Subscript):
        v = e.value
        if isinstance(v, ast.Attribute) and v.attr == "parents":
            base, n = file_level(file_vars, v.value), getattr(e.slice, "value", None)
            return (base[0] + n + 1, "") if base is not None and not base[1] and isinstance(n, int) else None
        return (1, "") if isinstance(v, ast.Name) and v.id == "__path__" else None
    if isinstance(e, ast.Attribute):
        base = file_level(file_vars, e.value) if e.attr == "parent" else None
        return None if base is None or base[1] else (base[0] + 1, "")
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Div, ast.Add)):  # folder / "sub", dirname(f) + "/sub"
        return below(file_level(file_vars, e.left), [e.right])
    if not isinstance(e, ast.Call):
        return None
    f = e.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if isinstance(f, ast.Attribute) and name in ("resolve", "absolute", "expanduser"):
        return file_level(file_vars, f.value)
    if isinstance(f, ast.Attribute) and name == "with_name":
        return (1, "") if file_level(file_vars, f.value) == (0, "") else None
    if not e.args:
        return None
    base = file_level(file_vars, e.args[0])
    if base is None:
        return None
    if name == "dirname":
        return None if base[1] else (base[0] + 1, "")
    if name == "join":
        return below(base, e.args[1:])
    return base if name in _FILE_PASS else None

def below(base: tuple[int, str] | None, parts) -> tuple[int, str] | None:
    """A folder joined with literal parts; a computed part leaves the folder known, the rest not."""
    if not base or not base[0]:
        return None
    sub = base[1]
    for part in parts:
        text = getattr(part, "value", None)
        if not isinstance(text, str):
            break
        text = text.strip("/")
        if ".." in text.split("/"):
            return None
        sub = "/".join(x for x in (sub, text) if x)
    return base[0], sub
