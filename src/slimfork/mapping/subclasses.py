"""Subclass registries (``[[registries]] kind = "subclasses"``): classes registered by subclassing a base, through
``__init_subclass__`` filling a dict, a metaclass, or a ``Base.__subclasses__()`` walk (arrow's locales, format
and backend plugins). ``package`` is the base class; ``keep`` matches a subclass by its class name or, with
``variable``, by the literal string(s) of that class attribute (``names = ["en", "en-us"]``).

Every module-level class of a kept module whose bases reach the base class (through other such classes, in any
module) is a registered subclass. The kept ones and their ancestors stay; the others are deleted from the scratch
copy before the plan is made again, so what only they used leaves too, and a removed key fails exactly as a key
the registry never had. A subclass some other code names (outside the deleted classes) stays: unknown means keep.
"""

from __future__ import annotations

import ast
import warnings
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from slimfork.errors import SpecError, did_you_mean
from slimfork.facts.bindings import Resolver
from slimfork.globs import first_match
from slimfork.index.parse import decode
from slimfork.index.purity import dotted_name
from slimfork.mapping.nametables import cut_enum_tables, cut_name_tables
from slimfork.mapping.spec import _match, cut_outcome, key_form
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.safety import check_rewrite, undefined_names
from slimfork.source.test_folders import tests_of


@dataclass(frozen=True)
class SubclassRegistry:
    base: str  # qualified name of the base class ("arrow.locales.Locale")
    keep: tuple[str, ...]  # globs or "re:" regexes on class names or on the keys in `variable`
    variable_name: str | None = None  # the class attribute holding a subclass's keys ("names")
    reason: str = ""
    key: str = "registries[0]"

    @property
    def module(self) -> str:  # what the tests stage names a removed entry's registry by
        return self.base

    @property
    def variable(self) -> str:
        return self.variable_name or "__subclasses__"


@dataclass
class SubclassInfo:
    qualname: str  # "pkg.mod.Class"
    path: str
    bases: list[str]  # canonical qualified names of its bases
    keys: list[str] | None  # the literal strings of `variable` in its body; None when not literal
    inherits: bool = False  # its body does not set `variable`: its keys are its first base's
    uses: Counter = field(default_factory=Counter)  # names and attributes read inside the class


@dataclass
class SubclassCut:
    registry: SubclassRegistry
    path: str
    kept: list[str] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)  # (class name, its keys)
    held: list[tuple[str, str]] = field(default_factory=list)  # (class name, why it stays though not kept)
    new_source: bytes | None = None
    failure: str | None = None
    vacated: bool = False  # the cut left the module nothing but imports (and its docstring)
    keys: list[str] = field(default_factory=list)  # every subclass's name and keys seen (for stale keep patterns)
    tables: list[dict] = field(default_factory=list)  # name tables cut here: {"variable", "removed"}

    def removed_keys(self) -> dict[str, str]:
        """For the tests stage: each removed subclass's keys and name (in key_form) -> why it is gone."""
        kept = {key_form(k) for k in self.kept}
        out = {}
        for name, keys in self.removed:
            why = f"{name}, a subclass of {self.registry.base} the spec does not keep"
            out.update({key_form(k): f"'{k}', a key of {why}" for k in [*filter(None, keys.split(", ")), name]})
        return {k: v for k, v in out.items() if k not in kept}

    def removed_members(self) -> set[str]:
        """``Enum.MEMBER`` of each member an enum table lost (a test reading one uses a removed entry)."""
        return {f"{t['variable']}.{m}" for t in self.tables for m in t["removed"]}

    def removed_names(self) -> set[str]:
        """Class names and keys of the removed subclasses that no kept one also has."""
        return {n for name, keys in self.removed for n in (name, *filter(None, keys.split(", ")))}


