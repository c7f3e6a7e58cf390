"""Dynamic imports in one parsed file: ``importlib.import_module``/``__import__`` calls and the module names each may
load (literals, f-strings over loops of literals, module-level tables of names, prefixes)."""

from __future__ import annotations

import ast
import re
from collections import Counter

from slimfork.index.built_names import built_names
from slimfork.index.import_aliases import import_aliases, through_alias
from slimfork.index.membership_guards import guarded_values
from slimfork.index.own_expr import module_bindings, own_expression
from slimfork.index.own_names import derived_names, flat_pieces, own_name, own_submodule
from slimfork.index.str_build import as_fstring
from slimfork.index.symbol_refs import returned_module
from slimfork.index.summary import RUNTIME_PACKAGE, DynamicImport, ImportEdge, ModuleSummary
from slimfork.index.walk import walk


def literal_strings(value) -> list[str] | None:
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        out = []
        for elt in value.elts:
            if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                out.append(elt.value)
            else:
                return None
        return out
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = literal_strings(value.left), literal_strings(value.right)
        return None if left is None or right is None else left + right
    return None


def unparse(node) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 120 else text[:117] + "..."


# Functions that import "pkg.mod:attr" or "pkg.mod.Attr" by name (pkgutil, werkzeug and django, tornado, scrapy).
RESOLVERS = ("resolve_name", "import_string", "import_object", "load_object")


def scan_calls(tree: ast.Module, summary: ModuleSummary) -> None:
    loops, attribute_loops = _loop_values(tree), _attribute_loops(tree)
    consts = module_constants(tree)
    tables = _table_values(tree, consts)
    guards = guarded_values(tree)
    local = _local_names(tree)
    assigned = _assigned_once(tree)
    feeding = _feeding_literals(tree)
    param_defaults = _param_defaults(tree)
    read_off = {id(node.value): node.attr for node in walk(tree)
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call)}
    aliases = import_aliases(tree)
    lazy = lazy_getattr_calls(tree)
    bindings, derived = module_bindings(tree), derived_names(tree)
    for written in walk(tree):
        if not isinstance(written, ast.Call):
            continue
        key, node = id(written), through_alias(written, aliases)
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name in _KEYWORD_NAMES and not node.args:  # import_module(name=".impl", package=__package__)
            node = _positional(node, _KEYWORD_NAMES[name])
        if name in ("import_module", "__import__", "run_module", "find_spec") and node.args:
            visible = {k: v for k, v in consts.items() if k not in local.get(key, ())}
            call, local_values = node, assigned.get(key, {})
            if any(isinstance(a, ast.Name) and a.id in local_values for a in node.args[:2]):
                # module_name = ".x_{}".format(p); package, name = __package__, ".backends.fast"
                call = ast.Call(node.func, [local_values.get(a.id, a) if isinstance(a, ast.Name) and k < 2 else a
                                            for k, a in enumerate(node.args)], node.keywords,
                                lineno=node.lineno, col_offset=node.col_offset)
            variables = {**guards.get(key, {}), **tables.get(key, {}), **loops.get(key, {})}
            bound = {**{k: v for k, v in bindings.items() if k not in local.get(key, ())}, **assigned.get(key, {})}
            found = dynamic_imports(call, name, variables, visible, param_defaults.get(key),
                                    attribute_loops.get(key, {}), bound, derived)
            if any(d.target is None and not d.attribute for d in found) and (built := built_names(tree)):
                found = [d._replace(built=built) if d.target is None and not d.attribute else d for d in found]
            if name != "__import__" and any(d.target is None for d in found):  # spec.partition(":")[0] of a default
                fed = tuple(feeding.get(key, ()))
                found = [d._replace(defaults=fed) if d.target is None else d for d in found]
            if name == "run_module":  # runpy.run_module(f"pkg.tasks.{name}"): a package runs its __main__
                found += [d._replace(target=f"{d.target}.__main__") for d in found if d.target and not d.prefix]
            if name == "find_spec":  # exec_module(module_from_spec(find_spec(f"{__package__}.plugins.{n}"))): what
                found = [d for d in found if d.target is not None]  # it may name; an entirely computed name (a
                # finder's fullname, an optional dependency's probe) keeps nothing
            if key in lazy:  # def __getattr__(name): import_module(_NAMES[name][::-1])
                found = [d._replace(lazy=True) if d.target is None and not d.attribute else d for d in found]
            if key in read_off and returned_module(node):
                found = [d._replace(reads=(read_off[key],)) if d.target and not d.prefix else d for d in found]
            summary.dynamic_imports.extend(found)
            if name == "__import__":
                summary.imports.extend(_fromlist(node, bound))
                summary.dynamic_imports.extend(_computed_fromlist(node, found, bound))
        elif name in ("attach", "attach_stub") and node.args and isinstance(node.args[0], ast.Name) \
                and node.args[0].id == "__name__":
            summary.dynamic_imports.extend(_lazy_loader(node, name))
        elif node.args and (name in RESOLVERS or ast.unparse(func) == "pydoc.locate") \
                and not isinstance(node.args[0], ast.Constant):  # a literal "pkg.mod:attr" is a string edge
            prefix = _string_prefix(node.args[0]).split(":", 1)[0]
            summary.dynamic_imports.append(DynamicImport(node.lineno, unparse(node), prefix or None, True, None))


