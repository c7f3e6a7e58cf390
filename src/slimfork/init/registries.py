"""Registries a project fills at import time, each with the lines cutting its entries could free: directory scans
(`pkgutil.iter_modules`), module-level dicts of classes or functions or of module names, decorator and call registrations with literal
keys, and subclass registries (`__init_subclass__`, `__subclasses__()`, a metaclass whose `__new__` or `__init__`
stores the class)."""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from slimfork.init.platform import _imported_names, _Scope
from slimfork.init.project import Project
from slimfork.init.wrapping_decorators import only_wraps
from slimfork.mapping.cut import named_module
from slimfork.source.test_folders import is_test_file

MIN_ENTRIES = 2


@dataclass
class Registry:
    kind: str  # a registries[].kind ("scan", "dict", "mapping", "decorator", "call") or "subclass" ("subclasses")
    package: str  # what registries[].package would say (the base class for "subclass")
    where: str  # "file:line" of the evidence
    entries: dict[str, int] = field(default_factory=dict)  # key -> lines its cut could free
    variable: str | None = None  # "subclass": the class attribute most subclasses list their keys in; "mapping":
    # the dict's name
    keys: dict[str, list[str]] = field(default_factory=dict)  # "subclass": class name -> its keys in `variable`
    key_keyword: str | None = None  # "decorator": the key is this keyword (`@cli.command(name="serve")`)
    shared: dict[str, tuple[str, int, list[str]]] = field(default_factory=dict)  # "mapping": key -> (the module
    # other keys name too, its lines, those keys)
    keeps_all: str | None = None  # why its module keeps every name (`uses exec() (line 145)`): no def it holds goes

    @property
    def lines(self) -> int:
        return sum(self.entries.values())


def find_registries(project: Project) -> list[Registry]:
    trees = {m: t for m, p in project.internal_modules().items() if (t := project.parse(p)) is not None}
    modules = {m: p for m, p in project.internal_modules().items() if m in trees}
    out = _scans(project)
    decorated: dict[str, Registry] = {}
    stacked: set[str] = set()  # decorators applied twice to one definition: options, not registrations
    calls: dict[str, Registry] = {}
    classes: dict[str, list[tuple[str, ast.ClassDef, str]]] = defaultdict(list)  # base -> (rel, subclass, qualname)
    hooks: dict[str, str] = {}  # class qualname -> where its registry hook is
    defined: Counter = Counter()  # module-level class name -> how many modules define one so named
    registering: set[str] = set()  # metaclasses whose __new__/__init__ store the class they make
    users: dict[str, list[tuple[str, str]]] = defaultdict(list)  # metaclass -> (class qualname, where)
    for module, rel in modules.items():
        tree = trees[module]
        scope = _Scope(module, _imported_names(project, module, tree), {})
        defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        loads = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Dict):
                reg = _dict_registry(project, module, rel, node, scope, defs) or _mapping(project, module, rel, node)
                if reg:
                    out.append(reg)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                key, target = _literal_key(node.value), scope.qualify(node.value.func)
                if key is not None and target and project.mm.is_internal(target):
                    reg = calls.setdefault(target, Registry("call", target, f"{rel}:{node.lineno}"))
                    reg.entries[key] = reg.entries.get(key, 0) + _named_module_lines(project, node.value)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                seen: Counter[str] = Counter()
                for dec in node.decorator_list:
                    keyword = None if not isinstance(dec, ast.Call) or _literal_key(dec) is not None else "name"
                    if isinstance(dec, ast.Call) and (key := _literal_key(dec) or _keyword_key(dec)) is not None \
                            and (target := scope.qualify(dec.func)) and project.mm.is_internal(target):
                        reg = decorated.setdefault(target, Registry("decorator", target, f"{rel}:{node.lineno}",
                                                                    key_keyword=keyword))
                        if reg.key_keyword != keyword:
                            stacked.add(target)  # keys written two ways: no draft
                        reg.entries[key] = reg.entries.get(key, 0) + _freed(node, loads)
                        seen[target] += 1
                stacked |= {t for t, n in seen.items() if n > 1}  # @click.option("-a") @click.option("-b"): options
            if isinstance(node, ast.ClassDef):
                defined[node.name] += 1
                for base in node.bases:
                    if (qual := scope.qualify(base)):
                        classes[qual].append((rel, node, f"{module}.{node.name}"))
                for kw in node.keywords:
                    if kw.arg == "metaclass" and (qual := scope.qualify(kw.value)):
                        users[qual].append((f"{module}.{node.name}", f"{rel}:{node.lineno} (metaclass {qual})"))
                if _stores_classes(node):
                    registering.add(f"{module}.{node.name}")
                if any(isinstance(n, ast.FunctionDef) and n.name == "__init_subclass__" for n in node.body):
                    hooks.setdefault(f"{module}.{node.name}", f"{rel}:{node.lineno} (__init_subclass__)")
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr == "__subclasses__" and (qual := scope.qualify(call.func.value)):
                hooks.setdefault(qual, f"{rel}:{call.lineno} (__subclasses__())")
    scopes = {m: _Scope(m, _imported_names(project, m, trees[m]), {}) for m in trees}
    wrapping = {t for t in decorated if only_wraps(t, trees, lambda m, node: scopes[m].qualify(node))}
    out += [r for r in (*decorated.values(), *calls.values()) if len(r.entries) >= MIN_ENTRIES
            and r.package not in stacked | wrapping  # a registry registers each definition once
            and not (r.kind == "decorator" and all(_message_or_version(k) for k in r.entries))]
    for meta in sorted(registering & users.keys()):
        for hooked, where in users[meta]:
            hooks.setdefault(hooked, where)
    for hooked, where in sorted(hooks.items()):
        subs = _subclasses(hooked, classes, defined)
        if subs:
            out.append(_subclass_registry(hooked, where, subs))
    return [r for r in out if not is_test_file(r.where.rsplit(":", 1)[0].split(":")[0])]  # a test module's
    # tables and hooks are its data, never a registry a fork cuts


