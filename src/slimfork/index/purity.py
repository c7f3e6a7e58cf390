"""Which top-level code runs with effects worth keeping when a module is imported: pure values, harmless blocks,
blocks that never run, and the decorators and calls known to only wrap or compute (for ``index.symbols``)."""

from __future__ import annotations

import ast

from slimfork.index.symbol_refs import attr_chain

# Decorators that only wrap or describe a function or class: a def decorated only by these can be pruned.
PURE_DECORATORS = frozenset("""
staticmethod classmethod property cached_property functools.cached_property lru_cache functools.lru_cache cache
functools.cache wraps functools.wraps dataclass dataclasses.dataclass total_ordering functools.total_ordering
contextmanager contextlib.contextmanager asynccontextmanager contextlib.asynccontextmanager overload typing.overload
final typing.final no_type_check typing.no_type_check abstractmethod abc.abstractmethod runtime_checkable
typing.runtime_checkable unique enum.unique torch.no_grad torch.inference_mode torch.compile torch.jit.script
torch.jit.ignore torch.jit.unused triton.jit triton.autotune triton.heuristics jit njit numba.jit numba.njit
""".split())
# Calls whose value can be bound at module level without effects worth keeping (unknown calls stay).
PURE_CALLS = frozenset("""
logging.getLogger getLogger TypeVar typing.TypeVar ParamSpec typing.ParamSpec NewType typing.NewType namedtuple
collections.namedtuple re.compile os.getenv os.environ.get object frozenset set dict list tuple int float str bool
field dataclasses.field defaultdict collections.defaultdict OrderedDict collections.OrderedDict Counter
collections.Counter threading.Lock threading.RLock ContextVar contextvars.ContextVar partial functools.partial
re.escape torch.tensor torch.device torch.finfo torch.iinfo range len min max sum sorted reversed enumerate zip abs
round divmod pow chr ord bytes complex any all date datetime.date datetime.datetime timedelta datetime.timedelta
Decimal decimal.Decimal Fraction fractions.Fraction
""".split())


def module_spellings(tree: ast.Module) -> frozenset[str]:
    """The known pure calls and decorators as this module spells them through a module alias (``module_aliases``):
    ``import typing as t`` makes ``t.TypeVar`` and ``t.overload`` pure (pydash 8.1.0 writes them so)."""
    return frozenset(local + known[len(module):] for local, module in module_aliases(tree).items()
                     for known in PURE_CALLS | PURE_DECORATORS if known.startswith(module + "."))


