"""Classes whose own metaclass provably registers nothing when they are created.

``class YAMLObject(metaclass=YAMLObjectMetaclass)`` stays in a fork because a metaclass of the tree's own may register
the class it creates. PyYAML's does so only under a guard on the class body's attributes::

    class YAMLObjectMetaclass(type):
        def __init__(cls, name, bases, kwds):
            super(YAMLObjectMetaclass, cls).__init__(name, bases, kwds)
            if 'yaml_tag' in kwds and kwds['yaml_tag'] is not None:
                ...  # registers cls

and ``YAMLObject``'s body sets ``yaml_tag = None``: creating it registers nothing. This module evaluates such a guard
against the class body's literal bindings, and answers only when every part is known (unknown means the class may
register, as before):

- the metaclass is a class of the same module, bound once there, undecorated, with ``type`` as its only base and no
  ``__new__``, ``__prepare__``, ``__init_subclass__``, ``__set_name__`` or ``__class_getitem__`` of its own;
- its ``__init__`` (if any) holds only a docstring, ``pass``, a ``super(...).__init__(...)`` / ``type.__init__(...)``
  call whose arguments are plain names, and ``if GUARD:`` blocks without ``else``, each ``GUARD`` false;
- a ``GUARD`` is built of ``and``/``or``/``not``, ``'k' in ns`` / ``not in``, ``ns['k']``, ``ns.get('k'[, literal])``,
  literals, and ``is``/``is not``/``==``/``!=`` between them (``ns`` the namespace parameter, never rebound);
- the class has no bases but ``object`` and no keyword but ``metaclass`` (a base could bring a metaclass of its own
  or an ``__init_subclass__``); its body binds ``k`` at most once, by a top-level ``k = literal``, and reads no
  ``locals()``/``vars()``/``exec``/``eval`` and holds no ``:=``.

Only the class itself goes free: its subclasses still count as registering (``TopStatement.hook`` is unchanged).
"""

from __future__ import annotations

import ast
from slimfork.index.walk import walk

_MISSING = object()
_UNKNOWN = object()
_FORBIDDEN_METHODS = frozenset({"__new__", "__prepare__", "__init_subclass__", "__set_name__", "__class_getitem__",
                                "__getattr__", "__getattribute__", "__setattr__"})
_NAMESPACE_READERS = frozenset({"locals", "vars", "exec", "eval", "globals"})
_AUTO_KEYS = frozenset({"__module__", "__qualname__", "__doc__", "__annotations__", "__classcell__",
                        "__firstlineno__", "__static_attributes__", "__type_params__", "__annotate__"})


def silent_metaclass_classes(tree: ast.Module) -> set[int]:
    """Indexes of top-level class statements whose metaclass provably registers nothing when creating them."""
    out: set[int] = set()
    metas: dict[str, ast.ClassDef] | None = None
    for i, node in enumerate(tree.body):
        if not isinstance(node, ast.ClassDef):
            continue
        meta = [k for k in node.keywords if k.arg == "metaclass"]
        if len(meta) != 1 or len(node.keywords) != 1 or not isinstance(meta[0].value, ast.Name):
            continue
        if metas is None:
            metas = module_classes(tree)
        definition = metas.get(meta[0].value.id)
        if definition is None or tree.body.index(definition) > i:
            continue
        if _class_ok(node) and _creation_silent(definition, node):
            out.add(i)
    return out


def module_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    """Top-level classes whose name nothing else in the module binds (no rebinding, import, ``global`` of it)."""
    counts: dict[str, int] = {}
    for node in walk(tree):
        names: list[str] = []
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [node.name]
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = [node.id]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names = list(node.names)
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef) and counts.get(n.name) == 1}


def _class_ok(node: ast.ClassDef) -> bool:
    if any(not (isinstance(b, ast.Name) and b.id == "object") for b in node.bases):
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.NamedExpr):
            return False
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in _NAMESPACE_READERS:
            return False
    return True


def _creation_silent(meta: ast.ClassDef, cls: ast.ClassDef) -> bool:
    if meta.decorator_list or meta.keywords or [dotted(b) for b in meta.bases] != ["type"]:
        return False
    init: ast.FunctionDef | None = None
    for stmt in meta.body:
        bound = _bound_names(stmt)
        if bound & _FORBIDDEN_METHODS:
            return False
        if "__init__" in bound:
            if init is not None or not isinstance(stmt, ast.FunctionDef) or stmt.decorator_list:
                return False
            init = stmt
    if init is None:
        return True
    positional = init.args.posonlyargs + init.args.args
    if len(positional) < 4:
        return False
    namespace = positional[3].arg
    if any(namespace in _bound_names(s) or _rebinds(s, namespace) for s in init.body):
        return False
    body = _own_bindings(cls)
    for stmt in init.body:
        if isinstance(stmt, ast.Pass) or isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Expr) and _super_init(stmt.value, meta.name):
            continue
        if isinstance(stmt, ast.If) and not stmt.orelse and _truth(stmt.test, namespace, body) is False:
            continue
        return False
    return True


def dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def _bound_names(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)} \
        | {n.name for n in ast.walk(stmt) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))} \
        | {(a.asname or a.name).split(".")[0] for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))
           for a in n.names}


def _rebinds(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
               or isinstance(n, ast.NamedExpr) and n.target.id == name for n in ast.walk(stmt))


def _super_init(value: ast.expr, meta: str) -> bool:
    """``super().__init__(a, b, c)``, ``super(Meta, cls).__init__(...)`` or ``type.__init__(...)`` with plain names:
    ``type.__init__`` does nothing."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "__init__"):
        return False
    if value.keywords or not all(isinstance(a, ast.Name) or isinstance(a, ast.Starred)
                                 and isinstance(a.value, ast.Name) for a in value.args):
        return False
    owner = value.func.value
    if isinstance(owner, ast.Name):
        return owner.id == "type"
    return isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super" \
        and not owner.keywords and (not owner.args or len(owner.args) == 2 and isinstance(owner.args[0], ast.Name)
                                    and owner.args[0].id == meta and isinstance(owner.args[1], ast.Name))


def _own_bindings(cls: ast.ClassDef) -> dict[str, object]:
    """What the class body binds: a name bound once by a top-level ``name = literal`` maps to the literal's value,
    one bound any other way (or more than once) to ``_UNKNOWN``."""
    counts: dict[str, int] = {}
    literal: dict[str, object] = {}
    for stmt in cls.body:
        for name in _scope_bindings(stmt):
            counts[name] = counts.get(name, 0) + 1
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else None
        value = getattr(stmt, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant):
            literal[target.id] = value.value
    return {name: literal.get(name, _UNKNOWN) if n == 1 else _UNKNOWN for name, n in counts.items()}


def _scope_bindings(stmt: ast.stmt) -> list[str]:
    """Names a class-body statement binds in the class namespace (nested scopes' own names excluded)."""
    out: list[str] = []
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node.name)
            todo.extend(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                todo.extend(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
            else:
                todo.extend(node.bases + [k.value for k in node.keywords])
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.append(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.extend((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.extend(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            out.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.append(node.rest)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.append(node.name)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _key(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value not in _AUTO_KEYS:
        return node.value
    return None


def _value(node: ast.expr, namespace: str, body: dict[str, object]) -> object:
    """The value of ``node`` at the guard, ``_UNKNOWN`` when not known (or when reading it would raise)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == namespace:
        key = _key(node.slice)
        value = body.get(key, _MISSING) if key is not None else _UNKNOWN
        return _UNKNOWN if value is _MISSING else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == namespace and not node.keywords \
            and 1 <= len(node.args) <= 2 and all(isinstance(a, ast.Constant) for a in node.args[1:]):
        key = _key(node.args[0])
        if key is None:
            return _UNKNOWN
        value = body.get(key, _MISSING)
        if value is _MISSING:
            return node.args[1].value if len(node.args) == 2 else None  # type: ignore[attr-defined]
        return value
    return _UNKNOWN


def _truth(node: ast.expr, namespace: str, body: dict[str, object]) -> bool | None:
    """Whether ``node`` is true at the guard; None when not known."""
    if isinstance(node, ast.BoolOp):
        stop = isinstance(node.op, ast.Or)  # `or` stops at the first true operand, `and` at the first false one
        for operand in node.values:
            truth = _truth(operand, namespace, body)
            if truth is None:
                return None
            if truth is stop:
                return stop
        return not stop
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        truth = _truth(node.operand, namespace, body)
        return None if truth is None else not truth
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            key = _key(node.left)
            if key is None or not (isinstance(right, ast.Name) and right.id == namespace):
                return None
            if key in body and body[key] is _UNKNOWN:
                return None  # bound some other way (maybe conditionally): not known whether it is there
            found = key in body
            return found if isinstance(op, ast.In) else not found
        left, other = _value(node.left, namespace, body), _value(right, namespace, body)
        if left is _UNKNOWN or other is _UNKNOWN:
            return None
        if isinstance(op, (ast.Is, ast.IsNot)) and not any(v is None or v is True or v is False
                                                            for v in (left, other)):
            return None  # identity of other literals is an implementation detail
        if isinstance(op, ast.Is):
            return left is other
        if isinstance(op, ast.IsNot):
            return left is not other
        if isinstance(op, ast.Eq):
            return bool(left == other)
        if isinstance(op, ast.NotEq):
            return bool(left != other)
        return None
    value = _value(node, namespace, body)
    return None if value is _UNKNOWN else bool(value)