_KEYWORD_NAMES = {"import_module": ("name", "package"), "find_spec": ("name", "package"), "run_module": ("mod_name",)}


def _positional(call: ast.Call, names: tuple[str, ...]) -> ast.Call:
    """The call with its leading arguments given by keyword (``name=``, ``package=``, or a ``**`` dict literal
    holding them: ``import_module(**{"name": ".x", "package": __package__})``) made positional."""
    plain: list[ast.keyword] = []
    for k in call.keywords:
        keys = k.value.keys if k.arg is None and isinstance(k.value, ast.Dict) else []
        if keys and all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in keys):
            assert isinstance(k.value, ast.Dict)
            plain += [ast.keyword(str(key.value), value) for key, value in zip(keys, k.value.values)
                      if isinstance(key, ast.Constant)]
        else:
            plain.append(k)
    given = {k.arg: k.value for k in plain}
    args = []
    for name in names:
        if name not in given:
            break
        args.append(given.pop(name))
    keywords = [k for k in plain if k.arg in given]
    return ast.Call(call.func, args, keywords, lineno=call.lineno, col_offset=call.col_offset)


def lazy_getattr_calls(tree: ast.Module) -> set[int]:
    """The ids of the calls in a module ``__getattr__`` (PEP 562: a module-level function; or the method of a class
    deriving from ``ModuleType``, set as the module's class) and in the module-level functions it calls, directly
    or through others: what a lazy attribute of the module runs."""
    functions = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    todo = [functions["__getattr__"]] if "__getattr__" in functions else []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("ModuleType") for b in node.bases):
            todo += [f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and f.name in ("__getattr__", "__getattribute__")]
    seen: set[int] = set()
    calls: set[int] = set()
    while todo:
        function = todo.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        for sub in walk(function):
            if isinstance(sub, ast.Call):
                calls.add(id(sub))
                if isinstance(sub.func, ast.Name) and sub.func.id in functions:
                    todo.append(functions[sub.func.id])
    return calls


def _fromlist_names(call: ast.Call, bound: dict[str, ast.expr] | None) -> ast.expr | None:
    """The ``fromlist`` argument, a name bound once to a literal read as that literal (``fromlist=NAMES``)."""
    names = call.args[3] if len(call.args) > 3 else next((k.value for k in call.keywords if k.arg == "fromlist"), None)
    if isinstance(names, ast.Name) and bound and names.id in bound:
        return bound[names.id]
    return names


def _computed_fromlist(call: ast.Call, found: list[DynamicImport],
                       bound: dict[str, ast.expr] | None = None) -> list[DynamicImport]:
    """``__import__(f"{__package__}.sub", fromlist=["x"])``: each entry may be a submodule of the one name the
    call computes (its own package's), loaded as ``from pkg.sub import x`` would; so with a literal name
    (``__import__("pkg.plugins", globals(), locals(), ["alpha"]).alpha.VALUE``): a submodule imported by name, read
    whole (session 43: its names were pruned, no binding showing their reads). A fromlist computed at run time
    may name any submodule: every module under the name stays (session 45: ``fromlist=names`` kept none)."""
    names = _fromlist_names(call, bound)
    entries = literal_strings(names) if names is not None else None
    if names is not None and entries is None and not _empty(names):
        return [DynamicImport(d.line, d.text, f"{d.target}.", True, d.package) for d in found
                if d.target and not d.prefix and not d.target.startswith(".")]
    if not entries:
        return []
    return [d._replace(target=f"{d.target}.{e}") for d in found if d.target and not d.prefix
            and not d.target.startswith(".") for e in entries if e.isidentifier()]


