"""Kept code that sets or removes an environment variable a ``[facts.env]`` fact fixes: ``os.environ["X"] = v``,
``del os.environ["X"]``, ``os.environ.setdefault/pop("X", ...)``, ``os.environ.update({"X": v})`` or
``update(X=v)``, ``os.putenv/unsetenv("X")``, ``monkeypatch.setenv/delenv("X")``, and the environment of a child
process (``dict(os.environ, X=v)``, ``env = os.environ.copy(); env["X"] = v``, ``env={"X": v}``). The fold took every read of X
for the fact's value; once that code has run, the original reads another: the fact may be false at run time."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator

from slimfork.facts.model import ENV, NAME
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


def name_write_warnings(facts, files: Iterable[tuple[str, bytes]]) -> list[str]:
    """Kept code outside the tests that assigns a name a ``[facts.names]`` fact fixes (``config.LEGACY = True``
    where the fact is ``"pkg.config.LEGACY" = false``, ``setattr(config, "LEGACY", v)``, ``global LEGACY`` in
    the module itself): the fold read the name as the fact's value everywhere, which that code makes false. The
    receiver is matched by its last name (``config``, ``pkg.config``, ``cfg`` bound by ``import pkg.config as
    cfg``): a warning may name a write to another module's name of that name, never miss one so spelled."""
    fixed = [f for f in (facts.by_kind(NAME) if facts else []) if f.target.count(".") >= 1]
    if not fixed:
        return []
    out = []
    for rel, data in files:
        wanted = [f for f in fixed if f.target.rsplit(".", 1)[1].encode() in data]
        if not wanted:
            continue
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        own = rel[:-3].replace("/", ".").removesuffix(".__init__")
        aliases = _module_aliases(tree)
        for fact in wanted:
            owner, attr = fact.target.rsplit(".", 1)
            receivers = {owner.rsplit(".", 1)[-1], owner} | {a for a, m in aliases.items() if m == owner
                                                             or m.rsplit(".", 1)[-1] == owner.rsplit(".", 1)[-1]}
            in_owner = own == owner or own.endswith("." + owner) or owner.endswith("." + own)
            for line in _name_writes(tree, attr, receivers, in_owner):
                out.append(f"{fact.key}: {rel}:{line} sets {attr}, a name the fact fixes ({fact.describe()}): the "
                           "fold read it as that value everywhere, which may be false once that code has run")
    return out


def _module_aliases(tree: ast.Module) -> dict[str, str]:
    """Names bound to modules: ``import a.b as c`` -> c: a.b; ``from a import b as c`` -> c: a.b (relative: .b)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                out[alias.asname or alias.name] = f"{node.module or ''}.{alias.name}".lstrip(".")
    return out


def _name_writes(tree: ast.Module, attr: str, receivers: set[str], in_owner: bool) -> Iterator[int]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == attr and _dotted(target.value) in receivers:
                    yield node.lineno
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) >= 2 and _dotted(node.args[0]) in receivers and _text(node.args[1]) == attr:
            yield node.lineno
        elif in_owner and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and any(isinstance(n, ast.Global) and attr in n.names for n in ast.walk(node)):
            for n in ast.walk(node):
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and any(
                        isinstance(t, ast.Name) and t.id == attr
                        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
                    yield n.lineno


def _writes(tree: ast.Module) -> Iterator[tuple[str, int, str]]:
    """(variable, line, what the code does) for each write of a literal variable name, to ``os.environ`` or to an
    environment made for a child process (a copy of it, ``dict(os.environ, X=v)``, ``{**os.environ, "X": v}``,
    ``env={"X": v}``): the child reads the value the code gives it."""
    copies = _environ_copies(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            verb = "removes" if isinstance(node, ast.Delete) else "sets"
            for target in targets:
                if isinstance(target, ast.Subscript) and _is_environ(target.value, copies) \
                        and (name := _text(target.slice)) is not None:
                    yield name, node.lineno, f"{verb} {name} (os.environ[...]{' = ...' if verb == 'sets' else ''})"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if func.attr in _ENVIRON_METHODS and _is_environ(func.value, copies):
                for name in _call_names(node):
                    yield name, node.lineno, f"{_ENVIRON_METHODS[func.attr]} {name} (environ.{func.attr})"
            elif func.attr in _OS_CALLS and node.args and (name := _text(node.args[0])) is not None:
                yield name, node.lineno, f"{_OS_CALLS[func.attr]} {name} ({func.attr})"
        if isinstance(node, ast.Call):
            yield from _child_env(node, copies)


def _child_env(call: ast.Call, copies: set[str]) -> Iterator[tuple[str, int, str]]:
    """``dict(os.environ, X=v)``, ``{**os.environ, "X": v}`` and ``subprocess.run(..., env={"X": v})``."""
    made = [k.value for k in call.keywords if k.arg == "env"]
    if isinstance(call.func, ast.Name) and call.func.id == "dict" and any(_is_environ(a, copies) for a in call.args):
        made.append(call)
    for node in made:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            names = [k.arg for k in node.keywords if k.arg]
            names += [n for a in node.args if isinstance(a, ast.Dict) for n in _keys(a)]
        elif isinstance(node, ast.Dict):
            names = _keys(node)
        else:
            continue
        for name in names:
            yield name, call.lineno, f"gives {name} to a child process's environment"
    for node in call.args + [k.value for k in call.keywords]:
        if isinstance(node, ast.Dict) and not made and any(k is None and _is_environ(v, copies)
                                                           for k, v in zip(node.keys, node.values)):
            for name in _keys(node):
                yield name, call.lineno, f"gives {name} to a child process's environment ({{**os.environ, ...}})"


def _keys(node: ast.Dict) -> list[str]:
    return [t for k in node.keys if k is not None and (t := _text(k)) is not None]


def _environ_copies(tree: ast.Module) -> set[str]:
    """Names bound to a copy of the environment: ``env = os.environ.copy()``, ``dict(os.environ)``,
    ``{**os.environ}``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Call) and (isinstance(v.func, ast.Attribute) and v.func.attr == "copy"
                                            and _is_environ(v.func.value) or isinstance(v.func, ast.Name)
                                            and v.func.id == "dict" and any(_is_environ(a) for a in v.args)) \
                    or isinstance(v, ast.Dict) and any(k is None and _is_environ(x) for k, x in zip(v.keys, v.values)):
                out.add(node.targets[0].id)
    return out


def _call_names(call: ast.Call) -> list[str]:
    """The variables ``environ.update({"X": v}, Y=w)`` or ``environ.setdefault("X", v)`` names."""
    names = [k.arg for k in call.keywords if k.arg]
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Dict):
        names += [t for k in first.keys if k is not None and (t := _text(k)) is not None]
    elif first is not None and (t := _text(first)) is not None:
        names.append(t)
    return names


def _is_environ(node: ast.AST, copies: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """``os.environ``, ``environ`` (``from os import environ``), a name bound to a copy of it."""
    return isinstance(node, ast.Attribute) and node.attr == "environ" or isinstance(node, ast.Name) \
        and (node.id == "environ" or node.id in copies)


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None
