"""Plan again on rewritten code: the fold, the registry cuts and each symbol round edit a scratch copy of the
source, and modules only the deleted code imported become unreachable. One function for all of them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from slimfork.decisions import Plan
from slimfork.globs import first_match
from slimfork.graph import ModuleGraph, build_graph
from slimfork.graph.public_api import outside_callers
from slimfork.index import build_index
from slimfork.plan.build import build_plan, carried_warnings
from slimfork.source import SourceTree
from slimfork.spec import Spec


def replan(spec: Spec, tree: SourceTree, scratch: Path, base: Plan, graph: ModuleGraph,
           jobs: int | None = None, vacated: frozenset[str] = frozenset()) -> tuple[Plan, ModuleGraph]:
    """Index ``scratch`` (a copy of ``tree``'s Python files, rewritten), build the graph from ``graph``'s roots
    and exclusions, and plan. Files the scratch copy does not hold (non-Python files) keep their decisions from
    ``base``, and so do ``base``'s warnings that still hold. ``vacated``: see ``build_graph``."""
    index = build_index(scratch, jobs=jobs, use_cache=False, reuse=graph.index,
                        skip=lambda rel: first_match(spec.drop, rel) is not None)
    index.data_from = graph.index.data_from or (graph.index.root, graph.index.other_files)
    scratch_tree = dataclasses.replace(tree, root=scratch, python_root=scratch / tree.relpath(tree.python_root)
                                       if tree.python_root != tree.root else scratch)
    new = build_graph(scratch_tree, index, spec.roots, spec.registries, excluded=graph.excluded,
                      type_checking=spec.type_checking_imports, vacated=vacated,
                      outside_imports=tuple(spec.outside_imports), loose=graph.loose,
                      declared=spec.registry_packages,
                      api=outside_callers(spec.roots, graph.mm, spec.sections.get("symbols")))
    new.roots = list(graph.roots)  # keep globs and entry points found on the original
    new.reach(graph.excluded)
    plan = build_plan(spec, new)
    plan.warnings[:0] = carried_warnings(base.warnings, plan.warnings)
    have = {k.path for k in plan.kept} | {r.path for r in plan.removals}
    plan.kept += [k for k in base.kept if k.path not in have]
    plan.removals += [r for r in base.removals if r.path not in have]
    return plan, new
