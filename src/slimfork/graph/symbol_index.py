"""What one module defines at top level and what each of those statements refers to (stdlib ``ast``, read-only).

Every top-level statement becomes a ``TopStatement``: the names it binds, the names, attribute chains and strings
it refers to (anywhere inside it, function bodies included: a kept function refers to them when it runs), and
either ``keep`` (why it always stays: it runs code at import, it is decorated by something that may register it,
it sits in an ``if``/``try``...) or nothing (it may be pruned when no kept code refers to what it binds).
Module-wide facts that make every symbol of a module stay (``globals()``, ``eval``, ``__getattr__``...) go to
``SymbolSummary.keep_all``. Over-approximation is the rule: a name loaded anywhere counts as a use.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from typing import NamedTuple

from slimfork.graph.methods import MethodUsage, method_usage
from slimfork.index.parse import decode, parse_python
from slimfork.index.scopes import ScopedVisitor

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
re.escape torch.tensor torch.device torch.finfo torch.iinfo
""".split())
_NO_EFFECT_MODULES = frozenset({"__future__", "typing", "typing_extensions", "collections.abc"})
_IDENT = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?")
_DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.)\s?(.*)$", re.M)


class ImportAlias(NamedTuple):
    """One name an import statement binds: ``import a.b`` binds ``a`` to the package "a" (and loads "a.b");
    ``import a.b as c`` binds ``c`` to "a.b"; ``from .m import x as y`` binds ``y`` (module "m", level 1, name
    "x")."""

    bound: str
    module: str  # the module the statement loads (relative to ``level``)
    level: int
    name: str | None  # None for ``import a.b``
    position: int  # index among the statement's aliases
    obj: str = ""  # for ``import``: the module the bound name refers to ("a" for ``import a.b``)


@dataclass
class TopStatement:
    index: int  # position in the module body (ast)
    line: int  # first line (decorators included)
    end: int
    kind: str  # "def", "class", "assign", "import", "other"
    binds: tuple[str, ...] = ()
    keep: str | None = None  # why the statement always stays; None: prunable when nothing refers to it
    names: set[str] = field(default_factory=set)  # names loaded anywhere inside
    chains: set[tuple[str, ...]] = field(default_factory=set)  # attribute chains rooted at a name: ("a", "b", "f")
    strings: set[str] = field(default_factory=set)  # dotted or plain identifiers found in string constants
    getattrs: set[tuple[tuple[str, ...], str | None]] = field(default_factory=set)  # getattr(a.b, "lit" | computed)
    aliases: tuple[ImportAlias, ...] = ()  # for import statements (nested imports of "other" statements too)
    inner_imports: set[ImportAlias] = field(default_factory=set)  # imports inside a function or class body
    bases: tuple[tuple[str, ...], ...] = ()  # for classes: base classes as chains
    hook: bool = False  # a class that defines __init_subclass__ (its subclasses may register themselves)
    bases_known: bool = True  # for classes: every base is a name or attribute chain (``Base``, ``nn.Module``)
    effect: str | None = None  # what runs at import with effects worth keeping (a call, an attribute store...)
    type_only: bool = False  # an ``if TYPE_CHECKING:`` (or ``if False:``) block without else: its imports never run
    calls: tuple[str, ...] = ()  # for an assignment whose value calls code: the calls (as written), ("?",) if more


@dataclass
class SymbolSummary:
    statements: list[TopStatement] = field(default_factory=list)
    keep_all: list[str] = field(default_factory=list)  # why every statement of the module stays
    all_names: list[str] | None = None
    error: str | None = None
    external_imports: set[str] = field(default_factory=set)  # top-level third-party modules imported eagerly
    methods: MethodUsage | None = None  # methods (dunders aside), and the identifiers that may name one

    def binders(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for st in self.statements:
            for name in st.binds:
                out.setdefault(name, []).append(st.index)
        return out


def summarize_symbols(data: bytes, path: str = "<file>") -> SymbolSummary:
    try:
        tree = parse_python(decode(data), path)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError, MemoryError) as exc:
        return SymbolSummary(error=f"cannot parse: {exc.__class__.__name__}")
    out = SymbolSummary()
    own: set[str] = set()  # module-level names bound to a literal display or comprehension of this module
    for i, node in enumerate(tree.body):
        out.statements.append(_statement(i, node, out, frozenset(own)))
        _track_own(node, own)
    _module_flags(tree, out)
    out.methods = method_usage(tree)
    return out


