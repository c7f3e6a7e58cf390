"""``[facts] constant_arguments``: a parameter that every call passes the same constant.

Folding leaves calls like ``self._build_pool(sizes=sizes, is_v4=False)`` (the caller's local flag was decided by a
fact), while the callee still tests ``if is_v4:``. When a private function or method (one leading underscore) is
defined once in the kept code, every reference to its name is a call, and every call passes one value for a
parameter (``True``, ``False`` or ``None``, by keyword, by position, or by leaving its default), the parameter has
that value in the body, and the body folds like any fact. Anything else keeps the parameter unknown: a second
definition of the name, a reference that is not a call (``getattr(self, "_build_pool")``, a callback, an import),
``*args``/``**kwargs`` at a call, a decorator other than ``staticmethod``/``classmethod``, a parameter the body
assigns, or a method of a class deriving from something the tree does not define (a library may call it).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from slimfork.index.purity import dotted_name


class _Unknown:
    """Not a constant; one object across processes (the scan runs in workers)."""

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
KEY = "facts.constant_arguments"
_PLAIN_BASES = {"object", "ABC", "Generic", "Protocol"}
_BINDERS = {"staticmethod", "classmethod"}


@dataclass(frozen=True, slots=True)
class Definition:
    path: str
    module: str
    name: str
    cls: str | None  # the class it is a method of (None: a module-level function)
    bases: tuple[str, ...]  # the class's bases, last segment of each
    kind: str  # "function", "method", "static", "class", or "other" (another decorator: never folded)
    line: int  # of the def (decorators not included)
    end: int
    params: tuple[tuple[str, int | None, object], ...]  # (name, position or None if keyword-only, default)
    assigned: frozenset[str]  # parameters the body binds again


@dataclass(frozen=True, slots=True)
class Call:
    receiver: str | None  # the dotted receiver of ``x._m(...)``, None for a bare ``_m(...)``
    positional: tuple[object, ...]  # literal values or UNKNOWN
    keywords: tuple[tuple[str, object], ...]
    star: bool  # *args or **kwargs: nothing is known


@dataclass
class Uses:
    """One file's private definitions and the references to private names in it."""

    definitions: list[Definition] = field(default_factory=list)
    calls: dict[str, list[Call]] = field(default_factory=dict)
    other: set[str] = field(default_factory=set)  # names referenced otherwise than by a call
    bases: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)  # class name -> its bases' last segments


@dataclass(frozen=True, slots=True)
class ConstantParameter:
    path: str
    module: str
    function: str  # Class.name or name
    line: int
    end: int
    parameter: str
    value: object
    calls: int


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def file_uses(tree: ast.Module, path: str, module: str) -> Uses:
    out = Uses()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            out.bases.setdefault(node.name, set()).add(_bases(node))
    _definitions(tree.body, path, module, None, (), out.definitions)
    callee = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _callee_name(node.func)
            if name is not None and private(name):
                callee.add(id(node.func))
                out.calls.setdefault(name, []).append(_call(node))
    for node in ast.walk(tree):
        if id(node) in callee:
            continue
        if isinstance(node, ast.Attribute) and private(node.attr):
            out.other.add(node.attr)
        elif isinstance(node, ast.Name) and private(node.id) and not isinstance(node.ctx, ast.Store):
            out.other.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and private(node.value) \
                and node.value.isidentifier():
            out.other.add(node.value)
        elif isinstance(node, ast.alias) and private((node.asname or node.name).rpartition(".")[2]):
            out.other.update({node.name.rpartition(".")[2], node.asname or node.name})
    return out


