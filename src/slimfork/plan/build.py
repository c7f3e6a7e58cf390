"""Turn the graph into a plan: every file of the source is kept or removed, each with its reason."""

from __future__ import annotations

import re
from dataclasses import replace

from slimfork.graph.graph import ModuleGraph, Step
from slimfork.globs import first_path_keep
from slimfork.index.summary import GUARDED_TRY
from slimfork.globs import first_match, is_module_glob, match_modules
from slimfork.errors import Stale, closest
from slimfork.decisions import DELETING, Kept, KeptKind, Plan, Removal, RemovalKind, kept_reason
from slimfork.source.entry_drops import is_entry_drop
from slimfork.spec.model import Spec


# The kind of keep each edge of the graph gives the module it reaches.
EDGE_KEPT = {
    "import": KeptKind.IMPORTED, "from": KeptKind.IMPORTED, "parent": KeptKind.PARENT, "main": KeptKind.RUN,
    "dynamic": KeptKind.DYNAMIC, "string": KeptKind.STRING, "path": KeptKind.STRING, "native": KeptKind.IMPORTED,
    "registry": KeptKind.REGISTRY, "scan": KeptKind.SCAN,
}


def step_kept(graph: ModuleGraph, step: Step) -> tuple[KeptKind, str]:
    """The kind of keep and its detail (``Kept``'s) for a module reached by ``step``."""
    if step.edge is None:
        return KeptKind.ROOT, step.root_reason
    assert step.via is not None  # a step over an edge comes from a module
    via = graph.modules[step.via]
    where = f"{via.path}:{step.edge.line}" if via.path and step.edge.line else (via.path or step.via)
    detail = f" ({step.edge.detail})" if step.edge.detail and step.edge.kind not in ("parent",) else ""
    return EDGE_KEPT[step.edge.kind], f"{step.via} ({where}){detail}"


def step_reason(graph: ModuleGraph, step: Step) -> str:
    return kept_reason(*step_kept(graph, step))


def stale_globs(spec: Spec, paths: list[str], modules: list[str], top_names) -> list[Stale]:
    """A `drop`, `keep` or `tests` glob that matches no file of the source (a folder a new release moved, or a
    typo), and a `keep` module glob that matches no module, each with the closest path or module."""
    tests = spec.sections.get("tests")
    folders = sorted({p.rsplit("/", i)[0] for p in paths for i in range(1, p.count("/") + 1)})
    out = []
    for key, globs in (("drop", [p if not is_entry_drop(p) else "" for p in spec.drop]), ("keep", list(spec.keep)),
                       ("tests", list(tests.globs) if tests else [])):
        for i, pattern in enumerate(globs):
            if not pattern and key == "drop":
                continue  # a console script or entry point (pipeline/stale.py checks it)
            if key == "keep" and is_module_glob(pattern, top_names):
                if not match_modules(pattern, modules):
                    out.append(Stale(f"keep[{i}]", "glob", f"the glob '{pattern}' matches no module",
                                     closest(pattern.split("*")[0].rstrip("."), modules)))
            elif not any(first_match([pattern], p) is not None for p in paths):
                bare = pattern.strip().lstrip("./").rstrip("/")
                options = folders if "." not in bare.rsplit("/", 1)[-1] else paths
                out.append(Stale(f"{key}[{i}]", "glob", f"'{pattern}' matches no file of the source",
                                 closest(bare, [o for o in options if not _build_output(o)]),
                                 "check the path against the source (globs are relative to it)"))
    for i, pattern in enumerate(spec.outside_imports):
        if not match_modules(pattern, modules):
            out.append(Stale(f"outside_imports[{i}]", "glob", f"the glob '{pattern}' matches no module",
                             closest(pattern.split("*")[0].rstrip("."), modules)))
    return out


def _build_output(path: str) -> bool:
    """Whether a path is what a build or an import wrote (``pkg.egg-info``, ``x.dist-info``, ``__pycache__``, the
    top-level ``build/`` and ``dist/``): no hint for a spec entry. ``drop = ["pkg/nope/**"]`` offered
    ``pkg.egg-info``."""
    parts = path.split("/")
    return parts[0] in ("build", "dist") or any(
        p == "__pycache__" or p.endswith((".egg-info", ".dist-info")) for p in parts)


