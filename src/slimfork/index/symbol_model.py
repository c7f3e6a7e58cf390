"""The symbol part of a file's summary, as data: each top-level statement (``TopStatement``), the names an import
binds (``ImportAlias``) and the module's ``SymbolSummary``; ``index.symbols`` computes them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from slimfork.index.methods import MethodUsage


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


class PureClass(NamedTuple):
    """A class whose call only stores its arguments (``index.pure_classes``)."""

    statement: int  # its index in the module body
    needs: tuple[str, ...]  # the imported names it derives from, which must be such classes of their modules
    leaf: bool = False  # has a lookup hook (``__getattr__``): no such class derives from it


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
    words: set[str] = field(default_factory=set)  # plain identifiers inside a longer string ("pip install pkg")
    getattrs: set[tuple[tuple[str, ...], str | None]] = field(default_factory=set)  # getattr(a.b, "lit" | computed)
    aliases: tuple[ImportAlias, ...] = ()  # for import statements (nested imports of "other" statements too)
    inner_imports: set[ImportAlias] = field(default_factory=set)  # imports inside a function or class body
    bases: tuple[tuple[str, ...], ...] = ()  # for classes: base classes as chains
    hook: bool = False  # defines __init_subclass__ or has a metaclass: its subclasses may register themselves
    bases_known: bool = True  # for classes: every base is a name or attribute chain (``Base``, ``nn.Module``)
    effect: str | None = None  # what runs at import with effects worth keeping (a call, an attribute store...)
    type_only: bool = False  # an ``if TYPE_CHECKING:`` (or ``if False:``) block without else: its imports never run
    body_calls: tuple[tuple[str, ...], ...] = ()  # for classes: what the body calls when the class is defined
    set_name: bool = False  # for classes: defines __set_name__ (a descriptor told of the class that holds it)
    own_lookups: set[tuple[str, int]] = field(default_factory=set)  # (prefix, line): its own names looked up
    calls: tuple[str, ...] = ()  # for an assignment whose value calls code: the calls (as written), ("?",) if more
    walks: set[tuple[str, ...]] = field(default_factory=set)  # X.__subclasses__() anywhere inside: X's chain, () if
    # X is no name or attribute chain (type(self), a call)
    decorators: tuple[tuple[str, ...], ...] = ()  # for defs and classes: the decorators not known pure, as chains
    tags_only: bool = False  # for a def: a decorator that only sets attributes of what it decorates (or makes one)
    value_chain: tuple[str, ...] = ()  # for ``X = Y`` or ``X = mod.Y`` (one name bound to a name): Y's chain
    deletes: str | None = None  # a top-level ``del NAME`` of one name, or a bare ``NAME`` statement: the name
    doctest: bool = False  # a string statement (a docstring) whose ``>>>`` examples use names: they run only once
    # kept code loads the module (graph.symbols)
    # names read off a module imported by a computed name (``import_module(f.__module__).gen_config``): any
    # module's binding of such a name may be the one read
    anywhere: set[str] = field(default_factory=set)
    anywhere_lookups: set[str] = field(default_factory=set)  # of those, the ones a computed name is looked up on
    # (``getattr(pkg.helpers, name)`` with ``pkg = sys.modules[...]``): every name of what binds it stays


@dataclass
class SymbolSummary:
    statements: list[TopStatement] = field(default_factory=list)
    keep_all: list[str] = field(default_factory=list)  # why every statement of the module stays
    all_names: list[str] | None = None
    error: str | None = None
    external_imports: set[str] = field(default_factory=set)  # top-level third-party modules imported eagerly
    getattr_answers: frozenset[str] | None = None  # the names a module __getattr__ writing them out may answer
    methods: MethodUsage | None = None  # methods (dunders aside), and the identifiers that may name one
    # classes whose call only stores its arguments if the imported bases they name are such classes too
    pure_classes: dict[str, PureClass] = field(default_factory=dict)

    def binders(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for st in self.statements:
            for name in st.binds:
                out.setdefault(name, []).append(st.index)
        return out
