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

from slimfork.index.metaclass_guard import silent_metaclass_classes
from slimfork.index.namespace_metaclass import namespace_only_metaclasses
from slimfork.index.methods import method_usage
from slimfork.index.module_getattr import getattr_answers, module_tables
from slimfork.index.purity import PURE_CALLS, PURE_DECORATORS, dotted_name, harmless, impure_calls, is_pure, \
    is_type_only, module_spellings, never_runs, own_attribute, own_item, plain_functions, short_text, target_names, \
    typing_aliases
from slimfork.index.symbol_model import ImportAlias, SymbolSummary, TopStatement
from slimfork.index.open_names import imports_by_name, own_built_names, relative_literals
from slimfork.index.own_names import assigned_values, derived_names
from slimfork.index.pure_classes import pure_classes
from slimfork.index.symbol_refs import StatementRefs, attr_chain, import_aliases
from slimfork.index.tagging_decorators import tags_only
from slimfork.index.walk import walk

__all__ = ["PURE_CALLS", "PURE_DECORATORS", "ImportAlias", "SymbolSummary", "TopStatement", "symbol_summary"]

_NO_EFFECT_MODULES = frozenset({"__future__", "typing", "typing_extensions", "collections.abc"})


def symbol_summary(tree: ast.Module) -> SymbolSummary:
    """The symbol part of a file's summary (``index.parse.summarize`` parses the file)."""
    out = SymbolSummary()
    own: set[str] = set()  # module-level names bound to a literal display or comprehension of this module
    derived = derived_names(tree)  # _PKG = __name__.rsplit(".", 1)[0]: f"{_PKG}._{v}.ops" names modules
    classes, out.pure_classes = pure_classes(tree)  # SECTIONS = [Section("Args")]: this module's plain classes
    silent = silent_metaclass_classes(tree)  # YAMLObject: its metaclass's guard is false for its own body
    spelled = module_spellings(tree)  # import typing as t: t.TypeVar, t.overload
    typing_names = typing_aliases(tree)  # import typing as _t: if _t.TYPE_CHECKING:
    functions = plain_functions(tree)  # ceil._argcount = 1: an attribute of the module's own function
    rewriting = namespace_only_metaclasses(tree)  # a metaclass that only renames the new class's attributes
    tables = assigned_values(tree)  # make_getattr(package=__package__, table=_TABLE): the table's relative names
    for i, node in enumerate(tree.body):
        out.statements.append(_statement(i, node, out, frozenset(own), derived, classes[i] | spelled, i in silent,
                                         typing_names, functions, rewriting, tables))
        _track_own(node, own)
    if imports_by_name(tree):  # TOOL = ".backends.fast" for a child's import_module: names the module whole
        for name, line in relative_literals(tree) + own_built_names(tree, None):
            for st in out.statements:
                if st.line <= line <= st.end:
                    st.strings.add(name)
    _module_flags(tree, out)
    out.methods = method_usage(tree)
    return out


_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def _track_own(node: ast.stmt, own: set[str]) -> None:
    """Names the statement binds leave ``own`` unless it binds one name to a new dict, list or set."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and (isinstance(node.value, _DISPLAYS) or _copied(node.value)):
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




def _copied(value) -> bool:
    """``list(TABLE)``: a new list, dict or set of the builtins, from a value that calls nothing."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _COPIES \
        and is_pure(value)  # its statement is then a plain assignment, kept only with the name


_COPIES = frozenset({"list", "dict", "set", "sorted"})
# In-place methods of a list, dict or set: called on the module's own container, they change nothing else.
_IN_PLACE = frozenset({"sort", "reverse", "append", "extend", "insert", "remove", "update", "add", "discard",
                       "setdefault"})


