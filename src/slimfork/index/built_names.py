"""The module names a file builds from a dotted literal and computed pieces (``f"pkg.{kind}.{mod}.{attr}"``,
``"pkg.plugins." + name``): an import of a name computed entirely at run time may load any of them. Each computed
piece is a ``Slot``: the strings a loop over literals or over a module-level dict's keys gives it, a parameter whose
values the project's calls say (``graph.built_names``), or unknown (anything from there on)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import NamedTuple

from slimfork.index.own_names import flat_pieces, own_name

_BUILT = re.compile(r"(?:\{__\w+__\}|[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)*\.")


class Slot(NamedTuple):
    """A computed piece: its possible strings (None: unknown), or the parameter of ``function`` it is."""

    values: tuple[str, ...] | None = None
    tables: tuple[str, ...] = ()  # the module-level tables the values are the keys of (another module may change them)
    function: str = ""  # a parameter of this function (its callers' literal arguments say what it is)
    position: int = -1  # its position as callers pass it (``self`` not counted)
    param: str = ""  # its name, as a keyword argument
    owner: str = ""  # the class the function is a method of
    public: bool = False  # a module-level function or a method of a module-level class, neither named ``_x``:
    # code outside the project may call it with anything


class BuiltName(NamedTuple):
    start: str  # the dotted literal start, own-name placeholders kept (``{__name__}.``)
    rest: tuple[str | Slot, ...] = ()  # the pieces after it: literal text or a computed piece


def built_names(tree: ast.Module) -> tuple[BuiltName, ...]:
    """Every name the module builds from a dotted start and a computed piece, with what each piece may be."""
    dicts = _module_tables(tree)
    out: dict[BuiltName, None] = {}
    _visit(tree, {}, None, dicts, out)
    return tuple(out)


def _visit(node: ast.AST, loops: dict[str, Slot], func: _Function | None,
           dicts: dict[str, tuple[str, ...]], out: dict[BuiltName, None]) -> None:
    if isinstance(node, ast.ClassDef):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _visit_function(child, node.name, func, dicts, out)
            else:
                _visit(child, loops, func, dicts, out)
        return
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _visit_function(node, "", func, dicts, out)
        return
    if isinstance(node, (ast.For, ast.AsyncFor)):
        _visit(node.iter, loops, func, dicts, out)
        rebound = {n.id for stmt in node.body for n in ast.walk(stmt)
                   if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        inner = {**loops, **{k: Slot() if k in rebound else v
                             for k, v in _bound(node.target, node.iter, func, dicts).items()}}
        for stmt in [*node.body, *node.orelse]:
            _visit(stmt, inner, func, dicts, out)
        return
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        inner = dict(loops)
        for gen in node.generators:
            _visit(gen.iter, inner, func, dicts, out)
            inner.update(_bound(gen.target, gen.iter, func, dicts))
        for part in ([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]):
            _visit(part, inner, func, dicts, out)
        return
    if isinstance(node, ast.JoinedStr) or isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if (found := _built(node, loops, func)) is not None:
            out[found] = None
            return
    for child in ast.iter_child_nodes(node):
        _visit(child, loops, func, dicts, out)


def _visit_function(node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str, outer: _Function | None,
                    dicts: dict[str, tuple[str, ...]], out: dict[BuiltName, None]) -> None:
    func = _Function(node, owner, outer)
    for child in ast.iter_child_nodes(node):
        _visit(child, {}, func, dicts, out)


class _Function:
    """The enclosing function: its parameters (name -> position as callers pass it) and its locals bound once."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str, outer: _Function | None) -> None:
        self.name, self.owner = node.name, owner
        self.public = outer is None and not node.name.startswith("_") and not owner.startswith("_")
        args = node.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
        skip = 1 if owner and not static else 0
        stores = Counter(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
        self.params = {p: i - skip for i, p in enumerate(positional) if i >= skip and not stores[p]}
        self.params.update({a.arg: -1 for a in args.kwonlyargs if not stores[a.arg]})
        self.once = {n.targets[0].id: n.value for n in ast.walk(node) if isinstance(n, ast.Assign)
                     and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and stores[n.targets[0].id] == 1}
        self.outer = outer


def _bound(target: ast.expr, iterable: ast.expr, func: _Function | None,
           dicts: dict[str, tuple[str, ...]]) -> dict[str, Slot]:
    """The strings each loop variable takes: ``for m in ("a", "b")``, ``for key in TABLE`` / ``TABLE.keys()``,
    ``for key, value in TABLE.items()`` (a module-level dict bound once); unknown for any other variable."""
    out = {n.id: Slot() for n in ast.walk(target) if isinstance(n, ast.Name)}
    method, source = None, iterable
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) and not iterable.args \
            and iterable.func.attr in ("keys", "items"):
        method, source = iterable.func.attr, iterable.func.value
    found = _strings(source, func, dicts)
    if found is None:
        return out
    if isinstance(target, ast.Name) and method != "items":
        out[target.id] = Slot(*found)
    elif method == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2 \
            and isinstance(target.elts[0], ast.Name):
        out[target.elts[0].id] = Slot(*found)
    return out