def constant_parameters(uses: list[Uses]) -> list[ConstantParameter]:
    """The parameters every call of their (once-defined, private) function passes the same constant."""
    definitions: dict[str, list[Definition]] = {}
    calls: dict[str, list[Call]] = {}
    other: set[str] = set()
    bases: dict[str, set[tuple[str, ...]]] = {}
    for u in uses:
        for d in u.definitions:
            definitions.setdefault(d.name, []).append(d)
        for cls, named in u.bases.items():
            bases.setdefault(cls, set()).update(named)
        for name, made in u.calls.items():
            calls.setdefault(name, []).extend(made)
        other |= u.other
    out = []
    for name, defs in sorted(definitions.items()):
        if len(defs) != 1 or name in other or not calls.get(name):
            continue
        d = defs[0]
        if d.kind == "other" or (d.cls is not None and not _closed(d.cls, bases, set())):
            continue
        found = calls[name]
        if any(c.star or (d.kind in ("method", "class") and c.receiver == d.cls) for c in found):
            continue  # unpacked arguments, or Class._m(self, ...) with the instance passed by position
        function = f"{d.cls}.{name}" if d.cls else name
        for param, position, default in d.params:
            if param in d.assigned:
                continue
            values = {_passed(c, param, position, default) for c in found}
            if len(values) == 1 and (value := values.pop()) is not UNKNOWN:
                out.append(ConstantParameter(d.path, d.module, function, d.line, d.end, param, value, len(found)))
    return out


def _closed(cls: str, bases: dict[str, set[tuple[str, ...]]], seen: set[str]) -> bool:
    """Every class ``cls`` derives from is defined in the tree (or is ``object``, ``ABC``, ...): no library
    code calls its methods."""
    if cls in _PLAIN_BASES:
        return True
    if cls in seen:
        return True
    seen.add(cls)
    return cls in bases and all(_closed(b, bases, seen) for found in bases[cls] for b in found)


def _bases(node: ast.ClassDef) -> tuple[str, ...]:
    out = [_last(b.value if isinstance(b, ast.Subscript) else b) or "?" for b in node.bases]
    return tuple(out) + (("?",) if any(k.arg == "metaclass" for k in node.keywords) else ())


def _definitions(body, path, module, cls, bases, out) -> None:
    for node in body:
        if isinstance(node, ast.ClassDef):
            _definitions(node.body, path, module, node.name, _bases(node), out)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(node.name):
            out.append(_definition(node, path, module, cls, bases))


def _definition(node, path, module, cls, bases) -> Definition:
    decorators = [_last(d) for d in node.decorator_list]
    if not decorators:
        kind = "method" if cls else "function"
    elif len(decorators) == 1 and decorators[0] in _BINDERS and cls:
        kind = "static" if decorators[0] == "staticmethod" else "class"
    else:
        kind = "other"
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    if kind in ("method", "class") and positional:
        positional = positional[1:]  # self / cls: bound at the call
    defaults = [UNKNOWN] * (len(positional) - len(args.defaults)) + [_literal(d) for d in args.defaults]
    params: list[tuple[str, int | None, object]] = [(a.arg, i, defaults[i] if i < len(defaults) else UNKNOWN)
                                                    for i, a in enumerate(positional)]
    params += [(a.arg, None, UNKNOWN if d is None else _literal(d)) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.vararg is not None or args.kwarg is not None:
        kind = "other" if args.vararg is not None else kind  # *args shifts what a position means
    return Definition(path, module, node.name, cls, bases, kind, node.lineno, node.end_lineno or node.lineno,
                      tuple(params), body_bindings(node))


def body_bindings(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """Names the body of a function binds (assignments, loops, ``with``, ``del``, ``global``/``nonlocal``...)."""
    return frozenset(n.id for stmt in node.body for n in ast.walk(stmt)
                     if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))) | \
        frozenset(name for stmt in node.body for n in ast.walk(stmt) if isinstance(n, (ast.Global, ast.Nonlocal))
                  for name in n.names)


def _passed(call: Call, param: str, position: int | None, default: object) -> object:
    for name, value in call.keywords:
        if name == param:
            return value
    if position is not None and position < len(call.positional):
        return call.positional[position]
    return default


def _call(node: ast.Call) -> Call:
    star = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
    receiver = dotted_name(node.func.value) if isinstance(node.func, ast.Attribute) else None
    return Call(receiver, tuple(_literal(a) for a in node.args),
                tuple((k.arg, _literal(k.value)) for k in node.keywords if k.arg is not None), star)


def _literal(node: ast.AST) -> object:
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, bool)):
        return node.value
    return UNKNOWN


def _callee_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _last(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        return None
    name = dotted_name(node)
    return name.rpartition(".")[2] if name else None