def _empty(node: ast.expr) -> bool:
    """``fromlist=None``, ``()``, ``[]``: no submodule loads."""
    return isinstance(node, ast.Constant) and not node.value or isinstance(node, (ast.List, ast.Tuple)) \
        and not node.elts


def _fromlist(call: ast.Call, bound: dict[str, ast.expr] | None = None) -> list[ImportEdge]:
    """``__import__("pkg.plug", fromlist=["leaf"])`` loads ``pkg.plug.leaf`` when it is a submodule, as
    ``from pkg.plug import leaf`` does."""
    module = call.args[0]
    names = _fromlist_names(call, bound)
    entries = literal_strings(names) if names is not None else None
    if not entries or not (isinstance(module, ast.Constant) and isinstance(module.value, str)) or len(call.args) > 4 \
            or any(k.arg == "level" for k in call.keywords):
        return []
    return [ImportEdge(module.value, 0, tuple(e for e in entries if e.isidentifier()), call.lineno, "from",
                       "function")]


def run_flags(tree: ast.Module) -> list[DynamicImport]:
    """``[sys.executable, "-m", f"pkg.jobs.{job}"]``: a module computed at run time runs as a program; its literal
    start keeps every module under it (a literal name is a string edge, index/imports.py)."""
    out = []
    for node in walk(tree):
        if isinstance(node, (ast.List, ast.Tuple)):
            for flag, name in zip(node.elts, node.elts[1:]):
                if isinstance(flag, ast.Constant) and flag.value == "-m" and isinstance(name, (ast.JoinedStr, ast.BinOp)):
                    prefix = _string_prefix(name)
                    out.append(DynamicImport(name.lineno, unparse(node), prefix or None, True, None))
                elif isinstance(flag, ast.Constant) and flag.value == "-m" and (own := own_name(name)) is not None:
                    # [sys.executable, "-m", __package__]: the package runs its __main__
                    out.append(DynamicImport(name.lineno, unparse(node), own, False, None))
                    if own != "{__name__}":
                        out.append(DynamicImport(name.lineno, unparse(node), own + ".__main__", False, None))
    return out


def _lazy_loader(node: ast.Call, name: str) -> list[DynamicImport]:
    """lazy_loader's ``attach(__name__, submodules=[...], submod_attrs={...})``: each submodule it names, imported
    relative to the package on first use; ``attach_stub(__name__, __file__)`` (the names are in the ``.pyi``) or
    names not written as literals: every module of the package."""
    text = unparse(node)
    args = {kw.arg: kw.value for kw in node.keywords}
    args.update(zip(("submodules", "submod_attrs"), node.args[1:]))
    subs = literal_strings(args["submodules"]) if "submodules" in args else []
    attrs = args.get("submod_attrs")
    keys: list[str | None] = [k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None
                              for k in attrs.keys] if isinstance(attrs, ast.Dict) else [] if attrs is None else [None]
    names = [*(subs or []), *keys]
    if name == "attach_stub" or subs is None or None in names:
        return [DynamicImport(node.lineno, text, None, False, "{__name__}")]
    return [DynamicImport(node.lineno, text, f".{sub}", False, "{__name__}") for sub in dict.fromkeys(names)]


def _assigned_once(tree: ast.AST) -> dict[int, dict[str, ast.expr]]:
    """For each call inside a function: the function's local names bound exactly once, by a plain ``name = value``
    (no other store, no parameter of that name), with their value."""
    out: dict[int, dict[str, ast.expr]] = {}
    for func in walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = func.args
        params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        nodes = list(ast.walk(func))
        stores: dict[str, int] = {}
        for node in nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                stores[node.id] = stores.get(node.id, 0) + 1
        values = {n.targets[0].id: n.value for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name)}
        for n in nodes:  # package, name = __package__, ".backends.fast": each name its own value
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple) \
                    and isinstance(n.value, ast.Tuple) and len(n.targets[0].elts) == len(n.value.elts) \
                    and not any(isinstance(e, ast.Starred) for e in n.value.elts):
                values.update({t.id: v for t, v in zip(n.targets[0].elts, n.value.elts) if isinstance(t, ast.Name)})
        once = {k: v for k, v in values.items() if stores.get(k) == 1 and k not in params}
        for node in nodes:
            if isinstance(node, ast.Call):
                out[id(node)] = once  # an inner function (walked later) replaces it with its own
    return out