def _own_method_call(node: ast.stmt, own: frozenset[str]) -> str | None:
    """``PROVIDED.sort()`` at module level, ``PROVIDED`` the module's own new container (python-barcode's
    ``PROVIDED_BARCODES = list(__BARCODE_MAP)``), the arguments calling nothing: the name it changes, else None."""
    call = node.value if isinstance(node, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _IN_PLACE \
            and isinstance(call.func.value, ast.Name) and call.func.value.id in own \
            and all(is_pure(a) and not impure_calls(a) for a in [*call.args, *(k.value for k in call.keywords)]):
        return call.func.value.id
    return None


def _fills(value, own: frozenset[str]) -> bool:
    """A value that runs no code of another object: pure without calls, or a comprehension over this module's own
    tables (``{c: T[8][c] for c in T[8]}``) whose parts are."""
    if isinstance(value, (ast.DictComp, ast.ListComp, ast.SetComp)):
        parts = [value.key, value.value] if isinstance(value, ast.DictComp) else [value.elt]
        for gen in value.generators:
            if gen.is_async or not (own_item(gen.iter, own) or isinstance(gen.iter, ast.Name) and gen.iter.id in own):
                return False
            parts += gen.ifs
        return all(_fills(p, own) for p in parts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "copy" \
            and not value.args and not value.keywords:
        return own_item(value.func.value, own) is not None  # TABLE[10].copy()
    return is_pure(value) and not impure_calls(value)


def _statement(i: int, node: ast.stmt, out: SymbolSummary, own: frozenset[str] = frozenset(),
               derived: dict[str, str] | None = None, assume: frozenset[str] = frozenset(),
               silent_metaclass: bool = False, typing_names: frozenset[str] = frozenset(),
               functions: frozenset[str] = frozenset(), rewriting: frozenset[str] = frozenset(),
               tables: dict[str, ast.expr] | None = None) -> TopStatement:
    """``assume``: the calls known pure here (this module's plain classes defined above, and its spellings of the
    known pure calls and decorators: ``t.TypeVar``); ``rewriting``: its metaclasses that only rewrite the class
    they make (index/namespace_metaclass.py)."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    st = TopStatement(i, first, node.end_lineno or node.lineno, "other")
    refs = StatementRefs(st, derived or {}, tables)
    refs.visit(node)
    st.walks = _subclass_walks(node)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        st.kind, st.binds = ("class" if isinstance(node, ast.ClassDef) else "def"), (node.name,)
        impure = [d for d in node.decorator_list if (name := dotted_name(d.func if isinstance(d, ast.Call) else d))
                  not in PURE_DECORATORS and name not in assume]
        if impure:
            st.keep = f"decorated by @{short_text(impure[0])}, which may register it"
            st.effect = st.keep
            st.decorators = tuple(attr_chain(d.func if isinstance(d, ast.Call) else d) or ("?",) for d in impure)
        st.tags_only = tags_only(node)
        if isinstance(node, ast.ClassDef):
            chains = [attr_chain(b.value if isinstance(b, ast.Subscript) else b) for b in node.bases]  # Generic[T]
            st.bases = tuple(c for c in chains if c)
            st.bases_known = all(chains) and not any(k.arg for k in node.keywords if k.arg != "metaclass")
            meta = [k for k in node.keywords if k.arg == "metaclass"]
            registering = meta and dotted_name(meta[0].value) not in ("ABCMeta", "abc.ABCMeta", "type", *rewriting)
            if registering and not silent_metaclass:  # a false guard on its own body registers nothing;
                # its subclasses still may (hook below)
                st.keep = st.effect = f"its metaclass {short_text(meta[0].value)} may register it"
            st.hook = bool(registering) or any(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))
                                               and b.name == "__init_subclass__" for b in node.body)
            st.set_name = any(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.name == "__set_name__"
                              for b in node.body)
            st.body_calls = _definition_calls(node)
        if node.name.startswith("__") and node.name.endswith("__"):
            st.keep = st.keep or f"module hook {node.name}"
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        st.kind = "import"
        st.aliases = tuple(import_aliases(node))
        st.binds = tuple(a.bound for a in st.aliases if a.bound != "*")
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            st.keep = "a __future__ import"
        # a star import stays while a consumer uses a name it binds, or the module keeps everything
        # (graph.symbols: star_needed; a star import of a module the tree does not analyse always stays)
        _note_external(node, out)
    elif isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [n for t in targets for n in target_names(t)]
        st.binds = tuple(dict.fromkeys(n for n in names if n))
        items = [own_item(t, own) or own_attribute(t, functions) for t in targets
                 if not isinstance(t, (ast.Name, ast.Tuple, ast.List))]
        if items and all(items) and not st.binds and _fills(node.value, own):
            st.kind, st.binds = "assign", tuple(dict.fromkeys(n for n in items if n))  # fills its own table or
            # function: stays with it (lang_FI's KOTUS_TYPE[108] = {...}, pydash's ceil._argcount = 1)
        elif None in names or not st.binds:
            st.keep = st.effect = "assigns to an attribute or item (may change another object)"
        elif node.value is None:
            st.keep = "an annotation without a value"
        elif not is_pure(node.value, assume):
            st.keep = st.effect = "its value runs code at import (a call)"
            st.calls = impure_calls(node.value)
        else:
            st.kind = "assign"
            if len(targets) == 1 and isinstance(targets[0], ast.Name):  # RemapDict = dict_: an alias of a name
                st.value_chain = attr_chain(node.value) or ()
        if any(n.startswith("__") and n.endswith("__") for n in st.binds):
            st.keep = st.keep or "a module dunder"
    elif changed := _own_method_call(node, own):
        st.kind, st.binds = "assign", (changed,)  # PROVIDED.sort(): changes its own list only, stays with it
    else:
        st.keep = "runs at import"
        st.binds, st.aliases = _nested_bindings(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            st.keep = "a docstring or constant"
            st.doctest = bool(st.names or st.chains or st.inner_imports)
        elif not harmless(node, own, assume) and not never_runs(node):
            st.effect = short_text(node)
        st.type_only = is_type_only(node, typing_names)
        if isinstance(node, ast.Delete) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            st.deletes = node.targets[0].id  # `del _hush_pyflakes`: tied to the binding (prune.inputs)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Name):
            st.deletes = node.value.id  # a bare `File` (for Sphinx): reads nothing but the name, tied to it too
        for sub in () if st.type_only else _module_scope(node):  # a type checker's imports never load anything
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                _note_external(sub, out)
    return st


def _definition_calls(node: ast.ClassDef) -> tuple[tuple[str, ...], ...]:
    """The functions a class body calls when the class is defined (``when = Field()``), as chains: not what its
    methods or lambdas call when they run."""
    out: dict[tuple[str, ...], None] = {}
    stack: list[ast.AST] = list(node.body)
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Call) and (chain := attr_chain(cur.func)):
            out[chain] = None
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(cur.decorator_list + cur.args.defaults + [d for d in cur.args.kw_defaults if d])
        elif not isinstance(cur, ast.Lambda):
            stack.extend(ast.iter_child_nodes(cur))
    return tuple(out)


def _subclass_walks(node: ast.stmt) -> set[tuple[str, ...]]:
    """The classes whose subclasses the statement enumerates: ``X.__subclasses__()``, ``type.__subclasses__(X)``
    (X's chain; ``()`` where X is computed: ``cls`` of a helper, ``type(self)``)."""
    out: set[tuple[str, ...]] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == "__subclasses__":
            target = sub.value
            if dotted_name(target) == "type" and isinstance(call := _parent_call(node, sub), ast.Call) and call.args:
                target = call.args[0]
            out.add(attr_chain(target) or ())
    return out


def _parent_call(root: ast.AST, func: ast.AST) -> ast.Call | None:
    return next((c for c in ast.walk(root) if isinstance(c, ast.Call) and c.func is func), None)


# What lets a function look a name up at run time: in a module __getattr__, any of them keeps every name
# (``__name__`` alone names no attribute: the error message's f"module {__name__} has no attribute {name}")
_LOOKUPS = frozenset({"globals", "vars", "locals", "eval", "exec", "getattr", "hasattr", "__import__", "__spec__",
                      "sys", "importlib", "import_module", "inspect", "operator", "attrgetter", "__builtins__",
                      "builtins", "__loader__"})
_LOOKUP_ATTRS = frozenset({"__dict__", "modules", "f_globals", "__globals__", "import_module", "attrgetter",
                           "getmembers", "currentframe", "_getframe", "f_back"})


def _answers_by_name(node: ast.FunctionDef | ast.AsyncFunctionDef, tables: dict[str, frozenset[str]]) -> bool:
    """A module ``__getattr__`` whose answers are names it writes out (jsonschema's: ``if name == "ErrorTree":
    ... return ErrorTree``): it reads no namespace, no module object, no name built at run time, so it needs only
    what it names, and keeps only that (it is a module hook: it stays). One that could look any name up
    (``globals()[name]``, ``getattr(mod, name)``, ``import_module(...)``, ``sys.modules``, ``__spec__``, a frame)
    keeps every name as before (pitfall 16)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in _LOOKUPS:
            return False
        if isinstance(sub, ast.Attribute) and sub.attr in _LOOKUP_ATTRS:
            return False
        if isinstance(sub, (ast.Import, ast.ImportFrom)) and any(
                (a.name.split(".")[0] if isinstance(sub, ast.Import) else a.name) in _LOOKUPS | {"*"}
                for a in sub.names) or isinstance(sub, (ast.Global, ast.Nonlocal)):
            return False
    return getattr_answers(node, tables) is not None


def _module_flags(tree: ast.Module, out: SymbolSummary) -> None:
    """Module-wide reasons to keep every symbol (pitfalls 11, 13, 16) and the literal ``__all__``."""
    reasons: dict[str, int] = {}
    # __import__(name, globals(), ...) reads only __package__/__name__ from it, to resolve a relative name
    context = {id(arg) for node in walk(tree) if isinstance(node, ast.Call)
               and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "__import__"
               for arg in node.args[1:2]}
    context |= _storing_globals(tree) | _own_namespace_evals(tree) | _all_lookups(tree)
    for i, top in enumerate(tree.body):  # exec("raise E, msg, tb"): reads only the names its text holds
        for call, words in _literal_code(top):
            context.add(call)
            out.statements[i].names |= words
    for i, top in enumerate(tree.body):  # for name, value in globals().items(): if name.startswith("P"): ...
        for call, prefix, line in _prefix_scans(top):
            context.add(call)
            out.statements[i].own_lookups.add((prefix, line))
    for node in walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and id(node) not in context:
            name = node.func.id
            if name in ("globals", "eval", "exec") or (name == "vars" and not node.args):
                reasons.setdefault(f"uses {name}()", node.lineno)
        if _is_self_module_object(node):
            # getattr/vars/dir/inspect.getmembers(sys.modules[__name__]), bound to a name, or `.cmd_b` of it
            reasons.setdefault("looks itself up by name (sys.modules[__name__])", getattr(node, "lineno", 0))
        elif isinstance(node, ast.Attribute) and node.attr in ("f_globals", "__globals__"):
            reasons.setdefault(f"reads its globals through .{node.attr}", node.lineno)
        elif isinstance(node, ast.Assign) and any(_replaces_self(t) for t in node.targets):
            reasons.setdefault("replaces itself or its class in sys.modules (its names are looked up at run time)",
                               node.lineno)
    tables = module_tables(tree)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__getattr__" \
                and _answers_by_name(node, tables):
            out.getattr_answers = getattr_answers(node, tables)  # (tests stage, import check: the names it answers)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ("__getattr__", "__dir__"):
            reasons.setdefault(f"defines a module-level {node.name} (lazy names)", node.lineno)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for sub in _module_scope(node):  # at module level, locals() is globals() (pitfall 13)
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "locals" \
                        and id(sub) not in context:
                    reasons.setdefault("uses locals() at module level", sub.lineno)
    all_nodes = [n for n in walk(tree) if isinstance(n, ast.Name) and n.id == "__all__"]
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
    looped = {id(n.iter) for n in walk(tree) if isinstance(n, (ast.For, ast.comprehension))}
    all_nodes = [n for n in all_nodes if id(n) not in looped]  # `for name in __all__:` only reads it
    stores = sum(1 for n in all_nodes if isinstance(n.ctx, ast.Store))
    top_stores = sum(1 for node in tree.body for t in (node.targets if isinstance(node, ast.Assign) else
                     [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
                     if isinstance(t, ast.Name) and t.id == "__all__")
    if not literal or stores != top_stores or len(all_nodes) != stores:  # extend(), conditions, loops (pitfall 11)
        reasons.setdefault("builds __all__ at run time", 0)
    _set_keep_all(out, reasons)


def _storing_globals(tree: ast.Module) -> set[int]:
    """``globals()`` calls that only bind names, never read one: ``globals()[name] = value``, or a function's
    ``glob = globals()`` whose every other use is ``glob[key] = value`` (mido's ``set_backend``). Binding a name at
    run time needs none of the module's names kept (a statically bound one it replaces may go: no reader of the
    fork's names reads it)."""
    out: set[int] = set()

    def is_globals(node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "globals" \
            and not node.args and not node.keywords

    for node in walk(tree):
        if isinstance(node, ast.Assign):
            out |= {id(t.value) for t in node.targets if isinstance(t, ast.Subscript) and is_globals(t.value)}
    for func in walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        binds = [st for st in walk(func) if isinstance(st, ast.Assign) and len(st.targets) == 1
                 and isinstance(st.targets[0], ast.Name) and is_globals(st.value)]
        for bind in binds:
            name = bind.targets[0].id  # type: ignore[attr-defined]
            stores = {id(t.value) for st in walk(func) if isinstance(st, ast.Assign) for t in st.targets
                      if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name}
            uses = [n for n in walk(func) if isinstance(n, ast.Name) and n.id == name and n is not bind.targets[0]]
            if len([b for b in binds if b.targets[0].id == name]) == 1 and all(  # type: ignore[attr-defined]
                    id(n) in stores for n in uses) and not any(
                    isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in walk(func)):
                out.add(id(bind.value))
    return out


_CODE_LOOKUPS = frozenset({"globals", "locals", "vars", "eval", "exec", "compile", "getattr", "setattr", "delattr",
                           "__import__", "__dict__", "__builtins__", "sys", "importlib", "__name__", "__spec__",
                           "__loader__", "inspect"})
_CODE_WORD = re.compile(r"[A-Za-z_]\w*")


def _literal_code(top: ast.stmt) -> list[tuple[int, set[str]]]:
    """``exec``/``eval`` of a string literal with no namespace argument (petl's Python 2 fallback ``exec('raise
    ErrorType, new_message, tracebk')``): the code is known, and reads at most the identifiers its text holds
    (whether or not it parses). (id of the call, those identifiers) for each one whose text names no way to look
    a name up by a computed name (``globals``, ``getattr``, ``sys``, ...); such a text, a computed one, or one given
    a namespace keeps every name as before (pitfall 13)."""
    out = []
    for node in ast.walk(top):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("exec", "eval") \
                and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            words = set(_CODE_WORD.findall(node.args[0].value))
            if not words & _CODE_LOOKUPS and not any(w.startswith("__") for w in words):
                out.append((id(node), words))
    return out


def _all_lookups(tree: ast.Module) -> set[int]:
    """``locals()``/``globals()`` calls that only read the names ``__all__`` lists: ``ns = locals()`` bound once at
    module level and read only as ``ns[name]`` inside ``for name in __all__:`` (httpx's ``__init__`` sets each
    exported name's ``__module__``), or ``globals()[name]`` in such a loop. The fork's literal ``__all__`` lists a
    name exactly when the fork keeps it (a pruned name leaves the list; a computed ``__all__`` keeps every name), so
    the loop reads only kept names. The loop variable must not be bound again inside the loop."""
    out: set[int] = set()

    def is_namespace(node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("locals", "globals") and not node.args and not node.keywords

    reads: set[int] = set()  # Subscript values read with the loop variable of a `for name in __all__:` loop
    for loop in walk(tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Name) and loop.iter.id == "__all__"
                and isinstance(loop.target, ast.Name)):
            continue
        var = loop.target.id
        if any(isinstance(n, ast.Name) and n.id == var and not isinstance(n.ctx, ast.Load) and n is not loop.target
               for n in ast.walk(loop)):
            continue
        for sub in ast.walk(loop):
            if isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Load) and isinstance(sub.slice, ast.Name) \
                    and sub.slice.id == var:
                reads.add(id(sub.value))
                if is_namespace(sub.value):
                    out.add(id(sub.value))
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and is_namespace(stmt.value)):
            continue
        name = stmt.targets[0].id
        uses = [n for n in walk(tree) if isinstance(n, ast.Name) and n.id == name and n is not stmt.targets[0]]
        if uses and all(isinstance(n.ctx, ast.Load) and id(n) in reads for n in uses) and not any(
                isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in walk(tree)):
            out.add(id(stmt.value))
    return out


def _prefix_scans(top: ast.stmt) -> list[tuple[int, str, int]]:
    """``for name, value in globals().items(): if name.startswith("MetaSpec_"): ...`` (mido's ``meta.py``): the
    loop reads only the module's names with that prefix. (id of the ``globals()`` call, prefix, line) for each
    loop whose whole body is one ``if`` without ``else`` testing ``name.startswith(literal)`` (alone or first of an
    ``and``), whose variables are used nowhere outside the loop, and that has no ``else``; every other use of
    ``globals()`` keeps every name as before (pitfall 13)."""
    out = []
    for loop in ast.walk(top):
        if not isinstance(loop, ast.For) or loop.orelse or len(loop.body) != 1 \
                or not isinstance(guard := loop.body[0], ast.If) or guard.orelse:
            continue
        it = loop.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "list" and len(it.args) == 1 \
                and not it.keywords:
            it = it.args[0]
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in ("items", "keys")
                and not it.args and not it.keywords and isinstance(g := it.func.value, ast.Call)
                and isinstance(g.func, ast.Name) and g.func.id == "globals" and not g.args and not g.keywords):
            continue
        target = loop.target
        if it.func.attr == "items":
            if not (isinstance(target, ast.Tuple) and len(target.elts) == 2
                    and all(isinstance(e, ast.Name) for e in target.elts)):
                continue
            key = target.elts[0].id  # type: ignore[attr-defined]
        elif isinstance(target, ast.Name):
            key = target.id
        else:
            continue
        test = guard.test.values[0] if isinstance(guard.test, ast.BoolOp) and isinstance(guard.test.op, ast.And) \
            else guard.test
        if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith"
                and isinstance(test.func.value, ast.Name) and test.func.value.id == key and len(test.args) == 1
                and not test.keywords and isinstance(test.args[0], ast.Constant)
                and isinstance(test.args[0].value, str)):
            continue
        bound = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        inside = {id(n) for n in ast.walk(loop)}
        if any(isinstance(n, ast.Name) and n.id in bound and id(n) not in inside for n in ast.walk(top)):
            continue  # after the loop, its variables hold the last name and value, whatever their prefix
        out.append((id(g), test.args[0].value, loop.lineno))
    return out


def _target_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _target_names(e)]
    return _target_names(target.value) if isinstance(target, ast.Starred) else []


