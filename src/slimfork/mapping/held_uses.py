"""Definitions a decorator cut removed that the final plan's kept code still names, inside a function too
(``def wrap(): from pkg.registry import create_dsa_backend``): the cut holds only what code run at import names,
since a function that names one may itself leave later (symbol pruning, a module the fold made unreachable). What
kept code still names once every stage has run is held by planning again (pipeline/stages.py), so the fork never
keeps a call to a deleted definition."""

from __future__ import annotations

import ast
from pathlib import Path

from slimfork.decisions import GONE_KINDS
from slimfork.globs import first_match
from slimfork.index.parse import parse_python
from slimfork.index.relative import absolute_module, package_of
from slimfork.plan.stages import Stages


def removed_definitions_in_use(stages: Stages, scratch: Path, tests: list[str]) -> frozenset[str]:
    """``path::name`` of each definition a decorator cut removed that a kept Python file of ``scratch`` outside
    the ``tests`` globs names (a test of removed code leaves with it): imports it from its module, reads it as an
    attribute, or (its own module) loads it."""
    mm = stages.graph.mm
    owners: dict[str, tuple[str, str]] = {}  # name -> (path, module)
    for cut in stages.data.get("decorator_registries", []):
        if cut["kind"] == "decorator" and cut["path"] in mm.by_path:
            for entry in cut["removed"]:
                owners[entry["definition"]] = (cut["path"], mm.by_path[cut["path"]])
    if not owners:
        return frozenset()
    gone = {r.path for r in stages.plan.removals if r.kind in GONE_KINDS}
    words = {name: name.encode() for name in owners}
    found: set[str] = set()
    for rel, module in sorted(mm.by_path.items()):
        if rel in gone or not rel.endswith(".py") or first_match(tests, rel) is not None \
                or not (scratch / rel).is_file():
            continue
        data = (scratch / rel).read_bytes()
        todo = {name for name, word in words.items() if word in data}
        if not todo:
            continue
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        package = package_of(module, rel.endswith("__init__.py"))
        for name in _named(tree, todo, package, owners, rel):
            found.add(f"{owners[name][0]}::{name}")
    return frozenset(found)


def _named(tree: ast.Module, names: set[str], package: str, owners: dict[str, tuple[str, str]], rel: str):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute_module(package, node.level, node.module) or ""
            yield from (a.name for a in node.names if a.name in names and owners[a.name][1] == base)
        elif isinstance(node, ast.Attribute) and node.attr in names:
            yield node.attr
        elif isinstance(node, ast.Name) and node.id in names and owners[node.id][0] == rel:
            yield node.id