_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def _track_own(node: ast.stmt, own: set[str]) -> None:
    """Names the statement binds leave ``own`` unless it binds one name to a new dict, list or set."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and isinstance(node.value, _DISPLAYS):
        own.add(node.targets[0].id)
        return
    for sub in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ():
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            own.discard(sub.id)
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        for name in node.names:
            own.discard((name.asname or name.name).split(".")[0])
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        own.discard(node.name)


def _own_item(target, own: frozenset[str]) -> str | None:
    """``TABLE[key]`` or ``TABLE[a][b]`` (pure keys) of a dict/list/set this module made: the name, else None."""
    node = target
    while isinstance(node, ast.Subscript) and _pure(node.slice) and not _calls(node.slice):
        node = node.value
    return node.id if node is not target and isinstance(node, ast.Name) and node.id in own else None


def _fills(value, own: frozenset[str]) -> bool:
    """A value that runs no code of another object: pure without calls, or a comprehension over this module's own
    tables (``{c: T[8][c] for c in T[8]}``) whose parts are."""
    if isinstance(value, (ast.DictComp, ast.ListComp, ast.SetComp)):
        parts = [value.key, value.value] if isinstance(value, ast.DictComp) else [value.elt]
        for gen in value.generators:
            if gen.is_async or not (_own_item(gen.iter, own) or isinstance(gen.iter, ast.Name) and gen.iter.id in own):
                return False
            parts += gen.ifs
        return all(_fills(p, own) for p in parts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "copy" \
            and not value.args and not value.keywords:
        return _own_item(value.func.value, own) is not None  # TABLE[10].copy()
    return _pure(value) and not _calls(value)


def _statement(i: int, node: ast.stmt, out: SymbolSummary, own: frozenset[str] = frozenset()) -> TopStatement:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    st = TopStatement(i, first, node.end_lineno or node.lineno, "other")
    refs = _Refs(st)
    refs.visit(node)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        st.kind, st.binds = ("class" if isinstance(node, ast.ClassDef) else "def"), (node.name,)
        impure = [d for d in node.decorator_list if _dotted(d.func if isinstance(d, ast.Call) else d)
                  not in PURE_DECORATORS]
        if impure:
            st.keep = f"decorated by @{_text(impure[0])}, which may register it"
            st.effect = st.keep
        if isinstance(node, ast.ClassDef):
            chains = [_chain(b.value if isinstance(b, ast.Subscript) else b) for b in node.bases]  # Generic[T]
            st.bases = tuple(c for c in chains if c)
            st.bases_known = all(chains) and not any(k.arg for k in node.keywords if k.arg != "metaclass")
            meta = [k for k in node.keywords if k.arg == "metaclass"]
            if meta and _dotted(meta[0].value) not in ("ABCMeta", "abc.ABCMeta", "type"):
                st.keep = st.effect = f"its metaclass {_text(meta[0].value)} may register it"
            st.hook = any(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.name == "__init_subclass__"
                          for b in node.body)
        if node.name.startswith("__") and node.name.endswith("__"):
            st.keep = st.keep or f"module hook {node.name}"
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        st.kind = "import"
        st.aliases = tuple(_aliases(node))
        st.binds = tuple(a.bound for a in st.aliases if a.bound != "*")
        if isinstance(node, ast.ImportFrom) and (node.module == "__future__" or any(a.name == "*" for a in node.names)):
            st.keep = "a __future__ import" if node.module == "__future__" else "a star import (re-exports)"
        _note_external(node, out)
    elif isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [n for t in targets for n in _target_names(t)]
        st.binds = tuple(dict.fromkeys(n for n in names if n))
        items = [_own_item(t, own) for t in targets if not isinstance(t, (ast.Name, ast.Tuple, ast.List))]
        if items and all(items) and not st.binds and _fills(node.value, own):
            st.kind, st.binds = "assign", tuple(dict.fromkeys(n for n in items if n))  # fills its own table:
            # stays with it (lang_FI's KOTUS_TYPE[108] = {...})
        elif None in names or not st.binds:
            st.keep = st.effect = "assigns to an attribute or item (may change another object)"
        elif node.value is None:
            st.keep = "an annotation without a value"
        elif not _pure(node.value):
            st.keep = st.effect = "its value runs code at import (a call)"
            st.calls = _calls(node.value)
        else:
            st.kind = "assign"
        if any(n.startswith("__") and n.endswith("__") for n in st.binds):
            st.keep = st.keep or "a module dunder"
    else:
        st.keep = "runs at import"
        st.binds, st.aliases = _nested_bindings(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            st.keep = "a docstring or constant"
        elif not _harmless(node) and not _never_runs(node):
            st.effect = _text(node)
        st.type_only = _type_only(node)
        for sub in _module_scope(node):
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                _note_external(sub, out)
    return st


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


class _Refs(ScopedVisitor):
    """Names, attribute chains, strings and getattr literals anywhere under a statement."""

    def __init__(self, st: TopStatement):
        super().__init__()  # scopes: the defs, classes and lambdas around the node: imports there bind local names
        self.st = st

    @property
    def depth(self) -> int:
        return len(self.scopes)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        """``x: T = v`` or ``self.x: T = v`` in a function body: Python never evaluates the annotation of a local
        assignment (PEP 526), so ``T`` is not a use; the prune drops such an annotation when it removes what
        ``T`` names (``slimfork.rewrite.annotations``)."""
        if self.is_local_annotation(node):
            self.visit(node.target)
            if node.value is not None:
                self.visit(node.value)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        if self.depth:
            self.st.inner_imports.update(a._replace(position=0) for a in _aliases(node))

    visit_ImportFrom = visit_Import

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Store):
            self.st.names.add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = _chain(node)
        if chain:
            self.st.chains.add(chain)
        else:
            self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.st.names.update(node.names)  # pitfall 12: a global statement reads and writes the module name

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            text = node.value
            if len(text) <= 300:
                self.st.strings.update(_IDENT.findall(text))
            self._doctests(text)

    def visit_Expr(self, node: ast.Expr) -> None:
        """A string statement (a docstring) is prose nothing looks up by name: only its doctests count."""
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            self._doctests(node.value.value)
        else:
            self.generic_visit(node)

    def _doctests(self, text: str) -> None:
        if ">>>" in text:  # pitfall 15: doctests run with the module's globals
            for code in _DOCTEST.findall(text):
                for ident in re.findall(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", code):
                    parts = tuple(ident.split("."))
                    if len(parts) > 1:
                        self.st.chains.add(parts)
                    else:
                        self.st.names.add(ident)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        """``("pkg.mod", "Name")`` (a pickle allow-list entry, a lazy import table) names ``pkg.mod:Name``, one
        symbol, rather than the whole module."""
        first, second = node.elts if len(node.elts) == 2 else (None, None)
        if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                and isinstance(second, ast.Constant) and isinstance(second.value, str):
            module, name = first.value, second.value
            if _DOTTED.fullmatch(module) and "." in module and name.isidentifier():
                self.st.strings.add(f"{module}:{name}")
                return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("getattr", "hasattr", "setattr", "delattr") \
                and len(node.args) >= 2:
            base = _chain(node.args[0])
            if base:  # the object is looked up, not used as a value: getattr(module, "name") names one symbol
                lit = node.args[1].value if isinstance(node.args[1], ast.Constant) and \
                    isinstance(node.args[1].value, str) else None
                self.st.getattrs.add((base, lit))
                self.st.names.add(func.id)
                for arg in node.args[1:]:
                    self.visit(arg)
                for kw in node.keywords:
                    self.visit(kw)
                return
        self.generic_visit(node)


def _module_flags(tree: ast.Module, out: SymbolSummary) -> None:
    """Module-wide reasons to keep every symbol (pitfalls 11, 13, 16) and the literal ``__all__``."""
    reasons: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in ("globals", "eval", "exec") or (name == "vars" and not node.args):
                reasons.setdefault(f"uses {name}()", node.lineno)
            if (name in ("getattr", "setattr", "hasattr") and len(node.args) >= 2 or name == "vars" and node.args) \
                    and _is_self_module(node.args[0]):
                reasons.setdefault("looks itself up by name (sys.modules[__name__])", node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__" and _is_self_module(node.value):
            reasons.setdefault("looks itself up by name (sys.modules[__name__])", node.lineno)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            reasons.setdefault("has a star import", node.lineno)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ("__getattr__", "__dir__"):
            reasons.setdefault(f"defines a module-level {node.name} (lazy names)", node.lineno)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for sub in _module_scope(node):  # at module level, locals() is globals() (pitfall 13)
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "locals":
                    reasons.setdefault("uses locals() at module level", sub.lineno)
    all_nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "__all__"]
    if not all_nodes:
        return _set_keep_all(out, reasons)
    literal = True
    for stmt in tree.body:
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            names = _literal_strings(stmt.value) if stmt.value is not None else None
            if names is None:
                literal = False
            elif isinstance(stmt, ast.AugAssign):
                out.all_names = (out.all_names or []) + names
            else:
                out.all_names = names
    stores = sum(1 for n in all_nodes if isinstance(n.ctx, ast.Store))
    top_stores = sum(1 for node in tree.body for t in (node.targets if isinstance(node, ast.Assign) else
                     [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
                     if isinstance(t, ast.Name) and t.id == "__all__")
    if not literal or stores != top_stores or len(all_nodes) != stores:  # extend(), conditions, loops (pitfall 11)
        reasons.setdefault("builds __all__ at run time", 0)
    _set_keep_all(out, reasons)


def _set_keep_all(out: SymbolSummary, reasons: dict[str, int]) -> None:
    out.keep_all = [f"{why} (line {line})" if line else why for why, line in reasons.items()]


def _is_self_module(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "sys.modules" in text and "__name__" in text


def _aliases(node) -> list[ImportAlias]:
    out = []
    for pos, alias in enumerate(node.names):
        if isinstance(node, ast.Import):
            bound = alias.asname or alias.name.split(".")[0]
            obj = alias.name if alias.asname else alias.name.split(".")[0]
            out.append(ImportAlias(bound, alias.name, 0, None, pos, obj))
        else:
            out.append(ImportAlias(alias.asname or alias.name, node.module or "", node.level, alias.name, pos))
    return out


def _nested_bindings(node: ast.stmt) -> tuple[tuple[str, ...], tuple[ImportAlias, ...]]:
    """Names a compound statement binds at module level (imports, defs, assignments under if/try/for/with)."""
    binds: list[str] = []
    aliases: list[ImportAlias] = []
    for cur in _module_scope(node):
        if isinstance(cur, (ast.Import, ast.ImportFrom)):
            found = [a._replace(position=len(aliases) + i) for i, a in enumerate(_aliases(cur))]  # unique in block
            aliases.extend(found)
            binds.extend(a.bound for a in found if a.bound != "*")
        elif isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.append(cur.name)
        elif isinstance(cur, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = cur.targets if isinstance(cur, ast.Assign) else [cur.target]
            binds.extend(n for t in targets for n in _target_names(t) if n)
        elif isinstance(cur, (ast.For, ast.AsyncFor)):
            binds.extend(n for n in _target_names(cur.target) if n)
        elif isinstance(cur, ast.withitem) and cur.optional_vars is not None:
            binds.extend(n for n in _target_names(cur.optional_vars) if n)
        elif isinstance(cur, ast.ExceptHandler) and cur.name:
            binds.append(cur.name)
        elif isinstance(cur, ast.NamedExpr) and isinstance(cur.target, ast.Name):
            binds.append(cur.target.id)
    return tuple(dict.fromkeys(binds)), tuple(aliases)


def _module_scope(node: ast.AST):
    """``node`` and everything under it that runs in the module's scope (not inside a def, class or lambda body:
    a nested def or class itself is yielded, its body is not)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if cur is not node and isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(cur))