def _own_namespace_evals(tree: ast.Module) -> set[int]:
    """``eval``/``exec`` calls given a namespace of their own: a dict made in place (``exec(code, {"a": a})``) or a
    function's local bound only to fresh dicts (cattrs' ``globs = {}`` ... ``eval(compile(script, ...), globs)``).
    The code they run sees that dict, not the module: the names put in it are read where they are put (a
    ``globals()`` among them is a reason of its own)."""
    out: set[int] = set()
    if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("eval", "exec")
               for n in walk(tree)):
        return out

    def fresh(node) -> bool:
        return isinstance(node, (ast.Dict, ast.DictComp)) or isinstance(node, ast.Call) \
            and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args

    for func in [tree, *(n for n in walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        own = [n for n in walk(func) if n is not func and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        inner = {id(x) for f in own for x in walk(f)} if func is not tree else set()
        nodes = [n for n in walk(func) if id(n) not in inner]
        bound: dict[str, bool] = {}  # name -> bound only to fresh dicts in this function
        for node in nodes:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For)) else []
            for t in targets:
                for name in _target_names(t):  # globs[key] = value binds no name
                    ok = isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(t, ast.Name) \
                        and node.value is not None and fresh(node.value)
                    bound[name] = bound.get(name, True) and ok
            if isinstance(node, (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom)):
                for name in getattr(node, "names", ()):
                    bound[name if isinstance(name, str) else (name.asname or name.name)] = False
        if func is tree:  # a function's `global NS` may rebind the module's NS to anything
            for node in walk(tree):
                if isinstance(node, ast.Global):
                    bound.update({name: False for name in node.names})
        elif isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = func.args
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a is not None:
                    bound[a.arg] = False
        for node in nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec") \
                    and len(node.args) >= 2 and not node.keywords:
                space = node.args[1]
                if fresh(space) or isinstance(space, ast.Name) and bound.get(space.id) is True \
                        and (len(node.args) < 3 or fresh(node.args[2]) or isinstance(node.args[2], ast.Name)
                             and bound.get(node.args[2].id) is True):
                    out.add(id(node))
    return out


def _set_keep_all(out: SymbolSummary, reasons: dict[str, int]) -> None:
    out.keep_all = [f"{why} (line {line})" if line else why for why, line in reasons.items()]


def _replaces_self(target: ast.AST) -> bool:
    """``sys.modules[__name__] = ...`` or ``sys.modules[__name__].__class__ = ...``: a module subclass whose
    ``__getattr__`` or properties may read any of the module's names."""
    if isinstance(target, ast.Attribute) and target.attr == "__class__":
        return _is_self_module(target.value)
    return isinstance(target, ast.Subscript) and _is_self_module(target)


def _is_self_module_object(node: ast.AST) -> bool:
    """``sys.modules[__name__]`` or ``sys.modules.get(__name__)`` (loaded, not assigned to)."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return dotted_name(node.value) == "sys.modules" and getattr(node.slice, "id", None) == "__name__"
    return isinstance(node, ast.Call) and dotted_name(node.func) == "sys.modules.get" and bool(node.args) \
        and getattr(node.args[0], "id", None) == "__name__"


def _is_self_module(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "sys.modules" in text and "__name__" in text


def _nested_bindings(node: ast.stmt) -> tuple[tuple[str, ...], tuple[ImportAlias, ...]]:
    """Names a compound statement binds at module level (imports, defs, assignments under if/try/for/with)."""
    binds: list[str] = []
    aliases: list[ImportAlias] = []
    for cur in _module_scope(node):
        if isinstance(cur, (ast.Import, ast.ImportFrom)):
            found = [a._replace(position=len(aliases) + i) for i, a in enumerate(import_aliases(cur))]  # unique in block
            aliases.extend(found)
            binds.extend(a.bound for a in found if a.bound != "*")
        elif isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.append(cur.name)
        elif isinstance(cur, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = cur.targets if isinstance(cur, ast.Assign) else [cur.target]
            binds.extend(n for t in targets for n in target_names(t) if n)
        elif isinstance(cur, (ast.For, ast.AsyncFor)):
            binds.extend(n for n in target_names(cur.target) if n)
        elif isinstance(cur, ast.withitem) and cur.optional_vars is not None:
            binds.extend(n for n in target_names(cur.optional_vars) if n)
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


def _literal_strings(value) -> list[str] | None:
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        strings = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return strings if len(strings) == len(value.elts) else None
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = _literal_strings(value.left), _literal_strings(value.right)
        return None if left is None or right is None else left + right
    return None
