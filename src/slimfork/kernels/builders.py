"""Native sources follow their builders: ``setup.py`` and ``CMakeLists.txt``, folded with the platform facts.

A native source (C, C++, CUDA, Objective-C, by suffix) that only a branch the facts rule out names (``if WINDOWS:``
in setup.py, ``if(WIN32)`` in CMake), and a header only such sources include, leaves the fork. Everything else stays
as today: a source a live branch, a kept Python module or a kept source's ``#include`` names; a source no builder
names at all; every native file below a builder that lists files at run time (unknown means keep).
"""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from slimfork.facts.evaluate import FactTable
from slimfork.facts.model import FUNCTION, NAME
from slimfork.kernels.cmake import platform_values, read_cmake
from slimfork.kernels.includes import build_include_graph, include_closure
from slimfork.kernels.setup_py import BuilderRefs, read_setup_py
from slimfork.decisions import Removal, RemovalKind

NATIVE_SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".cu", ".cuh", ".m", ".mm", ".inc",
                   ".inl")


@dataclass
class BuilderPlan:
    builders: list[BuilderRefs] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)  # native file -> why (live builders' names)


def platform_table(facts) -> FactTable:
    """The standard-library platform facts (sys.platform, os.name, platform.system()) as an evaluator table."""
    table = FactTable()
    for fact in getattr(facts, "facts", ()):
        if fact.kind == NAME and fact.target in ("sys.platform", "os.name"):
            table.values[fact.target] = fact.value
        elif fact.kind == FUNCTION and fact.target == "platform.system":
            table.calls[fact.target] = fact.value
        else:
            continue
        table.learn(fact.target)
    return table


def find_builders(files: Iterable[str]) -> list[str]:
    return sorted(f for f in files if posixpath.basename(f) in ("setup.py", "CMakeLists.txt"))


def plan_builders(root: Path, files: list[str], native: list[str], facts, entries: dict[str, str] | None = None,
                  read_root: Path | None = None, python_files: list[str] | None = None) -> BuilderPlan:
    """``files``: every file of the tree (posix, relative); ``native``: the native sources the fork keeps so far;
    ``entries``: native files kept Python code names (path -> why). ``read_root``: where native sources are read
    (the folded copy), default ``root``; ``python_files``: where setup.py's flag modules are looked for (default
    the ``.py`` files of ``files``)."""
    table = platform_table(facts)
    plan = BuilderPlan()
    if not table.values and not table.calls:
        return plan
    values = platform_values(table.values.get("sys.platform"), table.calls.get("platform.system"),
                             table.values.get("os.name"))
    python = python_files if python_files is not None else [f for f in files if f.endswith(".py")]
    for rel in find_builders(files):
        if rel.endswith(".py"):
            plan.builders.append(read_setup_py(root, rel, FactTable(values=dict(table.values),
                                                                    calls=dict(table.calls)), python))
        else:
            plan.builders.append(read_cmake(root, rel, values))
    native = sorted(native)
    governed: set[str] = set()
    dead: dict[str, str] = {}
    live = dict(entries or {})
    for refs in plan.builders:
        here = posixpath.dirname(refs.path)
        below = [f for f in native if not here or f.startswith(here + "/")]
        if refs.unknown:
            for f in below:
                live.setdefault(f, f"kept: {refs.unknown[0]}")
            continue
        governed.update(below)
        for pattern, why in refs.live:
            for f in _resolve(below, here, pattern, by_name=True):
                live.setdefault(f, f"built by {why}")
        for pattern, why in refs.dead:
            for f in _resolve(below, here, pattern, by_name=False):
                dead.setdefault(f, why)
    dead = {f: why for f, why in dead.items() if f in governed and f not in live}
    if not dead:
        plan.kept = live
        return plan
    graph = build_include_graph(read_root or root, native)
    dead_closure = include_closure(read_root or root, dead, graph=graph)
    entries_kept = {f: live.get(f, "no builder names it only in a branch the facts rule out")
                    for f in native if f not in dead_closure.reached or f in live}
    kept = include_closure(read_root or root, entries_kept, graph=graph)
    plan.kept = {f: why for f, why in kept.reached.items() if f in live or f in dead_closure.reached}
    for f in native:
        if f in kept.reached:
            continue
        builder = dead.get(f)
        reason = f"native source only {builder} builds" if builder else \
            f"native source only sources the fork leaves include ({dead_closure.reached[f]})"
        lines = (Path(read_root or root) / f).read_bytes().count(b"\n")
        plan.removals.append(Removal(RemovalKind.KERNEL, f, reason, lines=lines, group="native"))
    return plan


def _resolve(files: list[str], here: str, pattern: str, by_name: bool) -> list[str]:
    """Native files a pattern names, relative to the builder's folder (then, for live ones, by file name)."""
    full = posixpath.normpath(posixpath.join(here, pattern.lstrip("/"))) if not pattern.startswith("*") \
        else posixpath.join(here, pattern) if here else pattern
    found = [f for f in files if fnmatch.fnmatchcase(f, full)]
    if not found and any(f.startswith(full.rstrip("/") + "/") for f in files) and "*" not in full:
        return []  # a folder (include_dirs): it names no file by itself
    if not found and by_name and pattern.endswith(NATIVE_SUFFIXES):
        name = posixpath.basename(pattern)
        found = [f for f in files if fnmatch.fnmatchcase(posixpath.basename(f), name)]
    return found