def target_names(target) -> list[str | None]:
    """Names bound by an assignment target; None for an attribute or item store."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in target_names(elt)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return [None]


def is_pure(node, assume: frozenset[str] = frozenset()) -> bool:
    """True when evaluating ``node`` at import has no effect worth keeping (literals, names, attributes,
    subscripts such as ``Optional[int]``, operators, lambdas, comprehensions of those, f-strings, a string literal's
    methods such as ``"|".join(names)``, and a few known constructors); ``assume``: more calls (dotted, as written)
    to count as pure."""
    def pure(sub) -> bool:
        return is_pure(sub, assume)

    if isinstance(node, (ast.Constant, ast.Name, ast.Lambda)):
        return True
    if isinstance(node, ast.Attribute):
        return pure(node.value)
    if isinstance(node, ast.Subscript):
        return pure(node.value) and pure(node.slice)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(pure(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or pure(k) for k in node.keys) and all(pure(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        return pure(node.left) and pure(node.right)
    if isinstance(node, ast.UnaryOp):
        return pure(node.operand)
    if isinstance(node, ast.BoolOp):
        return all(pure(v) for v in node.values)
    if isinstance(node, ast.Compare):
        return pure(node.left) and all(pure(c) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return pure(node.test) and pure(node.body) and pure(node.orelse)
    if isinstance(node, ast.Starred):
        return pure(node.value)
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):  # {c: i for ... in T}
        # only the known pure calls: one the spec declares pure may still register, once per item
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        parts += [g.iter for g in node.generators] + [c for g in node.generators for c in g.ifs]
        return not any(g.is_async for g in node.generators) and all(is_pure(p) for p in parts)
    if isinstance(node, ast.JoinedStr):
        return all(pure(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return pure(node.value) and (node.format_spec is None or pure(node.format_spec))
    if isinstance(node, ast.Call):
        func = node.func
        known = (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant)
                 and isinstance(func.value.value, str)) or dotted_name(func) in PURE_CALLS or dotted_name(func) in assume
        return known and all(pure(a) for a in node.args) and all(pure(k.value) for k in node.keywords)
    return False


def impure_calls(node) -> tuple[str, ...]:
    """The calls (dotted, as written) that make ``node`` impure, when declaring them pure would make it pure;
    else ("?",): something else runs (a comprehension, a call of a call)."""
    names = tuple(sorted({dotted_name(c.func) or "?" for c in ast.walk(node) if isinstance(c, ast.Call)}))
    return names if "?" not in names and is_pure(node, frozenset(names)) else ("?",)


def never_runs(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` or ``if False:`` (what a fold leaves when the arm binds names code after it
    still mentions), without an else or with a harmless one: its body never runs when the module is imported."""
    if not isinstance(node, ast.If) or not all(harmless(s) for s in node.orelse):
        return False
    test = node.test
    if isinstance(test, ast.Constant):
        return not test.value
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) \
        and test.left.id == "__name__" and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__"