def build_plan(spec: Spec, graph: ModuleGraph) -> Plan:
    plan = Plan(uncertain=list(graph.uncertain))
    tree, index, mm = graph.tree, graph.index, graph.mm
    package_files = {info.path for info in mm.modules.values()
                     if info.path and mm.is_internal(info.name)}
    for rel in sorted(list(index.files) + index.other_files):
        lines = index.files[rel].lines if rel in index.files else 0
        module = mm.module_of(rel)
        if tree.root / rel == spec.path:
            plan.removals.append(Removal(RemovalKind.DROPPED, rel, "the keep spec itself", group="dropped"))
            continue
        drop = first_match(spec.drop, rel)
        if drop is not None:
            plan.removals.append(Removal(RemovalKind.DROPPED, rel, f"dropped by drop[{drop}] '{spec.drop[drop]}'",
                                         module, lines=lines, group="dropped"))
            continue
        keep = first_path_keep(spec.keep, rel, mm.top_names)
        if keep is not None:
            plan.kept.append(Kept(rel, module, KeptKind.KEEP_GLOB, f"keep[{keep}] '{spec.keep[keep]}'"))
        elif rel not in package_files:
            plan.kept.append(Kept(rel, module, KeptKind.NON_PYTHON if rel not in index.files else KeptKind.OUTSIDE))
        elif module in graph.reached:
            plan.kept.append(Kept(rel, module, *step_kept(graph, graph.reached[module])))
        elif index.files[rel].error:
            plan.kept.append(Kept(rel, module, KeptKind.UNPARSABLE, str(index.files[rel].error)))
        else:
            assert module is not None  # a file of the analysed packages is a module
            plan.removals.append(Removal(RemovalKind.UNREACHABLE, rel, _unreached_reason(graph, module), module,
                                         lines=lines, group=_group(rel)))
    _scripts_follow(spec, graph, plan)
    settle_uncertain(plan)
    removed = {r.path for r in plan.removals}
    plan.warnings += [f"{rel}: {index.files[rel].error}" for rel in sorted(index.files)
                      if index.files[rel].error and rel not in removed]  # kept as it is: what it imports is unknown
    for src, edge in imports_of_dropped(graph):
        info = graph.modules[src]
        plan.warnings.append(f"{info.path}:{edge.line}: kept module {src} imports {edge.target}, {DROPPED_IMPORT}")
    return plan


def settle_uncertain(plan: Plan) -> None:
    """The uncertain places as the plan finally stands (after build_plan, and again after the stages): a removed
    file's places never run; a place's ``kept`` lists only the candidates the plan keeps. Candidates can be removed
    when the place is in a file that is no root (a test importing ``f"pkg.plugins.{name}"``): its edges keep
    nothing, so the entry must not claim they stay. A place none of whose candidates stay is left off (its file's
    tests of them leave with them, as tests of removed code)."""
    kept_paths = {k.path for k in plan.kept}
    gone = {r.module for r in plan.removals if r.module and r.kind in DELETING}
    out = []
    for u in plan.uncertain:
        if u.path not in kept_paths:
            continue  # a removed module's places never run
        still = tuple(m for m in u.kept if m not in gone)
        if len(still) < len(u.kept):
            if not still:
                continue
            why = re.sub(r"kept all \d+ ", f"kept {len(still)} of the {len(u.kept)} ", u.why)
            u = replace(u, kept=still, why=why + ("" if why != u.why else
                                                  f" ({len(u.kept) - len(still)} of its candidates are removed)"))
        out.append(u)
    plan.uncertain = out