def _note_external(node, out: SymbolSummary) -> None:
    if isinstance(node, ast.Import):
        mods = [a.name for a in node.names]
    elif node.level == 0 and node.module:
        mods = [node.module]
    else:
        return
    for mod in mods:
        top = mod.split(".")[0]
        if top not in sys.stdlib_module_names and mod not in _NO_EFFECT_MODULES:
            out.external_imports.add(top)


def _target_names(target) -> list[str | None]:
    """Names bound by an assignment target; None for an attribute or item store."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return [None]


def _pure(node, assume: frozenset[str] = frozenset()) -> bool:
    """True when evaluating ``node`` at import has no effect worth keeping (literals, names, attributes,
    subscripts such as ``Optional[int]``, operators, lambdas, f-strings, a string literal's methods such as
    ``"|".join(names)``, and a few known constructors); ``assume``: more calls (dotted, as written) to count as
    pure."""
    def pure(sub) -> bool:
        return _pure(sub, assume)

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
    if isinstance(node, ast.JoinedStr):
        return all(pure(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return pure(node.value) and (node.format_spec is None or pure(node.format_spec))
    if isinstance(node, ast.Call):
        func = node.func
        known = (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant)
                 and isinstance(func.value.value, str)) or _dotted(func) in PURE_CALLS or _dotted(func) in assume
        return known and all(pure(a) for a in node.args) and all(pure(k.value) for k in node.keywords)
    return False


def _calls(node) -> tuple[str, ...]:
    """The calls (dotted, as written) that make ``node`` impure, when declaring them pure would make it pure;
    else ("?",): something else runs (a comprehension, a call of a call)."""
    names = tuple(sorted({_dotted(c.func) or "?" for c in ast.walk(node) if isinstance(c, ast.Call)}))
    return names if "?" not in names and _pure(node, frozenset(names)) else ("?",)


def _never_runs(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` or ``if False:`` (what a fold leaves when the arm binds names code after it
    still mentions), without an else or with a harmless one: its body never runs when the module is imported."""
    if not isinstance(node, ast.If) or not all(_harmless(s) for s in node.orelse):
        return False
    test = node.test
    if isinstance(test, ast.Constant):
        return not test.value
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) \
        and test.left.id == "__name__" and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__"


