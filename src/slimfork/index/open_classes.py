"""Classes whose own methods reach their attributes by names no code spells: they enumerate the class's namespace
(``dir(self)``, ``dir(type(self))``, ``vars(cls)``, ``type(self).__dict__``, ``inspect.getmembers(self)``).
Any method of such a class, of the classes it derives from and of its subclasses may be called that way, so
method pruning keeps them (listed as uncertain). A ``startswith("_on_")`` (or ``endswith``) filter in the same
function, in a comprehension's ``if`` or an ``if`` test, narrows that to the names it lets through."""

from __future__ import annotations

import ast
from typing import NamedTuple


class OpenClass(NamedTuple):
    class_index: int  # the class statement's position in the module body
    prefixes: tuple[str, ...]  # a method whose name starts so may be reached (both empty: any method)
    suffixes: tuple[str, ...]
    why: str  # "_Widget.__init__ reads dir(self) (line 7)"


_ENUMERATE_CALLS = frozenset({"dir", "vars", "getmembers", "getmembers_static"})


def open_classes(tree: ast.Module) -> tuple[OpenClass, ...]:
    out = []
    for i, node in enumerate(tree.body):
        if not isinstance(node, ast.ClassDef):
            continue
        for fn in node.body:
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found = _method(i, node.name, fn)
                if found is not None:
                    out.append(found)
    return tuple(out)


def _method(index: int, class_name: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> OpenClass | None:
    first = {fn.args.args[0].arg} if fn.args.args else set()
    on_class = any(ast.unparse(d) == "classmethod" for d in fn.decorator_list) or fn.name == "__new__"
    selves = {class_name, "self", "cls"} | first
    classes = {class_name, "cls"} | (first if on_class else set())
    reads = [(text, getattr(node, "lineno", 0)) for node in ast.walk(fn)
             if (text := _enumeration(node, selves, classes))]
    if not reads:
        return None
    prefixes, suffixes = _filters(fn)
    why = f"{class_name}.{fn.name} reads {reads[0][0]} (line {reads[0][1]})"
    return OpenClass(index, prefixes, suffixes, why)


def _enumeration(node: ast.AST, selves: set[str], classes: set[str]) -> str | None:
    """``dir(self)``, ``inspect.getmembers(self)``, ``vars(type(self))``, ``cls.__dict__``: the text, else None
    (an instance's own ``__dict__`` or ``vars(self)`` holds no method)."""
    if isinstance(node, ast.Call) and len(node.args) >= 1 and (name := _call_name(node)) in _ENUMERATE_CALLS \
            and (is_self(node.args[0], selves) if name != "vars" else is_class(node.args[0], selves, classes)):
        return ast.unparse(node.func) + f"({ast.unparse(node.args[0])})"
    if isinstance(node, ast.Attribute) and node.attr == "__dict__" and is_class(node.value, selves, classes):
        return ast.unparse(node)
    return None


def is_self(node: ast.AST, selves: set[str]) -> bool:
    """``self``, ``cls``, the class by name, ``type(self)``, ``self.__class__``."""
    return isinstance(node, ast.Name) and node.id in selves or is_class(node, selves, set())


def is_class(node: ast.AST, selves: set[str], classes: set[str]) -> bool:
    """The class itself: ``cls`` (a classmethod's first parameter), the class by name, ``type(self)``,
    ``self.__class__``."""
    if isinstance(node, ast.Name):
        return node.id in classes
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" \
            and len(node.args) == 1:
        return is_self(node.args[0], selves)
    return isinstance(node, ast.Attribute) and node.attr == "__class__" and is_self(node.value, selves)


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _filters(fn: ast.AST) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The literal prefixes and suffixes the function's ``startswith``/``endswith`` filters let through; none when
    one of them is not a plain positive filter (``if n.startswith("__"): continue``, ``not``) or names too little
    (``"_"``): then every name may pass."""
    positive: set[int] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.comprehension):
            positive.update(id(t) for test in node.ifs for t in _conjuncts(test))
        elif isinstance(node, ast.If) and not _skips(node.body):
            positive.update(id(t) for t in _conjuncts(node.test))
    prefixes: list[str] = []
    suffixes: list[str] = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and _call_name(node) in ("startswith", "endswith")
                and isinstance(node.func, ast.Attribute)):
            continue
        texts = _literals(node.args[0]) if len(node.args) == 1 else None
        if id(node) not in positive or not texts or not all(any(c.isalnum() for c in t) for t in texts):
            return (), ()
        (prefixes if node.func.attr == "startswith" else suffixes).extend(texts)
    return tuple(dict.fromkeys(prefixes)), tuple(dict.fromkeys(suffixes))


def _conjuncts(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [t for value in test.values for t in _conjuncts(value)]
    return [test]


def _skips(body: list[ast.stmt]) -> bool:
    """``if n.startswith("__"): continue`` filters names out, not in."""
    return len(body) == 1 and isinstance(body[0], (ast.Continue, ast.Return, ast.Break, ast.Pass))


def _literals(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                           for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None