def subclass_registries(raw: list) -> list[SubclassRegistry]:
    return [SubclassRegistry(reg["package"], tuple(reg["keep"]), reg.get("variable"), reg.get("reason", ""),
                             f"registries[{i}]") for i, reg in enumerate(raw) if reg.get("kind") == "subclasses"]


def _parse(data: bytes) -> ast.Module | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(data)
        except (SyntaxError, ValueError):
            return None


def _keys(cls: ast.ClassDef, variable: str | None) -> list[str] | None | bool:
    """The strings of ``variable = "x"`` / ``= ["x", "y"]`` (annotated or not) in the class body; False when the
    body does not set it."""
    if variable is None:
        return None
    for stmt in cls.body:
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == variable for t in targets) and stmt.value is not None:
            value = stmt.value
            items = value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else [value]
            strings = [e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            return strings if len(strings) == len(items) else None
    return False


def _classes(modules: dict[str, str], scratch: Path, resolver: Resolver, variable: str | None):
    """Every module-level class of the kept modules, with canonical bases; and the names each module uses."""
    classes: dict[str, SubclassInfo] = {}
    names_used: dict[str, Counter] = {}
    for rel, module in sorted(modules.items()):
        tree = _parse((scratch / rel).read_bytes())
        if tree is None:
            continue
        bindings = resolver.bindings(module)
        names_used[rel] = _names(tree)
        for stmt in tree.body:
            if not isinstance(stmt, ast.ClassDef):
                continue
            bases = []
            for b in stmt.bases:
                dotted = dotted_name(b)
                if dotted is None:
                    continue
                first, _, rest = dotted.partition(".")
                if bindings is not None and first in bindings.imports:
                    bases.append(resolver.canonical(bindings.imports[first] + ("." + rest if rest else "")))
                else:
                    bases.append(f"{module}.{dotted}")
            keys = _keys(stmt, variable)
            classes[f"{module}.{stmt.name}"] = SubclassInfo(f"{module}.{stmt.name}", rel, bases,
                                                            None if isinstance(keys, bool) else keys, keys is False,
                                                            _names(stmt))
    return classes, names_used


def _names(node: ast.AST) -> Counter:
    """The names and attributes read (a binding of the same name, an enum member ``DAX = "dax"``, is no use)."""
    return Counter(n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) or isinstance(n, ast.Attribute))


def _subtree(base: str, classes: dict[str, SubclassInfo]) -> dict[str, SubclassInfo]:
    found: dict[str, SubclassInfo] = {}
    frontier = {base}
    while frontier:
        new = {q for q, c in classes.items() if q not in found and q != base and frontier & set(c.bases)}
        found.update({q: classes[q] for q in new})
        frontier = new
    return found


def cut_subclass_registries(analysis, scratch: Path) -> list[SubclassCut]:
    """Cut every subclass registry of the spec in the kept modules under ``scratch``."""
    registries = subclass_registries(analysis.spec.raw.get("registries", []))
    if not registries:
        return []
    mm = analysis.graph.mm
    removed_paths = analysis.plan.removed_paths()
    tests = tests_of(analysis)
    modules = {rel: name for rel, name in mm.by_path.items() if mm.is_internal(name) and rel not in removed_paths
               and first_match(tests, rel) is None}
    cuts: list[SubclassCut] = []
    for registry in registries:
        resolver = Resolver(scratch, modules)
        classes, names_used = _classes(modules, scratch, resolver, registry.variable_name)
        base = resolver.canonical(registry.base)
        if base not in classes:
            raise SpecError(f"no kept module of the source defines the class '{registry.base}'",
                            key=f"{registry.key}.package",
                            hint=did_you_mean(registry.base, list(classes), "name it as module.Class"))
        cuts += _cut_one(registry, base, classes, names_used, scratch, analysis.graph)
    return cuts


