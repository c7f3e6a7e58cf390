"""Classes of a module whose instantiation only stores its arguments: ``DEFAULT_SECTIONS = [ParamSection("Args",
"param"), ...]`` builds values at import without effects worth keeping (docstring_parser's ``numpydoc``), so such
an assignment neither pins its module in the fork nor stays when nothing kept uses it.

A class qualifies when it is defined at the module's top level before the call, has no decorator, keyword
(metaclass) or class-creation hook (``__init_subclass__``, ``__set_name__``, ``__new__``, ``__post_init__``,
``__class_getitem__``), its bases are ``object``, builtin containers (``dict[int, int]``) or classes of the module
that qualify, its body binds only functions and pure values, and every ``__init__`` along the way only stores pure
values on ``self`` (its parameters and literals) and calls ``super().__init__`` or a qualifying base's ``__init__``
with pure arguments.
A name bound twice at module level qualifies for neither binding.

A class whose bases include classes imported from another module (``class MRA(_BaseSimilarity)``, textdistance)
qualifies only if those do in their own modules: ``pure_classes`` records which imported names it waits on, and
``prune.pure_instances`` decides across modules, so ``mra = MRA()`` can go with its module."""

from __future__ import annotations

import ast

from slimfork.index.purity import PURE_DECORATORS, dotted_name, is_pure
from slimfork.index.symbol_model import PureClass

_HOOKS = frozenset({"__init_subclass__", "__set_name__", "__new__", "__post_init__", "__class_getitem__",
                    "__setattr__", "__del__"})
# Builtin types whose construction only copies its arguments (``class ObservedRule(dict[int, int])``, holidays):
# a base like ``object`` where the module does not rebind the name.
BUILTIN_BASES = frozenset({"dict", "list", "set", "frozenset", "tuple", "str", "bytes", "int", "float"})
# Run only when code reads a missing attribute: harmless in a class no __init__ runs for (pydash's ``_Dash``, whose
# instance proxies lookups); such a class is no base of a plain class (its __init__ may read self's attributes).
_LOOKUP_HOOKS = frozenset({"__getattr__", "__getattribute__"})


def pure_classes(tree: ast.Module) -> tuple[dict[int, frozenset[str]], dict[str, PureClass]]:
    """For each top-level statement's index, the classes of this module (by name) defined before it whose call
    is pure there; and the classes that qualify if the imported names they derive from (bound once, by a
    top-level ``from`` import) are pure classes of their modules (those that qualify outright need none)."""
    out: dict[int, frozenset[str]] = {}
    known: set[str] = set()
    waiting: dict[str, PureClass] = {}
    inits: set[str] = set()  # the waiting classes an __init__ of their own or a base runs for
    counts: dict[str, int] = {}
    imported: set[str] = set()
    for node in tree.body:
        for sub in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                else [ast.Name(id=node.name, ctx=ast.Store())]:
            if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
                counts[sub.id] = counts.get(sub.id, 0) + 1
            elif isinstance(sub, ast.Attribute) and not isinstance(sub.ctx, ast.Load) \
                    and isinstance(sub.value, ast.Name):  # Section.__init__ = other: not the class read here
                counts[sub.value.id] = counts.get(sub.value.id, 0) + 2
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                counts[name] = counts.get(name, 0) + 1
                if isinstance(node, ast.ImportFrom) and alias.name != "*":
                    imported.add(alias.asname or alias.name)
    for i, node in enumerate(tree.body):
        out[i] = frozenset(known)
        if not (isinstance(node, ast.ClassDef) and counts.get(node.name) == 1):
            continue
        own = _qualifies(node)
        if own is None:
            continue
        has_init, leaf = own
        needs: set[str] = set()
        for base in map(_base_name, node.bases):  # every base is a name or a builtin's generic (_qualifies)
            if base in waiting and not waiting[base].leaf:
                needs.update(waiting[base].needs)
                has_init = has_init or base in inits
            elif counts.get(base) == 1 and base in imported and not leaf:
                needs.add(base)
            elif base != "object" and not (base in BUILTIN_BASES and base not in counts):
                break
        else:
            if leaf and has_init:
                continue
            waiting[node.name] = PureClass(i, tuple(sorted(needs)), leaf)
            if has_init:
                inits.add(node.name)
            if not needs:
                known.add(node.name)
    return out, waiting


def _base_name(base: ast.expr) -> str:
    """``Section`` -> "Section"; ``dict[int, int | None]`` -> "dict"; any other expression -> ""."""
    base = base.value if isinstance(base, ast.Subscript) else base
    return base.id if isinstance(base, ast.Name) else ""


def _qualifies(node: ast.ClassDef) -> tuple[bool, bool] | None:
    """The class itself qualifies (its bases are plain names, which ``pure_classes`` checks): (it defines
    ``__init__``, it defines a lookup hook); None where it does not."""
    if node.decorator_list or node.keywords:
        return None
    if not all(isinstance(b, ast.Name) or _base_name(b) in BUILTIN_BASES for b in node.bases):
        return None
    has_init = leaf = False
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(dotted_name(d.func if isinstance(d, ast.Call) else d) not in PURE_DECORATORS
                   for d in stmt.decorator_list):
                return None  # runs when the class is defined, may register
            if stmt.name in _HOOKS or (stmt.name == "__init__" and not _stores_only(stmt)):
                return None
            has_init = has_init or stmt.name == "__init__"
            leaf = leaf or stmt.name in _LOOKUP_HOOKS
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            if stmt.value is not None and not is_pure(stmt.value):
                return None
        elif not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)) \
                and not isinstance(stmt, ast.Pass):
            return None
    return has_init, leaf


def _stores_only(init: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``self.x = <pure>`` statements, docstrings and ``super().__init__(<pure>)`` calls; defaults pure."""
    args = init.args
    if isinstance(init, ast.AsyncFunctionDef) or init.decorator_list or not args.args:
        return False
    if not all(is_pure(d) for d in args.defaults + [d for d in args.kw_defaults if d is not None]):
        return False
    self_name = args.args[0].arg
    for stmt in init.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) or isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if stmt.value is None or not is_pure(stmt.value) \
                    or not all(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                               and t.value.id == self_name for t in targets):
                return False
            continue
        if isinstance(stmt, ast.Expr) and _super_init(stmt.value):
            continue
        return False
    return True


def _super_init(call: ast.expr) -> bool:
    """``super().__init__(<pure>)`` with pure arguments."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"):
        return False
    target = call.func.value
    if not (isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super"
            and not target.args and not target.keywords):
        return False
    return all(is_pure(a) for a in call.args) and all(is_pure(k.value) for k in call.keywords)