def _subclass_registry(base: str, where: str, subs: list[tuple[str, ast.ClassDef]]) -> Registry:
    """Entries keyed by class name (what `keep` matches); `variable`: a class attribute holding literal strings
    in at least half of the subclasses (arrow's `names = ["en", "en-us"]`), which `keep` can match instead."""
    reg = Registry("subclass", base, where)
    found: dict[str, dict[str, list[str]]] = defaultdict(dict)  # attribute -> class name -> its strings
    for _rel, node in subs:
        reg.entries[node.name] = reg.entries.get(node.name, 0) + _span(node)
        for attr, strings in _string_attributes(node).items():
            found[attr][node.name] = strings
    best = max(found, key=lambda a: len(found[a]), default=None)
    if best is not None and len(found[best]) >= max(MIN_ENTRIES, (len(reg.entries) + 1) // 2):
        reg.variable, reg.keys = best, found[best]
    return reg


def _string_attributes(cls: ast.ClassDef) -> dict[str, list[str]]:
    """Class attributes set to a string or a list, tuple or set of strings in the class body."""
    out = {}
    for stmt in cls.body:
        value: ast.expr | None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        else:
            continue
        if not isinstance(target, ast.Name) or value is None:
            continue
        items = value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else [value]
        strings = [e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if items and len(strings) == len(items):
            out[target.id] = strings
    return out


_VERSION = re.compile(r"\d+(?:\.\d+)+(?:(?:a|b|rc|\.dev|\.post)\d*)?")


def _message_or_version(key: str) -> bool:
    """A decorator's literal first argument that is a message (``"The f() function is now available as g()"``)
    or a version (``@deprecated("1.4", ...)``): no registry key."""
    return any(c.isspace() for c in key.strip()) or _VERSION.fullmatch(key) is not None


def _scans(project: Project) -> list[Registry]:
    """`pkgutil.iter_modules(__path__)` and the like in a package, or an import of a name computed under a package
    (`__import__("pkg.dialects.%s" % name)`): its modules are its registry."""
    out: dict[str, Registry] = {}
    for module, rel in project.internal_modules().items():
        summary = project.index.files[rel]
        own = module if project.mm.modules[module].is_package else module.rpartition(".")[0]
        found = [(line, scanned if scanned in project.mm.modules else own)
                 for line, _call, scanned, _subpackages in summary.dir_scans]
        found += [(d.line, d.target[:-1]) for d in summary.dynamic_imports if d.prefix and d.package is None
                  and d.target and d.target.endswith(".") and (info := project.mm.modules.get(d.target[:-1]))
                  and info.is_package]
        for line, package in found:
            members = [c for c in project.mm.children.get(package, []) if c != f"{package}.__main__"]
            if len(members) >= MIN_ENTRIES and package not in out:
                out[package] = Registry("scan", package, f"{rel}:{line}",
                                        {m.rsplit(".", 1)[1]: project.module_lines(m) for m in members})
    return list(out.values())


def _dict_registry(project, module, rel, node: ast.Assign, scope: _Scope, defs) -> Registry | None:
    """A dict with literal string keys whose values name classes or functions (defined or imported). A module
    another file defines counts toward an entry's lines only where no other entry names it: cutting one of 28
    entries ``"a": bitarray("0110")`` frees no line of the class every entry makes (bitarray's test data)."""
    assert isinstance(node.value, ast.Dict) and isinstance(node.targets[0], ast.Name)  # the caller checked
    found: dict[str, tuple[int, str | None]] = {}  # key -> (its own lines, the other module it names)
    summary = project.index.files.get(rel)
    keeps_all = summary.symbols.keep_all[0] if summary is not None and summary.symbols.keep_all else None
    for key, value in zip(node.value.keys, node.value.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if keeps_all and isinstance(value, ast.Name) and value.id in defs:
            # the module keeps every name (`exec()`, `globals()`): cutting the entry frees its own line, not the def
            found[key.value] = ((value.end_lineno or value.lineno) - key.lineno + 1, None)
            continue
        if isinstance(value, ast.Call):  # an instance per key: lang_EN.Num2Word_EN(), TableFormat(...)
            made = value.func
            if isinstance(made, ast.Name) and made.id not in scope.imports and hasattr(builtins, made.id):
                return None  # `dict(type=str, ...)`: a table of values, not of the project's classes
            if isinstance(made, ast.Name) and made.id in defs:
                found[key.value] = (_span(value), None)
                continue
            qual = scope.qualify(made) if isinstance(made, (ast.Name, ast.Attribute)) else None
            if not qual or not project.mm.is_internal(qual):
                return None
            owner = project.mm.longest_module(qual)
            found[key.value] = (_span(value), owner if owner and owner != module else None)
        elif isinstance(value, ast.Name) and value.id in defs:
            found[key.value] = (_span(defs[value.id]), None)
        elif isinstance(value, (ast.Name, ast.Attribute)) and (qual := scope.qualify(value)) \
                and project.mm.is_internal(qual) and not qual.startswith(module + "."):
            owner = project.mm.longest_module(qual)
            found[key.value] = (0, owner if owner and owner != module else None)
        else:
            return None
    if len(found) < MIN_ENTRIES:
        return None
    named = Counter(owner for _, owner in found.values() if owner)
    entries = {key: own + (project.module_lines(owner) if owner and named[owner] == 1 else 0)
               for key, (own, owner) in found.items()}
    return Registry("dict", f"{module}.{node.targets[0].id}", f"{rel}:{node.lineno}", entries, keeps_all=keeps_all)


def _mapping(project, module: str, rel: str, node: ast.Assign) -> Registry | None:
    """A dict whose every value names a module of the project in a string (``DRIVERS = {Provider.EC2:
    ("pkg.drivers.ec2", "EC2Driver")}``, pygments' ``LEXERS``): a ``mapping`` registry, keyed by its string keys
    or named constants; an entry's cut frees the module only it names."""
    assert isinstance(node.value, ast.Dict) and isinstance(node.targets[0], ast.Name)  # the caller checked
    found: dict[str, str] = {}  # key -> the module its value names

    def internal(dotted: str) -> bool:
        return dotted in project.mm.modules and project.mm.is_internal(dotted)

    for key, value in zip(node.value.keys, node.value.values):
        text = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else \
            ast.unparse(key) if isinstance(key, (ast.Name, ast.Attribute)) and _constant(key) else None
        named = next((m for n in ast.walk(value) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                      and (m := named_module(n.value, internal)) and m != module), None) if value is not None else None
        if text is None or named is None:
            return None
        found[text] = named
    if len(found) < MIN_ENTRIES:
        return None
    named_by = Counter(found.values())
    entries = {key: project.module_lines(owner) if named_by[owner] == 1 else 0 for key, owner in found.items()}
    shared = {key: (owner, project.module_lines(owner), [k for k, o in found.items() if o == owner and k != key])
              for key, owner in found.items() if named_by[owner] > 1}
    return Registry("mapping", module, f"{rel}:{node.lineno}", entries, variable=node.targets[0].id, shared=shared)


def _constant(node: ast.expr) -> bool:
    """``NAME`` or ``Kind.NAME``: a named constant."""
    return isinstance(node, ast.Name) or isinstance(node, ast.Attribute) and _constant(node.value)


def _keyword_key(call: ast.Call) -> str | None:
    """``@cli.command(name="serve")``: a literal ``name=`` and no positional argument."""
    if call.args:
        return None
    return next((k.value.value for k in call.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)
                 and isinstance(k.value.value, str)), None)


def _literal_key(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def _named_module_lines(project: Project, call: ast.Call) -> int:
    """Lines of the internal modules a registration's string arguments name ("pkg.mod" or "pkg.mod:Class")."""
    total = 0
    for arg in [*call.args[1:], *(k.value for k in call.keywords)]:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            module = project.mm.longest_module(arg.value.split(":")[0])
            if module and project.mm.is_internal(module):
                total += project.module_lines(module)
    return total


def _subclasses(base: str, classes: dict[str, list], defined: Counter) -> list[tuple[str, ast.ClassDef]]:
    """Every subclass of ``base``, subclasses of subclasses included (what the cut matches). A base named through
    a re-export (``pkg.Alpha`` for ``pkg.alpha.Alpha``) matches by its class name where only one class has it."""
    out, seen, frontier = [], {base}, [base]
    while frontier:
        current = frontier.pop(0)
        short = current.rsplit(".", 1)[-1]
        for qual, subs in classes.items():
            if qual == current or qual.endswith("." + short) and defined[short] <= 1:
                for rel, node, sub_qual in subs:
                    if sub_qual not in seen:
                        seen.add(sub_qual)
                        out.append((rel, node))
                        frontier.append(sub_qual)
    return out


def _stores_classes(node: ast.ClassDef) -> bool:
    """A metaclass whose ``__new__`` or ``__init__`` stores into a subscript or appends, adds or registers."""
    for fn in node.body:
        if isinstance(fn, ast.FunctionDef) and fn.name in ("__new__", "__init__"):
            for n in ast.walk(fn):
                if isinstance(n, (ast.Assign, ast.AnnAssign)) and any(
                        isinstance(t, ast.Subscript) for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
                    return True
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and n.func.attr in ("append", "add", "register", "setdefault"):
                    return True
    return False


def _freed(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, loads: Counter) -> int:
    """The lines a registered definition's cut frees: none where its module also names it outside its own body
    (ijson 3.3.0's ``@ffi.callback("int(void *ctx)")`` functions, listed again in a table of callbacks: the
    definition stays whatever the registry keeps)."""
    own = sum(1 for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == node.name
              and isinstance(n.ctx, ast.Load))
    return 0 if loads[node.name] > own else _span(node)


def _span(node: ast.stmt | ast.expr) -> int:
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return (node.end_lineno or node.lineno) - start + 1