def _inherit_keys(base: str, classes: dict[str, SubclassInfo], subs: dict[str, SubclassInfo]) -> None:
    """A class that does not set the keys' attribute has its first base's (unknown where that is unknown)."""
    def resolve(q: str, depth: int = 0) -> list[str] | None:
        info = classes.get(q)
        if info is None or depth > 50:
            return None
        if not info.inherits:
            return info.keys
        return resolve(info.bases[0], depth + 1) if info.bases else None
    for q, info in subs.items():
        if info.inherits:
            info.keys, info.inherits = resolve(q), False


def _emptied(going: set[str], subs: dict[str, SubclassInfo], scratch: Path) -> set[str]:
    """Paths of the modules the deletion of ``going`` leaves nothing but imports."""
    out = set()
    for path in {subs[q].path for q in going}:
        names = {q.rpartition(".")[2] for q in going if subs[q].path == path}
        tree = _parse((scratch / path).read_bytes())
        if tree is not None:
            tree.body = [s for s in tree.body if not (isinstance(s, ast.ClassDef) and s.name in names)]
            if _only_imports_tree(tree):
                out.add(path)
    return out


def _reached(graph, vacated: set[str]) -> set[str]:
    """Paths of the modules the roots still reach once a computed name no longer keeps the ``vacated`` ones (what
    the plan does with them after the cut): a use of a class in any other module leaves the fork with it."""
    mm, excluded = graph.mm, graph.excluded
    reached = {r.module for r in graph.roots if r.module not in excluded}
    queue = deque(reached)
    while queue:
        for edge in graph.edges.get(queue.popleft(), ()):
            info = mm.modules.get(edge.target)
            if edge.target in reached or edge.target in excluded or info is None or info.path in vacated \
                    and edge.kind == "dynamic" and "(prefix '" in edge.detail:
                continue
            reached.add(edge.target)
            queue.append(edge.target)
    return {mm.modules[m].path for m in reached if mm.modules[m].path}


def _cut_one(registry, base, classes, names_used, scratch: Path, graph) -> list[SubclassCut]:
    subs = _subtree(base, classes)
    if registry.variable_name:
        _inherit_keys(base, classes, subs)

    def kept(info: SubclassInfo) -> bool:
        short = info.qualname.rpartition(".")[2]
        keys = info.keys or []
        return any(_match(p, short) or any(_match(p, k) for k in keys) for p in registry.keep)

    keep = {q for q, info in subs.items() if kept(info)}
    held: dict[str, str] = {}
    for q, info in subs.items():
        if q in keep:
            continue
        if registry.variable_name and info.keys is None:
            held[q] = f"its '{registry.variable_name}' is not a literal string or list of strings"
    going = {q for q in subs if q not in keep and q not in held}
    # A class some code outside the deleted classes names stays (a direct reference, an isinstance, an import);
    # so do the ancestors of every class that stays.
    changed = True
    while changed:
        changed = False
        for q in sorted(subs.keys() - going):
            for b in subs[q].bases:
                if b in going:
                    going.discard(b)
                    changed = True
        reached = _reached(graph, _emptied(going, subs, scratch)) if going else set()
        for q in sorted(going):
            short = q.rpartition(".")[2]
            inside = sum(classes[g].uses[short] for g in going if classes[g].path in reached)
            total = sum(used.get(short, 0) for rel, used in names_used.items() if rel in reached)
            if total > inside:  # a ClassDef's own name is no Name node: only uses count
                going.discard(q)
                held[q] = "named by code outside the removed subclasses"
                changed = True
    by_path: dict[str, SubclassCut] = {}
    for q, info in subs.items():
        cut = by_path.setdefault(info.path, SubclassCut(registry, info.path))
        short = q.rpartition(".")[2]
        cut.keys += [short, *(info.keys or [])]
        if q in going:
            cut.removed.append((short, ", ".join(info.keys or [])))
        elif q in held:
            cut.held.append((short, held[q]))
        else:
            cut.kept.append(short)
    for path, cut in by_path.items():
        names = {n for n, _ in cut.removed}
        if names:
            _rewrite(cut, scratch / path, names)
    gone = {q for q in going if not by_path[subs[q].path].failure}
    _cut_tables(registry, subs, gone, names_used, scratch, by_path)
    return list(by_path.values())