def _param_defaults(tree: ast.AST) -> dict[int, dict[str, str]]:
    """For each call inside a function: the function's parameters whose default is a string literal."""
    out: dict[int, dict[str, str]] = {}
    for func in walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = func.args
        positional = args.posonlyargs + args.args
        pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        found = {a.arg: d.value for a, d in pairs if isinstance(d, ast.Constant) and isinstance(d.value, str)}
        if found:
            for node in ast.walk(func):
                if isinstance(node, ast.Call):
                    out[id(node)] = found
    return out


def _feeding_literals(tree: ast.AST) -> dict[int, list[str]]:
    """For each call inside a function: the dotted literals its first argument is derived from, through the
    function's assignments (``spec = os.environ.get("X", "pkg.basic:Engine")``, ``mod, _, attr =
    spec.partition(":")``): the module part of each ("pkg.basic")."""
    out: dict[int, list[str]] = {}
    for func in walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        sources: dict[str, list[ast.expr]] = {}
        for node in ast.walk(func):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    for n in ast.walk(target):
                        if isinstance(n, ast.Name):
                            sources.setdefault(n.id, []).append(node.value)
        for call in ast.walk(func):
            if isinstance(call, ast.Call) and call.args:
                found = _literals_of(call.args[0], sources)
                if found:
                    out[id(call)] = found
    return out


def _literals_of(expr: ast.expr, sources: dict[str, list[ast.expr]]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    todo = [expr]
    while todo and len(seen) < 20:
        for node in ast.walk(todo.pop()):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                head = node.value.split(":", 1)[0]
                if re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", head):
                    out.append(head)
            elif isinstance(node, ast.Name) and node.id not in seen:
                seen.add(node.id)
                todo += sources.get(node.id, [])
    return list(dict.fromkeys(out))


def _local_names(tree: ast.AST) -> dict[int, set[str]]:
    """For each call inside a function: the names the enclosing functions bind (parameters, assignments), which
    hide module-level constants of the same name."""
    out: dict[int, set[str]] = {}
    for func in walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        args = func.args
        names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        nodes = list(ast.walk(func))
        names |= {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for node in nodes:
            if isinstance(node, ast.Call):
                out.setdefault(id(node), set()).update(names)
    return out


def _loop_values(tree: ast.Module) -> dict[int, dict[str, list[str]]]:
    """For calls inside ``for VAR in SEQ`` where SEQ is a literal sequence of strings or a module-level name
    bound once to one (``_GROUPS = ("activation", ...)``): call id -> {VAR: the strings}."""
    sequences: dict[str, list[str] | None] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found = literal_strings(stmt.value) if stmt.value is not None else None
                    sequences[target.id] = found if target.id not in sequences else None  # bound twice: unknown
    out: dict[int, dict[str, list[str]]] = {}
    for loop in walk(tree):
        body: list[ast.AST]
        if isinstance(loop, ast.For):
            pairs, body = [(loop.target, loop.iter)], list(loop.body)
        elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            pairs = [(g.target, g.iter) for g in loop.generators]
            body = [loop.elt] if not isinstance(loop, ast.DictComp) else [loop.key, loop.value]
        else:
            continue
        for target, iterable in pairs:
            if not isinstance(target, ast.Name):
                continue
            values = literal_strings(iterable)
            if values is None and isinstance(iterable, ast.Name):
                values = sequences.get(iterable.id)
            if not values:
                continue
            for part in body:
                for sub in ast.walk(part):
                    if isinstance(sub, ast.Call):
                        out.setdefault(id(sub), {})[target.id] = values
    return out


def _table_values(tree: ast.Module, consts: dict[str, list[str]]) -> dict[int, dict[str, list[str]]]:
    """For calls inside a function that binds a local once from a module-level table of names (``module, _, attr =
    _EXPORTS[name].partition(":")``, ``module = _LAZY.get(name)``): call id -> {local: the values (their part)}."""
    out: dict[int, dict[str, list[str]]] = {}
    for func in walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        found: dict[str, list[str]] = {}
        stores = Counter(n.id for n in ast.walk(func) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
        params = {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)}
        for node in ast.walk(func):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target, value, part = node.targets[0], node.value, None
            call = value if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) else None
            sep = call.args[0] if call is not None and len(call.args) == 1 and not call.keywords else None
            if call is not None and isinstance(call.func, ast.Attribute) and isinstance(sep, ast.Constant) \
                    and call.func.attr in ("partition", "rpartition") and isinstance(sep.value, str) \
                    and isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
                part, value, target = (call.func.attr, sep.value), call.func.value, target.elts[0]
            values = _candidate_strings(value, {}, consts) if isinstance(value, (ast.Subscript, ast.Call)) else None
            if values and isinstance(target, ast.Name) and stores[target.id] == 1 and target.id not in params:
                found[target.id] = [getattr(v, part[0])(part[1])[0] if part else v for v in values]
        if found:
            for node in ast.walk(func):
                if isinstance(node, ast.Call):
                    out[id(node)] = found
    return out


def _attribute_loops(tree: ast.Module) -> dict[int, dict[str, str]]:
    """For calls inside ``for VAR in self.ATTR`` (or ``cls.ATTR``): call id -> {VAR: ATTR}; a subclass may bind
    ATTR to other strings (docutils' ``LanguageImporter.packages``), so the graph reads every class's."""
    out: dict[int, dict[str, str]] = {}
    for loop in walk(tree):
        if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Attribute) \
                and isinstance(loop.iter.value, ast.Name) and loop.iter.value.id in ("self", "cls"):
            for sub in (n for part in loop.body for n in ast.walk(part)):
                if isinstance(sub, ast.Call):
                    out.setdefault(id(sub), {})[loop.target.id] = loop.iter.attr
    return out