def _strings(node: ast.expr, func: _Function | None, dicts: dict[str, tuple[str, ...]],
             depth: int = 0) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The strings ``node`` iterates over (and the module-level tables they come from): literal strings, a
    module-level table's keys, a local bound once to one of them, either arm of ``A if cond else B``."""
    if depth > 4:
        return None
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        found = tuple(e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
        return (found, ()) if len(found) == len(node.elts) else None
    if isinstance(node, ast.IfExp):
        body, orelse = _strings(node.body, func, dicts, depth + 1), _strings(node.orelse, func, dicts, depth + 1)
        if body is None or orelse is None:
            return None
        return tuple(dict.fromkeys(body[0] + orelse[0])), tuple(dict.fromkeys(body[1] + orelse[1]))
    if isinstance(node, ast.Name):
        scope = func
        while scope is not None:
            if node.id in scope.params:
                return None
            if node.id in scope.once:
                return _strings(scope.once[node.id], scope.outer, dicts, depth + 1)
            scope = scope.outer
        return (dicts[node.id], (node.id,)) if node.id in dicts else None
    return None


def _module_tables(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Module-level names bound once to a dict with string keys (its keys) or a sequence of strings, which no
    code of the module changes (an item stored or deleted, ``update``/``setdefault``/``pop``/...)."""
    stores = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    changed = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Subscript)
               and not isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)}
    changed |= {n.func.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and isinstance(n.func.value, ast.Name) and n.func.attr in CHANGING}
    out: dict[str, tuple[str, ...]] = {}
    for stmt in tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.AnnAssign) else None
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(target, ast.Name) or value is None or stores[target.id] != 1 or target.id in changed:
            continue
        if isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                               for k in value.keys):
            out[target.id] = tuple(k.value for k in value.keys)  # type: ignore[union-attr]
        elif (found := _strings(value, None, {})) is not None:
            out[target.id] = found[0]
    return out


CHANGING = {"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove", "add",
             "__setitem__", "__delitem__"}


def _built(node: ast.expr, loops: dict[str, Slot], func: _Function | None) -> BuiltName | None:
    pieces = flat_pieces(node)
    text = ""
    if pieces and isinstance(pieces[0], ast.expr) and (own := own_name(pieces[0])):
        text, pieces = own, pieces[1:]
    while pieces and isinstance(pieces[0], str):
        text, pieces = text + pieces[0], pieces[1:]
    if not pieces or not _BUILT.fullmatch(text):
        return None
    return BuiltName(text, tuple(p if isinstance(p, str) else _slot(p, loops, func) for p in pieces))


def _slot(node: ast.expr, loops: dict[str, Slot], func: _Function | None) -> Slot:
    if not isinstance(node, ast.Name):
        return Slot()
    if node.id in loops:
        return loops[node.id]
    if func is not None and node.id in func.params:
        return Slot(function=func.name, position=func.params[node.id], param=node.id, owner=func.owner,
                    public=func.public)
    return Slot()
