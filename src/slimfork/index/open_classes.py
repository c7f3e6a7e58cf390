"""Classes whose own methods reach their attributes by names no code spells: they enumerate the class's namespace
(``dir(self)``, ``dir(type(self))``, ``vars(cls)``, ``type(self).__dict__``, ``inspect.getmembers(self)``), or
look themselves up by a name computed entirely at run time (``getattr(self, self.actions[a])``; a name with a
literal piece, ``f"_on_{event}"``, is the prefix rule's, ``index.methods``). Any method of such a class, of the classes it derives from and of its subclasses may be called that way, so
method pruning keeps them (listed as uncertain). A ``startswith("_on_")`` (or ``endswith``) filter in the same
function, in a comprehension's ``if`` or an ``if`` test, narrows that to the names it lets through."""

from __future__ import annotations

import ast
from typing import NamedTuple

from slimfork.index.name_pieces import edges


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
                out += _method(i, node.name, fn)
    return tuple(out)


def _method(index: int, class_name: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[OpenClass]:
    first = {fn.args.args[0].arg} if fn.args.args else set()
    on_class = any(ast.unparse(d) == "classmethod" for d in fn.decorator_list) or fn.name == "__new__"
    selves = {class_name, "self", "cls"} | first
    classes = {class_name, "cls"} | (first if on_class else set())
    reads = [(text, getattr(node, "lineno", 0)) for node in ast.walk(fn)
             if (text := _enumeration(node, selves, classes))]
    out = []
    if reads:
        prefixes, suffixes = _filters(fn)
        out.append(OpenClass(index, prefixes, suffixes, f"{class_name}.{fn.name} reads {reads[0][0]} "
                                                        f"(line {reads[0][1]})"))
    lookup = next(_computed_lookups(fn, selves, bool(reads)), None)
    if lookup is not None:
        out.append(OpenClass(index, (), (), f"{class_name}.{fn.name} looks itself up by a computed name, "
                                            f"{ast.unparse(lookup)} (line {lookup.lineno})"))
    return out


def _computed_lookups(fn: ast.AST, selves: set[str], enumerates: bool):
    """``getattr(self, name)`` calls whose name has no literal piece that narrows it: a parameter, an item of a
    table (``self.actions[a]``), ``"_" + x``; not a loop variable over the namespace this function enumerates
    (``for n in dir(self)``: the enumeration's rule) nor a local bound only to ``f"_on_{x}"``-like values."""
    loops = {t.id for node in ast.walk(fn) if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension))
             for t in ast.walk(node.target) if isinstance(t, ast.Name)}
    values: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Name):
                        values.setdefault(t.id, []).append(node.value if target is t else ast.Constant(None))
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _LOOKUPS
                and len(node.args) >= 2 and is_self(node.args[0], selves)):
            continue
        arg = node.args[1]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) or _narrowed(arg):
            continue
        if isinstance(arg, ast.Name) and (enumerates and arg.id in loops or arg.id not in loops
                                          and values.get(arg.id) and all(map(_narrowed, values[arg.id]))):
            continue
        yield node


_LOOKUPS = frozenset({"getattr", "hasattr"})


def _narrowed(node: ast.expr) -> bool:
    """A name built with a literal piece the prefix rule keeps (two letters or digits at least)."""
    prefixes, suffixes = edges(node)
    return any(sum(c.isalnum() for c in piece) >= 2 for piece in prefixes | suffixes)


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