_PREFIX = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*\.")


def prefix_tables(tree: ast.Module) -> list[tuple[str, tuple[str, ...]]]:
    """Class attributes bound to literal strings one of which is a module-name prefix
    (``packages = ("docutils.languages.", "")``): (attribute, the strings)."""
    out = []
    for node in walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and (found := _strings_of(stmt.value) or _own_start(stmt.value)) \
                        and any(_PREFIX.fullmatch(f) or f.startswith("{__") for f in found):
                    out.append((stmt.targets[0].id, tuple(found)))
    return out


def _own_start(value) -> list[str] | None:
    """``base = __package__ + ".backends"`` in a class body: the start it gives (``{__package__}.backends``, filled
    with the defining module's names by the graph)."""
    built = as_fstring(value)
    if isinstance(built, ast.JoinedStr) and len(built.values) == 2 and isinstance(built.values[0], ast.FormattedValue) \
            and (own := own_name(built.values[0].value)) and isinstance(tail := built.values[1], ast.Constant) \
            and isinstance(tail.value, str) and re.fullmatch(r"(\.[A-Za-z_]\w*)+\.?", tail.value):
        return [own + tail.value]
    return None


def _replaced_own_tail(node) -> str:
    """``__name__.replace(".core", "._core_impl")``: the dotted literal put in ('' for any other expression)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
            and len(node.args) >= 2 and own_name(node.func.value) is not None:
        old, new = node.args[0], node.args[1]
        if isinstance(old, ast.Constant) and isinstance(old.value, str) and isinstance(new, ast.Constant) \
                and isinstance(new.value, str) and re.fullmatch(r"(?:\.[A-Za-z_]\w*)+", new.value):
            return new.value
    return ""


def _replaced_piece(node) -> str:
    """``name.replace(".moves.", "._real_")`` of a name computed at run time: the literal put in, when it holds a
    letter and only name characters and dots (``"-"`` to ``"_"`` names nothing); '' for any other expression."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
            and len(node.args) == 2 and own_name(node.func.value) is None \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
            and isinstance(put := node.args[1], ast.Constant) and isinstance(new := put.value, str):
        if re.fullmatch(r"[\w.]+", new) and re.search(r"[A-Za-z]", new) and ".." not in new:
            return new
    return ""


def _leading_self_attribute(node) -> str | None:
    """``self.base + name``, ``f"{cls.base}.{name}"``: the attribute a concatenation or f-string starts with."""
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        node = node.left
    if isinstance(node, ast.JoinedStr) and len(node.values) > 1 and isinstance(node.values[0], ast.FormattedValue):
        node = node.values[0].value
    else:
        return None
    return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and node.value.id in ("self", "cls") else None


def _leading_name(node) -> str | None:
    """The variable a concatenation or an f-string starts with (``package + name``, ``f"{package}{name}"``)."""
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        node = node.left
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.FormattedValue):
        node = node.values[0].value
    return node.id if isinstance(node, ast.Name) else None