def is_type_only(node: ast.stmt, typing_names: frozenset[str] = frozenset()) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:`` / ``if False:`` without an else: only type checkers
    read what it imports. ``typing_names``: what the module binds to ``typing`` (``import typing as _t``:
    ``if _t.TYPE_CHECKING:``, cachelib's)."""
    if not isinstance(node, ast.If) or node.orelse:
        return False
    test = node.test
    return (isinstance(test, ast.Constant) and test.value is False) or dotted_name(test) in type_checking_tests(
        typing_names)


def type_checking_tests(typing_names: frozenset[str] = frozenset()) -> frozenset[str]:
    """The conditions that mean "only a type checker runs this": ``TYPE_CHECKING``, ``typing.TYPE_CHECKING`` and
    ``X.TYPE_CHECKING`` for each ``X`` of ``typing_names``."""
    return frozenset({"TYPE_CHECKING", "typing.TYPE_CHECKING"} | {f"{n}.TYPE_CHECKING" for n in typing_names})


def typing_aliases(tree: ast.Module) -> frozenset[str]:
    """The names a module's top-level ``import typing as X`` / ``import typing_extensions as X`` bind, bound once
    (a name bound again may be something else when the test runs)."""
    return frozenset(n for n, m in module_aliases(tree).items() if m in ("typing", "typing_extensions"))


def module_aliases(tree: ast.Module) -> dict[str, str]:
    """``X -> M`` for each top-level ``import M as X`` whose name is bound nowhere else in the module."""
    bound: dict[str, int] = {}
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                name = a.asname or a.name.split(".")[0]
                bound[name] = bound.get(name, 0) + 1
                if isinstance(node, ast.Import) and a.asname and node in tree.body:
                    found[a.asname] = a.name
    return {n: m for n, m in found.items() if bound.get(n) == 1}


# Methods of a dict, list or set that change only that object.
_MUTATORS = frozenset("update append extend add insert setdefault discard remove pop clear".split())


def harmless(node: ast.stmt, own: frozenset[str] = frozenset(), assume: frozenset[str] = frozenset()) -> bool:
    """A compound statement whose running at import changes nothing outside its own bindings. ``own``: names of
    dicts, lists and sets this module made from a literal; filling one (``TABLE.update({...})``,
    ``TABLE[k] = v`` with pure keys and values) changes only this module's object (docstring_parser's
    ``if sys.version_info[:2] <= (3, 7): ast_constant_attr.update({...})``). A call it makes at import that is
    not pure (``assume``: more calls to count as pure), in a value (``try: X = register("x")``) or a test, is an
    effect: the call may register."""
    own = own - {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    if any(isinstance(c, ast.Call) and not is_pure(c, assume) and not fills_own(c, own) for c in _runs(node)):
        return False
    for sub in ast.walk(node):
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(sub, ast.Expr) and not isinstance(sub.value, ast.Constant) and not fills_own(sub.value, own) \
                and not _names_only(sub.value):
            return False
        if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            if any(n is None and own_item(t, own) is None for t in targets for n in target_names(t)):
                return False
        if isinstance(sub, (ast.With, ast.AsyncWith, ast.Delete, ast.Raise, ast.Global)):
            return False
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub.decorator_list:
            return False
    return True


def _names_only(value: ast.expr) -> bool:
    """``error, ASFError, ASFValue`` (mutagen's "# flake8" line, marking imports as used): reads names, runs
    nothing."""
    return isinstance(value, ast.Name) or isinstance(value, ast.Tuple) and all(isinstance(e, ast.Name)
                                                                                for e in value.elts)


def _runs(node: ast.AST):
    """``node`` and what under it runs when it does: not the bodies of nested functions and lambdas (their
    decorators and defaults run), not a class body's methods."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(cur.decorator_list + cur.args.defaults + [d for d in cur.args.kw_defaults if d])
        elif isinstance(cur, ast.Lambda):
            stack.extend(cur.args.defaults + [d for d in cur.args.kw_defaults if d])
        else:
            stack.extend(ast.iter_child_nodes(cur))


def fills_own(call: ast.expr, own: frozenset[str]) -> bool:
    """``TABLE.update({...})`` (a mutating method of a table in ``own``, or of a pure item of one) with pure
    arguments."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _MUTATORS):
        return False
    table = call.func.value
    named = isinstance(table, ast.Name) and table.id in own or own_item(table, own) is not None
    return named and all(is_pure(a) for a in call.args) and all(is_pure(k.value) for k in call.keywords)


def plain_functions(tree: ast.Module) -> frozenset[str]:
    """Top-level functions without decorators whose name nothing else binds at module level: an attribute set on
    one (pydash's ``ceil._argcount = 1``) changes only this module's own function object."""
    counts: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stub = node.decorator_list and all((dotted_name(d) or "").rsplit(".", 1)[-1] == "overload"
                                               for d in node.decorator_list)
            counts[node.name] = counts.get(node.name, 0) + (0 if stub else 1)  # @overload stubs bind nothing
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
                counts[sub.id] = counts.get(sub.id, 0) + 1
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                for a in sub.names:
                    name = (a.asname or a.name).split(".")[0]
                    counts[name] = counts.get(name, 0) + 1
    return frozenset(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and not n.decorator_list and counts.get(n.name) == 1)


def own_attribute(target, functions: frozenset[str]) -> str | None:
    """``func.attr`` of one of this module's plain functions: the function's name, else None."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id in functions:
        return target.value.id
    return None


def own_item(target, own: frozenset[str]) -> str | None:
    """``TABLE[key]`` or ``TABLE[a][b]`` (pure keys) of a dict/list/set this module made: the name, else None."""
    node = target
    while isinstance(node, ast.Subscript) and is_pure(node.slice) and not impure_calls(node.slice):
        node = node.value
    return node.id if node is not target and isinstance(node, ast.Name) and node.id in own else None


def dotted_name(node) -> str | None:
    chain = attr_chain(node)
    return ".".join(chain) if chain else None


def short_text(node) -> str:
    text = ast.unparse(node).splitlines()[0] if not isinstance(node, ast.stmt) else ast.unparse(node).splitlines()[0]
    return text if len(text) <= 80 else text[:77] + "..."
