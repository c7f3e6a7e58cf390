"""Which modules the names a module builds may be (``index.built_names``): each computed piece with its known
strings filled in, a parameter's from every call of its function in the project, up to the first piece nothing says
(anything from there on). The import that loads a computed name may take the whole name, a part of it up to a dot
(``path.rpartition(".")[0]``) or a name below it: every module of those under the literal start stays (never more
than the start alone keeps)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from slimfork.graph.modules import ModuleMap
from slimfork.index.built_names import CHANGING, BuiltName, Slot

_MOST = 256  # names spelled out; more and the name counts from its start alone


class ProjectUses:
    """What the rest of the project does with a built name's pieces: the string literals its calls pass a
    function's parameter, by the function's name (unknown where any use of the name is not such a call: a call
    passing something else, the function passed on, the name in a string; or where the project never calls it),
    and whether code outside a table's module changes the table (an item stored, ``update``, rebound).
    ``api(module, slot)``: is the slot's function public API, which code outside the project may call with any
    string (its parameter is then unknown)? None: every public function is."""

    def __init__(self, index, api: Callable[[str, Slot], bool] | None = None) -> None:
        self._index = index
        self._api = api or (lambda module, slot: True)
        self._passed: dict[tuple[str, int, str], tuple[str, ...] | None] = {}
        self._changed: dict[str, bool] = {}

    def values(self, slot: Slot, module: str) -> tuple[str, ...] | None:
        if slot.values is not None:
            return None if any(self._changes(t) for t in slot.tables) else slot.values
        if not slot.function or self._index is None or slot.public and self._api(module, slot):
            return None
        key = (slot.function, slot.position, slot.param)
        if key not in self._passed:
            self._passed[key] = self._read_calls(slot)
        return self._passed[key]

    def _trees(self, name: str):
        """(path, syntax tree or None where it cannot be read) of each file that names ``name``; None first where
        a string holds the name (``getattr(x, name)``)."""
        for path, summary in self._index.files.items():
            statements = summary.symbols.statements
            if any(name in st.strings for st in statements):
                yield path, None
            elif any(name in st.names or any(name in c for c in st.chains) for st in statements):
                try:
                    yield path, ast.parse((self._index.root / path).read_bytes())
                except (OSError, SyntaxError, ValueError):
                    yield path, None

    def _read_calls(self, slot: Slot) -> tuple[str, ...] | None:
        found: list[str] = []
        for _, tree in self._trees(slot.function):
            values = _passed(tree, slot) if tree is not None else None
            if values is None:
                return None
            found += values
        return tuple(dict.fromkeys(found)) or None

    def _changes(self, table: str) -> bool:
        if self._index is None:
            return True
        if table not in self._changed:
            self._changed[table] = any(tree is None or _changed(tree, table) for _, tree in self._trees(table))
        return self._changed[table]


def _changed(tree: ast.Module, table: str) -> bool:
    """Does the code change ``table`` (its own module's code included: an import of it read the same way)?"""
    def named(node) -> bool:
        return isinstance(node, ast.Name) and node.id == table or isinstance(node, ast.Attribute) and node.attr == table
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) and named(node.value):
            return True
        if isinstance(node, ast.Attribute) and node.attr == table and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CHANGING \
                and named(node.func.value):
            return True
        if isinstance(node, ast.AugAssign) and named(node.target):
            return True
    return False


def _passed(tree: ast.Module, slot: Slot) -> list[str] | None:
    calls = {id(n.func): n for n in ast.walk(tree) if isinstance(n, ast.Call)}
    out = []
    for node in ast.walk(tree):
        named = isinstance(node, ast.Name) and node.id == slot.function \
            or isinstance(node, ast.Attribute) and node.attr == slot.function
        if not named:
            continue
        call = calls.get(id(node))
        value = _argument(call, slot) if call is not None else None
        if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
            return None
        out.append(value.value)
    return out


def _argument(call: ast.Call, slot: Slot) -> ast.expr | None:
    if 0 <= slot.position < len(call.args):
        head = call.args[:slot.position + 1]
        return None if any(isinstance(a, ast.Starred) for a in head) else head[-1]
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return next((k.value for k in call.keywords if k.arg == slot.param), None)


def built_modules(mm: ModuleMap, info, built: Iterable[BuiltName],
                  uses: ProjectUses) -> tuple[list[str], list[str]]:
    """(the internal modules the names may be, sorted; the names as spelled out, '…' where a piece is unknown)."""
    named: set[str] = set()
    shown: list[str] = []
    for name in built:
        start = info.fill_own(name.start)
        heads, closed = _spelled(start, name.rest, uses, info.name)
        shown += [h if closed else h + "…" for h in heads]
        for m in mm.modules:
            if mm.is_internal(m) and m.startswith(start) and any(_names(h, m, closed) for h in heads):
                named.add(m)
    return sorted(named), shown


def _spelled(start: str, rest: tuple[str | Slot, ...], uses: ProjectUses, module: str) -> tuple[list[str], bool]:
    heads = [start]
    for piece in rest:
        if isinstance(piece, str):
            heads = [h + piece for h in heads]
            continue
        values = uses.values(piece, module)
        if values is None:
            return heads, False
        heads = [h + v for h in heads for v in values]
        if len(heads) > _MOST:
            return [start], False
    return heads, True


def _names(head: str, module: str, closed: bool) -> bool:
    """A closed name ``head`` may be ``module``, a module above it or below it; an open one any module starting
    with it, or above it (below the literal start: a subset of what the start alone keeps)."""
    if head.startswith(module + "."):
        return True
    return module == head or module.startswith(head + ".") if closed else module.startswith(head)