def _cut_tables(registry, subs, gone, rels, scratch: Path, by_path: dict[str, SubclassCut]) -> None:
    """Delete the removed subclasses' entries from the name tables of the kept modules (nametables.py)."""
    names: dict[str, bool] = {}
    for q, info in subs.items():
        for n in (q.rpartition(".")[2], *(info.keys or [])):
            names[key_form(n)] = names.get(key_form(n), True) and q in gone
    if not any(names.values()):
        return
    base = registry.base.rpartition(".")[2]
    for rel in sorted(rels):
        tables = []
        for cutter in (lambda data: cut_name_tables(data, names), lambda data: cut_enum_tables(data, names, base)):
            new, found = cutter((scratch / rel).read_bytes())
            if new is not None:
                (scratch / rel).write_bytes(new)
                tables += found
        if not tables:
            continue
        cut = by_path.setdefault(rel, SubclassCut(registry, rel))
        cut.new_source, cut.tables = (scratch / rel).read_bytes(), tables


def _rewrite(cut: SubclassCut, path: Path, names: set[str]) -> None:
    data = path.read_bytes()
    module = cst.parse_module(data)
    body: list[cst.BaseStatement] = []
    dropped: Counter[str] = Counter()
    for stmt in module.body:
        if isinstance(stmt, cst.ClassDef) and stmt.name.value in names:
            dropped.update(comments_of(stmt))
            continue
        body.append(stmt)
    new = module.with_changes(body=body).bytes
    rel = cut.path
    problems = check_rewrite(data, new, dropped, rel, (undefined_names(decode(data), rel),
                                                       undefined_names(decode(new), rel)))
    if problems:
        cut.failure = "; ".join(problems)
        cut.kept += [n for n, _ in cut.removed]
        cut.removed = []
        return
    path.write_bytes(new)
    cut.new_source = new
    cut.vacated = _only_imports(new)


def _only_imports(source: bytes) -> bool:
    """Nothing left but imports, docstrings and ``if TYPE_CHECKING:`` blocks of imports."""
    tree = _parse(source)
    return tree is not None and _only_imports_tree(tree)


def _only_imports_tree(tree: ast.Module) -> bool:
    def empty(stmts) -> bool:
        return all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)) or isinstance(s, ast.Expr)
                   and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
                   or isinstance(s, ast.If) and not s.orelse and dotted_name(s.test) in TYPE_CHECKING and empty(s.body)
                   for s in stmts)
    return empty(tree.body)


TYPE_CHECKING = {"TYPE_CHECKING", "t.TYPE_CHECKING", "typing.TYPE_CHECKING"}


def subclasses_report(cuts: list[SubclassCut]) -> str:
    lines = []
    for cut in cuts:
        if not (cut.removed or cut.failure or cut.held):
            continue
        what = cut_outcome(cut.failure, cut.kept, [f"`{n}`" + (f" ({k})" if k else "") for n, k in cut.removed])
        lines.append(f"- subclasses of `{cut.registry.base}` in {cut.path}: {what}"
                     + (f" ({cut.registry.reason})" if cut.registry.reason else ""))
        lines += [f"  - `{n}` stays: {why}" for n, why in cut.held]
    return "\n".join(lines) + "\n"


def subclasses_data(cuts: list[SubclassCut]) -> list[dict]:
    return [{"base": c.registry.base, "path": c.path, "kept": c.kept,
             "removed": [{"class": n, "keys": k} for n, k in c.removed],
             "held": [{"class": n, "why": w} for n, w in c.held], "failure": c.failure, "vacated": c.vacated,
             "tables": c.tables} for c in cuts]