def _expand_fstring(arg, variables: dict[str, list[str]]) -> list[str] | None:
    """The module names an f-string import names: ``f"{__name__}.{group}"`` inside a loop over literal strings
    gives one target per string (``{__name__}`` and ``{__package__}`` stay as placeholders the graph fills in).
    None when any other part is computed at run time."""
    if not isinstance(arg, ast.JoinedStr):
        return None
    out = [""]
    for part in arg.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            out = [o + part.value for o in out]
        elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None \
                and isinstance(part.value, ast.Name):
            name = part.value.id
            if name in ("__name__", "__package__"):
                out = [o + "{" + name + "}" for o in out]
            elif name in variables:
                out = [o + v for o in out for v in variables[name]]
            else:
                return None
        else:
            return None
    return out


def module_constants(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound once to literal strings: a string, a tuple/list/set of them, or a dict whose values
    are all strings (``_LAZY = {"heavy": ".heavy"}``): name -> the strings."""
    found: dict[str, list[str] | None] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    found[target.id] = _strings_of(stmt.value) if target.id not in found else None
    return {k: v for k, v in found.items() if v}


def _strings_of(value) -> list[str] | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, ast.Dict):
        return literal_strings(ast.List(list(value.values)))
    return literal_strings(value)


def dynamic_imports(call: ast.Call, name: str, variables: dict[str, list[str]],
                    consts: dict[str, list[str]], defaults: dict[str, str] | None = None,
                    attributes: dict[str, str] | None = None, bound: dict[str, ast.expr] | None = None,
                    derived: dict[str, str] | None = None) -> list[DynamicImport]:
    """The modules an ``import_module``/``__import__`` call may name: one entry per literal candidate (a string, an
    f-string over a loop of literals, a name or subscript of a module-level literal), one prefix entry per start
    a loop gives (``for p in ("pkg.a.", "pkg.b."): import_module(p + name)``; ``self.packages``: the attribute),
    a name computed from the module's own name alone (``{=EXPR}``, index/own_expr.py), else one prefix entry.
    ``bound``: names bound once (the function's locals, module constants); ``derived``: module constants bound to
    the own name or its parent's (``_BASE = __name__.rsplit(".", 1)[0]``)."""
    if bound and any(isinstance(a, ast.Starred) for a in call.args):  # import_module(*ARGS), ARGS = (".x", __package__)
        call = ast.Call(call.func, _splice_items(call.args, bound), call.keywords, lineno=call.lineno,
                        col_offset=call.col_offset)
    if bound and call.args and any(isinstance(n, ast.Starred) for n in ast.walk(call.args[0])):
        call = ast.Call(call.func, [_spliced(call.args[0], bound), *call.args[1:]], call.keywords,
                        lineno=call.lineno, col_offset=call.col_offset)
    found = _dynamic_imports(call, name, variables, consts, defaults, attributes, derived or {})
    if all(d.target for d in found) and not any(d.prefix for d in found) \
            or (own := own_expression(call.args[0], bound or {})) is None:
        return found
    marked = DynamicImport(call.lineno, unparse(call), own[0], False, _package_of(call, name)[0])
    return [marked, *found] if own[1] else [marked]  # type(self).__module__: a subclass's module may differ


def _spliced(node: ast.expr, bound: dict[str, ast.expr]) -> ast.expr:
    """``".".join([__package__, *PARTS])`` with ``PARTS = ("backends", "fast")`` bound once: the list with the
    items spliced in (session 44: a starred item left the whole name computed); a call's own starred arguments
    too (``"{}.{}.{}".format(__package__, *PARTS)``, session 45)."""
    if isinstance(node, ast.Call):
        return ast.Call(node.func, _splice_items([_spliced(a, bound) for a in node.args], bound), node.keywords)
    if not isinstance(node, (ast.List, ast.Tuple)):
        return node
    return type(node)(_splice_items(node.elts, bound), ast.Load())


def _splice_items(items: list[ast.expr], bound: dict[str, ast.expr]) -> list[ast.expr]:
    out: list[ast.expr] = []
    for item in items:
        value = bound.get(item.value.id) if isinstance(item, ast.Starred) and isinstance(item.value, ast.Name) \
            else None
        out += list(value.elts) if isinstance(value, (ast.Tuple, ast.List)) else [item]
    return out


def _dynamic_imports(call: ast.Call, name: str, variables: dict[str, list[str]], consts: dict[str, list[str]],
                     defaults: dict[str, str] | None, attributes: dict[str, str] | None,
                     derived: dict[str, str]) -> list[DynamicImport]:
    written, text = call.args[0], unparse(call)
    arg = as_fstring(written)  # "%s.drivers.%s" % (__package__, d), "{}.{}".format(...), ".".join((...)), a + b
    package, dots = _package_of(call, name)
    if own := own_submodule(arg):  # __name__.rpartition(".")[0] + ".pure", __spec__.parent + ".fallback"
        return [DynamicImport(call.lineno, text, own, False, package)]
    if tail := _replaced_own_tail(arg):  # __name__.replace(".core", "._core_impl"): each module so named
        return [DynamicImport(call.lineno, text, "*" + tail, False, package)]
    if piece := _replaced_piece(arg):  # spec.name.replace(".moves.", "._real_"): a finder's alias (six.moves)
        return [DynamicImport(call.lineno, text, pattern, False, package) for pattern in (f"*{piece}*", f"*{piece}")] \
            + [DynamicImport(call.lineno, text, None, True, package)]  # nothing replaced: computed entirely
    candidates = _expand_fstring(arg, variables)
    if candidates is None:
        candidates = _candidate_strings(arg, variables, consts)
    if candidates is not None:
        return [DynamicImport(call.lineno, text, dots + target, False, package) for target in candidates]
    lead = _leading_name(arg) if arg is not None and not isinstance(arg, ast.Name) else None
    if (attribute := _leading_self_attribute(arg)) and not dots:  # f"{cls.base}.{name}": what any class binds
        # base to (session 46), and what a name computed entirely keeps (an instance may set it: self.base = arg)
        return [DynamicImport(call.lineno, text, None, True, package, attribute=attribute),
                DynamicImport(call.lineno, text, None, True, package)]
    if lead in variables:
        return [DynamicImport(call.lineno, text, (dots + start) or None, True, package) for start in variables[lead]]
    if lead in (attributes or {}):
        return [DynamicImport(call.lineno, text, None, True, package, attribute=(attributes or {})[lead])]
    prefix = _string_prefix(arg, derived) or _joined_prefix(written, consts)
    if not prefix and not dots and (suffixes := _string_suffixes(arg, defaults, variables)):
        # f"{app}.models": each *.models; f"{app}.{sub}" over sub in ("models", "signals"): each of both
        return [DynamicImport(call.lineno, text, "*" + suffix, False, package) for suffix in suffixes]
    computed = DynamicImport(call.lineno, text, (dots + prefix) or None, True, package)
    if not prefix and not dots and (middle := _literal_middle(arg)):
        # f"{ns.pkg}.backends.{ns.leaf}": each module with that part inside its name (session 46: loose ones only)
        return [DynamicImport(call.lineno, text, f"*{middle}*", False, package), computed]
    if isinstance(arg, ast.Name) and arg.id in (defaults or {}):  # def load(*, backend=".backends.fast", ...):
        # the parameter's default is one name it takes (session 43: a keyword-only one was computed entirely)
        return [DynamicImport(call.lineno, text, dots + (defaults or {})[arg.id], False, package), computed]
    return [computed]


def _literal_middle(node) -> str:
    """The literal parts between two computed pieces of an f-string (``f"{a}.backends.{b}"``: ``.backends.``),
    when they are whole dotted parts with a letter; '' otherwise."""
    if not isinstance(node, ast.JoinedStr) or len(node.values) < 3:
        return ""
    for before, part, after in zip(node.values, node.values[1:], node.values[2:]):
        if isinstance(before, ast.FormattedValue) and isinstance(after, ast.FormattedValue) \
                and isinstance(part, ast.Constant) and isinstance(part.value, str) \
                and re.fullmatch(r"(\.[A-Za-z_]\w*)+\.", part.value):
            return part.value
    return ""


def _string_suffixes(node, defaults: dict[str, str] | None = None,
                     variables: dict[str, list[str]] | None = None) -> list[str]:
    """The constant dotted ends of an f-string or a concatenation whose start is computed (``f"{app}.models"``,
    ``app + ".apps"``): [".models"]; none when there is none. A parameter with a literal default counts as that
    default (Celery's ``f"{pkg}.{related_name}"`` with ``related_name="tasks"``), a loop variable over literals as
    each of them (Django's autodiscovery: ``f"{app}.{sub}"`` in ``for sub in ("models", "signals")``)."""
    tails = [""]
    if isinstance(node, ast.JoinedStr) and len(node.values) >= 2:
        for part in reversed(node.values[1:]):
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                tails = [part.value + tail for tail in tails]
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) \
                    and part.value.id in (defaults or {}):
                tails = [(defaults or {})[part.value.id] + tail for tail in tails]
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) \
                    and (values := (variables or {}).get(part.value.id)) and part.format_spec is None \
                    and part.conversion == -1 and all(isinstance(v, str) for v in values):
                tails = [value + tail for value in values for tail in tails]
            else:
                return []
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.right, ast.Constant) \
            and isinstance(node.right.value, str):
        tails = [node.right.value]
    else:
        return []
    return tails if all(re.fullmatch(r"(?:\.[A-Za-z_]\w*)+", tail) for tail in tails) else []