def _type_only(node: ast.stmt) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:`` / ``if False:`` without an else: only type checkers
    read what it imports."""
    if not isinstance(node, ast.If) or node.orelse:
        return False
    test = node.test
    return (isinstance(test, ast.Constant) and test.value is False) or _dotted(test) in ("TYPE_CHECKING",
                                                                                        "typing.TYPE_CHECKING")


def _harmless(node: ast.stmt) -> bool:
    """A compound statement whose running at import changes nothing outside its own bindings."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(sub, ast.Expr) and not isinstance(sub.value, ast.Constant):
            return False
        if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            if None in [n for t in targets for n in _target_names(t)]:
                return False
        if isinstance(sub, (ast.With, ast.AsyncWith, ast.Delete, ast.Raise, ast.Global)):
            return False
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub.decorator_list:
            return False
    return True


def _chain(node) -> tuple[str, ...] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return tuple([node.id] + parts[::-1])
    return None


def _dotted(node) -> str | None:
    chain = _chain(node)
    return ".".join(chain) if chain else None


def _text(node) -> str:
    text = ast.unparse(node).splitlines()[0] if not isinstance(node, ast.stmt) else ast.unparse(node).splitlines()[0]
    return text if len(text) <= 80 else text[:77] + "..."


def _literal_strings(value) -> list[str] | None:
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        strings = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return strings if len(strings) == len(value.elts) else None
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = _literal_strings(value.left), _literal_strings(value.right)
        return None if left is None or right is None else left + right
    return None
