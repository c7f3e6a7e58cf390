"""Registries filled by a decorator: ``@register_attention_backend("fa3")`` on module-level functions or
classes (``[[registries]] kind = "decorator"``, ``package`` = the decorator's qualified name), or by a call
statement at module level: ``StorageBackendFactory.register_backend("nixl", "pkg.nixl_store", "Nixl")``
(``kind = "call"``, ``package`` = the registering function's or method's qualified name).

Definitions registered under a key the spec does not keep are deleted from the scratch copy before the plan is
made again, so what only they imported (often lazily, inside the function) leaves the fork; the removed key is
then simply never registered, and fails exactly as a key the registry never had. A registration whose key is
not a string literal, or whose decorator cannot be resolved to the registry's, stays (unknown means keep).
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
from slimfork.index.parse import decode
from slimfork.index.relative import absolute_module, package_of
from slimfork.mapping.spec import _match, cut_outcome
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.safety import check_rewrite, undefined_names


@dataclass(frozen=True)
class DecoratorRegistry:
    decorator: str  # qualified name of the registering decorator (or function, for kind "call")
    keep: tuple[str, ...]  # globs or "re:" regexes on the keys
    reason: str = ""
    key: str = "registries[0]"
    kind: str = "decorator"  # or "call": module-level statements `register(key, ...)`
    key_keyword: str | None = None  # kind "call": the key is this keyword of the call or of its first argument
    lookup: str | None = None  # kind "call": keys looked up with a literal through this function are kept too

    def keeps(self, name: str) -> bool:
        return any(_match(p, name) for p in self.keep)


@dataclass
class DecoratedCut:
    registry: DecoratorRegistry
    path: str
    kept: list[str] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)  # (key, definition name)
    new_source: bytes | None = None
    failure: str | None = None
    unknown: int = 0  # registrations whose key is not a literal (they stay)
    held: list[str] = field(default_factory=list)  # definitions of removed keys that kept code names: they stay


def decorator_registries(raw: list) -> list[DecoratorRegistry]:
    out = []
    for i, reg in enumerate(raw):
        if reg.get("kind") not in ("decorator", "call"):
            continue
        out.append(DecoratorRegistry(reg["package"], tuple(reg["keep"]), reg.get("reason", ""), f"registries[{i}]",
                                     reg["kind"], reg.get("key_keyword"), reg.get("lookup")))
    return out


def cut_decorated(registry: DecoratorRegistry, rel: str, data: bytes, module: str, resolver: Resolver,
                  looked_up: frozenset[str] = frozenset(), held: frozenset[str] = frozenset()) -> DecoratedCut:
    """``held``: definitions other kept code names, which stay with their registration."""
    cut = DecoratedCut(registry, rel)
    bindings = resolver.bindings(module)
    if bindings is None or bindings.error:
        return cut

    def key_of(call: cst.BaseExpression) -> str | None | bool:
        """The literal key if this call (a decorator's, or a statement's) registers into ``registry``; False if
        it does not; None if its key is not a literal."""
        if not isinstance(call, cst.Call):
            return False
        dotted = cst.Module([]).code_for_node(call.func)
        base, _, rest = dotted.partition(".")
        if base in bindings.imports:
            target = resolver.canonical(bindings.imports[base] + ("." + rest if rest else ""))
        elif base in bindings.defs and base not in bindings.ambiguous:
            target = f"{module}.{dotted}"  # a function, or a method of a class, of this module
        else:
            return False
        if target != registry.decorator:
            return False
        first = call.args[0].value if call.args and call.args[0].keyword is None else None
        if registry.key_keyword:
            holders = [call, first] if isinstance(first, cst.Call) else [call]
            found = [a.value for c in holders for a in c.args if a.keyword and a.keyword.value == registry.key_keyword]
            first = found[0] if len(found) == 1 else None
        if isinstance(first, cst.SimpleString) and first.prefix == "" and isinstance(first.evaluated_value, str):
            return first.evaluated_value
        return None

    module_node = cst.parse_module(data)
    body: list[cst.BaseStatement] = []
    dropped: Counter[str] = Counter()
    for stmt in module_node.body:
        if registry.kind == "call" and isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
                and isinstance(stmt.body[0], cst.Expr):
            registering = stmt.body[0].value
            key = key_of(registering)
            cut.unknown += key is None
            if isinstance(key, str) and isinstance(registering, cst.Call):  # (key_of found a key: a call)
                if not registry.keeps(key) and key not in looked_up:
                    cut.removed.append((key, _registered_name(registering, registry.key_keyword)))
                    dropped.update(comments_of(stmt))
                    continue
                cut.kept.append(key)
        elif registry.kind == "decorator" and isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and stmt.decorators:
            keys = [key_of(d.decorator) for d in stmt.decorators]
            ours = [k for k in keys if k is not False]
            literal = [k for k in ours if isinstance(k, str)]
            cut.unknown += sum(k is None for k in ours)
            if ours and len(literal) == len(ours):
                if not any(registry.keeps(k) for k in literal) and stmt.name.value not in held:
                    cut.removed += [(k, stmt.name.value) for k in literal]
                    dropped.update(comments_of(stmt))
                    continue
                cut.kept += literal
        body.append(stmt)
    if not cut.removed:
        return cut
    new = module_node.with_changes(body=body).bytes
    before, after = undefined_names(decode(data), rel), undefined_names(decode(new), rel)
    problems = check_rewrite(data, new, dropped, rel, (before, after))
    if problems:
        cut.failure, cut.removed = "; ".join(problems), []
        return cut
    cut.new_source = new
    return cut

def _named_elsewhere(names: set[str], own: str, modules: dict[str, str], scratch: Path) -> set[str]:
    """The ``names`` (definitions of ``own``) that kept modules name in code run at import (a module-level
    ``from pkg.fmts import to_csv``, a load, an attribute): without them the module no longer imports. A use
    inside a function may leave with symbol pruning (sglang's ``dots_hybrid_backend``), so it holds nothing here;
    one that the final plan keeps is held by planning again (mapping/held_uses.py)."""
    found: set[str] = set()
    for rel in sorted(modules):
        data = (scratch / rel).read_bytes()
        todo = {n for n in names - found if n.encode() in data}
        if not todo:
            continue
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError):
            found |= todo  # unknown means keep
            continue
        for node in _import_time_nodes(tree, todo if rel == own else set()):
            used = node.id if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) else \
                node.attr if isinstance(node, ast.Attribute) else None
            if used in todo:
                found.add(used)
            elif isinstance(node, ast.ImportFrom):
                found |= {a.name for a in node.names} & todo
    return found


def _import_time_nodes(tree: ast.Module, skip: set[str]):
    """The nodes of code that runs when the module is imported: not function bodies, nor the definitions
    ``skip`` names."""
    todo: list[ast.AST] = [n for n in tree.body if getattr(n, "name", None) not in skip]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo += getattr(node, "decorator_list", []) + list(node.args.defaults) + \
                [d for d in node.args.kw_defaults if d is not None]
            continue
        todo += list(ast.iter_child_nodes(node))


def _registered_name(call: cst.Call, key_keyword: str | None = None) -> str:
    """What a registration call names, for the report: its string arguments after the key (or, with a key
    keyword, the other string keywords of the call in its first argument: ``KernelSpec(target="pkg.mod:fn")``)."""
    args = call.args[1:]
    if key_keyword and call.args and isinstance(call.args[0].value, cst.Call):
        args = [a for a in call.args[0].value.args if a.keyword and a.keyword.value != key_keyword]
    rest = [a.value.evaluated_value for a in args
            if isinstance(a.value, cst.SimpleString) and isinstance(a.value.evaluated_value, str)]
    return ":".join(rest) or cst.Module([]).code_for_node(call.func)


def cut_decorator_registries(analysis, scratch: Path, held: frozenset[str] = frozenset()) -> list[DecoratedCut]:
    """Cut every decorator registry of the spec in the kept modules under ``scratch``; the definitions ``held``
    (``path::name``: kept code names them, mapping/held_uses.py) stay with their registrations."""
    registries = decorator_registries(analysis.spec.raw.get("registries", []))
    if not registries:
        return []
    mm = analysis.graph.mm
    removed = analysis.plan.removed_paths()
    modules = {rel: name for rel, name in mm.by_path.items() if mm.is_internal(name) and rel not in removed}
    resolver = Resolver(scratch, modules)
    cuts = []
    for registry in registries:
        owner = mm.longest_module(registry.decorator) or ""
        first = registry.decorator[len(owner) + 1:].split(".")[0]
        found = resolver.bindings(owner) if owner in modules.values() else None
        if not first or found is None or not found.binds(first):
            what = "decorator" if registry.kind == "decorator" else "registering function"
            raise SpecError(f"no kept module of the source defines the {what} '{registry.decorator}'",
                            key=f"{registry.key}.package",
                            hint=did_you_mean(registry.decorator.rpartition(".")[0],
                                              [m for m in mm.modules if mm.is_internal(m)],
                                              "name it as module.function or module.Class.method"))
        looked_up, where = _looked_up(registry, modules, scratch, resolver) if registry.lookup else (frozenset(), "")
        if looked_up is None:  # a key computed at run time may name any registration: every one stays
            cuts.append(DecoratedCut(registry, where.partition(":")[0], failure=f"{where} looks a key up through "
                                     f"{(registry.lookup or '').rsplit('.', 1)[-1]}() with a computed value"))
            continue
        word = registry.decorator.rsplit(".", 1)[-1].encode()
        found_cuts: dict[str, tuple[bytes, DecoratedCut]] = {}
        for rel in sorted(modules):
            data = (scratch / rel).read_bytes()
            if word not in data or (registry.kind == "decorator" and b"@" not in data):
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    ast.parse(data)
                except (SyntaxError, ValueError):
                    continue
            found_cuts[rel] = (data, cut_decorated(registry, rel, data, modules[rel], resolver, looked_up))
        still = _reached_without(analysis.graph, {rel: _spans(data, {n for _, n in cut.removed})
                                                  for rel, (data, cut) in found_cuts.items() if cut.removed})
        kept_modules = {rel: m for rel, m in modules.items() if rel in still}
        for rel, (data, cut) in found_cuts.items():
            named = _named_elsewhere({n for _, n in cut.removed}, rel, kept_modules, scratch) | \
                {n for _, n in cut.removed if f"{rel}::{n}" in held} \
                if registry.kind == "decorator" else set()  # a "call" registration defines nothing
            if named:  # from pkg.fmts import to_csv in a module the cut leaves kept: the definition stays
                cut = cut_decorated(registry, rel, data, modules[rel], resolver, looked_up, frozenset(named))
                cut.held = sorted(named)
            if cut.new_source is not None:
                (scratch / rel).write_bytes(cut.new_source)
                resolver.cache.pop(modules[rel], None)
            if cut.kept or cut.removed or cut.failure or cut.unknown or cut.held:
                cuts.append(cut)
    return cuts


def _spans(data: bytes, names: set[str]) -> list[tuple[int, int]]:
    """The lines of the top-level definitions ``names`` (decorators included)."""
    tree = ast.parse(data)
    return [(min([n.lineno] + [d.lineno for d in n.decorator_list]), n.end_lineno or n.lineno) for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name in names]


def _reached_without(graph, spans: dict[str, list[tuple[int, int]]]) -> set[str]:
    """Paths of the modules the roots still reach without the edges of imports inside the cut definitions (a
    module only a cut registration imported, inside its function, leaves the fork with it)."""
    mm, excluded = graph.mm, graph.excluded
    reached = {r.module for r in graph.roots if r.module not in excluded}
    queue = deque(reached)
    while queue:
        module = queue.popleft()
        cut_lines = spans.get(mm.modules[module].path or "", []) if module in mm.modules else []
        for edge in graph.edges.get(module, ()):
            if edge.target in reached or edge.target in excluded or edge.target not in mm.modules \
                    or any(a <= edge.line <= b for a, b in cut_lines):
                continue
            reached.add(edge.target)
            queue.append(edge.target)
    return {mm.modules[m].path for m in reached if mm.modules[m].path}


def _looked_up(registry: DecoratorRegistry, modules: dict[str, str], scratch: Path,
               resolver: Resolver) -> tuple[frozenset[str] | None, str]:
    """The literal keys kept modules look up through ``registry.lookup`` (``get_kernel("moe.x", ...)``, the name
    imported at module level or inside a function); None and where, if one lookup computes its key."""
    assert registry.lookup is not None  # the caller's condition
    target = resolver.canonical(registry.lookup)
    owner, _, name = target.rpartition(".")
    word = name.encode()
    keys: set[str] = set()
    for rel, module in sorted(modules.items()):
        data = (scratch / rel).read_bytes()
        if word not in data:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                tree = ast.parse(data)
            except (SyntaxError, ValueError):
                continue
        names = _imported_names(tree, module, rel.endswith("__init__.py"))
        if module == owner:
            names.setdefault(name, set()).add(target)
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            chain = _chain(call.func)
            if not chain or not any(resolver.canonical(".".join([q, *chain[1:]])) == target
                                    for q in names.get(chain[0], ())):
                continue  # a call that cannot be this function (an import of the same name counts)
            first = call.args[0] if call.args else None
            if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
                return None, f"{rel}:{call.lineno}"
            keys.add(first.value)
    return frozenset(keys), ""


def _imported_names(tree: ast.Module, module: str, is_package: bool) -> dict[str, set[str]]:
    """Every name an import anywhere in the file binds -> the qualified names it imports."""
    names: dict[str, set[str]] = {}
    package = package_of(module, is_package)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute_module(package, node.level, node.module) or ""
            for alias in node.names:
                names.setdefault(alias.asname or alias.name, set()).add(f"{base}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names.setdefault(alias.asname or alias.name.split(".")[0], set()).add(
                    alias.name if alias.asname else alias.name.split(".")[0])
    return names


def _chain(node: ast.expr) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id, *reversed(parts)] if isinstance(node, ast.Name) else None


def decorated_report(cuts: list[DecoratedCut]) -> str:
    lines = []
    for cut in cuts:
        reg = cut.registry
        what = cut_outcome(cut.failure, cut.kept, [f"`{k}` ({name})" for k, name in cut.removed])
        shown = f"@{reg.decorator.rsplit('.', 1)[-1]}" if reg.kind == "decorator" else \
            f"{'.'.join(reg.decorator.rsplit('.', 2)[-2:])}(...)"
        held = f"; kept {', '.join(f'`{n}`' for n in cut.held)}, which other kept code names" if cut.held else ""
        lines.append(f"- `{shown}` in {cut.path}: {what}{held}"
                     + (f" ({reg.reason})" if reg.reason else ""))
    return "\n".join(lines) + "\n"


def decorated_data(cuts: list[DecoratedCut]) -> list[dict]:
    return [{"decorator": c.registry.decorator, "kind": c.registry.kind, "path": c.path, "kept": c.kept,
             "removed": [{"key": k, "definition": name} for k, name in c.removed], "failure": c.failure,
             "held": c.held}
            for c in cuts]