def _joined_prefix(arg, consts: dict[str, list[str]]) -> str:
    """``".".join([_module_prefix, rdclass, rdtype])`` (dnspython's rdata types): the first part, a literal or a
    module-level constant, and the separator."""
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "join" \
            and isinstance(arg.func.value, ast.Constant) and arg.func.value.value == "." and len(arg.args) == 1 \
            and isinstance(arg.args[0], (ast.List, ast.Tuple)) and len(arg.args[0].elts) > 1:
        first = _candidate_strings(arg.args[0].elts[0], {}, consts)
        if first and len(first) == 1:
            return first[0] + "."
    return ""


def _package_of(call: ast.Call, name: str) -> tuple[str | None, str]:
    """(the package a relative name resolves against, the dots ``__import__``'s level adds)."""
    if name == "__import__":
        level = call.args[4] if len(call.args) > 4 else next((k.value for k in call.keywords if k.arg == "level"), None)
        if isinstance(level, ast.Constant) and isinstance(level.value, int) and level.value > 0:
            return "{__package__}", "." * level.value
        return (None, "") if level is None or isinstance(level, ast.Constant) else (RUNTIME_PACKAGE, ".")
    node = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "package"), None)
    if node is None or isinstance(node, ast.Constant) and node.value is None:
        return None, ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, ""
    if isinstance(node, ast.Name) and node.id in ("__name__", "__package__"):
        return "{" + node.id + "}", ""
    if own := own_submodule(node):  # package=f"{__package__}.backends": a subpackage of its own
        return own, ""
    return RUNTIME_PACKAGE, ""