def _scripts_follow(spec: Spec, graph: ModuleGraph, plan: Plan) -> None:
    """A script outside the packages (an example, a benchmark) that imports a module the fork removes would fail in
    the fork: it leaves with that module, as a test of removed code does (pycparser's ``test_examples.py`` runs
    every example it finds). So does a file of a package folder the module map has no name for (``to-dvorak.py``,
    which ``python -m jaraco.text.to-dvorak`` runs and ``--doctest-modules`` imports), its relative imports resolved
    against that package. Imports guarded by ``except ImportError`` handle the absence, and tests are the tests
    stage's."""
    gone = {r.module for r in plan.removals if r.module and r.kind in DELETING}
    tests = spec.sections.get("tests")
    for k in list(plan.kept):
        summary = graph.index.files.get(k.path)
        if k.kind is not KeptKind.OUTSIDE or summary is None or (tests and first_match(tests.globs, k.path) is not None):
            continue
        package = _folder_package(graph, k.path)
        found = next(((target, e.line) for e in summary.imports
                      if GUARDED_TRY not in (e.condition or "") and not e.type_checking
                      for base in [_absolute_base(e, package)] if base
                      for target in [base, *(f"{base}.{n}" for n in e.names)] if target in gone), None)
        if found is not None:
            plan.kept.remove(k)
            where = "outside the packages" if package is None else f"in {package} with no module name (`python -m`)"
            plan.removals.append(Removal(RemovalKind.UNREACHABLE, k.path, f"a script {where} that imports "
                                         f"{found[0]}, which the fork removes ({k.path}:{found[1]})", k.module,
                                         lines=summary.lines, group=_group(k.path)))


def _folder_package(graph: ModuleGraph, rel: str) -> str | None:
    """The package whose folder holds a file the module map has no name for (``jaraco/text/to-dvorak.py``, run as
    ``python -m jaraco.text.to-dvorak``): what its relative imports resolve against. None outside the packages."""
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    name = graph.mm.module_of(folder + "/__init__.py") if folder else None
    if name is None and folder:
        tree = graph.tree
        prefix = tree.relpath(tree.python_root) if tree.python_root != tree.root else ""
        inner = folder[len(prefix) + 1:] if prefix and folder.startswith(prefix + "/") else (folder if not prefix else None)
        candidate = inner.replace("/", ".") if inner else None
        name = candidate if candidate in graph.mm.modules else None  # an implicit namespace package
    return name


def _absolute_base(edge, package: str | None) -> str | None:
    """The module an import statement of a script names: its own for an absolute import, for a relative one what
    it resolves to from ``package`` (None where the script lies in no package)."""
    if edge.level == 0:
        return edge.module or None
    if package is None:
        return None
    parts = package.split(".")
    if edge.level - 1 >= len(parts):
        return None
    base = ".".join(parts[:len(parts) - (edge.level - 1)])
    return f"{base}.{edge.module}" if edge.module else base


DROPPED_IMPORT = "which the spec drops"


def carried_warnings(old: list[str], new: list[str]) -> list[str]:
    """The warnings of an earlier plan that still hold for a plan made again on rewritten code: not those about
    imports of dropped modules (the new plan lists the ones its kept code still has)."""
    return [w for w in old if w not in new and not w.endswith(DROPPED_IMPORT)]


def _unreached_reason(graph: ModuleGraph, module: str) -> str:
    importers = sorted({src for src, e in graph.importers(module) if e.kind != "parent"})
    typed = sorted({src for src, _ in graph.type_only.get(module, ()) if src in graph.reached})
    if typed and not any(src in graph.reached for src in importers):
        return (f"unreachable: kept code imports it only under TYPE_CHECKING or `if False:` ({', '.join(typed[:3])}), which "
                "type_checking_imports = 'ignore' does not follow")
    if not importers:
        return "unreachable: no module imports it and no root names it"
    shown = ", ".join(importers[:3]) + (f" and {len(importers) - 3} more" if len(importers) > 3 else "")
    return f"unreachable: only imported by modules that are not kept ({shown})"


def _group(rel: str) -> str:
    parts = rel.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def imports_of_dropped(graph: ModuleGraph):
    for src in graph.reached:
        for edge in graph.edges.get(src, ()):
            if edge.target in graph.excluded and edge.kind in ("import", "from", "dynamic") \
                    and GUARDED_TRY not in edge.detail:  # code that handles the module's absence is fine
                yield src, edge