def _candidate_strings(arg, variables: dict[str, list[str]], consts: dict[str, list[str]]) -> list[str] | None:
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.Name):
        return variables.get(arg.id) or consts.get(arg.id)
    if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name):  # _LAZY[name]
        return consts.get(arg.value.id)
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "get" \
            and isinstance(arg.func.value, ast.Name) and len(arg.args) == 1:  # _LAZY.get(name)
        return consts.get(arg.func.value.id)
    return None


def _string_prefix(node, derived: dict[str, str] | None = None) -> str:
    """The constant start of an f-string or a string concatenation ('' when there is none); ``derived``: module
    constants bound to the own name or its parent's (``f"{_BASE}.{mod}"``: ``{__parent__}.``)."""
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.FormattedValue) \
            and (own := own_name(node.values[0].value) or _derived(node.values[0].value, derived, node)):  # the own name:
        # f"{__package__}.backends.{name}"
        rest = node.values[1] if len(node.values) > 1 else None
        return own + (str(rest.value) if isinstance(rest, ast.Constant) else "")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
            return node.left.value
        return _string_prefix(node.left, derived)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):  # ".x_%s" % name
        return node.left.value.split("%", 1)[0]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return node.func.value.value.split("{", 1)[0]  # ".x_{}".format(name)
    return ""


def _derived(node, derived: dict[str, str] | None, fstring: ast.JoinedStr | None = None) -> str | None:
    """The own name a module constant stands for, unless text follows a later variable of ``fstring``
    (``f"{_BACKENDS}._{vendor}.ops"``: ``own_names.own_pattern`` names those modules precisely)."""
    if fstring is not None and any(isinstance(v, ast.FormattedValue) for v in fstring.values[1:-1]) \
            and isinstance(fstring.values[-1], ast.Constant):
        return None
    return (derived or {}).get(node.id) if isinstance(node, ast.Name) else None
